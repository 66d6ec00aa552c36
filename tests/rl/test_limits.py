"""Episodes that always end: every game ends by its own rules under a random policy in every
configuration, within its documented bounds (a property test over seeds); the environments' safety
limits stop a game as a truncation; Mr. Card Game's equipment changes cannot stall a game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable.rl
from cardtable.engine.errors import MalformedAction
from cardtable.engine.rng import Rng
from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS, TURN_BOUNDS
from tests.rl.helpers import CASES, load

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


@pytest.mark.parametrize(("game_id", "options"), CASES)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_every_game_ends_under_a_random_policy_within_its_bounds(
    game_id: str, options: dict[str, Any], seed: int
) -> None:
    game = load(game_id, options)
    state = game.new(seed, log=False)
    rng = Rng(seed)
    steps = turn_steps = 0
    turn = state.turn
    bound = TURN_BOUNDS.get(game_id, MAX_TURN_STEPS)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        steps += 1
        turn_steps = 1 if state.turn != turn else turn_steps + 1
        turn = state.turn
        assert turn_steps <= bound, f"a turn took more than {bound} decisions"
        assert steps < MAX_STEPS, "the game reached the environments' step limit"
    assert state.result().reason  # ended by its rules or its own documented limit


def test_the_safety_limits_stop_a_game_as_a_truncation() -> None:
    env = cardtable.rl.env("mephisto", players=2, max_turn_steps=3)
    env.reset(seed=1)
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0 and info["stopped"] == "max_turn_steps"
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    gym = cardtable.rl.gymnasium_env("doctor-strange", max_steps=10)
    obs, _ = gym.reset(seed=1)
    while True:
        obs, reward, terminated, truncated, info = gym.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0 and info["stopped"] == "max_steps"
    assert gym.episode.steps == 10
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="max_steps"):
            cardtable.rl.gymnasium_env("mephisto", max_steps=bad)
        with pytest.raises(ValueError, match="max_turn_steps"):
            cardtable.rl.env("mephisto", max_turn_steps=bad)
    unlimited = cardtable.rl.gymnasium_env("mephisto", max_steps=None, max_turn_steps=None)
    unlimited.reset(seed=1)


def _play_loving_equipment(env: Any, seed: int) -> tuple[float, bool, bool, dict[str, Any]]:
    """Play one episode from ``seed`` as a learner that always takes an equipment change when one is
    legal (else a random action); the last step's reward, terminated, truncated and info."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        legal = env.legal_actions()
        changes = [a for a in legal if env.action_meaning(int(a)).startswith(("equip ", "unequip "))]
        action = int(changes[0]) if changes else int(rng.choice(legal))
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return float(reward), terminated, truncated, info


def test_a_learner_that_loves_changing_equipment_cannot_stall_mr_card_game() -> None:
    """Issue 22: a learner that took ``unequip card=100`` / ``equip card=100`` for ever never finished
    its turn. Always preferring an equipment change now runs out of them, and the game goes on to
    its end by the rules, never by a safety limit."""
    env = cardtable.rl.gymnasium_env("mr-card-game", players=2, opponents="random")
    for seed in range(3):
        _, _, _, info = _play_loving_equipment(env, seed)
        assert "stopped" not in info and env.episode.state.is_over


def test_under_the_legacy_reading_the_safety_limit_stops_the_stall() -> None:
    """``equipment-repeats=allowed`` (the reading old records replay with) offers every equipment
    change, so the same learner can cycle for ever; the environment's ``max_turn_steps`` then stops
    the game as a truncation with no reward, so a training run still cannot hang."""
    env = cardtable.rl.gymnasium_env(
        "mr-card-game", players=2, opponents="random", max_turn_steps=200, equipment_repeats="allowed"
    )
    stopped = 0
    for seed in range(3):
        reward, terminated, truncated, info = _play_loving_equipment(env, seed)
        if info.get("stopped") == "max_turn_steps":
            assert truncated and not terminated and reward == 0.0
            stopped += 1
    assert stopped, "the learner never stalled a turn: the legacy reading was not exercised"


def test_the_documented_bounds_cover_every_built_in_game() -> None:
    assert set(TURN_BOUNDS) == set(cardtable.games.builtin()) & set(cardtable.available())
    assert all(bound * 10 <= MAX_TURN_STEPS for bound in TURN_BOUNDS.values()) or MAX_TURN_STEPS >= 1000


@pytest.mark.parametrize("illegal", ["lose", "raise"])
def test_a_game_ended_before_the_learners_first_decision_delivers_its_outcome(illegal: str) -> None:
    """A safety limit smaller than the other seat's turn stops Mephisto before the learner (seat 1)
    decides: reset says so and hands an empty mask; the next step, whatever its action, ends the
    episode with the truncation's outcome (it used to raise "the episode is over; reset first", which
    stopped a training loop); only a step after that is refused."""
    gym = cardtable.rl.gymnasium_env("mephisto", seat=1, max_turn_steps=1, opponents="random", illegal=illegal)
    obs, info = gym.reset(seed=3)
    assert info["ended_before_decision"] == "max_turn_steps" and not obs["action_mask"].any()
    _, reward, terminated, truncated, info = gym.step(0)
    assert (reward, terminated, truncated, info["stopped"]) == (0.0, False, True, "max_turn_steps")
    with pytest.raises(RuntimeError, match="reset first"):
        gym.step(0)
    # Vectorised rows dealt such games, at reset and at every deal after, move on alike.
    envs = cardtable.rl.vector_env("mephisto", 2, seat=1, max_turn_steps=1, opponents="random", illegal=illegal)
    obs, infos = envs.reset(seed=3)
    assert list(infos["ended_before_decision"]) == ["max_turn_steps"] * 2 and not obs["action_mask"].any()
    obs, rewards, terminations, truncations, infos = envs.step(np.zeros(2, dtype=np.int64))
    assert truncations.all() and not terminations.any() and not rewards.any()
    assert list(infos["final_info"]["stopped"]) == ["max_turn_steps"] * 2
    for _ in range(10):  # the next deals, ended at once or not, as they come
        actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in obs["action_mask"]]
        obs, rewards, terminations, truncations, infos = envs.step(np.array(actions))
    if illegal == "raise":  # an index out of range is still refused
        with pytest.raises(MalformedAction, match="out of range"):
            envs.step(np.array([10**6, 0]))
    envs.close()
