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


def apply_random(state: Any, pick: Picker) -> Action:
    """Apply a legal action of ``state`` chosen by ``pick`` and return it (the state must not be over)."""
    legal: list[Action] = state.legal_actions()
    action = legal[pick.below(len(legal))]
    state.apply(action)
    return action
