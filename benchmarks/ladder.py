"""Strength ladder and simulation throughput, printed as Markdown tables for the README.

For every game at 2 players (Mephisto, Doctor Strange, Army of Darkness; any other registered game that
deals a 2-player game joins after them): ISMCTS at a fixed budget against the game's heuristic and
against random, and the heuristic against random (seats rotated every game, the same deals for every
pairing), with 95% Wilson intervals; and ISMCTS iterations per second and seconds per decision on one
core. ISMCTS runs with its defaults: rollouts cut after a few random decisions and scored by the game's
``rollout_rewards`` evaluation (which is also what makes Army of Darkness, whose random playouts are
hundreds of decisions long, affordable).

``--config GAME:INDEX`` (repeatable) adds a table for configurations of a game's ``CONFIGURATIONS``
(e.g. Mr. Card Game with its supplemental options, ``mr-card-game:11`` for every option at once):
ISMCTS in one seat against the heuristic in every other, seats rotated, with its win share against
the even share; ``-o KEY=VALUE`` overrides options of those configurations (e.g. ``turn-limit=100``).

``--throughput`` adds the simulation speed targets: a 10,000-game random-vs-random Mephisto run on
2 workers, and the local pool's scaling from 1 to 2 workers.

    python benchmarks/ladder.py                      # default budget
    python benchmarks/ladder.py --games 10 --iterations 50 --quick
    python benchmarks/ladder.py --throughput
    python benchmarks/ladder.py --no-ladder --config mr-card-game:11 -o turn-limit=100 --games 20 --iterations 200
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cardtable
from cardtable.agents import Ismcts, Observation, make_agent
from cardtable.cli.common import parse_options
from cardtable.engine import OptionError
from cardtable.sim.analysis import analyze
from cardtable.sim.plan import make_plan
from cardtable.sim.run import run_plan
from cardtable.sim.store import read_manifest, read_results

GAMES = ("mephisto", "doctor-strange", "army-of-darkness")


def two_player_games() -> list[str]:
    out = []
    for game_id in [*GAMES, *(g for g in cardtable.available() if g not in GAMES)]:
        try:
            cardtable.load(game_id, players=2).new(0, log=False).legal_actions()
        except Exception as exc:  # a game still being written: say so, do not stop the ladder
            print(f"<!-- skipped {game_id}: {type(exc).__name__}: {exc} -->", file=sys.stderr)
            continue
        out.append(game_id)
    return out


def iterations_per_second(
    game_id: str,
    iterations: int,
    c: float | None,
    games: int = 2,
    seconds: float = 20.0,
    options: Mapping[str, Any] | None = None,
    opponent: str = "random",
) -> tuple[float, float]:
    """ISMCTS iterations per second, and seconds per searched decision, over whole games against
    ``opponent`` in every other seat (one core, this process; 2 players unless ``options`` say)."""
    game = cardtable.load(game_id, **(options or {"players": 2}))
    done = 0
    searched = 0
    spent = 0.0
    for seed in range(games):
        hero = seed % game.players
        search = Ismcts(seed, iterations=iterations, c=c)  # c None: the agent's default for the game
        other = make_agent(opponent, game, seed + 1)
        state = game.new(seed, log=False)
        while not state.is_over and spent < seconds:
            seat = state.current_player
            assert seat is not None
            if seat == hero:
                start = time.perf_counter()
                action = search.choose(Observation(state, seat))
                spent += time.perf_counter() - start
                done += search.last_iterations
                searched += search.last_iterations > 0
            else:
                action = other.choose(Observation(state, seat))
            state.apply(action)
    if not spent:
        return float("nan"), float("nan")
    return done / spent, spent / max(searched, 1)


def match(
    game_id: str, seats: str, games: int, workers: int, seed: int, options: Mapping[str, Any] | None = None
) -> dict[str, float]:
    """Win share (with interval) of the first listed agent against the others (2 players unless
    ``options`` say)."""
    plan = make_plan(game_id, options=dict(options or {"players": 2}), seats=seats, games=games, seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        run_plan(plan, folder, workers=workers, progress=False)
        manifest = read_manifest(folder)
        assert manifest is not None
        a = analyze(manifest, read_results(folder / "results.jsonl"))
    s = a["settings"][0]
    first = plan.settings[0].seats[0]
    out: dict[str, float] = dict(s["agents"][first])
    out["seconds"] = s["seconds"]
    return out


def pct(i: dict[str, float]) -> str:
    return f"{100 * i['estimate']:.0f}% [{100 * i['low']:.0f}-{100 * i['high']:.0f}]"


def ismcts_spec(args: argparse.Namespace) -> str:
    """The ISMCTS agent spec the ladder plays: its budget, and ``c`` only when given."""
    return f"ismcts:iterations={args.iterations}" + ("" if args.c is None else f",c={args.c}")


def c_text(args: argparse.Namespace) -> str:
    return "the default c per game" if args.c is None else f"c={args.c}"


def ladder(args: argparse.Namespace) -> None:
    spec = ismcts_spec(args)
    games = args.only or two_player_games()
    print(
        f"ISMCTS ({args.iterations} iterations/decision, {c_text(args)}, default rollouts: cut and scored by the "
        f"game's evaluation); {args.games} games per pairing, "
    )
    print("seats rotated, win share of the first-named agent with a 95% Wilson interval.\n")
    print("| game | ISMCTS it/s (1 core) | s/decision | ISMCTS vs heuristic | ISMCTS vs random | heuristic vs random |")
    print("|---|---|---|---|---|---|")
    for game_id in games:
        speed, per_decision = iterations_per_second(game_id, args.iterations, args.c, seconds=args.speed_seconds)
        cells = [f"{speed:,.0f}", f"{per_decision:.2f}"]
        for seats in (f"{spec},heuristic", f"{spec},random", "heuristic,random"):
            try:
                cells.append(pct(match(game_id, seats, args.games, args.workers, args.seed)))
            except OptionError as exc:  # e.g. no heuristic agent for this game yet
                cells.append(f"n/a ({exc})")
        print(f"| {game_id} | " + " | ".join(cells) + " |", flush=True)


def configurations(args: argparse.Namespace) -> None:
    """ISMCTS in one seat against the game's heuristic in the others, for named configurations."""
    extra = parse_options(args.options)
    spec = ismcts_spec(args)
    print(
        f"\nISMCTS ({args.iterations} iterations/decision, {c_text(args)}) in one seat against the heuristic in "
        f"every other, seats rotated, {args.games} games; win share with a 95% Wilson interval.\n"
    )
    print("| configuration | players | ISMCTS it/s | s/decision | ISMCTS win share | even share | seconds |")
    print("|---|---|---|---|---|---|---|")
    for name in args.config:
        game_id, _, index = name.rpartition(":")
        if not game_id or not index.isdigit():
            raise OptionError(f"--config {name!r}: expected GAME:INDEX, e.g. mr-card-game:11")
        configs = type(cardtable.load(game_id)).CONFIGURATIONS
        if int(index) >= len(configs):
            raise OptionError(f"--config {name!r}: {game_id} has configurations 0..{len(configs) - 1}")
        options: dict[str, Any] = {**configs[int(index)], **extra}
        players = cardtable.load(game_id, **options).players
        seats = ",".join([spec, *["heuristic"] * (players - 1)])
        speed, per_decision = iterations_per_second(
            game_id, args.iterations, args.c, seconds=args.speed_seconds, options=options, opponent="heuristic"
        )
        result = match(game_id, seats, args.games, args.workers, args.seed, options)
        shown = " ".join(f"{k}={v}" for k, v in options.items())
        print(
            f"| {game_id} {shown} | {players} | {speed:,.0f} | {per_decision:.2f} | {pct(result)} | "
            f"{100 / players:.0f}% | {result['seconds']:.0f} |",
            flush=True,
        )


def throughput(args: argparse.Namespace) -> None:
    """The same random-vs-random Mephisto run on 1 worker (in process) and on 2 worker processes."""
    print("\n| simulation | games | workers | seconds | games/s |")
    print("|---|---|---|---|---|")
    plan = make_plan("mephisto", options={"players": 2}, seats="random", games=args.sim_games, seed=1)
    rates = {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            run_plan(plan, Path(tmp), workers=workers, progress=False)
            seconds = time.perf_counter() - start
        rates[workers] = plan.games / seconds
        print(f"| mephisto 2p random vs random | {plan.games:,} | {workers} | {seconds:.1f} | {rates[workers]:,.0f} |")
    print(f"\nscaling 1 -> 2 workers: {rates[2] / rates[1]:.2f}x (meaningful only on an otherwise idle machine)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per pairing (default 40)")
    parser.add_argument("--iterations", type=int, default=2000, help="ISMCTS iterations per decision (default 2000)")
    parser.add_argument(
        "--c",
        type=float,
        default=None,
        help="ISMCTS exploration constant (default: the agent's own for each game, e.g. 0.25 with evaluated "
        "rollouts, 1 with a heuristic prior)",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the matches (default 2)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--only", action="append", help="only this game (repeatable)")
    parser.add_argument("--speed-seconds", type=float, default=20.0, help="time spent measuring it/s per game")
    parser.add_argument("--throughput", action="store_true", help="also measure simulation throughput")
    parser.add_argument("--sim-games", type=int, default=10_000, help="games of the throughput run")
    parser.add_argument("--no-ladder", action="store_true", help="skip the strength ladder")
    parser.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="GAME:INDEX",
        help="ISMCTS against the heuristic on the game's configuration INDEX (repeatable), e.g. mr-card-game:11",
    )
    parser.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override an option of the --config configurations (repeatable), e.g. -o turn-limit=100",
    )
    args = parser.parse_args()
    if not args.no_ladder:
        ladder(args)
    if args.config:
        configurations(args)
    if args.throughput:
        throughput(args)


if __name__ == "__main__":
    main()
