"""Values worked out once per loaded game (card words, card objects) and kept while the game lives."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

if TYPE_CHECKING:
    from cardtable.engine.game import Game

G = TypeVar("G", bound="Game")
T = TypeVar("T")


def per_game(build: Callable[[G], T]) -> Callable[[G], T]:
    """Wrap ``build(game)`` so it runs once per game object. The value is kept in the game's own
    ``memo`` (keyed by ``build``), so it goes when the game does, with no weak reference to a game
    (the compiled build's objects take none)."""

    def get(game: G) -> T:
        memo = game.memo
        value = memo.get(build)
        if value is None:
            value = memo[build] = build(game)
        return cast(T, value)

    return get
