"""Several server processes on one PostgreSQL database: who drives which table, and the news between them.

**Leases.** A table with bots is *driven* (its bots run) by one process at a time: the one holding
its row in ``ct_leases`` (owner, expiry by the database's clock). The process that makes a table
takes its lease; every process renews its leases (a heartbeat) every third of ``ttl``; a lease not
renewed for ``ttl`` seconds (its process died, or hangs) is taken over by another process, which
loads the table and resumes its bots. Any process accepts people's moves at any table: the move's
number is the primary key, so the database keeps exactly one move N whoever writes it, and the
holder learns of it (below) and plays the bots' answer. A process that stops hands its leases on
at once (they expire now); one that loses a lease (a takeover after a long pause) stops that
table's bots. A lease whose table leaves memory (abandoned) is released: nobody drives it until
someone opens it again.

**News.** A process that writes a move, or a seat change, notifies the others on PostgreSQL's
``LISTEN/NOTIFY`` channel :data:`~cardtable.web.storage.NOTIFY_CHANNEL` (``move <table> <n>``,
``seats <table>``), inside the same transaction, so the news is sent exactly when it is committed.
:class:`Listener` hears it in a thread of its own and hands it to the event loop; the hub catches
up, broadcasts, runs the bots it drives, and ends the seats of tokens no longer valid. The hub also
polls twice a second, so news is never lost for long when the listening connection drops.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy import text

from cardtable.web.storage import NOTIFY_CHANNEL, Storage

log = logging.getLogger("cardtable.web")

_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"

_ACQUIRE = text(
    f"INSERT INTO ct_leases (table_id, owner, expires) VALUES (:table_id, :me, {_NOW} + :ttl) "
    "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires "
    f"WHERE ct_leases.owner IS NULL OR ct_leases.owner = EXCLUDED.owner OR ct_leases.expires < {_NOW} "
    "RETURNING table_id"
)
_RENEW = text(f"UPDATE ct_leases SET expires = {_NOW} + :ttl WHERE owner = :me RETURNING table_id")
_TAKE_EXPIRED = text(
    "WITH candidates AS ("
    " SELECT l.table_id FROM ct_leases l JOIN ct_tables t ON t.id = l.table_id"
    f" WHERE l.owner IS NOT NULL AND l.owner <> :me AND l.expires < {_NOW} AND NOT t.finished"
    " ORDER BY l.expires LIMIT :limit FOR UPDATE OF l SKIP LOCKED) "
    f"UPDATE ct_leases SET owner = :me, expires = {_NOW} + :ttl "
    "WHERE table_id IN (SELECT table_id FROM candidates) RETURNING table_id"
)
_CLAIM_UNLEASED = text(
    f"INSERT INTO ct_leases (table_id, owner, expires) SELECT t.id, :me, {_NOW} + :ttl FROM ct_tables t "
    "WHERE NOT t.finished AND NOT EXISTS (SELECT 1 FROM ct_leases l WHERE l.table_id = t.id) "
    "AND EXISTS (SELECT 1 FROM ct_seats s WHERE s.table_id = t.id AND s.spec <> 'human') "
    "AND (t.created >= :since OR EXISTS (SELECT 1 FROM ct_moves m WHERE m.table_id = t.id AND m.time >= :since)) "
    "ON CONFLICT (table_id) DO NOTHING RETURNING table_id"
)
_RELEASE = text("UPDATE ct_leases SET owner = NULL WHERE table_id = :table_id AND owner = :me")
_DROP = text("DELETE FROM ct_leases WHERE table_id = :table_id")
_HAND_ON = text("UPDATE ct_leases SET expires = 0 WHERE owner = :me")


class Leases:
    """This process's leases (PostgreSQL only). Every method is synchronous: call it off the loop."""

    def __init__(self, storage: Storage, ttl: float) -> None:
        self.storage = storage
        self.ttl = ttl
        self.me = f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        """This process's name in ``ct_leases.owner``: host, process id and a random part (so an
        operator can tell which process drives a table, and a restarted one is a new owner)."""
        self.held: set[str] = set()
        self._lock = threading.Lock()
        self._fresh: set[str] = set()
        """Leases taken while a :meth:`renew` runs: its UPDATE may not have seen them (see there)."""

    def _rows(self, statement: Any, **params: Any) -> list[str]:
        with self.storage.engine.begin() as conn:
            return [r[0] for r in conn.execute(statement, {"me": self.me, "ttl": self.ttl, **params}).all()]

    def _hold(self, table_ids: list[str]) -> None:
        with self._lock:
            self.held.update(table_ids)
            self._fresh.update(table_ids)

    def acquire(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody else holds a live one; True when this process holds it."""
        got = bool(self._rows(_ACQUIRE, table_id=table_id))
        if got:
            self._hold([table_id])
        return got

    def renew(self) -> set[str]:
        """The heartbeat: extend every lease this process still holds; returns them (a lease taken
        over by another process is missing).

        Leases are taken in other threads meanwhile (a table made, loaded or taken over): one whose
        insert committed after this UPDATE began is not among its rows, yet held. It is kept (it
        was taken after the renewal started, so it cannot have expired since); dropping it would
        stop that table's bots while the database still names this process its driver, and no
        other process would ever take it over: the table would stand still."""
        with self._lock:
            self._fresh = set()
        rows = set(self._rows(_RENEW))
        with self._lock:
            self.held = rows | self._fresh
            return set(self.held)

    def take_expired(self, limit: int = 200) -> list[str]:
        """Take over the leases of other processes that expired (unfinished tables only)."""
        taken = self._rows(_TAKE_EXPIRED, limit=limit)
        self._hold(taken)
        return taken

    def claim_unleased(self, since: float) -> list[str]:
        """Take the lease of every unfinished bot table active since ``since`` that has none (tables
        made before leases existed)."""
        taken = self._rows(_CLAIM_UNLEASED, since=since)
        self._hold(taken)
        return taken

    def release(self, table_id: str, finished: bool = False) -> None:
        """Stop driving ``table_id`` (it left memory); a finished table's lease row goes."""
        with self._lock:
            self.held.discard(table_id)
            self._fresh.discard(table_id)
        with self.storage.engine.begin() as conn:
            conn.execute(_DROP if finished else _RELEASE, {"table_id": table_id, "me": self.me})

    def hand_on(self) -> None:
        """This process stops: its leases expire now, so another process takes them over at once."""
        with self.storage.engine.begin() as conn:
            conn.execute(_HAND_ON, {"me": self.me})
        with self._lock:
            self.held.clear()
            self._fresh.clear()


def _conninfo(url: str) -> str:
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


class Listener:
    """Hears the channel's notifications in a thread and calls ``deliver(payload)`` with each (the
    hub passes it on to its event loop). Reconnects when the connection drops."""

    def __init__(self, url: str, deliver: Callable[[str], None]) -> None:
        self.url = _conninfo(url)
        self.deliver = deliver
        self.listening = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardtable-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self.deliver(note.payload)
            except Exception as exc:  # the database went away: the hub's polling covers meanwhile
                self.listening.clear()
                if not self._stop.is_set():
                    log.warning("listening for other servers' news failed (%s); retrying", type(exc).__name__)
                    self._stop.wait(1.0)

    def stop(self) -> None:
        self._stop.set()
        with contextlib.suppress(RuntimeError):
            self._thread.join(timeout=3)
