"""Values worked out once per loaded game (card words, card objects) and kept while the game lives."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar
from weakref import WeakKeyDictionary

G = TypeVar("G")
T = TypeVar("T")


def per_game(build: Callable[[G], T]) -> Callable[[G], T]:
    """Wrap ``build(game)`` so it runs once per game object; the value goes when the game does
    (a weak key: a server loading many games does not keep them alive)."""
    memo: WeakKeyDictionary[G, T] = WeakKeyDictionary()

    def get(game: G) -> T:
        value = memo.get(game)
        if value is None:
            value = memo[game] = build(game)
        return value

    return get
