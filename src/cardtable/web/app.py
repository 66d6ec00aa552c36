"""The web table's ASGI app: the lobby API, the play WebSocket and the page's static files.

``create_app(db_url)`` builds it; ``cardtable serve`` runs it under uvicorn. The page is plain HTML,
CSS and JavaScript modules shipped in ``cardtable/web/static`` (no build step).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from cardtable import __version__
from cardtable.web import protocol
from cardtable.web.bots import BotRunner
from cardtable.web.hub import REMATCH_RESERVE, Client, Hub
from cardtable.web.live import ProtocolError
from cardtable.web.lobby import router
from cardtable.web.rules import router as rules_router
from cardtable.web.storage import Storage

log = logging.getLogger("cardtable.web")

STATIC = Path(str(files("cardtable.web") / "static"))


def create_app(
    db_url: str | None = None,
    *,
    bot_workers: int | None = None,
    bot_budget: float = 10.0,
    bot_delay: float = 0.6,
    tap: Callable[[Client, dict[str, Any]], None] | None = None,
    poll_interval: float = 0.5,
    rematch_reserve: float = REMATCH_RESERVE,
) -> FastAPI:
    """The app, with its database at ``db_url`` (default: SQLite in the user's data directory).

    ``bot_workers``: processes that run bots (None: one per core but one; 0: threads, no processes).
    ``bot_budget``: seconds a bot may think per decision. ``bot_delay``: least seconds between a
    bot's moves, so people can follow them. ``tap``: called with every frame sent (tests).
    ``rematch_reserve``: seconds a rematch's seats are kept for the finished game's players."""
    storage = Storage(db_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        bots = BotRunner(bot_workers, bot_budget)
        hub = Hub(
            storage, bots, bot_delay=bot_delay, tap=tap, poll_interval=poll_interval, rematch_reserve=rematch_reserve
        )
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            bots.close()
            storage.close()

    app = FastAPI(title="cardtable", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.storage = storage
    app.include_router(router)
    app.include_router(rules_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html", headers={"Cache-Control": "no-cache"})

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-cache"})

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        hub: Hub = app.state.hub
        try:
            client = hub.attach(table_id)
        except ProtocolError as exc:
            await ws.send_json(protocol.error(exc.code, str(exc), None))
            await ws.close(code=4404)
            return
        writer = _start_writer(ws, client)
        try:
            while not client.closed:
                message = await ws.receive()
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
            client.queue.put_nowait(None)
            await writer

    return app


def _start_writer(ws: WebSocket, client: Client) -> Any:
    import asyncio

    async def pump() -> None:
        try:
            while True:
                text = await client.queue.get()
                if text is None:
                    break
                await ws.send_text(text)
        except Exception:  # the connection went away: the reader notices and cleans up
            client.closed = True
        if client.closed:
            with contextlib.suppress(Exception):  # closed already
                await ws.close(code=1008 if client.queue.qsize() else 1000)

    return asyncio.create_task(pump())
