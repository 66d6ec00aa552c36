"""Where the web table keeps its tables: SQLite (the default) or PostgreSQL, through SQLAlchemy Core.

One schema, three tables:

- ``ct_tables``: a table's game, options (JSON text), seed, when it was made, whether it is over,
  and the rematch it led to;
- ``ct_seats``: each seat's occupant spec (``human`` or an agent spec such as ``ismcts:ms=500``),
  the SHA-256 of its secret token (never the token) and when someone joined it;
- ``ct_moves``: every change to a table in order — an applied action (its text and seat) or an
  undo (how many decisions were taken back) — numbered from 0 per table. The number of moves is the
  table's *state id*.

A table is rebuilt by replaying its moves. The pair (table, index) is the primary key, so two server
processes sharing one PostgreSQL database can never both write move N of a table: the second insert
fails and that process catches up instead (:class:`MoveConflict`).

Every method is synchronous and commits before it returns: the server writes a move before it tells
anyone about it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from cardtable.engine.errors import CardtableError

metadata = MetaData()

tables_table = Table(
    "ct_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
)

seats_table = Table(
    "ct_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("spec", String(200), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("joined", Float, nullable=True),
)

leases_table = Table(
    "ct_leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(64), nullable=True),  # the server process driving the table; NULL: none
    Column("expires", Float, nullable=False),  # seconds since the epoch, by the database's clock
)
"""Which server process drives (runs the bots of) which table: see :mod:`cardtable.web.lease`."""

moves_table = Table(
    "ct_moves",
    metadata,
    Column("table_id", String(32), ForeignKey("ct_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "action" or "undo"
    Column("text", String(200), nullable=False),  # the action's text, or the undo count
    Column("seat", Integer, nullable=False),
    Column("time", Float, nullable=False),
)


class StorageError(CardtableError):
    """A database URL that cannot be used (unknown scheme, missing driver, unreachable server)."""


class MoveConflict(CardtableError):
    """Move N of a table was already written (by another server process sharing the database)."""


class SeatRevoked(CardtableError):
    """A seat's move was not written: the token it came with no longer holds the seat (it was left,
    maybe through another server process)."""


class DamagedTable(CardtableError):
    """A table whose stored data cannot be read or replayed (the message says what is wrong)."""


NOTIFY_CHANNEL = "cardtable"
"""PostgreSQL's LISTEN/NOTIFY channel on which server processes tell each other of moves and seats."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    spec: str
    token_hash: str | None
    joined: float | None


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    created: float
    finished: bool
    rematch_of: str | None
    rematch: str | None


@dataclass(frozen=True)
class MoveRow:
    idx: int
    kind: str
    text: str
    seat: int
    time: float


def default_url() -> str:
    """``sqlite:///<user data dir>/cardtable/tables.db`` (the directory is made when needed)."""
    from platformdirs import user_data_dir

    return "sqlite:///" + str(Path(user_data_dir("cardtable", appauthor=False)) / "tables.db")


def normalize_url(url: str) -> str:
    """Accept ``postgresql://`` (and ``postgres://``) for the psycopg 3 driver; keep other URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class Storage:
    """The database of a web table server. Safe to share between threads (SQLAlchemy's pool)."""

    def __init__(self, url: str | None = None) -> None:
        url = normalize_url(url or default_url())
        self.url = url
        self.shared = not url.startswith("sqlite")
        """True for a server database (PostgreSQL) that other processes may write to as well."""
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            Path(url[len("sqlite:///") :]).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            if url.startswith("sqlite"):
                self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)
            metadata.create_all(self.engine)
        except ModuleNotFoundError as exc:
            raise StorageError(
                f"the database driver for {url.split(':', 1)[0]} is not installed ({exc.name}); "
                "for PostgreSQL install cardtable[postgresql]"
            ) from exc
        except Exception as exc:
            if isinstance(exc, CardtableError):
                raise
            raise StorageError(f"cannot open the database {redact(url)}: {_one_line(exc)}") from exc

        self._insert_move = insert(moves_table)
        self._finish = update(tables_table).where(tables_table.c.id == bindparam("tid")).values(finished=True)
        # SQLite has one writer at a time anyway: keep one driver connection for writing moves, the
        # hot path of the server (a third of the time SQLAlchemy's statement machinery takes per
        # move, measured). PostgreSQL writes go through the pool (several processes write).
        self._writer: Any = None if self.shared else self.engine.raw_connection()
        self._write_lock = threading.Lock()
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        path = url[len("sqlite:///") :] if url.startswith("sqlite:///") and url != "sqlite:///:memory:" else None
        if self._writer is not None and path is not None:
            # SQLite copies the WAL into the database (a checkpoint, with two fsyncs) inside whichever
            # commit crosses 1000 pages: a move's write, on the event loop, stalled by the disk.
            # Checkpoints run in a thread of their own instead (PASSIVE: never waiting for a writer).
            cursor = self._writer.cursor()
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop,
                args=(str(Path(path).expanduser()),),
                name="sqlite-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    def _checkpoint_loop(self, path: str, every: float = 1.0) -> None:
        conn = sqlite3.connect(path, check_same_thread=False)
        try:
            while not self._stop.wait(every):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:  # busy or locked now: the next round will do
                    continue
        finally:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
            self._checkpointer = None
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------------------------------
    def create_table(
        self,
        table_id: str,
        game: str,
        options: Mapping[str, Any],
        seed: int,
        seats: Iterable[tuple[str, str | None]],
        rematch_of: str | None = None,
    ) -> None:
        """A new table and its seats (``(spec, token_hash or None)`` per seat, in seat order)."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_table).values(
                    id=table_id,
                    game=game,
                    options=json.dumps(dict(options), sort_keys=True),
                    seed=seed,
                    created=now,
                    finished=False,
                    rematch_of=rematch_of,
                )
            )
            rows = [
                {"table_id": table_id, "seat": i, "spec": spec, "token_hash": h, "joined": now if h else None}
                for i, (spec, h) in enumerate(seats)
            ]
            conn.execute(insert(seats_table), rows)

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give a free human seat to the holder of ``token_hash``; False if it is taken already.

        The condition is in the UPDATE itself, so two people (or processes) racing for one seat cannot
        both get it."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.spec == "human",
                    seats_table.c.token_hash.is_(None),
                )
                .values(token_hash=token_hash, joined=time.time())
            )
            return bool(result.rowcount == 1)

    def free_seat(self, table_id: str, seat: int, token_hash: str) -> bool:
        """The holder of ``token_hash`` leaves ``seat``: its token stops working and the seat is free."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.token_hash == token_hash,
                )
                .values(token_hash=None, joined=None)
            )
            return bool(result.rowcount == 1)

    def add_move(
        self,
        table_id: str,
        idx: int,
        kind: str,
        text: str,
        seat: int,
        finished: bool,
        token_hash: str | None = None,
    ) -> None:
        """Write move ``idx`` (committed when this returns). Raises :class:`MoveConflict` when that move
        exists already, and :class:`SeatRevoked` when ``token_hash`` is given and no longer holds
        ``seat`` (checked in the same statement, so a seat left through another server process can
        never move again). On PostgreSQL the other processes are told at the commit (NOTIFY)."""
        row = {"table_id": table_id, "idx": idx, "kind": kind, "text": text, "seat": seat, "time": time.time()}
        try:
            if self._writer is not None:
                with self._write_lock:
                    written = self._write_sqlite(row, finished, token_hash)
            else:
                with self.engine.begin() as conn:
                    if token_hash is None:
                        conn.execute(self._insert_move, row)
                        written = True
                    else:
                        written = conn.execute(_guarded_insert(row, token_hash)).first() is not None
                    if written:
                        if finished:
                            conn.execute(self._finish, {"tid": table_id})
                        conn.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "payload": f"move {table_id} {idx}"})
        except (IntegrityError, sqlite3.IntegrityError) as exc:
            raise MoveConflict(f"move {idx} of table {table_id} was written by another server") from exc
        if not written:
            raise SeatRevoked(f"seat {seat} of table {table_id} is no longer held by this token")

    def _write_sqlite(self, row: dict[str, Any], finished: bool, token_hash: str | None) -> bool:
        cursor = self._writer.cursor()
        values = (row["table_id"], row["idx"], row["kind"], row["text"], row["seat"], row["time"])
        try:
            if token_hash is None:
                cursor.execute(
                    "INSERT INTO ct_moves (table_id, idx, kind, text, seat, time) VALUES (?, ?, ?, ?, ?, ?)", values
                )
            else:
                cursor.execute(
                    "INSERT INTO ct_moves (table_id, idx, kind, text, seat, time) SELECT ?, ?, ?, ?, ?, ? "
                    "WHERE EXISTS (SELECT 1 FROM ct_seats WHERE table_id = ? AND seat = ? AND token_hash = ?)",
                    (*values, row["table_id"], row["seat"], token_hash),
                )
                if cursor.rowcount != 1:
                    self._writer.rollback()
                    return False
            if finished:
                cursor.execute("UPDATE ct_tables SET finished = 1 WHERE id = ?", (row["table_id"],))
            self._writer.commit()
        except BaseException:
            self._writer.rollback()
            raise
        finally:
            cursor.close()
        return True

    def notify(self, kind: str, table_id: str) -> None:
        """Tell the other server processes (PostgreSQL: NOTIFY) that ``kind`` changed at a table
        (``seats``: someone took or left a seat). Nothing to do on SQLite (one process)."""
        if not self.shared:
            return
        with self.engine.begin() as conn:
            conn.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "payload": f"{kind} {table_id}"})

    def set_rematch(self, table_id: str, rematch: str) -> bool:
        """Link ``table_id`` to its rematch, unless it has one already (True when this call linked it)."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id, tables_table.c.rematch.is_(None))
                .values(rematch=rematch)
            )
            return bool(result.rowcount == 1)

    # -- reading ---------------------------------------------------------------------------------------
    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).first()
        return _table_row(row) if row is not None else None

    def seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats_table).where(seats_table.c.table_id == table_id).order_by(seats_table.c.seat)
            ).all()
        return [SeatRow(r.seat, r.spec, r.token_hash, r.joined) for r in rows]

    def moves(self, table_id: str, since: int = 0) -> list[MoveRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(moves_table)
                .where(moves_table.c.table_id == table_id, moves_table.c.idx >= since)
                .order_by(moves_table.c.idx)
            ).all()
        return [MoveRow(r.idx, r.kind, r.text, r.seat, r.time) for r in rows]

    def move_counts(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The number of moves of each table (for catching up with other server processes)."""
        ids = list(table_ids)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(moves_table.c.table_id, func.count())
                .where(moves_table.c.table_id.in_(ids))
                .group_by(moves_table.c.table_id)
            ).all()
        counts = {i: 0 for i in ids}
        counts.update({r[0]: int(r[1]) for r in rows})
        return counts

    def list_tables(self, limit: int = 100, unfinished_only: bool = False) -> list[TableRow]:
        """The newest tables first (a table whose row is damaged is left out)."""
        query = select(tables_table).order_by(tables_table.c.created.desc()).limit(limit)
        if unfinished_only:
            query = query.where(tables_table.c.finished.is_(False))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        out = []
        for r in rows:
            try:
                out.append(_table_row(r))
            except DamagedTable:
                continue
        return out

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_table.c.id).where(tables_table.c.finished.is_(False))).all()
        return [r[0] for r in rows]

    def active_ids(self, since: float) -> list[str]:
        """Unfinished tables made or moved at or after ``since`` (older ones are abandoned: they load
        when someone opens them)."""
        recent = (
            select(moves_table.c.table_id)
            .where(moves_table.c.table_id == tables_table.c.id, moves_table.c.time >= since)
            .exists()
        )
        query = select(tables_table.c.id).where(
            tables_table.c.finished.is_(False), (tables_table.c.created >= since) | recent
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(tables_table.c.created)).all()
        return [r[0] for r in rows]

    def all_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_table.c.id).order_by(tables_table.c.created)).all()
        return [r[0] for r in rows]

    def seats_of(self, table_ids: Iterable[str]) -> dict[str, list[SeatRow]]:
        """The seats of several tables at once (a server process polling for seats left elsewhere)."""
        ids = list(table_ids)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats_table).where(seats_table.c.table_id.in_(ids)).order_by(seats_table.c.seat)
            ).all()
        out: dict[str, list[SeatRow]] = {i: [] for i in ids}
        for r in rows:
            out[r.table_id].append(SeatRow(r.seat, r.spec, r.token_hash, r.joined))
        return out

    def integrity_problems(self) -> list[str]:
        """What SQLite's ``PRAGMA integrity_check`` finds wrong with the file (empty: nothing; always
        empty for PostgreSQL, which checks its own pages)."""
        if self.shared:
            return []
        with self.engine.connect() as conn:
            rows = conn.exec_driver_sql("PRAGMA integrity_check").all()
        problems = [str(r[0]) for r in rows]
        return [] if problems == ["ok"] else problems


def _table_row(r: Any) -> TableRow:
    try:
        options = json.loads(r.options)
    except (TypeError, ValueError) as exc:
        raise DamagedTable(f"table {r.id}: its options are not JSON ({_one_line(exc)})") from None
    if not isinstance(options, dict):
        raise DamagedTable(f"table {r.id}: its options are not a JSON object")
    return TableRow(r.id, r.game, options, int(r.seed), r.created, bool(r.finished), r.rematch_of, r.rematch)


def _guarded_insert(row: dict[str, Any], token_hash: str) -> Any:
    """INSERT the move only if the seat's token is still ``token_hash`` (one statement: atomic)."""
    columns = [moves_table.c[name] for name in ("table_id", "idx", "kind", "text", "seat", "time")]
    values = select(*(literal(row[c.name], c.type) for c in columns)).where(
        select(seats_table.c.seat)
        .where(
            seats_table.c.table_id == row["table_id"],
            seats_table.c.seat == row["seat"],
            seats_table.c.token_hash == token_hash,
        )
        .exists()
    )
    return insert(moves_table).from_select([c.name for c in columns], values).returning(moves_table.c.idx)


_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer. synchronous=NORMAL: a committed move survives the
    # server process being killed (kill -9); only a power cut may lose the last commits.
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for messages and logs)."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    creds, _, host = rest.rpartition("@")
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in creds else url


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:200] if text else type(exc).__name__
