"""Paired comparison of candidate run files with strong's 200-game baseline (same indices)."""

import json
import math
import sys
from pathlib import Path

BASE = str(Path(__file__).resolve().parents[2] / "2026-11-26-more-games" / "army-of-darkness.jsonl")
base = {}
for line in Path(BASE).read_text().splitlines():
    r = json.loads(line)
    if r["key"] == "army-of-darkness[players=2] strong vs heuristic":
        base[r["index"]] = r["hero"]
T = {
    1: 12.71,
    2: 4.30,
    3: 3.18,
    4: 2.78,
    5: 2.57,
    6: 2.45,
    7: 2.36,
    8: 2.31,
    9: 2.26,
    10: 2.23,
    12: 2.18,
    15: 2.13,
    20: 2.09,
    25: 2.06,
    30: 2.04,
    40: 2.02,
    60: 2.0,
}


def t(df):
    k = max([x for x in T if x <= df], default=1)
    return T[k]


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


for f in sys.argv[1:]:
    rows = {}
    for line in Path(f).read_text().splitlines():
        r = json.loads(line)
        rows[r["index"]] = r
    rs = [rows[i] for i in sorted(rows)]
    n = len(rs)
    if not n:
        print(f, "no games")
        continue
    k = sum(r["hero"] for r in rs)
    lo, hi = wilson(k, n)
    d = [r["hero"] - base[r["index"]] for r in rs]
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) if n > 1 else 0
    h = t(n - 1) * sd / math.sqrt(n) if n > 1 else float("nan")
    sdec = sum(r["hero_search_s"] for r in rs) / max(1, sum(r["hero_searched"] for r in rs))
    bs = sum(base[r["index"]] for r in rs) / n
    name = rs[0]["key"].split("] ")[1]
    first, last = rs[0]["index"], rs[-1]["index"]
    better, worse = sum(x > 0 for x in d), sum(x < 0 for x in d)
    print(
        f"{f.split('/')[-1]}: {name} | games {n} (idx {first}-{last}) | {100 * k / n:.0f}% "
        f"[{100 * lo:.0f}-{100 * hi:.0f}] | strong same games {100 * bs:.0f}% | paired {100 * m:+.1f} "
        f"[{100 * (m - h):+.1f}, {100 * (m + h):+.1f}] | better/worse {better}/{worse} | {sdec:.3f} s/decision"
    )
