"""The RL environments' core is compiled in the compiled build and plays exactly what the pure one plays.

The compiled build compiles the episode, the one-learner table, its opponents and the action codec
(``build_backend/compiled_modules.py``: ``RL_CORE``). Run against it (CI's compiled stage), this checks
that they really are compiled, then runs a vectorised environment (every row a table, stepped by the
compiled ``step_tables``, random opponents, automatic resets) over random legal actions in this
process and in a subprocess running the pure source tree, and the two streams (observations, masks,
rewards, terminations, truncations and the rows whose game ended) must be the same bit for bit. In the
pure suite there is no second build to compare with, so the test says so and skips.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

import pytest

from tests.compiled.pure_build import compiled_only, pure_result

GAMES = ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")
CORE = ("cardtable.rl.episode", "cardtable.rl.table", "cardtable.rl.opponents", "cardtable.rl.spaces")
ROWS = 6
STEPS = 150


def digest(game_id: str) -> str:
    """The SHA-256 of everything a vectorised environment of ``game_id`` (two players where the game
    takes them) returns over ``STEPS`` steps of random legal actions from a fixed seed."""
    np = pytest.importorskip("numpy")
    import cardtable.rl

    options = {"players": 2} if game_id != "doctor-strange" else {}
    envs = cardtable.rl.vector_env(game_id, ROWS, opponents="random", seat=None, **options)
    obs, _ = envs.reset(seed=11)
    rng = np.random.default_rng(11)
    out = hashlib.sha256()
    for _ in range(STEPS):
        masks = obs["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        for array in (obs["observation"], obs["action_mask"], rewards, terminations, truncations):
            out.update(np.ascontiguousarray(array).tobytes())
        out.update(np.asarray(infos.get("_final_obs", np.zeros(ROWS, dtype=bool))).tobytes())
    envs.close()
    return out.hexdigest()


@compiled_only
@pytest.mark.parametrize("game_id", GAMES)
def test_the_compiled_core_plays_what_the_pure_one_plays(game_id: str, tmp_path: Path) -> None:
    for name in CORE:
        module = importlib.import_module(name)
        assert not str(module.__file__).endswith(".py"), f"{name} is not compiled"
    pure = pure_result("tests.compiled.test_rl_core_compiled", "digest", game_id, tmp_path)
    assert digest(game_id) == pure, f"the builds' vectorised environments differ in {game_id}"
