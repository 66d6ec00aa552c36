"""Properties over random games, every configuration (so every player count and option value):
games end or stop at the documented limit; every card in exactly one place; meat conserved when the
supply is finite; stat cards never above 4; mojo never carried from one phase to another; at most
one equipped item per slot; hands at most six between turns; views free of hidden cards and kept by
determinize; replay exact."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import Rng
from cardtable.games.mr_card_game.codes import D_COMBAT, D_DISCARD, D_LIMIT, D_NONCOMBAT, D_POLL
from cardtable.games.mr_card_game.game import MrCardGame
from cardtable.games.mr_card_game.state import McgState
from tests.support.walk import apply_random

from .helpers import conserved

CONFIGS = [dict(c) for c in MrCardGame.CONFIGURATIONS]
MAX_DECISIONS = 6000


def _state(config: dict[str, Any], seed: int) -> McgState:
    s = cardtable.load("mr-card-game", **config).new(seed, log=False)
    assert isinstance(s, McgState)
    return s


def _check_invariants(s: McgState, supply: int, prev: tuple[int, int, int, int]) -> None:
    g = s.game
    c = g.cards
    assert conserved(s)
    if supply:
        assert s.pool >= 0 and s.pool + sum(s.meat) == supply
    assert all(m >= 0 for m in s.meat)
    # Stat cards: twelve kinds, values 1..4, the piles never below zero.
    assert all(0 <= c.skind[x] < 12 for p in range(g.players) for x in (*s.hand[p], *s.deck[p], *s.disc[p]))
    for p in range(g.players):
        slots = [c.slot[x] for x in s.items[p] if s.eq >> x & 1]
        assert all(slots.count(k) <= 1 for k in (0, 1, 2)), "two equipped items in one slot"
        assert all(c.slot[x] >= 0 for x in s.items[p] if s.eq >> x & 1)
    # Mojo: empty whenever no phase is running, and at the start of every phase.
    turn, phase, actor, _ = prev
    if s.phase in (D_DISCARD, D_LIMIT, D_POLL) or s.is_over:
        assert s.mojo == 0
    if s.turn != turn or s.actor != actor or (phase == D_NONCOMBAT and s.phase == D_COMBAT):
        assert s.mojo == 0, "mojo carried into a new phase"
    # Between turns (a new turn starts): the previous player holds at most six cards.
    if s.turn != turn and actor >= 0 and not s.out >> actor & 1 and s.phase == D_NONCOMBAT:
        assert len(s.hand[actor]) <= 6
    assert s.current_player is None or not s.out >> s.current_player & 1, "an eliminated player decides"


@settings(max_examples=30)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_random_games_end_and_keep_every_invariant(config: dict[str, Any], seed: int) -> None:
    s = _state(config, seed)
    supply = s.game.meat_supply
    r = Rng(seed)
    prev = (s.turn, s.phase, -1, s.step)
    for _ in range(MAX_DECISIONS):
        if s.is_over:
            break
        legal = s.legal_actions()
        assert legal
        prev = (s.turn, s.phase, s.actor, s.step)
        s.apply(legal[r.below(len(legal))])
        _check_invariants(s, supply, prev)
    assert s.is_over, "a random game did not end"
    res = s.result()
    assert res.reason in ("sorceress-defeated", "all-eliminated", "turn-limit")
    assert res.truncated == (res.reason == "turn-limit")
    assert (res.reason == "sorceress-defeated") == bool(res.winners)
    if res.reason == "turn-limit":
        assert s.round == s.game.turn_limit + 1


@settings(max_examples=12)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31), steps=st.integers(0, 250))
def test_views_are_free_of_hidden_cards_and_determinize_keeps_them(
    config: dict[str, Any], seed: int, steps: int
) -> None:
    s = _state(config, seed)
    r = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        apply_random(s, r)
    stat_ids = set(s.game.cards.stats)
    for seat in range(s.game.players):
        view = s.view(seat)
        text = json.dumps(view)
        # Hidden cards never appear: no stat card id at all, no card below a location top.
        hidden = {x for li in s.game.cards.kingdom for x in s.below[li]} | set(s.skill_pile)
        shown = {int(m) for m in re.findall(r'"id": (\d+)', text)}
        assert not shown & (stat_ids | hidden)
        for k in range(3):
            d = s.determinize(seat, Rng(seed + k))
            assert json.dumps(d.view(seat)) == text
            assert d.known_cards(seat) == s.known_cards(seat)


@settings(max_examples=8)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_replay_is_exact(config: dict[str, Any], seed: int) -> None:
    s = cardtable.load("mr-card-game", **config).new(seed)
    r = Rng(seed)
    while not s.is_over and len(s.history) < 400:
        apply_random(s, r)
    again = cardtable.replay(json.loads(json.dumps(s.record())))
    assert again.snapshot() == s.snapshot() and again.events(None) == s.events(None)
