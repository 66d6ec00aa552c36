"""Do `strong` and the oracle choose differently in Army of Darkness (2 players)? From the repository root:

    python benchmarks/results/2026-11-28-ceilings/same_moves.py

Plays 6 games of the heuristic against itself (seeds 100-105), keeps every 4th decision with a choice,
and on the first 80 of those positions asks `strong` and `oracle` (the same seeds for both) and the
heuristic 8 times (its modal move): prints how often each differs from the heuristic's modal move and
from each other. Measured on 2026-11-28: strong != modal 14, oracle != modal 14, strong != oracle 0 of 80.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # benchmarks/, for oracle.py

import cardtable
import oracle
from cardtable.agents import Observation, make_agent


def main() -> None:
    oracle.register()
    game = cardtable.load("army-of-darkness", players=2)
    positions = []
    for g in range(6):
        state = game.new(100 + g, log=False)
        players = [make_agent("heuristic", game, 7 + s) for s in range(2)]
        k = 0
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if len(state.legal_actions()) >= 2:
                k += 1
                if k % 4 == 0:
                    positions.append(state.clone())
            state.apply(players[seat].choose(Observation(state, seat)))
    counts: collections.Counter[str] = collections.Counter()
    for i, state in enumerate(positions[:80]):
        seat = state.current_player
        assert seat is not None
        votes = collections.Counter(
            make_agent("heuristic", game, 1000 + j).choose(Observation(state, seat)) for j in range(8)
        )
        modal = votes.most_common(1)[0][0]
        strong = make_agent("strong", game, i).choose(Observation(state, seat))
        known = make_agent("oracle", game, i).choose(Observation(state, seat))
        counts["strong != modal"] += strong != modal
        counts["oracle != modal"] += known != modal
        counts["strong != oracle"] += strong != known
        counts["positions"] += 1
    print(f"{len(positions)} positions kept; on the first {counts['positions']}:", dict(counts))


if __name__ == "__main__":
    main()
