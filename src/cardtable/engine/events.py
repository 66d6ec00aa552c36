"""Events: what happened, as each seat may read it, kept cheaply enough that the log can stay on.

An event has a ``kind`` (a short stable word), a public ``text`` every seat and a spectator read, and
optionally a fuller ``private`` text read only by the seats in ``to`` (the card a player drew, for
that player). :meth:`Event.for_seat` is the one place that decides who reads what.

Most events are kept as data, not text (:class:`Told`): the game that words them, a *words function*
and its arguments, taken when the event happens. The words are built only when someone reads them
(``state.events(seat)``, ``for_seat``, ``text``), so a game played with the log on — the default of
``game.new()`` — pays for a small object per event instead of formatting every line for every seat.
A words function is ``words(game, args, seat) -> str``: ``seat`` is the reading seat when it may read
the fuller text (it is in ``to``, or every seat reads its own wording: ``seated``), else ``None``,
which asks for the public text. Its arguments must be values taken at the time (numbers, text,
tuples), never a part of the state that changes later.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mypy_extensions import mypyc_attr

Words = Callable[[Any, tuple[Any, ...], "int | None"], str]
"""``words(game, args, seat)``: an event's text for ``seat`` (``None``: the public text)."""

NOBODY: Final[frozenset[int]] = frozenset()
_ONLY: Final = tuple(frozenset((seat,)) for seat in range(64))


def only(seat: int) -> frozenset[int]:
    """``frozenset({seat})``, without building a new set per event."""
    return _ONLY[seat] if 0 <= seat < 64 else frozenset((seat,))


# acyclic: an event refers to values, never back to a state, so the compiled build need not track
# events for the cycle collector (cheaper to make, and a long log no longer slows collections).
@mypyc_attr(allow_interpreted_subclasses=True, acyclic=True)
class Event:
    """One thing that happened, as each seat may read it (its texts given as text).

    ``text`` is what every seat (and a spectator) may read. ``private`` is the fuller text shown only
    to the seats in ``to`` (for example the name of the card a player drew, shown to that player).
    """

    __slots__ = ("_private", "_text", "kind", "to")

    def __init__(self, kind: str, text: str, private: str | None = None, to: frozenset[int] = NOBODY) -> None:
        self.kind = kind
        self._text = text
        self._private = private
        self.to = to

    @property
    def text(self) -> str:
        """What every seat and a spectator read."""
        return self.for_seat(None)

    @property
    def private(self) -> str | None:
        """The fuller text the seats in ``to`` read, or None when there is none."""
        return self._fuller()

    def for_seat(self, seat: int | None) -> str:
        """What ``seat`` reads (``None``: a spectator)."""
        if self._private is not None and seat is not None and seat in self.to:
            return self._private
        return self._text

    def _fuller(self) -> str | None:
        return self._private

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.text, self.private, self.to) == (other.kind, other.text, other.private, other.to)

    def __hash__(self) -> int:
        return hash((self.kind, self.text, self.private, self.to))

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, text={self.text!r}, private={self.private!r}, to={self.to!r})"


@mypyc_attr(acyclic=True)
class Told(Event):
    """An event kept as data and worded when read: ``words(game, args, seat)`` (see the module).

    ``seated``: every seat reads its own wording (a line naming lanes, which each seat numbers from
    its own side); such an event has no private text, and a spectator reads ``words(..., None)``."""

    __slots__ = ("args", "game", "seated", "words")

    def __init__(
        self, kind: str, game: Any, words: Words, args: tuple[Any, ...], to: frozenset[int], seated: bool
    ) -> None:
        self.kind = kind
        self.to = to
        self.game = game
        self.words = words
        self.args = args
        self.seated = seated
        self._text = ""
        self._private = None

    def for_seat(self, seat: int | None) -> str:
        if seat is not None and (self.seated or seat in self.to):
            return self.words(self.game, self.args, seat)
        return self.words(self.game, self.args, None)

    def _fuller(self) -> str | None:
        if self.seated or not self.to:
            return None
        return self.words(self.game, self.args, min(self.to))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the call that makes it: in the compiled build a Told is made only through its
        # constructor (mypyc's __new__ of a class closed to interpreted subclasses runs __init__), so
        # the default, a blank object and its fields, cannot unpickle. Its words travel by name.
        return (type(self), (self.kind, self.game, self.words, self.args, self.to, self.seated))
