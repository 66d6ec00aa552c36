#!/usr/bin/env python
"""Where an RL step's time goes, per game: the raw engine decision, the engine part of a step, the
observer and the wrapper, each on the same decisions.

For each game (its first configuration, or ``--all``) a few random games are played once and their
action indices recorded; every layer then replays exactly those decisions, so the differences between
layers are the added work and nothing else:

* ``engine``: ``legal_actions`` + ``apply`` on a state made with ``log=False`` (a raw decision, as
  ``benchmarks/bench.py`` and ``rl_bench.py`` measure it);
* ``episode``: the same through :class:`cardtable.rl.episode.Episode` (``legal_indices`` + ``apply``
  by index: the limits, the index lookup, the legal indices an environment needs): the engine part of
  a step;
* ``observer``: ``episode`` plus the deciding seat's observation brought up to date in its buffer
  (``Observer.update``), as every single environment does at each decision;
* ``handed``: ``observer`` plus what an AEC ``observe()`` hands out with it: the observation's copy and
  the seat's mask array (the API's part of ``last()``, apart from its bookkeeping);
* ``pettingzoo``: the PettingZoo AEC loop (``agent_iter``, ``last()``, ``step``) on the same actions;
* ``openspiel``: ``apply_action`` plus ``make_observation(game).set_from`` (the numpy tensor).

The Gymnasium step is measured beside ``Table.step`` (the learner's table, without the Gymnasium
object) on the same seeds with random opponents: what is left is ``env.step``'s own work (the
observation dict and its copies). Rates are per decision of every seat; each layer runs ``--repeats``
times, interleaved, and the best (least disturbed) time is kept: compare the columns of one run, on a
shared machine numbers move between runs.

``--vector N`` takes the vectorised environment apart instead, on the same decisions: ``--steps``
steps of ``vector_env(game, N)`` (random opponents, the learner's actions from a seeded generator)
are recorded (each row's games: their seeds and the learner's actions), then replayed

* ``single``: through one Gymnasium environment, game after game (``reset(seed)``, ``step``);
* ``tables``: through N learner tables stepped in lockstep, a row at a time, as the vector steps
  them, without the vector environment (what N live games cost by themselves);
* ``vector`` and ``vector_nocopy``: through the vectorised environment (``copy=True``, the default, and
  ``copy=False``),

and each is printed as the single environment's time per decision over its own: the speed-up of
batching (the target is 1.5), and what the N live games (``tables``) and the batch's copies
(``vector`` against ``vector_nocopy``) cost.

    python benchmarks/rl_breakdown.py                 # every game's first configuration
    python benchmarks/rl_breakdown.py --game mephisto --games 20 --repeats 5
    python benchmarks/rl_breakdown.py --vector 64 --all --steps 60
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import cardtable
from cardtable.buildinfo import describe
from cardtable.engine import Rng
from cardtable.testing.conformance import config_label, configurations

Layer = Callable[[], int]
"""Replays the recorded games once; returns the decisions made."""


def record(game_id: str, options: dict[str, Any], games: int) -> list[tuple[int, list[int]]]:
    """``games`` random games (seed, action indices), with the environments' default limits."""
    from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS

    game = cardtable.load(game_id, **options)
    rng = Rng(7)
    out = []
    for seed in range(games):
        state = game.new(seed, log=False)
        turn, turn_steps = state.turn, 0
        indices: list[int] = []
        while not state.is_over and len(indices) < (MAX_STEPS or 10**9):
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            indices.append(action.index)
            state.apply(action)
            if state.turn != turn:
                turn, turn_steps = state.turn, 0
            turn_steps += 1
            if MAX_TURN_STEPS is not None and turn_steps >= MAX_TURN_STEPS:
                break
        out.append((seed, indices))
    return out


def layers(game_id: str, options: dict[str, Any], games: list[tuple[int, list[int]]]) -> dict[str, Layer]:
    from open_spiel.python.observation import make_observation

    import cardtable.rl
    from cardtable.rl.episode import Episode
    from cardtable.rl.observe import observer_for
    from cardtable.rl.spaces import ActionCodec

    game = cardtable.load(game_id, **options)
    items = game.actions.items
    observer = observer_for(game)
    codec = ActionCodec(game)
    trackers: dict[int, Any] = {}

    def engine() -> int:
        n = 0
        for seed, indices in games:
            state = game.new(seed, log=False)
            for i in indices:
                state.legal_actions()
                state.apply(items[i])
            n += len(indices)
        return n

    def episode() -> int:
        n = 0
        for seed, indices in games:
            ep = Episode(game, observer, codec, seed)
            for i in indices:
                ep.legal_indices()
                ep.apply(i)
            n += len(indices)
        return n

    def observed() -> int:
        n = 0
        for seed, indices in games:
            ep = Episode(game, observer, codec, seed, trackers=trackers)
            state = ep.state
            for i in indices:
                seat = state.current_player
                assert seat is not None
                ep.observed(seat)
                ep.legal_indices()
                ep.apply(i)
            n += len(indices)
        return n

    def handed() -> int:
        n = 0
        for seed, indices in games:
            ep = Episode(game, observer, codec, seed, trackers=trackers)
            state = ep.state
            for i in indices:
                seat = state.current_player
                assert seat is not None
                ep.observed(seat).copy()
                ep.mask(seat)
                ep.legal_indices()
                ep.apply(i)
            n += len(indices)
        return n

    aec = cardtable.rl.env(game_id, **options)

    def pettingzoo() -> int:
        n = 0
        for seed, indices in games:
            aec.reset(seed=seed)
            it = iter(indices)
            for _agent in aec.agent_iter():
                _obs, _, terminated, truncated, _ = aec.last()
                if terminated or truncated:
                    aec.step(None)
                    continue
                aec.step(next(it))
                n += 1
        return n

    spiel = cardtable.rl.spiel_game(game_id, **options)
    spiel_observer = make_observation(spiel)

    def openspiel() -> int:
        n = 0
        for seed, indices in games:
            spiel._upcoming = seed  # deal this seed (the game's own sequence otherwise)
            state = spiel.new_initial_state()
            for i in indices:
                spiel_observer.set_from(state, state.current_player())
                state.legal_actions()
                state.apply_action(i)
            n += len(indices)
        return n

    return {
        "engine": engine,
        "episode": episode,
        "observer": observed,
        "handed": handed,
        "pettingzoo": pettingzoo,
        "openspiel": openspiel,
    }


def gym_layers(game_id: str, options: dict[str, Any], games: int) -> dict[str, Layer]:
    """``Table.step`` and ``env.step`` on the same seeds and random opponents (the learner in seat 0,
    its actions from a generator seeded alike in both)."""
    import cardtable.rl

    env = cardtable.rl.gymnasium_env(game_id, opponents="random", seat=0, **options)
    table = env.table

    def through_table() -> int:
        rng = Rng(3)
        n = 0
        for seed in range(games):
            env.reset(seed=seed)
            while True:
                legal = table.legal_indices()
                _, terminated, truncated, _ = table.step(legal[rng.below(len(legal))])
                if terminated or truncated:
                    break
            assert table.episode is not None
            n += table.episode.steps
        return n

    def through_env() -> int:
        rng = Rng(3)
        n = 0
        for seed in range(games):
            env.reset(seed=seed)
            while True:
                legal = table.legal_indices()
                _, _, terminated, truncated, _ = env.step(legal[rng.below(len(legal))])
                if terminated or truncated:
                    break
            assert table.episode is not None
            n += table.episode.steps
        return n

    return {"table_step": through_table, "gym_step": through_env}


def vector_layers(game_id: str, options: dict[str, Any], n: int, steps: int) -> dict[str, Layer]:
    """The vectorised environment and its peers on the same decisions (see the module docstring)."""
    import numpy as np

    import cardtable.rl
    from cardtable.rl.table import Table

    envs = {
        copy: cardtable.rl.vector_env(game_id, n, opponents="random", copy=copy, **options) for copy in (True, False)
    }
    recorder = envs[False]
    rows = recorder._rows
    assert rows is not None
    recorder.reset(seed=0)
    rng = Rng(1)
    plan: list[Any] = []
    games: list[list[tuple[int, list[int]]]] = [[(i, [])] for i in range(n)]  # per row: (seed, actions)
    for _ in range(steps):
        actions = np.array([t._masked[rng.below(len(t._masked))].index for t in rows.tables], dtype=np.int64)
        plan.append(actions)
        _, _, terminated, truncated, infos = recorder.step(actions)
        for i in range(n):
            games[i][-1][1].append(int(actions[i]))
        for row in np.flatnonzero(terminated | truncated).tolist():
            games[row].append((int(infos["seed"][row]), []))
    played = [g for row in games for g in row if g[1]]

    def through(copy: bool) -> Layer:
        env = envs[copy]
        assert env._rows is not None
        tables = env._rows.tables

        def run() -> int:
            env.reset(seed=0)
            before = sum(t.decisions for t in tables)
            for actions in plan:
                env.step(actions)
            return sum(t.decisions for t in tables) - before

        return run

    single = cardtable.rl.gymnasium_env(game_id, opponents="random", **options)

    def one_env() -> int:
        decisions = 0
        for seed, actions in played:
            single.reset(seed=seed)
            for a in actions:
                single.step(a)
            assert single.episode is not None
            decisions += single.episode.steps
        return decisions

    t = single.table
    tables = [
        Table(t.game, t.observer, t.codec, t.specs, max_steps=t.max_steps, max_turn_steps=t.max_turn_steps)
        for _ in range(n)
    ]

    def lockstep() -> int:
        decisions = 0
        queues = [list(row) for row in games]
        current: list[list[int]] = []
        for i, table in enumerate(tables):
            seed, actions = queues[i].pop(0)
            table.start(seed, 0)
            current.append(actions)
        at = [0] * n
        for _ in range(steps):
            for i, table in enumerate(tables):
                _, terminated, truncated, _ = table.step(current[i][at[i]])
                at[i] += 1
                if terminated or truncated:
                    decisions += table.live.steps
                    if queues[i]:
                        seed, actions = queues[i].pop(0)
                        table.start(seed, 0)
                        current[i], at[i] = actions, 0
        return decisions + sum(table.live.steps for table in tables if not table.over)

    return {"single": one_env, "tables": lockstep, "vector": through(True), "vector_nocopy": through(False)}


def best_rates(funcs: dict[str, Layer], repeats: int) -> dict[str, float]:
    best: dict[str, float] = {}
    for _ in range(repeats):
        for name, f in funcs.items():  # interleaved: a change of load touches every layer alike
            start = time.process_time()
            n = f()
            spent = time.process_time() - start
            best[name] = max(best.get(name, 0.0), n / spent)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--all", action="store_true", help="every configuration, not only the first")
    parser.add_argument("--games", type=int, default=10, help="random games replayed per layer")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved repeats (the best is kept)")
    parser.add_argument("--vector", type=int, metavar="N", help="take the vectorised environment of N apart instead")
    parser.add_argument("--steps", type=int, default=60, help="vector steps recorded and replayed (with --vector)")
    args = parser.parse_args(argv)
    if args.vector is not None:
        return vector_main(args)
    print(
        "| game | configuration | engine decision (us) | episode / engine | + observer | PettingZoo | OpenSpiel "
        "| observer (us) | observation copy + mask (us) | PettingZoo's bookkeeping (us) | Table.step / engine "
        "| Gymnasium | env.step's own (us) |"
    )
    print("|---|---|" + "---:|" * 11)
    for game_id in args.game or cardtable.available():
        for options in configurations(game_id)[: None if args.all else 1]:
            games = record(game_id, options, args.games)
            r = best_rates(layers(game_id, options, games), args.repeats)
            g = best_rates(gym_layers(game_id, options, args.games), args.repeats)
            us = {k: 1e6 / v for k, v in {**r, **g}.items()}
            e = us["engine"]
            gym_own = us["gym_step"] - us["table_step"]
            print(
                f"| {game_id} | {config_label(options)} | {e:.1f} | {us['episode'] / e:.2f}x "
                f"| {us['observer'] / e:.2f}x | {us['pettingzoo'] / e:.2f}x | {us['openspiel'] / e:.2f}x "
                f"| {us['observer'] - us['episode']:.1f} | {us['handed'] - us['observer']:.1f} "
                f"| {us['pettingzoo'] - us['handed']:.1f} "
                f"| {us['table_step'] / e:.2f}x | {us['gym_step'] / e:.2f}x | {gym_own:.1f} |",
                flush=True,
            )
    print(f"\nbuild: {describe()}", file=sys.stderr)
    return 0


def vector_main(args: argparse.Namespace) -> int:
    n = args.vector
    if n < 1:
        raise SystemExit("--vector needs at least one environment")
    print(
        f"| game | configuration | single env decision (us) | {n} tables in lockstep | vector ({n}) "
        f"| vector ({n}, copy=False) |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for game_id in args.game or cardtable.available():
        for options in configurations(game_id)[: None if args.all else 1]:
            funcs = vector_layers(game_id, options, n, args.steps)
            decisions = funcs["single"]()  # the decisions every layer replays (and a warm-up)
            best: dict[str, float] = {}
            for _ in range(args.repeats):
                for name, f in funcs.items():
                    start = time.process_time()
                    f()
                    best[name] = min(best.get(name, float("inf")), time.process_time() - start)
            # Each replays the same decisions (the vector and the tables also deal the next game of a
            # row whose game ended, up to its learner's first decision): the single environment's
            # time over each layer's, for the same work.
            ratio = {k: best["single"] / v for k, v in best.items()}
            per = 1e6 * best["single"] / decisions
            print(
                f"| {game_id} | {config_label(options)} | {per:.1f} | {ratio['tables']:.2f}x "
                f"| {ratio['vector']:.2f}x | {ratio['vector_nocopy']:.2f}x |",
                flush=True,
            )
    print(f"\nbuild: {describe()}; rates relative to the single environment's (> 1: faster)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
