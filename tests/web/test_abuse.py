"""The abuse test (issue 23): one client abuses every way at once while a bystander's table keeps working.

From one address (127.0.0.3) the abuser makes bot tables up to its quota with every seat at the
maximum think budget, opens connections up to its cap, and floods messages on a WebSocket
(reconnecting as soon as it is disconnected). From another address (127.0.0.2) two people play a
table meanwhile. The test checks the behaviour: the abuser is refused (tables 429, connections
503, messages ``rate-limited`` then a disconnection and a refused reconnection) while the
bystander's every move is acknowledged, by its request id, and its connections are never refused
or dropped. The numbers (the bystander's p99 under abuse) are measured by
``benchmarks/web_load.py --abuse``, not asserted here.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.web import procs
from tests.web.server import Server, recv_state

ABUSER = "127.0.0.3"
BYSTANDER = "127.0.0.2"
LIMITS = [
    "--bot-workers",
    "1",
    "--bot-budget",
    "1",
    "--max-tables-per-client",
    "3",
    "--max-connections-per-client",
    "12",
    "--message-rate",
    "20",
    "--message-burst",
    "20",
    "--flood-penalty",
    "2",
]


class Flood:
    """A thread that floods ``sync`` messages from the abuser's address, reconnecting when dropped."""

    def __init__(self, server: Server, table: str) -> None:
        self.server, self.table = server, table
        self.sent = 0
        self.rate_limited = 0
        self.disconnected = 0
        self.reconnects_refused = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                ws = connect(self.server.ws + self.table, sock=self.server.socket_from(ABUSER))
            except Exception:  # refused: before any request (the connection guard), or the handshake (429)
                if self.disconnected:
                    self.reconnects_refused += 1
                time.sleep(0.05)
                continue
            with ws:
                try:
                    ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": None}))
                    for _ in range(200):  # a burst far above the rate (it fits the socket buffers)
                        ws.send('{"type":"sync","state":null,"events":null}')
                        self.sent += 1
                except ConnectionClosed:
                    pass
                try:
                    while True:
                        msg = json.loads(ws.recv(timeout=10))
                        if msg["type"] == "error" and msg["code"] == "rate-limited":
                            self.rate_limited += 1
                except ConnectionClosed as exc:
                    if exc.rcvd is not None and exc.rcvd.code == 1008:
                        self.disconnected += 1
                except TimeoutError:
                    pass


def test_one_client_abuses_every_way_and_a_bystander_table_keeps_working(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 't.db'}", extra=LIMITS).start()
    with contextlib.ExitStack() as stack:
        stack.callback(server.stop)
        # Tables: the quota, every seat a bot at the maximum budget (a search asking for all of it, and
        # strong, whose own iteration budget the server caps at it); then refused.
        seats = ["ismcts:ms=1000", "strong"]
        made = [server.post_from(ABUSER, "/api/tables", {"game": "mephisto", "seats": seats}) for _ in range(4)]
        assert [status for status, _ in made] == [200, 200, 200, 429], made
        assert "unfinished tables" in made[3][1]["error"]
        bot_tables = [out["table"]["id"] for _, out in made[:3]]
        # Connections: up to the cap, then refused; one place is given back for the flood.
        held = [server.socket_from(ABUSER) for _ in range(12)]
        for sock in held:
            stack.callback(sock.close)
        extra = stack.enter_context(server.socket_from(ABUSER))
        extra.settimeout(5)
        assert extra.recv(64).startswith(b"HTTP/1.1 503"), "a connection past the client's cap was accepted"
        held.pop().close()
        time.sleep(0.2)
        flood = Flood(server, bot_tables[0])
        flood.thread.start()
        stack.callback(flood.thread.join, 10)
        stack.callback(flood.stop.set)
        # The bystander plays meanwhile.
        status, out = server.post_from(BYSTANDER, "/api/tables", {"game": "mephisto", "seats": ["me", "me"]})
        assert status == 200, out
        table, tokens = out["table"]["id"], out["tokens"]
        socks = {s: stack.enter_context(connect(server.ws + table, sock=server.socket_from(BYSTANDER))) for s in (0, 1)}
        frames: dict[int, dict[str, Any]] = {}
        for s, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[str(s)]}))
            frames[s] = recv_state(ws)
        rng = random.Random(5)
        latencies = []
        for move in range(20):
            for s, ws in socks.items():
                while frames[s]["state"] < max(f["state"] for f in frames.values()):
                    frames[s] = recv_state(ws)
            if frames[0]["view"]["is_over"]:
                break
            seat = next(s for s in (0, 1) if frames[s]["legal"])
            request = f"m{move}"
            sent = time.monotonic()
            state = frames[seat]["state"]
            action = rng.choice(frames[seat]["legal"])["action"]
            socks[seat].send(json.dumps({"type": "action", "state": state, "action": action, "id": request}))
            while True:
                msg = json.loads(socks[seat].recv(timeout=15))
                assert msg["type"] != "error", f"the bystander's move was refused: {msg}"
                if msg["type"] == "state":
                    frames[seat] = msg
                    if request in msg.get("acks", ()):
                        latencies.append(time.monotonic() - sent)
                        break
        assert len(latencies) >= 10, "the bystander's moves were acknowledged"
        procs.wait_until(
            lambda: flood.rate_limited and flood.disconnected and flood.reconnects_refused,
            10,
            "the flood was told, disconnected, and its reconnections refused",
        )
        flood.stop.set()
        flood.thread.join(10)
        # The abuser's bots thought at the maximum budget all along, and their moves were played.
        procs.wait_until(
            lambda: sum(server.get(f"/api/tables/{t}")["state"] for t in bot_tables) >= 2, 15, "the bots moved"
        )
        print(f"bystander acknowledgements under abuse: max {max(latencies) * 1000:.0f} ms (not asserted)")
