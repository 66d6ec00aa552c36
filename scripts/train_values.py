"""Fit a game's learned position value (:mod:`cardtable.agents.values`) by self-play, on the CPU.

    python scripts/train_values.py doctor-strange --games 4000 --seed 1
    python scripts/train_values.py army-of-darkness --players 4 --games 2000 --seed 1

It plays ``--games`` games of the game's heuristic against itself, each decision with a choice taken at
random with probability ``--epsilon`` (so the positions a search reaches, after random rollout moves,
are covered too), keeps each position with probability ``--keep`` with every seat's
``value_features`` and the game's winner, and fits the conditional logit of
:mod:`cardtable.agents.values` by Newton's method with a small L2 penalty (NumPy, needed here only).
Everything is drawn from ``--seed``: the same command writes the same file. The weights, with how they
were made and how well they predict held-out games (log loss against the even-chance baseline, and
accuracy), go to ``src/cardtable/agents/data/<game>-<players>p.json`` (``--out`` to write elsewhere).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import cardtable
from cardtable.agents import Observation, make_agent
from cardtable.agents.hooks import heuristic_module
from cardtable.agents.values import FORMAT, data_name
from cardtable.engine import Rng

DATA = Path(__file__).resolve().parent.parent / "src" / "cardtable" / "agents" / "data"


def play(
    game: cardtable.Game, seed: int, epsilon: float, keep: float, features: Any, hand_made: Any
) -> list[tuple[Any, int, Any]]:
    """One self-play game: the kept positions (every seat's features, and the hand-made evaluation's
    chances where the game has one) and the winner (-1: none)."""
    r = Rng(seed ^ 0x7A1E)
    agents = [make_agent("heuristic", game, seed * 31 + s) for s in range(game.players)]
    state = game.new(seed, log=False)
    kept: list[Any] = []
    decisions = 0
    while not state.is_over and decisions < 20_000:
        legal = state.legal_actions()
        if len(legal) > 1 and r.below(1 << 20) < keep * (1 << 20):
            kept.append((features(state), hand_made(state) if hand_made is not None else None))
        if len(legal) == 1:
            action = legal[0]
        elif r.below(1 << 20) < epsilon * (1 << 20):
            action = legal[r.below(len(legal))]
        else:
            seat = state.current_player
            assert seat is not None
            action = agents[seat].choose(Observation(state, seat))
        state.apply(action)
        decisions += 1
    winners = state.result().winners if state.is_over else ()
    winner = winners[0] if len(winners) == 1 else -1
    return [(f, winner, h) for f, h in kept] if winner >= 0 else []


def fit(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 50) -> np.ndarray:
    """Conditional logit: ``x[n, seat, feature]``, ``y[n]`` the winning seat; Newton's method."""
    n, _seats, k = x.shape
    w = np.zeros(k)
    for _ in range(steps):
        scores = x @ w  # n, seats
        scores -= scores.max(axis=1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("ns,nsk->nk", p, x)
        grad = (x[np.arange(n), y] - mean).sum(axis=0) - l2 * n * w
        second = np.einsum("ns,nsk,nsj->kj", p, x, x) - np.einsum("nk,nj->kj", mean, mean)
        hess = second + l2 * n * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    scores = x @ w
    scores -= scores.max(axis=1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=1, keepdims=True)
    n = len(y)
    loss = float(-np.log(p[np.arange(n), y] + 1e-12).mean())
    accuracy = float((p.argmax(axis=1) == y).mean())
    return loss, accuracy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epsilon", type=float, default=0.15, help="chance of a random move (default 0.15)")
    parser.add_argument("--keep", type=float, default=0.2, help="share of positions kept (default 0.2)")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--holdout", type=float, default=0.2, help="share of games held out to test the fit")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    game = cardtable.load(args.game, players=args.players)
    module = heuristic_module(game.id)
    features = getattr(module, "value_features", None)
    names = tuple(getattr(module, "VALUE_FEATURES", ()))
    if features is None or not names:
        print(f"{game.id}: its heuristic module defines no value_features / VALUE_FEATURES", file=sys.stderr)
        return 2
    start = time.perf_counter()
    hand_made = getattr(module, "rollout_rewards", None)
    train: list[tuple[Any, int, Any]] = []
    test: list[tuple[Any, int, Any]] = []
    split = int(args.games * (1 - args.holdout))
    for i in range(args.games):
        rows = play(game, args.seed * 1_000_003 + i, args.epsilon, args.keep, features, hand_made)
        (train if i < split else test).extend(rows)
        if (i + 1) % max(1, args.games // 20) == 0:
            print(f"\r{i + 1}/{args.games} games, {len(train) + len(test)} positions", end="", file=sys.stderr)
    print(file=sys.stderr)
    xs = np.array([f for f, _, _ in train], dtype=float)
    ys = np.array([y for _, y, _ in train], dtype=int)
    w = fit(xs, ys, args.l2)
    xt = np.array([f for f, _, _ in test], dtype=float)
    yt = np.array([y for _, y, _ in test], dtype=int)
    loss, accuracy = log_loss(xt, yt, w) if len(yt) else (math.nan, math.nan)
    # The hand-made evaluation on the same held-out positions (its chances normalised to add up to 1).
    hand_loss = math.nan
    if hand_made is not None and len(yt):
        chances = np.array([h for _, _, h in test], dtype=float) + 1e-9
        chances /= chances.sum(axis=1, keepdims=True)
        hand_loss = float(-np.log(chances[np.arange(len(yt)), yt]).mean())
    even = math.log(game.players)
    out = {
        "format": FORMAT,
        "game": game.id,
        "players": game.players,
        "features": list(names),
        "weights": [round(float(v), 6) for v in w],
        "trained": {
            "script": "scripts/train_values.py",
            "games": args.games,
            "seed": args.seed,
            "epsilon": args.epsilon,
            "keep": args.keep,
            "l2": args.l2,
            "positions": len(train),
            "held_out_positions": len(test),
            "held_out_log_loss": round(loss, 4),
            "even_chance_log_loss": round(even, 4),
            "held_out_accuracy": round(accuracy, 4),
            "hand_made_log_loss": round(hand_loss, 4),
            "seconds": round(time.perf_counter() - start, 1),
        },
    }
    path = args.out or DATA / data_name(game.id, game.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(
        f"{path}: log loss {loss:.3f} (even chance {even:.3f}, hand-made evaluation {hand_loss:.3f}), "
        f"accuracy {accuracy:.3f} on held-out games"
    )
    for name, value in zip(names, w, strict=True):
        print(f"  {name:>20} {value:+.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
