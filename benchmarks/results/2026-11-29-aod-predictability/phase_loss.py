"""The shipped Army of Darkness 2-player value's log loss by the phase of the position (heuristic
self-play, 15% random moves; every fifth position with a choice).

    python phase_loss.py 300
"""

import math
import sys
from collections import defaultdict

import cardtable
from cardtable.agents import Observation, make_agent
from cardtable.agents.values import learned_value
from cardtable.engine import Rng

game = cardtable.load("army-of-darkness", players=2)
value = learned_value(game)
assert value is not None
losses: dict[str, list[float]] = defaultdict(list)
for i in range(int(sys.argv[1])):
    seed = 777_000 + i
    r = Rng(seed ^ 0x7A1E)
    agents = [make_agent("heuristic", game, seed * 31 + s) for s in range(2)]
    state = game.new(seed, log=False)
    rows = []
    for _ in range(5000):
        if state.is_over:
            break
        legal = state.legal_actions()
        if len(legal) > 1 and r.below(5) == 0:
            key = "turn start" if state.phase == 0 and state.plays == 0 else f"phase {state.phase}, plays {state.plays}"
            rows.append((key, value(state)))
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
    for key, chances in rows:
        loss = -math.log(max(chances[winners[0]] / sum(chances), 1e-9))
        losses[key].append(loss)
        losses["all"].append(loss)
for key in sorted(losses, key=lambda k: -len(losses[k])):
    print(f"{key:20s} {len(losses[key]):6d} positions  log loss {sum(losses[key]) / len(losses[key]):.4f}")
