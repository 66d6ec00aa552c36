"""What waits to be sent to one client: bounded, and a slow reader gets the latest state, not a backlog.

A table sends a ``state`` frame to every client after every move. A client that reads slowly (or not
at all) would pile them up. Here an unsent ``state`` frame is replaced by the newer one (the hub
builds the newer one with the events from where the unsent one started, so no event is lost), and
so are an unsent ``seats`` list and ``thinking`` notice; other messages (errors, pongs, notices, a
rematch seat) queue in order. The writer awaits the socket, so at most one frame plus the
transport's buffer (64 KiB) is in flight. If more than ``limit`` messages still wait, the client is
too slow (or ignores what it is told): :meth:`Outbox.put` says so and the connection is closed.

A ``state`` frame may carry ``acks``: the request ids of this client's own messages that the state
includes (its acknowledgements). They are added when the frame is taken for sending, so a frame
shared by every client of a seat is encoded once, and survive a replacement (the newer state
includes the older one's moves).
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Final

import orjson

COALESCED: Final = frozenset({"state", "seats", "thinking"})
"""Kinds of message of which only the newest unsent one matters."""

_STATE_HEAD: Final = '{"type":"state",'


@dataclass
class Item:
    kind: str
    text: str
    events_from: int = 0
    acks: list[str | int] = field(default_factory=list)

    def encoded(self) -> str:
        if not self.acks or not self.text.startswith(_STATE_HEAD):
            return self.text
        acks = orjson.dumps(self.acks).decode()
        return f'{_STATE_HEAD}"acks":{acks},{self.text[len(_STATE_HEAD) :]}'


class Outbox:
    """One client's queue of outgoing messages (see the module's docstring)."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self.items: deque[Item] = deque()
        self._ready = asyncio.Event()
        self.closed = False

    def pending(self, kind: str) -> Item | None:
        """The unsent message of a coalesced ``kind``, if one waits."""
        for item in self.items:
            if item.kind == kind:
                return item
        return None

    def put(self, item: Item) -> bool:
        """Queue ``item`` (replacing an unsent one of its kind, keeping that one's acks). False when
        the client is too slow: more than ``limit`` messages would wait."""
        if self.closed:
            return True
        if item.kind in COALESCED:
            old = self.pending(item.kind)
            if old is not None:
                self.items.remove(old)
                item.acks = [*old.acks, *item.acks]
        if len(self.items) >= self.limit:
            return False
        self.items.append(item)
        self._ready.set()
        return True

    def close(self) -> None:
        """No more messages: the writer sends what waits, then stops."""
        self.closed = True
        self._ready.set()

    def abort(self) -> None:
        """No more messages, and those waiting are dropped (a client too slow for them)."""
        self.items.clear()
        self.close()

    def qsize(self) -> int:
        return len(self.items)

    async def get(self) -> str | None:
        """The next message's text, or None once closed and empty."""
        while not self.items:
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        return self.items.popleft().encoded()
