"""`strong:depth=0` against the shipped `strong`, 3-player Mr. Card Game, paired game for game.

Run from the repository root: ``python benchmarks/results/2026-11-29-mcg3-700/paired.py``. Each
agent's rows are gathered from every results folder that played it (one seat against two heuristics,
``--seed 1000``: the same deals, seats and agent seeds), and the two are compared on the games both
played, by stretch and in all, with a 95% t interval of the per-game difference."""

from __future__ import annotations

import glob
import json
import math

R = "benchmarks/results/"
BASE = [
    R + "2026-11-27-late-mcg3/mr-card-game.jsonl",
    R + "2026-11-27-early-mcg3-201/strong.jsonl",
    *glob.glob(R + "2026-11-28-mcg3-300/*.jsonl"),
    *glob.glob(R + "2026-11-29-mcg3-400/*.jsonl"),
    *glob.glob(R + "2026-11-29-mcg3-depth0/strong-*.jsonl"),
    R + "2026-11-29-mcg3-700/strong-498-647.jsonl",
]
CANDIDATE = [
    R + "2026-11-27-early-mcg3-depth0/mr-card-game.jsonl",
    R + "2026-11-27-early-mcg3-201/strong-depth0.jsonl",
    *glob.glob(R + "2026-11-29-mcg3-depth0/depth0-*.jsonl"),
    R + "2026-11-29-mcg3-700/depth0-498-647.jsonl",
]


def rows(files: list[str], spec: str) -> dict[int, float]:
    out: dict[int, float] = {}
    for name in files:
        with open(name) as f:
            for line in f:
                r = json.loads(line)
                if r["key"].startswith("mr-card-game[players=3] ") and r["key"].split("] ")[1].startswith(spec + " vs"):
                    out[r["index"]] = r["hero"]
    return out


def report(base: dict[int, float], cand: dict[int, float], lo: int, hi: int) -> None:
    games = [i for i in range(lo, hi) if i in base and i in cand]
    d = [cand[i] - base[i] for i in games]
    n = len(d)
    if n < 2:
        return
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
    h = 1.97 * sd / math.sqrt(n)
    better, worse = sum(x > 0 for x in d), sum(x < 0 for x in d)
    c, b = sum(cand[i] for i in games) / n, sum(base[i] for i in games) / n
    print(
        f"games {lo}-{hi - 1}: n={n} depth=0 {c:.3f} strong {b:.3f} "
        f"paired {100 * m:+.1f} [{100 * (m - h):+.1f}, {100 * (m + h):+.1f}] better/worse {better}/{worse}"
    )


if __name__ == "__main__":
    base, cand = rows(BASE, "strong"), rows(CANDIDATE, "strong:depth=0")
    for lo, hi in [(0, 201), (201, 399), (399, 498), (498, 648), (0, 498), (0, 648)]:
        report(base, cand, lo, hi)
