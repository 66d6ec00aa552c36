#!/usr/bin/env python
"""Train a masked policy on a cardtable game with Stable-Baselines3 + sb3-contrib's MaskablePPO (CPU).

The learner plays one seat of the Gymnasium environment (``cardtable.rl.gym_env``) against the random
agent in every other seat, its seat drawn anew each episode; illegal actions are masked out (the
environment's ``action_masks()``). After ``--steps`` training steps (or ``--minutes``, whichever comes
first; with the same seed, the same steps give the same policy on any machine) it plays ``--eval-games``
fresh games (new seeds, seats alternating) against the random agent, choosing deterministically among
legal actions, and reports its win rate with a 95% Wilson interval; the random agent in its place is
the baseline. It writes the training curve (rolling win rate over training games) as a PNG and the
numbers as JSON.

    pip install '.[rl-train]'
    python examples/train_maskable_ppo.py --game mephisto --players 2 --steps 60000
    python examples/train_maskable_ppo.py --smoke          # 256 steps and 2 games, no files (the test suite)

Defaults write ``docs/rl-training-curve.png`` and ``docs/rl-training.json``.
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

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def make_env(game: str, options: dict[str, Any], seed: int) -> Any:
    from sb3_contrib.common.wrappers import ActionMasker
    from stable_baselines3.common.monitor import Monitor

    import cardtable.rl

    env = cardtable.rl.gymnasium_env(game, opponents="random", seat=None, **options)
    env.reset(seed=seed)
    # Monitor records each training game's reward (the curve); ActionMasker hands the mask to the policy.
    return ActionMasker(Monitor(env), lambda e: e.unwrapped.action_masks())


def evaluate(
    game: str, options: dict[str, Any], games: int, seed: int, model: Any | None
) -> tuple[int, int, int, float]:
    """Play ``games`` games against random opponents (seats alternating); returns (wins, draws, losses,
    seconds). ``model`` None plays the random agent in the learner's seat (the baseline)."""
    import cardtable.rl

    players = cardtable.load(game, **options).players
    wins = draws = losses = 0
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for g in range(games):
        env = cardtable.rl.gymnasium_env(game, opponents="random", seat=g % players, **options)
        obs, _ = env.reset(seed=seed + g)
        while True:
            mask = env.action_masks()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                break
        if reward > 0:
            wins += 1
        elif reward < 0:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses, time.perf_counter() - start


def rolling(values: Sequence[float], window: int) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if len(v) < window:
        return np.array([])
    c = np.cumsum(np.insert(v, 0, 0.0))
    return (c[window:] - c[:-window]) / window


def plot(curve_x: np.ndarray, curve_y: np.ndarray, window: int, summary: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=120)
    ax.plot(curve_x, 100 * curve_y, color="#1f77b4", lw=1.6, label=f"learner, win rate over the last {window} games")
    ax.axhline(50, color="grey", ls="--", lw=1, label="50%")
    base = summary["baseline"]
    ax.axhline(100 * base["win_rate"], color="#d62728", ls=":", lw=1.2, label="random agent in the same seat")
    ev = summary["evaluation"]
    ax.errorbar(
        [curve_x[-1] if len(curve_x) else 0],
        [100 * ev["win_rate"]],
        yerr=[[100 * (ev["win_rate"] - ev["low"])], [100 * (ev["high"] - ev["win_rate"])]],
        fmt="o",
        color="black",
        capsize=4,
        label=f"after training: {ev['games']} games, 95% interval",
    )
    ax.set_xlabel("training steps (the learner's decisions)")
    ax.set_ylabel("games won against random (%)")
    ax.set_ylim(0, 100)
    title = f"MaskablePPO on {summary['game']} ({summary['options_text']}) vs the random agent"
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="mephisto")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=60_000, help="training steps (the learner's decisions)")
    parser.add_argument("--minutes", type=float, default=30.0, help="wall-clock cap on training")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--window", type=int, default=200, help="games per point of the training curve")
    parser.add_argument("--png", type=Path, default=ROOT / "docs" / "rl-training-curve.png")
    parser.add_argument("--json", type=Path, default=ROOT / "docs" / "rl-training.json")
    parser.add_argument("--smoke", action="store_true", help="a few hundred steps, a few games, no files")
    args = parser.parse_args(argv)

    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
    except ImportError as exc:
        print(f"this example needs the rl-train extra: pip install '.[rl-train]' ({exc})", file=sys.stderr)
        return 2

    from cardtable.sim.stats import wilson

    torch.set_num_threads(1)
    options = {"players": args.players}
    env = make_env(args.game, options, args.seed)
    max_steps = 256 if args.smoke else args.steps
    deadline = float("inf")

    class Budget(BaseCallback):  # type: ignore[misc]
        """Stops training at the wall-clock deadline (or the smoke test's step count)."""

        def _on_step(self) -> bool:
            return time.perf_counter() < deadline and self.num_timesteps < max_steps

    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=128 if args.smoke else 2048,
        batch_size=64 if args.smoke else 256,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    started = time.perf_counter()
    if not args.smoke:
        deadline = started + 60.0 * args.minutes
    model.learn(total_timesteps=max_steps, callback=Budget())
    trained = time.perf_counter() - started
    monitor = env.env  # ActionMasker -> Monitor
    rewards = list(monitor.get_episode_rewards())
    lengths = np.cumsum(monitor.get_episode_lengths())
    window = min(args.window, max(1, len(rewards) // 4))
    curve = rolling([1.0 if r > 0 else 0.0 for r in rewards], window)
    curve_x = lengths[window - 1 :] if len(curve) else np.array([])

    games = 2 if args.smoke else args.eval_games
    eval_seed = 10**6 + args.seed  # seeds no training game used
    w, d, lo, secs = evaluate(args.game, options, games, eval_seed, model)
    bw, bd, bl, _ = evaluate(args.game, options, games, eval_seed, None)
    ev, base = wilson(w, games), wilson(bw, games)
    summary = {
        "game": args.game,
        "options": options,
        "options_text": ", ".join(f"{k}={v}" for k, v in options.items()),
        "opponents": "random",
        "training": {
            "seconds": round(trained, 1),
            "steps": int(model.num_timesteps),
            "games": len(rewards),
            "steps_per_second": round(model.num_timesteps / trained, 1),
        },
        "evaluation": {"games": games, "wins": w, "draws": d, "losses": lo, "win_rate": ev.estimate}
        | {"low": ev.low, "high": ev.high, "seconds": round(secs, 1)},
        "baseline": {"games": games, "wins": bw, "draws": bd, "losses": bl, "win_rate": base.estimate}
        | {"low": base.low, "high": base.high},
        "machine": f"{platform.machine()}, Python {platform.python_version()}, torch {torch.__version__}, 1 thread",
    }
    print(json.dumps(summary, indent=2))
    verdict = "above" if ev.low > 0.5 else "NOT above"
    print(
        f"\n{args.game}: MaskablePPO won {w} of {games} games against random "
        f"({ev.text(percent=True)}; the interval is {verdict} 50%); "
        f"the random agent won {bw} ({base.text(percent=True)})"
    )
    if not args.smoke:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
        plot(curve_x, curve, window, summary, args.png)
        print(f"wrote {args.json} and {args.png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
