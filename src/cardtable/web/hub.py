"""The server's tables and the clients watching them: messages in, frames out, bots scheduled.

One :class:`Hub` per server process. Each table has an ``asyncio.Lock``: a move is checked, applied,
written to the database and only then broadcast, one at a time per table, while other tables go on.
Each client has its own outgoing queue (a slow client never holds up a table), and gets only frames
built for its seat: ``view(seat)``, its legal actions and its events (spectators: ``view(None)``).

With a shared database (PostgreSQL) several processes may serve the same table: a move is written
only if its index is free (else this process catches up and the sender hears its move was stale);
the process holding a table's lease runs its bots (:mod:`.lease`); news of moves and seats comes
from the other processes through LISTEN/NOTIFY, and a poller catches whatever was missed.

Limits (:mod:`.limits`): a client's messages are rate limited, its outgoing queue is bounded and
coalesced (:mod:`.outbox`), tables are counted per client and in all, and tables idle long leave
memory (they stay in the database). Tables load off the event loop; one whose stored data is
damaged is set aside with a warning, and every other table is served.
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
from cardtable.engine.options import unknown_option
from cardtable.games import load_arguments
from cardtable.web import protocol
from cardtable.web.bots import BotRunner, check_spec
from cardtable.web.lease import Leases, Listener
from cardtable.web.limits import Limits, TokenBucket
from cardtable.web.live import HUMAN, LiveTable, ProtocolError, new_token, token_hash
from cardtable.web.outbox import Item, Outbox
from cardtable.web.security import current_client
from cardtable.web.storage import DamagedTable, MoveConflict, Storage

log = logging.getLogger("cardtable.web")

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
    """One WebSocket connection: its seat (None: spectator), what it has been sent, its outbox."""

    def __init__(self, table: LiveTable, peer: str = "", limits: Limits | None = None) -> None:
        limits = limits or Limits()
        self.table = table
        self.peer = peer
        """The client's address (for the per-client limits)."""
        self.seat: int | None = None
        self.token: str | None = None
        """The hash of the seat token it said hello with: a move is refused once that no longer
        holds the seat (left here or through another server process)."""
        self.joined = False
        self.events_sent = 0
        """Events up to the end of the newest state frame queued for it."""
        self.last_state = 0
        """The state id of the last frame sent: older than the table's last undo means resend the log."""
        self.outbox = Outbox(limits.outbox)
        self.bucket = TokenBucket(limits.message_rate, limits.message_burst)
        self.warned = False
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""

    def put(self, text: str, kind: str = "", events_from: int = 0, acks: list[str | int] | None = None) -> None:
        if self.closed:
            return
        if not self.outbox.put(Item(kind, text, events_from, list(acks or ()))):
            self.drop(1008, f"too slow: more than {self.outbox.limit} messages were waiting")

    def drop(self, code: int, reason: str) -> None:
        """Close the connection (what waits is not sent)."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason[:120]
        self.outbox.abort()


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
        limits: Limits | None = None,
    ) -> None:
        self.storage = storage
        self.rematch_reserve = rematch_reserve
        """Seconds a rematch's human seats are kept for the players of the finished game (0: not at all)."""
        self.bots = bots
        self.bot_delay = bot_delay
        self.tap = tap
        """Called with every frame sent to every client (tests record them all)."""
        self.poll_interval = poll_interval
        self.limits = limits or Limits()
        self.tables: dict[str, LiveTable] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.clients: dict[str, set[Client]] = {}
        self.bot_tasks: dict[str, asyncio.Task[None]] = {}
        self.damaged: dict[str, str] = {}
        """Tables set aside because their stored data cannot be loaded, and why."""
        self.leases: Leases | None = None
        self.listener: Listener | None = None
        self.penalties: dict[str, float] = {}
        """Client addresses disconnected for flooding, and until when (monotonic) they may not reconnect."""
        self._loading: dict[str, asyncio.Task[LiveTable]] = {}
        self._acquiring: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- life cycle ------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Restore the unfinished tables that were active lately (abandoned ones load when opened)
        and let their bots move again; a damaged table is set aside with a warning. With a shared
        database: only the tables whose leases this process takes."""
        self._loop = asyncio.get_running_loop()
        since = time.time() - self.limits.abandoned_after
        if self.storage.shared:
            self.leases = Leases(self.storage, self.limits.lease_ttl)
            self.listener = Listener(self.storage.url, self._deliver)
            self.listener.start()
            ids = await asyncio.to_thread(self.leases.claim_unleased, since)
            ids += await asyncio.to_thread(self.leases.take_expired)
        else:
            ids = await asyncio.to_thread(self.storage.active_ids, since)
        for table_id in ids:
            with contextlib.suppress(ProtocolError):  # damaged (logged) or gone meanwhile
                self.schedule_bots(await self.load(table_id))
        self._tasks.append(asyncio.create_task(self._sweep()))
        if self.storage.shared:
            self._tasks.append(asyncio.create_task(self._poll()))
            self._tasks.append(asyncio.create_task(self._lease_loop()))

    async def stop(self) -> None:
        tasks = [*self.bot_tasks.values(), *self._tasks, *self._loading.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        if self.leases is not None:
            with contextlib.suppress(Exception):  # the database may be gone: the leases then expire
                await asyncio.to_thread(self.leases.hand_on)
        if self.listener is not None:
            await asyncio.to_thread(self.listener.stop)
        for clients in self.clients.values():
            for client in clients:
                client.closed = True
                client.outbox.close()

    # -- tables ----------------------------------------------------------------------------------------
    def _known(self, table_id: str) -> None:
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32 or not table_id.isalnum():
            raise ProtocolError("no-table", "no such table")
        reason = self.damaged.get(table_id)
        if reason is not None:
            raise ProtocolError(
                "damaged",
                f"table {table_id} cannot be opened: its stored data is damaged ({reason}); "
                "the server's other tables are not affected",
            )

    def _build(self, table_id: str) -> LiveTable:
        """Read ``table_id`` and replay its moves (in a thread when called from :meth:`load`)."""
        try:
            row = self.storage.table(table_id)
            if row is None:
                raise ProtocolError("no-table", f"no table {table_id!r}")
            table = LiveTable(row, self.storage.seats(table_id), self.storage.moves(table_id))
            table.reserved = {seat: until for seat, (until, _) in self._reservations(table).items()}
            return table
        except ProtocolError:
            raise
        except Exception as exc:  # a damaged row, or a page of the database file that cannot be read
            reason = str(exc) if isinstance(exc, DamagedTable) else f"{type(exc).__name__}: {exc}"
            reason = " ".join(reason.split())[:240]
            self.damaged[table_id] = reason
            log.warning(
                "table %s is damaged and set aside (%s); every other table is served "
                "(cardtable serve --check-db lists every damaged table)",
                table_id,
                reason,
            )
            self._known(table_id)
            raise

    def _adopt(self, table: LiveTable) -> LiveTable:
        known = self.tables.get(table.id)
        if known is not None:
            return known
        self.tables[table.id] = table
        self.locks.setdefault(table.id, asyncio.Lock())
        return table

    def get(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, rebuilt from the database on first use (on the event loop:
        prefer :meth:`load`, which rebuilds in a thread)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        self._known(table_id)
        return self._adopt(self._build(table_id))

    async def load(self, table_id: str) -> LiveTable:
        """The live table ``table_id``; one not in memory is rebuilt in a thread, never on the event
        loop (a long game's replay would hold every other table up). Raises :class:`ProtocolError`
        (``no-table``, ``damaged``)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        self._known(table_id)
        task = self._loading.get(table_id)
        if task is None:
            task = asyncio.ensure_future(asyncio.to_thread(self._build, table_id))
            self._loading[table_id] = task
            task.add_done_callback(lambda _: self._loading.pop(table_id, None))
        table = self._adopt(await asyncio.shield(task))
        if self.leases is not None and table.bot_to_move() is not None and table.id not in self.leases.held:
            with contextlib.suppress(Exception):  # no lease: another process drives it, or will
                await asyncio.to_thread(self.leases.acquire, table.id)
        return table

    def holds(self, table_id: str) -> bool:
        """Whether this process drives ``table_id`` (runs its bots): always, on SQLite; with a shared
        database, while it holds the table's lease."""
        return self.leases is None or table_id in self.leases.held

    def _check_quota(self, owner: str) -> None:
        live = [t for t in self.tables.values() if not t.is_over]
        if len(live) >= self.limits.max_tables:
            raise ProtocolError(
                "too-many-tables",
                f"this server has {len(live)} tables in play, its limit (--max-tables): try again later",
            )
        mine = sum(1 for t in live if t.owner == owner)
        if owner and mine >= self.limits.max_tables_per_client:
            raise ProtocolError(
                "too-many-tables",
                f"you have {mine} unfinished tables, the most one client may have here "
                "(--max-tables-per-client): finish or leave one first",
            )

    def create(
        self,
        game_id: str,
        options: dict[str, Any],
        seats: list[str],
        seed: int | None = None,
        rematch_of: str | None = None,
        card_edits: object = (),
        owner: str | None = None,
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table. ``seats``: per seat ``"me"`` (the creator sits there and gets its token),
        ``"human"`` (a free seat for someone to join) or an agent spec (within the server's bot
        limits); ``card_edits``: what-if card edits (``["Witch.attack=10"]``), stored with the
        options. ``owner``: the client's address (default: the HTTP request's), for the quotas.
        Raises :class:`OptionError` (:class:`~cardtable.engine.CardDataError` for a bad card edit),
        or :class:`ProtocolError` ``too-many-tables``."""
        owner = owner if owner is not None else current_client.get()
        self._check_quota(owner)
        allowed = [o.name for o in web_options(game_id)]
        every = {o.name for o in getattr(cardtable.games.game_class(game_id), "OPTIONS", ())}
        for name in options:
            if name in every and name not in allowed:
                raise OptionError(f"{game_id}: option {name!r} cannot be set from the web table", option=str(name)[:40])
            if name not in allowed:
                raise unknown_option(game_id, name, allowed)
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
                    check_spec(game, spec, self.limits.bot_budget, self.limits.bot_max_iterations)
                except OptionError as exc:
                    raise SeatSpecError(f"seat {game.seat_name(i)}: {exc}", i) from exc
                stored.append((spec, None))
        table_id = new_token()[:10].replace("-", "x").replace("_", "y")
        if seed is None:
            seed = random.SystemRandom().randrange(2**62)
        # The stored options load the game again (live.py, bots.py): card edits ride along with them.
        self.storage.create_table(table_id, game.id, load_arguments(game), seed, stored, rematch_of=rematch_of)
        table = self.get(table_id)  # no moves yet: nothing to replay
        table.owner = owner or table.id
        if self.leases is not None and any(spec != HUMAN for spec, _ in stored):
            self.leases.acquire(table.id)
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
        self.storage.notify("seats", table_id)
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
        self.storage.notify("seats", table_id)  # the other server processes end the seat's connections too
        self.revoke(table)
        self.broadcast(table)
        return seat

    def revoke(self, table: LiveTable) -> None:
        """Every connection whose seat token no longer holds its seat watches on as a spectator, and
        is told so; its moves are refused from now on."""
        for client in list(self.clients.get(table.id, ())):
            if client.seat is not None and not table.holds(client.seat, client.token):
                client.seat = None
                client.token = None
                self.send(
                    client,
                    protocol.error("bad-token", "your seat was left: you are watching now", table.version),
                )

    # -- clients ---------------------------------------------------------------------------------------
    def attach(self, table_id: str, peer: str = "") -> Client:
        """A new connection to ``table_id``. Opening a table is what brings an abandoned one back
        (:meth:`start` leaves those in the database), so its bots move again if one is to move: a
        table that left memory with a bot to move (a restart after a long pause) would otherwise
        stand still, its bots never woken, for whoever opens it."""
        table = self.get(table_id)
        client = Client(table, peer, self.limits)
        self.clients.setdefault(table_id, set()).add(client)
        table.active = time.time()
        self.schedule_bots(table)
        return client

    def detach(self, client: Client) -> None:
        clients = self.clients.get(client.table.id)
        if clients is not None:
            clients.discard(client)
            if not clients:
                self.clients.pop(client.table.id, None)
        client.table.active = time.time()
        client.closed = True
        if client.joined and client.seat is not None:
            self.send_seats(client.table)  # the others see the seat disconnected

    def _connected(self, table_id: str) -> dict[int, int]:
        counts: dict[int, int] = {}
        for client in self.clients.get(table_id, ()):
            if client.joined and client.seat is not None:
                counts[client.seat] = counts.get(client.seat, 0) + 1
        return counts

    def send(
        self,
        client: Client,
        payload: dict[str, Any],
        text: str | None = None,
        events_from: int = 0,
        acks: list[str | int] | None = None,
    ) -> None:
        if self.tap is not None:
            self.tap(client, payload)
        client.put(
            text if text is not None else protocol.encode(payload), str(payload.get("type", "")), events_from, acks
        )

    def send_frame(self, client: Client, events_from: int, acks: list[str | int] | None = None) -> None:
        table = client.table
        frame = table.frame(client.seat, events_from, self._connected(table.id))
        client.events_sent = events_from + len(frame["events"])
        self.send(client, frame, events_from=events_from, acks=acks)

    def _resume_from(self, client: Client) -> int:
        """The first event ``client`` has not been sent (0 when an undo rebuilt the log since). An
        unsent state frame still waiting for it is replaced, so the new one starts where that one did."""
        table = client.table
        pending = client.outbox.pending("state")
        start = pending.events_from if pending is not None else client.events_sent
        if start > len(table.state.log or ()) or client.last_state < table.reset_version:
            start = 0
        return start

    def broadcast(
        self,
        table: LiveTable,
        exclude: Client | None = None,
        first: Client | None = None,
        acks: list[str | int] | None = None,
    ) -> None:
        """Send every joined client of ``table`` its frame (built once per seat and event offset).

        ``first`` (the client whose move this was) is served before the others: its frame is its
        acknowledgement, which it waits for, and carries ``acks`` (its message's request id); the
        others learn of the move a frame's build later."""
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
            self.send(client, frame, text, events_from=start, acks=acks if client is first else None)

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
    def penalized(self, peer: str) -> float:
        """Seconds until ``peer`` (disconnected for flooding) may open a WebSocket again (0: now)."""
        until = self.penalties.get(peer)
        if until is None:
            return 0.0
        left = until - time.monotonic()
        if left <= 0:
            del self.penalties[peer]
            return 0.0
        return left

    def admit(self, client: Client) -> bool:
        """Whether ``client`` may send a message now (its rate limit). The first message refused is
        answered with an error; a client that keeps on after it is disconnected."""
        if client.bucket.take():
            client.warned = False
            return True
        limits = self.limits
        if client.bucket.exhausted:
            self.send(
                client,
                protocol.error(
                    "rate-limited",
                    f"too many messages (at most {limits.message_rate:g} a second): disconnected, and no new "
                    f"connection from your address for {limits.flood_penalty:g} s",
                    client.table.version,
                ),
            )
            client.outbox.close()  # the error goes out, then the connection closes
            client.closed = True
            client.close_code, client.close_reason = 1008, "rate limit"
            if client.peer:
                self.penalties[client.peer] = time.monotonic() + limits.flood_penalty
            return False
        if not client.warned:
            client.warned = True
            self.send(
                client,
                protocol.error(
                    "rate-limited",
                    f"too many messages: at most {limits.message_rate:g} a second (bursts of "
                    f"{limits.message_burst}); this one was ignored, and more will close the connection",
                    client.table.version,
                ),
            )
        return False

    async def handle(self, client: Client, raw: str | bytes) -> None:
        """One message from ``client``: acted on, or refused with an ``error`` to it alone (carrying
        the message's request id)."""
        table = client.table
        if not self.admit(client):
            return
        msg: protocol.Message | None = None
        try:
            msg = protocol.parse(raw, self.limits.max_message)
            if msg.type == "hello":
                self._hello(client, msg)
            elif not client.joined:
                raise ProtocolError("no-hello", "send a 'hello' message first")
            elif msg.type == "sync":
                self._sync(client, msg.state, msg.events, msg.id)
            elif msg.type == "ping":
                pong: dict[str, Any] = {"type": "pong", "state": table.version}
                if msg.id is not None:
                    pong["id"] = msg.id
                self.send(client, pong)
            elif msg.type == "rematch":
                await self._rematch(client, msg)
            else:
                await self._move(client, msg)
        except CardtableError as exc:
            if msg is None:
                with contextlib.suppress(Exception):
                    request = protocol.request_id(protocol.loads(raw, 1))
                    msg = protocol.Message("", None, id=request)
            self.send(client, protocol.error(_error_code(exc), str(exc), table.version, msg.id if msg else None))
            code = exc.code if isinstance(exc, ProtocolError) else ""
            if client.joined and (code in ("stale", "bad-token") or isinstance(exc, MoveConflict)):
                if code == "bad-token" and client.seat is not None:
                    self.revoke(table)
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
        client.token = token_hash(msg.token) if seat is not None and msg.token is not None else None
        client.joined = True
        self._sync(client, msg.state, msg.events, msg.id)
        if was != (True, seat) and seat is not None:
            self.send_seats(table, exclude=client)  # the others see this seat connected

    def _sync(self, client: Client, state: int | None, events: int | None, request: str | int | None = None) -> None:
        """Send ``client`` the table now, with the events it missed: from ``events`` on, unless an
        undo rebuilt the log since its state ``state`` (then the whole log)."""
        table = client.table
        log_length = len(table.state.log or ())
        start = 0
        if state is not None and events is not None and table.reset_version <= state <= table.version:
            start = min(events, log_length)
        client.last_state = table.version
        self.send_frame(client, start, acks=[request] if request is not None else None)

    async def _move(self, client: Client, msg: protocol.Message) -> None:
        table = client.table
        seat = client.seat
        if seat is None:
            raise ProtocolError("spectator", "you are watching: only a seated player can act (open your seat link)")
        if not table.holds(seat, client.token):
            raise ProtocolError("bad-token", "this seat token is not valid at this table any more (the seat was left)")
        async with self.locks[table.id]:
            if self.storage.shared:
                self._catch_up(table)
            assert msg.state is not None
            try:
                if msg.type == "action":
                    table.act(self.storage, seat, msg.action, msg.state, client.token)
                else:
                    table.undo(self.storage, seat, msg.count, msg.state, client.token)
            except MoveConflict:
                self._catch_up(table)  # another server process wrote this move first: take its moves
                raise
            except ProtocolError as exc:
                if exc.code == "bad-token":  # left through another server process: the database said so
                    table.reload_seats(self.storage)
                raise
        self.broadcast(table, first=client, acks=[msg.id] if msg.id is not None else None)
        self._moved(table)

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
                    table.game.id,
                    self._settable(table),
                    specs,
                    rematch_of=table.id,
                    card_edits=table.game.card_edits,
                    owner=client.peer,
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
        self.storage.notify("seats", rematch.id)
        self.send(client, {"type": "rematch", "table": rematch.id, "seat": seat, "token": token})
        self.broadcast(table)
        self.broadcast(rematch)
        self.schedule_bots(rematch)

    def _settable(self, table: LiveTable) -> dict[str, Any]:
        names = {o.name for o in web_options(table.game.id)}
        return {k: v for k, v in table.game.options.items() if k in names}

    def _catch_up(self, table: LiveTable) -> None:
        """Take the moves other server processes wrote (the caller holds the table's lock)."""
        try:
            caught = table.catch_up(self.storage)
        except DamagedTable as exc:
            self.damaged[table.id] = str(exc)
            log.warning("table %s is damaged and set aside (%s)", table.id, exc)
            self._evict(table.id)
            return
        if caught:
            self.broadcast(table)
            self._moved(table)

    def _moved(self, table: LiveTable) -> None:
        """After a move: the bots' turn, or the end (a finished table's lease goes)."""
        if table.is_over:
            if self.leases is not None and table.id in self.leases.held:
                self._background(asyncio.to_thread(self.leases.release, table.id, True))
            return
        self.schedule_bots(table)

    def _background(self, job: Any) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.append(task)
        task.add_done_callback(self._reap)

    def _reap(self, task: asyncio.Task[Any]) -> None:
        with contextlib.suppress(ValueError):
            self._tasks.remove(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a background job failed: %s", task.exception())

    # -- bots ------------------------------------------------------------------------------------------
    def schedule_bots(self, table: LiveTable) -> None:
        """Start the table's bot loop if a bot must move, none is running, and this process drives
        the table."""
        task = self.bot_tasks.get(table.id)
        if task is not None and not task.done():
            return
        if table.bot_to_move() is None or table.id not in self.tables:
            return
        if not self.holds(table.id):
            self._try_to_drive(table)
            return
        self.bot_tasks[table.id] = asyncio.create_task(self._bots(table))

    def _try_to_drive(self, table: LiveTable) -> None:
        """A bot must move at a table no process may be driving (its lease was given up when it left
        another process's memory, or never taken): take the lease if it is free, then run the bots."""
        leases = self.leases
        if leases is None or table.id in self._acquiring:
            return
        self._acquiring.add(table.id)

        async def attempt() -> None:
            try:
                if await asyncio.to_thread(leases.acquire, table.id):
                    self.schedule_bots(table)
            finally:
                self._acquiring.discard(table.id)

        self._background(attempt())

    async def _bots(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        key = zlib.crc32(table.id.encode())
        while True:
            mover = table.bot_to_move()
            if mover is None or not self.holds(table.id):
                return
            seat, spec = mover
            version = table.version
            started = loop.time()
            agent_seed = (table.seed * 1_000_003 + version * 31 + seat) % 2**62
            note = None
            who = f"{table.game.seat_name(seat)} ({spec})"
            text = self.bots.quick(table.state, seat, spec, agent_seed)
            if text is None:
                table.thinking = seat
                self.notify(table, {"type": "thinking", "seat": seat, "state": version})
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
                        owner=table.owner,
                    )
                except TimeoutError:
                    note = f"{who} ran out of its {self.bots.budget:g} s: it was stopped, a random legal action played"
                    text = None
                except Exception as exc:  # a broken agent must not stop the table
                    log.warning("bot %s at table %s failed: %s", spec, table.id, exc)
                    note = f"{who} failed ({type(exc).__name__}): a random legal action was played"
                    text = None
            # Never run a whole bot game in one go: the loop serves the others between two moves.
            await asyncio.sleep(max(0.0, self.bot_delay - (loop.time() - started)))
            async with self.locks[table.id]:
                table.thinking = None
                if self.storage.shared:
                    table.catch_up(self.storage)
                if table.version != version or table.bot_to_move() != mover:
                    continue  # someone undid or another process moved meanwhile: think again
                if text is None:
                    legal = table.state.legal_actions()
                    text = legal[random.Random(agent_seed).randrange(len(legal))].text
                if not self.holds(table.id):
                    return  # another process took the table over meanwhile: its bots move there
                try:
                    table.act(self.storage, seat, text, None)
                except MoveConflict:
                    self._catch_up(table)
                    continue
                except CardtableError as exc:
                    log.error("bot %s at table %s chose %r: %s", spec, table.id, text, exc)
                    return
            if note:
                self.notify(table, {"type": "notice", "message": note, "state": table.version})
            self.broadcast(table)
            if table.is_over:
                self._moved(table)

    # -- memory --------------------------------------------------------------------------------------------
    async def _sweep(self) -> None:
        """Now and then, let idle tables leave memory (:meth:`expire`)."""
        period = max(0.05, min(30.0, self.limits.finished_ttl / 4, self.limits.abandoned_after / 4))
        while True:
            await asyncio.sleep(period)
            self.expire()

    def expire(self, now: float | None = None) -> list[str]:
        """Drop from memory the finished tables nobody watched for ``finished_ttl`` seconds and the
        unfinished ones without a move or a connection for ``abandoned_after``. They stay in the
        database: their records can be downloaded and they come back when someone opens them.
        Returns the tables dropped."""
        now = time.time() if now is None else now
        gone = []
        for table_id, table in list(self.tables.items()):
            if self.clients.get(table_id):
                table.active = now
                continue
            task = self.bot_tasks.get(table_id)
            if task is not None and not task.done():
                continue
            idle = now - table.active
            if idle >= (self.limits.finished_ttl if table.is_over else self.limits.abandoned_after):
                self._evict(table_id)
                gone.append(table_id)
        return gone

    def _evict(self, table_id: str) -> None:
        table = self.tables.pop(table_id, None)
        self.locks.pop(table_id, None)
        task = self.bot_tasks.pop(table_id, None)
        if task is not None:
            task.cancel()
        for client in self.clients.pop(table_id, set()):
            client.drop(1001, "the table left memory")
        if self.leases is not None and table is not None and table_id in self.leases.held:
            self._background(asyncio.to_thread(self.leases.release, table_id, table.is_over))

    # -- other processes -------------------------------------------------------------------------------
    def _deliver(self, payload: str) -> None:
        """News from another server process (called in the listener's thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop just stopped
                loop.call_soon_threadsafe(self._news, payload)

    def _news(self, payload: str) -> None:
        kind, _, rest = payload.partition(" ")
        table_id = rest.split(" ", 1)[0]
        table = self.tables.get(table_id)
        if table is None:
            return
        if kind == "move":
            with contextlib.suppress(ValueError):
                if int(rest.split(" ", 1)[1]) < table.version:
                    return  # ours, or known already
            self._background(self._caught_up(table))
        elif kind == "seats":
            self._background(self._seats_changed(table))

    async def _caught_up(self, table: LiveTable) -> None:
        lock = self.locks.get(table.id)
        if lock is None:
            return
        async with lock:
            self._catch_up(table)

    async def _seats_changed(self, table: LiveTable) -> None:
        rows = await asyncio.to_thread(self.storage.seats, table.id)
        if table.set_seats(rows):
            self.revoke(table)
            self.send_seats(table)

    async def _poll(self) -> None:
        """Bring in moves and seat changes that other server processes wrote (shared database only),
        in case their news was missed."""
        while True:
            await asyncio.sleep(self.poll_interval)
            ids = [t for t in self.tables if self.clients.get(t) or self.tables[t].bot_to_move() is not None]
            ids = [t for t in ids if not self.tables[t].is_over or self.clients.get(t)]
            if not ids:
                continue
            seated = [t for t in ids if any(c.seat is not None for c in self.clients.get(t, ()))]
            try:
                counts = await asyncio.to_thread(self.storage.move_counts, ids)
                seats = await asyncio.to_thread(self.storage.seats_of, seated)
            except Exception as exc:
                log.warning("polling the database failed: %s", exc)
                continue
            for table_id, rows in seats.items():
                table = self.tables.get(table_id)
                if table is not None and table.set_seats(rows):
                    self.revoke(table)
                    self.send_seats(table)
            for table_id, count in counts.items():
                table = self.tables.get(table_id)
                if table is not None and count > table.version:
                    await self._caught_up(table)

    async def _lease_loop(self) -> None:
        """The heartbeat: renew this process's leases, stop the bots of tables it lost, and take
        over (and resume the bots of) tables whose process stopped renewing."""
        leases = self.leases
        assert leases is not None
        while True:
            await asyncio.sleep(max(0.1, leases.ttl / 3))
            try:
                held = await asyncio.to_thread(leases.renew)
                taken = await asyncio.to_thread(leases.take_expired)
            except Exception as exc:
                log.warning("renewing the table leases failed: %s", exc)
                continue
            for table_id, task in list(self.bot_tasks.items()):
                if table_id not in held and not task.done():
                    task.cancel()  # taken over by another process (this one paused too long)
            # A table this process drives whose bot must move, with no bot loop running (a wake-up
            # lost in a race): resume it here, so no driven table can stand still past a heartbeat.
            for table_id in held:
                live = self.tables.get(table_id)
                if live is not None and live.bot_to_move() is not None:
                    self.schedule_bots(live)
            for table_id in taken:
                try:
                    table = await self.load(table_id)
                except ProtocolError:
                    await asyncio.to_thread(leases.release, table_id)
                    continue
                await self._caught_up(table)
                self.schedule_bots(table)
