"""One game played through an RL adapter: the engine state, its observation encoder and action codec.

The three adapters (PettingZoo, Gymnasium, OpenSpiel) share this: it owns the rules-free plumbing
between the protocol and arrays, so each adapter is only its library's API. It never reads hidden
information on behalf of a seat: a seat's observation is ``encoder.encode(state.view(seat))``.
"""

from __future__ import annotations

import json

import numpy as np

from cardtable.engine.game import JSON, Game, State
from cardtable.rl.encode import Encoder, Vector
from cardtable.rl.rewards import rewards
from cardtable.rl.spaces import ActionCodec, Mask


class Episode:
    """A game from ``seed``: observations and masks per seat, actions by index, rewards at the end.

    ``max_steps`` (optional) stops the game after that many decisions as a *truncation* (every
    reward 0: the game was not finished). Without it a game ends only by its rules or the game's own
    documented limit (an option such as ``turn-limit``, which the result marks ``truncated``).
    Observations are computed once per seat and decision, and handed out as copies.
    """

    __slots__ = (
        "_cache",
        "_cache_step",
        "_items",
        "_limit",
        "_views",
        "codec",
        "encoder",
        "game",
        "max_steps",
        "seed",
        "state",
        "steps",
    )

    def __init__(self, game: Game, encoder: Encoder, codec: ActionCodec, seed: int, max_steps: int | None = None):
        self.game = game
        self.encoder = encoder
        self.codec = codec
        self.seed = seed
        self.max_steps = max_steps
        self._limit = max_steps if max_steps is not None else 1 << 62
        self.state: State = game.new(seed, log=False)
        self.steps = 0
        self._cache: dict[int, Vector] = {}
        self._views: dict[int, dict[str, JSON]] = {}
        self._cache_step = 0
        self._items = codec.items

    @property
    def current_player(self) -> int | None:
        """The seat to decide, or None once the game is over (or stopped by ``max_steps``)."""
        return None if self.steps >= self._limit else self.state.current_player

    @property
    def is_over(self) -> bool:
        return self.state.is_over or self.steps >= self._limit

    @property
    def capped(self) -> bool:
        """Stopped by ``max_steps`` before the game ended."""
        return self.steps >= self._limit and not self.state.is_over

    @property
    def truncated(self) -> bool:
        """Over, but stopped by a limit (``max_steps`` or the game's own) rather than by its rules."""
        if self.capped:
            return True
        return self.state.is_over and self.state.result().truncated

    def view(self, seat: int) -> dict[str, JSON]:
        """The seat's view: the table as a person in that seat sees it (the text the vector encodes)."""
        return self.state.view(seat)

    def _fresh(self) -> None:
        if self._cache_step != self.steps:
            self._cache.clear()
            self._views.clear()
            self._cache_step = self.steps

    def observation(self, seat: int) -> Vector:
        """The encoded view of ``seat`` (a fresh array each call; computed once per decision)."""
        self._fresh()
        vec = self._cache.get(seat)
        if vec is None:
            view = self.state.view(seat)
            vec = self._cache[seat] = self.encoder.encode(view)
            self._views[seat] = view  # internal only: never handed out, so never changed
        return vec.copy()

    def view_json(self, seat: int) -> str:
        """The seat's view as canonical JSON text (computed once per decision, with the observation)."""
        self._fresh()
        view = self._views.get(seat)
        if view is None:
            self.observation(seat)
            view = self._views[seat]
        return json.dumps(view, sort_keys=True, separators=(",", ":"))

    def mask(self, seat: int) -> Mask:
        """The seat's legal-action mask (all zeros unless it decides now)."""
        if self.steps >= self._limit:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self.state, seat)

    @property
    def deciding(self) -> int | None:
        """:attr:`current_player`, or None once the game is over or stopped (``is_over``): one test
        for the adapters' hot path."""
        if self.steps >= self._limit or self.state.is_over:
            return None
        return self.state.current_player

    def legal_indices(self) -> list[int]:
        return [] if self.is_over else self.codec.legal_indices(self.state)

    def apply(self, index: int) -> None:
        """Apply the action with ``index`` for the seat to decide. Raises ``IllegalAction`` (a
        ``ValueError``) and changes nothing when it is not legal now or names no action."""
        items = self._items
        # ActionCodec.action's own fast path, inlined (the hot path of every adapter step).
        action = items[index] if type(index) is int and 0 <= index < len(items) else self.codec.action(index)
        if self.steps >= self._limit:
            from cardtable.engine.errors import GameOver

            raise GameOver(f"the game was stopped after {self.max_steps} decisions; {action.text!r} cannot be applied")
        self.state.apply(action)
        self.steps += 1

    def rewards(self) -> list[float]:
        """Every seat's reward (all 0 before the end and after a ``max_steps`` stop)."""
        if not self.state.is_over:
            return [0.0] * self.game.players
        return rewards(self.state.result(), self.game.players)
