"""Events: what happened, as each seat may read it, kept cheaply enough that the log can stay on.

An event has a ``kind`` (a short stable word), a public ``text`` every seat and a spectator read, and
optionally a fuller ``private`` text read only by the seats in ``to`` (the card a player drew, for
that player). :meth:`Event.for_seat` is the one place that decides who reads what.

Most events are kept as data, not text (:class:`Told`): the game that words them, a *words function*
and its arguments, taken when the event happens. The words are built only when someone reads them
(``state.events(seat)``, ``for_seat``, ``text``). A words function is ``words(game, args, seat) ->
str``: ``seat`` is the reading seat when it may read the fuller text (it is in ``to``, or every seat
reads its own wording: ``seated``), else ``None``, which asks for the public text. Its arguments must
be values taken at the time (numbers, text, tuples), never a part of the state that changes later.

A state's log (:class:`EventLog`) does not even make an object per event while the game is played:
the state appends each event's fields (kind, words function, addressees, arguments) to one flat
list, and an :class:`Event` is made for an entry the first time somebody reads it, then kept. An
event's arguments are either one tuple (``tell``) or, on the games' hot paths, the values themselves
appended after their count (``tell1`` … ``tell5``, ``tell_list``): no tuple per event, so such a
line makes no object the garbage collector tracks and never sets off a collection (a tuple that
outlives its ``apply`` counts towards the collector's threshold; in a long game with the log on,
those collections and the tuples' making were about half of what the log cost, compiled). So a game
played with the log on — the default of ``game.new()`` — pays a few list appends per event.

Why Final aliases: a game hands its words function to ``tell`` by a module-level name bound as
``Final`` (``said_draw: Final = _said_draw`` at the end of its ``said`` module). In the compiled build
a function's own name used as a value is looked up in the module's globals dictionary each time
(twice for ``said.said_draw``: the module, then its attribute), once per event; a ``Final`` name is a
C static. ``tests/engine/test_compilable.py`` checks every ``tell`` of the games for it.

Why the log is not deferred (replayed from the history when first read): the replay would start
from a copy of the state taken where the log began, and a state's fields are public, changed by
more than ``apply`` (rulebook scenarios and users set up positions by assigning hands, decks and
phases). Such a change is invisible to the engine, so a replay would tell, silently, events of a
game that was never played. The log is therefore recorded as it happens, as cheaply as above.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, overload

from mypy_extensions import mypyc_attr

Words = Callable[[Any, tuple[Any, ...], "int | None"], str]
"""``words(game, args, seat)``: an event's text for ``seat`` (``None``: the public text)."""

NOBODY: Final[frozenset[int]] = frozenset()
SEATED: Final[frozenset[int]] = frozenset((-1,))
"""In a log's buffer, the addressees of an event every seat reads in its own words (-1 is no seat;
compared by value, so a log that went through pickle still knows its seated events)."""
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


class EventLog(Sequence[Event]):
    """A state's event log: its events so far, oldest first, as a read-only sequence of :class:`Event`.

    The state records into :attr:`raw`, each event as a run of slots: the kind, the words function
    (None for an event given as text), the addressees (:data:`SEATED` for an event every seat reads
    in its own words), then either one slot (the arguments as a tuple, or the :class:`Event` itself
    for one given as text) or an ``int`` count ``n`` followed by the ``n`` arguments themselves (the
    flat ``tell1`` … ``tell5``; they reach the words function as one tuple all the same). Reading the
    log (its length, indexing, slicing, iterating) finds where each entry starts and makes the
    :class:`Event` objects of the entries not yet made, and keeps them: the same entry read twice is
    the same object. Only the state appends to ``raw``.
    """

    __slots__ = ("_made", "_scanned", "_starts", "game", "raw")

    def __init__(self, game: Any, raw: list[Any] | None = None) -> None:
        self.game = game
        self.raw: list[Any] = [] if raw is None else raw
        self._made: list[Event] = []
        self._starts: list[int] = []
        """Where each entry found so far starts in ``raw``."""
        self._scanned = 0
        """Where the next entry not yet found starts (``len(raw)`` once every entry is found)."""

    def _scan(self) -> list[int]:
        """Find the entries appended since the last read; returns the start of every entry."""
        starts = self._starts
        raw = self.raw
        j = self._scanned
        end = len(raw)
        while j < end:
            starts.append(j)
            count = raw[j + 3]
            j += 4 + count if type(count) is int else 4
        self._scanned = j
        return starts

    def upto(self, stop: int) -> list[Event]:
        """The list of made events, at least the first ``stop`` of them (the caller must not change it)."""
        made = self._made
        if len(made) < stop:
            starts = self._scan()
            raw = self.raw
            game = self.game
            for k in range(len(made), stop):
                j = starts[k]
                words = raw[j + 1]
                data = raw[j + 3]
                if words is None:
                    made.append(data)
                    continue
                args = tuple(raw[j + 4 : j + 4 + data]) if type(data) is int else data
                if raw[j + 2] == SEATED:
                    made.append(Told(raw[j], game, words, args, NOBODY, True))
                else:
                    made.append(Told(raw[j], game, words, args, raw[j + 2], False))
        return made

    def index_at(self, position: int) -> int:
        """The index of the entry that starts at ``position`` of ``raw`` (or of the first entry after
        it; ``len(self)`` at the end of the buffer)."""
        starts = self._scan()
        return bisect_left(starts, position)

    def head(self, count: int) -> EventLog:
        """A new log holding this log's first ``count`` events (the same event objects where made)."""
        starts = self._scan()
        end = starts[count] if count < len(starts) else len(self.raw)
        out = EventLog(self.game, self.raw[:end])
        out._made = self._made[:count]
        return out

    def __len__(self) -> int:
        return len(self._scan())

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        made = self.upto(len(self._scan()))
        if isinstance(index, slice):
            return made[index]
        return made[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.upto(len(self._scan()))[:])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, LogSlice, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (EventLog, (self.game, self.raw))


# Native in the compiled build (one is made per apply that logs something, so it must be cheap to make),
# and acyclic (it refers to a log, never back): it is not a subclass of Sequence but registered as one.
@mypyc_attr(acyclic=True)
class LogSlice:
    """The events one ``apply`` caused: the entries recorded between positions ``start`` and ``stop``
    of a log's buffer, a read-only sequence of :class:`Event` (``len``, indexing, slicing, iteration,
    ``in``) whose objects are made when it is read. The log only grows, so it stays true after later
    applies."""

    __slots__ = ("log", "start", "stop")

    def __init__(self, log: EventLog, start: int, stop: int) -> None:
        self.log = log
        self.start = start
        self.stop = stop

    def _events(self) -> list[Event]:
        log = self.log
        first = log.index_at(self.start)
        last = log.index_at(self.stop)
        return log.upto(last)[first:last]

    def __len__(self) -> int:
        log = self.log
        return log.index_at(self.stop) - log.index_at(self.start)

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        if isinstance(index, slice):
            return self._events()[index]
        return self._events()[index]

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events())

    def __reversed__(self) -> Iterator[Event]:
        return reversed(self._events())

    def __contains__(self, item: object) -> bool:
        return item in self._events()

    def index(self, item: Event) -> int:
        """The position of ``item`` (ValueError when absent), as for any sequence."""
        return self._events().index(item)

    def count(self, item: Event) -> int:
        """How many times ``item`` occurs, as for any sequence."""
        return self._events().count(item)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, LogSlice, list, tuple)):
            return self._events() == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"LogSlice({self._events()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (LogSlice, (self.log, self.start, self.stop))


Sequence.register(LogSlice)
