"""Properties over random games in every configuration: termination, legality, conservation, limits,
hidden information (views, determinize), replay and clone independence."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import Rng
from cardtable.games.mephisto.game import Mephisto
from cardtable.games.mephisto.rules import MephistoState
from cardtable.testing.conformance import check_clone, rollout
from tests.support.walk import apply_random

from .helpers import determinize, where

CONFIGS = [dict(c) for c in Mephisto.CONFIGURATIONS]
MAX_DECISIONS = 5000


def _state(config: dict[str, Any], seed: int, log: bool = False) -> MephistoState:
    s = cardtable.load("mephisto", **config).new(seed, log=log)
    assert isinstance(s, MephistoState)
    return s


def _ids_in(value: Any, out: set[int]) -> set[int]:
    """Every card id shown in a view (cards appear as dicts with an id and a name)."""
    if isinstance(value, dict):
        if "id" in value and "name" in value:
            out.add(value["id"])
        for v in value.values():
            _ids_in(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids_in(v, out)
    return out


@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_random_games_end_and_keep_every_invariant(config: dict[str, Any], seed: int) -> None:
    s = _state(config, seed)
    rng = Rng(seed)
    n = s.game.players
    souls = list(s.soul_pts)
    for _ in range(MAX_DECISIONS):
        if s.is_over:
            break
        legal = s.legal_actions()
        assert legal, "legal_actions() is empty before the end"
        s.apply(legal[rng.below(len(legal))])
        assert len(where(s)) == 60  # every card in exactly one place
        assert all(0 <= f <= 10 for f in s.favor)
        assert all(s.soul_pts[p] >= souls[p] for p in range(n))
        souls = list(s.soul_pts)
        assert s.soul_pts == [sum(s.game.cards.souls[m] for m in pile) for pile in s.souls]
    assert s.is_over, "the random game did not end"
    assert s.current_player is None and s.legal_actions() == []
    r = s.result()
    assert len(r.ranks) == n and min(r.ranks) == 1


@settings(max_examples=10)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_every_legal_action_applies(config: dict[str, Any], seed: int) -> None:
    s = _state(config, seed)
    rng = Rng(seed)
    steps = 0
    while not s.is_over and steps < 400:
        legal = s.legal_actions()
        for action in legal:
            c = s.clone()
            c.apply(action)  # must not raise
            assert len(where(c)) == 60
        s.apply(legal[rng.below(len(legal))])
        steps += 1


@settings(max_examples=12)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_views_hide_what_a_seat_cannot_know_and_determinize_keeps_them(config: dict[str, Any], seed: int) -> None:
    s = _state(config, seed, log=True)
    rng = Rng(seed)
    n = s.game.players
    step = 0
    while not s.is_over:
        if step % 7 == 0:
            for seat in range(n):
                v = s.view(seat)
                assert json.loads(json.dumps(v)) == v  # JSON-ready
                shown = _ids_in(v, set())
                known = s.known_cards(seat)
                assert shown <= known
                for other in range(n):
                    if other != seat:
                        secret = {c for c in s.hands[other] if not s.pub >> c & 1}
                        assert not shown & secret
                assert not shown & set(s.deck)
                assert v["progress"]["deck"] == len(s.deck)
                samples = [determinize(s, seat, Rng(seed + k)) for k in range(4)]
                for d in samples:
                    assert d.view(seat) == v
                    assert len(where(d)) == 60
                    assert d.known_cards(seat) == known
                hidden = len(s.deck) + sum(len(s.hands[o]) for o in range(n) if o != seat)
                if hidden - bin(s.pub).count("1") >= 4:
                    assert any(d.deck != s.deck or d.hands != s.hands for d in samples)
        apply_random(s, rng)
        step += 1


@settings(max_examples=8)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_private_draws_stay_private_in_the_log(config: dict[str, Any], seed: int) -> None:
    s = _state(config, seed, log=True)
    rng = Rng(seed)
    while not s.is_over:
        apply_random(s, rng)
    for event in s.log or []:
        if event.kind in ("draw", "deal"):
            assert event.private is not None and "(card" not in event.text
            for seat in range(s.game.players):
                if seat not in event.to:
                    assert event.for_seat(seat) == event.text


@settings(max_examples=8)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_replay_of_the_record_reproduces_the_final_snapshot(config: dict[str, Any], seed: int) -> None:
    s = _state(config, seed)
    rng = Rng(seed)
    while not s.is_over:
        apply_random(s, rng)
    again = cardtable.replay(s.record())
    assert again.snapshot() == s.snapshot()
    assert again.result() == s.result()


@settings(max_examples=8)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_clone_is_independent(config: dict[str, Any], seed: int) -> None:
    s = _state(config, seed)
    rollout(s, Rng(seed), 40)
    # Equal on copy; playing the clone (and a clone of it) to the end leaves the source unchanged.
    check_clone(s, Rng(seed + 1), steps=10**6)
