"""One game played through an RL adapter: the engine state, its observer and action codec, its limits.

The adapters (PettingZoo, Gymnasium, the vectorised environment, OpenSpiel) share this: it owns the
rules-free plumbing between the protocol and arrays, so each adapter is only its library's API. A
seat's observation comes from the game's observer (:mod:`cardtable.rl.observe`), proved equal to the
encoding of ``state.view(seat)``; it never reads hidden information on a seat's behalf.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.engine.errors import GameOver
from cardtable.engine.game import JSON, Game, State
from cardtable.rl.encode import Vector
from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS, check_limit
from cardtable.rl.observe import Observer, Tracker
from cardtable.rl.rewards import rewards
from cardtable.rl.spaces import ActionCodec, Mask

Trackers = dict[int, Tracker]
"""The observation buffers of an environment, by seat: kept across its games (an observer brings a
buffer up to date whatever state it held before)."""


class Episode:
    """A game from ``seed``: observations and masks per seat, actions by index, rewards at the end.

    ``max_steps`` stops the game after that many decisions (every seat's) and ``max_turn_steps``
    after that many decisions within one turn (:mod:`cardtable.rl.limits`; None: no limit): a stop is
    a *truncation*, every reward 0 (the game was not finished). Otherwise a game ends by its rules or
    its own documented limit (an option such as ``turn-limit``, which the result marks
    ``truncated``).
    """

    __slots__ = (
        "_indices",
        "_items",
        "_legal",
        "_limit",
        "_turn",
        "_turn_limit",
        "codec",
        "game",
        "max_steps",
        "max_turn_steps",
        "observer",
        "seed",
        "state",
        "steps",
        "stopped",
        "trackers",
        "turn_steps",
    )

    def __init__(
        self,
        game: Game,
        observer: Observer,
        codec: ActionCodec,
        seed: int,
        max_steps: int | None = MAX_STEPS,
        max_turn_steps: int | None = MAX_TURN_STEPS,
        trackers: Trackers | None = None,
        state: State | None = None,
    ) -> None:
        self.game = game
        self.observer = observer
        self.codec = codec
        self.seed = seed
        self.max_steps = max_steps
        self.max_turn_steps = max_turn_steps
        self._limit = check_limit("max_steps", max_steps)
        self._turn_limit = check_limit("max_turn_steps", max_turn_steps)
        # ``state``: a state of this game to go on from (a clone's), instead of dealing ``seed``.
        self.state: State = game.new(seed, log=False) if state is None else state
        self.steps = 0
        self.turn_steps = 0
        self._turn = self.state.turn
        self.stopped: str | None = None
        """Which safety limit stopped the game (``"max_steps"``, ``"max_turn_steps"``; the PettingZoo
        environments also stop it with ``"illegal_action"`` when an illegal action ended it), or None."""
        self.trackers: Trackers = {} if trackers is None else trackers
        self._items = codec.items
        self._legal: object = None
        self._indices: list[int] = []

    @property
    def current_player(self) -> int | None:
        """The seat to decide, or None once the game is over (or stopped by a limit)."""
        return None if self.stopped is not None else self.state.current_player

    @property
    def deciding(self) -> int | None:
        """:attr:`current_player`, by another name."""
        return self.current_player

    @property
    def is_over(self) -> bool:
        return self.stopped is not None or self.state.is_over

    @property
    def capped(self) -> bool:
        """Stopped by a safety limit before the game ended."""
        return self.stopped is not None

    @property
    def truncated(self) -> bool:
        """Over, but stopped by a limit (a safety limit or the game's own) rather than by its rules."""
        if self.stopped is not None:
            return True
        return self.state.is_over and self.state.result().truncated

    # -- observations --------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, JSON]:
        """The seat's view: the table as a person in that seat sees it (what the vector encodes)."""
        return self.state.view(seat)

    def view_json(self, seat: int) -> str:
        """The seat's view as canonical JSON text."""
        return json.dumps(self.state.view(seat), sort_keys=True, separators=(",", ":"))

    def tracker(self, seat: int) -> Tracker:
        tracker = self.trackers.get(seat)
        if tracker is None:
            tracker = self.trackers[seat] = self.observer.tracker()
        return tracker

    def observed(self, seat: int) -> Vector:
        """The seat's observation in its buffer (shared, overwritten at the next call: copy to keep)."""
        return self.observer.update(self.state, seat, self.tracker(seat))

    def observation(self, seat: int) -> Vector:
        """The seat's observation, a new array."""
        return self.observed(seat).copy()

    def mask(self, seat: int) -> Mask:
        """The seat's legal-action mask (all zeros unless it decides now)."""
        if self.stopped is not None:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self.state, seat)

    def legal_indices(self) -> list[int]:
        """The indices of the legal actions of the seat to decide, ascending (empty once over; a
        shared list: copy it to change it)."""
        if self.stopped is not None:
            return []
        legal = self.state.legal_actions()
        # Worked out once per decision: the engine's legal-action list is a new object after each
        # move (and kept alive here, so its identity cannot be reused by another list).
        if legal is not self._legal:
            self._legal = legal
            self._indices = sorted([a.index for a in legal])
        return self._indices

    def legal_array(self) -> npt.NDArray[np.int64]:
        """:meth:`legal_indices` as an array."""
        return np.array(self.legal_indices(), dtype=np.int64)

    # -- acting --------------------------------------------------------------------------------------
    def apply(self, index: object) -> None:
        """Apply the action with ``index`` (any integer-like value) for the seat to decide. Raises
        ``IllegalAction`` (a ``ValueError``) and changes nothing when it is not legal now or names no
        action. (Typed ``object``: the compiled build would refuse a ``numpy.int64`` otherwise.)"""
        items = self._items
        # ActionCodec.action's own fast path, inlined (the hot path of every adapter step).
        action = items[index] if type(index) is int and 0 <= index < len(items) else self.codec.action(index)
        if self.stopped is not None:
            raise GameOver(f"the game was stopped ({self.stopped}); {action.text!r} cannot be applied")
        state = self.state
        state.apply(action)
        self.steps += 1
        if state.turn != self._turn:
            self._turn = state.turn
            self.turn_steps = 0
        self.turn_steps += 1
        if not state.is_over:
            if self.steps >= self._limit:
                self.stopped = "max_steps"
            elif self.turn_steps >= self._turn_limit:
                self.stopped = "max_turn_steps"

    def rewards(self) -> list[float]:
        """Every seat's reward (all 0 before the end and after a safety stop)."""
        if not self.state.is_over:
            return [0.0] * self.game.players
        return rewards(self.state.result(), self.game.players)

    def result_json(self) -> dict[str, JSON] | None:
        """The result as JSON-ready data, or None while the game is not over by its rules."""
        return self.state.result().to_json() if self.state.is_over else None

    # An episode pickles as its fields and is made again from them around its (pickled) state; the
    # legal-action cache holds this process's actions, so a pickle (and a deep copy) leaves it out.
    # ``__reduce__``, not ``__getstate__``: unpickling a compiled (mypyc) class calls its ``__init__``.
    def __reduce__(self) -> tuple[Any, ...]:
        fields = (
            self.game,
            self.observer,
            self.codec,
            self.seed,
            self.max_steps,
            self.max_turn_steps,
            self.trackers,
            self.state,
            self.steps,
            self.turn_steps,
            self._turn,
            self.stopped,
        )
        return (_restore_episode, fields)

    def clone(self) -> Episode:
        """An independent copy (the engine's ``clone()`` of the state; new observation buffers)."""
        other = Episode(
            self.game,
            self.observer,
            self.codec,
            self.seed,
            self.max_steps,
            self.max_turn_steps,
            {},
            self.state.clone(),
        )
        other.steps = self.steps
        other.turn_steps = self.turn_steps
        other._turn = self._turn
        other.stopped = self.stopped
        return other


def _restore_episode(
    game: Game,
    observer: Observer,
    codec: ActionCodec,
    seed: int,
    max_steps: int | None,
    max_turn_steps: int | None,
    trackers: Trackers,
    state: State,
    steps: int,
    turn_steps: int,
    turn: int,
    stopped: str | None,
) -> Episode:
    episode = Episode(game, observer, codec, seed, max_steps, max_turn_steps, trackers, state)
    episode.steps = steps
    episode.turn_steps = turn_steps
    episode._turn = turn
    episode.stopped = stopped
    return episode
