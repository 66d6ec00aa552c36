"""Defects a researcher's audit found, each pinned: bad input refused before anything changes, the
environments' generators seeded by ``reset(seed=...)``, games ended by an illegal action over for
every seat, policies given observations of their own, OpenSpiel states untouched by an illegal move."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra (pettingzoo) is not installed")

import cardtable.rl  # noqa: E402
from cardtable.engine.errors import IllegalAction, MalformedAction  # noqa: E402


def _illegal_index(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


# -- the vectorised environment ------------------------------------------------------------------------


def test_vector_illegal_raise_checks_every_row_before_stepping_any() -> None:
    envs = cardtable.rl.vector_env("mephisto", 4, players=2, illegal="raise")
    obs, _ = envs.reset(seed=0)
    actions = np.array([legal[0] for legal in envs.legal_actions()])
    actions[2] = _illegal_index(obs["action_mask"][2])
    before = envs.snapshots()
    with pytest.raises(IllegalAction, match="row 2"):
        envs.step(actions)
    assert envs.snapshots() == before  # rows 0 and 1 were not stepped either
    actions[2] = envs.codec.size + 5
    with pytest.raises(MalformedAction, match=r"row 2.*out of range"):
        envs.step(actions)
    assert envs.snapshots() == before
    envs.close()


@pytest.mark.parametrize("actions", [np.array([1.7, 2.2]), np.array([True, False]), np.array([None, 3])])
def test_vector_step_refuses_actions_that_are_not_integers(actions: np.ndarray) -> None:
    envs = cardtable.rl.vector_env("army-of-darkness", 2, players=2)
    envs.reset(seed=1)
    before = envs.snapshots()
    with pytest.raises(ValueError, match="integers"):
        envs.step(actions)
    assert envs.snapshots() == before
    envs.close()


def test_vector_step_before_reset_says_so() -> None:
    envs = cardtable.rl.vector_env("army-of-darkness", 2, players=2, illegal="raise")
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.array([0, 0]))
    envs.close()


def _sampled_run(make: Any, steps: int = 60) -> list[Any]:
    envs = make()
    envs.reset(seed=5)
    out = []
    for _ in range(steps):
        obs, rewards, *_ = envs.step(envs.sample_legal())
        out.append((obs["observation"].tobytes(), rewards.tobytes()))
    envs.close()
    return out


def test_vector_sample_legal_is_seeded_by_reset() -> None:
    def make() -> Any:
        return cardtable.rl.vector_env("army-of-darkness", 3, players=3, seat=None)

    assert _sampled_run(make) == _sampled_run(make)


def test_multiagent_vector_sample_legal_is_seeded_by_reset() -> None:
    def make() -> Any:
        return cardtable.rl.multiagent_vector_env("army-of-darkness", 3, players=3)

    assert _sampled_run(make) == _sampled_run(make)


# -- PettingZoo: a game ended by an illegal action ------------------------------------------------------


def test_aec_game_ended_by_an_illegal_action_has_no_legal_action_left() -> None:
    env = cardtable.rl.env("mephisto", players=3)
    env.reset(seed=1)
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(_illegal_index(obs["action_mask"]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    for agent in env.agents:
        assert env.observe(agent)["action_mask"].sum() == 0
        assert env.action_mask(agent).sum() == 0
        assert len(env.legal_actions(agent)) == 0
        assert "stopped" not in env.infos[agent]
    for _agent in env.agent_iter():
        *_, terminated, truncated, _ = env.last()
        assert terminated and not truncated
        env.step(None)


def test_parallel_game_ended_by_an_illegal_action_has_nobody_acting() -> None:
    env = cardtable.rl.parallel_env("mephisto", players=2)
    obs, _ = env.reset(seed=1)
    acting = env.acting
    assert acting is not None
    obs, rewards, terminations, truncations, _ = env.step({acting: _illegal_index(obs[acting]["action_mask"])})
    assert rewards[acting] == -1.0 and all(terminations.values()) and not any(truncations.values())
    assert env.acting is None
    assert all(o["action_mask"].sum() == 0 for o in obs.values())


# -- opponents -------------------------------------------------------------------------------------------


def play_first_legal(env: Any, seed: int, steps: int) -> None:
    """Reset ``env`` with ``seed`` and take its first legal action up to ``steps`` times, stopping early
    where the episode leaves the learner nothing to do."""
    env.reset(seed=seed)
    for _ in range(steps):
        legal = env.legal_actions()
        if not len(legal):
            break
        env.step(int(legal[0]))


def test_policy_opponents_get_observations_of_their_own() -> None:
    kept: list[tuple[np.ndarray, np.ndarray]] = []

    def keeper(obs: np.ndarray, mask: np.ndarray) -> int:
        kept.append((obs, obs.copy()))
        return int(np.flatnonzero(mask)[0])

    play_first_legal(cardtable.rl.gymnasium_env("mephisto", players=2, opponents=keeper), seed=1, steps=30)
    assert len(kept) > 5
    assert all(np.array_equal(given, copied) for given, copied in kept)


def test_a_policy_that_changes_its_observation_in_place_sees_true_observations() -> None:
    def trace(scribble: bool) -> list[bytes]:
        seen: list[bytes] = []

        def policy(obs: np.ndarray, mask: np.ndarray) -> int:
            seen.append(obs.tobytes())
            if scribble:
                obs *= 0.0  # e.g. normalising in place
            return int(np.flatnonzero(mask)[-1])

        play_first_legal(cardtable.rl.gymnasium_env("army-of-darkness", players=2, opponents=policy), seed=2, steps=40)
        return seen

    assert trace(True) == trace(False)


def test_opponents_of_a_wrong_kind_are_named() -> None:
    for bad in (3, {"player_1": "random"}):
        with pytest.raises(TypeError, match="opponents"):
            cardtable.rl.gymnasium_env("army-of-darkness", players=3, opponents=bad)


# -- actions of the wrong shape ----------------------------------------------------------------------------


def test_an_action_array_of_the_wrong_shape_is_a_malformed_action() -> None:
    env = cardtable.rl.gymnasium_env("army-of-darkness", players=2, illegal="raise")
    env.reset(seed=3)
    before = env.snapshot()
    with pytest.raises(MalformedAction, match="shape"):
        env.step(np.array([int(env.legal_actions()[0])]))  # type: ignore[arg-type]  # deliberately an array
    assert env.snapshot() == before
    lose = cardtable.rl.gymnasium_env("army-of-darkness", players=2)
    lose.reset(seed=3)
    _, reward, terminated, _, info = lose.step(np.array([1, 2]))  # type: ignore[arg-type]  # deliberately an array
    assert reward == -1.0 and terminated and "shape" in info["illegal_action"]["error"]


# -- OpenSpiel -------------------------------------------------------------------------------------------


def test_openspiel_illegal_action_leaves_the_information_states_alone() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    import cardtable.rl.openspiel_game  # noqa: F401

    game = pyspiel.load_game("cardtable_mephisto(players=2,deals=2,max_steps=6)")
    state = game.new_initial_state()
    state.apply_action(1)
    before = [state.information_state_string(p) for p in range(2)]
    history = state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply_action(illegal)
    assert state.history() == history
    assert [state.information_state_string(p) for p in range(2)] == before
    state.apply_action(state.legal_actions()[0])  # and the game goes on
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
