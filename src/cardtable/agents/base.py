"""The agent interface: a player that chooses actions through the protocol alone.

An agent never receives the full state. It gets an :class:`Observation` for its seat: the seat's view,
its legal actions, and samples of full states consistent with that view (``state.determinize``),
which is all that search needs. This is what keeps bots from reading hidden cards.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

from cardtable.engine.rng import Rng, as_rng

if TYPE_CHECKING:
    from cardtable.engine.actions import Action
    from cardtable.engine.game import JSON, Game, State


@mypyc_attr(allow_interpreted_subclasses=True)
class Observation:
    """What one seat may use to decide: built around the true state, exposing only the seat's share."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def turn(self) -> int:
        return self._state.turn

    def view(self) -> dict[str, JSON]:
        """The seat's view (as ``state.view(seat)``)."""
        return self._state.view(self.seat)

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions (the seat is the one to decide when an agent is asked)."""
        return self._state.legal_actions()

    def history(self) -> Sequence[int]:
        """The indices of the actions taken so far as this seat knows them, in order (read it, do not
        change it): an action another seat chose out of this seat's sight (a card taken from a
        face-down deck) is ``CONCEALED`` (``state.history_for(seat)``).

        Every determinization for this seat carries this same history, so a search that reads it
        learns nothing a sample would not tell it; searches use it to find their last tree.
        """
        return self._state.history_for(self.seat)

    def sample(self, rng: Rng | int) -> State:
        """A full state consistent with the view: hidden cards and future randomness resampled."""
        return self._state.determinize(self.seat, rng)


@mypyc_attr(allow_interpreted_subclasses=True)
class Agent(ABC):
    """A player. ``choose`` must return one of ``obs.legal_actions()``."""

    name: ClassVar[str] = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.rng = as_rng(seed)

    @abstractmethod
    def choose(self, obs: Observation) -> Action:
        """Pick an action for ``obs.seat``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
