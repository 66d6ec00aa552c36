#!/usr/bin/env python
"""What one observer update costs in play: the deciding seat's buffer brought up to date, alone.

Random games of one configuration are recorded once (their actions); each round replays them, and
before every decision brings the deciding seat's tracker (one per seat, as an environment keeps)
up to date with ``Observer.update``, timing that call and nothing else. Prints the best round's mean
time per update in µs: run it for two builds or commits in alternate processes and compare.

    python benchmarks/observer_update.py doctor-strange
    python benchmarks/observer_update.py mephisto players=4 teams=true --games 30 --rounds 7
"""

from __future__ import annotations

import argparse
import time

import cardtable
from cardtable.buildinfo import describe
from cardtable.cli.common import at_least, parse_options
from cardtable.engine import Action, OptionError, Rng
from cardtable.rl.observe import observer_for


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("options", nargs="*", help="name=value game options")
    parser.add_argument("--games", type=at_least(1), default=20, help="random games recorded (default 20)")
    parser.add_argument("--rounds", type=at_least(1), default=7, help="replays timed, the best kept (default 7)")
    args = parser.parse_args(argv)
    try:
        game = cardtable.load(args.game, **parse_options(args.options))
    except (KeyError, OptionError) as exc:
        parser.error(str(exc))
    observer = observer_for(game)
    recorded: list[tuple[int, list[Action]]] = []
    for seed in range(args.games):
        state = game.new(seed, log=False)
        rng = Rng(seed)
        actions = []
        while not state.is_over:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            actions.append(action)
            state.apply(action)
        recorded.append((seed, actions))

    def replay() -> float:
        spent = 0.0
        updates = 0
        for seed, actions in recorded:
            state = game.new(seed, log=False)
            trackers = [observer.tracker() for _ in range(game.players)]
            for action in actions:
                seat = state.current_player
                assert seat is not None
                start = time.perf_counter()
                observer.update(state, seat, trackers[seat])
                spent += time.perf_counter() - start
                updates += 1
                state.apply(action)
        return spent / updates * 1e6

    best = min(replay() for _ in range(args.rounds))
    print(f"{args.game} {' '.join(args.options)}: {best:.2f} µs per update (best of {args.rounds}); {describe()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
