#!/usr/bin/env python
"""Write the legacy fixtures: records and generator streams made by the engine *before* the compiled
build and the C generator (main at e4ce40b). Kept so that every later engine proves it still replays
them. Never rerun this to "fix" a failing test: a failure means the streams or the rules changed.

    python tests/legacy/make_fixtures.py     # wrote records.json.gz and streams.json (once, at e4ce40b)

Records: for every game and configuration, two random games (seeds 11 and 12, uniform random legal
actions from an independent generator), each cut at ``CAP`` actions, recorded with ``state.record()``
(every action's state hash, and the result when the game ended).

Streams: for a spread of seeds, the outputs of every generator method and of the games' own inline
draws (Mephisto's two-draws-per-output shuffle, Mr. Card Game's pile draws and mixed-radix deal).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cardtable  # noqa: E402
from cardtable.engine import Rng  # noqa: E402
from cardtable.testing.conformance import cases  # noqa: E402

HERE = Path(__file__).resolve().parent
CAP = 1200
SEEDS = (11, 12)
STREAM_SEEDS = (0, 1, 2, 7, 42, 12345, -1, -(2**63), 2**62 + 5, 2**64 - 1, 2**64 + 3, 10**30)


def records() -> list[dict[str, Any]]:
    out = []
    for game_id, options in cases():
        game = cardtable.load(game_id, **options)
        for seed in SEEDS:
            state = game.new(seed, log=False)
            pick = Rng(seed + 1000)
            while not state.is_over and len(state.history) < CAP:
                legal = state.legal_actions()
                state.apply(legal[pick.below(len(legal))])
            out.append(state.record())
    return out


def streams() -> list[dict[str, Any]]:
    # Gone since 8ede6ae (now Rng.shuffle32): this script records what ran at e4ce40b and is not rerun.
    from cardtable.games.mephisto.rules import _shuffle  # type: ignore[attr-defined]
    from cardtable.games.mr_card_game.shuffle import draw_list, pick_tuple
    from cardtable.games.mr_card_game.state import deal

    out = []
    for seed in STREAM_SEEDS:
        r = Rng(seed)
        entry: dict[str, Any] = {"seed": seed, "state0": r.state}
        entry["next64"] = [r.next64() for _ in range(8)]
        entry["below"] = [r.below(n) for n in (1, 2, 3, 6, 7, 12, 52, 100, 1000, 2**31 - 1, 2**32, 2**40 + 7)]
        entry["roll"] = [r.roll(s) for s in (6, 12, 20, 6, 12)]
        entry["choice"] = [r.choice(list(range(n))) for n in (1, 5, 9, 40)] + [r.choice((3, 4, 5))]
        deck = list(range(52))
        r.shuffle(deck)
        entry["shuffle52"] = deck
        small = list(range(7))
        r.shuffle(small)
        entry["shuffle7"] = small
        child = r.fork()
        entry["fork"] = [child.state, r.state, child.next64()]
        entry["copy"] = r.copy().next64()
        for n in (0, 1, 2, 3, 30, 61):
            seq = list(range(n))
            _shuffle(seq, r)
            entry[f"shuffle2x32_{n}"] = seq
        pile = list(range(40))
        dest: list[int] = []
        draw_list(dest, pile, 10, r)
        entry["draw_list"] = [dest, pile]
        picked = []
        tup = tuple(range(100, 112))
        while tup:
            card, tup = pick_tuple(tup, r)
            picked.append(card)
        entry["pick_tuple"] = picked
        for size, k in ((9, 6), (60, 60), (200, 17), (5, 0), (3, 3)):
            pool = list(range(size))
            dealt = deal(pool, k, r)
            entry[f"deal_{size}_{k}"] = [dealt, pool]
        entry["state_end"] = r.state
        out.append(entry)
    return out


def main() -> int:
    recs = records()
    with gzip.open(HERE / "records.json.gz", "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump({"made_by": "e4ce40b", "cap": CAP, "records": recs}, fh, separators=(",", ":"))
    (HERE / "streams.json").write_text(
        json.dumps({"made_by": "e4ce40b", "streams": streams()}, separators=(",", ":")) + "\n", encoding="utf-8"
    )
    print(f"{len(recs)} records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
