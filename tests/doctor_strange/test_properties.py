"""DS13: protocol properties over many seeds — termination, card conservation, no hidden information
in views or logs, determinize keeps the view, exact replay, independent clones, atomic bad input."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

import cardtable
from cardtable.engine import Game, GameOver, IllegalAction, MalformedAction, NotYourTurn, Rng
from cardtable.engine.record import replay
from cardtable.games.doctor_strange.game import DoctorStrange
from cardtable.games.doctor_strange.state import DSState
from cardtable.testing.conformance import check_clone, rollout

from .helpers import all_cards, deal, determinize, game

CONFIGS = DoctorStrange.CONFIGURATIONS


def play_random(g: Game, seed: int, log: bool = False, check: Callable[[DSState, Rng], None] | None = None) -> DSState:
    st = g.new(seed, log=log)
    assert isinstance(st, DSState)
    r = Rng(seed * 7 + 1)
    while not st.is_over:
        la = st.legal_actions()
        assert la, "no legal action before the end"
        if check is not None:
            check(st, r)
        st.apply(la[r.below(len(la))])
    return st


def ids_in(obj: Any) -> set[int]:
    """Every card id that appears as a visible card ({"id": ...}) anywhere in a JSON value."""
    out: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and "name" in obj:
            out.add(obj["id"])
        for v in obj.values():
            out |= ids_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= ids_in(v)
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_games_end_or_stop_at_limit(config: dict[str, Any]) -> None:
    g = cardtable.load("doctor-strange", **config)
    for seed in range(150):
        st = play_random(g, seed)
        res = st.result()
        assert res.reason in ("no-viable-characters", "turn-limit")
        assert res.truncated == (res.reason == "turn-limit")
        assert st.current_player is None and st.legal_actions() == []


def test_turn_limit_stops_games() -> None:
    g = cardtable.load("doctor-strange", **{"turn-limit": 6})
    reasons = {play_random(g, s).result().reason for s in range(30)}
    assert reasons == {"turn-limit"}
    st = play_random(g, 0)
    assert st.result().truncated and st.turn == 6


@given(seed=st_.integers(0, 10_000), config=st_.sampled_from(CONFIGS))
def test_conservation_views_and_determinize(seed: int, config: dict[str, Any]) -> None:
    g = game(**config)
    everything = list(range(g.N))

    def check(st: DSState, r: Rng) -> None:
        if len(st.legal_actions()) == 1 and r.below(4):
            return  # a lone pass changes little: check one in four (keeps the test's time)
        assert all_cards(st) == everything
        # Each character is in exactly one place; per-slot state agrees with the zones.
        for c in g.CHARS:
            in_play = c in st.chars
            assert (st.side[g.SLOT[c]] >= 0) == in_play
        for seat in (0, 1, None):
            v = st.view(seat)
            assert ids_in(v) <= st.known_cards(seat), "a view shows a card its seat does not know"
            assert json.loads(json.dumps(v)) == v  # JSON-ready
        assert json.loads(json.dumps(st.snapshot())) == st.snapshot()
        if r.below(4) == 0:
            for seat in (0, 1):
                d = determinize(st, seat, r.below(1 << 30))
                assert d.view(seat) == st.view(seat)
                assert all_cards(d) == everything
                assert d.legal_actions()
                assert d.seed == -1
                # The determinized state is a playable game: a short random rollout never gets stuck.
                for _ in range(15):
                    if d.is_over:
                        break
                    la = d.legal_actions()
                    assert la, "no legal action in a determinized rollout"
                    d.apply(la[r.below(len(la))])

    play_random(g, seed, check=check)


@settings(max_examples=10)
@given(seed=st_.integers(0, 10_000))
def test_event_log_hides_private_cards(seed: int) -> None:
    g = cardtable.load("doctor-strange")
    st = play_random(g, seed, log=True)
    assert st.log is not None
    for e in st.log:
        if e.private is not None:
            # The public text of an event with private content never names a card.
            assert "(card " not in e.text, e.text
            assert e.to and len(e.to) == 1


@settings(max_examples=10)
@given(seed=st_.integers(0, 10_000))
def test_replay_is_exact(seed: int) -> None:
    g = cardtable.load("doctor-strange")
    st = play_random(g, seed, log=False)
    rec = st.record()
    again = replay(rec)
    assert again.fingerprint() == st.fingerprint()
    assert again.result() == st.result()


@settings(max_examples=10)
@given(seed=st_.integers(0, 10_000), cut=st_.integers(0, 60))
def test_clone_is_independent(seed: int, cut: int) -> None:
    g = cardtable.load("doctor-strange")
    st = g.new(seed, log=False)
    rollout(st, Rng(seed), cut)
    # Equal on copy; playing the clone (and a clone of it) to the end leaves the source unchanged.
    check_clone(st, Rng(seed + 1), steps=10**6)
    # A clone replays the same future as the original.
    a, b = st.clone(), st.clone()
    r3, r4 = Rng(5), Rng(5)
    for _ in range(30):
        if a.is_over:
            break
        la, lb = a.legal_actions(), b.legal_actions()
        assert [x.text for x in la] == [x.text for x in lb]
        a.apply(la[r3.below(len(la))])
        b.apply(lb[r4.below(len(lb))])
    assert a.fingerprint() == b.fingerprint()


def test_bad_input_changes_nothing() -> None:
    g = game()
    st = deal(g, 3)
    snap, legal = st.snapshot(), [a.text for a in st.legal_actions()]
    other = 1 - (st.current_player or 0)
    for bad in ("", "fly", "play", "play card=x", "play card=999", "play card=1 card=2", "take card=0"):
        with pytest.raises(IllegalAction):
            st.apply(bad)
        assert st.snapshot() == snap
    with pytest.raises(MalformedAction):
        st.apply(12)
    with pytest.raises(NotYourTurn):
        st.apply(st.legal_actions()[0], seat=other)
    assert st.snapshot() == snap and [a.text for a in st.legal_actions()] == legal
    # An action that exists but is illegal now says why without telling where a hidden card is: the
    # same words for a card of the opponent's hand and one of the deck (card names are public).
    mine = st.current_player or 0
    for hidden in (st.hands[other][0], st.deck[0]):
        with pytest.raises(IllegalAction) as err:
            st.apply(f"play card={hidden}", seat=mine)
        assert str(err.value) == f"'play card={hidden}' is not legal now: {g.card_name(hidden)} is not in your hand"
    done = play_random(g, 3)
    with pytest.raises(GameOver):
        done.apply("pass")
    with pytest.raises(ValueError):
        g.new(0).result()
    with pytest.raises(ValueError):
        g.new(0).view(2)


def test_describe_action_names_cards() -> None:
    g = cardtable.load("doctor-strange")
    assert g.describe_action(g.actions.parse("play card=24")) == "play Poison (card 24)"
    assert g.describe_action(g.actions.parse("attacker card=1")) == "attack with Baron Mordo (card 1)"
    assert g.describe_action(g.actions.parse("pass")).startswith("pass")
    for a in g.actions:
        assert g.describe_action(a)
