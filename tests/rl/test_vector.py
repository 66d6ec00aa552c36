"""The vectorised environment: Gymnasium's vector API (spaces, shapes, automatic resets with the final
observation and info), each row the same game as the single-agent environment with that seed, whole
runs reproduced by their seeds whatever the number of worker processes, pickling mid-run."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from gymnasium import spaces  # noqa: E402
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402

import cardtable  # noqa: E402
import cardtable.rl  # noqa: E402
from cardtable.rl.vector import CardtableVectorEnv  # noqa: E402
from tests.rl.helpers import CASES  # noqa: E402


def _run(envs: CardtableVectorEnv, steps: int, seed: int) -> list[Any]:
    """Random legal actions from a seeded generator; everything the steps returned."""
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    for _ in range(steps):
        legal = envs.legal_actions()
        actions = np.array([int(rng.choice(a)) for a in legal])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        trace.append((obs, rewards, terminated, truncated, sorted(infos)))
    return trace


def _same(a: list[Any], b: list[Any]) -> bool:
    for x, y in zip(a, b, strict=True):
        if not (
            np.array_equal(x[0]["observation"], y[0]["observation"])
            and np.array_equal(x[0]["action_mask"], y[0]["action_mask"])
            and all(np.array_equal(p, q) for p, q in zip(x[1:4], y[1:4], strict=True))
            and x[4] == y[4]
        ):
            return False
    return len(a) == len(b)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_the_vector_api(game_id: str, options: dict[str, Any]) -> None:
    """Spaces and shapes, observations inside their space, masks that allow exactly the legal actions,
    and automatic resets: a row whose game ends reports its final observation and info and starts
    the next game in the same step."""
    envs = cardtable.rl.vector_env(game_id, 3, seat=None, **options)
    assert isinstance(envs, VectorEnv) and envs.num_envs == 3
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    single = envs.single_observation_space
    assert isinstance(single, spaces.Dict) and isinstance(single["observation"], spaces.Box)
    obs, infos = envs.reset(seed=11)
    assert obs["observation"].shape == (3, single["observation"].shape[0])
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert envs.observation_space.contains(obs)
    assert list(infos["seed"]) == [11, 12, 13] and infos["_seat"].all()
    ended = 0
    rng = np.random.default_rng(1)
    for _ in range(150 if game_id != "army-of-darkness" else 60):
        legal = envs.legal_actions()
        for row, indices in enumerate(legal):
            assert np.array_equal(np.flatnonzero(obs["action_mask"][row]), indices) and len(indices)
        obs, rewards, terminated, truncated, infos = envs.step(np.array([int(rng.choice(a)) for a in legal]))
        assert rewards.shape == terminated.shape == truncated.shape == (3,)
        assert envs.observation_space.contains(obs)
        done = terminated | truncated
        if done.any():
            ended += int(done.sum())
            assert np.array_equal(infos["_final_obs"], done)
            for done_row in np.flatnonzero(done):
                final = infos["final_obs"][done_row]
                assert not final["action_mask"].any()  # the game is over in the final observation
                # Gymnasium's convention: the final infos as a dict of arrays, each with its "_key" mask.
                final_info = infos["final_info"]
                assert final_info["_seat"][done_row] and final_info["_true_reward"][done_row]
                assert final_info["true_reward"][done_row] == rewards[done_row] or "stopped" in final_info
                assert obs["action_mask"][done_row].any()  # ... and the next game has begun
    if game_id == "toy":
        assert ended
    envs.close()


def _same_tree(a: Any, b: Any) -> bool:
    """Equal nested infos: dicts, NumPy arrays (object arrays of dicts too) and plain values."""
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and sorted(a) == sorted(b)
            and all(_same_tree(a[k], b[k]) for k in a)
        )
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype == object or b.dtype == object:
            return all(_same_tree(x, y) for x, y in zip(a.ravel(), b.ravel(), strict=True))
        return a.dtype == b.dtype and bool(np.array_equal(a, b))
    return bool(a == b)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("mephisto", {"players": 2, "opponents": "random", "seat": None}),
        ("doctor-strange", {"opponents": "heuristic"}),
        ("army-of-darkness", {"players": 3, "opponents": "random", "seat": None}),
        ("mr-card-game", {"players": 2, "opponents": "random", "reward": "shaped", "max_turn_steps": 40}),
    ],
)
def test_the_same_as_gymnasiums_own_sync_vector_env(game_id: str, options: dict[str, Any]) -> None:
    """Gymnasium's own reference for its vector API is ``SyncVectorEnv`` over single environments: the
    vectorised environment must return exactly what it returns over ``gymnasium_env`` (same
    ``SAME_STEP`` autoreset mode, same seeds, same actions): observations, masks, rewards,
    terminations, truncations and every info (``final_obs``, ``final_info`` and their masks
    included; ``final_info`` adds the ended game's seat and seed, as documented), across automatic
    resets, whose later games both draw from the row's generator.
    (Mr. Card Game with a low ``max_turn_steps`` so that truncations by a safety limit come up too.)"""
    from gymnasium.vector import SyncVectorEnv

    n = 3
    ours = cardtable.rl.vector_env(game_id, n, **options)
    ref = SyncVectorEnv(
        [lambda: cardtable.rl.gymnasium_env(game_id, **options) for _ in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    assert ours.single_observation_space == ref.single_observation_space
    assert ours.single_action_space == ref.single_action_space
    assert ours.observation_space == ref.observation_space and ours.action_space == ref.action_space
    first, expected = ours.reset(seed=21), ref.reset(seed=21)
    assert _same_tree(first[0], expected[0]) and _same_tree(first[1], expected[1])
    rng = np.random.default_rng(4)
    ended = 0
    for step in range(700):
        actions = np.array([int(rng.choice(a)) for a in ours.legal_actions()])
        got: tuple[Any, ...] = ours.step(actions)
        want: tuple[Any, ...] = ref.step(actions)
        infos = dict(got[4])
        if "final_info" in infos:
            # The one documented addition: the ended game's seat and seed in its final info.
            final = dict(infos["final_info"])
            for key in ("seat", "seed"):
                assert np.array_equal(final.pop(f"_{key}"), infos["_final_info"])
                final.pop(key)
            infos["final_info"] = final
        for mine, theirs in zip((*got[:4], infos), want, strict=True):
            assert _same_tree(mine, theirs), f"step {step}"
        ended += int((got[2] | got[3]).sum())
    assert ended >= 2, "too few games ended: the automatic resets were not exercised"
    ours.close()
    ref.close()


def test_batched_infos_are_what_gymnasium_builds_row_by_row() -> None:
    """``batch_infos`` (all rows at once) gives exactly Gymnasium's own ``VectorEnv._add_info`` (row
    by row): rows with different keys, nested dicts, NumPy numbers and arrays, objects, a
    ``final_obs``, and a key whose first row sets its dtype (an int, then a float written into it)."""
    from cardtable.rl.vector import batch_infos

    obs = {"observation": np.ones(3, dtype=np.float32), "action_mask": np.zeros(2, dtype=np.int8)}
    rows: list[tuple[int, dict[str, Any]]] = [
        (1, {"shaping": 0.25, "seat": 1}),
        (
            2,
            {
                "final_obs": obs,
                "final_info": {"true_reward": -1.0, "result": {"winners": ["P2"], "turns": 7, "details": {"P1": 3}}},
                "seat": np.int64(0),
                "picture": np.arange(4),
                "illegal_action": {"action": 3, "error": "no"},
            },
        ),
        (4, {"seat": 2.5, "final_info": {"result": {"turns": 9, "draw": True}}, "picture": np.arange(4)}),
    ]
    reference = VectorEnv()
    reference.num_envs = 5
    want: dict[str, Any] = {}
    for i, info in rows:
        want = reference._add_info(want, info, i)
    got = batch_infos(5, rows)
    assert _same_tree(got, want)
    assert list(got) == list(want)  # the same keys in the same order, masks beside their keys
    assert got["seat"].dtype == want["seat"].dtype == np.int64
    assert batch_infos(5, []) == {}


def test_each_row_is_the_single_environment_with_that_seed() -> None:
    """Row ``i`` after ``reset(seed=s)`` is the game the single-agent environment deals from ``s + i``:
    the same observations, masks and rewards for the same actions, to the end of the game."""
    envs = cardtable.rl.vector_env("doctor-strange", 2, opponents="random")
    singles = [cardtable.rl.gymnasium_env("doctor-strange", opponents="random") for _ in range(2)]
    obs, _ = envs.reset(seed=40)
    single_obs = [env.reset(seed=40 + i)[0] for i, env in enumerate(singles)]
    rng = np.random.default_rng(2)
    live = [True, True]
    for _ in range(400):
        actions = np.array([int(rng.choice(a)) for a in envs.legal_actions()])
        for i in range(2):
            if live[i]:
                assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
                assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i, env in enumerate(singles):
            if not live[i]:
                continue
            single_obs[i], reward, te, tr, _ = env.step(int(actions[i]))
            assert rewards[i] == reward and terminated[i] == te and truncated[i] == tr
            if te or tr:
                assert np.array_equal(infos["final_obs"][i]["observation"], single_obs[i]["observation"])
                live[i] = False
        if not any(live):
            break
    assert not any(live), "the games did not end in 400 steps"


def test_seeds_reproduce_whole_runs_in_one_process_or_in_workers() -> None:
    """The same seeds and actions give the same batches, resets included, with every game in this
    process or split over two worker processes."""
    kwargs: dict[str, Any] = {"players": 2, "seat": None, "opponents": "random"}
    here = cardtable.rl.vector_env("mephisto", 4, **kwargs)
    again = cardtable.rl.vector_env("mephisto", 4, **kwargs)
    workers = cardtable.rl.vector_env("mephisto", 4, workers=2, **kwargs)
    try:
        runs = []
        for envs in (here, again, workers):
            envs.reset(seed=3)
            runs.append(_run(envs, 250, seed=9))
        assert _same(runs[0], runs[1]) and _same(runs[0], runs[2])
        assert any(step[2].any() for step in runs[0]), "no game ended: the resets were not exercised"
        other = cardtable.rl.vector_env("mephisto", 4, **kwargs)
        other.reset(seed=4)
        assert not _same(runs[0], _run(other, 250, seed=9))
    finally:
        workers.close()


def test_a_vector_environment_pickles_and_deep_copies_mid_run() -> None:
    envs = cardtable.rl.vector_env("mr-card-game", 3, players=2, opponents="heuristic")
    envs.reset(seed=5)
    _run(envs, 30, seed=1)
    for twin in (pickle.loads(pickle.dumps(envs)), copy.deepcopy(envs)):
        assert _same(_run(copy.deepcopy(envs), 40, seed=2), _run(twin, 40, seed=2))


def test_copy_false_hands_out_the_buffers() -> None:
    envs = cardtable.rl.vector_env("army-of-darkness", 2, copy=False)
    obs, _ = envs.reset(seed=1)
    obs2, *_ = envs.step(envs.sample_legal(np.random.default_rng(0)))
    assert obs2["observation"] is obs["observation"]
    shared = cardtable.rl.vector_env("army-of-darkness", 2)
    first, _ = shared.reset(seed=1)
    second, *_ = shared.step(shared.sample_legal(np.random.default_rng(0)))
    assert first["observation"] is not second["observation"]


def test_researcher_conveniences() -> None:
    envs = cardtable.rl.vector_env("mephisto", 2, players=2, render_mode="ansi")
    envs.reset(seed=2)
    index = int(envs.legal_actions()[0][0])
    assert envs.action_index(envs.action_meaning(index)) == index
    layout = envs.observation_layout()
    single = envs.single_observation_space
    assert isinstance(single, spaces.Dict) and isinstance(single["observation"], spaces.Box)
    assert layout[0]["start"] == 0 and layout[-1]["stop"] == single["observation"].shape[0]
    assert len(envs.texts()) == 2 and all(isinstance(t, str) and t for t in envs.texts())
    assert envs.render() == tuple(envs.texts())
    assert [r["seed"] for r in envs.records()] == [2, 3]
    assert all("hands" in s for s in envs.snapshots()) and envs.seats() == [0, 0]
    assert envs.action_masks().dtype == np.bool_


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        cardtable.rl.vector_env("mephisto", 0)
    with pytest.raises(ValueError, match="workers"):
        cardtable.rl.vector_env("mephisto", 2, workers=3)
    with pytest.raises(ValueError, match="seat must be"):
        cardtable.rl.vector_env("mephisto", 2, seat=5)
    with pytest.raises(ValueError, match="reward"):
        cardtable.rl.vector_env("mephisto", 2, reward="shaped")
    with pytest.raises(cardtable.OptionError):
        cardtable.rl.vector_env("mephisto", 2, colour="red")
    envs = cardtable.rl.vector_env("mephisto", 2)
    envs.reset(seed=1)
    with pytest.raises(ValueError, match="2 actions"):
        envs.step(np.array([0]))
    with pytest.raises(ValueError, match="2 seeds"):
        envs.reset(seed=[1])
    envs.close()
    with pytest.raises(RuntimeError, match="closed"):
        envs.reset(seed=1)
