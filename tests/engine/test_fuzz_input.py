"""Fuzzing the protocol's doors with junk: every bad call gets a documented error and changes nothing.

For every built-in game and configuration, at positions reached by random play, hypothesis throws
arbitrary text (unicode digits, huge numbers, control characters), non-text values and arbitrary
seat arguments at ``State.apply``, ``Table.apply`` and ``Table.undo``, and arbitrary JSON at
``cardtable.replay``. The documented answers:

* ``apply``: an :class:`IllegalAction` (``MalformedAction``, ``NotYourTurn``, ``InvalidSeat``,
  ``GameOver``), with a bounded one-line message, and the snapshot unchanged;
* ``Table.undo``: :class:`InvalidSeat` or :class:`UndoRefused`, the table unchanged;
* ``replay``: a :class:`CardtableError` (``RecordError``, ``ReplayDivergence``, ...), never another
  exception.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import CardtableError, IllegalAction, InvalidSeat, Rng, State, Table, UndoRefused
from cardtable.testing.conformance import MESSAGE_LIMIT, cases

CASES = cases(cardtable.games.builtin())

NUMBERS = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(min_value=10**17, max_value=10**40),
    st.just(10**5000),
    st.sampled_from(["²", "١٧", "--1", "-0", "0x10", "1e3", "٣", "Ⅻ", "𝟙𝟟", "0" * 30, "9" * 5000]),  # noqa: RUF001
)
TEXTS = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
    st.builds(
        lambda k, v: f"{k} {v}",
        st.sampled_from(["play", "card", "fight", "discard", "done", "pass"]),
        st.text(max_size=20),
    ),
)
VALUES = st.one_of(
    TEXTS,
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.binary(max_size=10),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
SEATS = st.one_of(
    st.none(),
    st.integers(-3, 9),
    st.integers(min_value=10**6),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.sampled_from(["P1", "1", b"0", [0], (0,), 0.0, 1.0]),
)


@cache
def position(case: int, seed: int, steps: int) -> tuple[str, list[str]]:
    """A game (by case) and the texts of ``steps`` random actions from ``seed`` (cached, replayed)."""
    game_id, options = CASES[case]
    state = cardtable.load(game_id, **options).new(seed, log=False)
    r = Rng(seed)
    texts: list[str] = []
    while not state.is_over and len(texts) < steps:
        legal = state.legal_actions()
        action = legal[r.below(len(legal))]
        state.apply(action)
        texts.append(action.text)
    return game_id, texts


def table_at(case: int, seed: int, steps: int) -> Table:
    game_id, texts = position(case, seed, steps)
    table = Table(cardtable.load(game_id, **CASES[case][1]), seed)
    for text in texts:
        table.apply(text)
    return table


def action_inputs() -> st.SearchStrategy[Any]:
    """Action arguments: junk values, and action texts with junk numbers as their values."""
    return st.one_of(
        VALUES,
        st.builds(
            lambda kind, number: f"{kind} {'card' if kind != 'fight' else 'lane'}={number}",
            st.sampled_from(["play", "discard", "fight", "summon"]),
            NUMBERS,
        ),
    )


def refused_cleanly(state: State, attempt: Any) -> None:
    before = state.snapshot()
    legal = [a.index for a in state.legal_actions()]
    try:
        attempt()
    except IllegalAction as exc:
        message = str(exc)
        assert message and len(message) <= MESSAGE_LIMIT and "\n" not in message, message[:200]
    else:
        return  # a junk input may happen to name a legal action: then it was applied (on a clone)
    assert state.snapshot() == before
    assert [a.index for a in state.legal_actions()] == legal


@settings(max_examples=60)
@given(
    case=st.integers(0, len(CASES) - 1),
    seed=st.integers(0, 3),
    steps=st.integers(0, 60),
    action=action_inputs(),
    seat=SEATS,
)
def test_apply_refuses_junk_with_documented_errors(case: int, seed: int, steps: int, action: Any, seat: Any) -> None:
    table = table_at(case, seed, steps)
    state = table.state.clone()
    refused_cleanly(state, lambda: state.apply(action, seat=seat))
    refused_cleanly(state, lambda: state.apply(action))
    snap = table.state.snapshot()
    log = len(table.state.log or [])
    try:
        table.apply(action, seat)
    except IllegalAction as exc:
        assert len(str(exc)) <= MESSAGE_LIMIT
        assert table.state.snapshot() == snap and len(table.state.log or []) == log
    else:
        assert len(table.state.history) == len(position(case, seed, steps)[1]) + 1


@settings(max_examples=40)
@given(
    case=st.integers(0, len(CASES) - 1),
    seed=st.integers(0, 3),
    steps=st.integers(0, 40),
    seat=SEATS,
    count=VALUES | st.integers(-5, 5),
)
def test_undo_refuses_junk_with_documented_errors(case: int, seed: int, steps: int, seat: Any, count: Any) -> None:
    table = table_at(case, seed, steps)
    snap = table.state.snapshot()
    history = list(table.state.history)
    try:
        table.undo(seat, count)
    except (InvalidSeat, UndoRefused) as exc:
        assert str(exc) and len(str(exc)) <= MESSAGE_LIMIT
        assert table.state.snapshot() == snap and table.state.history == history
    else:
        assert len(table.state.history) == len(history) - count


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@cache
def a_record(case: int) -> dict[str, Any]:
    game_id, texts = position(case, 1, 30)
    state = cardtable.load(game_id, **CASES[case][1]).new(1, log=False)
    for text in texts:
        state.apply(text)
    return state.record()


@settings(max_examples=80)
@given(
    case=st.integers(0, len(CASES) - 1),
    field=st.sampled_from(
        ["format", "game", "options", "seed", "actions", "hashes", "result", "cards", "config", "engine"]
    ),
    value=JSON_VALUES,
    index=st.integers(0, 40),
)
def test_replay_refuses_junk_records_with_documented_errors(case: int, field: str, value: Any, index: int) -> None:
    record = copy.deepcopy(a_record(case))
    if field in ("actions", "hashes") and isinstance(record[field], list) and record[field] and index % 2:
        record[field][index % len(record[field])] = value  # one entry of the list
    else:
        record[field] = value
    try:
        cardtable.replay(record)
    except CardtableError as exc:
        assert str(exc)
    except RecursionError:  # pragma: no cover - the failure this test exists to catch
        pytest.fail("replay recursed without limit")


def test_replay_of_deeply_nested_options_is_a_clear_error() -> None:
    record = copy.deepcopy(a_record(0))
    nested: Any = 0
    for _ in range(100_000):
        nested = [nested]
    record["options"] = {"players": nested}
    with pytest.raises(CardtableError):
        cardtable.replay(record)
