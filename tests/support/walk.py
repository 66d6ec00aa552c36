"""Random play for tests: the one way a test takes a uniformly random legal action.

Every test that walks a game at random draws its choices from its own seeded generator
(:class:`cardtable.engine.rng.Rng` or the C twin), so that a failing seed replays exactly.
"""

from __future__ import annotations

from typing import Any, Protocol

from cardtable.engine.actions import Action


class Picker(Protocol):
    """A seeded generator: ``below(n)`` is a uniform integer in ``[0, n)``."""

    def below(self, n: int) -> int: ...


def random_action(state: Any, pick: Picker) -> Action:
    """A legal action of ``state`` chosen by ``pick`` (the state must not be over)."""
    legal: list[Action] = state.legal_actions()
    return legal[pick.below(len(legal))]


def apply_random(state: Any, pick: Picker) -> Action:
    """Apply a legal action of ``state`` chosen by ``pick`` and return it."""
    action = random_action(state, pick)
    state.apply(action)
    return action
