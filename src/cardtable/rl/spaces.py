"""The action codec: a game's fixed discrete action space and the legal-action mask.

Every game declares, when it is loaded, every action it can ever offer (``game.actions``); each action
has a fixed ``index`` there. That list *is* the discrete action space of every adapter: action ``i`` is
``game.actions.items[i]``, its text ``game.actions.items[i].text`` (``play card=17``). The space is
fixed per game and configuration (options can add seats or cards, so they can change it).

The mask is a ``numpy.int8`` vector over that space: 1 for the actions legal now, 0 elsewhere. Only
the seat that must decide has legal actions; every other seat's mask is all zeros.
"""

from __future__ import annotations

from typing import Any, SupportsIndex, cast

import numpy as np
import numpy.typing as npt

from cardtable.engine.actions import Action
from cardtable.engine.errors import MalformedAction
from cardtable.engine.game import Game, State

Mask = npt.NDArray[np.int8]


class ActionCodec:
    """Index ↔ action for one loaded game, and legal-action masks.

    >>> import cardtable
    >>> codec = ActionCodec(cardtable.load("mephisto", players=2))
    >>> codec.action(codec.index("done")).text
    'done'
    """

    __slots__ = ("_zeros", "game", "items", "size")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.items: list[Action] = game.actions.items
        self.size: int = len(self.items)
        self._zeros: Mask = np.zeros(self.size, dtype=np.int8)
        """A mask with nothing legal, copied for each mask (a copy is cheaper than ``np.zeros``)."""

    def action(self, index: object) -> Action:
        """The action with ``index``; raises :class:`MalformedAction` when there is none.

        Accepts any integer-like value (``numpy.int64`` too), never a bool or a float. (Typed
        ``object``: the compiled build would refuse anything else with a bare ``TypeError``.)"""
        if type(index) is int and 0 <= index < self.size:  # the hot path
            return self.items[index]
        if isinstance(index, bool | float) or not hasattr(index, "__index__"):
            raise MalformedAction(f"an action index must be an integer, not {type(index).__name__}")
        try:
            i = cast(SupportsIndex, index).__index__()
        except TypeError:  # an array of more than one value (or of shape (1,)), ...
            shape = getattr(index, "shape", None)
            raise MalformedAction(
                f"an action index must be a single integer, not {type(index).__name__}"
                + (f" of shape {tuple(shape)}" if shape is not None else "")
            ) from None
        if not 0 <= i < self.size:
            raise MalformedAction(f"action index {i} is out of range (0 to {self.size - 1})")
        return self.items[i]

    def index(self, action: object) -> int:
        """The index of an action of this game, given as an Action or its text (a
        :class:`MalformedAction` for anything else)."""
        if isinstance(action, Action):
            if action.space is self.game.actions:
                return action.index
            text = action.text
        elif isinstance(action, str):
            text = action
        else:
            raise MalformedAction(f"an action is an Action of this game or its text, not {type(action).__name__}")
        return self.game.actions.parse(text).index

    def mask(self, state: State, seat: object = None) -> Mask:
        """The legal-action mask of ``seat`` (default: the seat to decide); all zeros for a seat that
        has no decision now and once the game is over."""
        out = self._zeros.copy()
        if seat is None or seat == state.current_player:
            legal = state.legal_actions()
            if len(legal) <= 16:  # the usual case: item writes beat building an index array
                for action in legal:
                    out[action.index] = 1
            else:
                out[[action.index for action in legal]] = 1
        return out

    # A codec is made again from its game. ``__reduce__``, not ``__getstate__``: unpickling a compiled
    # (mypyc) class calls its ``__init__``.
    def __reduce__(self) -> tuple[Any, ...]:
        return (ActionCodec, (self.game,))

    def legal_indices(self, state: State) -> list[int]:
        """The indices of the legal actions, ascending (OpenSpiel wants them sorted)."""
        return sorted(action.index for action in state.legal_actions())
