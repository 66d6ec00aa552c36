"""The State base class: atomic apply with the right errors, per-seat events, results, fingerprints."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.engine import Event, GameOver, IllegalAction, MalformedAction, NotYourTurn, fingerprint_of
from cardtable.engine.game import ranks_from_keys
from tests.engine.toy import Toy, ToyState

cardtable.register("toy", Toy)


def test_new_requires_an_integer_seed() -> None:
    game = cardtable.load("toy")
    for bad in ("1", 1.0, True, None):
        with pytest.raises(TypeError, match="seed must be an integer"):
            game.new(bad)


def test_apply_errors_and_atomicity() -> None:
    state = cardtable.load("toy").new(3)
    before = state.snapshot()
    with pytest.raises(MalformedAction):
        state.apply("jump")
    with pytest.raises(NotYourTurn, match="P2 cannot act now: it is P1's decision"):
        state.apply(state.legal_actions()[0], seat=1)
    with pytest.raises(IllegalAction, match="'pass' is not legal now for P1"):
        state.apply("pass")
    assert state.snapshot() == before and state.history == []


def test_actions_of_another_load_are_resolved_by_text() -> None:
    state = cardtable.load("toy").new(3)
    foreign = Toy(players=2)  # a separate load with its own action objects
    text = state.legal_actions()[0].text
    state.apply(foreign.actions.parse(text))
    assert state.actions_taken() == [text]


def test_after_the_end() -> None:
    state = cardtable.load("toy").new(2)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    with pytest.raises(GameOver, match="the game is over; 'pass' cannot be applied"):
        state.apply("pass")
    assert state.legal_actions() == [] and state.current_player is None


def test_events_per_seat() -> None:
    state = cardtable.load("toy").new(4)
    assert isinstance(state, ToyState)
    events = state.apply("draw")
    assert [e.kind for e in events] == ["draw"]
    drawn = state.hands[0][-1]
    assert state.events(0) == [f"you draw {drawn}"]
    assert state.events(1) == ["P1 draws a card"] == state.events(None)
    assert state.events(0, since=1) == []
    quiet = cardtable.load("toy").new(4, log=False)
    assert quiet.apply("draw") == () and quiet.events(0) == []
    assert quiet.snapshot() == state.snapshot()


def test_event_for_seat() -> None:
    e = Event("draw", "public", "private", frozenset({1}))
    assert [e.for_seat(s) for s in (0, 1, None)] == ["public", "private", "public"]
    assert Event("x", "only").for_seat(1) == "only"


def test_view_checks_the_seat() -> None:
    state = cardtable.load("toy").new(1)
    for bad in (-1, 2, True, "0"):
        with pytest.raises(ValueError, match="no seat"):
            state.view(bad)
    assert state.view(None)["hand"] is None and state.view(0)["seat"] == 0


@given(st.lists(st.tuples(st.integers(0, 5)), min_size=1, max_size=6))
def test_ranks_from_keys_are_competition_ranks(keys: list[tuple[int]]) -> None:
    ranks = ranks_from_keys([(float(k[0]),) for k in keys])
    for i, r in enumerate(ranks):
        assert r == 1 + sum(1 for other in keys if other > keys[i])
    assert min(ranks) == 1


def test_fingerprint_is_order_independent_and_short() -> None:
    assert fingerprint_of({"a": 1, "b": [1, 2]}) == fingerprint_of({"b": [1, 2], "a": 1})
    assert fingerprint_of({"a": 1}) != fingerprint_of({"a": 2})
    assert len(fingerprint_of(None)) == 12


def test_result_json_and_reason() -> None:
    state = cardtable.load("toy").new(2)
    with pytest.raises(ValueError, match="not over"):
        state.result()
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    res = state.result().to_json()
    assert res["reason"] == "hands-empty" and res["turns"] == state.turn
    assert sorted(res) == ["details", "draw", "ranks", "reason", "scores", "teams", "truncated", "turns", "winners"]
