"""Gymnasium single-agent environment: one learning seat against opponents in every other seat.

>>> import gymnasium
>>> import cardtable.rl.gym_env  # registers cardtable/<game>-v0 for every available game
>>> env = gymnasium.make("cardtable/mephisto-v0", players=2, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs)
['action_mask', 'observation']

The learner plays ``seat`` (default 0; ``seat=None`` draws a seat for each episode). Every other seat
is played by an opponent (``opponents``: one for all, or a list with one per other seat): an agent
spec such as ``"random"``, ``"heuristic"`` or ``"ismcts:iterations=200"``, a cardtable agent, or a
policy ``policy(observation, action_mask) -> action index`` (self-play; see
:mod:`cardtable.rl.opponents`). Opponents choose through the protocol or from their own seat's
observation, never reading what their seat cannot see. ``step`` applies the learner's action and
lets the other seats play until the learner must decide again or the game ends.

The observation is a Dict space: ``observation`` (the learner's observation vector, from the game's
observer: :mod:`cardtable.rl.observe`) and ``action_mask`` (its legal actions);
:meth:`CardtableGymEnv.action_masks` returns the mask for sb3-contrib's MaskablePPO. The reward is the
learner's reward from the result at the end (:mod:`cardtable.rl.rewards`), plus, with
``reward="shaped"``, a shaping term after each step (:mod:`cardtable.rl.shaping`). ``truncated`` is
set when the game stopped at a limit: the game's own (``turn-limit``) or the environment's safety
limits (``max_steps``, ``max_turn_steps``: :mod:`cardtable.rl.limits`). An illegal action ends the
episode with reward -1 (``illegal="lose"``, the default: so an unmasked random action, as
``gymnasium.utils.env_checker`` sends, is an outcome rather than a crash) or raises
(``illegal="raise"``).

Researcher conveniences: :meth:`~CardtableGymEnv.action_meaning` and
:meth:`~CardtableGymEnv.action_index` (index and text), :meth:`~CardtableGymEnv.legal_actions` (the
legal indices as an array), :meth:`~CardtableGymEnv.observation_layout` (which slice of the vector
is what), :meth:`~CardtableGymEnv.view` and :meth:`~CardtableGymEnv.text` (the learner's table for
people, as data and as the terminal draws it), :meth:`~CardtableGymEnv.state` (every seat's
observation side by side, for centralised critics) and :meth:`~CardtableGymEnv.snapshot` (the god
view); see :mod:`cardtable.rl.research`. The environment pickles and deep-copies mid-game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import cardtable
from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import encoder_for
from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS, check_limit
from cardtable.rl.observe import observer_for
from cardtable.rl.opponents import OpponentSpec, check_specs
from cardtable.rl.research import Research
from cardtable.rl.shaping import DEFAULT_SCALE, check_scale, potential_for
from cardtable.rl.spaces import ActionCodec, Mask
from cardtable.rl.table import ILLEGAL_MODES, Table


def observation_space(size: int, low: np.ndarray, high: np.ndarray, actions: int) -> gymnasium.spaces.Dict:
    """The Dict space of every observation: the observation vector and the action mask."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(low, high, (size,), dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (actions,), dtype=np.int8),
        }
    )


class CardtableGymEnv(Research, gymnasium.Env[dict[str, Any], Any]):
    """A cardtable game for one learner (see the module docstring).

    ``game_id`` and ``options`` are those of :func:`cardtable.load`. ``encoder``: ``"auto"``,
    ``"game"`` or ``"generic"`` (:func:`cardtable.rl.encode.encoder_for`); ``observe``: ``"auto"``,
    ``"state"`` or ``"view"`` (:func:`cardtable.rl.observe.observer_for`). ``max_steps`` and
    ``max_turn_steps`` count every seat's decisions (:mod:`cardtable.rl.limits`; None: no limit).
    ``reward``: ``"win"`` or ``"shaped"`` (with ``shaping_scale``).
    """

    # render_fps: Gymnasium asks every rendering environment for one; text frames have no frame rate.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        game_id: str,
        *,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        seat: int | None = 0,
        render_mode: str | None = None,
        illegal: str = "lose",
        encoder: str = "auto",
        observe: str = "auto",
        max_steps: int | None = MAX_STEPS,
        max_turn_steps: int | None = MAX_TURN_STEPS,
        reward: str = "win",
        shaping_scale: float = DEFAULT_SCALE,
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
        self.opponent_specs = check_specs(opponents, self.game)
        self.fixed_seat = seat
        self.render_mode = render_mode
        self.illegal = illegal
        self.reward_kind = reward
        potential = potential_for(game_id, reward)
        self.encoder = encoder_for(self.game, encoder)
        self.observer = observer_for(self.game, self.encoder, observe)
        self.codec = ActionCodec(self.game)
        self.observation_space = observation_space(
            self.observer.size, self.observer.low, self.observer.high, self.codec.size
        )
        self.action_space = gymnasium.spaces.Discrete(self.codec.size)
        # Checked here, before the table (compiled in the compiled build) would refuse a wrong type
        # with a bare TypeError.
        check_limit("max_steps", max_steps)
        check_limit("max_turn_steps", max_turn_steps)
        self.table = Table(
            self.game,
            self.observer,
            self.codec,
            self.opponent_specs,
            potential=potential,
            scale=check_scale(shaping_scale),
            illegal=illegal,
            max_steps=max_steps,
            max_turn_steps=max_turn_steps,
        )
        self.max_steps = max_steps
        self.max_turn_steps = max_turn_steps

    # -- Gymnasium API -----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game and play the other seats until the learner decides. With ``seed`` the game
        is ``game.new(seed)`` and the opponents are seeded from it, so a seeded reset and the same
        actions replay the same episode; without, the seed comes from the environment's generator
        (seeded by the last seeded reset). Where the others' play ends the game before the learner
        decides (a safety limit smaller than their turn), ``info["ended_before_decision"]`` says why
        and the mask is empty: the next step, whatever its action, delivers the outcome."""
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(seed) if seed is not None else int(rng.integers(0, 2**62))
        seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(0, self.game.players))
        info = self.table.start(game_seed, seat)
        return self._obs(), info

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated, info = self.table.step(action)
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), terminated, truncated, info

    def render(self) -> str | None:
        """``ansi``: the learner's table as text; ``human``: the same, printed."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.table.episode = None

    # -- masking and researchers ---------------------------------------------------------------------
    def action_masks(self) -> Mask:
        """The learner's legal-action mask, int8 (what sb3-contrib's MaskablePPO asks)."""
        self.table.live  # noqa: B018 - raises before the first reset
        return self.table.mask.copy()

    def legal_actions(self) -> npt.NDArray[np.int64]:
        """The learner's legal action indices, ascending (empty once the episode is over)."""
        return np.array(self.table.legal_indices(), dtype=np.int64)

    @property
    def seat(self) -> int:
        """The learner's seat in the current game."""
        return self.table.seat

    @property
    def episode(self) -> Any:
        return self.table.episode

    def view(self) -> dict[str, JSON]:
        """The learner's view as JSON-ready data: what the observation vector encodes, for people."""
        return self.table.live.view(self.table.seat)

    def text(self, width: int = 100) -> str:
        """The learner's table as text, as the terminal draws it."""
        from cardtable.rl.render import view_text

        return view_text(self.game, self.view(), width)

    @property
    def state_record(self) -> dict[str, JSON]:
        """The game so far as a cardtable record (``cardtable.replay`` rebuilds it)."""
        return self.table.live.state.record()

    # -- internals -------------------------------------------------------------------------------
    def _obs(self) -> dict[str, Any]:
        table = self.table
        return {"observation": table.observation.copy(), "action_mask": table.mask.copy()}


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


__all__ = ["ILLEGAL_MODES", "CardtableGymEnv", "env_id", "observation_space", "register_envs"]
