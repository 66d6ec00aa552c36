"""PettingZoo AEC environment for every cardtable game and configuration.

>>> from cardtable.rl import env
>>> e = env("mephisto", players=2)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` .. ``player_{n-1}``: agent ``player_i`` is seat ``i``, which people call
``env.seat_name(agent)`` (``P1``.., or ``Good``/``Evil``). The agent to act is whoever must decide now
(a defender, a player answering in a response window), not a fixed rotation. Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}``: the seat's observation (from the
game's observer, :mod:`cardtable.rl.observe`, equal to the encoding of its view) and its legal
actions over the game's fixed action space (:mod:`cardtable.rl.spaces`). ``env.view(agent)`` is the
seat's view as JSON-ready data for people, ``env.text(agent)`` the same as the terminal draws it.

Rewards come at the end from the game's result (:mod:`cardtable.rl.rewards`: zero-sum, team-mates
share); a game stopped at a limit (the game's ``turn-limit``, or the environment's ``max_steps`` and
``max_turn_steps``, :mod:`cardtable.rl.limits`) ends with ``truncations`` set instead of
``terminations``. An illegal action (one the mask forbids) raises ``IllegalAction`` with
``illegal="raise"``, or, with the default ``illegal="lose"``, ends the game: the offender gets -1, the
others 0, and ``infos[agent]["illegal_action"]`` names the action.

``env.state()`` is the global state for centralised critics (every seat's observation side by side,
in ``env.state_space``) and ``env.snapshot()`` the god view (:mod:`cardtable.rl.research`).
:func:`parallel_env` is the same game behind PettingZoo's Parallel API.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv

import cardtable
from cardtable.engine.errors import IllegalAction
from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import encoder_for
from cardtable.rl.episode import Episode, Trackers
from cardtable.rl.gym_env import observation_space as _observation_space
from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS, check_limit
from cardtable.rl.observe import Observer, observer_for
from cardtable.rl.research import Research
from cardtable.rl.rewards import ILLEGAL_REWARD
from cardtable.rl.spaces import ActionCodec
from cardtable.rl.table import ILLEGAL_MODES


def observation_space(observer: Observer, actions: int) -> gymnasium.spaces.Dict:
    """The Dict space of every observation: the observation vector and the action mask."""
    return _observation_space(observer.size, observer.low, observer.high, actions)


End = tuple[dict[str, float], bool, dict[str, dict[str, Any]]]
"""How a game ended for every agent: rewards, whether it was a truncation (else a termination), infos."""


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class _Base(Research):
    """What the AEC and Parallel environments share: the loaded game, its observer and codec, spaces,
    seeding and the researchers' conveniences."""

    metadata: dict[str, Any]
    agents: list[str]

    def _setup(
        self,
        game_id: str,
        render_mode: str | None,
        illegal: str,
        encoder: str,
        observe: str,
        max_steps: int | None,
        max_turn_steps: int | None,
        options: dict[str, Any],
    ) -> None:
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be one of {modes} or None, got {render_mode!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        self.game: Game = cardtable.load(game_id, **options)
        self.encoder = encoder_for(self.game, encoder)
        self.observer = observer_for(self.game, self.encoder, observe)
        self.codec = ActionCodec(self.game)
        self.render_mode = render_mode
        self.illegal = illegal
        self.max_steps = max_steps
        self.max_turn_steps = max_turn_steps
        check_limit("max_steps", max_steps)
        check_limit("max_turn_steps", max_turn_steps)
        self.metadata = {**self.metadata, "name": f"cardtable_{game_id.replace('-', '_')}_v0"}
        self.possible_agents = [agent_name(s) for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        # One space object per agent (each is seeded on its own), as the API tests require.
        self.observation_spaces = {a: observation_space(self.observer, self.codec.size) for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.episode: Episode | None = None
        self._trackers: Trackers = {}

    def _deal(self, seed: int | None) -> Episode:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._np_random.integers(0, 2**62))
        self.episode = Episode(
            self.game, self.observer, self.codec, game_seed, self.max_steps, self.max_turn_steps, self._trackers
        )
        return self.episode

    def _live(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def seat_name(self, agent: str) -> str:
        """How people call the agent's seat (``P1``, ``Good``, ...)."""
        return self.game.seat_name(self._seat[agent])

    def seat(self, agent: str) -> int:
        """The engine seat (0-based) of ``agent``."""
        return self._seat[agent]

    def view(self, agent: str) -> dict[str, JSON]:
        """The agent's view as JSON-ready data: what its observation vector encodes, for people."""
        return self._live().view(self._seat[agent])

    def text(self, agent: str | None = None, width: int = 100) -> str:
        """The agent's table as text, as the terminal draws it (the spectator's table for None)."""
        from cardtable.rl.render import view_text

        seat = None if agent is None else self._seat[agent]
        return view_text(self.game, self._live().view(seat), width)

    def legal_actions(self, agent: str) -> npt.NDArray[np.int64]:
        """The agent's legal action indices, ascending (empty unless it decides now)."""
        episode = self._live()
        if episode.current_player != self._seat[agent]:
            return np.zeros(0, dtype=np.int64)
        return episode.legal_array()

    @property
    def state_record(self) -> dict[str, JSON]:
        """The game so far as a cardtable record (``cardtable.replay`` rebuilds it)."""
        return self._live().state.record()

    def _act(self, agent: str, action: Any) -> End | None:
        """Apply ``agent``'s action (it must be the one to decide): None while the game goes on, else
        how it ended for every agent (the game's result, a safety stop, or the illegal action that
        ended it with ``illegal="lose"``; ``illegal="raise"`` raises and changes nothing)."""
        episode = self._live()
        try:
            episode.apply(action)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            # The game is over for every agent: no seat decides any more (empty masks and legal
            # actions, ``acting`` None), as after any other end.
            episode.stopped = "illegal_action"
            why = {"agent": agent, "action": _action_repr(action), "error": str(exc)}
            return (
                {a: ILLEGAL_REWARD if a == agent else 0.0 for a in self.agents},
                False,
                {a: {"illegal_action": dict(why)} for a in self.agents},
            )
        if not episode.is_over:
            return None
        values = episode.rewards()
        result = episode.result_json()
        infos: dict[str, dict[str, Any]] = {}
        for a in self.agents:
            info: dict[str, Any] = {"result": result, "seed": episode.seed}
            if episode.stopped is not None:
                info["stopped"] = episode.stopped
            infos[a] = info
        return {a: values[self._seat[a]] for a in self.agents}, episode.truncated, infos


class CardtableAECEnv(_Base, AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """A cardtable game as a PettingZoo AEC environment (see the module docstring).

    ``game_id`` and ``options`` are those of :func:`cardtable.load`. ``encoder``: ``"auto"``,
    ``"game"`` or ``"generic"`` (:func:`cardtable.rl.encode.encoder_for`); ``observe``: ``"auto"``,
    ``"state"`` or ``"view"`` (:func:`cardtable.rl.observe.observer_for`). ``max_steps`` and
    ``max_turn_steps`` stop a game as a truncation (:mod:`cardtable.rl.limits`; None: no limit).
    """

    metadata: dict[str, Any] = {"name": "cardtable_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        *,
        render_mode: str | None = None,
        illegal: str = "lose",
        encoder: str = "auto",
        observe: str = "auto",
        max_steps: int | None = MAX_STEPS,
        max_turn_steps: int | None = MAX_TURN_STEPS,
        **options: Any,
    ) -> None:
        super().__init__()
        self._setup(game_id, render_mode, illegal, encoder, observe, max_steps, max_turn_steps, options)
        self.agents: list[str] = []

    # -- PettingZoo API ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. With ``seed`` the game is ``game.new(seed)``: the same seed and actions give
        the same game as the engine (and its records); without, the seed comes from the environment's
        generator (seeded by the last seeded reset)."""
        episode = self._deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        current = episode.current_player
        self.agent_selection = self.possible_agents[current if current is not None else 0]

    def observe(self, agent: str) -> dict[str, Any]:
        episode = self.episode
        if episode is None:
            raise RuntimeError("call reset() before using the environment")
        seat = self._seat[agent]
        # The hot path of every PettingZoo loop (``last()`` at each decision): the observer's update
        # of the seat's buffer, then a copy to hand out, and the mask (Episode.observation and
        # Episode.mask, without their calls and checks).
        vector = self.observer.update(episode.state, seat, episode.tracker(seat)).copy()
        return {"observation": vector, "action_mask": episode.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act now; None is only for agents whose game is over")
        # _cumulative_rewards[agent] is 0 while the game goes on: rewards come at the end alone.
        end = self._act(agent, action)
        if end is None:
            # Rewards are 0 until the end: nothing to clear or to accumulate (the hot path).
            seat = self.episode.state.current_player  # type: ignore[union-attr]  # _act checked it
            assert seat is not None  # the game goes on
            self.agent_selection = self.possible_agents[seat]
        else:
            self._cumulative_rewards[agent] = 0.0
            rewards, truncated, infos = end
            ended = self.truncations if truncated else self.terminations
            for a in self.agents:
                self.rewards[a] = rewards[a]
                ended[a] = True
                self.infos[a] = infos[a]
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The agent's legal-action mask alone (what ``observe`` gives without the observation)."""
        return self._live().mask(self._seat[agent])

    def render(self) -> str | None:
        """``ansi``: the acting seat's table as text (the spectator's once the game is over);
        ``human``: the same, printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        episode = self._live()
        seat = episode.current_player
        text = self.text(None if seat is None else agent_name(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.episode = None


class CardtableParallelEnv(_Base, ParallelEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """The same game behind PettingZoo's Parallel API: every step takes an action per live agent and
    returns every agent's observation, reward, termination, truncation and info.

    The games are turn-based: at each step exactly one agent decides (its mask has legal actions; the
    others' masks are all zero) and only its action is applied; the others' actions are ignored (pass
    anything, ``None`` included). ``env.acting`` names the agent to decide. Rewards, ends, illegal
    actions and limits are as in the AEC environment; when the game ends every agent leaves together.
    """

    metadata: dict[str, Any] = {"name": "cardtable_v0", "render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game_id: str,
        *,
        render_mode: str | None = None,
        illegal: str = "lose",
        encoder: str = "auto",
        observe: str = "auto",
        max_steps: int | None = MAX_STEPS,
        max_turn_steps: int | None = MAX_TURN_STEPS,
        **options: Any,
    ) -> None:
        self._setup(game_id, render_mode, illegal, encoder, observe, max_steps, max_turn_steps, options)
        self.agents: list[str] = []

    @property
    def acting(self) -> str | None:
        """The agent that decides now (None once the game is over)."""
        episode = self._live()
        seat = episode.current_player
        return None if seat is None else self.possible_agents[seat]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._deal(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int | None]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        self._live()
        agents = self.agents
        if not agents:
            raise RuntimeError("the game is over; call reset()")
        acting = self.acting
        assert acting is not None
        if acting not in actions:
            raise ValueError(f"{acting} must act now: step() needs an action for it")
        end = self._act(acting, actions[acting])
        observations = self._observations()
        if end is None:
            rewards = dict.fromkeys(agents, 0.0)
            terminations = dict.fromkeys(agents, False)
            truncations = dict.fromkeys(agents, False)
            infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        else:
            rewards, truncated, infos = end
            terminations = dict.fromkeys(agents, not truncated)
            truncations = dict.fromkeys(agents, truncated)
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.text(self.acting)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.episode = None

    def _observations(self) -> dict[str, Any]:
        episode = self._live()
        return {
            a: {"observation": episode.observation(s), "action_mask": episode.mask(s)}
            for s, a in enumerate(self.possible_agents)
        }


def _action_repr(action: object) -> JSON:
    try:
        return int(action)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return repr(action)[:60]


def raw_env(game_id: str, **kwargs: Any) -> CardtableAECEnv:
    """The unwrapped AEC environment (PettingZoo's naming)."""
    return CardtableAECEnv(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> CardtableParallelEnv:
    """The Parallel environment of ``game_id`` (see :class:`CardtableParallelEnv`)."""
    return CardtableParallelEnv(game_id, **kwargs)
