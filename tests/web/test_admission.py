"""Admission control (issue 23, findings 3 to 6): what one client may cost the server is bounded.

- messages: a connection that floods gets a clear ``rate-limited`` error, then is disconnected,
  while another connection is served as usual;
- slow readers: a client that never reads holds one (the latest) state frame, not a backlog, and
  its log is still whole when it reads; one that lets other messages pile up is disconnected;
- connections: per-client and total caps (answered with 503 and ``{"error"}``), a header timeout
  for half-open requests, and a hello/idle timeout for WebSockets;
- tables: a quota per client and in all; finished and abandoned tables leave memory but stay in the
  database, their records downloadable, and come back when opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from cardtable.web import create_app
from cardtable.web.bots import BotRunner
from cardtable.web.hub import Hub
from cardtable.web.limits import Limits
from cardtable.web.storage import Storage
from tests.web.conftest import Recorder, create, hello
from tests.web.server import Server, act, catch_up, recv_state


def _app(db_url: str, recorder: Recorder | None = None, **limits: Any) -> TestClient:
    return TestClient(create_app(db_url, bot_workers=0, bot_delay=0, tap=recorder, limits=Limits(**limits)))


# -- messages -------------------------------------------------------------------------------------------------
def test_a_flooding_connection_is_told_then_disconnected_and_others_are_served(db_url: str) -> None:
    with _app(db_url, message_rate=5, message_burst=10) as client:
        table, _tokens = create(client, "mephisto", ["me", "me"], players=2)
        other, other_tokens = create(client, "mephisto", ["me", "me"], players=2)
        with client.websocket_connect(f"/ws/{table}") as flood, client.websocket_connect(f"/ws/{other}") as calm:
            hello(flood, None)
            for _ in range(60):
                flood.send_json({"type": "sync", "state": None, "events": None})
            got: list[dict[str, Any]] = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    got.append(flood.receive_json())
            assert closed.value.code == 1008
            errors = [m for m in got if m["type"] == "error"]
            assert errors and errors[0]["code"] == "rate-limited" and "a second" in errors[0]["message"]
            assert errors[-1]["code"] == "rate-limited" and "disconnected" in errors[-1]["message"]
            states = [m for m in got if m["type"] == "state"]
            assert len(states) <= 12, f"{len(states)} syncs of 60 were answered: the limit did not hold"
            assert "no new connection from your address" in errors[-1]["message"]
            # Reconnecting at once is refused before the handshake (each one would cost the server).
            with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(f"/ws/{table}"):
                pass
            assert denied.value.status_code == 429 and "try again" in denied.value.json()["error"]
            # Another connection (another table) is served as usual meanwhile.
            frame = hello(calm, other_tokens[0])
            assert frame["type"] == "state" and frame["table"] == other
            calm.send_json({"type": "ping", "state": None, "id": 7})
            assert calm.receive_json() == {"type": "pong", "state": 0, "id": 7}


def test_messages_within_the_rate_are_all_served(db_url: str) -> None:
    with _app(db_url, message_rate=1000, message_burst=40) as client:
        table, _ = create(client, "mephisto", ["me", "me"], players=2)
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, None)
            for i in range(30):
                ws.send_json({"type": "ping", "state": None, "id": i})
                assert ws.receive_json()["id"] == i


# -- slow readers ---------------------------------------------------------------------------------------------
async def _never_reads(tmp_path: Path) -> tuple[Any, Any]:
    storage = Storage(f"sqlite:///{tmp_path / 's.db'}")
    hub = Hub(storage, BotRunner(0, budget=5), limits=Limits(outbox=8))
    await hub.start()
    table, _ = hub.create("mephisto", {"players": 2}, ["random", "random"], seed=3, owner="a")
    reader = hub.attach(table.id)  # nobody drains its outbox: a client that never reads
    await hub.handle(reader, json.dumps({"type": "hello", "state": None, "events": None, "token": None}))
    deadline = time.monotonic() + 60
    while not table.is_over and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    dropped = reader.closed
    await hub.stop()
    hub.bots.close()
    storage.close()
    return table, (reader, dropped)


def test_a_reader_that_never_reads_holds_the_latest_state_not_a_backlog(tmp_path: Path) -> None:
    table, (reader, dropped) = asyncio.run(_never_reads(tmp_path))
    assert table.is_over and table.version > 50
    kinds = [item.kind for item in reader.outbox.items]
    assert kinds.count("state") == 1 and len(kinds) <= 4, kinds
    state = json.loads(reader.outbox.pending("state").encoded())
    assert state["state"] == table.version, "the waiting frame is the newest state"
    assert state["events_from"] == 0, "the client got no event yet: the frame brings the whole log"
    assert state["events"] == table.state.events(None, 0)
    assert not dropped, "a slow reader is not dropped for state frames alone"


def test_a_client_that_lets_messages_pile_up_is_disconnected(tmp_path: Path) -> None:
    async def scenario() -> Any:
        storage = Storage(f"sqlite:///{tmp_path / 's.db'}")
        hub = Hub(storage, BotRunner(0, budget=5), limits=Limits(outbox=8, message_rate=1000))
        await hub.start()
        table, _ = hub.create("mephisto", {"players": 2}, ["human", "human"], owner="a")
        client = hub.attach(table.id)
        await hub.handle(client, json.dumps({"type": "hello", "state": None, "events": None, "token": None}))
        for i in range(20):  # pongs are answers, not coalesced: they pile up for a client that never reads
            await hub.handle(client, json.dumps({"type": "ping", "state": None, "id": i}))
        await hub.stop()
        hub.bots.close()
        storage.close()
        return client

    client = asyncio.run(scenario())
    assert client.closed and client.close_code == 1008 and "too slow" in client.close_reason
    assert client.outbox.qsize() == 0, "what waited for it was dropped"


# -- connections ----------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('caps') / 't.db'}"
    extra = ["--max-connections", "6", "--max-connections-per-client", "3", "--header-timeout", "4"]
    server = Server(db, extra=extra).start()
    yield server
    server.stop()


def _open(server: Server, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=(source, 0))


def _refused(sock: socket.socket) -> dict[str, Any] | None:
    """The 503 refusal's body if the server refused this connection at once; None if it kept it."""
    sock.settimeout(0.3)
    try:
        data = sock.recv(4096)
    except TimeoutError:
        return None
    assert data.startswith(b"HTTP/1.1 503"), data[:80]
    body: dict[str, Any] = json.loads(data.split(b"\r\n\r\n", 1)[1])
    return body


def _wait_closed(sock: socket.socket, timeout: float) -> float:
    sock.settimeout(timeout)
    started = time.monotonic()
    try:
        assert sock.recv(4096) == b""
    except TimeoutError:
        pytest.fail(f"the server kept a connection without a request open for {timeout} s")
    return time.monotonic() - started


def test_connection_caps_per_client_and_in_all(capped: Server) -> None:
    with contextlib.ExitStack() as stack:
        first = [stack.enter_context(_open(capped, "127.0.0.2")) for _ in range(3)]
        assert all(_refused(s) is None for s in first)
        extra = stack.enter_context(_open(capped, "127.0.0.2"))
        refusal = _refused(extra)
        assert refusal is not None and "your address has 3 connections open" in refusal["error"]
        # Another client is not held to the first one's cap, only to the total.
        others = [stack.enter_context(_open(capped, "127.0.0.3")) for _ in range(3)]
        assert all(_refused(s) is None for s in others)
        over = stack.enter_context(_open(capped, "127.0.0.4"))
        refusal = _refused(over)
        assert refusal is not None and "the server has 6 connections open" in refusal["error"]
        first[0].close()
        time.sleep(0.3)
        again = stack.enter_context(_open(capped, "127.0.0.2"))
        assert _refused(again) is None, "a freed place is given again"


def test_half_open_requests_are_closed_after_the_header_timeout(capped: Server) -> None:
    with _open(capped, "127.0.0.5") as silent, _open(capped, "127.0.0.5") as partial:
        partial.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        assert _wait_closed(silent, 8) < 6
        assert _wait_closed(partial, 8) < 6
    with _open(capped, "127.0.0.5") as kept:  # a whole request is answered, and the next one may follow
        kept.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        kept.settimeout(5)
        assert kept.recv(64).startswith(b"HTTP/1.1 200")


def test_a_websocket_must_say_hello_in_time(db_url: str) -> None:
    with _app(db_url, header_timeout=0.3) as client:
        table, _ = create(client, "mephisto", ["me", "me"], players=2)
        with client.websocket_connect(f"/ws/{table}") as ws:
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "no-hello"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008


def test_an_idle_websocket_is_closed(db_url: str) -> None:
    with _app(db_url, idle_timeout=0.4) as client:
        table, _ = create(client, "mephisto", ["me", "me"], players=2)
        with client.websocket_connect(f"/ws/{table}") as ws:
            hello(ws, None)
            reply = ws.receive_json()
            assert reply["code"] == "idle" and "reconnects" in reply["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1001


# -- tables ---------------------------------------------------------------------------------------------------
def test_table_quotas_per_client_and_in_all(db_url: str) -> None:
    with _app(db_url, max_tables_per_client=3, max_tables=5) as client:
        for _ in range(3):
            create(client, "mephisto", ["me", "random"], players=2)
        r = client.post("/api/tables", json={"game": "mephisto", "options": {"players": 2}, "seats": ["me", "me"]})
        assert r.status_code == 429 and "you have 3 unfinished tables" in r.json()["error"], r.text
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.create("mephisto", {"players": 2}, ["human", "human"], owner="192.0.2.1")
        hub.create("mephisto", {"players": 2}, ["human", "human"], owner="192.0.2.2")
        r = client.post("/api/tables", json={"game": "mephisto", "options": {"players": 2}, "seats": ["me", "me"]})
        assert r.status_code == 429 and "this server has 5 tables in play" in r.json()["error"], r.text


def test_finished_and_abandoned_tables_leave_memory_but_not_the_database(db_url: str) -> None:
    with _app(db_url, finished_ttl=60, abandoned_after=3600) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        done, _ = create(client, "mephisto", ["random", "random"], players=2)
        waiting, tokens = create(client, "mephisto", ["me", "me"], players=2)
        watched, watched_tokens = create(client, "mephisto", ["me", "me"], players=2)
        deadline = time.monotonic() + 60
        while not hub.tables[done].is_over and time.monotonic() < deadline:
            time.sleep(0.05)
        moves = hub.tables[done].version
        with client.websocket_connect(f"/ws/{watched}") as ws:
            hello(ws, watched_tokens[0])
            now = time.time()
            assert hub.expire(now + 30) == [], "nothing is idle long enough yet"
            gone = hub.expire(now + 61)
            assert done in gone and done not in hub.tables, "a finished table left memory"
            assert waiting in hub.tables, "an unfinished table stays until it is abandoned"
            gone = hub.expire(now + 3601)
            assert waiting in gone and waiting not in hub.tables
            assert watched in hub.tables, "a table someone is connected to never leaves"
        # Still in the database: the record downloads, and the table comes back when opened.
        record = client.get(f"/api/tables/{done}/record")
        assert record.status_code == 200 and len(record.json()["actions"]) == moves
        with client.websocket_connect(f"/ws/{waiting}") as ws:
            frame = hello(ws, tokens[0])
            assert frame["state"] == 0 and frame["seat"] == 0


def test_a_restart_does_not_load_abandoned_tables(db_url: str) -> None:
    with _app(db_url) as client:
        old, tokens = create(client, "mephisto", ["me", "me"], players=2)
        fresh, _ = create(client, "mephisto", ["me", "me"], players=2)
    storage = Storage(db_url)
    with storage.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE ct_tables SET created = created - 86400 WHERE id = ?", (old,))
    storage.close()
    with _app(db_url, abandoned_after=3600) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert fresh in hub.tables and old not in hub.tables
        with client.websocket_connect(f"/ws/{old}") as ws:
            assert hello(ws, tokens[0])["table"] == old
        assert old in hub.tables


def test_an_abandoned_table_with_a_bot_to_move_plays_on_when_opened(db_url: str) -> None:
    """A table left with a bot to move (two bots, written while no server ran) and older than
    ``abandoned_after`` is not loaded at start; opening it brings it back, and its bots move again
    (they once stood still there for good: loading it never woke them)."""
    storage = Storage(db_url)
    storage.create_table("abandoned1", "mephisto", {"players": 2}, 7, [("random", None), ("random", None)])
    with storage.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE ct_tables SET created = created - 86400 WHERE id = ?", ("abandoned1",))
    storage.close()
    with _app(db_url, abandoned_after=3600) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert "abandoned1" not in hub.tables, "an abandoned table stays out of memory at start"
        with client.websocket_connect("/ws/abandoned1") as ws:
            assert hello(ws, None)["table"] == "abandoned1"
            deadline = time.monotonic() + 30
            while not hub.tables["abandoned1"].is_over and time.monotonic() < deadline:
                time.sleep(0.05)
            assert hub.tables["abandoned1"].is_over, "the bots of an abandoned table never moved again"


def test_running_out_of_file_descriptors_locks_nobody_out(tmp_path: Path) -> None:
    """Finding 5: exhausting the descriptors locked everyone out. A server that may open 256 files
    (so its default --max-connections is 156) gets 320 held-open connections from eight addresses:
    the ones over the cap are refused at once with 503 (never left hanging, never an accept error),
    the players already connected keep playing, and once the flood goes a new client is served."""
    server = Server(f"sqlite:///{tmp_path / 't.db'}", extra=["--header-timeout", "60"], nofile=256).start()
    held: list[socket.socket] = []
    try:
        table, tokens = server.create("mephisto", ["me", "me"], players=2)
        with connect(server.ws + table) as first, connect(server.ws + table) as second:
            socks = {0: first, 1: second}
            frames = {}
            for seat, ws in socks.items():
                ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[seat]}))
                frames[seat] = recv_state(ws)
            for i in range(320):
                held.append(_open(server, f"127.0.0.{2 + i % 8}"))
            refused = 0
            for sock in held:
                sock.settimeout(0.05)
                with contextlib.suppress(TimeoutError):
                    if sock.recv(16).startswith(b"HTTP/1.1 503"):
                        refused += 1
            assert 320 - 156 <= refused < 320, f"{refused} of 320 refused (cap 156, two players connected)"
            # The connected players still play while every place is taken.
            for _ in range(3):
                seat = next(s for s, f in frames.items() if f["legal"])
                acked = act(socks[seat], frames[seat]["state"], frames[seat]["legal"][0]["action"])
                assert acked is not None, "a player's move was not served while the server was full"
                frames[seat] = acked
                catch_up(socks, frames, acked["state"])
        for sock in held:
            sock.close()
        held.clear()
        assert _served_again(server), "after the flood a new client was not served"
        assert "Too many open files" not in server.log() and "Traceback" not in server.log(), server.log()[-2000:]
    finally:
        for sock in held:
            sock.close()
        server.stop()


def _served_again(server: Server, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, urllib.error.URLError):
            return isinstance(server.get("/api/tables"), dict)
        time.sleep(0.2)
    return False
