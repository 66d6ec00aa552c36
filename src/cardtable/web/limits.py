"""Every limit of the web table in one place: what it bounds, its default, its ``cardtable serve`` flag.

A server on the internet must not let one client (or a few) stall every table, fill the memory or
the file descriptors, or pin the bots. :class:`Limits` holds every bound; the command line makes a
flag of each field (``bot_budget`` → ``--bot-budget``), and docs/web.md lists them all (a test
checks that the list and the flags agree).

The defaults suit a small club server (2 cores, a few dozen players); each can be raised or lowered.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field, fields
from typing import Any


def _limit(default: Any, help: str, metavar: str = "N") -> Any:
    return field(default=default, metadata={"help": help, "metavar": metavar})


def default_max_connections() -> int:
    """1000, or fewer when the process may open fewer files (each connection is one)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return 1000
    if soft == resource.RLIM_INFINITY:
        return 1000
    return max(16, min(1000, soft - 100))  # leave room for the database, the bots' pipes, logs


@dataclass(frozen=True)
class Limits:
    """The server's bounds. Time in seconds, sizes in bytes."""

    # -- bots ---------------------------------------------------------------------------------------------
    bot_budget: float = _limit(
        10.0,
        "the most seconds a bot may think per move: a search thinking longer by itself (a level, strong) is "
        "capped at it, a spec asking for more (ismcts:ms=...) is refused, and a worker still thinking past it "
        "is ended and replaced",
        "S",
    )
    bot_max_iterations: int = _limit(
        20_000,
        "the most search iterations a bot spec may ask for (ismcts:iterations=...; more is refused); a level's "
        "own iterations are capped at it",
    )
    bot_cpu: float = _limit(
        0.5,
        "the share of this machine's cores the bots may use: that many worker processes (at least 1), "
        "each at a lower priority than the server",
        "SHARE",
    )
    # -- connections --------------------------------------------------------------------------------------
    max_connections: int = _limit(
        default_max_connections(), "open connections in total (HTTP and WebSocket); more are refused with 503"
    )
    max_connections_per_client: int = _limit(64, "open connections from one client address; more are refused with 503")
    header_timeout: float = _limit(
        10.0, "seconds a connection has to send its request headers (HTTP) or its hello (WebSocket)", "S"
    )
    keep_alive_timeout: float = _limit(5.0, "seconds an idle HTTP keep-alive connection stays open", "S")
    idle_timeout: float = _limit(
        1800.0, "seconds a WebSocket may stay without sending a message before it is closed (the page reconnects)", "S"
    )
    # -- messages -----------------------------------------------------------------------------------------
    message_rate: float = _limit(
        20.0, "WebSocket messages per second one connection may send (sustained); beyond, an error", "R"
    )
    message_burst: int = _limit(
        40,
        "WebSocket messages one connection may send at once above the rate; after as many refused again "
        "it is disconnected",
    )
    flood_penalty: float = _limit(
        10.0,
        "seconds a client address disconnected for flooding may not open a new WebSocket (each reconnection "
        "would cost the server a handshake)",
        "S",
    )
    max_message: int = _limit(4096, "the longest WebSocket message accepted, in bytes")
    max_body: int = _limit(65536, "the longest HTTP request body accepted, in bytes")
    max_json_depth: int = _limit(16, "the deepest nesting of arrays and objects accepted in JSON from a client")
    outbox: int = _limit(
        64,
        "messages waiting for one slow client (states and seat lists replace their older, unsent copies, "
        "so a slow reader gets the latest state); beyond it is disconnected",
    )
    # -- tables ---------------------------------------------------------------------------------------------
    max_tables: int = _limit(500, "unfinished tables in play (in memory) at once; more are refused")
    max_tables_per_client: int = _limit(10, "unfinished tables in play that one client address made")
    finished_ttl: float = _limit(
        600.0, "seconds a finished table with nobody connected stays in memory (it stays in the database)", "S"
    )
    abandoned_after: float = _limit(
        6 * 3600.0,
        "seconds without a move or a connection after which an unfinished table leaves memory (it stays in "
        "the database and comes back when someone opens it)",
        "S",
    )
    # -- several servers (PostgreSQL) ----------------------------------------------------------------------
    lease_ttl: float = _limit(
        5.0,
        "seconds a server's lease on a table lasts without a heartbeat: another server takes the table over then",
        "S",
    )

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @staticmethod
    def flag(name: str) -> str:
        return "--" + name.replace("_", "-")

    def check(self) -> None:
        """Raise ``ValueError`` naming the first limit that makes no sense (a flag's value)."""
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError(f"{self.flag(f.name)} must be a finite number, got {value}")
            if not value > 0:
                raise ValueError(f"{self.flag(f.name)} must be more than 0, got {value}")
        if self.bot_cpu > 1:
            raise ValueError(f"--bot-cpu is a share of the cores, from more than 0 to 1, got {self.bot_cpu}")
        if self.max_connections_per_client > self.max_connections:
            raise ValueError("--max-connections-per-client cannot be more than --max-connections")

    def bot_workers(self) -> int:
        """Worker processes for the bots: the CPU share of this machine's cores, at least one."""
        return max(1, math.floor((os.cpu_count() or 1) * self.bot_cpu))

    def bot_deadline(self) -> float:
        """When a worker still thinking is ended: the budget, and a margin for rebuilding the state."""
        return self.bot_budget * 1.25 + 0.5


class TokenBucket:
    """A rate limit: ``rate`` tokens a second, at most ``burst`` saved up; a message takes one.

    :meth:`take` says whether the message may pass. The bucket goes into debt for refused messages
    (down to ``-burst``): :attr:`exhausted` is then true, the sign of a client that keeps sending
    after it was told to stop."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        self.tokens -= 1.0
        if self.tokens >= 0:
            return True
        self.tokens = max(self.tokens, -self.burst)
        return False

    @property
    def exhausted(self) -> bool:
        return self.tokens <= -self.burst
