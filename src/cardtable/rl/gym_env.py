"""Gymnasium single-agent environment: one learning seat against agents in every other seat.

>>> import gymnasium
>>> import cardtable.rl.gym_env  # registers cardtable/<game>-v0 for every available game
>>> env = gymnasium.make("cardtable/mephisto-v0", players=2, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs)
['action_mask', 'observation']

The learner plays ``seat`` (default 0; ``seat=None`` draws a seat for each episode). Every other seat is
played by a cardtable agent (``opponents``: one spec for all, such as ``"random"``, ``"heuristic"`` or
``"ismcts:iterations=200"``, or a list with one spec per other seat), which chooses through the
protocol (:class:`cardtable.agents.Observation`), never reading what its seat cannot see. ``step``
applies the learner's action and lets the other seats play until the learner must decide again or
the game ends.

The observation is a Dict space: ``observation`` (the learner's view, encoded) and ``action_mask``
(its legal actions); :meth:`CardtableGymEnv.action_masks` returns the mask for sb3-contrib's
MaskablePPO. The reward is 0 until the end, then the learner's reward from the result
(:mod:`cardtable.rl.rewards`); ``truncated`` is set when the game stopped at its documented limit. An
illegal action ends the episode with reward -1 (``illegal="lose"``, the default: so an unmasked
random action, as ``gymnasium.utils.env_checker`` sends, is an outcome rather than a crash) or raises
(``illegal="raise"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

import cardtable
from cardtable.agents.base import Agent, Observation
from cardtable.agents.registry import make_agent
from cardtable.engine.errors import IllegalAction
from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import encoder_for
from cardtable.rl.episode import Episode
from cardtable.rl.pettingzoo_env import ILLEGAL_MODES, observation_space
from cardtable.rl.rewards import ILLEGAL_REWARD
from cardtable.rl.spaces import ActionCodec, Mask


class CardtableGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """A cardtable game for one learner (see the module docstring).

    ``game_id`` and ``options`` are those of :func:`cardtable.load`; ``encoder`` and ``max_steps`` as
    for the PettingZoo environment (``max_steps`` counts every seat's decisions).
    """

    # render_fps: Gymnasium asks every rendering environment for one; text frames have no frame rate.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        game_id: str,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        render_mode: str | None = None,
        illegal: str = "lose",
        encoder: str = "auto",
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        self.game: Game = cardtable.load(game_id, **options)
        players = self.game.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat must be a seat from 0 to {players - 1} (or None: a random seat), got {seat!r}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"opponents: {players - 1} agent spec(s) needed (one per other seat), got {len(specs)}")
        for spec in specs:  # fail now, not at the first reset
            make_agent(spec, self.game, seed=0)
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.illegal = illegal
        self.max_steps = max_steps
        self.encoder = encoder_for(self.game, encoder)
        self.codec = ActionCodec(self.game)
        self.observation_space = observation_space(self.encoder, self.codec.size)
        self.action_space = gymnasium.spaces.Discrete(self.codec.size)
        self.episode: Episode | None = None
        self.seat = 0 if seat is None else seat
        self._agents: dict[int, Agent] = {}

    # -- Gymnasium API -----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game and play the other seats until the learner decides. With ``seed`` the game
        is ``game.new(seed)`` and the opponents are seeded from it, so a seeded reset and the same
        actions replay the same episode."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(seed) if seed is not None else int(rng.integers(0, 2**62))
        if self.fixed_seat is None:
            self.seat = int(rng.integers(0, self.game.players))
        others = [s for s in range(self.game.players) if s != self.seat]
        self._agents = {
            s: make_agent(spec, self.game, seed=(game_seed * 31 + 7 * s + 1) % 2**62)
            for s, spec in zip(others, self.opponent_specs, strict=True)
        }
        self.episode = Episode(self.game, self.encoder, self.codec, game_seed, self.max_steps)
        self._play_others()
        return self._obs(), {"seat": self.seat, "seed": game_seed}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        episode = self._live()
        if episode.is_over or self._over:
            raise RuntimeError("the episode is over; call reset()")
        info: dict[str, Any] = {}
        try:
            episode.apply(action)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            self._over = True
            info["illegal_action"] = {"action": _action_repr(action), "error": str(exc)}
            return self._obs(), ILLEGAL_REWARD, True, False, info
        self._play_others()
        if self.render_mode == "human":
            self.render()
        if not episode.is_over:
            return self._obs(), 0.0, False, False, info
        reward = episode.rewards()[self.seat]
        if episode.state.is_over:
            info["result"] = episode.state.result().to_json()
        truncated = episode.truncated
        return self._obs(), float(reward), not truncated, truncated, info

    def render(self) -> str | None:
        """``ansi``: the learner's table as text; ``human``: the same, printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        from cardtable.rl.render import view_text

        text = view_text(self.game, self._live().view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.episode = None

    # -- masking and people ------------------------------------------------------------------------
    def action_masks(self) -> Mask:
        """The learner's legal-action mask as booleans-in-int8 (what sb3-contrib's MaskablePPO asks)."""
        episode = self._live()
        if self._over:
            return np.zeros(self.codec.size, dtype=np.int8)
        return episode.mask(self.seat)

    def view(self) -> dict[str, JSON]:
        """The learner's view as JSON-ready data: what the observation vector encodes, for people."""
        return self._live().view(self.seat)

    def action_text(self, action: int) -> str:
        return self.codec.action(action).text

    # -- internals -------------------------------------------------------------------------------
    _over = False

    def _live(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode

    def _obs(self) -> dict[str, Any]:
        episode = self._live()
        mask = np.zeros(self.codec.size, dtype=np.int8) if self._over else episode.mask(self.seat)
        return {"observation": episode.observation(self.seat), "action_mask": mask}

    def _play_others(self) -> None:
        self._over = False
        episode = self._live()
        state = episode.state
        while not episode.is_over:
            seat = state.current_player
            if seat == self.seat or seat is None:
                return
            legal = state.legal_actions()
            # A lone legal action is taken at once, as bots and the simulator do (the engine still
            # offers it, for fairness; no agent needs to be asked).
            choice = legal[0] if len(legal) == 1 else self._agents[seat].choose(Observation(state, seat))
            episode.apply(choice.index)


def _action_repr(action: object) -> JSON:
    try:
        return int(action)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return repr(action)[:60]


def env_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``cardtable/<game_id>-v0``."""
    return f"cardtable/{game_id}-v0"


def register_envs() -> None:
    """Register ``cardtable/<game>-v0`` for every available game (importing this module does it; so
    does ``gymnasium.make("cardtable.rl.gym_env:cardtable/<game>-v0")``). Options go to ``make``:
    ``gymnasium.make("cardtable/mephisto-v0", players=2, opponents="heuristic")``."""
    for game_id in cardtable.available():
        if env_id(game_id) not in gymnasium.registry:
            gymnasium.register(
                id=env_id(game_id),
                entry_point="cardtable.rl.gym_env:CardtableGymEnv",
                kwargs={"game_id": game_id},
                disable_env_checker=True,
                order_enforce=False,
            )


register_envs()
