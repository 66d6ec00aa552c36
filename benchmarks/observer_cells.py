#!/usr/bin/env python
"""How much of a seat's observation changes between its decisions, beside what an update costs.

The case for a write-side change list (docs/rl.md, "Throughput"): if only a handful of cells change
between two of a seat's observations while an incremental update still costs several engine
decisions, the update's time goes to finding what changed, not to writing it, and only the rules
recording what they changed can remove it.

For each game (its first configuration, two players) random games are played; at every decision the
deciding seat's tracker is brought up to date (``Observer.update``), and the cells that differ from
that seat's previous observation are counted. The engine's part (``legal_actions`` + a random
``apply`` on a state without a log) is timed beside the update on the same decisions.

    python benchmarks/observer_cells.py
    python benchmarks/observer_cells.py --games 50 --game mr-card-game
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import cardtable
from cardtable.buildinfo import describe
from cardtable.cli.common import at_least
from cardtable.engine import Rng
from cardtable.rl.observe import observer_for
from cardtable.testing.conformance import configurations

GAMES = ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")


def first_two_player_configuration(game_id: str) -> dict[str, Any]:
    """The game's first listed configuration with two players."""
    for options in configurations(game_id):
        if options.get("players", 2) == 2:
            return dict(options)
    return {"players": 2}


def measure(game_id: str, games: int) -> dict[str, float]:
    """Cells changed per seat-decision (mean, median, 90th percentile), the observation's size and
    the µs of an update and of an engine decision, over ``games`` random games (seeds 0, 1, ...)."""
    game = cardtable.load(game_id, **first_two_player_configuration(game_id))
    observer = observer_for(game)
    changed: list[int] = []
    steps = 0
    update_s = engine_s = 0.0
    clock = time.perf_counter
    for seed in range(games):
        state = game.new(seed, log=False)
        rng = Rng(seed)
        trackers: dict[int, Any] = {}
        last: dict[int, Any] = {}
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            tracker = trackers.get(seat)
            if tracker is None:
                tracker = trackers[seat] = observer.tracker()
            start = clock()
            vector = observer.update(state, seat, tracker)
            update_s += clock() - start
            if seat in last:
                changed.append(int(np.count_nonzero(last[seat] != vector)))
            last[seat] = vector.copy()
            start = clock()
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            engine_s += clock() - start
            steps += 1
    counts = np.array(changed)
    return {
        "size": float(observer.size),
        "mean": float(counts.mean()),
        "median": float(np.median(counts)),
        "p90": float(np.percentile(counts, 90)),
        "update_us": update_s / steps * 1e6,
        "engine_us": engine_s / steps * 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, help="one game (default: all four)")
    parser.add_argument("--games", type=at_least(1), default=20, help="random games per game (default 20)")
    args = parser.parse_args(argv)
    print(f"build: {describe()}")
    print(
        "| game | observation size | cells changed per seat-decision: mean | median | 90th pct "
        + "| update (µs) | engine decision (µs) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game_id in [args.game] if args.game else GAMES:
        m = measure(game_id, args.games)
        print(
            f"| {game_id} | {m['size']:.0f} | {m['mean']:.1f} | {m['median']:.0f} | {m['p90']:.0f} "
            f"| {m['update_us']:.1f} | {m['engine_us']:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
