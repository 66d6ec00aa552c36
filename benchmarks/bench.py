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
    python benchmarks/bench.py --search-states      # clone/determinize over states along whole games

``--vs-openspiel`` (benchmarks/vs_openspiel.py) measures each game and configuration interleaved with
OpenSpiel's C++ ``hearts`` and ``crazy_eights`` and prints the median same-run ratios, for the pure and
the compiled build, with the event log on and off. The table printed here says which build ran.

``--search-states`` measures what search pays per node, on the states search meets: for every
2-player configuration (or the ``-o`` option set) it samples ``--states`` states (default 300) along
whole random games with fixed seeds (each state kept with probability 1/20, so deep positions with
long histories and full piles count as much as early ones), then times ``--passes`` passes (default
40) over all of them, a clone pass and a determinize pass taking turns, and prints µs per
``clone()`` and per ``determinize(seat, rng)``: the best pass and the median pass. The same seeds give
the same states in every build, so runs of two builds (``PYTHONPATH=build/compiled`` or not) compare
like for like; on a shared machine compare runs made back to back, or interleave them.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
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


def sample_states(game: Game, count: int, seed: int, keep_one_in: int = 4) -> list[State]:
    """``count`` states not over, each state of random games (log=False, uniform random actions, games
    seeded ``seed``, ``seed + 1``, ...) kept with probability ``1 / keep_one_in``. The same arguments
    give the same states in every build."""
    rng = Rng(seed)
    out: list[State] = []
    s = seed
    while len(out) < count:
        state = game.new(s, log=False)
        s += 1
        while not state.is_over and len(out) < count:
            if rng.below(keep_one_in) == 0:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    return out


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


def sample_along_games(game: Game, count: int, seed: int) -> list[State]:
    """:func:`sample_states` keeping one state in 20: positions from the whole length of the games,
    deep ones included."""
    return sample_states(game, count, seed, keep_one_in=20)


def search_states(game_id: str, options: dict[str, Any], count: int, passes: int, seed: int = 7) -> dict[str, Any]:
    """µs per ``clone()`` and ``determinize()`` over :func:`sample_along_games`'s states: the best and
    the median of ``passes`` passes, clone and determinize passes taking turns (so a burst of load on
    a shared machine hits both alike). Each determinize is for the seat to act (seat 0 if none)."""
    game = cardtable.load(game_id, **options)
    states = sample_along_games(game, count, seed)
    seats = [s.current_player if s.current_player is not None else 0 for s in states]
    pairs = list(zip(states, seats, strict=True))
    rng = Rng(seed + 1)
    clone_us: list[float] = []
    det_us: list[float] = []
    for _ in range(passes):
        t = time.perf_counter()
        for s in states:
            s.clone()
        clone_us.append(1e6 * (time.perf_counter() - t) / len(states))
        t = time.perf_counter()
        for s, seat in pairs:
            s.determinize(seat, rng)
        det_us.append(1e6 * (time.perf_counter() - t) / len(states))
    return {
        "game": game_id,
        "config": config_label(options),
        "options": options,
        "states": len(states),
        "mean_history": sum(len(s.history) for s in states) / len(states),
        "passes": passes,
        "clone_best_us": min(clone_us),
        "clone_median_us": statistics.median(clone_us),
        "determinize_best_us": min(det_us),
        "determinize_median_us": statistics.median(det_us),
    }


SEARCH_COLUMNS = (
    ("game", "game"),
    ("config", "configuration"),
    ("mean_history", "mean history"),
    ("clone_best_us", "clone µs best"),
    ("clone_median_us", "clone µs median"),
    ("determinize_best_us", "determinize µs best"),
    ("determinize_median_us", "determinize µs median"),
)


def run_search_states(
    game_ids: Sequence[str], count: int, passes: int, options_given: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """One row per game and option set: ``options_given`` if set, else each of the game's 2-player
    ``CONFIGURATIONS``."""
    rows = []
    for game_id in game_ids:
        option_sets = [o for o in configurations(game_id) if cardtable.load(game_id, **o).players == 2]
        if options_given is not None:
            resolved = cardtable.load(game_id, **options_given).options
            option_sets = [{name: resolved[name] for name in options_given}]
        for options in option_sets:
            print(f"measuring {game_id} {config_label(options)} ...", file=sys.stderr, flush=True)
            rows.append(search_states(game_id, options, count, passes))
    return rows


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
            if key.startswith("clone"):
                return f"{value:.2f}"
            return f"{value:.1f}"
        return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"
    return str(value)


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The results as a Markdown table (for the README)."""
    head = "| " + " | ".join(title for _, title in COLUMNS) + " |"
    rule = "|" + "|".join("---" if k in ("game", "config") else "---:" for k, _ in COLUMNS) + "|"
    body = ["| " + " | ".join(_fmt(k, row[k]) for k, _ in COLUMNS) + " |" for row in rows]
    return "\n".join([head, rule, *body])


def print_table(rows: Sequence[dict[str, Any]], columns: Sequence[tuple[str, str]] = COLUMNS, what: str = "") -> None:
    from rich.console import Console
    from rich.table import Table

    from cardtable.buildinfo import describe

    what = what or "one core, random playouts, log=False"
    table = Table(title=f"cardtable benchmark ({describe()}; {what})")
    for key, title in columns:
        table.add_column(title, justify="left" if key in ("game", "config") else "right")
    for row in rows:
        table.add_row(*(_fmt(k, row[k]) for k, _ in columns))
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
    parser.add_argument(
        "--search-states",
        action="store_true",
        help="only clone/determinize µs (best and median pass) over states sampled along whole games, "
        "every 2-player configuration",
    )
    parser.add_argument("--states", type=int, default=300, help="--search-states: states sampled (default 300)")
    parser.add_argument("--passes", type=int, default=40, help="--search-states: timed passes (default 40)")
    args = parser.parse_args(argv)
    if args.game and "toy" in args.game:
        register_toy()
    game_ids = args.game or cardtable.available()
    seconds = args.seconds if args.seconds is not None else (0.1 if args.quick else 1.0)
    if seconds <= 0:
        parser.error("--seconds must be positive")
    states = 40 if args.quick else 200
    if args.search_states:
        if args.states < 1 or args.passes < 1:
            parser.error("--states and --passes must be at least 1")
        try:
            chosen = parse_options(args.option) if args.option is not None else None
            rows = run_search_states(game_ids, args.states, args.passes, chosen)
        except CardtableError as err:
            parser.error(str(err))
        print_table(rows, SEARCH_COLUMNS, f"{args.states} states along whole games, {args.passes} passes")
        if args.json:
            meta: dict[str, Any] = {"cardtable": cardtable.__version__, "build": cardtable.buildinfo.build_info()}
            Path(args.json).write_text(json.dumps({"meta": meta, "results": rows}, indent=2) + "\n", encoding="utf-8")
        return 0
    try:
        chosen = parse_options(args.option) if args.option is not None else None
        rows = run(game_ids, seconds, states, progress=True, options_given=chosen)
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
