"""`strong:depth=0` against the earlier `strong`, 3-player Mr. Card Game, paired game for game, to 648 games.

Run from the repository root: ``python benchmarks/results/2026-11-29-mcg3-700/paired.py``. The pairing
is ``../2026-11-29-mcg3-depth0/paired.py``'s (its ``rows`` and ``report``, loaded from that file), with
this run's two files added to each agent's rows and the stretches of this run reported."""

from __future__ import annotations

import importlib.util

_spec = importlib.util.spec_from_file_location("paired_498", "benchmarks/results/2026-11-29-mcg3-depth0/paired.py")
assert _spec is not None and _spec.loader is not None
earlier = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(earlier)

HERE = "benchmarks/results/2026-11-29-mcg3-700/"
BASE = [*earlier.BASE, HERE + "strong-498-647.jsonl"]
CANDIDATE = [*earlier.CANDIDATE, HERE + "depth0-498-647.jsonl"]

if __name__ == "__main__":
    base, cand = earlier.rows(BASE, "strong"), earlier.rows(CANDIDATE, "strong:depth=0")
    for lo, hi in [(0, 201), (201, 399), (399, 498), (498, 648), (0, 498), (0, 648)]:
        earlier.report(base, cand, lo, hi)
