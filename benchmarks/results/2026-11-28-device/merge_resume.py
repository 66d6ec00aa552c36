"""Gather every game already played with today's agents into one folder for ``ladder_device.sh
RESUME=...``: the device run of 2026-11-27 (run2), and what the shared 2-core machine played since on
the same deals and seeds, with each row's key written as the device's plan spells it.

    python benchmarks/results/2026-11-28-device/merge_resume.py OUT_DIR [EXTRA.jsonl ...]

A row of a pairing already present (the same key and index) is kept from the first source that has
it; the Mr. Card Game ``strong vs random`` rows of run2 (played before a lone seat was handed to the
heuristic) are replaced by the 160 played after that fix.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
SOURCES = [
    "2026-11-27-mcg-lone/mcg-sr-defer.jsonl",
    "2026-11-27-evening-multiplayer/meph-teams-strong-40-79.jsonl",
    "2026-11-27-night-teams/teams-strong-80-139.jsonl",
    "2026-11-27-night-teams/teams-strong-140-199.jsonl",
    "2026-11-27-early-mcg3-201/strong.jsonl",
]
STALE = {"mr-card-game[players=2] strong vs random"}
RENAME = {
    "mephisto[players=4,teams=true] strong vs heuristic": "mephisto[players=4,teams=True] strong vs heuristic",
    "mr-card-game[players=3] strong vs heuristic vs heuristic": "mr-card-game[players=3] strong vs heuristic",
}


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    rows: dict[tuple[str, int], dict[str, object]] = {}
    paths = [RESULTS / s for s in SOURCES] + [Path(p) for p in argv[1:]]
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            row["key"] = RENAME.get(row["key"], row["key"])
            rows.setdefault((row["key"], row["index"]), row)
    for path in sorted((RESULTS / "2026-11-27-device/run2").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row["key"] not in STALE:
                rows.setdefault((row["key"], row["index"]), row)
    by_game: dict[str, list[dict[str, object]]] = {}
    for (key, _), row in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        assert row["seed"] == 1000, row
        by_game.setdefault(key.split("[", 1)[0], []).append(row)
    for game, game_rows in by_game.items():
        (out / f"{game}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in game_rows))
        print(game, len(game_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
