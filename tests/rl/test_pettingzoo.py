"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every game and
configuration, rewards from the result, truncation at the game's limit, illegal actions, and the same
game as the engine for the same seed and actions."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test", reason="the rl extra (pettingzoo) is not installed")

from gymnasium import spaces  # noqa: E402

import cardtable  # noqa: E402
import cardtable.rl  # noqa: E402
from cardtable.engine.errors import IllegalAction  # noqa: E402
from cardtable.engine.rng import Rng  # noqa: E402
from cardtable.rl.encode import encoder_for  # noqa: E402
from cardtable.rl.pettingzoo_env import CardtableAECEnv  # noqa: E402
from cardtable.rl.rewards import rewards  # noqa: E402
from tests.rl.helpers import CASES, load  # noqa: E402

# Warnings of PettingZoo's API test that a masked, dict-observation environment must raise: the API
# test exempts its own classic games (chess, go, ...) from them by name. Any other warning fails.
EXPECTED_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
)


def _strict_api_test(env: CardtableAECEnv, num_cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env, num_cycles=num_cycles)
    unexpected = [str(w.message) for w in caught if str(w.message) not in EXPECTED_WARNINGS]
    assert not unexpected, f"PettingZoo's API test warned: {unexpected}"


API_STEPS = 400
"""Decisions the API test plays per game (whole games of Mephisto and Doctor Strange; Army of Darkness
games run to a few thousand decisions, so its long configurations are cut short there and its end is
tested by a short game below)."""


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_pettingzoo_api_test(game_id: str, options: dict[str, Any]) -> None:
    env = cardtable.rl.env(game_id, **options)
    _strict_api_test(env, num_cycles=max(2, API_STEPS // len(env.possible_agents)))


def test_pettingzoo_api_test_through_the_end_of_a_long_game() -> None:
    """Army of Darkness to its end within the API test: a game stopped at its turn limit."""
    _strict_api_test(cardtable.rl.env("army-of-darkness", players=4, turn_limit=6), num_cycles=1000)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_pettingzoo_seed_test(game_id: str, options: dict[str, Any]) -> None:
    pettingzoo_test.seed_test(lambda: cardtable.rl.env(game_id, **options), num_cycles=40)


OBSERVED_STEPS = 60
"""Steps at which every seat's observation is compared (after them, the acting agent's mask, rewards
and ends are compared at every step, and the final states by fingerprint: an observation is a function
of the state, so equal states give equal observations)."""


def _play(env: CardtableAECEnv, seed: int, actions_seed: int) -> tuple[list[Any], list[int]]:
    """Play a whole game with random legal actions; returns what the steps showed and the actions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(actions_seed)
    trace: list[Any] = []
    taken: list[int] = []
    for step, agent in enumerate(env.agent_iter()):
        _, reward, terminated, truncated, info = env.last(observe=False)
        mask = env.action_mask(agent)
        seen = [env.observe(a)["observation"] for a in env.agents] if step < OBSERVED_STEPS else []
        trace.append((agent, seen, mask, reward, terminated, truncated, info))
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(mask)))
        taken.append(action)
        env.step(action)
    return trace, taken


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_same_seed_and_actions_give_the_same_game(game_id: str, options: dict[str, Any]) -> None:
    """Two environments, the same seed and the same actions: identical observations, masks, rewards
    and ends at every step; and the engine's own game from that seed, given the same actions, is the
    same game (the environment adds no randomness of its own)."""
    env_a, env_b = cardtable.rl.env(game_id, **options), cardtable.rl.env(game_id, **options)
    trace_a, taken = _play(env_a, seed=21, actions_seed=3)
    trace_b, _ = _play(env_b, seed=21, actions_seed=3)
    assert len(trace_a) == len(trace_b)
    for a, b in zip(trace_a, trace_b, strict=True):
        assert a[0] == b[0] and a[3:] == b[3:]
        assert len(a[1]) == len(b[1]) and all(np.array_equal(x, y) for x, y in zip(a[1], b[1], strict=True))
        assert np.array_equal(a[2], b[2])
    state = load(game_id, options).new(21, log=False)
    for index in taken:
        state.apply(state.game.actions.items[index])
    assert state.is_over
    assert env_a.episode is not None
    assert state.fingerprint() == env_a.episode.state.fingerprint()


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_rewards_come_from_the_result_and_team_mates_share(game_id: str, options: dict[str, Any]) -> None:
    env = cardtable.rl.env(game_id, **options)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last(observe=False)
        # The agent to act is the seat the engine says must decide.
        assert env.episode is not None
        if not (terminated or truncated):
            assert env.seat(agent) == env.episode.state.current_player
            assert reward == 0.0
            env.step(int(rng.choice(np.flatnonzero(env.action_mask(agent)))))
        else:
            finals[agent] = reward
            assert env.infos[agent]["result"] is not None
            env.step(None)
    assert env.episode is not None
    result = env.episode.state.result()
    n = env.game.players
    expected = rewards(result, n)
    assert finals == {f"player_{s}": expected[s] for s in range(n)}
    if n > 1:
        assert sum(finals.values()) == pytest.approx(0.0, abs=1e-9)
        for team in result.teams or ():
            assert len({finals[f"player_{s}"] for s in team}) == 1
        if result.winners:
            best = max(finals.values())
            assert {s for s in range(n) if finals[f"player_{s}"] == best} == set(result.winners)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("doctor-strange", {"turn-limit": 2}), ("army-of-darkness", {"players": 3, "turn-limit": 2})],
)
def test_the_game_limit_ends_in_truncation(game_id: str, options: dict[str, Any]) -> None:
    env = cardtable.rl.env(game_id, **options)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.episode is not None and env.episode.state.result().truncated


def test_max_steps_stops_the_game_as_a_truncation_with_no_reward() -> None:
    env = cardtable.rl.env("mephisto", players=2, max_steps=7)
    env.reset(seed=2)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 7


def test_an_illegal_action_loses_or_raises() -> None:
    env = cardtable.rl.env("doctor-strange")
    env.reset(seed=4)
    agent = env.agent_selection
    obs = env.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != agent)
    assert env.infos[agent]["illegal_action"]["action"] == illegal
    for _a in env.agent_iter():
        env.step(None)
    assert env.agents == []

    strict = cardtable.rl.env("doctor-strange", illegal="raise")
    strict.reset(seed=4)
    before = strict.observe(strict.agent_selection)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    with pytest.raises(IllegalAction, match="out of range"):
        strict.step(10**6)
    after = strict.observe(strict.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_observations_are_the_encoded_views_and_views_are_for_people() -> None:
    env = cardtable.rl.env("doctor-strange", render_mode="ansi")
    env.reset(seed=5)
    encoder = encoder_for(env.game)
    for agent in env.possible_agents:
        view = env.view(agent)
        assert np.array_equal(env.observe(agent)["observation"], encoder.encode(view))
        assert view["seat"] == env.seat(agent)
        assert env.seat_name(agent) == env.game.seat_name(env.seat(agent)) == view["seat_names"][env.seat(agent)]
    text = env.render()
    assert isinstance(text, str)
    acting = env.view(env.agent_selection)
    assert str(acting["prompt"]).split(":")[0] in text
    action = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    assert env.action_text(action) == env.game.actions.items[action].text


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="illegal"):
        cardtable.rl.env("mephisto", illegal="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        cardtable.rl.env("mephisto", render_mode="rgb_array")
    with pytest.raises(cardtable.OptionError, match="unknown option"):
        cardtable.rl.env("mephisto", colour="red")
    env = cardtable.rl.env("mephisto")
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")


def test_engine_seed_reproduces_with_the_record() -> None:
    """A game played in the environment is a cardtable game: its record replays."""
    env = cardtable.rl.env("army-of-darkness", players=2)
    env.reset(seed=9)
    rng = Rng(9)
    for _ in range(30):
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.below(len(legal))]))
    replayed = cardtable.replay(env.state_record)
    assert env.episode is not None
    assert replayed.fingerprint() == env.episode.state.fingerprint()


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_pettingzoo_parallel_api_test(game_id: str, options: dict[str, Any]) -> None:
    """The same game behind PettingZoo's Parallel API passes its own API test: the acting agent's
    action applies, the others' are ignored."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.parallel_api_test(cardtable.rl.parallel_env(game_id, **options), num_cycles=200)
    unexpected = [str(w.message) for w in caught if str(w.message) not in EXPECTED_WARNINGS]
    assert not unexpected, f"PettingZoo's parallel API test warned: {unexpected}"


def test_the_parallel_environment_plays_the_aec_game() -> None:
    """Given the acting agent's actions, the Parallel environment plays the same game as the AEC one
    (same observations, rewards and ends) and leaves every agent together at the end."""
    aec = cardtable.rl.env("mephisto", players=3)
    par = cardtable.rl.parallel_env("mephisto", players=3)
    aec.reset(seed=6)
    observations, _ = par.reset(seed=6)
    rng = np.random.default_rng(6)
    finals: dict[str, float] = {}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            finals[agent] = reward
            aec.step(None)
            continue
        assert par.acting == agent
        assert np.array_equal(observations[agent]["observation"], obs["observation"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        aec.step(action)
        others = {a: None for a in par.agents}
        observations, rewards, terms, _, _ = par.step({**others, agent: action})
    assert par.agents == [] and all(terms.values())
    assert rewards == finals
    with pytest.raises(RuntimeError, match="reset"):
        par.step({})


def test_state_is_the_global_state_for_centralised_critics() -> None:
    """env.state(): every seat's observation side by side, in env.state_space (PettingZoo's state
    test passes); env.snapshot(): the god view."""
    from pettingzoo.test.state_test import test_state

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test_state(cardtable.rl.env("doctor-strange"), 60)
    assert not [str(w.message) for w in caught]
    env = cardtable.rl.env("doctor-strange")
    env.reset(seed=2)
    space = env.observation_space("player_0")
    assert isinstance(space, spaces.Dict) and isinstance(space["observation"], spaces.Box)
    size = space["observation"].shape[0]
    state = env.state()
    for seat, agent in enumerate(env.possible_agents):
        assert np.array_equal(state[seat * size : (seat + 1) * size], env.observe(agent)["observation"])
    assert sorted(env.snapshot()["hands"][0]) == sorted(c["id"] for c in env.view("player_0")["hand"])


def test_the_aec_environment_pickles_mid_game() -> None:
    import copy
    import pickle

    env = cardtable.rl.env("mr-card-game", players=3)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(25):
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(env.agent_selection)))))
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert twin.agent_selection == env.agent_selection
        for agent in env.possible_agents:
            assert np.array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])
        action = int(np.flatnonzero(env.action_mask(env.agent_selection))[0])
        a, b = copy.deepcopy(env), twin
        a.step(action)
        b.step(action)
        assert a.episode is not None and b.episode is not None
        assert a.agent_selection == b.agent_selection and a.episode.state.fingerprint() == b.episode.state.fingerprint()
