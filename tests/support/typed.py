"""Game states typed as the game's own state class, for the test helpers of every game.

``Game.new`` and ``State.determinize`` promise only a ``State``; each game's scenario helpers want its
own class (``AodState``, ``DSState``, ``McgState``, ``MephistoState``) so that mypy reads its fields."""

from __future__ import annotations

from typing import Any, TypeVar

from cardtable.engine import Game, State

S = TypeVar("S", bound=State[Any])


def deal(game: Game, cls: type[S], seed: int = 0, *, log: bool = True) -> S:
    """``game.new(seed, log=log)``, checked to be a ``cls``."""
    state = game.new(seed, log=log)
    assert isinstance(state, cls)
    return state


def determinize(state: S, seat: int, rng: object) -> S:
    """``state.determinize(seat, rng)``, typed as ``state``'s own class."""
    out = state.determinize(seat, rng)
    assert isinstance(out, type(state))
    return out
