"""A wrong-typed argument to any public entry point gets its documented error, in either build.

The compiled build checks the declared types of compiled functions itself (a bare ``TypeError``
such as "int object expected; got str"); the public doors therefore take ``object`` and check what
they get, so both builds answer alike (docs/engine.md, "Errors"): ``InvalidSeat`` for anything that
is no seat, ``MalformedAction`` for anything that is neither an action nor its text, ``UndoRefused``
for an undo count that is no whole number, ``RecordError`` for a record that is no record object, and
``TypeError`` for a seed or generator that is no integer. Nothing changes when they are raised.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.engine import InvalidSeat, MalformedAction, RecordError, Rng, Table, UndoRefused
from cardtable.engine.rng import PyRng
from cardtable.games import builtin

JUNK: list[Any] = ["0", "P1", b"0", 1.0, float("nan"), [0], (0,), {0: 0}, object(), -1, 99, 10**30, True]
NOT_INTEGERS: list[Any] = ["0", b"0", 1.0, [0], None, object(), True]


def label(value: Any) -> str:
    """A test id that is the same in every worker (an object's repr has its address)."""
    return type(value).__name__ if type(value) is object else repr(value)[:20]


@pytest.fixture(params=builtin())
def state(request: pytest.FixtureRequest) -> Any:
    state = cardtable.load(request.param).new(3)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("seat", JUNK, ids=label)
def test_seat_arguments(state: Any, seat: Any) -> None:
    before = state.snapshot()
    with pytest.raises(InvalidSeat):
        state.view(seat)
    with pytest.raises(InvalidSeat):
        state.events(seat)
    with pytest.raises(InvalidSeat):
        state.known_cards(seat)
    with pytest.raises(InvalidSeat):
        state.determinize(seat, 1)
    with pytest.raises(InvalidSeat):
        state.apply(state.legal_actions()[0], seat=seat)
    table = Table(state.game, 3)
    with pytest.raises(InvalidSeat):
        table.apply(table.state.legal_actions()[0], seat)
    with pytest.raises(InvalidSeat):
        table.undo(seat)
    with pytest.raises(InvalidSeat):
        table.undoable(seat)
    with pytest.raises(InvalidSeat):
        table.events(seat)
    assert state.snapshot() == before


@pytest.mark.parametrize("action", [None, 3, 1.5, b"done", ["done"], object(), True], ids=label)
def test_action_arguments(state: Any, action: Any) -> None:
    before = state.snapshot()
    with pytest.raises(MalformedAction, match="an action must be an Action or its text"):
        state.apply(action)
    with pytest.raises(MalformedAction):
        state.game.actions.parse(action)
    with pytest.raises(MalformedAction):
        Table(state.game, 3).apply(action)
    assert state.snapshot() == before


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=label)
def test_seeds_and_generators(state: Any, value: Any) -> None:
    with pytest.raises(TypeError, match="seed must be an integer"):
        state.game.new(value)
    with pytest.raises(TypeError, match="rng must be a generator"):
        state.determinize(0, value)
    if value is not True:  # a bool is an int to the generator, as to Python
        for twin in (Rng, PyRng):
            with pytest.raises(TypeError):
                twin(value)


@pytest.mark.parametrize("count", ["1", 1.0, None, True, [1], object()], ids=label)
def test_undo_counts(state: Any, count: Any) -> None:
    table = Table(state.game, 3)
    with pytest.raises(UndoRefused, match="whole number"):
        table.undo(0, count)


@pytest.mark.parametrize("record", [None, "record", 7, [], b"{}", object()], ids=label)
def test_records(record: Any) -> None:
    with pytest.raises(RecordError):
        cardtable.replay(record)


def test_truth_values_are_read_for_their_truth() -> None:
    game = cardtable.load("mephisto")
    assert game.new(1, log=0).log is None
    assert game.new(1, log="yes").log
