"""A game in progress for people: per-seat logs and undo with automatic barriers.

A :class:`Table` wraps a logging state. Every applied action is remembered with who took it, on which
turn, and whether it was a *barrier*: randomness was used (the generator moved) or the acting seat
learned a card it did not know before (``known_cards`` grew). A seat may take back its own decisions
of the current turn, newest first, back to the last barrier or the last decision of another seat.
Undo rebuilds the state by replaying the kept actions from the seed, so it can never drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.engine.errors import UndoRefused
from cardtable.engine.game import Event, Game, State
from cardtable.engine.seats import check_seat


@dataclass(frozen=True, slots=True)
class Step:
    """One applied decision, as undo needs to know it."""

    actor: int
    turn_before: int
    turn_after: int
    barrier: bool


class Table:
    """A seated game: apply actions by seat, read each seat's log, undo within a turn."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.state: State = game.new(seed, log=True)
        self.steps: list[Step] = []

    def apply(self, action: object, seat: object = None) -> Sequence[Event]:
        """Apply an action for ``seat`` (default: the seat to decide). Raises like ``State.apply``
        (:class:`InvalidSeat` first, for a seat that does not exist) and changes nothing then."""
        state = self.state
        actor = state.current_player if seat is None else check_seat(self.game, seat)
        rng_before = state.rng.state
        turn_before = state.turn
        known_before = state.known_cards(actor) if actor is not None else set()
        events = state.apply(action, seat)
        learned = actor is not None and not state.known_cards(actor) <= known_before
        barrier = learned or state.rng.state != rng_before
        self.steps.append(Step(actor if actor is not None else -1, turn_before, state.turn, barrier))
        return events

    def undoable(self, seat: object) -> int:
        """How many of ``seat``'s newest decisions can be taken back now (:class:`InvalidSeat` for a
        seat that does not exist)."""
        who = check_seat(self.game, seat)
        count = 0
        turn = self.state.turn
        for step in reversed(self.steps):
            if step.actor != who or step.barrier or step.turn_before != turn or step.turn_after != turn:
                break
            count += 1
        return count

    def undo(self, seat: object, count: object = 1) -> None:
        """Take back ``seat``'s ``count`` newest decisions. Raises :class:`InvalidSeat` for a seat that
        does not exist and :class:`UndoRefused` for a count that is not a whole number of at least 1 or
        that reaches past what may be undone; nothing changes then."""
        who = check_seat(self.game, seat)
        if isinstance(count, bool) or not isinstance(count, int):
            raise UndoRefused(f"undo count must be a whole number, got a {type(count).__name__}")
        if count < 1:
            raise UndoRefused("nothing to undo: count must be at least 1")
        available = self.undoable(who)
        if available < count:
            raise UndoRefused(
                f"{self.game.seat_name(who)} can take back {available} decision(s) now, not {count}: "
                "undo stops at another seat's decision, the start of the turn, a revealed card or a die roll"
            )
        keep = len(self.state.history) - count
        items = self.game.actions.items
        kept = [items[i] for i in self.state.history[:keep]]
        fresh = self.game.new(self.seed, log=True)
        for action in kept:
            fresh.apply(action)
        self.state = fresh
        del self.steps[keep:]

    def events(self, seat: object, since: int = 0) -> list[str]:
        """``seat``'s event log from index ``since`` (``None``: the spectator's; :class:`InvalidSeat`
        for a seat that does not exist)."""
        return self.state.events(seat, since)
