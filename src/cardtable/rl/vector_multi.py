"""Vectorised self-play: N games stepped in one call with every seat a learner, batched NumPy arrays.

>>> import cardtable.rl
>>> envs = cardtable.rl.multiagent_vector_env("mephisto", 64, players=2)
>>> obs, infos = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape, infos["current_player"].shape
((64, 1047), (64, 739), (64,))
>>> obs, rewards, terminations, truncations, infos = envs.step(envs.sample_legal())
>>> rewards.shape
(64, 2)

This is the PettingZoo game (:mod:`cardtable.rl.pettingzoo_env`) vectorised, for the form in which a
turn-based game applies: in each row exactly one seat decides at a time (the AEC model), so a step
takes one action per row, for the seat that decides there, and returns for each row the observation
and mask *of the seat that decides next* with its number in ``infos["current_player"]`` (the
convention of batched turn-based simulators such as Pgx). ``rewards`` is ``(N, players)``: every
seat's reward at this step, 0 until a game ends, then the result's (:mod:`cardtable.rl.rewards`), so
a learner that plays all seats with one policy credits each seat's decisions with that seat's
column. ``agents``, :meth:`observe` (any seat's observations, all rows) and :meth:`state` (every
seat's side by side: the god view, for centralised critics, never for a policy) give the per-agent
access of PettingZoo's parallel API.

**Automatic resets** (Gymnasium's ``SAME_STEP`` mode): a row whose game ended (or was stopped by a
safety limit: a truncation with every reward 0) returns the first observation of its next game in
the same step; ``infos["final_obs"][i]`` holds every seat's last observation of the ended game
(``(players, size)``), ``infos["final_info"][i]`` its ``result``, ``seed`` and, for a stop, which
limit ``stopped`` it; ``infos["_final_obs"]`` / ``infos["_final_info"]`` say which rows.

**Seeding** is the vectorised environment's (:mod:`cardtable.rl.vector`): ``reset(seed=s)`` deals row
``i`` the game ``s + i`` and seeds the row's generator from it, which draws every later game of the
row, so the same seeds and actions give the same batches. Row ``i`` is the PettingZoo environment
reset with that seed.

**Bad input changes nothing**: every action is checked against its row's mask before any is applied;
an illegal one raises ``IllegalAction`` naming the row and the action. Observations are written by
the game's observer, each seat's buffer of each row updated with only what changed; games run in
this process (for worker processes, use :mod:`cardtable.rl.vector` with policies as opponents).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from gymnasium.vector.utils import batch_space

import cardtable
from cardtable.engine.errors import IllegalAction
from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import encoder_for
from cardtable.rl.episode import Episode, Trackers
from cardtable.rl.gym_env import observation_space
from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS, check_limit
from cardtable.rl.observe import observer_for
from cardtable.rl.pettingzoo_env import agent_name
from cardtable.rl.research import Codebook
from cardtable.rl.spaces import ActionCodec


class CardtableMultiAgentVectorEnv(Codebook):
    """``num_envs`` games of ``game_id``, every seat a learner (see the module docstring). Options are
    those of :func:`cardtable.load`; ``encoder``, ``observe``, ``max_steps`` and ``max_turn_steps``
    are those of every cardtable environment; ``copy=False`` returns the environment's own arrays
    (valid until the next call) instead of copies."""

    metadata: dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        *,
        encoder: str = "auto",
        observe: str = "auto",
        max_steps: int | None = MAX_STEPS,
        max_turn_steps: int | None = MAX_TURN_STEPS,
        copy: bool = True,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        check_limit("max_steps", max_steps)
        check_limit("max_turn_steps", max_turn_steps)
        self.game: Game = cardtable.load(game_id, **options)
        self.encoder = encoder_for(self.game, encoder)
        self.observer = observer_for(self.game, self.encoder, observe)
        self.codec = ActionCodec(self.game)
        self.num_envs = num_envs
        self.players = self.game.players
        self.copy = copy
        self.max_steps = max_steps
        self.max_turn_steps = max_turn_steps
        self.possible_agents = [agent_name(seat) for seat in range(self.players)]
        self.agents = self.possible_agents[:]
        self.single_observation_space = observation_space(
            self.observer.size, self.observer.low, self.observer.high, self.codec.size
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.codec.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.spaces.MultiDiscrete(np.full(num_envs, self.codec.size, dtype=np.int64))
        n = num_envs
        self.observations = np.zeros((n, self.observer.size), dtype=np.float32)
        self.masks = np.zeros((n, self.codec.size), dtype=np.int8)
        self.current_player = np.full(n, -1, dtype=np.int64)
        self.rewards = np.zeros((n, self.players), dtype=np.float64)
        self.terminations = np.zeros(n, dtype=np.bool_)
        self.truncations = np.zeros(n, dtype=np.bool_)
        self._trackers: list[Trackers] = [{} for _ in range(n)]
        self._masked: list[list[int]] = [[] for _ in range(n)]
        """Per row, the indices set in its mask."""
        self._generators = [seeding.np_random(None)[0] for _ in range(n)]
        self.np_random: np.random.Generator = seeding.np_random(None)[0]
        """The environment's own generator (:meth:`sample_legal`'s), seeded by ``reset(seed=s)``."""
        self.episodes: list[Episode] = []

    # -- the API --------------------------------------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game in every row (see the module docstring for ``seed``)."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, bool):
            raise TypeError("reset(seed=...) takes an integer or one seed per row, not a bool")
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"reset(seed=...) needs {n} seeds (one per row), got {len(seeds)}")
        if isinstance(seed, int):
            self.np_random = seeding.np_random(seed)[0]
        self.episodes = []
        for i, s in enumerate(seeds):
            if s is not None:
                self._generators[i] = seeding.np_random(s)[0]
                game_seed = int(s)
            else:
                game_seed = int(self._generators[i].integers(0, 2**62))
            self.episodes.append(self._deal(i, game_seed))
            self._write(i)
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        infos = {"current_player": self._out(self.current_player), "seed": np.array([e.seed for e in self.episodes])}
        return self._batch(), infos

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per row, for the seat that decides in it (``infos["current_player"]``). Raises
        ``ValueError`` (``IllegalAction`` for a legal-looking index the row's mask forbids) and changes
        nothing when any action is not legal in its row."""
        if not self.episodes:
            raise RuntimeError("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise ValueError(
                f"step() takes {self.num_envs} actions as integers (one per row), got an array of shape "
                f"{chosen.shape} and dtype {chosen.dtype}"
            )
        size = self.codec.size
        for i, a in enumerate(chosen.tolist()):
            if not 0 <= a < size:
                raise ValueError(f"row {i}: action index {a} is out of range (0 to {size - 1})")
            if not self.masks[i, a]:
                seat = int(self.current_player[i])
                raise IllegalAction(
                    f"row {i}: {self.codec.items[a].text!r} is not legal for {agent_name(seat)} now "
                    "(nothing was applied)"
                )
        self.rewards.fill(0.0)
        self.terminations.fill(False)
        self.truncations.fill(False)
        ended: list[int] = []
        final_obs = np.empty(self.num_envs, dtype=object)  # None in rows whose game goes on
        final_info = np.empty(self.num_envs, dtype=object)
        for i, a in enumerate(chosen.tolist()):
            episode = self.episodes[i]
            episode.apply(a)
            if not episode.is_over:
                self._write(i)
                continue
            self.rewards[i] = episode.rewards()
            if episode.truncated:
                self.truncations[i] = True
            else:
                self.terminations[i] = True
            final_obs[i] = {
                "observation": np.stack([episode.observation(seat) for seat in range(self.players)]),
                "action_mask": np.zeros((self.players, size), dtype=np.int8),
            }
            info: dict[str, Any] = {"result": episode.result_json(), "seed": episode.seed}
            if episode.stopped is not None:
                info["stopped"] = episode.stopped
            final_info[i] = info
            ended.append(i)
            self.episodes[i] = self._deal(i, int(self._generators[i].integers(0, 2**62)))
            self._write(i)
        infos: dict[str, Any] = {"current_player": self._out(self.current_player)}
        if ended:
            mask = np.zeros(self.num_envs, dtype=np.bool_)
            mask[ended] = True
            infos["final_obs"] = final_obs
            infos["_final_obs"] = mask
            infos["final_info"] = final_info
            infos["_final_info"] = mask.copy()
        return (
            self._batch(),
            self._out(self.rewards),
            self._out(self.terminations),
            self._out(self.truncations),
            infos,
        )

    def close(self) -> None:
        self.episodes = []

    # -- researcher conveniences -----------------------------------------------------------------------
    def observe(self, agent: str | int) -> np.ndarray:
        """Every row's observation for one seat (``"player_1"`` or ``1``), ``(N, size)``: a new array."""
        seat = self._seat(agent)
        out = np.empty((self.num_envs, self.observer.size), dtype=np.float32)
        for i, episode in enumerate(self._live()):
            out[i] = episode.observed(seat)
        return out

    def state(self) -> np.ndarray:
        """The global state of every row, ``(N, players * size)``: every seat's observation side by side,
        the god view of the table (everything any seat knows) for centralised critics. Never give it
        to a policy that plays a seat."""
        return np.concatenate([self.observe(seat) for seat in range(self.players)], axis=1)

    def legal_actions(self) -> list[npt.NDArray[np.int64]]:
        """Per row, the indices of the legal actions of the seat that decides there, ascending."""
        return [np.flatnonzero(row).astype(np.int64) for row in self.masks]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The masks as booleans (what MaskablePPO reads)."""
        return self.masks.astype(np.bool_)

    def sample_legal(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per row (from ``rng``, or the environment's generator,
        :attr:`np_random`, which ``reset(seed=s)`` seeds)."""
        rng = rng or self.np_random
        return np.array([int(rng.choice(legal)) for legal in self.legal_actions()], dtype=np.int64)

    def views(self, agent: str | int | None = None) -> list[dict[str, JSON]]:
        """Per row, the view of ``agent`` (default: the seat that decides there), for people."""
        return [e.view(self._seat(agent) if agent is not None else e.current_player) for e in self._live()]

    def texts(self, agent: str | int | None = None, width: int = 100) -> list[str]:
        """The same views as the terminal draws them."""
        from cardtable.rl.render import view_text

        return [view_text(self.game, view, width) for view in self.views(agent)]

    def records(self) -> list[dict[str, JSON]]:
        """Each row's game so far as a cardtable record (``cardtable.replay`` rebuilds it)."""
        return [e.state.record() for e in self._live()]

    # -- internals ---------------------------------------------------------------------------------------
    def _deal(self, i: int, seed: int) -> Episode:
        return Episode(
            self.game, self.observer, self.codec, seed, self.max_steps, self.max_turn_steps, self._trackers[i]
        )

    def _write(self, i: int) -> None:
        """Row ``i``'s observation and mask: those of the seat that decides there now."""
        episode = self.episodes[i]
        seat = episode.current_player
        assert seat is not None  # a row always holds a game in progress
        self.current_player[i] = seat
        self.observations[i] = episode.observed(seat)
        # Only the cells set last time are cleared, and the legal indices are the episode's (worked
        # out once per decision), written through a memoryview (a third of numpy's item cost).
        row = self.masks[i].data
        for a in self._masked[i]:
            row[a] = 0
        legal = episode.legal_indices()
        for a in legal:
            row[a] = 1
        self._masked[i] = legal

    def _batch(self) -> dict[str, np.ndarray]:
        return {"observation": self._out(self.observations), "action_mask": self._out(self.masks)}

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _live(self) -> list[Episode]:
        if not self.episodes:
            raise RuntimeError("call reset() first")
        return self.episodes

    def _seat(self, agent: str | int) -> int:
        if isinstance(agent, str) and agent in self.possible_agents:
            return self.possible_agents.index(agent)
        if isinstance(agent, int) and not isinstance(agent, bool) and 0 <= agent < self.players:
            return agent
        raise ValueError(
            f"agent must be one of {self.possible_agents} or a seat from 0 to {self.players - 1}, got {agent!r}"
        )


def multiagent_vector_env(game_id: str, num_envs: int, **kwargs: Any) -> CardtableMultiAgentVectorEnv:
    """``num_envs`` games of ``game_id`` with every seat a learner (see the module docstring)."""
    return CardtableMultiAgentVectorEnv(game_id, num_envs, **kwargs)
