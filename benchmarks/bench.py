#!/usr/bin/env python
"""The cardtable benchmark: speed of the protocol for every game and configuration, on one core.

For each game in ``cardtable.available()`` and each of its ``Game.CONFIGURATIONS`` it measures:

* random playouts (states made with ``log=False``, uniform random legal actions): games/s,
  decisions/s (a decision is one ``legal_actions()`` plus one ``apply``) and mean decisions per game;
* µs per ``legal_actions()`` (with its cache cleared first, so the rules really run), ``apply``,
  ``clone()`` and ``determinize(seat, rng)``, each timed with ``time.perf_counter`` over states
  sampled along random games.

Each measurement runs for about ``--seconds`` (default 1.0; ``--quick`` uses 0.1 and fewer sampled
states, for CI). Results are printed as a table; ``--json FILE`` writes them, ``--markdown`` prints a
Markdown table for the README. Speed is measured here, never asserted in tests.

    python benchmarks/bench.py                      # every game and configuration
    python benchmarks/bench.py --quick --game toy   # the engine's toy game, a few seconds
    python benchmarks/bench.py --game mephisto --seconds 2 --json bench.json --markdown
    python benchmarks/bench.py --game mr-card-game -o players=3     # one option set of your own
    python benchmarks/bench.py --vs-openspiel       # same-run ratios against OpenSpiel, every build

``--vs-openspiel`` (benchmarks/vs_openspiel.py) measures each game and configuration interleaved with
OpenSpiel's C++ ``hearts`` and ``crazy_eights`` and prints the median same-run ratios, for the pure and
the compiled build, with the event log on and off. The table printed here says which build ran.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cardtable
import cardtable.buildinfo
from cardtable.cli.common import parse_options
from cardtable.engine import CardtableError, Game, Rng, State
from cardtable.testing.conformance import config_label, configurations

ROOT = Path(__file__).resolve().parent.parent

COLUMNS = (
    ("game", "game"),
    ("config", "configuration"),
    ("games_per_s", "games/s"),
    ("decisions_per_s", "decisions/s"),
    ("decisions_per_game", "decisions/game"),
    ("forced_share", "forced %"),
    ("legal_actions_us", "legal_actions µs"),
    ("apply_us", "apply µs"),
    ("clone_us", "clone µs"),
    ("determinize_us", "determinize µs"),
)


def register_toy() -> None:
    """Make the engine's toy game (tests/engine/toy.py) available as ``toy``."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.engine.toy import Toy

    cardtable.register("toy", Toy)


def playouts(game: Game, seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Random games for about ``seconds``: returns (games finished, decisions, forced decisions,
    elapsed seconds). A forced decision has a single legal action: the engine offers it anyway when
    a seat might have had a choice as far as the others can see (DESIGN.md, "Who decides"); bots take
    it at once, and its share of all decisions is what that fairness costs."""
    rng = Rng(seed)
    games = decisions = forced = 0
    start = time.perf_counter()
    deadline = start + seconds
    s = seed
    while True:
        state = game.new(s, log=False)
        s += 1
        # The loop body is exactly a decision: legal_actions() then apply().
        while not state.is_over:
            legal = state.legal_actions()
            n = len(legal)
            if n == 1:
                forced += 1
            state.apply(legal[rng.below(n)])
            decisions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games, decisions, forced, now - start


def sample_states(game: Game, count: int, seed: int) -> list[State]:
    """About ``count`` states not over, taken at random points of random games (log=False)."""
    rng = Rng(seed)
    out: list[State] = []
    s = seed
    while len(out) < count:
        state = game.new(s, log=False)
        s += 1
        while not state.is_over:
            if rng.below(4) == 0:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    return out[:count]


def _per_call(run: Any, seconds: float) -> float:
    """Call ``run()`` (which returns how many operations it timed and their total time) until
    ``seconds`` of timed work have accumulated; returns µs per operation."""
    ops = 0
    spent = 0.0
    while spent < seconds:
        n, t = run()
        ops += n
        spent += t
    return 1e6 * spent / ops


def time_legal_actions(states: Sequence[State], seconds: float) -> float:
    clones = [s.clone() for s in states]

    def run() -> tuple[int, float]:
        for c in clones:
            c._legal = None  # clear the engine's cache so the game's rules run
        t = time.perf_counter()
        for c in clones:
            c.legal_actions()
        return len(clones), time.perf_counter() - t

    return _per_call(run, seconds)


def time_apply(states: Sequence[State], seconds: float, seed: int) -> float:
    rng = Rng(seed)

    def run() -> tuple[int, float]:
        clones = [s.clone() for s in states]
        chosen = []
        for c in clones:
            legal = c.legal_actions()  # cached before timing: apply is timed alone
            chosen.append(legal[rng.below(len(legal))])
        pairs = list(zip(clones, chosen, strict=True))
        t = time.perf_counter()
        for c, a in pairs:
            c.apply(a)
        return len(pairs), time.perf_counter() - t

    return _per_call(run, seconds)


def time_clone(states: Sequence[State], seconds: float) -> float:
    def run() -> tuple[int, float]:
        t = time.perf_counter()
        for s in states:
            s.clone()
        return len(states), time.perf_counter() - t

    return _per_call(run, seconds)


def time_determinize(states: Sequence[State], seconds: float, seed: int) -> float:
    rng = Rng(seed)
    seats = [s.current_player if s.current_player is not None else 0 for s in states]

    def run() -> tuple[int, float]:
        pairs = list(zip(states, seats, strict=True))
        t = time.perf_counter()
        for s, seat in pairs:
            s.determinize(seat, rng)
        return len(pairs), time.perf_counter() - t

    return _per_call(run, seconds)


def measure(game_id: str, options: dict[str, Any], seconds: float, states: int, seed: int = 1) -> dict[str, Any]:
    """Every number of the benchmark for one game and configuration."""
    game = cardtable.load(game_id, **options)
    games, decisions, forced, elapsed = playouts(game, seconds, seed)
    sample = sample_states(game, states, seed + 1)
    return {
        "game": game_id,
        "config": config_label(options),
        "options": options,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
        "forced_share": 100.0 * forced / decisions if decisions else 0.0,
        "legal_actions_us": time_legal_actions(sample, seconds),
        "apply_us": time_apply(sample, seconds, seed + 2),
        "clone_us": time_clone(sample, seconds),
        "determinize_us": time_determinize(sample, seconds, seed + 3),
        "sampled_states": len(sample),
        "seconds_per_measurement": seconds,
    }


def run(
    game_ids: Sequence[str],
    seconds: float,
    states: int,
    progress: bool = False,
    options_given: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """One row per game and option set: ``options_given`` if set (validated by the game), else each
    of the game's ``CONFIGURATIONS``."""
    rows = []
    for game_id in game_ids:
        option_sets = configurations(game_id)
        if options_given is not None:
            # Validated and converted by the game (a bad option fails here, before any timing).
            resolved = cardtable.load(game_id, **options_given).options
            option_sets = [{name: resolved[name] for name in options_given}]
        for options in option_sets:
            if progress:
                print(f"measuring {game_id} {config_label(options)} ...", file=sys.stderr, flush=True)
            rows.append(measure(game_id, options, seconds, states))
    return rows


def _fmt(key: str, value: Any) -> str:
    if isinstance(value, float):
        if key == "forced_share":
            return f"{value:.0f}"
        if key.endswith("_us"):
            return f"{value:.1f}"
        return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"
    return str(value)


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The results as a Markdown table (for the README)."""
    head = "| " + " | ".join(title for _, title in COLUMNS) + " |"
    rule = "|" + "|".join("---" if k in ("game", "config") else "---:" for k, _ in COLUMNS) + "|"
    body = ["| " + " | ".join(_fmt(k, row[k]) for k, _ in COLUMNS) + " |" for row in rows]
    return "\n".join([head, rule, *body])


def print_table(rows: Sequence[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    from cardtable.buildinfo import describe

    table = Table(title=f"cardtable benchmark ({describe()}; one core, random playouts, log=False)")
    for key, title in COLUMNS:
        table.add_column(title, justify="left" if key in ("game", "config") else "right")
    for row in rows:
        table.add_row(*(_fmt(k, row[k]) for k, _ in COLUMNS))
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # a pipe or a file: do not squeeze the columns to 80
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    if "--vs-openspiel" in given:
        # Ratios against OpenSpiel's C++ games, for every build: benchmarks/vs_openspiel.py.
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import vs_openspiel

        return int(vs_openspiel.main([a for a in given if a != "--vs-openspiel"]))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="only this game id (repeatable; 'toy' is the engine's toy)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per measurement (default 1.0)")
    parser.add_argument("--quick", action="store_true", help="0.1 s per measurement and fewer states (CI)")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="measure this option set (repeatable) instead of the game's configurations, e.g. -o players=3",
    )
    args = parser.parse_args(argv)
    if args.game and "toy" in args.game:
        register_toy()
    game_ids = args.game or cardtable.available()
    seconds = args.seconds if args.seconds is not None else (0.1 if args.quick else 1.0)
    if seconds <= 0:
        parser.error("--seconds must be positive")
    states = 40 if args.quick else 200
    try:
        given = parse_options(args.option) if args.option is not None else None
        rows = run(game_ids, seconds, states, progress=True, options_given=given)
    except CardtableError as err:
        parser.error(str(err))
    print_table(rows)
    if args.markdown:
        print(markdown(rows))
    if args.json:
        meta = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cardtable": cardtable.__version__,
            "build": cardtable.buildinfo.build_info(),
            "seconds_per_measurement": seconds,
        }
        Path(args.json).write_text(json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
