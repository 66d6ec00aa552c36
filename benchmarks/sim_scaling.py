#!/usr/bin/env python
"""How ``cardtable simulate`` scales with workers, and how much memory a large run's report takes.

**Scaling** (weak scaling, the issue's measure): for each worker count K, a run of ``K x
--games-per-worker`` games (random Mephisto, 2 players, by default) from a new folder to its report,
as ``cardtable simulate`` does it (the run, then the report from the workers' aggregates, without
figures). Printed per K: wall seconds, games/s, the parallel efficiency ``T(1) / T(K)`` (1.00 is
perfect: K workers play K times the games in the same time), the main process's CPU per game (the
part that does not parallelise: collecting results, writing them, merging aggregates), when the first
batch was in (start-up plus one batch) and the report's seconds. From the 1-worker run's game time and the
main process's measured share, it also projects the efficiency at ``--project`` workers (default 16)
by Amdahl's law, for machines with more cores than this one (start-up, the last batch's wait and the
machine's own limits, such as shared memory bandwidth, are not in the projection).

**Streaming** (``--stream N``): the aggregate of N synthetic games (a million by default in the
issue's measure) is built in a fresh process, and its peak memory is printed next to that of N/10
games: streamed statistics keep counts, not games, so the two are close.

    python benchmarks/sim_scaling.py                                  # 1..all cores, 2000 games per worker
    python benchmarks/sim_scaling.py --workers 1,2 --games-per-worker 500 --stream 100000
    python benchmarks/sim_scaling.py --no-scaling --stream 1000000    # the memory check at full size

Numbers are measured here, never asserted in tests; on a shared machine, read the efficiency only from
runs whose load average stayed below the core count.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardtable.sim.plan import make_plan
from cardtable.sim.report import build_report
from cardtable.sim.run import run_plan


def timed_run(game: str, options: dict[str, Any], seats: str, games: int, workers: int) -> dict[str, float]:
    """One run into a new folder and its report; wall seconds, main-process CPU, start-up."""
    plan = make_plan(game, options=options, seats=seats, games=games, seed=1)
    first: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        cpu0, t0 = time.process_time(), time.perf_counter()
        summary = run_plan(
            plan,
            Path(tmp),
            workers=workers,
            progress=False,
            on_batch=lambda _: first.append(time.perf_counter()) if not first else None,
        )
        cpu1, t1 = time.process_time(), time.perf_counter()
        build_report(Path(tmp), plots=False, aggregate=summary.aggregate)
        t2 = time.perf_counter()
    return {
        "games": games,
        "workers": workers,
        "seconds": t2 - t0,
        "run_seconds": t1 - t0,
        "report_seconds": t2 - t1,
        "startup_seconds": (first[0] - t0) if first else 0.0,
        "parent_cpu_per_game_us": 1e6 * (cpu1 - cpu0) / games,
    }


def scaling(args: argparse.Namespace) -> list[dict[str, float]]:
    options = {"players": args.players}
    rows = []
    print(
        "\n| workers | games | seconds | games/s | efficiency | main-process CPU per game | first batch in | report |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    base = None
    for k in args.workers:
        row = timed_run(args.game, options, args.seats, k * args.games_per_worker, k)
        base = base if base is not None else row
        # Weak scaling: K workers play K times the games; perfect scaling keeps the time.
        row["efficiency"] = base["seconds"] / row["seconds"]
        rows.append(row)
        print(
            f"| {k} | {row['games']:,} | {row['seconds']:.2f} | {row['games'] / row['seconds']:,.0f} | "
            f"{row['efficiency']:.2f} | {row['parent_cpu_per_game_us']:.0f} µs | {row['startup_seconds']:.2f} s | "
            f"{row['report_seconds']:.2f} s |"
        )
    one = rows[0]
    # Amdahl, with the main process sharing the cores: per game a worker spends g (the 1-worker run's
    # CPU per game, all of it in the main process there) and the main process s. Below one core of
    # main-process work (n * s < g) the n workers lose only s / (g + s) to it; above, the main process
    # is the bottleneck and the efficiency is g / (n * s).
    serial_us = max(r["parent_cpu_per_game_us"] for r in rows[1:]) if len(rows) > 1 else 0.0
    game_us = one["parent_cpu_per_game_us"]
    n = args.project
    projected = game_us / (game_us + serial_us) if n * serial_us < game_us else game_us / (n * serial_us)
    print(
        f"\nprojected efficiency at {n} workers (Amdahl: a game takes {game_us:.0f} µs of a worker's CPU, the main "
        f"process {serial_us:.0f} µs per game, so at {n} workers it needs {n * serial_us / game_us:.2f} of a core): "
        f"{projected:.2f}"
    )
    return rows


STREAM_CHILD = r"""
import random, resource, sys, time
from cardtable.sim.aggregate import RunAggregate
n = int(sys.argv[1])
settings = [{"seats": ["a"], "base": None}, {"seats": ["a"], "base": 0}]
agg = RunAggregate(settings)
r = random.Random(5)
t = time.perf_counter()
for i in range(n):
    for arm in (0, 1):
        w = r.random() < 0.5
        agg.add({
            "setting": arm, "index": i, "seed": i, "seats": ["a", "a"], "agents": [0, 1], "first": 0,
            "decisions": 40 + r.randrange(80), "turns": 10 + r.randrange(40), "reason": "r", "forced": r.randrange(5),
            "wins": [float(w), float(not w)], "cards": [{"played": {f"c{r.randrange(60)}": 1}}, {}],
            "result": {"scores": [float(r.randrange(30)), float(r.randrange(30))], "details": {}},
        })
print(agg.lines, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def stream(n: int) -> None:
    print("\n| games (x2 paired arms) | seconds | peak memory |")
    print("|---:|---:|---:|")
    for size in (max(1, n // 10), n):
        out = subprocess.run(
            [sys.executable, "-c", STREAM_CHILD, str(size)], capture_output=True, text=True, check=True
        ).stdout.split()
        print(f"| {size:,} | {float(out[1]):.1f} | {int(out[2]) / 1024:.0f} MB |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cores = os.cpu_count() or 1
    parser.add_argument(
        "--workers",
        type=lambda s: [int(x) for x in s.split(",")],
        default=list(range(1, cores + 1)),
        help="worker counts, comma separated (default 1..all cores)",
    )
    parser.add_argument("--games-per-worker", type=int, default=2000, help="games per worker (default 2000)")
    parser.add_argument("--game", default="mephisto")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seats", default="random")
    parser.add_argument("--project", type=int, default=16, help="workers to project the efficiency to (default 16)")
    parser.add_argument(
        "--stream", type=int, default=0, metavar="N", help="also measure the memory of N games' aggregate"
    )
    parser.add_argument("--no-scaling", action="store_true", help="skip the scaling runs")
    parser.add_argument("--json", type=Path, default=None, help="write the scaling rows here")
    args = parser.parse_args(argv)
    print(f"cores: {cores}; load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    rows = [] if args.no_scaling else scaling(args)
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    if args.stream:
        stream(args.stream)
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
