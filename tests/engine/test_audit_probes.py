"""Probes of the engine's doors found wanting in an audit: undo that let a seat keep what it saw.

``Table.undo`` stops at a *barrier* so that nobody can learn a hidden card and then have it hidden
again. It used to look at the acting seat alone: an action that made *another* seat see a card (the
opponent draws, a card is shown to one player) was no barrier, so the actor could take it back and
the card went back where it was hidden (a deck's top card) while that seat had read it. A finished
game could be taken back too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.engine import Action, State, Table, UndoRefused
from tests.engine.toy import Toy, ToyState


class GiveToy(Toy):
    """The toy game with ``give`` (the other seat draws a card; the turn goes on) and ``show``
    (the actor shows the highest card of its own hand to everyone; the turn goes on)."""

    id = "toy-give"

    def _setup(self) -> None:
        super()._setup()
        self.actions.declare("give")
        self.actions.declare("show")
        self.GIVE = self.actions.add("give")
        self.SHOW = self.actions.add("show")

    def new_state(self, seed: int, log: bool) -> State:
        return GiveToyState(self, seed, log)


class GiveToyState(ToyState):
    __slots__ = ("shown",)

    def __init__(self, game: Toy, seed: int, log: bool) -> None:
        super().__init__(game, seed, log)
        self.shown: set[int] = set()

    def clone(self) -> GiveToyState:
        other = super().clone()
        assert isinstance(other, GiveToyState)
        other.shown = set(self.shown)
        return other

    def _legal_actions(self) -> list[Action]:
        g: Any = self.game
        legal = super()._legal_actions()
        if self.played:
            return legal
        return [*legal, g.GIVE, g.SHOW] if self.deck else [*legal, g.SHOW]

    def _do(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None
        if action.kind == "give":
            card = self.deck.pop()
            self.hands[1 - seat].append(card)
            self.emit("give", f"P{2 - seat} draws a card", f"you draw {card}", (1 - seat,))
            return
        if action.kind == "show":
            card = max(self.hands[seat])
            self.shown.add(card)
            self.emit("show", f"P{seat + 1} shows {card}")
            return
        super()._do(action)

    def _known_cards(self, seat: int | None) -> set[int]:
        return super()._known_cards(seat) | self.shown


def test_undo_stops_where_another_seat_saw_a_hidden_card() -> None:
    t = Table(GiveToy(players=2), 3)
    assert isinstance(t.state, ToyState)
    top = t.state.deck[-1]
    t.apply("give")  # P2 draws the deck's top card: P2 has seen it
    assert top in t.state.known_cards(1)
    assert t.steps[-1].barrier
    assert t.undoable(0) == 0
    with pytest.raises(UndoRefused, match="revealed card"):
        t.undo(0)
    assert t.state.actions_taken() == ["give"] and top in t.state.known_cards(1)


def test_showing_ones_own_card_stays_undoable() -> None:
    """docs/engine.md's interpretation: a card a seat *shows* is no barrier for that seat."""
    t = Table(GiveToy(players=2), 3)
    t.apply("show")
    assert not t.steps[-1].barrier and t.undoable(0) == 1
    t.undo(0)
    assert t.state.actions_taken() == []


def test_a_finished_game_cannot_be_taken_back() -> None:
    t = Table(GiveToy(players=2), 5)
    rng = random.Random(5)
    while not t.state.is_over:
        s: Any = t.state
        legal = [a for a in s.legal_actions() if a.kind not in ("give", "show", "draw")] or s.legal_actions()
        t.apply(rng.choice(legal))
    last = t.steps[-1].actor
    assert t.undoable(last) == 0
    with pytest.raises(UndoRefused, match="over"):
        t.undo(last)
    assert t.state.is_over


def _foreign_sights(game_id: str, seeds: range, **options: Any) -> tuple[int, list[str]]:
    """Random games on a Table: how many decisions made another seat see a card the actor did not
    know, and the ones of those that the actor could still take back."""
    game = cardtable.load(game_id, **options)
    seen = 0
    undoable: list[str] = []
    for seed in seeds:
        t = Table(game, seed)
        rng = random.Random(seed)
        while not t.state.is_over and len(t.steps) < 2000:
            s = t.state
            actor = s.current_player
            assert actor is not None
            before = [s.known_cards(p) for p in range(game.players)]
            action = rng.choice(s.legal_actions())
            t.apply(action)
            for p in range(game.players):
                if p != actor and (s.known_cards(p) - before[p]) - before[actor]:
                    seen += 1
                    if t.undoable(actor):
                        undoable.append(f"seed {seed}, decision {len(t.steps)}: {action.text} by seat {actor}")
    return seen, undoable


def test_no_real_game_lets_a_seat_take_back_what_another_seat_saw() -> None:
    """Mephisto's Shade makes the opponent draw while the summoner's turn goes on: before the fix the
    summoner could take it back (seeds 7 and 8 of these), putting the drawn card back on the deck."""
    seen, undoable = _foreign_sights("mephisto", range(6, 10), players=2)
    assert seen > 0
    assert undoable == []


@pytest.mark.parametrize("since", ["x", None, 1.5, True, [1]])
def test_events_since_of_the_wrong_type_is_named(since: object) -> None:
    state = cardtable.load("mephisto", players=2).new(1)
    with pytest.raises(TypeError, match="since must be a whole number"):
        state.events(0, since)
    with pytest.raises(TypeError, match="since must be a whole number"):
        Table(state.game, 1).events(None, since)


def test_events_since_below_zero_is_refused_not_read_from_the_end() -> None:
    state = cardtable.load("mephisto", players=2).new(1)
    assert len(state.events(0)) > 1  # a negative index would have read the newest events
    with pytest.raises(ValueError, match="from 0"):
        state.events(0, -1)
    assert state.events(0, 10**30) == []
