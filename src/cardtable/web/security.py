"""What stands between a browser on another site and the web table: origins, hosts, headers, bodies.

:class:`BrowserGuard` wraps the ASGI app, so every request passes it, the page's files included:

- **Origin allow-list.** A WebSocket and every state-changing HTTP request (``POST`` …) coming from a
  browser page must come from this server's own origin (the ``Origin`` header names the same host
  and port as the ``Host`` header) or one given with ``--allow-origin``. Another site's page cannot
  watch a player's table through their browser, nor play with a token it learnt. Programs that send
  no ``Origin`` (scripts, the tests) are not browsers and pass.
- **Host check.** Bound to a loopback address, the server answers only requests whose ``Host`` is a
  loopback name (``localhost``, ``127.0.0.1``, ``[::1]``) or one given with ``--allow-host``: a web
  page cannot reach it through a DNS name rebound to 127.0.0.1.
- **Headers on every response.** A content security policy (this server's scripts, styles, images
  and sockets only; no framing), ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer`` and a same-origin opener and resource policy.
- **Bodies.** A request body is at most ``max_body`` bytes, arrives within ``body_timeout`` seconds,
  and an API body is one JSON object nested at most ``max_json_depth`` deep; anything else is
  refused with the documented ``{"error": "..."}`` and status 400 (413 too large, 408 too slow)
  before any route reads it.

It also tells the rest of the app which client a request came from (:data:`current_client`), for
the per-client table quota.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cardtable.web.protocol import loads

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("cardtable.web")

current_client: ContextVar[str] = ContextVar("cardtable_client", default="")
"""The address of the client whose request is being served ("" outside a request)."""

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The page's scripts, styles and sockets come from this server only, and no other page may frame it.
(``style-src-attr``: the page sets a few inline ``style`` attributes; no inline script runs.)"""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)

_STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def is_loopback(host: str) -> bool:
    """Whether ``--host`` binds to this machine only."""
    host = host.strip("[]").lower()
    return host in LOOPBACK_NAMES or host.startswith("127.")


def normalize_origin(text: str) -> str | None:
    """``scheme://host[:port]`` in lower case without a default port, or None if it is no origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    if port is not None and port != _DEFAULT_PORTS[parts.scheme]:
        host = f"{host}:{port}"
    return f"{parts.scheme}://{host}"


def _authority(host_header: str, scheme: str) -> str:
    """A ``Host`` header's value in lower case, without the scheme's default port."""
    value = host_header.strip().lower()
    default = f":{_DEFAULT_PORTS.get(scheme, 80)}"
    return value[: -len(default)] if value.endswith(default) else value


def _hostname(host_header: str) -> str:
    value = host_header.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


@dataclass(frozen=True)
class Policy:
    """What :class:`BrowserGuard` allows."""

    allowed_origins: frozenset[str] = frozenset()
    """Origins allowed besides the server's own (``--allow-origin``), normalized."""
    allowed_hosts: frozenset[str] | None = None
    """Host names a request may name (lower case); None: any (a server bound to all addresses)."""
    max_body: int = 65536
    max_json_depth: int = 16
    body_timeout: float = 10.0

    @classmethod
    def make(
        cls,
        bind_host: str,
        allow_origins: Iterable[str] = (),
        allow_hosts: Iterable[str] = (),
        max_body: int = 65536,
        max_json_depth: int = 16,
        body_timeout: float = 10.0,
    ) -> Policy:
        """The policy for a server bound to ``bind_host``. Raises ``ValueError`` for an origin that
        is not ``scheme://host[:port]``."""
        origins = set()
        for text in allow_origins:
            origin = normalize_origin(text)
            if origin is None:
                raise ValueError(f"--allow-origin {text!r} is not an origin such as https://cards.example.org")
            origins.add(origin)
        hosts = {h.strip().strip("[]").lower() for h in allow_hosts if h.strip()}
        allowed: frozenset[str] | None = None
        if is_loopback(bind_host):
            allowed = frozenset(LOOPBACK_NAMES | hosts | {bind_host.strip("[]").lower()})
        elif hosts:
            allowed = frozenset(hosts)
        return cls(frozenset(origins), allowed, max_body, max_json_depth, body_timeout)


def error_body(message: str) -> bytes:
    return json.dumps({"error": " ".join(message.split())[:300]}).encode()


class BrowserGuard:
    """The ASGI middleware (see the module's docstring)."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        token = current_client.set(str(client[0]) if client else "")
        try:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
            problem = self._host_problem(headers)
            status = 400
            if problem is None and (kind == "websocket" or scope.get("method") in _STATE_CHANGING):
                problem, status = self._origin_problem(headers, scope), 403
            if problem is not None:
                await self._refuse(scope, send, status, problem)
                return
            if kind == "http":
                await self._http(scope, headers, receive, send)
            else:
                await self.app(scope, receive, send)
        finally:
            current_client.reset(token)

    async def _http(self, scope: Scope, headers: dict[str, str], receive: Receive, send: Send) -> None:
        started = False
        with_headers = self._with_headers(send)

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await with_headers(message)

        if scope.get("method") in _STATE_CHANGING:
            body, status, problem = await self._read_body(scope, headers, receive)
            if problem is not None:
                await self._respond(send, status, problem)
                return
            receive = _replay(body, receive)
        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:  # a bug: one line in the log, the documented error to the client
            log.error("%s %s failed: %s: %s", scope.get("method"), scope.get("path"), type(exc).__name__, exc)
            if not started:
                await self._respond(send, 500, "the server failed to answer this request")

    # -- checks ------------------------------------------------------------------------------------------
    def _host_problem(self, headers: dict[str, str]) -> str | None:
        allowed = self.policy.allowed_hosts
        if allowed is None:
            return None
        name = _hostname(headers.get("host", ""))
        if name in allowed:
            return None
        return (
            f"this server answers to {', '.join(sorted(allowed))} only, not to the host {name[:60]!r} "
            "(--allow-host adds a name)"
        )

    def _origin_problem(self, headers: dict[str, str], scope: Scope) -> str | None:
        origin_header = headers.get("origin")
        if origin_header is None:
            if headers.get("sec-fetch-site") == "cross-site":
                return "a request from another site is refused"
            return None  # not a browser page: a script or a program
        origin = normalize_origin(origin_header)
        if origin is not None:
            scheme = origin.split("://", 1)[0]
            if origin.split("://", 1)[1] == _authority(headers.get("host", ""), scheme):
                return None
            if origin in self.policy.allowed_origins:
                return None
        return (
            f"a request from the page of {origin_header[:80]!r} is refused: only this server's own pages "
            "(and origins given with --allow-origin) may play or change tables"
        )

    async def _read_body(
        self, scope: Scope, headers: dict[str, str], receive: Receive
    ) -> tuple[bytes, int, str | None]:
        limit = self.policy.max_body
        declared = headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            return b"", 413, f"the request body is {declared} bytes, at most {limit}"
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.policy.body_timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), timeout=max(0.0, deadline - loop.time()))
            except TimeoutError:
                return b"", 408, f"the request body did not arrive within {self.policy.body_timeout:g} s"
            if message["type"] == "http.disconnect":
                return b"", 400, "the client went away"
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return b"", 413, f"the request body is more than {limit} bytes"
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if str(scope.get("path", "")).startswith("/api/"):
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                # Also what keeps a plain HTML form on another site from posting here.
                return body, 415, "send the request body as JSON, with Content-Type: application/json"
            if not body.strip():
                return body, 400, "the request needs a JSON object as its body"
            try:
                data = loads(body, self.policy.max_json_depth)
            except ValueError as exc:
                return body, 400, f"the request body is not usable JSON: {exc}"
            if not isinstance(data, dict):
                return body, 400, f"the request body must be a JSON object, not a {_json_kind(data)}"
        return body, 200, None

    # -- answers -----------------------------------------------------------------------------------------
    def _with_headers(self, send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        return wrapped

    async def _respond(self, send: Send, status: int, problem: str) -> None:
        body = error_body(problem)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _refuse(self, scope: Scope, send: Send, status: int, problem: str) -> None:
        if scope["type"] == "http":
            await self._respond(send, status, problem)
            return
        if "websocket.http.response" in scope.get("extensions", {}):
            body = error_body(problem)
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
                }
            )
            await send({"type": "websocket.http.response.body", "body": body})
            return
        await send({"type": "websocket.close", "code": 1008, "reason": problem[:120]})


def _json_kind(value: Any) -> str:
    return {list: "list", str: "string", bool: "boolean", type(None): "null"}.get(type(value), "number")


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then whatever comes after (a disconnect)."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again
