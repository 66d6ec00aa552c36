"""Kill -9: a server killed mid-game and restarted loses no acknowledged action, and play carries on.

A real ``cardtable serve`` (uvicorn) in a subprocess on SQLite; clients are plain WebSocket clients.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

import cardtable
from cardtable.web.storage import Storage
from tests.web.server import Server, act, catch_up, recv_state


def test_kill9_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    # Both tables dealt from fixed seeds (written before the server starts): the moves played before
    # the kill, and the bot-only game's length, are the same on every run.
    table, bots = "people", "bots"
    server = Server(db, bot_delay=0.05)  # the bot-only table is still going at the kill
    server.deal(table, cardtable.load("mephisto", players=2), 41, ["me", "me"])
    server.deal(bots, cardtable.load("army-of-darkness", players=3), 42, ["random"] * 3)
    server.start()
    with contextlib.ExitStack() as stack:
        stack.callback(server.stop)
        tokens = server.dealt[table]
        rng = random.Random(4)
        acknowledged: list[str] = []
        frames: dict[int, dict[str, Any]] = {}
        socks = {s: stack.enter_context(connect(server.ws + table)) for s in (0, 1)}
        for s, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[s]}))
            frames[s] = recv_state(ws)
        version = 0
        for _ in range(15):
            catch_up(socks, frames, version)
            seat = next(s for s in (0, 1) if frames[s]["legal"])
            action = rng.choice(frames[seat]["legal"])["action"]
            ack = act(socks[seat], version, action)
            assert ack is not None
            frames[seat] = ack
            version = ack["state"]
            acknowledged.append(action)
        catch_up(socks, frames, version)
        # One more action in flight when the server dies: stored or not, never half.
        seat = next(s for s in (0, 1) if frames[s]["legal"])
        in_flight = rng.choice(frames[seat]["legal"])["action"]
        socks[seat].send(json.dumps({"type": "action", "state": frames[seat]["state"], "action": in_flight}))
        server.kill9()
        for ws in socks.values():
            ws.close()
        stored = Storage(db)
        texts = [m.text for m in stored.moves(table)]
        stored.close()
        assert texts[: len(acknowledged)] == acknowledged, "an acknowledged action was lost"
        assert texts[len(acknowledged) :] in ([], [in_flight])
        stored = Storage(db)
        bot_moves = len(stored.moves(bots))
        row = stored.table(bots)
        stored.close()
        assert row is not None and not row.finished

        server.start()
        # Each seat reconnects with what it knew and gets the missed events; play goes on to the end.
        for s in (0, 1):
            socks[s] = stack.enter_context(connect(server.ws + table))
            socks[s].send(
                json.dumps({"type": "hello", "state": frames[s]["state"], "events": None, "token": tokens[s]})
            )
            frames[s] = recv_state(socks[s])
            assert frames[s]["state"] == len(texts)
        summary = server.get(f"/api/tables/{table}")
        assert summary["state"] == len(texts)
        moves = 0
        version = len(texts)
        while not frames[0]["view"]["is_over"] and moves < 40:
            catch_up(socks, frames, version)
            seat = next(s for s in (0, 1) if frames[s]["legal"])
            ack = act(socks[seat], version, rng.choice(frames[seat]["legal"])["action"])
            assert ack is not None
            frames[seat], version = ack, ack["state"]
            moves += 1
            catch_up(socks, frames, version)
        assert moves == 40 or frames[0]["view"]["is_over"]
        # The bots of the bot-only table resumed by themselves.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            after = server.get(f"/api/tables/{bots}")
            if after["state"] > bot_moves or after["is_over"]:
                break
            time.sleep(0.1)
        assert after["state"] > bot_moves or after["is_over"]
        for ws in socks.values():
            ws.close()
