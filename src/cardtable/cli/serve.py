"""``cardtable serve``: the web table — play every game in a browser, with friends or bots.

Starts the server (uvicorn) on 127.0.0.1 by default, prints the address and opens a browser where
one is available. Tables live in a database (SQLite in the user's data directory by default, or
``--db postgresql://...``), so a restarted server carries on every game.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="start the web table: play in a browser, with friends or bots",
        description="Start the web table server and open it in a browser. Create a table in the lobby (game, "
        "options, who sits where: you, friends through seat links, bots of any agent spec), then play. Every "
        "move is stored before it is shown, so a restarted server resumes every table.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 = any free port)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database URL: sqlite:///path/to/file.db (default: a file in your data directory) or "
        "postgresql://user:pass@host/dbname (needs cardtable[postgresql]) to share tables between servers",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument(
        "--bot-budget", type=float, default=10.0, metavar="S", help="seconds a bot may think per decision (default 10)"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="S",
        help="least seconds between a bot's moves, so people can follow them (default 0.6)",
    )
    parser.add_argument(
        "--bot-workers", type=int, default=None, metavar="N", help="processes that run bots (default: cores - 1)"
    )
    parser.add_argument(
        "--rematch-reserve",
        type=float,
        default=600.0,
        metavar="S",
        help="seconds a rematch's seats stay reserved for the finished game's players before anyone may take "
        "them (default 600; 0: not reserved)",
    )
    parser.add_argument(
        "--compress",
        action="store_true",
        help="compress WebSocket messages (permessage-deflate): less traffic for far-away players, more CPU; "
        "off by default (on this machine or a LAN it only costs time)",
    )


TEXT_BROWSERS = frozenset({"lynx", "w3m", "links", "elinks", "www-browser"})
"""Browsers that would take over this terminal (the one showing the server): never opened."""


def _can_open_browser() -> bool:
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    return getattr(browser, "name", "") not in TEXT_BROWSERS


def _where(url: str) -> str:
    """The database as a person reads it: a SQLite file's path, else the URL without its password."""
    from cardtable.web.storage import redact

    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return str(Path(url[len("sqlite:///") :]).expanduser())
    return redact(url)


def _tune_gc() -> None:
    """Keep the garbage collector's pauses out of the moves' latency.

    Everything loaded so far (the web framework, the games, their card data) lives as long as the
    server: frozen, a full collection no longer walks it (a full collection took 180 ms under load,
    measured). A move allocates a few thousand short-lived objects (views, frames), and the default
    young-generation threshold (700) collected several times per move; most are freed by reference
    counting anyway, so the collector runs less often with the same memory bound in practice."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from cardtable.web import create_app
    from cardtable.web.storage import Storage, StorageError, default_url

    if args.port < 0 or args.port > 65535:
        print(f"cardtable: error: --port must be 0..65535, got {args.port}", file=sys.stderr)
        return 2
    if args.bot_budget <= 0 or args.bot_delay < 0:
        print("cardtable: error: --bot-budget must be positive and --bot-delay at least 0", file=sys.stderr)
        return 2
    if not 0 <= args.rematch_reserve <= 7 * 86400:
        print("cardtable: error: --rematch-reserve must be 0..604800 seconds", file=sys.stderr)
        return 2
    url = args.db or default_url()
    try:
        Storage(url).close()  # fail here, with one line, rather than inside the server
    except StorageError as exc:
        print(f"cardtable: error: {exc}", file=sys.stderr)
        return 2
    app = create_app(
        url,
        bot_workers=args.bot_workers,
        bot_budget=args.bot_budget,
        bot_delay=args.bot_delay,
        rematch_reserve=args.rematch_reserve,
    )
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
        # Listen before the address is printed: a browser opened at once queues until the app is up
        # instead of being refused.
        sock.listen(2048)
    except OSError as exc:
        print(f"cardtable: error: cannot listen on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else shown}:{port}/"
    print(f"cardtable web table: open {address}  (database {_where(url)}; Ctrl+C stops)", flush=True)
    if not args.no_browser and _can_open_browser():
        opener = threading.Timer(0.8, webbrowser.open, args=(address,))
        opener.daemon = True  # a browser that hangs never keeps the server from stopping
        opener.start()
    config = uvicorn.Config(
        app, log_level="warning", ws_max_size=1 << 16, ws_per_message_deflate=args.compress, lifespan="on"
    )
    server = uvicorn.Server(config)
    _tune_gc()
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops cleanly on Ctrl+C, then raises it again
        server.run(sockets=[sock])
    print("cardtable web table: stopped (every table is saved; cardtable serve resumes them)", flush=True)
    return 0
