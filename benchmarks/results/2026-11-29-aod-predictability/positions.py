"""Army of Darkness, 2 players: positions of heuristic self-play (15% random moves), each described by
37 raw features of the whole state from the mover's side, labelled with whether the mover won.

    python positions.py GAMES OUT.pkl
"""

import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
from cardtable.agents import Observation, make_agent
from cardtable.agents.heuristics import army_of_darkness as aod
from cardtable.agents.values import learned_value
from cardtable.engine import Rng

game = cardtable.load("army-of-darkness", players=2)
value = learned_value(game)
assert value is not None
TYPES = game.TYPE
NAMES = game.NAME_ID
KINDS = sorted(set(TYPES))


def seat_features(st: Any, s: int) -> list[float]:
    tabled = any(TYPES[c] == aod.NECRONOMICON for c in st.item[s])
    in_hand = any(TYPES[c] == aod.NECRONOMICON for c in st.hands[s])
    hand = [sum(1 for c in st.hands[s] if TYPES[c] == t) for t in KINDS]
    return [
        st.side[s],
        len(st.ally[s]),
        len(st.mon[s]),
        len({NAMES[c] for c in st.mon[s]}),
        len(st.item[s]),
        float(tabled),
        float(in_hand),
        len(st.hands[s]),
        st.switches[s],
        st.reduced[s],
        aod.progress(st, s),
        *hand,
    ]


def features(st: Any) -> list[float]:
    mover = st.active
    rest = [st.phase, st.plays, len(st.deck), st.turn, float(st.current_player == mover)]
    return seat_features(st, mover) + seat_features(st, 1 - mover) + rest


def main() -> None:
    games, out = int(sys.argv[1]), Path(sys.argv[2])
    xs, ys, shipped, ids = [], [], [], []
    for i in range(games):
        seed = 555_000 + i
        r = Rng(seed ^ 0x7A1E)
        agents = [make_agent("heuristic", game, seed * 31 + s) for s in range(2)]
        state = game.new(seed, log=False)
        rows = []
        for _ in range(5000):
            if state.is_over:
                break
            legal = state.legal_actions()
            if len(legal) > 1 and r.below(5) == 0:
                v = value(state)
                rows.append((features(state), state.active, v[state.active] / sum(v)))
            if len(legal) == 1:
                action = legal[0]
            elif r.below(100) < 15:
                action = legal[r.below(len(legal))]
            else:
                action = agents[state.current_player].choose(Observation(state, state.current_player))
            state.apply(action)
        winners = state.result().winners
        if len(winners) != 1:
            continue
        for f, mover, p in rows:
            xs.append(f)
            ys.append(int(winners[0] == mover))
            shipped.append(p)
            ids.append(i)
    with out.open("wb") as f:
        pickle.dump((np.array(xs, float), np.array(ys), np.array(shipped), np.array(ids)), f)


if __name__ == "__main__":
    main()
