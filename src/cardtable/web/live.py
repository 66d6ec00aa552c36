"""A table in play on the server: the engine's :class:`~cardtable.engine.Table`, its seats and its moves.

A :class:`LiveTable` holds no rule. It applies what a seat sends through the engine (which refuses
bad input and changes nothing), writes the move to the database, and only then counts it: the table's
*state id* (``version``) is the number of moves written, so a client that sends a move with an older
state id is refused (stale or duplicate) without effect.

Frames (what a client is sent) are built here from the protocol alone: ``view(seat)``, the seat's
legal actions with ``describe_action``, the seat's events, ``undoable(seat)`` and the result.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cardtable
from cardtable.engine import Table
from cardtable.engine.actions import Action
from cardtable.engine.errors import CardtableError, GameOver, IllegalAction, UndoRefused, quoted
from cardtable.engine.game import JSON, Game
from cardtable.web.storage import MoveConflict, MoveRow, SeatRow, Storage, TableRow

HUMAN = "human"


class ProtocolError(CardtableError):
    """A message refused: ``code`` is a short stable word for programs, the text is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def new_token() -> str:
    """A fresh secret seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (tokens are random, so no salt or slow hash)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Seat:
    spec: str
    token_hash: str | None
    joined: float | None

    @property
    def human(self) -> bool:
        return self.spec == HUMAN


def card_of(action: Action) -> int | None:
    """The card an action names (its ``card`` parameter), for clicking the card itself."""
    params = action.space.params.get(action.kind, ())
    if "card" in params:
        value = action.arg("card")
        return value if isinstance(value, int) else None
    return None


class LiveTable:
    """One table: rebuilt from its stored moves, then kept in step with the database."""

    def __init__(self, row: TableRow, seats: list[SeatRow], moves: list[MoveRow]) -> None:
        self.id = row.id
        self.row = row
        self.game: Game = cardtable.load(row.game, **row.options)
        self.seed = row.seed
        self.seats = [Seat(s.spec, s.token_hash, s.joined) for s in seats]
        self.table = Table(self.game, row.seed)
        self.version = 0
        self.reset_version = 0
        """The state id right after the newest undo: the event log was rebuilt then, so a client that
        last saw an older state gets the whole log again."""
        self.rematch: str | None = row.rematch
        self.reserved: dict[int, float] = {}
        """A rematch's seats kept for the finished game's players: seat -> until when (epoch seconds).
        The hub fills it in and enforces it; frames and the lobby show it while it lasts."""
        self.thinking: int | None = None
        for move in moves:
            self._replay(move)

    # -- rebuilding ------------------------------------------------------------------------------------
    def _replay(self, move: MoveRow) -> None:
        if move.idx != self.version:
            raise ValueError(f"table {self.id}: move {move.idx} read where move {self.version} was expected")
        if move.kind == "action":
            self.table.apply(move.text, move.seat)
        elif move.kind == "undo":
            self.table.undo(move.seat, int(move.text))
            self.reset_version = self.version + 1
        else:
            raise ValueError(f"table {self.id}: unknown move kind {move.kind!r}")
        self.version += 1

    def catch_up(self, storage: Storage) -> bool:
        """Apply the moves other server processes wrote since ``version`` (shared databases); True if any."""
        moves = storage.moves(self.id, since=self.version)
        for move in moves:
            self._replay(move)
        if moves:
            row = storage.table(self.id)
            if row is not None:
                self.rematch = row.rematch
        return bool(moves)

    def reload(self, storage: Storage) -> None:
        """Rebuild everything from the database (after a write failed half-way)."""
        row = storage.table(self.id)
        if row is None:
            raise ProtocolError("no-table", f"table {self.id} is gone from the database")
        fresh = LiveTable(row, storage.seats(self.id), storage.moves(self.id))
        self.table, self.version, self.reset_version = fresh.table, fresh.version, fresh.reset_version
        self.seats, self.rematch = fresh.seats, fresh.rematch

    def reload_seats(self, storage: Storage) -> None:
        self.seats = [Seat(s.spec, s.token_hash, s.joined) for s in storage.seats(self.id)]

    # -- seats -----------------------------------------------------------------------------------------
    @property
    def state(self) -> cardtable.State:
        return self.table.state

    @property
    def is_over(self) -> bool:
        return bool(self.table.state.is_over)

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or None (compared in constant time)."""
        digest = token_hash(token)
        found = None
        for i, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = i
        return found

    def bot_to_move(self) -> tuple[int, str] | None:
        """The bot seat to decide now and its spec, if a bot must move."""
        cp = self.state.current_player
        if cp is None or self.is_over:
            return None
        seat = self.seats[cp]
        return None if seat.human else (cp, seat.spec)

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human and s.token_hash is None]

    # -- moves -----------------------------------------------------------------------------------------
    def check_state(self, state_id: int) -> None:
        if state_id != self.version:
            kind = "duplicate or stale" if state_id < self.version else "from the future"
            raise ProtocolError(
                "stale",
                f"refused: your state id is {state_id} but the table is at {self.version} ({kind}); "
                "here is the table as it is now",
            )

    def act(self, storage: Storage, seat: int, text: str, state_id: int | None) -> Action:
        """Apply ``text`` for ``seat`` if ``state_id`` is current; write it; return the action.

        Raises :class:`ProtocolError` (stale) or the engine's ``IllegalAction`` family, changing
        nothing. ``state_id`` None skips the check (bots, which the table itself schedules)."""
        if self.is_over:
            raise GameOver("the game is over; no more actions are taken (download the record or ask for a rematch)")
        if state_id is not None:
            self.check_state(state_id)
        action = self.game.actions.parse(text)
        try:
            self.table.apply(action, seat)  # NotYourTurn / IllegalAction, nothing changed
        except IllegalAction as exc:
            card = card_of(action)
            if type(exc) is IllegalAction and card is not None and card not in self.state.known_cards(seat):
                # Defence in depth: a game's reason may describe a card this seat cannot see
                # ("Vanquish (card 82) is not in your hand"); the card's name is not the seat's to read.
                raise IllegalAction(f"{quoted(action.text)} is not legal now: you do not have that card") from None
            raise
        self._write(storage, "action", action.text, seat)
        return action

    def undo(self, storage: Storage, seat: int, count: int, state_id: int) -> None:
        """Take back ``count`` of ``seat``'s newest decisions (``Table.undo``), then write it."""
        if self.is_over:
            raise GameOver("the game is over; nothing can be taken back")
        self.check_state(state_id)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1000:
            raise UndoRefused("undo count must be a whole number from 1")
        self.table.undo(seat, count)
        self._write(storage, "undo", str(count), seat)
        self.reset_version = self.version

    def _write(self, storage: Storage, kind: str, text: str, seat: int) -> None:
        try:
            storage.add_move(self.id, self.version, kind, text, seat, finished=self.is_over)
        except MoveConflict:
            self.reload(storage)  # another server process wrote this move first: take its moves
            raise
        except Exception as exc:
            # The database is the truth: what it does not hold did not happen.
            self.reload(storage)
            raise ProtocolError("storage", "the move could not be stored, so it was not made; try again") from exc
        self.version += 1

    # -- frames ----------------------------------------------------------------------------------------
    def seats_info(self, connected: Mapping[int, int]) -> list[dict[str, JSON]]:
        now = time.time() if self.reserved else 0.0
        return [
            {
                "seat": i,
                "name": self.game.seat_name(i),
                "kind": "human" if s.human else "bot",
                "spec": s.spec,
                "taken": (s.token_hash is not None) if s.human else True,
                "connected": connected.get(i, 0) > 0 if s.human else True,
                "thinking": self.thinking == i,
                "reserved_until": self._reserved_until(i, s, now),
            }
            for i, s in enumerate(self.seats)
        ]

    def _reserved_until(self, i: int, seat: Seat, now: float) -> float | None:
        """Until when free seat ``i`` is kept for the previous game's player (None: open to anyone)."""
        until = self.reserved.get(i)
        return until if until is not None and until > now and seat.human and seat.token_hash is None else None

    def legal(self, seat: int | None) -> list[dict[str, JSON]]:
        """The seat's legal actions with what they do, when it is that seat's (human) decision."""
        state = self.state
        if seat is None or state.current_player != seat or not self.seats[seat].human:
            return []
        describe = self.game.describe_action
        return [{"action": a.text, "label": describe(a), "card": card_of(a)} for a in state.legal_actions()]

    def frame(self, seat: int | None, events_from: int, connected: Mapping[int, int]) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator), with its events from ``events_from``."""
        state = self.state
        human = seat is not None and self.seats[seat].human
        return {
            "type": "state",
            "table": self.id,
            "state": self.version,
            "seat": seat,
            "view": state.view(seat),
            "legal": self.legal(seat),
            "events_from": events_from,
            "events": state.events(seat, events_from),
            "undoable": self.table.undoable(seat) if human and seat is not None and not self.is_over else 0,
            "seats": self.seats_info(connected),
            "result": state.result().to_json() if state.is_over else None,
            "rematch": self.rematch,
        }

    def summary(self, connected: Mapping[int, int] | None = None) -> dict[str, JSON]:
        """What the lobby shows of a table (public: no view, no token)."""
        state = self.state
        return {
            "id": self.id,
            "game": self.game.id,
            "title": self.game.title,
            "options": dict(self.game.options),
            "card_edits": list(self.game.card_edits),
            "seats": self.seats_info(connected or {}),
            "state": self.version,
            "turn": state.turn,
            "is_over": self.is_over,
            "free_seats": self.free_seats(),
            "rematch": self.rematch,
            "rematch_of": self.row.rematch_of,
            "created": self.row.created,
        }
