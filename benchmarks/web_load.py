"""Load benchmark of the web table: many concurrent tables on loopback, scripted clients, latencies.

Starts ``cardtable serve`` in a subprocess (SQLite in a temp dir; or measures a server already
running, ``--server http://host:port``), creates ``--tables`` tables (two people each, the games
taken in turn), connects one WebSocket client per seat, and lets the clients play random legal
actions for ``--duration`` seconds after a ``--warmup``, each waiting a random think time (uniform in
0.5x..1.5x ``--think``) before acting, and starting a rematch when a game ends. An action's latency
is the time from sending it to receiving the sender's frame of the new state: the acknowledgement,
which the server sends only once the move is committed to the database.

    python benchmarks/web_load.py                      # 200 tables, 0.5 s think time, 20 s
    python benchmarks/web_load.py --think 0            # flat out: the server's throughput
    python benchmarks/web_load.py --profile prof.txt   # and a py-spy profile of the server
    python benchmarks/web_load.py --abuse              # a bystander table while one client abuses

Reports tables, clients, actions/s, p50/p95/p99/max latency, the server's CPU per action, the
machine's load average before and after (other work on the machine shows there), and whether the
target (p99 < 50 ms at 200 tables) is met. Only loopback traffic; bounded in time.

``--abuse`` measures what one hostile client costs everyone else. The server runs with its default
limits. From one address (127.0.0.3) the abuser makes as many tables as its quota lets it, every
seat a bot at the server's maximum think budget (``ismcts:ms=<budget>``), opens connections up to
its cap and beyond, and floods WebSocket messages from several connections (reconnecting each time
it is disconnected). From another address (127.0.0.2) ``--tables`` bystander tables (default 1) of
two people play as usual; the report gives their latencies (target: p99 < 100 ms), the same
bystanders' latencies on the same server for ``--duration`` seconds before the abuse began (the peer
in the same run, and the ratio of the two p99s), and what the abuser got: tables and connections
refused, messages rate-limited, disconnections.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.server import Server  # noqa: E402

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("mephisto", {"players": 2}),
    ("doctor-strange", {}),
    ("army-of-darkness", {"players": 2}),
    ("mr-card-game", {}),
]

TARGET_MS = 50.0
TARGET_TABLES = 200
ABUSE_TARGET_MS = 100.0
BYSTANDER = "127.0.0.2"
ABUSER = "127.0.0.3"
LOAD_LIMITS = ["--max-tables-per-client", "5000", "--max-tables", "5000"]
LOAD_LIMITS += ["--max-connections", "3000", "--max-connections-per-client", "3000"]
"""One load generator plays every table from one address: the per-client limits must let it."""


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.measure_from = 0.0
        self.refused = 0
        self.games = 0
        self.disconnects = 0
        self.lags: list[float] = []
        self.source: str | None = None
        """The address the clients connect from (None: any)."""


class Abuse:
    """What the abuser did and what it got."""

    def __init__(self) -> None:
        self.tables_made = 0
        self.tables_refused = 0
        self.connections_open = 0
        self.connections_refused = 0
        self.messages = 0
        self.rate_limited = 0
        self.disconnected = 0
        self.reconnects_refused = 0
        self.bot_moves = 0


async def watch_loop(stats: Stats, until: float) -> None:
    """How late this process's own event loop wakes: a late client inflates the latencies it measures,
    so the report says when the measurement, not the server, was the bottleneck."""
    while time.monotonic() < until:
        asked = time.monotonic()
        await asyncio.sleep(0.01)
        if asked >= stats.measure_from:
            stats.lags.append(time.monotonic() - asked - 0.01)


async def seat_client(
    url: str, table: str, token: str, seat: int, think: float, until: float, stats: Stats, rng: random.Random
) -> None:
    """One person: plays a random legal action whenever the seat decides, then a rematch at the end."""
    import websockets

    try:
        await _play(url, table, token, seat, think, until, stats, rng)
    except websockets.ConnectionClosed:
        stats.disconnects += 1  # the server dropped this client (too slow to read, or it failed)


async def _play(
    url: str, table: str, token: str, seat: int, think: float, until: float, stats: Stats, rng: random.Random
) -> None:
    import websockets

    extra: dict[str, Any] = {"local_addr": (stats.source, 0)} if stats.source else {}
    while time.monotonic() < until:
        async with websockets.connect(url + table, max_size=1 << 22, compression=None, **extra) as ws:
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
                    msg = orjson.loads(raw)
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
                    reply = orjson.loads(await ws.recv())
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


def post(base: str, path: str, body: dict[str, Any], source: str | None = None) -> Any:
    """POST JSON; the answer's JSON (an error answer's too). ``source``: the address to send from."""
    if source is None:
        req = urllib.request.Request(
            base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = conn.getresponse()
        out = json.loads(response.read() or b"{}")
        out["status"] = response.status
        return out
    finally:
        conn.close()


def start_profiler(pid: int, seconds: float, out: str) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the server for ``seconds`` (not pausing it), written to ``out``; None without py-spy."""
    spy = shutil.which("py-spy")
    if spy is None:
        print("py-spy is not installed (pip install py-spy): no profile", file=sys.stderr)
        return None
    fmt = "speedscope" if out.endswith(".json") else "raw"
    args = [spy, "record", "--pid", str(pid), "--duration", str(max(1, int(seconds))), "--nonblocking"]
    return subprocess.Popen([*args, "--format", fmt, "-o", out], stdout=subprocess.DEVNULL)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if args.server:
            base = args.server.rstrip("/")
            ws_url = "ws" + base[4:] + "/ws/"
            pid = None
        else:
            server = Server(f"sqlite:///{Path(tmp) / 'load.db'}", extra=LOAD_LIMITS).start()
            stack.callback(server.stop)
            assert server.proc is not None
            base, ws_url, pid = server.base, server.ws, server.proc.pid
        tables = []
        for i in range(args.tables):
            game, options = GAMES[i % len(GAMES)]
            out = post(base, "/api/tables", {"game": game, "options": options, "seats": ["me", "me"]})
            tables.append((out["table"]["id"], out["tokens"]))
        begin = time.monotonic()
        # Connections open during the warm-up; only the steady state after it is measured.
        stats.measure_from = start = begin + args.warmup
        until = start + args.duration
        rng = random.Random(args.seed)
        tasks = [
            seat_client(ws_url, tid, tokens[str(s)], s, args.think, until, stats, random.Random(rng.random()))
            for tid, tokens in tables
            for s in (0, 1)
        ]
        gather = asyncio.gather(*tasks, watch_loop(stats, until))
        await asyncio.sleep(args.warmup)
        cpu_before = cpu_seconds(pid) if pid else 0.0
        mine_before = cpu_seconds(os.getpid())
        spy = start_profiler(pid, args.duration, args.profile) if args.profile and pid else None
        await gather
        elapsed = time.monotonic() - start
        cpu = cpu_seconds(pid) - cpu_before if pid else None
        client_cpu = cpu_seconds(os.getpid()) - mine_before
        if spy is not None:
            spy.wait(30)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float | None:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else None

    p99 = pct(0.99)
    return {
        "tables": args.tables,
        "clients": 2 * args.tables,
        "think_s": args.think,
        "seconds": round(elapsed, 1),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": p99,
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else None,
        "server_cpu_ms_per_action": round(1000 * cpu / len(lat), 2) if lat and cpu is not None else None,
        "server_cpu_share": round(cpu / elapsed, 2) if cpu is not None else None,
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "refused": stats.refused,
        "disconnects": stats.disconnects,
        "client_loop_lag_p99_ms": round(1000 * sorted(stats.lags)[int(0.99 * len(stats.lags))], 1)
        if stats.lags
        else None,
        "games_finished": stats.games,
        "target_met": p99 is not None and p99 < TARGET_MS and args.tables >= TARGET_TABLES,
    }


async def abuse_tables(base: str, budget: float, abuse: Abuse) -> list[str]:
    """As many tables as the quota lets one client make, every seat a bot at the maximum budget."""
    made = []
    spec = f"ismcts:ms={int(budget * 1000)}"
    for _ in range(1000):
        out = await asyncio.to_thread(
            post, base, "/api/tables", {"game": "mephisto", "options": {"players": 2}, "seats": [spec, spec]}, ABUSER
        )
        if out.get("status") != 200:
            abuse.tables_refused += 1
            if abuse.tables_refused >= 3:
                break
            continue
        abuse.tables_made += 1
        made.append(out["table"]["id"])
    return made


async def abuse_connections(host: str, port: int, until: float, abuse: Abuse) -> None:
    """Open connections (sending nothing) sixteen at a time, up to the cap and beyond, again whenever
    the server closes them (its header timeout)."""
    held: list[asyncio.StreamWriter] = []

    async def one() -> None:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(ABUSER, 0))
        except OSError:
            abuse.connections_refused += 1
            return
        try:
            first = await asyncio.wait_for(reader.read(64), timeout=0.1)
        except TimeoutError:
            abuse.connections_open += 1
            held.append(writer)  # kept open: it holds a place
            return
        if first.startswith(b"HTTP/1.1 503"):
            abuse.connections_refused += 1
        writer.close()

    while time.monotonic() < until:
        await asyncio.gather(*(one() for _ in range(16)))
        held[:] = [w for w in held if not w.is_closing()]
        await asyncio.sleep(0.1)
    for w in held:
        w.close()


async def abuse_flood(url: str, table: str, until: float, abuse: Abuse) -> None:
    """One connection sending ``sync`` as fast as it can; again when the server disconnects it."""
    import websockets

    while time.monotonic() < until:
        try:
            async with websockets.connect(url + table, compression=None, local_addr=(ABUSER, 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": None}))

                async def drain() -> None:
                    async for raw in ws:
                        msg = orjson.loads(raw)
                        if msg["type"] == "error" and msg["code"] == "rate-limited":
                            abuse.rate_limited += 1

                reader = asyncio.create_task(drain())
                try:
                    while time.monotonic() < until:
                        await ws.send('{"type":"sync","state":null,"events":null}')
                        abuse.messages += 1
                        if abuse.messages % 50 == 0:
                            await asyncio.sleep(0)
                finally:
                    reader.cancel()
        except websockets.ConnectionClosed:
            abuse.disconnected += 1
        except websockets.InvalidStatus:
            abuse.reconnects_refused += 1
            await asyncio.sleep(0.05)
        except Exception:  # refused at the connection cap, mid-handshake (the client library may assert)
            abuse.reconnects_refused += 1
            await asyncio.sleep(0.05)


async def run_abuse(args: argparse.Namespace) -> dict[str, Any]:
    """``--abuse``: bystander tables' latencies while one client abuses (see the module's docstring)."""
    stats = Stats()
    stats.source = BYSTANDER
    quiet = Stats()
    quiet.source = BYSTANDER
    abuse = Abuse()
    load_before = os.getloadavg()[0]
    budget = 10.0
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        server = Server(f"sqlite:///{Path(tmp) / 'abuse.db'}", extra=["--bot-cpu", "0.5"]).start()
        stack.callback(server.stop)
        base, ws_url = server.base, server.ws

        def bystander_tables() -> list[tuple[str, dict[str, str]]]:
            made = []
            for i in range(args.tables):
                game, options = GAMES[i % len(GAMES)]
                body = {"game": game, "options": options, "seats": ["me", "me"]}
                out = post(base, "/api/tables", body, BYSTANDER)
                made.append((out["table"]["id"], out["tokens"]))
            return made

        # The peer in the same run: the same bystanders on the same server before the abuse begins.
        quiet.measure_from = time.monotonic() + args.warmup
        quiet_until = quiet.measure_from + args.duration
        qrng = random.Random(args.seed + 1)
        await asyncio.gather(
            *[
                seat_client(
                    ws_url, tid, tokens[str(s)], s, args.think, quiet_until, quiet, random.Random(qrng.random())
                )
                for tid, tokens in bystander_tables()
                for s in (0, 1)
            ],
            watch_loop(quiet, quiet_until),
        )
        tables = bystander_tables()
        bot_tables = await abuse_tables(base, budget, abuse)
        begin = time.monotonic()
        stats.measure_from = start = begin + args.warmup
        until = start + args.duration
        rng = random.Random(args.seed)
        people = [
            seat_client(ws_url, tid, tokens[str(s)], s, args.think, until, stats, random.Random(rng.random()))
            for tid, tokens in tables
            for s in (0, 1)
        ]
        # The abuser runs in a process of its own: in this one its flood would slow the bystanders'
        # own event loop, and the latencies would measure this program instead of the server.
        plan = json.dumps([server.port, ws_url, bot_tables, until - time.monotonic()])
        child = subprocess.Popen([sys.executable, __file__, "--abuser", plan], stdout=subprocess.PIPE, text=True)
        moves_before = sum(int(server.get(f"/api/tables/{t}")["state"]) for t in bot_tables)
        gather = asyncio.gather(*people, watch_loop(stats, until))
        await asyncio.sleep(args.warmup)
        cpu_before = cpu_seconds(server.pid)
        await gather
        elapsed = time.monotonic() - start
        cpu = cpu_seconds(server.pid) - cpu_before
        out, _ = child.communicate(timeout=60)
        for key, value in json.loads(out.strip().splitlines()[-1]).items():
            if key not in ("tables_made", "tables_refused"):
                setattr(abuse, key, value)
        abuse.bot_moves = sum(server.get(f"/api/tables/{t}")["state"] for t in bot_tables) - moves_before
    lat = sorted(stats.latencies)
    quiet_lat = sorted(quiet.latencies)

    def pct(p: float, lat: list[float] = lat) -> float | None:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else None

    p99 = pct(0.99)
    quiet_p99 = pct(0.99, quiet_lat)
    return {
        "mode": "abuse",
        "bystander_tables": args.tables,
        "think_s": args.think,
        "seconds": round(elapsed, 1),
        "bystander_actions": len(lat),
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": p99,
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "server_cpu_share": round(cpu / elapsed, 2),
        "quiet_actions": len(quiet_lat),
        "quiet_p50_ms": pct(0.50, quiet_lat),
        "quiet_p99_ms": quiet_p99,
        "p99_ratio_to_quiet": round(p99 / quiet_p99, 2) if p99 is not None and quiet_p99 else None,
        "bystander_refused": stats.refused,
        "bystander_dropped": stats.disconnects,
        "abuser": abuse.__dict__,
        "load_average_before": round(load_before, 2),
        "load_average_after": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "client_loop_lag_p99_ms": round(1000 * sorted(stats.lags)[int(0.99 * len(stats.lags))], 1)
        if stats.lags
        else None,
        "target_met": p99 is not None and p99 < ABUSE_TARGET_MS and not stats.disconnects,
    }


async def abuser(port: int, ws_url: str, tables: list[str], seconds: float) -> None:
    """The abuser's connections and flood (``--abuser``, a process of its own); prints its counts."""
    abuse = Abuse()
    until = time.monotonic() + seconds
    jobs = [abuse_connections("127.0.0.1", port, until, abuse)]
    jobs += [abuse_flood(ws_url, tables[i % len(tables)], until, abuse) for i in range(4)]
    await asyncio.gather(*jobs)
    print(json.dumps(abuse.__dict__), flush=True)


def report_abuse(r: dict[str, Any]) -> str:
    a = r["abuser"]
    return "\n".join(
        [
            f"web table under abuse: {r['bystander_tables']} bystander table(s), think {r['think_s']} s, "
            f"{r['seconds']} s measured",
            f"  bystander  {r['bystander_actions']} actions; p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, "
            f"p99 {r['p99_ms']} ms, max {r['max_ms']} ms; {r['bystander_refused']} refused, "
            f"{r['bystander_dropped']} dropped",
            f"  quiet      the same before the abuse (same run, same server): {r['quiet_actions']} actions; "
            f"p50 {r['quiet_p50_ms']} ms, p99 {r['quiet_p99_ms']} ms; under abuse p99 x{r['p99_ratio_to_quiet']}",
            f"  abuser     {a['tables_made']} bot tables at the maximum budget ({a['tables_refused']} refused), "
            f"{a['bot_moves']} bot moves; {a['connections_open']} connections held "
            f"({a['connections_refused']} refused); {a['messages']} messages flooded, "
            f"{a['rate_limited']} rate-limited errors, {a['disconnected']} disconnections, "
            f"{a['reconnects_refused']} reconnections refused",
            f"  server     {r['server_cpu_share']} of a core (the bots' workers not counted)",
            f"  clients    their event loop woke up to {r['client_loop_lag_p99_ms']} ms late (p99)",
            f"  load avg   {r['load_average_before']} before, {r['load_average_after']} after, on {r['cpus']} cores",
            f"  target     bystander p99 < {ABUSE_TARGET_MS:g} ms: {'MET' if r['target_met'] else 'NOT MET'}",
        ]
    )


def report(r: dict[str, Any]) -> str:
    if r["tables"] < TARGET_TABLES:
        verdict = f"not judged (the target is for {TARGET_TABLES} tables)"
    else:
        verdict = "MET" if r["target_met"] else "NOT MET"
    server = (
        f"{r['server_cpu_ms_per_action']} ms CPU per action, {r['server_cpu_share']} of a core"
        if r["server_cpu_share"] is not None
        else "not measured (an outside server)"
    )
    return "\n".join(
        [
            f"web table load: {r['tables']} tables, {r['clients']} clients, think {r['think_s']} s, "
            f"{r['seconds']} s measured",
            f"  actions    {r['actions']} ({r['actions_per_s']}/s); {r['games_finished']} games finished, "
            f"{r['refused']} refused, {r['disconnects']} dropped",
            f"  latency    p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms",
            f"  server     {server}",
            f"  clients    {r['client_cpu_share']} of a core; their event loop woke up to "
            f"{r['client_loop_lag_p99_ms']} ms late (p99), which the latencies include",
            f"  load avg   {r['load_average_before']} before, {r['load_average_after']} after, on {r['cpus']} cores",
            f"  target     p99 < {TARGET_MS:g} ms at {TARGET_TABLES} tables: {verdict}",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=TARGET_TABLES)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured (at most 600)")
    parser.add_argument("--think", type=float, default=0.5, help="mean think time per decision, seconds (0: none)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring (connecting)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server", metavar="URL", help="measure this running server instead of starting one")
    parser.add_argument("--profile", metavar="FILE", help="py-spy profile of the server while measuring")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--abuse", action="store_true", help="measure bystander tables (--tables, default 1) while one client abuses"
    )
    parser.add_argument("--abuser", help=argparse.SUPPRESS)  # the abuser's own process (--abuse starts it)
    args = parser.parse_args()
    if args.abuser:
        port, ws_url, tables, seconds = json.loads(args.abuser)
        asyncio.run(abuser(port, ws_url, tables, seconds))
        return
    if args.abuse and "--tables" not in sys.argv:
        args.tables = 1
    if not 1 <= args.tables <= 2000 or not 0 < args.duration <= 600 or args.think < 0 or args.warmup < 0:
        parser.error("--tables 1..2000, --duration 0..600, --think >= 0, --warmup >= 0")
    if args.server and not args.server.startswith(("http://", "https://")):
        parser.error("--server takes the server's address, http://host:port")
    # The clients' own collector pauses would count as server latency: everything made so far lives
    # to the end, and young collections are rarer (the server does the same, cli/serve.py).
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    job = run_abuse if args.abuse else run
    try:
        import uvloop  # the clients' loop costs less CPU, which the server shares on a small machine
    except ImportError:
        result = asyncio.run(job(args))
    else:
        result = uvloop.run(job(args))
    if args.json:
        print(json.dumps(result))
    else:
        print(report_abuse(result) if args.abuse else report(result))


if __name__ == "__main__":
    main()
