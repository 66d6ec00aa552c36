"""The web table's ASGI app: the lobby API, the play WebSocket and the page's static files.

``create_app(db_url)`` builds it; ``cardtable serve`` runs it under uvicorn. The page is plain HTML,
CSS and JavaScript modules shipped in ``cardtable/web/static`` (no build step). Every request passes
:class:`~cardtable.web.security.BrowserGuard` (origins, hosts, security headers, bodies), and every
error, FastAPI's own included, is the documented ``{"error": "..."}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardtable import __version__
from cardtable.web import protocol
from cardtable.web.bots import BotRunner
from cardtable.web.hub import REMATCH_RESERVE, Client, Hub
from cardtable.web.limits import Limits
from cardtable.web.live import ProtocolError
from cardtable.web.lobby import router
from cardtable.web.rules import router as rules_router
from cardtable.web.security import BrowserGuard, Policy
from cardtable.web.storage import Storage

log = logging.getLogger("cardtable.web")


class _DenialIsAnswer(logging.Filter):
    """uvicorn logs an error when a WebSocket is refused with an HTTP answer before its handshake
    (a denial response: how the server turns a flooder away); that is no error, and a flooder must
    not fill the log with it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "ASGI callable returned without completing handshake."


logging.getLogger("uvicorn.error").addFilter(_DenialIsAnswer())

STATIC = Path(str(files("cardtable.web") / "static"))


def create_app(
    db_url: str | None = None,
    *,
    bot_workers: int | None = None,
    bot_budget: float | None = None,
    bot_delay: float = 0.6,
    tap: Callable[[Client, dict[str, Any]], None] | None = None,
    poll_interval: float = 0.5,
    rematch_reserve: float = REMATCH_RESERVE,
    limits: Limits | None = None,
    policy: Policy | None = None,
    penalties: dict[str, float] | None = None,
) -> FastAPI:
    """The app, with its database at ``db_url`` (default: SQLite in the user's data directory).

    ``bot_workers``: processes that run bots (None: the share of the cores ``limits.bot_cpu`` says;
    0: two threads of this process, for tests: a thread past its budget cannot be stopped).
    ``bot_budget``: seconds a bot may think per decision (default ``limits.bot_budget``).
    ``bot_delay``: least seconds between a bot's moves, so people can follow them. ``tap``: called
    with every frame queued (tests). ``rematch_reserve``: seconds a rematch's seats are kept for the
    finished game's players. ``limits``: every bound (:class:`Limits`). ``policy``: origins and hosts
    allowed (default: same origin, any host). ``penalties``: the addresses closed for flooding, shared
    with the connection guard (``cardtable serve``), which then refuses them first."""
    limits = limits or Limits()
    if bot_budget is not None:
        limits = Limits(**{**limits.__dict__, "bot_budget": bot_budget})
    storage = Storage(db_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        workers = bot_workers if bot_workers is not None else limits.bot_workers()
        bots = BotRunner(
            workers, limits.bot_budget, deadline=limits.bot_deadline(), max_iterations=limits.bot_max_iterations
        )
        hub = Hub(
            storage,
            bots,
            bot_delay=bot_delay,
            tap=tap,
            poll_interval=poll_interval,
            rematch_reserve=rematch_reserve,
            limits=limits,
        )
        if penalties is not None:
            hub.penalties = penalties
        app.state.hub = hub
        try:
            await hub.start()
            yield
        finally:
            bots.stopping()
            await hub.stop()
            bots.close()
            storage.close()

    app = FastAPI(title="cardtable", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.storage = storage
    app.state.limits = limits
    app.include_router(router)
    app.include_router(rules_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _error_shape(app)
    app.add_middleware(
        BrowserGuard,
        policy=policy
        or Policy(max_body=limits.max_body, max_json_depth=limits.max_json_depth, body_timeout=limits.header_timeout),
    )

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html", headers={"Cache-Control": "no-cache"})

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-cache"})

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        hub: Hub = app.state.hub
        peer = ws.client.host if ws.client else ""
        wait = hub.penalized(peer)
        if wait:  # refused before the handshake: a flooder reconnecting costs the server little
            refusal = {"error": f"too many messages from your address: try again in {wait:.0f} s"}
            try:
                await ws.send_denial_response(JSONResponse(refusal, status_code=429))
            except RuntimeError:  # a server without denial responses: a plain refusal
                await ws.close(code=1008)
            return
        try:
            await hub.load(table_id)
            client = hub.attach(table_id, peer)
        except ProtocolError as exc:
            await ws.accept()
            await ws.send_json(protocol.error(exc.code, str(exc), None))
            await ws.close(code=4404)
            return
        await ws.accept()
        writer = _start_writer(ws, client)
        try:
            while not client.closed:
                # Until its hello a connection has header_timeout seconds; then idle_timeout between messages.
                wait = limits.idle_timeout if client.joined else limits.header_timeout
                try:
                    message = await asyncio.wait_for(ws.receive(), timeout=wait)
                except TimeoutError:
                    idle = client.joined
                    text = (
                        f"no message for {wait:g} s: disconnected (the page reconnects by itself)"
                        if idle
                        else f"no hello within {wait:g} s: disconnected"
                    )
                    hub.send(client, protocol.error("idle" if idle else "no-hello", text, client.table.version))
                    client.close_code, client.close_reason = (1001 if idle else 1008), "idle"
                    break
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await hub.handle(client, raw)
        except WebSocketDisconnect:
            pass
        finally:
            hub.detach(client)
            client.outbox.close()
            await writer

    return app


def _error_shape(app: FastAPI) -> None:
    """Every error the framework itself answers is ``{"error": "..."}`` too, never its 422 with the
    input echoed back."""

    async def validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        where = []
        for problem in exc.errors()[:1]:
            loc = [str(part) for part in problem.get("loc", ()) if part != "body"]
            where.append(f"{'.'.join(loc) or 'the body'}: {problem.get('msg', 'invalid')}")
        return JSONResponse({"error": f"bad request ({'; '.join(where) or 'invalid input'})"[:300]}, status_code=400)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        return JSONResponse({"error": detail[:300]}, status_code=exc.status_code, headers=exc.headers)

    app.add_exception_handler(RequestValidationError, validation)
    app.add_exception_handler(StarletteHTTPException, http_error)


def _start_writer(ws: WebSocket, client: Client) -> asyncio.Task[None]:
    """Send what waits in the client's outbox, one message at a time (each awaits the socket)."""

    async def pump() -> None:
        try:
            while True:
                text = await client.outbox.get()
                if text is None:
                    break
                await ws.send_text(text)
        except Exception:  # the connection went away: the reader notices and cleans up
            client.closed = True
            return
        with contextlib.suppress(Exception):  # closed already
            await ws.close(code=client.close_code, reason=client.close_reason)

    return asyncio.create_task(pump())
