"""The Gymnasium single-agent environment: Gymnasium's own ``check_env`` for every game and
configuration, registration, masking, opponents, rewards and determinism."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cardtable  # noqa: E402
import cardtable.rl  # noqa: E402
from cardtable.rl.encode import encoder_for  # noqa: E402
from cardtable.rl.gym_env import CardtableGymEnv, env_id, register_envs  # noqa: E402
from cardtable.rl.rewards import rewards  # noqa: E402
from tests.rl.helpers import CASES, game_ids  # noqa: E402


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_gymnasium_check_env(game_id: str, options: dict[str, Any]) -> None:
    register_envs()
    env = gymnasium.make(env_id(game_id), opponents="random", **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    messages = [str(w.message) for w in caught]
    assert not messages, f"Gymnasium's check_env warned: {messages}"


def test_every_available_game_is_registered() -> None:
    register_envs()
    for game_id in game_ids():
        assert env_id(game_id) in gymnasium.registry
        env = gymnasium.make(env_id(game_id))
        assert isinstance(env.unwrapped, CardtableGymEnv) and env.unwrapped.game.id == game_id


def _episode(env: CardtableGymEnv, seed: int) -> tuple[list[Any], float, dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = [obs]
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, obs["action_mask"]) and mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        trace.append((obs, reward, terminated, truncated))
        if terminated or truncated:
            return trace, float(reward), info
        assert reward == 0.0


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_an_episode_is_the_learners_game(game_id: str, options: dict[str, Any]) -> None:
    """Masked random play to the end: the learner sees its own view encoded at each of its
    decisions, the reward is its reward from the result, and the same seed replays the episode."""
    env = cardtable.rl.gymnasium_env(game_id, opponents="random", **options)
    trace, reward, info = _episode(env, seed=6)
    assert env.episode is not None
    state = env.episode.state
    assert state.is_over
    assert reward == rewards(state.result(), env.game.players)[env.seat]
    assert info["result"] == state.result().to_json()
    encoder = encoder_for(env.game)
    assert np.array_equal(trace[-1][0]["observation"], encoder.encode(state.view(env.seat)))
    assert not trace[-1][0]["action_mask"].any()
    again, reward_again, _ = _episode(cardtable.rl.gymnasium_env(game_id, opponents="random", **options), seed=6)
    assert len(again) == len(trace) and reward_again == reward
    for a, b in zip(trace[1:], again[1:], strict=True):
        assert np.array_equal(a[0]["observation"], b[0]["observation"]) and a[1:] == b[1:]


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness"])
def test_heuristic_opponents(game_id: str) -> None:
    env = gymnasium.make(env_id(game_id), opponents="heuristic", players=2)
    _, reward, _ = _episode(env.unwrapped, seed=3)
    assert -1.0 <= reward <= 1.0


def test_random_seat_is_drawn_per_episode_and_reproducible() -> None:
    env = cardtable.rl.gymnasium_env("mephisto", players=3, seat=None)
    seats = []
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seats.append(info["seat"])
        assert env.episode is not None and env.episode.state.current_player == env.seat == info["seat"]
    assert len(set(seats)) == 3
    assert seats == [env.reset(seed=s)[1]["seat"] for s in range(12)]


def test_opponents_one_spec_per_seat_and_bad_arguments() -> None:
    env = cardtable.rl.gymnasium_env("mephisto", players=3, opponents=["random", "heuristic"])
    env.reset(seed=1)
    kinds = {seat: type(agent).__name__ for seat, agent in env._agents.items()}
    assert sorted(kinds) == [1, 2] and kinds[1] == "RandomAgent" and kinds[2] != "RandomAgent"
    with pytest.raises(ValueError, match="2 agent spec"):
        cardtable.rl.gymnasium_env("mephisto", players=3, opponents=["random"])
    with pytest.raises(cardtable.OptionError, match="unknown agent"):
        cardtable.rl.gymnasium_env("mephisto", opponents="oracle")
    with pytest.raises(ValueError, match="seat must be"):
        cardtable.rl.gymnasium_env("mephisto", players=2, seat=2)
    with pytest.raises(ValueError, match="seat must be"):
        cardtable.rl.gymnasium_env("mephisto", players=2, seat=True)


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = cardtable.rl.gymnasium_env("doctor-strange")
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"]["action"] == illegal
    assert not env.action_masks().any() and not obs["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    strict = cardtable.rl.gymnasium_env("doctor-strange", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(cardtable.IllegalAction):
        strict.step(illegal)


def test_render_ansi_draws_the_learners_table() -> None:
    env = cardtable.rl.gymnasium_env("doctor-strange", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Good" in text and len(text.splitlines()) > 5
