"""Load benchmark of the web table: many concurrent tables on loopback, scripted clients, latencies.

Starts ``cardtable serve`` in a subprocess (SQLite in a temp dir, its own process and core), creates
``--tables`` tables (two people each, the games taken in turn), connects one WebSocket client per
seat, and lets the clients play random legal actions for ``--duration`` seconds, each waiting a
random think time (uniform in 0.5x..1.5x ``--think``) before acting, and starting a rematch when a
game ends. An action's latency is the time from sending it to receiving the sender's frame of the
new state (the acknowledgement, which the server sends only after the move is in the database).

    python benchmarks/web_load.py                      # 200 tables, 0.5 s think time, 20 s
    python benchmarks/web_load.py --think 0            # flat out: the server's throughput

Reports actions/s and p50/p90/p99/max latency. Only loopback traffic; bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.server import Server  # noqa: E402

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("mephisto", {"players": 2}),
    ("doctor-strange", {}),
    ("army-of-darkness", {"players": 2}),
]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.measure_from = 0.0
        self.refused = 0
        self.games = 0
        self.errors: list[str] = []


async def seat_client(
    url: str, table: str, token: str, seat: int, think: float, until: float, stats: Stats, rng: random.Random
) -> None:
    import websockets

    while time.monotonic() < until:
        async with websockets.connect(url + table, max_size=1 << 22) as ws:
            await ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": token}))
            rematch = None
            pending: dict[str, Any] | None = None  # a frame already read, to act on
            while time.monotonic() < until:
                if pending is not None:
                    msg, pending = pending, None
                else:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, until - time.monotonic()))
                    except TimeoutError:
                        return
                    msg = json.loads(raw)
                if msg["type"] == "rematch":
                    rematch = msg
                    break
                if msg["type"] == "error":
                    stats.refused += 1
                    continue
                if msg["type"] != "state":
                    continue
                if msg["result"] is not None:
                    if seat == 0:
                        stats.games += 1
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                    await ws.send(json.dumps({"type": "rematch", "state": msg["state"]}))
                    continue
                if not msg["legal"]:
                    continue
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                state = msg["state"]
                action = rng.choice(msg["legal"])["action"]
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "state": state, "action": action}))
                # Wait for the acknowledgement: our frame of a newer state (or a refusal).
                while True:
                    reply = json.loads(await ws.recv())
                    if reply["type"] == "error":
                        stats.refused += 1
                        break
                    if reply["type"] == "state" and reply["state"] > state:
                        if time.monotonic() >= stats.measure_from:
                            stats.latencies.append(time.perf_counter() - sent)
                        if reply["legal"] or reply["result"] is not None:
                            pending = reply  # our turn again, or the end
                        break
        if rematch is None:
            return
        table, token = rematch["table"], rematch["token"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc): the server's cost, whatever else runs."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'load.db'}").start()
        try:
            tables = []
            for i in range(args.tables):
                game, options = GAMES[i % len(GAMES)]
                out = post(server.base, "/api/tables", {"game": game, "options": options, "seats": ["me", "me"]})
                tables.append((out["table"]["id"], out["tokens"]))
            assert server.proc is not None
            begin = time.monotonic()
            # Connections open during the warm-up; only the steady state after it is measured.
            stats.measure_from = start = begin + args.warmup
            until = start + args.duration
            rng = random.Random(args.seed)
            tasks = [
                seat_client(server.ws, tid, tokens[str(s)], s, args.think, until, stats, random.Random(rng.random()))
                for tid, tokens in tables
                for s in (0, 1)
            ]
            gather = asyncio.gather(*tasks)
            await asyncio.sleep(args.warmup)
            cpu_before = cpu_seconds(server.proc.pid)
            mine_before = cpu_seconds(os.getpid())
            await gather
            elapsed = time.monotonic() - start
            cpu = cpu_seconds(server.proc.pid) - cpu_before
            client_cpu = cpu_seconds(os.getpid()) - mine_before
        finally:
            server.stop()
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    return {
        "tables": args.tables,
        "connections": 2 * args.tables,
        "think_s": args.think,
        "seconds": round(elapsed, 1),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(pct(0.50), 1),
        "p90_ms": round(pct(0.90), 1),
        "p99_ms": round(pct(0.99), 1),
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
        "server_cpu_ms_per_action": round(1000 * cpu / len(lat), 2) if lat else None,
        "server_cpu_share": round(cpu / elapsed, 2),
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "load_average": round(os.getloadavg()[0], 1),
        "refused": stats.refused,
        "games_finished": stats.games,
        "cpus": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play (at most 600)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time per decision, seconds (0: none)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring (connecting)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    if not 1 <= args.tables <= 2000 or not 0 < args.duration <= 600 or args.think < 0:
        parser.error("--tables 1..2000, --duration 0..600, --think >= 0")
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['tables']} tables, {result['connections']} connections, think {result['think_s']} s, "
        f"{result['seconds']} s: {result['actions']} actions, {result['actions_per_s']} actions/s; latency "
        f"p50 {result['p50_ms']} ms, p90 {result['p90_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms; "
        f"{result['games_finished']} games finished, {result['refused']} refused; server CPU "
        f"{result['server_cpu_ms_per_action']} ms per action ({result['server_cpu_share']} of a core); clients "
        f"{result['client_cpu_share']} of a core; load average {result['load_average']} on {result['cpus']} cores"
    )


if __name__ == "__main__":
    main()
