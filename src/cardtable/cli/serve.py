"""``cardtable serve``: the web table — play every game in a browser, with friends or bots.

Starts the server (uvicorn) on 127.0.0.1 by default, prints the address and opens a browser where
one is available. Tables live in a database (SQLite in the user's data directory by default, or
``--db postgresql://...``), so a restarted server carries on every game.

Every limit of :class:`cardtable.web.limits.Limits` is a flag here (``--bot-budget``,
``--max-connections`` …). SIGTERM and SIGINT (Ctrl+C) both stop the server cleanly: the bots'
workers end, and it says every table is saved (every move was stored before it was shown) and exits
with status 0. ``--check-db`` reads every table of the database and reports each damaged one.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import signal
import socket
import sys
import threading
import webbrowser
from dataclasses import fields
from pathlib import Path
from typing import Any

STOPPED = "cardtable web table: stopped (every table is saved; cardtable serve resumes them)"


def add_parser(subparsers: Any) -> None:
    from cardtable.web.limits import Limits

    parser = subparsers.add_parser(
        "serve",
        help="start the web table: play in a browser, with friends or bots",
        description="Start the web table server and open it in a browser. Create a table in the lobby (game, "
        "options, who sits where: you, friends through seat links, bots of any agent spec), then play. Every "
        "move is stored before it is shown, so a restarted server resumes every table. Every limit below has a "
        "default that suits a small club server (see docs/web.md).",
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
        "--check-db",
        action="store_true",
        help="do not serve: read every table of the database, report each damaged one, and exit (1 if any)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="S",
        help="least seconds between a bot's moves, so people can follow them (default 0.6)",
    )
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes that run bots (default: --bot-cpu's share of the cores, at least 1)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a web origin (https://cards.example.org) whose pages may also play here; repeatable (default: "
        "this server's own pages only)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name requests may be addressed to; repeatable (bound to 127.0.0.1 the server answers only "
        "localhost, 127.0.0.1 and [::1] besides, against DNS rebinding)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1",
        metavar="IPS",
        help="addresses of reverse proxies whose X-Forwarded-For names the real client (comma-separated; "
        "default 127.0.0.1); the per-client limits count that client",
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
    limits = parser.add_argument_group("limits (each bounds what one client, or all, may cost the server)")
    defaults = Limits()
    for f in fields(Limits):
        default = getattr(defaults, f.name)
        limits.add_argument(
            Limits.flag(f.name),
            dest=f.name,
            type=type(default),
            default=default,
            metavar=f.metadata.get("metavar", "N"),
            help=f"{f.metadata['help']} (default {default:g})"
            if isinstance(default, float)
            else f"{f.metadata['help']} (default {default})",
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


def _raise_file_limit() -> None:
    """Allow this process as many open files as the system lets it (each connection is one)."""
    with contextlib.suppress(ImportError, OSError, ValueError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))


def _database_problem(url: str, exc: BaseException) -> str:
    """One line about a database that cannot be read, naming the file."""
    text = " ".join(str(getattr(exc, "orig", None) or exc).split())[:160] or type(exc).__name__
    return (
        f"the database {_where(url)} cannot be read ({text}); `cardtable serve --check-db` says more, "
        "or move the file aside to start afresh"
    )


def check_db(url: str) -> int:
    """``--check-db``: every damaged table, one line each; 0 when none, 1 otherwise."""
    from cardtable.web.live import LiveTable
    from cardtable.web.storage import Storage, StorageError

    try:
        storage = Storage(url)
    except StorageError as exc:
        print(f"cardtable: error: {exc}", file=sys.stderr)
        return 2
    try:
        try:
            problems = storage.integrity_problems()
            ids = storage.all_ids()
        except Exception as exc:
            print(f"cardtable: error: {_database_problem(url, exc)}", file=sys.stderr)
            return 2
        for problem in problems[:20]:
            print(f"database file: {problem}")
        damaged = 0
        for table_id in ids:
            try:
                row = storage.table(table_id)
                assert row is not None
                LiveTable(row, storage.seats(table_id), storage.moves(table_id))
            except Exception as exc:
                damaged += 1
                reason = " ".join(str(exc).split())[:240] or type(exc).__name__
                print(f"table {table_id}: damaged: {reason}")
        print(
            f"{_where(url)}: {len(ids)} tables, {damaged} damaged"
            + (f"; the file itself: {len(problems)} problem(s)" if problems else "")
        )
        return 1 if damaged or problems else 0
    finally:
        storage.close()


def run(args: argparse.Namespace) -> int:
    from cardtable.web.storage import Storage, StorageError, default_url

    url = args.db or default_url()
    if args.check_db:
        return check_db(url)

    import uvicorn

    from cardtable.web import create_app
    from cardtable.web.guard import ConnectionGuard, guarded_protocols
    from cardtable.web.limits import Limits
    from cardtable.web.security import Policy

    if args.port < 0 or args.port > 65535:
        print(f"cardtable: error: --port must be 0..65535, got {args.port}", file=sys.stderr)
        return 2
    if args.bot_delay < 0 or (args.bot_workers is not None and args.bot_workers < 1):
        print("cardtable: error: --bot-delay must be at least 0 and --bot-workers at least 1", file=sys.stderr)
        return 2
    if not 0 <= args.rematch_reserve <= 7 * 86400:
        print("cardtable: error: --rematch-reserve must be 0..604800 seconds", file=sys.stderr)
        return 2
    _raise_file_limit()
    try:
        limits = Limits(**{f.name: getattr(args, f.name) for f in fields(Limits)})
        limits.check()
        policy = Policy.make(
            args.host,
            args.allow_origin,
            args.allow_host,
            max_body=limits.max_body,
            max_json_depth=limits.max_json_depth,
            body_timeout=limits.header_timeout,
        )
    except ValueError as exc:
        print(f"cardtable: error: {exc}", file=sys.stderr)
        return 2
    try:
        storage = Storage(url)  # fail here, with one line, rather than inside the server
    except StorageError as exc:
        print(f"cardtable: error: {exc}", file=sys.stderr)
        return 2
    try:
        storage.unfinished_ids()  # the file's tables can be read (a damaged file fails here)
        storage.list_tables(limit=1)
    except Exception as exc:
        print(f"cardtable: error: {_database_problem(url, exc)}", file=sys.stderr)
        return 2
    finally:
        storage.close()
    penalties: dict[str, float] = {}  # addresses closed for flooding: the app writes, the guard refuses
    app = create_app(
        url,
        bot_workers=args.bot_workers,
        bot_delay=args.bot_delay,
        rematch_reserve=args.rematch_reserve,
        limits=limits,
        policy=policy,
        penalties=penalties,
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
    guard = ConnectionGuard(limits.max_connections, limits.max_connections_per_client, limits.header_timeout, penalties)
    http, ws = guarded_protocols(guard)
    config = uvicorn.Config(
        app,
        http=http,
        ws=ws,
        log_level="warning",
        ws_max_size=max(1 << 16, limits.max_message * 4),
        ws_per_message_deflate=args.compress,
        lifespan="on",
        timeout_keep_alive=max(1, round(limits.keep_alive_timeout)),
        timeout_graceful_shutdown=5,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    server = uvicorn.Server(config)
    _tune_gc()
    # uvicorn stops gracefully on SIGINT and SIGTERM, then raises the signal again with the handler
    # that was there before it: with these, that second raise is a no-op and the process goes on to
    # say it stopped and exit 0 (the default SIGTERM handler would end it with -15 and no word).
    previous = {sig: signal.signal(sig, lambda *_: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if not server.started:
        print("cardtable: error: the web table could not start (see above)", file=sys.stderr)
        return 2
    print(STOPPED, flush=True)
    return 0
