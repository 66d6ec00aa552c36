#!/usr/bin/env python
"""Throughput of the RL environments next to the raw engine and a peer, for every game and configuration.

For each game in ``cardtable.available()`` and each of its ``Game.CONFIGURATIONS`` it plays random
games for about ``--seconds`` per mode (uniform random legal actions everywhere; the modes take turns
in ``--rounds`` bursts, each mode in a process of its own, so a shared machine's changing load tilts no
ratio and no mode's objects slow another's garbage collection) and reports decisions per
second (every seat's decisions: an opponent's decision inside a Gymnasium step counts too):

* ``engine``: the protocol alone, as ``benchmarks/bench.py`` measures it (``legal_actions`` + ``apply``
  on a state made with ``log=False``): a raw engine decision;
* ``pettingzoo``: the AEC loop every PettingZoo user writes: ``last()`` (the acting agent's
  observation and mask), then ``step``;
* ``gymnasium``: ``step`` with the learner's observation after each of its decisions; random agents in
  the other seats;
* ``openspiel``: ``apply_action`` with the acting player's observation read the way OpenSpiel's own
  Python code does (``make_observation(game)``, ``set_from(state, player)``, the numpy ``tensor``),
  the game as loaded by default (information states are worked out only when asked for);
* ``vector``: the vectorised environment with 64 games stepped together, the learner's
  observation and mask batched (``copy=True``, the default; ``vector_nocopy`` with ``copy=False``);
* ``multi``: the vectorised self-play environment (``multiagent_vector_env``, every seat a learner)
  with 64 games: one decision per game per step, each with the deciding seat's observation
  (the PettingZoo loop, batched);
* ``rlcard_uno``: the peer: RLCard's UNO environment loop (``env.step`` extracts the next player's
  state, ``legal_actions`` and encoded ``obs``, at every step), measured in the same run.

The targets (issue 22), as ratios printed per row: a single-environment step with its observation
costs at most 3x a raw engine decision (``engine rate / mode rate``: PettingZoo, Gymnasium,
OpenSpiel); the vectorised environment runs at least 1.5x the Gymnasium environment's rate; the
PettingZoo and Gymnasium rates are at least RLCard UNO's. The machine's load average is printed with
the table; rates are decisions per second of the process's CPU time (``--clock wall`` for time on
the wall), which the other processes of a shared machine barely move: still compare ratios, not
absolute rates. ``--json FILE`` writes the numbers. RLCard comes with
``pip install '.[rl-bench]'``; without it that column is left out.

    python benchmarks/rl_bench.py                    # every game and configuration
    python benchmarks/rl_bench.py --game mephisto --seconds 2 --json out.json
    python benchmarks/rl_bench.py --quick --game doctor-strange
    python benchmarks/rl_bench.py --first --blind    # the same without the observers' work (diagnosis)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cardtable
from cardtable.buildinfo import describe
from cardtable.engine import Game, Rng
from cardtable.testing.conformance import config_label, configurations

ROOT = Path(__file__).resolve().parent.parent

MODES = (
    "engine",
    "pettingzoo",
    "gymnasium",
    "openspiel",
    "vector",
    "vector_nocopy",
    "multi",
    "rlcard_uno",
)
SINGLE = ("pettingzoo", "gymnasium", "openspiel")
"""The single-environment modes the 3x target is about."""
TARGET = 3.0
VECTOR_TARGET = 1.5
ENVS = 64
LABELS = {
    "engine": "engine",
    "pettingzoo": "PettingZoo",
    "gymnasium": "Gymnasium",
    "openspiel": "OpenSpiel",
    "vector": f"vector ({ENVS})",
    "vector_nocopy": f"vector ({ENVS}, copy=False)",
    "multi": f"self-play vector ({ENVS})",
    "rlcard_uno": "RLCard UNO",
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


def pettingzoo_games(game_id: str, options: dict[str, Any]) -> Games:
    import cardtable.rl

    env = cardtable.rl.env(game_id, **options)
    rng = Rng(1)
    seed = 0
    while True:
        env.reset(seed=seed)
        seed += 1
        n = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
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


def openspiel_games(game_id: str, options: dict[str, Any]) -> Games:
    from open_spiel.python.observation import make_observation

    import cardtable.rl

    game = cardtable.rl.spiel_game(game_id, **options)
    observer = make_observation(game)
    rng = Rng(1)
    while True:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            observer.set_from(state, state.current_player())  # observer.tensor: the vector
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
            n += 1
        yield n


def vector_games(game_id: str, options: dict[str, Any], copy: bool) -> Games:
    """Steps of the vectorised environment; yields every seat's decisions of each step (all rows)."""
    import numpy as np

    import cardtable.rl

    envs = cardtable.rl.vector_env(game_id, ENVS, opponents="random", copy=copy, **options)
    envs.reset(seed=0)
    rows = envs._rows
    assert rows is not None
    tables = rows.tables
    rng = Rng(1)
    total = sum(t.decisions for t in tables)
    actions = np.empty(ENVS, dtype=np.int64)
    while True:
        masks = envs.arrays["action_mask"]
        for i in range(ENVS):
            legal = masks[i].nonzero()[0]
            actions[i] = legal[rng.below(len(legal))]
        envs.step(actions)
        now = sum(t.decisions for t in tables)
        yield now - total
        total = now


def multi_games(game_id: str, options: dict[str, Any]) -> Games:
    """Steps of the vectorised self-play environment (every seat a learner): each step is one decision
    per row, with the deciding seat's observation and mask batched."""
    import numpy as np

    import cardtable.rl

    envs = cardtable.rl.multiagent_vector_env(game_id, ENVS, **options)
    envs.reset(seed=0)
    rng = Rng(1)
    while True:
        actions = np.empty(ENVS, dtype=np.int64)
        masks = envs.masks
        for i in range(ENVS):
            legal = masks[i].nonzero()[0]
            actions[i] = legal[rng.below(len(legal))]
        envs.step(actions)
        yield ENVS


def rlcard_games() -> Games:
    import rlcard

    env = rlcard.make("uno", config={"seed": 0})
    rng = Rng(1)
    while True:
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.below(len(legal))])
            n += 1
        yield n


def blind_observers() -> None:
    """Make every environment's observer write nothing (``--blind``): what is left of a step is the
    interface's own work, the engine's and the user loop's, so a run with and one without tell the
    observer's share apart. A diagnosis only: the observations are all zeros."""
    import cardtable.rl.gym_env
    import cardtable.rl.openspiel_game
    import cardtable.rl.pettingzoo_env
    import cardtable.rl.vector
    import cardtable.rl.vector_multi
    from cardtable.rl import observe

    real = observe.observer_for

    class Blind(observe.Observer):
        def write(self, state: Any, seat: int, out: Any) -> None:
            pass

        def update(self, state: Any, seat: int, tracker: Any) -> Any:
            return tracker.vector

    def blind_for(game: Any, encoder: Any = "auto", observe_kind: str = "auto") -> observe.Observer:
        return Blind(real(game, encoder, observe_kind).encoder)

    for module in (
        cardtable.rl.gym_env,
        cardtable.rl.openspiel_game,
        cardtable.rl.pettingzoo_env,
        cardtable.rl.vector,
        cardtable.rl.vector_multi,
    ):
        module.observer_for = blind_for  # type: ignore[attr-defined]


def games_for(mode: str, game_id: str, options: dict[str, Any]) -> Games:
    if mode == "engine":
        return engine_games(cardtable.load(game_id, **options))
    if mode == "pettingzoo":
        return pettingzoo_games(game_id, options)
    if mode == "gymnasium":
        return gymnasium_games(game_id, options)
    if mode == "openspiel":
        return openspiel_games(game_id, options)
    if mode in ("vector", "vector_nocopy"):
        return vector_games(game_id, options, copy=mode == "vector")
    if mode == "multi":
        return multi_games(game_id, options)
    return rlcard_games()


def _worker(conn: Any, mode: str, game_id: str, options: dict[str, Any], clock: str) -> None:
    """One mode in a process of its own: each message is a burst's seconds (None: stop); the answer is
    the decisions played and the time they took (whole games, at least the burst)."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    stream = games_for(mode, game_id, options)
    conn.send("ready")
    while True:
        burst = conn.recv()
        if burst is None:
            break
        decisions = 0
        start = now()
        while True:
            decisions += next(stream)
            elapsed = now() - start
            if elapsed >= burst:
                break
        conn.send((decisions, elapsed))
    conn.close()


def measure(
    game_id: str, options: dict[str, Any], seconds: float, modes: tuple[str, ...], rounds: int, clock: str = "cpu"
) -> dict[str, Any]:
    """Decisions per second per mode. Each mode runs in a process of its own (a user's process holds
    one environment, not the benchmark's eight: another mode's live objects would slow its garbage
    collection), and the modes take turns in ``rounds`` bursts (whole games, about ``seconds / rounds``
    each; one process runs at a time), so a machine whose load changes slows them all alike and the
    ratios hold. ``clock="cpu"`` (the default) times each process's CPU time, which other processes on
    a shared machine barely move; ``"wall"`` the time on the wall."""
    context = multiprocessing.get_context("fork")
    workers = {}
    for mode in modes:
        parent, child = context.Pipe()
        process = context.Process(target=_worker, args=(child, mode, game_id, options, clock), daemon=True)
        process.start()
        child.close()
        workers[mode] = (parent, process)
    for parent, _ in workers.values():
        parent.recv()  # "ready": every environment is built before any is timed
    decisions = dict.fromkeys(modes, 0)
    spent = dict.fromkeys(modes, 0.0)
    burst = seconds / rounds
    try:
        for _ in range(rounds):
            for mode in modes:
                parent, _ = workers[mode]
                parent.send(burst)
                n, elapsed = parent.recv()
                decisions[mode] += n
                spent[mode] += elapsed
    finally:
        for parent, process in workers.values():
            parent.send(None)
            process.join()
    rates = {mode: decisions[mode] / spent[mode] for mode in modes}
    row: dict[str, Any] = {"game": game_id, "config": config_label(options), "decisions_per_s": rates}
    if "engine" in rates:
        row["overhead"] = {m: rates["engine"] / r for m, r in rates.items() if m not in ("engine", "rlcard_uno")}
    if "vector" in rates and "gymnasium" in rates:
        row["vector_speedup"] = {m: rates[m] / rates["gymnasium"] for m in ("vector", "vector_nocopy") if m in rates}
    if "rlcard_uno" in rates:
        row["vs_rlcard"] = {m: rates[m] / rates["rlcard_uno"] for m in ("pettingzoo", "gymnasium") if m in rates}
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
    """One row per game and configuration: the engine's rate, each mode's overhead (engine rate / mode
    rate), the vector speed-up over Gymnasium and the ratios to RLCard UNO, then the targets met."""
    head = ["game", "configuration"]
    if "engine" in modes:
        head.append("engine decisions/s")
    shown = [m for m in modes if m not in ("engine", "rlcard_uno")]
    head += [f"{LABELS[m]} (x engine)" for m in shown]
    if "vector" in modes and "gymnasium" in modes:
        head.append("vector / Gymnasium")
    if "rlcard_uno" in modes:
        head.append("PettingZoo, Gymnasium / RLCard UNO")
    head.append("targets met")
    lines = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * (len(head) - 2)]
    for row in rows:
        rates = row["decisions_per_s"]
        overhead = row.get("overhead", {})
        cells = [row["game"], row["config"]]
        if "engine" in modes:
            cells.append(_fmt(rates["engine"]))
        cells += [f"{overhead[m]:.1f}x" if m in overhead else _fmt(rates[m]) for m in shown]
        met = []
        if "vector_speedup" in row:
            speedup = row["vector_speedup"]
            cells.append(" / ".join(f"{v:.2f}" for v in speedup.values()))
            met.append(f"vector {'yes' if max(speedup.values()) >= VECTOR_TARGET else 'no'}")
        if "vs_rlcard" in row:
            cells.append(" / ".join(f"{v:.2f}" for v in row["vs_rlcard"].values()))
            met.append(f"peer {'yes' if min(row['vs_rlcard'].values()) >= 1.0 else 'no'}")
        single = [overhead[m] for m in SINGLE if m in overhead]
        if single:
            met.insert(0, f"3x {'yes' if max(single) <= TARGET else 'no'} ({max(single):.1f}x)")
        cells.append(", ".join(met))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary(rows: list[dict[str, Any]]) -> str:
    """The targets over every row measured: per target, how many configurations meet it and the
    range of the ratio (worst first)."""
    lines = []
    for mode in SINGLE:
        values = [row["overhead"][mode] for row in rows if mode in row.get("overhead", {})]
        if values:
            met = sum(v <= TARGET for v in values)
            lines.append(
                f"{LABELS[mode]} step / engine decision (target <= {TARGET:g}x): {max(values):.1f}x to "
                f"{min(values):.1f}x, met in {met} of {len(values)} configurations"
            )
    for field, peer, target, modes in (
        ("vector_speedup", "Gymnasium", VECTOR_TARGET, ("vector", "vector_nocopy")),
        ("vs_rlcard", "RLCard UNO", 1.0, ("pettingzoo", "gymnasium")),
    ):
        ratios = [row[field] for row in rows if field in row]
        for mode in modes:
            values = [r[mode] for r in ratios if mode in r]
            if values:
                met = sum(v >= target for v in values)
                lines.append(
                    f"{LABELS[mode]} / {peer} (target >= {target:g}): {min(values):.2f} to {max(values):.2f}, "
                    f"met in {met} of {len(values)} configurations"
                )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    parser.add_argument("--quick", action="store_true", help="0.2 s per measurement")
    parser.add_argument("--rounds", type=int, default=4, help="bursts per mode, taken in turns")
    parser.add_argument("--modes", default=",".join(MODES), help=f"comma-separated, of: {', '.join(MODES)}")
    parser.add_argument("--first", action="store_true", help="only each game's first configuration")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="time CPU time (default) or wall time")
    parser.add_argument(
        "--blind",
        action="store_true",
        help="observers write nothing (a diagnosis: the observer's share of a step, by difference)",
    )
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument("--json-only", action="store_true", help="print the JSON rather than the table")
    args = parser.parse_args(argv)
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        parser.error(f"unknown mode(s) {', '.join(unknown)}; known: {', '.join(MODES)}")
    if "rlcard_uno" in modes and importlib.util.find_spec("rlcard") is None:
        print("RLCard is not installed (pip install '.[rl-bench]'): its column is left out", file=sys.stderr)
        modes = tuple(m for m in modes if m != "rlcard_uno")
    if args.blind:
        blind_observers()  # before the workers fork, so each inherits it
    seconds = 0.2 if args.quick else args.seconds
    games = args.game or cardtable.available()
    rows = []
    start_load = load()
    for game_id in games:
        for options in configurations(game_id)[: 1 if args.first else None]:
            row = measure(game_id, options, seconds, modes, args.rounds, args.clock)
            rows.append(row)
            rates = ", ".join(f"{LABELS[m]} {_fmt(r)}" for m, r in row["decisions_per_s"].items())
            print(f"{game_id} {row['config']}: decisions/s: {rates}", file=sys.stderr, flush=True)
    if args.json_only:
        print(json.dumps(rows, indent=2))
    else:
        print(markdown(rows, modes))
        print()
        print(summary(rows))
        if args.blind:
            print("\n--blind: the observers wrote nothing (a diagnosis, not the targets' measure)")
        print(f"\nbuild: {describe()}; load average (1, 5, 15 min) at the start: {start_load}; at the end: {load()}")
    if args.json:
        meta = {
            "build": describe(),
            "python": platform.python_version(),
            "machine": platform.machine(),
            "seconds": seconds,
            "envs": ENVS,
            "clock": args.clock,
            "load_start": start_load,
            "load_end": load(),
            "blind": args.blind,
        }
        args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
