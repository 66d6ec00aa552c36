"""Table undo: a seat takes back its own decisions of the current turn, never across a barrier.

The toy game ends a turn on every draw, so these tests use a variant where drawing and rolling a
die keep the turn: ``draw`` (reveals a card to the drawer), ``roll`` (adds a die to the score, moving
the generator), ``play card=N`` then ``pass`` (ends the turn).
"""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.engine import Action, IllegalAction, NotYourTurn, State, Table, UndoRefused
from tests.engine.toy import Toy, ToyState


class UndoToy(Toy):
    id = "toy-undo"

    def _setup(self) -> None:
        super()._setup()
        self.actions.declare("roll")
        self.ROLL = self.actions.add("roll")

    def new_state(self, seed: int, log: bool) -> State:
        return UndoToyState(self, seed, log)


class UndoToyState(ToyState):
    __slots__ = ()

    def _legal_actions(self) -> list[Action]:
        g: Any = self.game
        legal = super()._legal_actions()
        return legal if self.played else [*legal, g.ROLL]

    def _do(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None
        if action.kind == "draw":
            card = self.deck.pop()
            self.hands[seat].append(card)
            self.emit("draw", f"P{seat + 1} draws a card", f"you draw {card}", (seat,))
            return
        if action.kind == "roll":
            self.scores[seat] += self.rng.roll(6)
            self.emit("roll", f"P{seat + 1} rolls")
            return
        super()._do(action)


def table(seed: int = 3) -> Table:
    return Table(UndoToy(players=2), seed)


def first_card(t: Table, seat: int) -> str:
    state = t.state
    assert isinstance(state, ToyState)
    return f"play card={min(state.hands[seat])}"


def test_undo_own_decision_within_the_turn() -> None:
    t = table()
    start = t.state.snapshot()
    t.apply(first_card(t, 0))
    assert t.undoable(0) == 1 and t.undoable(1) == 0
    t.undo(0)
    assert t.state.snapshot() == start
    assert t.state.events(0) == [] and t.steps == []


def test_undo_rebuilds_exactly_the_kept_prefix() -> None:
    t = table()
    t.apply(first_card(t, 0))
    t.apply("pass")
    t.apply(first_card(t, 1))
    kept = t.state.actions_taken()[:2]
    t.undo(1)
    fresh = UndoToy(players=2).new(3)
    for text in kept:
        fresh.apply(text)
    assert t.state.snapshot() == fresh.snapshot()
    assert t.state.events(None) == fresh.events(None)


def test_refused_across_another_seats_decision() -> None:
    t = table()
    t.apply(first_card(t, 0))
    t.apply("pass")
    t.apply(first_card(t, 1))
    assert t.undoable(0) == 0
    with pytest.raises(UndoRefused, match="P1 can take back 0 decision"):
        t.undo(0)
    assert t.undoable(1) == 1


def test_refused_across_the_turn_boundary() -> None:
    t = table()
    t.apply(first_card(t, 0))
    t.apply("pass")  # ends P1's turn
    before = t.state.snapshot()
    with pytest.raises(UndoRefused, match="start of the turn"):
        t.undo(0)
    assert t.state.snapshot() == before


def test_refused_across_the_turn_boundary_of_the_same_seat() -> None:
    """A seat that plays two turns in a row (the other has no cards and the deck is empty) cannot
    take back its previous turn: the turn number changed."""
    t = table(seed=1)
    while True:
        s: Any = t.state
        seat = s.current_player
        if s.played:
            t.apply("pass")
        elif s.deck:
            t.apply("draw")
        else:
            t.apply(f"play card={min(s.hands[seat])}")
        if t.state.is_over:
            pytest.fail("no seat played two turns in a row in this deal")
        last = t.steps[-1]
        if last.actor == t.state.current_player and last.turn_after != last.turn_before:
            break
    assert t.undoable(t.state.current_player) == 0


def test_refused_across_a_draw_that_revealed_a_card() -> None:
    t = table()
    t.apply("draw")  # the drawer learns a card: a barrier
    assert t.steps[-1].barrier
    assert t.undoable(0) == 0
    t.apply(first_card(t, 0))
    assert t.undoable(0) == 1
    with pytest.raises(UndoRefused, match="revealed card"):
        t.undo(0, 2)
    t.undo(0)
    assert t.state.actions_taken() == ["draw"]


def test_refused_across_rng_use() -> None:
    t = table()
    t.apply("roll")  # the generator moved: a barrier, or the seat could reroll by undoing
    assert t.steps[-1].barrier
    with pytest.raises(UndoRefused, match="die roll"):
        t.undo(0)
    t.apply(first_card(t, 0))
    assert t.undoable(0) == 1
    with pytest.raises(UndoRefused):
        t.undo(0, 2)


def test_several_decisions_undone_newest_first() -> None:
    t = table()
    t2 = table()
    t.apply("roll")
    t2.apply("roll")
    t.apply(first_card(t, 0))
    assert t.undoable(0) == 1
    t.undo(0, 1)
    assert t.state.snapshot() == t2.state.snapshot()


def test_count_must_be_positive() -> None:
    t = table()
    with pytest.raises(UndoRefused, match="at least 1"):
        t.undo(0, 0)


def test_bad_input_through_a_table_records_nothing() -> None:
    t = table()
    before = t.state.snapshot()
    for bad, cls in (("jump", IllegalAction), ("pass", IllegalAction)):
        with pytest.raises(cls):
            t.apply(bad)
    with pytest.raises(NotYourTurn):
        t.apply(first_card(t, 0), seat=1)
    assert t.steps == [] and t.state.snapshot() == before
