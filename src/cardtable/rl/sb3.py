"""Stable-Baselines3: the vectorised environment as an SB3 ``VecEnv`` (``pip install 'cardtable[rl-train]'``).

>>> from cardtable.rl.sb3 import CardtableSB3VecEnv
>>> from sb3_contrib import MaskablePPO
>>> env = CardtableSB3VecEnv("mephisto", 16, players=2, opponents="random")
>>> model = MaskablePPO("MultiInputPolicy", env, seed=0)   # masks come from env.action_masks()

SB3 has its own vector-environment class; this adapter drives a
:class:`cardtable.rl.vector.CardtableVectorEnv` (every game in one call, observations written into
the batch) behind it. Its conventions are SB3's: ``step`` returns ``dones`` and one info dict per
row, a finished game's last observation is in ``info["terminal_observation"]`` (the row already
holds the next game's first one) and ``info["TimeLimit.truncated"]`` marks a truncation;
``env_method("action_masks")`` (what sb3-contrib's MaskablePPO calls) returns every row's mask.
Each finished game's info also has ``episode`` (``r``: its return, ``l``: the learner's decisions)
and the cardtable result: ``true_reward`` (the reward without shaping) and ``result``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as missing:  # the training extra is optional: say which one to install
    raise ImportError(
        "cardtable.rl.sb3 needs Stable-Baselines3: pip install 'cardtable[rl-train]' (docs/rl.md)"
    ) from missing

from cardtable.rl.vector import CardtableVectorEnv


class CardtableSB3VecEnv(VecEnv):
    """``num_envs`` cardtable games for one learner each, as an SB3 ``VecEnv``. ``kwargs`` are those
    of :class:`~cardtable.rl.vector.CardtableVectorEnv` (``opponents``, ``seat``, ``reward``,
    ``workers``, game options ...)."""

    def __init__(self, game_id: str, num_envs: int, **kwargs: Any) -> None:
        self.venv = CardtableVectorEnv(game_id, num_envs, copy=False, **kwargs)
        super().__init__(num_envs, self.venv.single_observation_space, self.venv.single_action_space)
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(num_envs)
        self._lengths = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> dict[str, np.ndarray]:
        seeds: list[int | None] = (
            list(self._seeds) if any(s is not None for s in self._seeds) else [None] * self.num_envs
        )
        obs, _ = self.venv.reset(seed=seeds)
        self._reset_seeds()
        self._returns[:] = 0.0
        self._lengths[:] = 0
        return {key: value.copy() for key, value in obs.items()}

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_async first"
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        self._returns += rewards
        self._lengths += 1
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            finals = infos.get("final_obs")
            final_infos = infos.get("final_info", {})
            for i in np.flatnonzero(dones):
                info = out[i]
                assert finals is not None
                info["terminal_observation"] = finals[i]
                info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
                info["episode"] = {"r": float(self._returns[i]), "l": int(self._lengths[i])}
                for key in ("true_reward", "seat", "seed", "stopped"):
                    present = final_infos.get("_" + key)
                    if present is not None and present[i]:
                        info[key] = final_infos[key][i]
                self._returns[i] = 0.0
                self._lengths[i] = 0
        return (
            {key: value.copy() for key, value in obs.items()},
            rewards.astype(np.float32),
            dones.copy(),
            out,
        )

    def close(self) -> None:
        self.venv.close()

    def action_masks(self) -> np.ndarray:
        """Every row's legal-action mask, as booleans."""
        return self.venv.action_masks()

    # -- SB3's attribute plumbing: the rows share one environment object ------------------------
    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.venv, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result] * len(rows)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
