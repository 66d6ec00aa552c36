"""Connection caps and the header timeout, below the app: where uvicorn accepts TCP connections.

A connection costs a file descriptor from the moment it is accepted, long before the app sees a
request, so these limits live in the connection's protocol (:func:`guarded_protocols` gives uvicorn
subclasses of its own HTTP and WebSocket protocols):

- at most ``max_connections`` open connections in all and ``max_connections_per_client`` from one
  address; one more is answered at once with ``503`` and ``{"error": ...}`` and closed, so the
  server never runs out of descriptors and one client cannot take them all;
- an address the app closed for flooding (``--flood-penalty``) is refused the same way until its
  penalty is over;
- a connection has ``header_timeout`` seconds to send a request's headers (and again after each
  response, on a kept-alive connection); a half-open request is closed then, so slow clients cannot
  hold connections open for good.

A connection upgraded to a WebSocket keeps its place in the counts until it closes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("cardtable.web")


class ConnectionGuard:
    """Counts the open connections, per client address and in all."""

    def __init__(
        self,
        max_connections: int,
        max_per_client: int,
        header_timeout: float,
        penalties: dict[str, float] | None = None,
    ) -> None:
        self.max_connections = max_connections
        self.max_per_client = max_per_client
        self.header_timeout = header_timeout
        self.penalties = penalties if penalties is not None else {}
        """Addresses the app closed for flooding, and until when (``time.monotonic``): their new
        connections are refused here, before any request is read (shared with the app's hub)."""
        self.open: dict[int, str] = {}
        """Open connections: id of the transport → the client's address."""
        self.per_client: dict[str, int] = {}
        self.refused = 0

    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """Count a new connection in, or say why it is refused (it is then not counted)."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else "?"
        until = self.penalties.get(address)
        if until is not None:
            left = until - time.monotonic()
            if left > 0:
                self.refused += 1
                return f"too many messages from your address: try again in {left:.0f} s"
        if len(self.open) >= self.max_connections:
            self.refused += 1
            return f"the server has {len(self.open)} connections open, its limit: try again in a moment"
        if self.per_client.get(address, 0) >= self.max_per_client:
            self.refused += 1
            return (
                f"your address has {self.per_client[address]} connections open, the most one client may have: "
                "close some (other tabs?) and try again"
            )
        self.open[id(transport)] = address
        self.per_client[address] = self.per_client.get(address, 0) + 1
        return None

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Count a closed connection out (again is harmless)."""
        address = self.open.pop(id(transport), None)
        if address is None:
            return
        left = self.per_client.get(address, 1) - 1
        if left > 0:
            self.per_client[address] = left
        else:
            self.per_client.pop(address, None)


def _refusal(message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


def guarded_protocols(guard: ConnectionGuard) -> tuple[type[Any], type[Any]]:
    """uvicorn's HTTP and WebSocket protocol classes, held to ``guard`` (pass them as ``http`` and
    ``ws`` to ``uvicorn.Config``)."""

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

    class GuardedHttp(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None
        _refused = False

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.ws_protocol_class = GuardedWebSocket

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            refusal = guard.admit(transport)
            if refusal is not None:
                self._refused = True
                transport.write(_refusal(refusal))
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            if not self.transport.is_closing():
                self._header_timer = self.loop.call_later(guard.header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            cycle = self.cycle
            if cycle is None or cycle.response_complete:  # no request under way: its headers never came
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()  # the next request on this kept-alive connection has as long for its headers

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if not self._refused:
                guard.release(self.transport)
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket
