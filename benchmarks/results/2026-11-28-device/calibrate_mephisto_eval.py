"""How well Mephisto's hand-made search evaluation (``heuristics.mephisto.rollout_rewards``) predicts
the winning side, and whether its temperature is right: heuristic self-play, every 4th decision's side
scores and temperature, scored by the log loss of the winning side's softmax share with the
temperature multiplied by each factor (games whose winners are of two sides are skipped).

    python calibrate_mephisto_eval.py 4 teams 150     # 4 players in teams, 150 games
    python calibrate_mephisto_eval.py 2 plain 150
"""

from __future__ import annotations

import math
import sys

import cardtable
from cardtable.agents import Observation, make_agent
from cardtable.agents.heuristics import mephisto as h


def main(players: int, teams: bool, games: int) -> None:
    game = cardtable.load("mephisto", players=players, teams=teams)
    samples: list[tuple[list[float], float, int]] = []
    for seed in range(games):
        state = game.new(seed, log=False)
        agents = [make_agent("heuristic", game, seed * 10 + p) for p in range(players)]
        positions: list[tuple[list[float], float]] = []
        decisions = 0
        while not state.is_over:
            decisions += 1
            if decisions % 4 == 0:
                g = state.game
                own = [
                    state.soul_pts[p]
                    + h._FAVOR_WEIGHT * state.favor[p]
                    + h._INPLAY_WEIGHT * len(state.inplay[p])
                    + h._HAND_WEIGHT * len(state.hands[p])
                    for p in range(g.players)
                ]
                left = len(state.deck) + max(0, g.passes - state.runouts - 1) * len(g.cards)
                side = [0.0] * g.n_sides
                for p in range(g.players):
                    side[g.team_of[p]] += own[p]
                positions.append((side, h._SCALE_BASE + h._SCALE_PER_CARD * left))
            seat = state.current_player
            state.apply(agents[seat].choose(Observation(state, seat)))
        sides = {game.team_of[w] for w in state.result().winners}
        if len(sides) == 1:
            (won,) = sides
            samples += [(side, scale, won) for side, scale in positions]
    print(f"{len(samples)} positions; an even guess: log loss {math.log(len(samples[0][0])):.4f}")
    for factor in (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0):
        loss = 0.0
        for side, scale, won in samples:
            top = max(side)
            weights = [math.exp((v - top) / (scale * factor)) for v in side]
            loss -= math.log(max(weights[won] / sum(weights), 1e-12))
        print(f"temperature x{factor}: log loss {loss / len(samples):.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2] == "teams", int(sys.argv[3]))
