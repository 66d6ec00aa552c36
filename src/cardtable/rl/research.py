"""What every cardtable environment offers researchers beyond its library's API.

* :meth:`Codebook.action_meaning` and :meth:`Codebook.action_index`: an action index as text
  (``play card=17``) and back (the vectorised environments offer these too);
* :meth:`Codebook.observation_layout`: which slice of the observation vector is what, as data;
* :meth:`Research.state` and :attr:`Research.state_space`: the global state for centralised critics
  (every seat's observation, side by side) and :meth:`Research.snapshot`, the god view;
* :func:`layout_of`: the same layout for any loaded game.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import Vector
from cardtable.rl.episode import Episode
from cardtable.rl.observe import Observer
from cardtable.rl.spaces import ActionCodec


def layout_of(observer: Observer) -> list[dict[str, JSON]]:
    """The observation layout as data: one dict per block, in order, with ``name``, ``start``,
    ``stop`` (the slice), ``shape``, ``low``/``high`` (the bounds of every value) and ``doc`` (what
    it holds). ``docs/rl.md`` shows the same tables."""
    return [
        {
            "name": b.name,
            "start": b.start,
            "stop": b.stop,
            "shape": list(b.shape),
            "low": b.low,
            "high": b.high,
            "doc": b.doc,
        }
        for b in observer.layout
    ]


class Codebook:
    """Action text and index, both ways, and the observation layout: what every environment offers,
    the vectorised ones included; an environment sets ``codec`` and ``observer``."""

    codec: ActionCodec
    observer: Observer

    def action_meaning(self, index: int) -> str:
        """The text of the action with ``index`` (``play card=17``); raises ``MalformedAction`` for an
        index out of range."""
        return self.codec.action(index).text

    def action_text(self, index: int) -> str:
        """The same as :meth:`action_meaning`."""
        return self.action_meaning(index)

    def action_index(self, text: str) -> int:
        """The index of the action with this text (``"play card=17"``, its parts in any order);
        raises ``MalformedAction`` for text that names no action of the game."""
        return self.codec.index(text)

    def observation_layout(self) -> list[dict[str, JSON]]:
        """The observation vector's blocks as data (see :func:`layout_of`)."""
        return layout_of(self.observer)


class Research(Codebook):
    """The conveniences (see the module docstring); an environment sets ``game``, ``codec`` and
    ``observer``, and says which episode is live (:meth:`_research_episode`)."""

    game: Game

    def _research_episode(self) -> Episode:
        episode: Episode | None = getattr(self, "episode", None)
        if episode is None:
            raise RuntimeError("call reset() before using the environment")
        return episode

    @property
    def state_space(self) -> gymnasium.spaces.Box:
        """The space of :meth:`state`: every seat's observation space, side by side."""
        n = self.game.players
        low = np.tile(self.observer.low, n)
        high = np.tile(self.observer.high, n)
        return gymnasium.spaces.Box(low, high, (self.observer.size * n,), dtype=np.float32)

    def state(self) -> Vector:
        """The global state, for centralised critics: every seat's observation, in seat order, in one
        vector. Together they hold everything any seat knows (every hand, every card a seat was shown):
        the god view of the table. What no seat knows (the deck's order, future dice) is not in it;
        :meth:`snapshot` has that. Never give it to a policy that plays a seat."""
        episode = self._research_episode()
        size = self.observer.size
        out = np.empty(size * self.game.players, dtype=np.float32)
        for seat in range(self.game.players):
            self.observer.write(episode.state, seat, out[seat * size : (seat + 1) * size])
        return out

    def snapshot(self) -> dict[str, JSON]:
        """The engine's god view: the whole state (every hand, the deck's order, the generator),
        JSON-ready. For debugging and tools, never for a seat's eyes."""
        return self._research_episode().state.snapshot()

    def research_info(self) -> dict[str, Any]:
        """Sizes at a glance: observation size, actions, seats."""
        return {"observation": self.observer.size, "actions": self.codec.size, "players": self.game.players}
