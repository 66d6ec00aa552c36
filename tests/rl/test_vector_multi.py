"""The multi-agent vectorised environment (every seat a learner): shapes, spaces and masks in every
game and configuration, each row the PettingZoo game with that seed, rewards for every seat, whole
runs reproduced by their seeds, automatic resets, safety limits, bad input that changes nothing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

import cardtable
import cardtable.rl
from cardtable.engine.errors import IllegalAction
from cardtable.rl.encode import encoder_for
from tests.rl.helpers import CASES


def _run(envs: Any, steps: int, seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample_legal(rng))
        trace.append((obs["observation"], obs["action_mask"], rewards, terminated, truncated, infos["current_player"]))
    return trace


def _same(a: list[Any], b: list[Any]) -> bool:
    return len(a) == len(b) and all(
        all(np.array_equal(x, y) for x, y in zip(p, q, strict=True)) for p, q in zip(a, b, strict=True)
    )


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_the_batched_api(game_id: str, options: dict[str, Any]) -> None:
    """Shapes and spaces; each row's observation and mask are those of the seat that decides there
    (the mask exactly its legal actions, the observation the encoding of its view); rewards for every
    seat, zero until a game ends; automatic resets with every seat's final observation."""
    envs = cardtable.rl.multiagent_vector_env(game_id, 3, **options)
    game = envs.game
    encoder = encoder_for(game)
    obs, infos = envs.reset(seed=5)
    assert list(infos["seed"]) == [5, 6, 7]
    assert envs.observation_space.contains(obs) and envs.possible_agents == [f"player_{p}" for p in range(game.players)]
    ended = 0
    rng = np.random.default_rng(3)
    for step in range(120 if game_id != "army-of-darkness" else 50):
        for row, episode in enumerate(envs.episodes):
            seat = int(infos["current_player"][row])
            assert seat == episode.state.current_player
            legal = sorted(a.index for a in episode.state.legal_actions())
            assert np.flatnonzero(obs["action_mask"][row]).tolist() == legal
            if step % 10 == 0:
                assert np.array_equal(obs["observation"][row], encoder.encode(episode.state.view(seat)))
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample_legal(rng))
        assert envs.observation_space.contains(obs)
        assert rewards.shape == (3, game.players) and terminated.shape == truncated.shape == (3,)
        done = terminated | truncated
        assert not rewards[~done].any()
        if done.any():
            ended += int(done.sum())
            assert np.array_equal(infos["_final_obs"], done) and np.array_equal(infos["_final_info"], done)
            for done_row in np.flatnonzero(done):
                final = infos["final_obs"][done_row]
                assert final["observation"].shape == (game.players, envs.observer.size)
                assert not final["action_mask"].any()
                if game.players > 1 and terminated[done_row]:
                    assert abs(rewards[done_row].sum()) < 1e-9  # zero-sum
                assert obs["action_mask"][done_row].any()  # the next game has begun
    if game_id == "toy":
        assert ended


def test_each_row_is_the_pettingzoo_game_with_that_seed() -> None:
    """Row ``i`` after ``reset(seed=s)`` plays the PettingZoo AEC game reset with ``s + i``: the same
    agent to act, observation and mask at every step, the same rewards at the end."""
    n = 2
    envs = cardtable.rl.multiagent_vector_env("doctor-strange", n)
    singles = [cardtable.rl.env("doctor-strange") for _ in range(n)]
    obs, infos = envs.reset(seed=30)
    for i, env in enumerate(singles):
        env.reset(seed=30 + i)
    rng = np.random.default_rng(8)
    live = [True] * n
    for _ in range(3000):
        actions = envs.sample_legal(rng)
        for i, env in enumerate(singles):
            if live[i]:
                agent = env.agent_selection
                assert agent == f"player_{infos['current_player'][i]}"
                mine = env.observe(agent)
                assert np.array_equal(obs["observation"][i], mine["observation"])
                assert np.array_equal(obs["action_mask"][i], mine["action_mask"])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i, env in enumerate(singles):
            if not live[i]:
                continue
            env.step(int(actions[i]))
            if terminated[i] or truncated[i]:
                assert [env.rewards[a] for a in env.possible_agents] == rewards[i].tolist()
                assert all(env.terminations.values()) == bool(terminated[i])
                live[i] = False
        if not any(live):
            break
    assert not any(live), "the games did not end"


def test_seeds_reproduce_whole_runs() -> None:
    kwargs: dict[str, Any] = {"players": 3}
    runs = []
    for _ in range(2):
        envs = cardtable.rl.multiagent_vector_env("mephisto", 3, **kwargs)
        envs.reset(seed=1)
        runs.append(_run(envs, 300, seed=2))
    assert _same(runs[0], runs[1])
    assert any(step[3].any() for step in runs[0]), "no game ended: the resets were not exercised"
    other = cardtable.rl.multiagent_vector_env("mephisto", 3, **kwargs)
    other.reset(seed=2)
    assert not _same(runs[0], _run(other, 300, seed=2))


def test_bad_input_changes_nothing() -> None:
    envs = cardtable.rl.multiagent_vector_env("mephisto", 2, players=2)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.array([0, 0]))
    obs, _ = envs.reset(seed=4)
    before = [e.state.snapshot() for e in envs.episodes]
    legal = envs.legal_actions()
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    for bad, error in (
        (np.array([legal[0][0], illegal]), IllegalAction),
        (np.array([legal[0][0], 10**6]), ValueError),
        (np.array([legal[0][0]]), ValueError),
        (np.array([0.0, 1.0]), ValueError),
    ):
        with pytest.raises(error, match=r"row 1|2 actions"):
            envs.step(bad)
        assert [e.state.snapshot() for e in envs.episodes] == before
        assert np.array_equal(envs.masks, obs["action_mask"]) and np.array_equal(envs.observations, obs["observation"])
    with pytest.raises(ValueError, match="num_envs"):
        cardtable.rl.multiagent_vector_env("mephisto", 0)
    with pytest.raises(ValueError, match="max_turn_steps"):
        cardtable.rl.multiagent_vector_env("mephisto", 2, max_turn_steps=0)
    with pytest.raises(cardtable.OptionError):
        cardtable.rl.multiagent_vector_env("mephisto", 2, colour="red")
    with pytest.raises(ValueError, match="2 seeds"):
        envs.reset(seed=[1])
    with pytest.raises(ValueError, match="agent must be"):
        envs.observe("player_9")


def test_a_safety_limit_ends_a_game_as_a_truncation_with_no_reward() -> None:
    envs = cardtable.rl.multiagent_vector_env("army-of-darkness", 2, players=2, max_steps=25)
    envs.reset(seed=1)
    for step in range(1, 26):
        _, rewards, terminated, truncated, infos = envs.step(envs.sample_legal(np.random.default_rng(step)))
    assert truncated.all() and not terminated.any() and not rewards.any()
    assert [info["stopped"] for info in infos["final_info"]] == ["max_steps", "max_steps"]
    assert all(e.steps == 0 for e in envs.episodes)  # the next games have begun


def test_researcher_conveniences() -> None:
    envs = cardtable.rl.multiagent_vector_env("mr-card-game", 2, players=3, copy=False)
    obs, _ = envs.reset(seed=9)
    _run(envs, 20, seed=1)
    index = int(envs.legal_actions()[0][0])
    assert envs.action_index(envs.action_meaning(index)) == index
    layout = envs.observation_layout()
    assert layout[-1]["stop"] == envs.observer.size
    state = envs.state()
    size = envs.observer.size
    assert state.shape == (2, 3 * size)
    for seat in range(3):
        assert np.array_equal(state[:, seat * size : (seat + 1) * size], envs.observe(f"player_{seat}"))
    assert all(isinstance(t, str) and t for t in envs.texts())
    assert envs.views("player_2")[0] == envs.episodes[0].state.view(2)
    for record, episode in zip(envs.records(), envs.episodes, strict=True):
        assert cardtable.replay(record).fingerprint() == episode.state.fingerprint()
    assert envs.step(envs.sample_legal())[0]["observation"] is obs["observation"]  # copy=False: the buffers
    assert envs.action_masks().dtype == np.bool_
