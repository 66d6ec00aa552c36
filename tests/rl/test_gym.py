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
from cardtable.engine.errors import MalformedAction  # noqa: E402
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
    kinds = {seat: type(opponent.agent).__name__ for seat, opponent in env.table.opponents.items()}
    assert sorted(kinds) == [1, 2] and kinds[1] == "RandomAgent" and kinds[2] != "RandomAgent"
    with pytest.raises(ValueError, match="2 opponent"):
        cardtable.rl.gymnasium_env("mephisto", players=3, opponents=["random"])
    with pytest.raises(cardtable.OptionError, match="unknown agent"):
        cardtable.rl.gymnasium_env("mephisto", opponents="oracle")
    with pytest.raises(ValueError, match="seat must be"):
        cardtable.rl.gymnasium_env("mephisto", players=2, seat=2)
    with pytest.raises(ValueError, match="seat must be"):
        cardtable.rl.gymnasium_env("mephisto", players=2, seat=True)
    with pytest.raises(TypeError, match="callable policy"):
        cardtable.rl.gymnasium_env("mephisto", players=2, opponents=[3])
    for bad in ("0.5", float("nan"), float("inf"), True, None):
        for make in (cardtable.rl.gymnasium_env, lambda game_id, **kw: cardtable.rl.vector_env(game_id, 2, **kw)):
            with pytest.raises(ValueError, match="shaping_scale must be a finite number"):
                make("mephisto", shaping_scale=bad)
    # Any real number is a scale (NumPy's too).
    assert cardtable.rl.gymnasium_env("mephisto", shaping_scale=np.float32(0.25)).table.scale == 0.25


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


def test_policies_and_agents_as_opponents_for_self_play() -> None:
    """An opponent may be a callable policy(observation, mask) -> index, given its own seat's
    observation (the same the seat would get as a learner) and mask; or a cardtable agent object."""
    from cardtable.agents.random_agent import RandomAgent

    seen: list[tuple[int, np.ndarray]] = []
    probe = cardtable.rl.gymnasium_env("doctor-strange", seat=0)

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.dtype == np.float32 and mask.dtype == np.int8 and mask.any()
        seen.append((int(np.flatnonzero(observation[:2])[0]), observation.copy()))
        return int(np.flatnonzero(mask)[-1])

    env = cardtable.rl.gymnasium_env("doctor-strange", seat=0, opponents=policy)
    obs, _ = env.reset(seed=3)
    probe.reset(seed=3)
    for _ in range(30):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break
    assert seen and all(seat == 1 for seat, _ in seen)  # the policy sees seat 1's own observation
    agent = RandomAgent(seed=4)
    env = cardtable.rl.gymnasium_env("mephisto", players=3, opponents=[agent, "heuristic"])
    env.reset(seed=2)
    assert env.table.opponents[1].agent is agent

    def cheat(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    bad = cardtable.rl.gymnasium_env("doctor-strange", seat=0, opponents=cheat)
    obs, _ = bad.reset(seed=3)
    with pytest.raises(cardtable.IllegalAction, match="opponent policy"):
        for _ in range(50):
            obs, *_ = bad.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_shaped_reward_for_mr_card_game() -> None:
    """reward="shaped" adds scale * (progress after - progress before) at each step, the true reward
    at the end; the shaping adds up to at most the scale, and info keeps the two apart."""
    from cardtable.rl.shaping import mr_card_game_progress

    env = cardtable.rl.gymnasium_env("mr-card-game", players=2, reward="shaped", opponents="heuristic")
    env.reset(seed=4)
    start = mr_card_game_progress(env.episode.state, env.seat)
    total = shaping = 0.0
    rng = np.random.default_rng(4)
    while True:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(env.legal_actions())))
        total += reward
        shaping += info["shaping"]
        if terminated or truncated:
            break
    end = mr_card_game_progress(env.episode.state, env.seat)
    assert shaping == pytest.approx(0.5 * (end - start))
    assert total == pytest.approx(shaping + info["true_reward"])
    assert 0.0 <= start <= 1.0 and 0.0 <= end <= 1.0
    with pytest.raises(ValueError, match="shaped"):
        cardtable.rl.gymnasium_env("mephisto", reward="shaped")
    with pytest.raises(ValueError, match="reward must be"):
        cardtable.rl.gymnasium_env("mr-card-game", reward="dense")


def test_researcher_conveniences() -> None:
    env = cardtable.rl.gymnasium_env("mephisto", players=2)
    obs, _ = env.reset(seed=5)
    legal = env.legal_actions()
    assert np.array_equal(legal, np.flatnonzero(obs["action_mask"]))
    for index in legal:
        text = env.action_meaning(int(index))
        assert env.action_index(text) == index == env.game.actions.parse(text).index
    with pytest.raises(MalformedAction):
        env.action_index("fly away")
    layout = env.observation_layout()
    assert [b["name"] for b in layout][:4] == ["seat", "to_act", "is_over", "turn"]
    assert layout[-1]["stop"] == obs["observation"].shape[0]
    assert all(b["start"] < b["stop"] and b["doc"] for b in layout)
    assert "P1" in env.text() and env.view()["seat"] == 0
    state = env.state()
    assert env.state_space.contains(state) and state.shape == (2 * obs["observation"].shape[0],)
    assert np.array_equal(state[: obs["observation"].shape[0]], obs["observation"])
    assert env.snapshot()["hands"]


def test_the_environment_pickles_and_deep_copies_mid_game() -> None:
    """A pickled or deep-copied environment goes on exactly as the original (opponents included)."""
    import copy
    import pickle

    env = cardtable.rl.gymnasium_env("army-of-darkness", players=3, opponents="heuristic", seat=None)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(15):
        env.step(int(rng.choice(env.legal_actions())))
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _ in range(40):
        action = int(rng.choice(env.legal_actions()))
        expected = env.step(action)
        for twin in twins:
            got = twin.step(action)
            assert np.array_equal(got[0]["observation"], expected[0]["observation"])
            assert np.array_equal(got[0]["action_mask"], expected[0]["action_mask"]) and got[1:4] == expected[1:4]
        if expected[2] or expected[3]:
            break
