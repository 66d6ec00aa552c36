#!/usr/bin/env python
"""Throughput of the RL adapters next to the raw engine, for every game and configuration (one core).

For each game in ``cardtable.available()`` and each of its ``Game.CONFIGURATIONS`` it plays random
games for about ``--seconds`` per mode (uniform random legal actions everywhere; the modes take turns
in ``--rounds`` bursts, so a shared machine's changing load does not tilt the ratios) and reports
decisions per second:

* ``engine``: the protocol alone, as ``benchmarks/bench.py`` measures it (``legal_actions`` + ``apply``
  on a state made with ``log=False``);
* ``engine_view``: the same plus ``view(seat)`` of the seat to decide at every decision: the floor of
  any observation drawn from the view (no adapter, no encoder);
* ``pettingzoo``: the AEC loop every PettingZoo user writes: ``last()`` (the acting agent's observation:
  its view, encoded, and its mask), then ``step``;
* ``pettingzoo (mask only)``: the same loop reading only ``action_mask`` (no observation): what the
  adapter itself costs, without the view and the encoder;
* ``gymnasium``: ``step`` with the learner's observation after each of its decisions; random agents in
  the other seats, their decisions counted too;
* ``openspiel``: ``legal_actions`` + ``apply_action`` through ``pyspiel`` (no observation), and
  ``openspiel + observation`` with the acting player's observation at each decision, read the way
  OpenSpiel's own Python code does (``make_observation(game)``, ``set_from(state, player)``, the
  numpy ``tensor``). ``state.observation_tensor(player)`` gives the same numbers as a Python list,
  which pyspiel builds anew at every call (about 1 us per 10 values: read the observer instead).

``overhead`` is engine decisions/s divided by the adapter's: how many times slower a decision is
through it. The target (issue 12) is an overhead below 2 for an environment step *with* its
observation (PettingZoo, Gymnasium, OpenSpiel + observation); the table says whether the worst of them
meets it, next to the floor (``engine + view``) that no encoder can beat. The machine's load average
(``uptime``) is printed with the table and stored in the JSON: on a shared machine compare ratios,
not absolute rates. ``--json FILE`` writes the numbers; the table is Markdown (``--json-only`` prints
the JSON to stdout instead).

    python benchmarks/rl_bench.py                    # every game and configuration
    python benchmarks/rl_bench.py --game mephisto --seconds 2 --json out.json
    python benchmarks/rl_bench.py --quick --game doctor-strange
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cardtable
from cardtable.engine import Game, Rng
from cardtable.testing.conformance import config_label, configurations

ROOT = Path(__file__).resolve().parent.parent

MODES = ("engine", "engine_view", "pettingzoo", "gymnasium", "openspiel_tensor", "pettingzoo_mask", "openspiel")
OBSERVED = ("pettingzoo", "gymnasium", "openspiel_tensor")
"""The modes whose steps include an observation: the ones the target is about."""
TARGET = 2.0
LABELS = {
    "engine": "engine",
    "engine_view": "engine + view",
    "pettingzoo": "PettingZoo",
    "pettingzoo_mask": "PettingZoo, mask only",
    "gymnasium": "Gymnasium",
    "openspiel": "OpenSpiel",
    "openspiel_tensor": "OpenSpiel + observation",
}


Games = Iterator[int]
"""An endless stream of random games through one mode, yielding the decisions of each."""


def engine_games(game: Game) -> Games:
    rng = Rng(1)
    seed = 0
    while True:
        state = game.new(seed, log=False)
        seed += 1
        n = 0
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            n += 1
        yield n


def engine_view_games(game: Game) -> Games:
    rng = Rng(1)
    seed = 0
    while True:
        state = game.new(seed, log=False)
        seed += 1
        n = 0
        while not state.is_over:
            state.view(state.current_player)
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            n += 1
        yield n


def pettingzoo_games(game_id: str, options: dict[str, Any], observe: bool) -> Games:
    import cardtable.rl

    env = cardtable.rl.env(game_id, **options)
    rng = Rng(1)
    seed = 0
    while True:
        env.reset(seed=seed)
        seed += 1
        n = 0
        for agent in env.agent_iter():
            if observe:
                obs, _, terminated, truncated, _ = env.last()
                mask = obs["action_mask"]
            else:
                _, _, terminated, truncated, _ = env.last(observe=False)
                mask = env.action_mask(agent)
            if terminated or truncated:
                env.step(None)
                continue
            legal = mask.nonzero()[0]
            env.step(int(legal[rng.below(len(legal))]))
            n += 1
        yield n


def gymnasium_games(game_id: str, options: dict[str, Any]) -> Games:
    import cardtable.rl

    env = cardtable.rl.gymnasium_env(game_id, opponents="random", **options)
    rng = Rng(1)
    seed = 0
    while True:
        obs, _ = env.reset(seed=seed)
        seed += 1
        while True:
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.below(len(legal))]))
            if terminated or truncated:
                break
        assert env.episode is not None
        yield env.episode.steps  # every seat's decisions


def openspiel_games(game_id: str, options: dict[str, Any], tensor: bool) -> Games:
    from open_spiel.python.observation import make_observation

    import cardtable.rl

    game = cardtable.rl.spiel_game(game_id, **options)
    observer = make_observation(game)
    rng = Rng(1)
    while True:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if tensor:
                observer.set_from(state, state.current_player())  # observer.tensor: the vector
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
            n += 1
        yield n


def games_for(mode: str, game_id: str, options: dict[str, Any]) -> Games:
    if mode == "engine":
        return engine_games(cardtable.load(game_id, **options))
    if mode == "engine_view":
        return engine_view_games(cardtable.load(game_id, **options))
    if mode in ("pettingzoo", "pettingzoo_mask"):
        return pettingzoo_games(game_id, options, observe=mode == "pettingzoo")
    if mode == "gymnasium":
        return gymnasium_games(game_id, options)
    return openspiel_games(game_id, options, tensor=mode == "openspiel_tensor")


def measure(
    game_id: str, options: dict[str, Any], seconds: float, modes: tuple[str, ...], rounds: int
) -> dict[str, Any]:
    """Decisions per second per mode. The modes take turns in ``rounds`` bursts (whole games, about
    ``seconds / rounds`` each), so a machine whose load changes slows them all alike and the ratios
    hold. Every mode chooses uniformly among the legal actions with the engine's generator, as the
    engine baseline does, so the numbers differ only by what the adapter costs."""
    streams = {mode: games_for(mode, game_id, options) for mode in modes}
    decisions = dict.fromkeys(modes, 0)
    spent = dict.fromkeys(modes, 0.0)
    burst = seconds / rounds
    for _ in range(rounds):
        for mode in modes:
            start = time.perf_counter()
            while True:
                decisions[mode] += next(streams[mode])
                elapsed = time.perf_counter() - start
                if elapsed >= burst:
                    break
            spent[mode] += elapsed
    rates = {mode: decisions[mode] / spent[mode] for mode in modes}
    row: dict[str, Any] = {"game": game_id, "config": config_label(options), "decisions_per_s": rates}
    if "engine" in rates:
        row["overhead"] = {m: rates["engine"] / r for m, r in rates.items() if m != "engine" and r > 0}
    return row


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def load() -> str:
    """The load average over 1, 5 and 15 minutes, as ``uptime`` prints it."""
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except (OSError, AttributeError):  # no load average on this platform
        return "unknown"


def markdown(rows: list[dict[str, Any]], modes: tuple[str, ...]) -> str:
    """One row per game and configuration: raw decisions/s, then each mode's rate with its overhead,
    then whether every observed mode measured meets the target."""
    shown = [m for m in modes if m != "engine"]
    observed = [m for m in OBSERVED if m in modes]
    head = ["game", "configuration"]
    if "engine" in modes:
        head.append("engine decisions/s")
    head += [LABELS[m] + ("" if m in OBSERVED or m == "engine_view" else " (no observation)") for m in shown]
    if "engine" in modes and observed:
        head.append(f"with observations < {TARGET:g}x?")
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for row in rows:
        cells = [row["game"], row["config"]]
        overhead = row.get("overhead", {})
        if "engine" in modes:
            cells.append(_fmt(row["decisions_per_s"]["engine"]))
        for m in shown:
            over = overhead.get(m)
            cells.append(_fmt(row["decisions_per_s"][m]) + (f" ({over:.1f}x)" if over is not None else ""))
        if "engine" in modes and observed:
            worst = max(overhead[m] for m in observed)
            cells.append(f"{'yes' if worst < TARGET else 'no'} ({worst:.1f}x)")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    parser.add_argument("--quick", action="store_true", help="0.2 s per measurement")
    parser.add_argument("--rounds", type=int, default=4, help="bursts per mode, taken in turns")
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma-separated, of: {', '.join(MODES)}")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument("--json-only", action="store_true", help="print the JSON rather than the table")
    args = parser.parse_args(argv)
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        parser.error(f"unknown mode(s) {', '.join(unknown)}; known: {', '.join(MODES)}")
    seconds = 0.2 if args.quick else args.seconds
    games = args.game or cardtable.available()
    rows = []
    start_load = load()
    for game_id in games:
        for options in configurations(game_id):
            row = measure(game_id, options, seconds, modes, args.rounds)
            rows.append(row)
            rates = ", ".join(f"{LABELS[m]} {_fmt(r)}" for m, r in row["decisions_per_s"].items())
            print(f"{game_id} {row['config']}: decisions/s: {rates}", file=sys.stderr)
    if args.json_only:
        print(json.dumps(rows, indent=2))
    else:
        print(markdown(rows, modes))
        print(f"\nload average (1, 5, 15 min) at the start: {start_load}; at the end: {load()}")
    if args.json:
        meta = {
            "python": platform.python_version(),
            "machine": platform.machine(),
            "seconds": seconds,
            "load_start": start_load,
            "load_end": load(),
        }
        args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
