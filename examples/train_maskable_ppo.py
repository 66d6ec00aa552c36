#!/usr/bin/env python
"""Train masked policies on cardtable games with sb3-contrib's MaskablePPO, on the vectorised environment.

For each game and each seed, the learner plays one seat (drawn anew each game) of ``--envs`` games at
once (:mod:`cardtable.rl.vector` behind :mod:`cardtable.rl.sb3`) against ``--opponents`` in the other
seats; illegal actions are masked out. After ``--steps`` training steps (the learner's decisions) it
plays ``--eval-games`` fresh games (seeds no training game used) choosing deterministically among its
legal actions, against the random agent and against the heuristic agent, and reports its win rate
with a 95% Wilson interval next to the random agent's in the same seats. Over the seeds it reports
the mean, the lowest and the highest win rate (the spread between seeds).

Everything goes to ``--out`` (default ``rl-runs``): per game and seed the training curve's numbers
(``progress.csv``), PPO's own numbers at each update (``ppo.csv``: losses, entropy, KL, clip
fraction), checkpoints (``checkpoints/step-N.zip``, every ``--checkpoint-every`` steps, ``final.zip``,
and ``imitated.zip`` after ``--imitate``) and ``summary.json``; per game a figure of the training
curves (``curve.png``) and ``results.json``; over all games ``results.md``. Progress is printed
as training goes.

    pip install '.[rl-train]' --extra-index-url https://download.pytorch.org/whl/cpu   # CPU torch
    python examples/train_maskable_ppo.py --games mephisto doctor-strange --seeds 0 1 2 --steps 40000
    python examples/train_maskable_ppo.py --games mr-card-game:players=2 --imitate 100 --reward win --ent-coef 0
    python examples/train_maskable_ppo.py --smoke      # a few hundred steps, 2 games each (the test suite)

``--imitate N`` first teaches the policy the moves of ``--imitate-agent`` (the heuristic agent) by
behaviour cloning: it plays N games in the learner's seat against the training opponents (seeds no
other game uses), and the policy is fitted to its choices (cross-entropy over the legal actions,
``--imitate-epochs`` passes; the value head to those games' returns) before PPO starts. It is what
makes Mr. Card Game learnable here: its random players never win, so PPO from scratch never sees a
won game (docs/rl.md).

A game is ``id`` or ``id:option=value,...`` (``mephisto:players=2``); a game without a ``players``
option plays with 2. ``--reward auto`` (the default) is ``shaped`` for Mr. Card Game, whose random
games have no winner (:mod:`cardtable.rl.shaping`), and ``win`` elsewhere; evaluations always count
the true result.

Determinism: one seed gives the same run on the same machine and library versions (one torch thread,
seeded environments and policy; the step budget, not the clock, ends training). Across machines or
versions the floating-point sums inside torch may differ, so a rerun elsewhere can differ in its
last digits and from there on in its choices: compare results across seeds, not single runs.
"""

from __future__ import annotations

import argparse
import csv
import json
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cardtable.cli.common import at_least


def parse_game(text: str) -> tuple[str, dict[str, Any]]:
    """``mephisto:players=2,teams=true`` -> ("mephisto", {"players": 2, "teams": True})."""
    game_id, _, rest = text.partition(":")
    options: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        options[key.strip()] = _value(value.strip())
    options.setdefault("players", 2)
    return game_id.strip(), options


def _value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def label(game_id: str, options: dict[str, Any]) -> str:
    return game_id + "".join(f"_{k}-{v}" for k, v in sorted(options.items()))


def reward_for(game_id: str, reward: str) -> str:
    if reward != "auto":
        return reward
    from cardtable.rl.shaping import POTENTIALS

    return "shaped" if game_id in POTENTIALS else "win"


def evaluate(
    game_id: str,
    options: dict[str, Any],
    opponents: str,
    games: int,
    seed: int,
    model: Any | None,
    envs: int = 16,
) -> dict[str, Any]:
    """Play ``games`` fresh games against ``opponents`` (the learner's seat drawn per game); ``model``
    None plays uniformly random legal actions (the baseline). Returns wins, draws, losses and the
    Wilson interval of the win rate."""
    import cardtable.rl
    from cardtable.sim.stats import wilson

    n = min(envs, games)
    reward = reward_for(game_id, "auto")  # shaped where there is a shaping: only to read the progress
    venv = cardtable.rl.vector_env(game_id, n, opponents=opponents, seat=None, copy=False, reward=reward, **options)
    obs, _ = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    wins = draws = losses = 0
    progress: list[float] = []
    started = n  # games begun: a row whose game ends starts a new one, counted only if still needed
    counting = np.ones(n, dtype=bool)
    while wins + draws + losses < games:
        masks = venv.action_masks()
        if model is None:
            actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        else:
            actions, _ = model.predict({k: v.copy() for k, v in obs.items()}, action_masks=masks, deterministic=True)
        obs, _, terminated, truncated, infos = venv.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            if counting[i]:
                final = infos["final_info"]
                true = float(final["true_reward"][i])
                if "progress" in final and final["_progress"][i]:
                    progress.append(float(final["progress"][i]))
                if true > 0:
                    wins += 1
                elif true < 0:
                    losses += 1
                else:
                    draws += 1
            counting[i] = started < games
            started += int(counting[i])
    venv.close()
    interval = wilson(wins, games)
    out: dict[str, Any] = {
        "opponents": opponents,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": interval.estimate,
        "low": interval.low,
        "high": interval.high,
    }
    if progress:
        out["progress"] = float(np.mean(progress))  # the shaping's progress at the end, 0..1
    return out


GAMMA = 0.995
"""PPO's discount, and the imitation's for the value head's targets."""


def _widened(values: np.ndarray) -> np.ndarray:
    return values.astype(np.float32) if values.dtype == np.float16 else values


IMITATION_SEED = 2 * 10**6
"""Imitation games are dealt from ``IMITATION_SEED + 10_000 * seed + g``: no training or evaluation
game uses those seeds."""


def imitate(model: Any, game_id: str, options: dict[str, Any], args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """Behaviour cloning: fit ``model``'s policy to the moves ``args.imitate_agent`` makes in the
    learner's seat over ``args.imitate`` games against ``args.opponents``: the policy's action
    distribution by masked cross-entropy, the value head to those games' discounted returns; PPO then
    goes on from it."""
    import torch

    import cardtable.rl
    from cardtable.agents.base import Observation
    from cardtable.agents.registry import make_agent

    started = time.perf_counter()
    env = cardtable.rl.gymnasium_env(game_id, opponents=args.opponents, seat=None, **options)
    columns: dict[str, list[np.ndarray]] = {}
    chosen: list[int] = []
    returns_list: list[float] = []
    wins = 0
    for g in range(args.imitate):
        obs, _ = env.reset(seed=IMITATION_SEED + 10_000 * seed + g)
        expert = make_agent(args.imitate_agent, env.episode.state.game, seed=IMITATION_SEED + g)
        rewards: list[float] = []
        while True:
            action = expert.choose(Observation(env.episode.state, env.seat)).index
            for key, value in obs.items():
                # float16 halves the memory (observations are 0..1; a Mr. Card Game one has 10,644 values).
                columns.setdefault(key, []).append(
                    value.astype(np.float16) if value.dtype == np.float32 else value.copy()
                )
            chosen.append(action)
            obs, reward, terminated, truncated, info = env.step(action)
            rewards.append(float(reward))
            if terminated or truncated:
                wins += float(info.get("true_reward", 0.0)) > 0
                break
        ahead = 0.0
        game_returns: list[float] = []
        for reward in reversed(rewards):  # each decision's discounted return, from the game's end
            ahead = reward + GAMMA * ahead
            game_returns.append(ahead)
        returns_list.extend(reversed(game_returns))
    env.close()
    data = {key: np.stack(values) for key, values in columns.items()}
    actions = np.array(chosen, dtype=np.int64)
    returns = np.array(returns_list, dtype=np.float32)
    policy = model.policy
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    order = np.arange(len(actions))
    rng = np.random.default_rng(seed)
    loss_per_epoch: list[float] = []
    for _ in range(args.imitate_epochs):
        rng.shuffle(order)
        total = 0.0
        for start in range(0, len(order), 256):
            batch = order[start : start + 256]
            obs_t = {k: torch.as_tensor(_widened(v[batch])) for k, v in data.items()}
            values, log_prob, _ = policy.evaluate_actions(
                obs_t, torch.as_tensor(actions[batch]), action_masks=torch.as_tensor(data["action_mask"][batch] > 0)
            )
            # The value head learns the imitated games' discounted returns too, so that PPO's first
            # advantages come from a critic that has seen won games rather than from noise.
            value_loss = torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(returns[batch]))
            cross_entropy = -log_prob.mean()
            loss = cross_entropy + 0.5 * value_loss
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(cross_entropy.detach()) * len(batch)
        loss_per_epoch.append(round(total / len(order), 4))
    # How well the fit went: among those decisions with a choice (two legal actions or more), the
    # share where the policy's likeliest legal action is the imitated agent's.
    agreed = choices = 0
    with torch.no_grad():
        for start in range(0, len(order), 1024):
            rows = np.arange(start, min(start + 1024, len(order)))
            masks = data["action_mask"][rows] > 0
            chose = masks.sum(axis=1) > 1
            obs_t = {k: torch.as_tensor(_widened(v[rows])) for k, v in data.items()}
            likeliest = policy.get_distribution(obs_t, action_masks=masks).distribution.probs.argmax(dim=1).numpy()
            agreed += int(((likeliest == actions[rows]) & chose).sum())
            choices += int(chose.sum())
    agreement = agreed / max(1, choices)
    fitted = f"{loss_per_epoch[0]} -> {loss_per_epoch[-1]}" if loss_per_epoch else "not fitted"
    seconds = time.perf_counter() - started
    print(
        f"  {game_id} seed {seed}: imitated {args.imitate_agent} over {args.imitate} games "
        f"({len(actions)} decisions, it won {wins}), {args.imitate_epochs} passes, "
        f"loss {fitted}, agrees on {agreement:.0%} of its choices, {seconds:.0f} s",
        flush=True,
    )
    return {
        "agent": args.imitate_agent,
        "games": args.imitate,
        "decisions": len(actions),
        "agent_wins": wins,
        "epochs": args.imitate_epochs,
        "loss": loss_per_epoch,
        "agreement": round(agreement, 4),
        "seconds": round(seconds, 1),
    }


def train_one(args: argparse.Namespace, game_id: str, options: dict[str, Any], seed: int, out: Path) -> dict[str, Any]:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import CSVOutputFormat, Logger

    from cardtable.rl.sb3 import CardtableSB3VecEnv

    reward = reward_for(game_id, args.reward)
    steps = 256 if args.smoke else args.steps
    n_envs = 4 if args.smoke else args.envs
    env = CardtableSB3VecEnv(
        game_id, n_envs, opponents=args.opponents, seat=None, reward=reward, workers=args.workers, **options
    )
    env.seed(seed * 100_000)
    checkpoints = out / "checkpoints"
    checkpoints.mkdir(parents=True, exist_ok=True)
    progress_path = out / "progress.csv"
    every = max(1, steps // 20)

    class Progress(BaseCallback):  # type: ignore[misc,unused-ignore]  # untyped without SB3's stubs
        """Records every finished training game and prints a line now and then; saves checkpoints."""

        def _on_training_start(self) -> None:
            self.games: list[tuple[int, float, float]] = []  # (step, true reward, shaped return)
            self.started = time.perf_counter()
            self.next_print = every
            self.next_save = args.checkpoint_every

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "episode" in info:
                    true = float(info.get("true_reward", info["episode"]["r"]))
                    self.games.append((self.num_timesteps, true, float(info["episode"]["r"])))
            if self.num_timesteps >= self.next_print:
                self.next_print += every
                recent = [g[1] for g in self.games[-200:]]
                rate = np.mean([r > 0 for r in recent]) if recent else float("nan")
                secs = time.perf_counter() - self.started
                print(
                    f"  {game_id} seed {seed}: {self.num_timesteps:>7}/{steps} steps, {len(self.games)} games, "
                    f"won {rate:.0%} of the last {len(recent)}, {self.num_timesteps / secs:.0f} steps/s",
                    flush=True,
                )
            if not args.smoke and self.num_timesteps >= self.next_save:
                self.next_save += args.checkpoint_every
                self.model.save(checkpoints / f"step-{self.num_timesteps}.zip")
            return bool(self.num_timesteps < steps)

    torch.set_num_threads(1)
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=32 if args.smoke else args.n_steps,
        batch_size=64 if args.smoke else 256,
        n_epochs=4,
        learning_rate=args.learning_rate,
        gamma=GAMMA,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    # PPO's own numbers at each update (losses, entropy, KL, clip fraction) go to ppo.csv in the run's
    # folder; without a logger of its own SB3 makes an empty SB3-<time> folder in the system's temp
    # directory at every learn().
    logger = Logger(folder=str(out), output_formats=[CSVOutputFormat(str(out / "ppo.csv"))])
    model.set_logger(logger)
    try:
        imitation = imitate(model, game_id, options, args, seed) if args.imitate > 0 else None
        if imitation is not None:
            model.save(checkpoints / "imitated.zip")  # the policy before PPO, to compare with
        callback = Progress()
        started = time.perf_counter()
        model.learn(total_timesteps=steps, callback=callback)
        logger.dump(model.num_timesteps)  # the last update's numbers (SB3 writes each at the next)
        trained = time.perf_counter() - started
    finally:
        logger.close()  # ppo.csv's file, which SB3 leaves open otherwise (a ResourceWarning at collection)
    model.save(checkpoints / "final.zip")
    env.close()
    with progress_path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["step", "true_reward", "return"])
        writer.writerows(callback.games)

    eval_games = 2 if args.smoke else args.eval_games
    eval_seed = 10**6 + 10_000 * seed  # seeds no training game used
    evaluations = {
        opp: evaluate(game_id, options, opp, eval_games, eval_seed, model, envs=n_envs) for opp in args.eval_against
    }
    summary = {
        "game": game_id,
        "options": options,
        "seed": seed,
        "reward": reward,
        "opponents": args.opponents,
        "training": {
            "steps": int(model.num_timesteps),
            "games": len(callback.games),
            "seconds": round(trained, 1),
            "steps_per_second": round(model.num_timesteps / trained, 1),
            "envs": n_envs,
            "learning_rate": args.learning_rate,
            "ent_coef": args.ent_coef,
        },
        "evaluation": evaluations,
    }
    if imitation is not None:
        summary["imitation"] = imitation
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def rolling(values: Sequence[float], window: int) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if len(v) < window:
        return np.array([])
    c: np.ndarray = np.cumsum(np.insert(v, 0, 0.0))
    means: np.ndarray = (c[window:] - c[:-window]) / window
    return means


def plot(game_dir: Path, title: str, runs: list[dict[str, Any]], baselines: dict[str, Any], window: int) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2), dpi=120)
    shaped = runs[0]["reward"] == "shaped"
    twin = ax.twinx() if shaped else None
    for k, run in enumerate(runs):
        rows = list(csv.DictReader((game_dir / f"seed-{run['seed']}" / "progress.csv").open()))
        steps = np.array([int(r["step"]) for r in rows])
        wins = [1.0 if float(r["true_reward"]) > 0 else 0.0 for r in rows]
        w = min(window, max(1, len(wins) // 4))
        curve = rolling(wins, w)
        if len(curve):
            ax.plot(steps[w - 1 :], 100 * curve, lw=1.3, color=f"C{k}", label=f"seed {run['seed']} (last {w} games)")
        if twin is not None:
            # With the shaped reward, the return (shaping included) shows what is being learned.
            returns = rolling([float(r["return"]) for r in rows], w)
            if len(returns):
                twin.plot(steps[w - 1 :], returns, lw=1.0, ls="--", color=f"C{k}", label=f"seed {run['seed']}: return")
    if twin is not None:
        twin.set_ylabel("training return (shaped), dashed")
        twin.legend(loc="center right", fontsize=7)
    colors = {"random": "#2ca02c", "heuristic": "#d62728"}
    for opp, base in baselines.items():
        ax.axhline(
            100 * base["win_rate"],
            color=colors.get(opp, "grey"),
            ls=":",
            lw=1.1,
            label=f"random agent in the seat, vs {opp}",
        )
        rates = [100 * r["evaluation"][opp]["win_rate"] for r in runs]
        x = max((r["training"]["steps"] for r in runs), default=0)
        ax.errorbar(
            [x],
            [np.mean(rates)],
            yerr=[[np.mean(rates) - min(rates)], [max(rates) - np.mean(rates)]],
            fmt="o",
            color=colors.get(opp, "black"),
            capsize=4,
            label=f"trained, vs {opp}: seeds' mean, min-max",
        )
    ax.set_xlabel("training steps (the learner's decisions)")
    ax.set_ylabel("games won (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="best", fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = game_dir / "curve.png"
    fig.savefig(path)
    plt.close(fig)
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=["mephisto:players=2", "doctor-strange"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument(
        "--steps", type=at_least(1), default=40_000, help="training steps per run (the learner's decisions)"
    )
    parser.add_argument("--envs", type=at_least(1), default=16, help="games stepped together")
    parser.add_argument("--workers", type=at_least(0), default=0, help="worker processes for the games (0: this one)")
    parser.add_argument("--n-steps", type=at_least(1), default=256, help="PPO rollout length per game")
    parser.add_argument("--opponents", default="random", help="training opponents: an agent spec")
    parser.add_argument("--eval-against", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--eval-games", type=at_least(1), default=300)
    parser.add_argument("--reward", default="auto", choices=["auto", "win", "shaped"])
    parser.add_argument("--learning-rate", type=float, default=3e-4, help="PPO's learning rate")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="PPO's entropy bonus")
    parser.add_argument(
        "--imitate", type=at_least(0), default=0, help="games of behaviour cloning before PPO (0: none)"
    )
    parser.add_argument("--imitate-agent", default="heuristic", help="the agent spec imitated")
    parser.add_argument("--imitate-epochs", type=at_least(0), default=10, help="passes over the imitated decisions")
    parser.add_argument("--checkpoint-every", type=at_least(1), default=10_000)
    parser.add_argument("--window", type=at_least(1), default=200, help="games per point of the training curves")
    parser.add_argument("--out", type=Path, default=Path("rl-runs"))
    parser.add_argument("--smoke", action="store_true", help="a few hundred steps and 2 games each, for tests")
    args = parser.parse_args(argv)

    try:
        import sb3_contrib  # noqa: F401
        import torch
    except ImportError as exc:
        print(f"this example needs the rl-train extra: pip install '.[rl-train]' ({exc})", file=sys.stderr)
        return 2

    report: list[dict[str, Any]] = []
    for spec in args.games:
        game_id, options = parse_game(spec)
        game_dir = args.out / label(game_id, options)
        print(
            f"{game_id} {options}: {len(args.seeds)} seed(s), {args.steps if not args.smoke else 256} steps each",
            flush=True,
        )
        runs = [train_one(args, game_id, options, seed, game_dir / f"seed-{seed}") for seed in args.seeds]
        eval_games = 2 if args.smoke else args.eval_games
        baselines = {opp: evaluate(game_id, options, opp, eval_games, 10**6, None) for opp in args.eval_against}
        result: dict[str, Any] = {
            "game": game_id,
            "options": options,
            "reward": runs[0]["reward"],
            "opponents": args.opponents,
            "steps": runs[0]["training"]["steps"],
            "seconds": [r["training"]["seconds"] for r in runs],
            "baseline": baselines,
            "runs": runs,
            "machine": f"{platform.machine()}, Python {platform.python_version()}, torch {torch.__version__}, 1 thread",
        }
        for opp in args.eval_against:
            rates = [r["evaluation"][opp]["win_rate"] for r in runs]
            result[f"vs_{opp}"] = {"mean": float(np.mean(rates)), "min": min(rates), "max": max(rates)}
        game_dir.mkdir(parents=True, exist_ok=True)
        (game_dir / "results.json").write_text(json.dumps(result, indent=2) + "\n")
        if not args.smoke:
            described = ", ".join(f"{k}={v}" for k, v in options.items())
            title = f"MaskablePPO on {game_id} ({described}), trained vs {args.opponents}"
            plot(game_dir, title, runs, baselines, args.window)
        report.append(result)
        for opp in args.eval_against:
            s = result[f"vs_{opp}"]
            base = baselines[opp]
            print(
                f"{game_id}: against {opp}, the trained policy won {s['mean']:.1%} of games over {len(runs)} seed(s) "
                f"(lowest {s['min']:.1%}, highest {s['max']:.1%}); the random agent {base['win_rate']:.1%}",
                flush=True,
            )
    lines = [
        "| game | reward | vs | trained: mean (min-max over seeds) | per seed, 95% interval | random agent |",
        "|---|---|---|---:|---|---:|",
    ]
    for result in report:
        for opp in args.eval_against:
            s = result[f"vs_{opp}"]
            per_seed = "; ".join(
                f"{ev['win_rate']:.1%} [{ev['low']:.1%}-{ev['high']:.1%}]"
                for ev in (r["evaluation"][opp] for r in result["runs"])
            )
            lines.append(
                f"| {result['game']} | {result['reward']} | {opp} | {s['mean']:.1%} ({s['min']:.1%}-{s['max']:.1%}) "
                f"| {per_seed} | {result['baseline'][opp]['win_rate']:.1%} |"
            )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.md").write_text("\n".join(lines) + "\n")
    print(json.dumps({"results": [{k: v for k, v in r.items() if k != "runs"} for r in report]}, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
