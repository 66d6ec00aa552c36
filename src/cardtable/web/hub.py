"""The server's tables and the clients watching them: messages in, frames out, bots scheduled.

One :class:`Hub` per server process. Each table has an ``asyncio.Lock``: a move is checked, applied,
written to the database and only then broadcast, one at a time per table, while other tables go on.
Each client has its own outgoing queue (a slow client never holds up a table), and gets only frames
built for its seat: ``view(seat)``, its legal actions and its events (spectators: ``view(None)``).

With a shared database (PostgreSQL) several processes may serve the same table: a move is written
only if its index is free (else this process catches up and the sender hears its move was stale),
and a poller brings in the moves the other processes wrote.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
import zlib
from collections.abc import Callable
from typing import Any

import cardtable
from cardtable.engine.errors import (
    CardtableError,
    GameOver,
    IllegalAction,
    InvalidSeat,
    MalformedAction,
    NotYourTurn,
    OptionError,
    UndoRefused,
)
from cardtable.engine.game import Game
from cardtable.games import load_arguments
from cardtable.web import protocol
from cardtable.web.bots import BotRunner, check_spec
from cardtable.web.live import HUMAN, LiveTable, ProtocolError, new_token, token_hash
from cardtable.web.storage import MoveConflict, Storage

log = logging.getLogger("cardtable.web")

MAX_QUEUE = 500
"""Frames waiting for one client before it is dropped as too slow (it can reconnect and resync)."""

ME = "me"
"""A seat spec at creation: a human seat taken by the creator (who gets its token)."""

REMATCH_RESERVE = 600.0
"""Seconds a rematch's seats stay reserved for the finished game's players (``--rematch-reserve``)."""


class SeatSpecError(OptionError):
    """A seat spec at table creation that is not 'me', 'human' or a valid agent spec; ``seat`` is its index."""

    def __init__(self, message: str, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


class Client:
    """One WebSocket connection: its seat (None: spectator), what it has been sent, its queue."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.seat: int | None = None
        self.joined = False
        self.events_sent = 0
        self.last_state = 0
        """The state id of the last frame sent: older than the table's last undo means resend the log."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def put(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


def _error_code(exc: CardtableError) -> str:
    for cls, code in (
        (ProtocolError, ""),
        (InvalidSeat, "invalid-seat"),
        (MalformedAction, "malformed-action"),
        (GameOver, "game-over"),
        (NotYourTurn, "not-your-turn"),
        (UndoRefused, "undo-refused"),
        (IllegalAction, "illegal-action"),
        (MoveConflict, "stale"),
    ):
        if isinstance(exc, cls):
            return exc.code if isinstance(exc, ProtocolError) else code
    return "error"


def web_options(game_id: str) -> list[Any]:
    """The options a browser may set: every option but free text, which names files on the server
    (``cards=<path>``) and is no business of a remote user."""
    cls = cardtable.games.game_class(game_id)
    options = getattr(cls, "OPTIONS", ())
    return [o for o in options if not (o.kind is str and o.choices is None)]


class Hub:
    """Every live table of this process and the clients connected to them."""

    def __init__(
        self,
        storage: Storage,
        bots: BotRunner,
        bot_delay: float = 0.0,
        tap: Callable[[Client, dict[str, Any]], None] | None = None,
        poll_interval: float = 0.5,
        rematch_reserve: float = REMATCH_RESERVE,
    ) -> None:
        self.storage = storage
        self.rematch_reserve = rematch_reserve
        """Seconds a rematch's human seats are kept for the players of the finished game (0: not at all)."""
        self.bots = bots
        self.bot_delay = bot_delay
        self.tap = tap
        """Called with every frame sent to every client (tests record them all)."""
        self.poll_interval = poll_interval
        self.tables: dict[str, LiveTable] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.clients: dict[str, set[Client]] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._poller: asyncio.Task[None] | None = None

    # -- life cycle ------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Restore every unfinished table from the database and let its bots move again."""
        for table_id in self.storage.unfinished_ids():
            try:
                table = self.get(table_id)
            except CardtableError as exc:  # a table whose game or options no longer load
                log.warning("table %s cannot be restored: %s", table_id, exc)
                continue
            self.schedule_bots(table)
        if self.storage.shared:
            self._poller = asyncio.create_task(self._poll())

    async def stop(self) -> None:
        tasks = [*self.bot_tasks.values(), *([self._poller] if self._poller else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for clients in self.clients.values():
            for client in clients:
                client.closed = True
                client.queue.put_nowait(None)

    # -- tables ----------------------------------------------------------------------------------------
    def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, rebuilt from the database on first use."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32 or not table_id.isalnum():
            raise ProtocolError("no-table", "no such table")
        row = self.storage.table(table_id)
        if row is None:
            raise ProtocolError("no-table", f"no table {table_id!r}")
        table = LiveTable(row, self.storage.seats(table_id), self.storage.moves(table_id))
        table.reserved = {seat: until for seat, (until, _) in self._reservations(table).items()}
        self.tables[table_id] = table
        self.locks.setdefault(table_id, asyncio.Lock())
        return table

    def create(
        self,
        game_id: str,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
        rematch_of: str | None = None,
        card_edits: object = (),
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table. ``seats``: per seat ``"me"`` (the creator sits there and gets its token),
        ``"human"`` (a free seat for someone to join) or an agent spec; ``card_edits``: what-if card
        edits (``["Witch.attack=10"]``), stored with the options. Raises :class:`OptionError`
        (:class:`~cardtable.engine.CardDataError` for a bad card edit)."""
        allowed = {o.name for o in web_options(game_id)}
        for name in options:
            if name not in allowed:
                raise OptionError(f"{game_id}: option {name!r} cannot be set from the web table", option=str(name)[:40])
        game: Game = cardtable.load(game_id, card_edits=card_edits, **options)
        if len(seats) != game.players:
            raise OptionError(f"{game_id} with these options has {game.players} seats; {len(seats)} were given")
        tokens: dict[int, str] = {}
        stored: list[tuple[str, str | None]] = []
        for i, spec in enumerate(seats):
            if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
                raise SeatSpecError(f"seat {game.seat_name(i)}: give 'me', 'human' or an agent spec", i)
            spec = spec.strip()
            if spec == ME:
                tokens[i] = new_token()
                stored.append((HUMAN, token_hash(tokens[i])))
            elif spec == HUMAN:
                stored.append((HUMAN, None))
            else:
                try:
                    check_spec(game, spec)
                except OptionError as exc:
                    raise SeatSpecError(f"seat {game.seat_name(i)}: {exc}", i) from exc
                stored.append((spec, None))
        table_id = new_token()[:10].replace("-", "x").replace("_", "y")
        if seed is None:
            seed = random.SystemRandom().randrange(2**62)
        # The stored options load the game again (live.py, bots.py): card edits ride along with them.
        self.storage.create_table(table_id, game.id, load_arguments(game), seed, stored, rematch_of=rematch_of)
        table = self.get(table_id)
        self.schedule_bots(table)
        return table, tokens

    def join(self, table_id: str, seat: int, previous_token: str | None = None) -> str:
        """Take free human seat ``seat``; returns its new token. Raises :class:`ProtocolError`.

        A rematch's seat is reserved, for :attr:`rematch_reserve` seconds after the rematch was made,
        for whoever holds that seat at the finished game: only ``previous_token``, that seat's token,
        takes it then (code ``seat-reserved`` for anyone else)."""
        table = self.get(table_id)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise ProtocolError("no-seat", f"no seat {str(seat)[:20]!r} at this table")
        name = table.game.seat_name(seat)
        if not table.seats[seat].human:
            raise ProtocolError("seat-taken", f"{name} is played by a bot")
        if table.is_over:
            raise ProtocolError("game-over", "the game is over")
        reservations = self._reservations(table)
        table.reserved = {s: until for s, (until, _) in reservations.items()}
        reserved = reservations.get(seat)
        if reserved is not None and table.seats[seat].token_hash is None:
            until, holder = reserved
            if previous_token is None or token_hash(previous_token) != holder:
                left = max(1, round((until - time.time()) / 60))
                clock = time.strftime("%H:%M UTC", time.gmtime(until))
                raise ProtocolError(
                    "seat-reserved",
                    f"{name} is reserved for the player who sat there in the previous game, for {left} more "
                    f"minute{'s' if left != 1 else ''} (until {clock}); after that anyone may take it",
                )
        token = new_token()
        if not self.storage.claim_seat(table_id, seat, token_hash(token)):
            table.reload_seats(self.storage)
            raise ProtocolError("seat-taken", f"{name} is taken")
        table.reload_seats(self.storage)
        self.send_seats(table)
        return token

    def _reservations(self, table: LiveTable) -> dict[int, tuple[float, str]]:
        """A rematch's reserved seats: seat -> (until when, the token hash of the finished game's holder).

        Read from the database (the finished game's seats), so every server process agrees; a seat the
        previous player left, or nobody held, is not reserved."""
        previous = table.row.rematch_of
        if previous is None or self.rematch_reserve <= 0:
            return {}
        until = table.row.created + self.rematch_reserve
        if until <= time.time():
            return {}
        out: dict[int, tuple[float, str]] = {}
        for old in self.storage.seats(previous):
            held = old.spec == HUMAN and old.token_hash is not None
            if held and old.seat < len(table.seats) and table.seats[old.seat].human:
                out[old.seat] = (until, str(old.token_hash))
        return out

    def leave(self, table_id: str, token: str) -> int:
        """The holder of ``token`` gives up its seat (it becomes free); returns the seat."""
        table = self.get(table_id)
        seat = table.seat_of(token)
        if seat is None:
            table.reload_seats(self.storage)
            seat = table.seat_of(token)
        if seat is None:
            raise ProtocolError("bad-token", "this seat token is not valid at this table")
        self.storage.free_seat(table_id, seat, token_hash(token))
        table.reload_seats(self.storage)
        for client in self.clients.get(table_id, set()):
            if client.seat == seat:
                client.seat = None  # it watches on as a spectator
        self.broadcast(table)
        return seat

    # -- clients ---------------------------------------------------------------------------------------
    def attach(self, table_id: str) -> Client:
        table = self.get(table_id)
        client = Client(table)
        self.clients.setdefault(table_id, set()).add(client)
        return client

    def detach(self, client: Client) -> None:
        clients = self.clients.get(client.table.id)
        if clients is not None:
            clients.discard(client)
        client.closed = True
        if client.joined and client.seat is not None:
            self.send_seats(client.table)  # the others see the seat disconnected

    def _connected(self, table_id: str) -> dict[int, int]:
        counts: dict[int, int] = {}
        for client in self.clients.get(table_id, ()):
            if client.joined and client.seat is not None:
                counts[client.seat] = counts.get(client.seat, 0) + 1
        return counts

    def send(self, client: Client, payload: dict[str, Any], text: str | None = None) -> None:
        if self.tap is not None:
            self.tap(client, payload)
        client.put(text if text is not None else protocol.encode(payload))

    def send_frame(self, client: Client, events_from: int) -> None:
        table = client.table
        frame = table.frame(client.seat, events_from, self._connected(table.id))
        client.events_sent = events_from + len(frame["events"])
        self.send(client, frame)

    def _resume_from(self, client: Client) -> int:
        """The first event ``client`` has not been sent (0 when an undo rebuilt the log since)."""
        table = client.table
        start = client.events_sent
        if start > len(table.state.log or ()) or client.last_state < table.reset_version:
            start = 0
        return start

    def broadcast(self, table: LiveTable, exclude: Client | None = None, first: Client | None = None) -> None:
        """Send every joined client of ``table`` its frame (built once per seat and event offset).

        ``first`` (the client whose move this was) is served before the others: its frame is its
        acknowledgement, which it waits for; the others learn of the move a frame's build later."""
        connected = self._connected(table.id)
        built: dict[tuple[int | None, int], tuple[dict[str, Any], str]] = {}
        clients = list(self.clients.get(table.id, ()))
        if first is not None and first in clients:
            clients.remove(first)
            clients.insert(0, first)
        for client in clients:
            if not client.joined or client is exclude:
                continue
            start = self._resume_from(client)
            key = (client.seat, start)
            if key not in built:
                frame = table.frame(client.seat, start, connected)
                built[key] = (frame, protocol.encode(frame))
            frame, text = built[key]
            client.events_sent = start + len(frame["events"])
            client.last_state = table.version
            self.send(client, frame, text)

    def send_seats(self, table: LiveTable, exclude: Client | None = None) -> None:
        """Tell every client who sits where and who is connected (no view: nothing else changed)."""
        payload = {"type": "seats", "state": table.version, "seats": table.seats_info(self._connected(table.id))}
        text = protocol.encode(payload)
        for client in list(self.clients.get(table.id, ())):
            if client.joined and client is not exclude:
                self.send(client, payload, text)

    def notify(self, table: LiveTable, payload: dict[str, Any]) -> None:
        text = protocol.encode(payload)
        for client in list(self.clients.get(table.id, ())):
            if client.joined:
                self.send(client, payload, text)

    # -- messages --------------------------------------------------------------------------------------
    async def handle(self, client: Client, raw: str | bytes) -> None:
        """One message from ``client``: acted on, or refused with an ``error`` to it alone."""
        table = client.table
        try:
            msg = protocol.parse(raw)
            if msg.type == "hello":
                self._hello(client, msg)
            elif not client.joined:
                raise ProtocolError("no-hello", "send a 'hello' message first")
            elif msg.type == "sync":
                self._sync(client, msg.state, msg.events)
            elif msg.type == "ping":
                self.send(client, {"type": "pong", "state": table.version})
            elif msg.type == "rematch":
                await self._rematch(client, msg)
            else:
                await self._move(client, msg)
        except CardtableError as exc:
            self.send(client, protocol.error(_error_code(exc), str(exc), table.version))
            if client.joined and (
                (isinstance(exc, ProtocolError) and exc.code == "stale") or isinstance(exc, MoveConflict)
            ):
                client.last_state, start = table.version, self._resume_from(client)
                self.send_frame(client, start)

    def _hello(self, client: Client, msg: protocol.Message) -> None:
        table = client.table
        seat = None
        if msg.token is not None:
            seat = table.seat_of(msg.token)
            if seat is None:
                table.reload_seats(self.storage)
                seat = table.seat_of(msg.token)
            if seat is None:
                raise ProtocolError(
                    "bad-token", "this seat token is not valid at this table (a wrong link, or the seat was left)"
                )
        was = (client.joined, client.seat)
        client.seat = seat
        client.joined = True
        self._sync(client, msg.state, msg.events)
        if was != (True, seat) and seat is not None:
            self.send_seats(table, exclude=client)  # the others see this seat connected

    def _sync(self, client: Client, state: int | None, events: int | None) -> None:
        """Send ``client`` the table now, with the events it missed: from ``events`` on, unless an
        undo rebuilt the log since its state ``state`` (then the whole log)."""
        table = client.table
        log_length = len(table.state.log or ())
        start = 0
        if state is not None and events is not None and table.reset_version <= state <= table.version:
            start = min(events, log_length)
        client.last_state = table.version
        self.send_frame(client, start)

    async def _move(self, client: Client, msg: protocol.Message) -> None:
        table = client.table
        seat = client.seat
        if seat is None:
            raise ProtocolError("spectator", "you are watching: only a seated player can act (open your seat link)")
        async with self.locks[table.id]:
            if self.storage.shared:
                self._catch_up(table)
            assert msg.state is not None
            if msg.type == "action":
                table.act(self.storage, seat, msg.action, msg.state)
            else:
                table.undo(self.storage, seat, msg.count, msg.state)
        self.broadcast(table, first=client)
        self.schedule_bots(table)

    async def _rematch(self, client: Client, msg: protocol.Message) -> None:
        table = client.table
        seat = client.seat
        if seat is None:
            raise ProtocolError("spectator", "only a seated player can start or join a rematch")
        if not table.is_over:
            raise ProtocolError("not-over", "a rematch can be started once the game is over")
        async with self.locks[table.id]:
            if table.rematch is None:
                specs = [s.spec for s in table.seats]
                new, _ = self.create(
                    table.game.id, self._settable(table), specs, rematch_of=table.id, card_edits=table.game.card_edits
                )
                if not self.storage.set_rematch(table.id, new.id):  # another process was first
                    row = self.storage.table(table.id)
                    new_id = row.rematch if row is not None else None
                    if new_id is None:
                        raise ProtocolError("error", "the rematch could not be made")
                    table.rematch = new_id
                else:
                    table.rematch = new.id
        rematch = self.get(table.rematch)
        token = new_token()
        if not self.storage.claim_seat(rematch.id, seat, token_hash(token)):
            raise ProtocolError("seat-taken", f"{table.game.seat_name(seat)} in the rematch is taken already")
        rematch.reload_seats(self.storage)
        self.send(client, {"type": "rematch", "table": rematch.id, "seat": seat, "token": token})
        self.broadcast(table)
        self.broadcast(rematch)
        self.schedule_bots(rematch)

    def _settable(self, table: LiveTable) -> dict[str, Any]:
        names = {o.name for o in web_options(table.game.id)}
        return {k: v for k, v in table.game.options.items() if k in names}

    def _catch_up(self, table: LiveTable) -> None:
        if table.catch_up(self.storage):
            self.broadcast(table)
            self.schedule_bots(table)

    # -- bots ------------------------------------------------------------------------------------------
    def schedule_bots(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot must move and none is running."""
        task = self.bot_tasks.get(table.id)
        if task is not None and not task.done():
            return
        if table.bot_to_move() is None:
            return
        self.bot_tasks[table.id] = asyncio.create_task(self._bots(table))

    async def _bots(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        key = zlib.crc32(table.id.encode())
        while True:
            mover = table.bot_to_move()
            if mover is None:
                return
            seat, spec = mover
            version = table.version
            table.thinking = seat
            self.notify(table, {"type": "thinking", "seat": seat, "state": version})
            started = loop.time()
            agent_seed = (table.seed * 1_000_003 + version * 31 + seat) % 2**62
            note = None
            who = f"{table.game.seat_name(seat)} ({spec})"
            try:
                text = await self.bots.choose(
                    table.game.id,
                    load_arguments(table.game),
                    table.seed,
                    table.state.actions_taken(),
                    seat,
                    spec,
                    agent_seed,
                    key,
                )
            except TimeoutError:
                note = f"{who} ran out of its {self.bots.budget:g} s: a random legal action was played"
                text = None
            except Exception as exc:  # a broken agent must not stop the table
                log.exception("bot %s at table %s failed", spec, table.id)
                note = f"{who} failed ({type(exc).__name__}): a random legal action was played"
                text = None
            wait = self.bot_delay - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            async with self.locks[table.id]:
                table.thinking = None
                if self.storage.shared:
                    table.catch_up(self.storage)
                if table.version != version or table.bot_to_move() != mover:
                    continue  # someone undid or another process moved meanwhile: think again
                if text is None:
                    legal = table.state.legal_actions()
                    text = legal[random.Random(agent_seed).randrange(len(legal))].text
                try:
                    table.act(self.storage, seat, text, None)
                except MoveConflict:
                    table.catch_up(self.storage)
                except CardtableError as exc:
                    log.error("bot %s at table %s chose %r: %s", spec, table.id, text, exc)
                    return
            if note:
                self.notify(table, {"type": "notice", "message": note, "state": table.version})
            self.broadcast(table)

    # -- other processes -------------------------------------------------------------------------------
    async def _poll(self) -> None:
        """Bring in moves that other server processes wrote (shared database only)."""
        while True:
            await asyncio.sleep(self.poll_interval)
            ids = [t for t in self.tables if self.clients.get(t) or self.tables[t].bot_to_move() is not None]
            ids = [t for t in ids if not self.tables[t].is_over or self.clients.get(t)]
            if not ids:
                continue
            try:
                counts = await asyncio.to_thread(self.storage.move_counts, ids)
            except Exception:
                log.exception("polling the database failed")
                continue
            for table_id, count in counts.items():
                table = self.tables[table_id]
                if count > table.version:
                    async with self.locks[table_id]:
                        try:
                            self._catch_up(table)
                        except CardtableError:
                            log.exception("catching up table %s failed", table_id)
