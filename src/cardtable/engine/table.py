"""A game in progress for people: per-seat logs and undo with automatic barriers.

A :class:`Table` wraps a logging state. Every applied action is remembered with who took it, on which
turn, and whether it was a *barrier*: randomness was used (the generator moved), the acting seat
learned a card it did not know before (``known_cards`` grew), another seat learned a card the acting
seat did not know (it drew one, one was shown to it alone: taken back, that card would be hidden again
after being seen), or the game ended. A seat may take back its own decisions of the current turn,
newest first, back to the last barrier or the last decision of another seat; a card a seat shows from
its own hand is no barrier (docs/engine.md, "Undo").

Undo rebuilds the state by replaying kept actions, so it can never drift, but never from the seed:
the table keeps a *checkpoint* (a clone of the state, with the length of its event log) every
:data:`CHECKPOINT_EVERY` decisions, and replays from the newest checkpoint at or before the point
undone to. Only checkpoints an undo could still reach are kept (and the game's start): a barrier or
a turn change can never be taken back, so the checkpoints between the start and the newest one at
or before the last of them are dropped. An undo therefore costs at most ``CHECKPOINT_EVERY`` +
``count`` applies however long the game is (a 12,000-decision game made each undo replay all 12,000
before, 229 ms on the web server's event loop). :meth:`Table.rewind` takes back the newest decision
whatever it was, at the same cost, for a caller that could not keep it (the web server, when the
database refused to store a move).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cardtable.engine.errors import UndoRefused
from cardtable.engine.game import Event, Game, State
from cardtable.engine.seats import check_seat

CHECKPOINT_EVERY: Final = 32
"""Decisions between two checkpoints: an undo replays at most this many beyond its count."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The state after ``actions`` decisions (a clone: no log) and how long its event log was."""

    actions: int
    log_length: int
    state: State


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
        self.checkpoints: list[Checkpoint] = [self._checkpoint()]
        self._floor = 0
        """No undo can ever keep fewer decisions than this: the count after the newest barrier or
        turn change (undo stops at both, and only ever removes the newest decisions)."""
        self._known: tuple[int, State, list[set[int]]] | None = None

    def _known_now(self) -> list[set[int]]:
        """Every seat's ``known_cards`` in the state as it is now, kept for the next :meth:`apply`
        (whose "before" it is) while the state's history has not moved: one call per seat and
        decision, not two."""
        state = self.state
        done = len(state.history)
        if self._known is None or self._known[0] != done or self._known[1] is not state:
            self._known = (done, state, [state.known_cards(p) for p in range(self.game.players)])
        return self._known[2]

    def _checkpoint(self) -> Checkpoint:
        state = self.state
        return Checkpoint(len(state.history), len(state.log or ()), state.clone())

    def apply(self, action: object, seat: object = None) -> Sequence[Event]:
        """Apply an action for ``seat`` (default: the seat to decide). Raises like ``State.apply``
        (:class:`InvalidSeat` first, for a seat that does not exist) and changes nothing then."""
        state = self.state
        actor = state.current_player if seat is None else check_seat(self.game, seat)
        rng_before = state.rng.state
        turn_before = state.turn
        known_before = self._known_now()
        events = state.apply(action, seat)
        known_after = self._known_now()
        barrier = state.rng.state != rng_before or state.is_over
        if actor is not None and not barrier:
            own = known_before[actor]
            for p, before in enumerate(known_before):
                learned = known_after[p] - before
                # The actor seeing a card, or another seat seeing one the actor did not know (a card
                # it drew, one shown to it alone): taken back, it would be hidden again, and seen.
                if learned and (p == actor or not learned <= own):
                    barrier = True
                    break
        self.steps.append(Step(actor if actor is not None else -1, turn_before, state.turn, barrier))
        done = len(self.steps)
        if barrier or state.turn != turn_before:
            self._floor = done
        if done % CHECKPOINT_EVERY == 0:
            self.checkpoints.append(self._checkpoint())
        self._prune()
        return events

    def _prune(self) -> None:
        """Drop the checkpoints no undo (nor a rewind of the newest decision) can reach: those between
        the game's start and the newest one at or before the floor."""
        points = self.checkpoints
        limit = min(self._floor, len(self.steps) - 1)
        keep_from = 1
        for i, point in enumerate(points):
            if point.actions <= limit:
                keep_from = max(1, i)
            else:
                break
        if keep_from > 1:
            del points[1:keep_from]

    def undoable(self, seat: object) -> int:
        """How many of ``seat``'s newest decisions can be taken back now (:class:`InvalidSeat` for a
        seat that does not exist)."""
        who = check_seat(self.game, seat)
        count = 0
        if self.state.is_over:
            return count
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
        self._rebuild(len(self.state.history) - self.check_undo(seat, count))

    def check_undo(self, seat: object, count: object = 1) -> int:
        """Raise as :meth:`undo` would for ``seat`` and ``count``, changing nothing (a caller that must
        store the undo before it is made checks first); returns the count."""
        who = check_seat(self.game, seat)
        if isinstance(count, bool) or not isinstance(count, int):
            raise UndoRefused(f"undo count must be a whole number, got a {type(count).__name__}")
        if count < 1:
            raise UndoRefused("nothing to undo: count must be at least 1")
        if self.state.is_over:
            raise UndoRefused("the game is over: nothing can be taken back")
        available = self.undoable(who)
        if available < count:
            raise UndoRefused(
                f"{self.game.seat_name(who)} can take back {available} decision(s) now, not {count}: "
                "undo stops at another seat's decision, the start of the turn, a revealed card or a die roll"
            )
        return count

    def rewind(self, count: int = 1) -> None:
        """Take back the newest ``count`` decisions, whatever they were (no barrier stops it): not a
        player's undo, but for a caller that could not keep them, such as a server whose database
        refused to store the move it had just applied. Rewinding the newest decision costs at most
        ``CHECKPOINT_EVERY`` applies; going further back may replay from the game's start."""
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= len(self.steps):
            raise ValueError(f"rewind count must be a whole number from 0 to {len(self.steps)}, got {count!r}")
        if count:
            self._rebuild(len(self.steps) - count)

    def _rebuild(self, keep: int) -> None:
        """Make the state the one after the first ``keep`` decisions, from the newest checkpoint."""
        old = self.state
        while self.checkpoints[-1].actions > keep:
            self.checkpoints.pop()
        point = self.checkpoints[-1]  # the game's start is never dropped
        fresh = point.state.clone()
        if old.log is not None:
            fresh.start_log(old.log.head(point.log_length))
        items = self.game.actions.items
        for index in old.history[point.actions : keep]:
            fresh.apply(items[index])
        self.state = fresh
        del self.steps[keep:]
        if self._floor > keep:  # a rewind took back a barrier or a turn change: find the one before
            self._floor = next(
                (
                    i + 1
                    for i in range(keep - 1, -1, -1)
                    if self.steps[i].barrier or self.steps[i].turn_before != self.steps[i].turn_after
                ),
                0,
            )

    def events(self, seat: object, since: object = 0) -> list[str]:
        """``seat``'s event log from index ``since`` (``None``: the spectator's; :class:`InvalidSeat`
        for a seat that does not exist; ``since`` as :meth:`State.events` checks it)."""
        return self.state.events(seat, since)
