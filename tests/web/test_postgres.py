"""PostgreSQL: the same storage on a real server the test starts, shared by two server processes."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect

import cardtable
from cardtable.web.storage import MoveConflict, Storage
from tests.web import postgres
from tests.web.server import Server, act, catch_up, recv_state

why = postgres.missing()
if why:
    pytest.skip(f"PostgreSQL tests skipped: {why}", allow_module_level=True)


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres.postgres_server() as url:
        yield url


def test_storage_on_postgresql(pg_url: str) -> None:
    storage = Storage(pg_url)
    assert storage.shared
    storage.create_table("pgtable1", "mephisto", {"players": 2}, 2**61 + 5, [("human", "h0"), ("random", None)])
    row = storage.table("pgtable1")
    assert row is not None and row.seed == 2**61 + 5 and row.options == {"players": 2}
    storage.add_move("pgtable1", 0, "action", "done", 0, finished=False)
    with pytest.raises(MoveConflict):
        storage.add_move("pgtable1", 0, "action", "pass", 1, finished=False)
    assert [m.text for m in storage.moves("pgtable1")] == ["done"]
    assert storage.move_counts(["pgtable1", "none"]) == {"pgtable1": 1, "none": 0}
    storage.create_table("pgtable2", "mephisto", {"players": 2}, 1, [("human", None), ("human", None)])
    assert storage.claim_seat("pgtable2", 1, "a")
    assert not storage.claim_seat("pgtable2", 1, "b"), "a taken seat cannot be claimed twice"
    assert storage.free_seat("pgtable2", 1, "a")
    storage.close()


def test_two_servers_share_one_database(pg_url: str) -> None:
    """P1 plays through server A, P2 through server B: each sees the other's moves, a move made on
    the stale process is refused, and a kill -9 of A loses nothing. The table is dealt from a fixed
    seed (written before the servers start): the moves played are the same on every run."""
    table = "sharedpg"
    a = Server(pg_url).deal(table, cardtable.load("mephisto", players=2), 43, ["me", "me"]).start()
    tokens = a.dealt[table]
    b = Server(pg_url).start()
    with contextlib.ExitStack() as stack:
        stack.callback(b.stop)
        stack.callback(a.stop)
        socks = {0: stack.enter_context(connect(a.ws + table)), 1: stack.enter_context(connect(b.ws + table))}
        frames = {}
        for s, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[s]}))
            frames[s] = recv_state(ws)
        rng = random.Random(9)
        acknowledged = []
        version = 0
        for _ in range(12):
            catch_up(socks, frames, version)
            seat = next(s for s in (0, 1) if frames[s]["legal"])
            action = rng.choice(frames[seat]["legal"])["action"]
            ack = act(socks[seat], version, action)
            assert ack is not None and ack["state"] == version + 1
            frames[seat], version = ack, ack["state"]
            acknowledged.append(action)
            # The other process hears of it through the shared database.
            catch_up(socks, frames, version)
            assert frames[1 - seat]["view"]["current_player"] == frames[seat]["view"]["current_player"]
        storage = Storage(pg_url)
        assert [m.text for m in storage.moves(table)] == acknowledged
        a.kill9()
        socks[0].close()
        a.start()
        socks[0] = stack.enter_context(connect(a.ws + table))
        socks[0].send(json.dumps({"type": "hello", "state": frames[0]["state"], "events": None, "token": tokens[0]}))
        assert recv_state(socks[0])["state"] == len(acknowledged)
        assert [m.text for m in storage.moves(table)] == acknowledged
        storage.close()
        for ws in socks.values():
            ws.close()


def test_a_move_written_elsewhere_first_is_refused(pg_url: str) -> None:
    """Two processes race for the same move: the database takes one; the other's sender is told."""
    a = Server(pg_url).start()
    b = Server(pg_url).start()
    with contextlib.ExitStack() as stack:
        stack.callback(b.stop)
        stack.callback(a.stop)
        table, tokens = a.create("mephisto", ["me", "me"], players=2)
        # Both processes load the table; then P1's seat sends the same-state move to each.
        wa, wb = stack.enter_context(connect(a.ws + table)), stack.enter_context(connect(b.ws + table))
        seat = None
        for ws in (wa, wb):
            for s in (0, 1):
                ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[s]}))
                frame = recv_state(ws)
                if frame["legal"]:
                    seat = s
                    break
        assert seat is not None
        for ws in (wa, wb):
            ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[seat]}))
            frame = recv_state(ws)
        legal = frame["legal"]
        wa.send(json.dumps({"type": "action", "state": 0, "action": legal[0]["action"]}))
        assert recv_state(wa)["state"] == 1
        time.sleep(0.05)
        wb.send(json.dumps({"type": "action", "state": 0, "action": legal[-1]["action"]}))
        reply = json.loads(wb.recv(timeout=15))
        while reply["type"] != "error":
            reply = json.loads(wb.recv(timeout=15))
        assert reply["code"] == "stale"
        storage = Storage(pg_url)
        assert [m.text for m in storage.moves(table)] == [legal[0]["action"]]
        storage.close()
        wa.close()
        wb.close()
