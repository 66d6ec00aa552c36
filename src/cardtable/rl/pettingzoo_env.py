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
``{"observation": float32 vector, "action_mask": int8 vector}``: the seat's view encoded
(:mod:`cardtable.rl.encode`) and its legal actions over the game's fixed action space
(:mod:`cardtable.rl.spaces`). ``env.view(agent)`` is the same view as JSON-ready data for people.

Rewards come at the end from the game's result (:mod:`cardtable.rl.rewards`: zero-sum, team-mates
share); a game stopped by its documented limit (``turn-limit``) ends with ``truncations`` set instead of
``terminations``. An illegal action (one the mask forbids) raises ``IllegalAction`` with
``illegal="raise"``, or, with the default ``illegal="lose"``, ends the game: the offender gets -1, the
others 0, and ``infos[agent]["illegal_action"]`` names the action.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv

import cardtable
from cardtable.engine.errors import IllegalAction
from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import Encoder, encoder_for
from cardtable.rl.episode import Episode
from cardtable.rl.rewards import ILLEGAL_REWARD
from cardtable.rl.spaces import ActionCodec

ILLEGAL_MODES = ("lose", "raise")


def observation_space(encoder: Encoder, actions: int) -> gymnasium.spaces.Dict:
    """The Dict space of every observation: the encoded view and the action mask."""
    low, high = encoder.layout.bounds()
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (actions,), dtype=np.int8),
        }
    )


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class CardtableAECEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """A cardtable game as a PettingZoo AEC environment (see the module docstring).

    ``game_id`` and ``options`` are those of :func:`cardtable.load`. ``encoder``: ``"auto"``,
    ``"game"`` or ``"generic"`` (:func:`cardtable.rl.encode.encoder_for`). ``max_steps`` stops a game
    after that many decisions as a truncation (default: only the game's own limits).
    """

    metadata: dict[str, Any] = {"name": "cardtable_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        *,
        render_mode: str | None = None,
        illegal: str = "lose",
        encoder: str = "auto",
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        self.game: Game = cardtable.load(game_id, **options)
        self.encoder = encoder_for(self.game, encoder)
        self.codec = ActionCodec(self.game)
        self.render_mode = render_mode
        self.illegal = illegal
        self.max_steps = max_steps
        self.metadata = {**self.metadata, "name": f"cardtable_{game_id.replace('-', '_')}_v0"}
        self.possible_agents = [agent_name(s) for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        # One space object per agent (each is seeded on its own), as the API test requires.
        self.observation_spaces = {a: observation_space(self.encoder, self.codec.size) for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.episode: Episode | None = None
        self.agents: list[str] = []

    # -- PettingZoo API ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. With ``seed`` the game is ``game.new(seed)``: the same seed and actions give
        the same game as the engine (and its records); without, the seed comes from the environment's
        generator (seeded by the last seeded reset)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._np_random.integers(0, 2**62))
        self.episode = Episode(self.game, self.encoder, self.codec, game_seed, self.max_steps)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        current = self.episode.current_player
        self.agent_selection = self.possible_agents[current if current is not None else 0]

    def observe(self, agent: str) -> dict[str, Any]:
        episode = self._live()
        seat = self._seat[agent]
        return {"observation": episode.observation(seat), "action_mask": episode.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self.episode
        if episode is None:
            episode = self._live()  # raises: no game yet
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise ValueError(f"{agent} must act now; None is only for agents whose game is over")
        try:
            episode.apply(action)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            self._end_illegal(agent, action, str(exc))
        else:
            current = episode.deciding
            if current is None:
                self._end_game()
            else:
                self.agent_selection = self.possible_agents[current]
                # Rewards are 0 until the end: nothing to clear or to accumulate (the hot path).
                if self.render_mode == "human":
                    self.render()
                return
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The agent's legal-action mask alone (what ``observe`` gives without encoding the view)."""
        episode = self.episode
        if episode is None:
            episode = self._live()  # raises: no game yet
        return episode.mask(self._seat[agent])

    def render(self) -> str | None:
        """``ansi``: the acting seat's table as text (the spectator's once the game is over);
        ``human``: the same, printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        from cardtable.rl.render import view_text

        episode = self._live()
        seat = episode.current_player
        text = view_text(self.game, episode.state.view(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.episode = None

    # -- for people ------------------------------------------------------------------------------
    def seat_name(self, agent: str) -> str:
        """How people call the agent's seat (``P1``, ``Good``, ...)."""
        return self.game.seat_name(self._seat[agent])

    def seat(self, agent: str) -> int:
        """The engine seat (0-based) of ``agent``."""
        return self._seat[agent]

    def view(self, agent: str) -> dict[str, JSON]:
        """The agent's view as JSON-ready data: what its observation vector encodes, for people."""
        return self._live().view(self._seat[agent])

    def action_text(self, action: int) -> str:
        """The text form of an action index (``play card=17``)."""
        return self.codec.action(action).text

    @property
    def state_record(self) -> dict[str, JSON]:
        """The game so far as a cardtable record (``cardtable.replay`` rebuilds it)."""
        return self._live().state.record()

    # -- internals -------------------------------------------------------------------------------
    def _live(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode

    def _end_game(self) -> None:
        episode = self._live()
        values = episode.rewards()
        truncated = episode.truncated
        result = episode.state.result().to_json() if episode.state.is_over else None
        for a in self.agents:
            self.rewards[a] = values[self._seat[a]]
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
            self.infos[a] = {"result": result, "seed": episode.seed}

    def _end_illegal(self, agent: str, action: int | None, why: str) -> None:
        for a in self.agents:
            self.rewards[a] = ILLEGAL_REWARD if a == agent else 0.0
            self.terminations[a] = True
            self.infos[a] = {"illegal_action": {"agent": agent, "action": _action_repr(action), "error": why}}


def _action_repr(action: object) -> JSON:
    try:
        return int(action)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return repr(action)[:60]


def raw_env(game_id: str, **kwargs: Any) -> CardtableAECEnv:
    """The unwrapped AEC environment (PettingZoo's naming)."""
    return CardtableAECEnv(game_id, **kwargs)
