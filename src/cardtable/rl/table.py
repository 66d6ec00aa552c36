"""One learner at a table: a game, the learner's seat, opponents in the other seats, the rewards.

The single-agent environments share this: :class:`cardtable.rl.gym_env.CardtableGymEnv` drives one
table, :mod:`cardtable.rl.vector` drives many. A table deals a game from a seed, lets the opponents
play until the learner must decide (or the game ends), applies the learner's actions, and keeps the
learner's observation and mask up to date in buffers it is given (rows of a batch, for the vectorised
environment), writing only what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cardtable.engine.actions import Action
from cardtable.engine.errors import IllegalAction
from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import Vector
from cardtable.rl.episode import Episode
from cardtable.rl.limits import check_limit
from cardtable.rl.observe import Observer
from cardtable.rl.opponents import Opponent, OpponentSpec, opponent_seed
from cardtable.rl.rewards import ILLEGAL_REWARD
from cardtable.rl.shaping import Potential
from cardtable.rl.spaces import ActionCodec, Mask

ILLEGAL_MODES = ("lose", "raise")

Step = tuple[float, bool, bool, dict[str, Any]]
"""What a step gives besides the observation: reward, terminated, truncated, info."""


class Table:
    """A game for one learner (see the module docstring).

    ``observation`` and ``mask`` are the buffers the table keeps up to date (float32 of the observer's
    size and int8 of the action space's; new ones if not given). ``potential`` (see
    :mod:`cardtable.rl.shaping`) adds shaped rewards; ``illegal`` is ``"lose"`` or ``"raise"``.
    """

    def __init__(
        self,
        game: Game,
        observer: Observer,
        codec: ActionCodec,
        opponents: Sequence[OpponentSpec],
        *,
        max_steps: int | None,
        max_turn_steps: int | None,
        potential: Potential | None = None,
        scale: float = 0.5,
        illegal: str = "lose",
        observation: Vector | None = None,
        mask: Mask | None = None,
    ) -> None:
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, got {illegal!r}")
        self.game = game
        self.observer = observer
        self.codec = codec
        self.specs = list(opponents)
        self.potential = potential
        self.scale = scale
        self.illegal = illegal
        check_limit("max_steps", max_steps)
        check_limit("max_turn_steps", max_turn_steps)
        self.max_steps = max_steps
        self.max_turn_steps = max_turn_steps
        self.tracker = observer.tracker(observation)
        self.mask_buffer: Mask = np.zeros(codec.size, dtype=np.int8) if mask is None else mask
        if not self.mask_buffer.flags.c_contiguous:
            raise ValueError("a table's mask buffer must be C-contiguous (a row of a C-contiguous batch)")
        self.mask_buffer.fill(0)
        self._masked: list[Action] = []
        """The actions whose cells are set in the mask buffer (the learner's legal actions when it
        last decided: the engine's own list, which it never changes once made)."""
        self.episode: Episode | None = None
        self.seat = 0
        self.opponents: dict[int, Opponent] = {}
        self.over = True
        """The learner's episode is over (the game ended, was stopped, or an illegal action ended it)."""
        self.ended_at_deal = False
        """The game ended before the learner's first decision and its outcome is not delivered yet."""
        self.illegal_action: dict[str, JSON] | None = None
        self._phi = 0.0
        self._past_decisions = 0

    # -- the game ------------------------------------------------------------------------------------
    def start(self, game_seed: int, seat: int) -> dict[str, Any]:
        """Deal the game ``game_seed`` with the learner in ``seat``, and play until it decides."""
        game = self.game
        self.seat = seat
        # The opponents' buffers (for policies) live on from game to game, as the learner's do.
        trackers = self.episode.trackers if self.episode is not None else {}
        if self.episode is not None:
            self._past_decisions += self.episode.steps
        self.episode = Episode(
            game, self.observer, self.codec, game_seed, self.max_steps, self.max_turn_steps, trackers
        )
        others = [s for s in range(game.players) if s != seat]
        self.opponents = {
            s: Opponent(spec, game, s, opponent_seed(game_seed, s)) for s, spec in zip(others, self.specs, strict=True)
        }
        self.over = False
        self.illegal_action = None
        self._play_others()
        self._phi = self.potential(self.episode.state, seat) if self.potential is not None else 0.0
        self.over = self.episode.is_over
        self.ended_at_deal = self.over
        self.refresh()
        if self.over:
            # The others' play ended the game before the learner's first decision (a safety limit
            # smaller than their turns, or a game that can end so): the mask is empty, and the next
            # step, whatever its action, delivers the outcome, so that every training loop moves on.
            return {"seat": seat, "seed": game_seed, "ended_before_decision": self._ending()}
        return {"seat": seat, "seed": game_seed}

    def step(self, action: Any) -> Step:
        """Apply the learner's action and let the others play; the buffers are then up to date."""
        episode = self.live
        if self.over:
            if self.ended_at_deal:
                self.ended_at_deal = False
                return self._end(episode, 0.0, {"ended_before_decision": self._ending()})
            raise RuntimeError("the episode is over; reset first")
        info: dict[str, Any] = {}
        try:
            episode.apply(action)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            self.over = True
            self.illegal_action = {"action": _action_repr(action), "error": str(exc)}
            info["illegal_action"] = self.illegal_action
            self.refresh()
            return ILLEGAL_REWARD, True, False, info
        self._play_others()
        reward = 0.0
        if self.potential is not None:
            phi = self.potential(episode.state, self.seat)
            shaping = self.scale * (phi - self._phi)
            self._phi = phi
            reward = shaping
            info["shaping"] = shaping
        self.over = episode.is_over
        self.refresh()
        if not self.over:
            return reward, False, False, info
        return self._end(episode, reward, info)

    def _ending(self) -> str:
        """Why the episode ended: the safety limit that stopped it, or the result's reason."""
        episode = self.live
        if episode.stopped is not None:
            return episode.stopped
        return episode.state.result().reason

    def _end(self, episode: Episode, reward: float, info: dict[str, Any]) -> Step:
        """The step that ends the episode: ``reward`` (shaping) plus the learner's outcome."""
        true = episode.rewards()[self.seat]
        info["true_reward"] = true
        if self.potential is not None:
            info["progress"] = self._phi
        info["result"] = episode.result_json()
        if episode.stopped is not None:
            info["stopped"] = episode.stopped
        truncated = episode.truncated
        return reward + true, not truncated, truncated, info

    @property
    def decisions(self) -> int:
        """Every seat's decisions in every game this table has dealt (for benchmarks)."""
        return self._past_decisions + (self.episode.steps if self.episode is not None else 0)

    @property
    def live(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() before using the environment")
        return self.episode

    def _play_others(self) -> None:
        episode = self.live
        state = episode.state
        learner = self.seat
        opponents = self.opponents
        while True:
            seat = episode.current_player
            if seat is None or seat == learner:
                return
            legal = state.legal_actions()
            # A lone legal action is taken at once (see cardtable.rl.opponents).
            index = legal[0].index if len(legal) == 1 else opponents[seat].choose(episode, legal)
            episode.apply(index)

    # -- the learner's buffers -----------------------------------------------------------------------
    def refresh(self) -> None:
        """Bring the observation and mask buffers to the learner's view of the game now."""
        episode = self.live
        self.observer.update(episode.state, self.seat, self.tracker)
        # Item writes through a memoryview cost a third of numpy's; only the cells that were set are
        # cleared (a mask is mostly zeros). The engine's legal-action list is kept as it is: no list
        # of indices is built, nor sorted, unless legal_indices() is asked for.
        buffer = self.mask_buffer.data
        for a in self._masked:
            buffer[a.index] = 0
        if self.over:
            self._masked = []
            return
        legal = episode.state.legal_actions()
        for a in legal:
            buffer[a.index] = 1
        self._masked = legal

    @property
    def observation(self) -> Vector:
        """The learner's observation buffer (shared: copy it to keep it)."""
        return self.tracker.vector

    @property
    def mask(self) -> Mask:
        """The learner's mask buffer (shared: copy it to keep it); all zeros once the episode is over."""
        return self.mask_buffer

    def legal_indices(self) -> list[int]:
        """The learner's legal action indices, ascending (empty once the episode is over)."""
        return [] if self.over else sorted([a.index for a in self._masked])

    # A table pickles as its fields and is made again from them (its buffers as pickled, not zeroed).
    # ``__reduce__``, not ``__getstate__``: unpickling a compiled (mypyc) class calls its ``__init__``.
    def __reduce__(self) -> tuple[Any, ...]:
        fields = {
            "game": self.game,
            "observer": self.observer,
            "codec": self.codec,
            "specs": self.specs,
            "potential": self.potential,
            "scale": self.scale,
            "illegal": self.illegal,
            "max_steps": self.max_steps,
            "max_turn_steps": self.max_turn_steps,
            "tracker": self.tracker,
            "mask_buffer": self.mask_buffer,
            "masked": [a.index for a in self._masked],
            "episode": self.episode,
            "seat": self.seat,
            "opponents": self.opponents,
            "over": self.over,
            "ended_at_deal": self.ended_at_deal,
            "illegal_action": self.illegal_action,
            "phi": self._phi,
            "past_decisions": self._past_decisions,
        }
        return (_restore_table, (fields,))


def _restore_table(fields: dict[str, Any]) -> Table:
    table = Table(
        fields["game"],
        fields["observer"],
        fields["codec"],
        fields["specs"],
        max_steps=fields["max_steps"],
        max_turn_steps=fields["max_turn_steps"],
        potential=fields["potential"],
        scale=fields["scale"],
        illegal=fields["illegal"],
    )
    table.tracker = fields["tracker"]
    table.mask_buffer = fields["mask_buffer"]
    table._masked = [table.codec.items[i] for i in fields["masked"]]
    table.episode = fields["episode"]
    table.seat = fields["seat"]
    table.opponents = fields["opponents"]
    table.over = fields["over"]
    table.ended_at_deal = fields.get("ended_at_deal", False)
    table.illegal_action = fields["illegal_action"]
    table._phi = fields["phi"]
    table._past_decisions = fields["past_decisions"]
    return table


def step_tables(
    tables: list[Table], actions: list[int], rewards: Any, terminations: Any, truncations: Any, first: int
) -> list[tuple[int, bool, dict[str, Any]]]:
    """Step every table with its action (the vectorised environment's rows ``first``, ``first + 1``,
    ...): each writes its observation and mask into its row of the batch (its buffers), and its
    reward, termination and truncation into ``rewards[row]``, ... (NumPy arrays). Returns, for the rows
    that have something to say, ``(row, ended, info)``: a row whose game ended (to deal the next one)
    or whose info is not empty. One loop over the rows, compiled with the tables in the compiled
    build, with no per-row environment object or check."""
    out: list[tuple[int, bool, dict[str, Any]]] = []
    got_rewards: list[float] = []
    got_terminations: list[bool] = []
    got_truncations: list[bool] = []
    row = first
    for table, action in zip(tables, actions, strict=True):
        reward, terminated, truncated, info = table.step(action)
        got_rewards.append(reward)
        got_terminations.append(terminated)
        got_truncations.append(truncated)
        ended = terminated or truncated
        if ended or info:
            out.append((row, ended, info))
        row += 1
    # One NumPy write per array for the whole batch, rather than one per row.
    rewards[first:row] = got_rewards
    terminations[first:row] = got_terminations
    truncations[first:row] = got_truncations
    return out


def _action_repr(action: object) -> JSON:
    try:
        return int(action)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return repr(action)[:60]
