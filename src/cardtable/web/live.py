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
from cardtable.web.storage import DamagedTable, MoveConflict, MoveRow, SeatRevoked, SeatRow, Storage, TableRow

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

    def __init__(self, row: TableRow, seats: list[SeatRow], moves: list[MoveRow], owner: str = "") -> None:
        self.id = row.id
        self.owner = owner or row.id
        """Who made the table (the client's address; a restored table: its own id), for quotas and
        for sharing the bots fairly."""
        self.active = max([row.created, *(m.time for m in moves[-1:])])
        """When something last happened here (a move, a connection): tables idle long leave memory."""
        self.row = row
        try:
            self.game: Game = cardtable.load(row.game, **row.options)
        except CardtableError as exc:
            raise DamagedTable(f"table {self.id}: its game and options do not load: {exc}") from None
        if len(seats) != self.game.players:
            raise DamagedTable(f"table {self.id}: {len(seats)} seats are stored for {self.game.players} players")
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

    def _replay(self, move: MoveRow) -> None:
        """Apply one stored move; :class:`DamagedTable` when it cannot be (a gap in the move numbers,
        an unknown kind, a move the rules refuse)."""
        try:
            self._apply_stored(move)
        except (CardtableError, ValueError, TypeError) as exc:
            raise DamagedTable(f"table {self.id}: stored move {move.idx} cannot be replayed: {exc}") from None

    # -- rebuilding ------------------------------------------------------------------------------------
    def _apply_stored(self, move: MoveRow) -> None:
        if move.idx != self.version:
            raise ValueError(f"its number is {move.idx} where {self.version} was expected (a gap or a repeat)")
        if move.kind == "action":
            self.table.apply(move.text, move.seat)
        elif move.kind == "undo":
            self.table.undo(move.seat, int(move.text))
            self.reset_version = self.version + 1
        else:
            raise ValueError(f"unknown move kind {move.kind[:20]!r}")
        self.version += 1

    def catch_up(self, storage: Storage) -> bool:
        """Apply the moves other server processes wrote since ``version`` (shared databases); True if any."""
        moves = storage.moves(self.id, since=self.version)
        for move in moves:
            self._replay(move)
            self.active = max(self.active, move.time)
        if moves:
            row = storage.table(self.id)
            if row is not None:
                self.rematch = row.rematch
        return bool(moves)

    def reload_seats(self, storage: Storage) -> None:
        self.set_seats(storage.seats(self.id))

    def set_seats(self, rows: list[SeatRow]) -> bool:
        """Take the seats as the database has them; True if a token changed (a seat taken or left)."""
        seats = [Seat(s.spec, s.token_hash, s.joined) for s in rows]
        changed = [s.token_hash for s in seats] != [s.token_hash for s in self.seats]
        self.seats = seats
        return changed

    def holds(self, seat: int, digest: str | None) -> bool:
        """Whether the token whose hash is ``digest`` still holds ``seat`` (not left, not revoked)."""
        held = self.seats[seat].token_hash if 0 <= seat < len(self.seats) else None
        return held is not None and digest is not None and hmac.compare_digest(held, digest)

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

    def act(self, storage: Storage, seat: int, text: str, state_id: int | None, token: str | None = None) -> Action:
        """Apply ``text`` for ``seat`` if ``state_id`` is current; write it; return the action.

        Raises :class:`ProtocolError` (stale) or the engine's ``IllegalAction`` family, changing
        nothing. ``state_id`` None skips the check (bots, which the table itself schedules).
        ``token``: the hash of the sender's seat token; the move is written only if that token still
        holds the seat in the database (another server process may have seen the seat left)."""
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
        try:
            self._write(storage, "action", action.text, seat, token)
        except BaseException:
            self.table.rewind(1)  # what the database does not hold did not happen (a few applies at most)
            raise
        return action

    def undo(self, storage: Storage, seat: int, count: int, state_id: int, token: str | None = None) -> None:
        """Take back ``count`` of ``seat``'s newest decisions (``Table.undo``), then write it."""
        if self.is_over:
            raise GameOver("the game is over; nothing can be taken back")
        self.check_state(state_id)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1000:
            raise UndoRefused("undo count must be a whole number from 1")
        self.table.check_undo(seat, count)  # refused here changes nothing; then stored, then made
        self._write(storage, "undo", str(count), seat, token)
        self.table.undo(seat, count)
        self.reset_version = self.version

    def _write(self, storage: Storage, kind: str, text: str, seat: int, token: str | None = None) -> None:
        """Store the move as move ``version``. On failure nothing is counted and the caller takes the
        move back in memory: the database is the truth, and what it does not hold did not happen.

        Raises :class:`MoveConflict` (another server process wrote move ``version`` first: the caller
        catches up with its moves), ``ProtocolError`` ``bad-token`` (the sender's seat was left, seen
        by the database) or ``storage``."""
        try:
            storage.add_move(self.id, self.version, kind, text, seat, finished=self.is_over, token_hash=token)
        except MoveConflict:
            raise
        except SeatRevoked:
            raise ProtocolError(
                "bad-token", "this seat token is not valid at this table any more (the seat was left)"
            ) from None
        except Exception as exc:
            raise ProtocolError("storage", "the move could not be stored, so it was not made; try again") from exc
        self.version += 1
        self.active = time.time()

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
