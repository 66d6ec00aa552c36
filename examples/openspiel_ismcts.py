#!/usr/bin/env python
"""OpenSpiel's own information-set MCTS bot playing a cardtable game, against OpenSpiel's random bot.

The cardtable game is a ``pyspiel`` game (``cardtable.rl.openspiel_game``): OpenSpiel's ISMCTS samples
worlds the searching player cannot tell apart through the game's ``resample_from_infostate`` (the
engine's ``determinize``), keys its tree on observation strings (a seat's view: cheaper than the
perfect-recall information states the games also offer, which ISMCTS uses by default), and evaluates
leaves with OpenSpiel's random-rollout evaluator. Seats alternate between games.

    pip install '.[rl]'
    python examples/openspiel_ismcts.py                          # Doctor Strange, 4 games (a minute or two)
    python examples/openspiel_ismcts.py --game mephisto --games 4 --simulations 50
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cardtable.rl
from cardtable.sim.stats import wilson


def play(game: pyspiel.Game, bots: Sequence[pyspiel.Bot]) -> list[float]:
    """One game, each seat played by its bot; returns the players' returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="doctor-strange")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=25, help="ISMCTS simulations per decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    # Information states are not read here: no need to record every seat's observation at every step.
    game = cardtable.rl.spiel_game(args.game, players=args.players, seed=args.seed, info_state=False)
    print(f"{game}\n{game.num_distinct_actions()} actions, observation tensor of {game.observation_tensor_size()}")
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    search = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=rng,
        use_observation_string=True,  # the view; ISMCTS's default, information states, works too
        allow_inconsistent_action_sets=True,  # resampled worlds may offer the searcher's opponents other actions
    )
    wins = 0
    start = time.perf_counter()
    for g in range(args.games):
        seat = g % args.players
        bots: list[pyspiel.Bot] = [
            pyspiel.make_uniform_random_bot(p, args.seed + 17 * g + p) for p in range(args.players)
        ]
        bots[seat] = search
        returns = play(game, bots)
        won = returns[seat] == max(returns) and returns[seat] > 0
        wins += won
        print(f"game {g + 1}: ISMCTS in seat {seat + 1}, returns {returns} -> {'win' if won else 'no win'}")
    interval = wilson(wins, args.games)
    print(
        f"\nISMCTS ({args.simulations} simulations) won {wins} of {args.games} games against random: "
        f"{interval.text(percent=True)}, {time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
