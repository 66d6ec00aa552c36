"""Persistence: every move is stored before it is acknowledged, and a new server rebuilds every table."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cardtable.web import create_app
from cardtable.web.storage import Storage
from tests.web.conftest import create, hello


def test_a_restarted_server_restores_every_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    # Bots wait 0.3 s between moves here, so the bot-only table is still going when the server stops.
    app = create_app(url, bot_workers=0, bot_delay=0.3)
    rng = random.Random(3)
    with TestClient(app) as client:
        table, tokens = create(client, "mephisto", ["me", "random"], players=2)
        bots_only, _ = create(client, "army-of-darkness", ["random"] * 3, players=3)
        with client.websocket_connect(f"/ws/{table}") as ws:
            frame = hello(ws, tokens[0])
            for _ in range(12):
                while frame["type"] != "state" or not frame["legal"]:
                    frame = ws.receive_json()
                ws.send_json(
                    {"type": "action", "state": frame["state"], "action": rng.choice(frame["legal"])["action"]}
                )
                frame = ws.receive_json()
            # Every acknowledged state is in the database already.
            stored = Storage(url)
            assert len(stored.moves(table)) >= frame["state"]
            stored.close()
        hub = app.state.hub
        before = hub.get(table)
        snapshot = (before.version, before.state.fingerprint(), before.state.events(0))
        stored = Storage(url)
        moves = stored.moves(table)[: snapshot[0]]
        stored.close()
    app2 = create_app(url, bot_workers=0, bot_delay=0)
    with TestClient(app2) as client:
        hub = app2.state.hub
        assert table in hub.tables and bots_only in hub.tables, "unfinished tables are loaded at start"
        after = hub.get(table)
        # The bot may have moved since (it is its turn when the person's last action handed over).
        assert after.version >= snapshot[0]
        assert after.state.events(0)[: len(snapshot[2])] == snapshot[2]
        stored = Storage(url)
        assert stored.moves(table)[: snapshot[0]] == moves
        stored.close()
        # The bots of the bot-only table carry on by themselves.
        live = hub.get(bots_only)
        start = live.version
        deadline = time.monotonic() + 20
        while live.version == start and not live.is_over and time.monotonic() < deadline:
            time.sleep(0.02)
        assert live.version > start or live.is_over
        with client.websocket_connect(f"/ws/{table}") as ws:
            frame = hello(ws, tokens[0], snapshot[0], len(snapshot[2]))
            assert frame["state"] == after.version and frame["events_from"] == len(snapshot[2])


def test_undo_is_stored_and_replayed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    app = create_app(url, bot_workers=0, bot_delay=0)
    with TestClient(app) as client:
        table, tokens = create(client, "mephisto", ["me", "me"], players=2)
        hub = app.state.hub
        live = hub.get(table)
        rng = random.Random(1)
        with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
            ws = {0: ws0, 1: ws1}
            hello(ws0, tokens[0])
            hello(ws1, tokens[1])
            ws0.receive_json()
            undone = False
            for _ in range(300):
                seat = live.state.current_player
                if live.table.undoable(seat):
                    ws[seat].send_json({"type": "undo", "state": live.version, "count": 1})
                    undone = True
                else:
                    action = rng.choice(live.legal(seat))["action"]
                    ws[seat].send_json({"type": "action", "state": live.version, "action": action})
                for s in ws:
                    assert ws[s].receive_json()["type"] == "state"
                if undone:
                    break
            assert undone
            snapshot = (live.version, live.state.fingerprint())
    app2 = create_app(url, bot_workers=0, bot_delay=0)
    with TestClient(app2):
        again = app2.state.hub.get(table)
        assert (again.version, again.state.fingerprint()) == snapshot


def test_rematch_same_game_same_seats(client: TestClient) -> None:
    table, tokens = create(client, "army-of-darkness", ["me", "random"], players=2, **{"turn-limit": 5})
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.get(table)
    rng = random.Random(0)
    with client.websocket_connect(f"/ws/{table}") as ws:
        frame = hello(ws, tokens[0])
        ws.send_json({"type": "rematch", "state": frame["state"]})
        reply = ws.receive_json()
        while reply["type"] != "error":  # the bot may be deciding first: its frames come in between
            reply = ws.receive_json()
        assert reply["code"] == "not-over"
        ws.send_json({"type": "sync", "state": None, "events": None})
        while not live.is_over:
            frame = ws.receive_json()
            if frame["type"] == "state" and frame["legal"] and frame["state"] == live.version:
                ws.send_json(
                    {"type": "action", "state": frame["state"], "action": rng.choice(frame["legal"])["action"]}
                )
        ws.send_json({"type": "rematch", "state": live.version})
        msg = ws.receive_json()
        while msg["type"] != "rematch":
            msg = ws.receive_json()
        assert msg["seat"] == 0
        new = hub.get(msg["table"])
        assert new.game.options == live.game.options and new.seed != live.seed
        assert [s.spec for s in new.seats] == ["human", "random"]
        assert new.seat_of(msg["token"]) == 0
        assert hub.get(table).rematch == new.id


def test_a_move_the_database_refuses_is_not_made(client: TestClient, monkeypatch: Any) -> None:
    """A failed write (disk full, database gone) is an error to the sender, and the table is as before."""
    table, tokens = create(client, "mephisto", ["me", "me"], players=2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.get(table)
    seat = live.state.current_player
    before = (live.version, live.state.fingerprint())

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(hub.storage, "add_move", broken)
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, tokens[seat])
        ws.send_json({"type": "action", "state": live.version, "action": live.legal(seat)[0]["action"]})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "storage"
    live = hub.get(table)
    assert (live.version, live.state.fingerprint()) == before
