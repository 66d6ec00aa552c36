#!/usr/bin/env python
"""cardtable against OpenSpiel's C++ games, measured in the same run (``bench.py --vs-openspiel``).

Speed on a shared or throttled machine is only meaningful as a ratio against a peer measured at the
same moment. For every game and configuration, each *round* measures, back to back in one process:
OpenSpiel's C++ ``hearts``, OpenSpiel's ``crazy_eights``, cardtable with the default ``game.new(seed)``
(the event log on) and cardtable with ``log=False``. A rate is player decisions per second of the
loop a user writes: ``legal_actions()`` and ``apply()`` of a uniformly random action, new games as
the old ones end (OpenSpiel's chance nodes — its deal — are sampled and applied in the same loop and
count in its time, not as decisions; cardtable deals inside ``new`` and ``apply``). Both loops pick
actions with the same Python generator, and time is the process's CPU time (``time.process_time``),
so that time spent waiting for a core on a shared machine counts for neither. The ratios of a round
are cardtable's rate over the peer's; the benchmark prints the median of each ratio over the rounds.

Each build runs in a process of its own (``PYTHONPATH`` set to it), and the builds take turns round by
round, so a burst of load hits them alike: by default the pure source tree (``src``, Python
generator) and, when it has been built, the compiled one (``build/compiled``, see
``scripts/build_compiled.py``). ``--build NAME=PATH`` names others (an older checkout's ``src`` for a
before/after). ``--search`` adds clone and determinize µs and ISMCTS iterations/s per build.

    python benchmarks/bench.py --vs-openspiel                       # every configuration, 5 rounds
    python benchmarks/bench.py --vs-openspiel --game mephisto --rounds 9 --markdown
    python benchmarks/bench.py --vs-openspiel --build before=/tmp/old/src --build pure=src --search
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEERS = ("hearts", "crazy_eights")
DEFAULT_ROUNDS = 5
DEFAULT_SECONDS = 0.4
SEARCH_ITERATIONS = 300


# -- in the measuring process --------------------------------------------------------------------------


def openspiel_rate(name: str, seconds: float, seed: int) -> float:
    """Player decisions per second of OpenSpiel's ``name`` under random play (whole games)."""
    import pyspiel

    game = pyspiel.load_game(name)
    rand = random.Random(seed).random
    decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
                decisions += 1
        now = time.process_time()
        if now >= deadline:
            return decisions / (now - start)


def cardtable_rate(game: Any, log: bool, seconds: float, seed: int) -> float:
    """Player decisions per second of cardtable under random play, ``game.new(seed)`` (log on) or
    ``game.new(seed, log=False)`` (whole games)."""
    rand = random.Random(seed).random
    decisions = 0
    s = seed
    start = time.process_time()
    deadline = start + seconds
    while True:
        state = game.new(s) if log else game.new(s, log=False)
        s += 1
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[int(rand() * len(legal))])
            decisions += 1
        now = time.process_time()
        if now >= deadline:
            return decisions / (now - start)


def _sample_states(game: Any, count: int, seed: int) -> list[Any]:
    rand = random.Random(seed).random
    out: list[Any] = []
    s = seed
    while len(out) < count:
        state = game.new(s, log=False)
        s += 1
        while not state.is_over and len(out) < count:
            if rand() < 0.25:
                out.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[int(rand() * len(legal))])
    return out


def search_numbers(game: Any, seconds: float, seed: int) -> dict[str, float]:
    """µs per ``clone()`` and ``determinize(seat, rng)`` over sampled states, and ISMCTS iterations/s
    (``ismcts:iterations=300`` choosing at sampled states where there is a choice)."""
    from cardtable.agents.base import Observation
    from cardtable.agents.registry import make_agent
    from cardtable.engine import Rng

    states = _sample_states(game, 60, seed)
    out: dict[str, float] = {}
    timed: tuple[tuple[str, Callable[[Any, int], object]], ...] = (
        ("clone_us", lambda st, i: st.clone()),
        ("determinize_us", lambda st, i: st.determinize(st.current_player, Rng(i))),
    )
    for key, op in timed:
        ops = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for i, st in enumerate(states):
                op(st, i)
            ops += len(states)
        out[key] = 1e6 * (time.process_time() - start) / ops
    choices = [st for st in states if len(st.legal_actions()) > 1][:8] or states[:1]
    iterations = 0
    start = time.process_time()
    while time.process_time() - start < seconds or iterations == 0:
        for i, st in enumerate(choices):
            agent = make_agent(f"ismcts:iterations={SEARCH_ITERATIONS}", game, seed + i)
            agent.choose(Observation(st, st.current_player))
            iterations += SEARCH_ITERATIONS
            if time.process_time() - start >= seconds:
                break
    out["ismcts_it_per_s"] = iterations / (time.process_time() - start)
    return out


def describe_build() -> dict[str, Any]:
    """Which build this process imported (an engine older than cardtable.buildinfo is pure)."""
    try:
        from cardtable.buildinfo import build_info, describe
    except ImportError:
        return {"build": "pure", "generator": "Python", "describe": "pure Python, Python generator (older engine)"}
    return {**build_info(), "describe": describe()}


def measure_round(
    configs: Sequence[tuple[str, dict[str, Any]]], seconds: float, search: bool, seed: int
) -> dict[str, Any]:
    """One round over ``configs`` in this process: per configuration, the peers and cardtable with
    the log on and off, back to back."""
    import cardtable

    rows = []
    for game_id, options in configs:
        game = cardtable.load(game_id, **options)
        # Warm up: lazily imported modules and per-game tables are built on first use, not timed.
        cardtable_rate(game, True, 0.0, seed)
        cardtable_rate(game, False, 0.0, seed)
        row: dict[str, Any] = {"game": game_id, "options": options}
        row["hearts"] = openspiel_rate("hearts", seconds, seed)
        row["log_on"] = cardtable_rate(game, True, seconds, seed)
        row["crazy_eights"] = openspiel_rate("crazy_eights", seconds, seed)
        row["log_off"] = cardtable_rate(game, False, seconds, seed)
        if search:
            row.update(search_numbers(game, seconds, seed))
        rows.append(row)
    return {"build": describe_build(), "rows": rows}


# -- in the parent -------------------------------------------------------------------------------------


def default_builds() -> dict[str, str]:
    """``pure`` (this checkout's ``src``) and, when built, ``compiled`` (``build/compiled``)."""
    builds = {"pure": str(ROOT / "src")}
    compiled = ROOT / "build" / "compiled"
    if (compiled / "cardtable").is_dir():
        builds["compiled"] = str(compiled)
    return builds


def configurations(
    game_ids: Sequence[str] | None, options: list[str] | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """Every configuration of the games (all games by default), or the one option set ``options``
    (``KEY=VALUE`` texts, validated and converted by each game)."""
    import cardtable
    from cardtable.cli.common import parse_options
    from cardtable.testing.conformance import cases

    if options is None:
        return [(g, dict(o)) for g, o in cases(list(game_ids) if game_ids else None)]
    given = parse_options(options)
    out = []
    for game_id in game_ids or cardtable.available():
        resolved = cardtable.load(game_id, **given).options
        out.append((game_id, {name.replace("_", "-"): resolved[name.replace("_", "-")] for name in given}))
    return out


def run_child(path: str, configs: Sequence[tuple[str, dict[str, Any]]], seconds: float, search: bool, seed: int) -> Any:
    env = dict(os.environ, PYTHONPATH=path)
    env.pop("CARDTABLE_PURE_RNG", None)
    spec = json.dumps({"configs": configs, "seconds": seconds, "search": search, "seed": seed})
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", spec],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(done.stdout)


def summarise(rounds: dict[str, list[Any]]) -> dict[str, Any]:
    """Median same-run ratios per build and configuration (and the raw rates' medians)."""
    from cardtable.testing.conformance import config_label

    out: dict[str, Any] = {}
    for name, results in rounds.items():
        rows = []
        for i, first in enumerate(results[0]["rows"]):
            per = [r["rows"][i] for r in results]

            def median(f: Any, per: list[dict[str, Any]] = per) -> float:
                return float(statistics.median(f(r) for r in per))

            row = {
                "game": first["game"],
                "config": config_label(first["options"]),
                "options": first["options"],
                "on_vs_hearts": median(lambda r: r["log_on"] / r["hearts"]),
                "off_vs_hearts": median(lambda r: r["log_off"] / r["hearts"]),
                "on_vs_crazy_eights": median(lambda r: r["log_on"] / r["crazy_eights"]),
                "off_vs_crazy_eights": median(lambda r: r["log_off"] / r["crazy_eights"]),
                "log_cost": median(lambda r: r["log_off"] / r["log_on"]),
                "log_on": median(lambda r: r["log_on"]),
                "log_off": median(lambda r: r["log_off"]),
                "hearts": median(lambda r: r["hearts"]),
                "crazy_eights": median(lambda r: r["crazy_eights"]),
            }
            for key in ("clone_us", "determinize_us", "ismcts_it_per_s"):
                if key in first:
                    row[key] = median(lambda r, key=key: r[key])
            rows.append(row)
        out[name] = {"build": results[0]["build"], "rounds": len(results), "rows": rows}
    return out


def table(summary: dict[str, Any], markdown: bool) -> str:
    """The ratios side by side: for each build, log on and off, against hearts and crazy_eights, and
    what the event log costs (decisions/s with ``log=False`` over the default's)."""
    names = list(summary)
    head = ["game", "configuration"]
    for name in names:
        head += [f"{name} log on / hearts", f"{name} log off / hearts", f"{name} log on / crazy_eights"]
        head += [f"{name} log off / log on"]
    if any("clone_us" in r for s in summary.values() for r in s["rows"]):
        for name in names:
            head += [f"{name} clone µs", f"{name} determinize µs", f"{name} ISMCTS it/s"]
    lines = []
    first = summary[names[0]]["rows"]
    for i, row in enumerate(first):
        cells = [row["game"], row["config"]]
        for name in names:
            r = summary[name]["rows"][i]
            cells += [f"{r['on_vs_hearts']:.2f}", f"{r['off_vs_hearts']:.2f}", f"{r['on_vs_crazy_eights']:.2f}"]
            cells += [f"{r['log_cost']:.2f}"]
        if len(head) > len(cells):
            for name in names:
                r = summary[name]["rows"][i]
                cells += [f"{r.get('clone_us', 0):.1f}", f"{r.get('determinize_us', 0):.1f}"]
                cells += [f"{r.get('ismcts_it_per_s', 0):,.0f}"]
        lines.append(cells)
    if markdown:
        rule = ["---", "---"] + ["---:"] * (len(head) - 2)
        return "\n".join("| " + " | ".join(r) + " |" for r in [head, rule, *lines])
    widths = [max(len(r[c]) for r in [head, *lines]) for c in range(len(head))]
    out = []
    for r in [head, *lines]:
        cells = [cell.rjust(w) if c > 1 else cell.ljust(w) for c, (cell, w) in enumerate(zip(r, widths, strict=True))]
        out.append("  ".join(cells))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--game", action="append", help="only this game id (repeatable)")
    parser.add_argument("-o", "--option", action="append", metavar="KEY=VALUE", help="one option set instead")
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS, help=f"rounds (default {DEFAULT_ROUNDS})")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="seconds per measurement")
    parser.add_argument("--build", action="append", metavar="NAME=PATH", help="a build to measure (repeatable)")
    parser.add_argument("--search", action="store_true", help="also clone/determinize µs and ISMCTS it/s")
    parser.add_argument("--json", metavar="FILE", help="write every round's numbers and the medians")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    if args.child:
        spec = json.loads(args.child)
        configs = [(g, o) for g, o in spec["configs"]]
        print(json.dumps(measure_round(configs, spec["seconds"], spec["search"], spec["seed"])))
        return 0
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    builds = default_builds()
    if args.build:
        builds = dict(b.split("=", 1) for b in args.build)
    from cardtable.engine import CardtableError

    try:
        configs = configurations(args.game, args.option)
    except CardtableError as err:
        parser.error(str(err))
    rounds: dict[str, list[Any]] = {name: [] for name in builds}
    for r in range(args.rounds):
        # Builds take turns, in an order that alternates, so that neither always runs first.
        order = list(builds) if r % 2 == 0 else list(reversed(builds))
        for name in order:
            print(f"round {r + 1}/{args.rounds}: {name} ...", file=sys.stderr, flush=True)
            rounds[name].append(run_child(builds[name], configs, args.seconds, args.search, 1 + r))
    summary = summarise(rounds)
    for name, s in summary.items():
        print(f"{name}: {s['build']['describe']}")
    print(f"{args.rounds} rounds, {args.seconds} s per measurement; median same-run ratios (cardtable decisions/s")
    print("over OpenSpiel's C++ game's; above 1 is faster). Load on this machine was:", _load())
    print(table(summary, args.markdown))
    if args.json:
        Path(args.json).write_text(json.dumps({"rounds": rounds, "summary": summary}, indent=1) + "\n")
    return 0


def _load() -> str:
    try:
        return ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


if __name__ == "__main__":
    raise SystemExit(main())
