"""Observers: a seat's observation written straight from the state into a NumPy buffer, for speed.

An observation is defined by its game's *encoder* (:mod:`cardtable.rl.encode`): the encoding of
``state.view(seat)``, the table as a person in that seat sees it. Building that view (card objects,
words, totals) costs several engine decisions, so the environments do not: each game has an
*observer* here (``cardtable.rl.observe.<game id with _>``) that reads the state and writes the same
numbers into a preallocated ``float32`` buffer, with the same layout (DESIGN.md, "Observations are
for machines").

The encoding of the view stays the reference. The conformance harness
(:func:`cardtable.testing.conformance.check_observer`) proves on random states of every
configuration that an observer's vector equals the reference encoding, and that it is unchanged under
``determinize(seat, ...)``, with a deliberately leaking observer as the positive control: hidden
information is then absent by proof rather than by construction. Nothing for people reads an
observer.

**How an observer writes.** A game's observer fills a buffer section by section (the seat's hand,
the discard pile, each seat's numbers, the dungeon, ...). Each section first works out a cheap *key*
of what it reads (the list of cards in a zone, a few numbers); writing into a buffer it filled
before (a :class:`Tracker`, which the environments keep per seat), a section whose key is unchanged
is skipped, and a changed one clears what it wrote last time and writes anew. Between two decisions
most of a vector stays the same, and a Python write into a NumPy array costs more than comparing a
key. :meth:`Observer.write` is the same code on a zeroed buffer with nothing remembered. A section's
output must be a function of its key alone (plus the seat, fixed per tracker), so the incremental
path gives the same vector as a fresh write whatever state comes next; a property test checks it at
every step of random games, switching states and seats on purpose.

A game without an observer of its own (a plug-in, the generic hashed encoder) is observed through
:class:`ViewObserver`, the reference path itself.

An observer reads the game's state attributes, which belong to the game's rules modules: a renamed
attribute fails the equivalence test, never silently.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from cardtable.engine.game import Game, State
from cardtable.rl.encode import Encoder, Vector, encoder_for

__all__ = ["Observer", "Tracker", "ViewObserver", "clip", "observer_for", "register_observer"]

Memo = list[Any]
"""What a buffer's sections wrote last, by section slot (``None``: nothing yet)."""


def clip(x: float, low: float = 0.0, high: float = 1.0) -> float:
    """``x`` clipped to ``[low, high]``, as the encoder clips its vector (the bounds are exact in
    float32, so clipping before the buffer rounds to float32 gives what clipping after does)."""
    return x if low <= x <= high else (low if x < low else high)


class Tracker:
    """A buffer an observer keeps up to date for one seat, with what each section wrote last. Make
    one with :meth:`Observer.tracker`; write into it only through :meth:`Observer.update` (read
    ``vector``, copy it to keep it)."""

    __slots__ = ("memo", "seat", "vector", "view")

    def __init__(self, vector: Vector, slots: int) -> None:
        if vector.dtype != np.float32 or vector.ndim != 1 or not vector.flags.c_contiguous:
            raise ValueError("a tracker needs a C-contiguous one-dimensional float32 buffer")
        self.vector = vector
        self.view = vector.data  # item writes through a memoryview cost less than numpy's
        self.memo: Memo = [None] * slots
        self.seat = -1
        vector.fill(0.0)

    def clear(self) -> None:
        """Zero the buffer and forget what it held."""
        self.vector.fill(0.0)
        self.memo = [None] * len(self.memo)
        self.seat = -1

    # A memoryview does not pickle: make it again (the buffer itself pickles as a copy).
    def __getstate__(self) -> tuple[Vector, Memo, int]:
        return (self.vector, self.memo, self.seat)

    def __setstate__(self, state: tuple[Vector, Memo, int]) -> None:
        self.vector, self.memo, self.seat = state
        self.view = self.vector.data


Buffer = Any
"""Where a section writes: a ``memoryview`` of a float32 buffer (or the array itself)."""


class Observer:
    """Writes seat ``seat``'s observation of a state into a buffer, with its encoder's layout.

    Subclasses set :attr:`game_id` and implement :meth:`build` (which sets :attr:`slots`) and
    :meth:`fill`, which writes into ``out`` what ``encoder.encode(state.view(seat))`` holds beyond
    the common block, section by section (see the module docstring), values computed as the encoder
    computes them (in float64; the buffer rounds them to float32 as the encoder's vector does) and
    clipped to their block's bounds (:func:`clip`). The contract, proved by ``tests/rl`` over every
    configuration: :meth:`write` and :meth:`update` give exactly (bit for bit)
    ``encoder.encode(state.view(seat))``.
    """

    game_id: ClassVar[str] = ""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.game: Game = encoder.game
        self.players: int = encoder.players
        self.layout = encoder.layout
        self.size: int = encoder.size
        self.low, self.high = encoder.low, encoder.high
        n = self.players
        self._seat_at = tuple(encoder.b_seat.start + s for s in range(n))
        self._act_at = encoder.b_to_act.start
        self._over_at = encoder.b_over.start
        self._turn_at = encoder.b_turn.start
        self._turn_scale = float(encoder.TURN_SCALE)
        self.slots = 0
        """Memo slots :meth:`fill` uses (set by :meth:`build`; slot 0 is the common block's)."""
        self.build()

    # -- to implement ------------------------------------------------------------------------------
    def build(self) -> None:
        """Work out, once per loaded game, what :meth:`fill` needs (tables from the card data)."""

    def fill(self, state: Any, seat: int, out: Buffer, memo: Memo) -> None:
        """Bring the game's blocks of ``seat``'s observation of ``state`` into ``out``, which holds
        what the sections wrote as ``memo`` records (nothing, for a memo of ``None``)."""
        raise NotImplementedError

    # -- helpers for sections ----------------------------------------------------------------------
    @staticmethod
    def column(start: int, stride: int, count: int) -> tuple[int, ...]:
        """The positions of one column of a ``count x stride`` grid starting at ``start`` (one zone
        of a cards x zones grid, by card id): ``column[c]`` is card ``c``'s cell."""
        return tuple(range(start, start + count * stride, stride))

    @staticmethod
    def cards(out: Buffer, column: tuple[int, ...], old: Any, new: Any) -> None:
        """Move a zone's cells from the cards ``old`` (None: none) to the cards ``new``."""
        if old:
            if len(old) > 4 and len(new) > 4:
                gone = set(old).difference(new)
                for c in gone:
                    out[column[c]] = 0.0
                for c in set(new).difference(old):
                    out[column[c]] = 1.0
                return
            for c in old:
                out[column[c]] = 0.0
        for c in new:
            out[column[c]] = 1.0

    # -- the contract ------------------------------------------------------------------------------
    def _common(self, state: State, seat: int, out: Buffer, memo: Memo) -> None:
        current = state.current_player
        key = (current, state.is_over, state.turn)
        old = memo[0]
        if key == old:
            return
        n = self.players
        if old is None:
            out[self._seat_at[seat]] = 1.0
        elif old[0] is not None:
            out[self._act_at + (old[0] - seat) % n] = 0.0
        if current is not None:
            out[self._act_at + (current - seat) % n] = 1.0
        out[self._over_at] = 1.0 if state.is_over else 0.0
        out[self._turn_at] = clip(state.turn / self._turn_scale)
        memo[0] = key

    def write(self, state: State, seat: int, out: Vector) -> None:
        """Write ``seat``'s observation of ``state`` into ``out`` (a float32 vector of :attr:`size`,
        a row of a batch for instance), overwriting all of it."""
        out.fill(0.0)
        view = out.data if out.flags.c_contiguous else out
        memo: Memo = [None] * (self.slots + 1)
        self._common(state, seat, view, memo)
        self.fill(state, seat, view, memo)

    def observe(self, state: State, seat: int) -> Vector:
        """``seat``'s observation of ``state`` as a new array."""
        self._check_seat(seat)
        out = np.empty(self.size, dtype=np.float32)
        self.write(state, seat, out)
        return out

    def tracker(self, vector: Vector | None = None) -> Tracker:
        """A buffer (``vector``, or a new one) for :meth:`update`."""
        return Tracker(np.empty(self.size, dtype=np.float32) if vector is None else vector, self.slots + 1)

    def update(self, state: State, seat: int, tracker: Tracker) -> Vector:
        """Bring ``tracker``'s buffer to ``seat``'s observation of ``state``, writing only what changed
        since it was last written; returns the buffer (shared: copy it to keep it)."""
        if tracker.seat != seat:
            if tracker.seat >= 0:
                tracker.clear()
            tracker.seat = seat
        memo = tracker.memo
        self._common(state, seat, tracker.view, memo)
        self.fill(state, seat, tracker.view, memo)
        return tracker.vector

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"an observation is made for a seat from 0 to {self.players - 1}, got {seat!r}")


class ViewObserver(Observer):
    """The reference path as an observer: ``encoder.encode(state.view(seat))`` (for games without an
    observer of their own, for the generic encoder, and as the yardstick of the fast observers)."""

    game_id: ClassVar[str] = "*"

    def write(self, state: State, seat: int, out: Vector) -> None:
        out[:] = self.encoder.encode(state.view(seat))

    def update(self, state: State, seat: int, tracker: Tracker) -> Vector:
        self.write(state, seat, tracker.vector)
        tracker.seat = seat
        return tracker.vector


ObserverFactory = Callable[[Encoder], Observer]

_BUILTIN: dict[str, str] = {
    "mephisto": "cardtable.rl.observe.mephisto:MephistoObserver",
    "doctor-strange": "cardtable.rl.observe.doctor_strange:DoctorStrangeObserver",
    "army-of-darkness": "cardtable.rl.observe.army_of_darkness:ArmyOfDarknessObserver",
    "mr-card-game": "cardtable.rl.observe.mr_card_game:MrCardGameObserver",
}
_EXTRA: dict[str, ObserverFactory] = {}

OBSERVE_KINDS = ("auto", "state", "view")


def register_observer(game_id: str, factory: ObserverFactory) -> None:
    """Use ``factory(encoder) -> Observer`` for ``game_id`` (plug-in games). Prove it with
    :func:`cardtable.testing.conformance.check_observer` before trusting it."""
    _EXTRA[game_id] = factory


def dedicated(game_id: str) -> bool:
    """Whether ``game_id`` has an observer of its own."""
    return _factory(game_id) is not None


def observer_for(game: Game, encoder: str | Encoder = "auto", observe: str = "auto") -> Observer:
    """The observer of a loaded game.

    ``encoder``: an encoder, or its kind for :func:`~cardtable.rl.encode.encoder_for`. ``observe``:
    ``"auto"`` (the game's own observer when it has one and the encoder is the game's own, else the
    reference path), ``"state"`` (the game's own observer; an error if there is none) or ``"view"``
    (the reference path: encode the view, the slow way)."""
    if observe not in OBSERVE_KINDS:
        raise ValueError(f"observe must be one of {', '.join(OBSERVE_KINDS)}, got {observe!r}")
    enc = encoder if isinstance(encoder, Encoder) else encoder_for(game, encoder)
    if observe == "view":
        return ViewObserver(enc)
    factory = _factory(game.id) if enc.game_id == game.id else None
    if factory is None:
        if observe == "state":
            raise ValueError(
                f"game {game.id!r} has no observer of its own for the {type(enc).__name__}; use observe='view'"
            )
        return ViewObserver(enc)
    return factory(enc)


def _factory(game_id: str) -> ObserverFactory | None:
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    target = _BUILTIN.get(game_id)
    if target is None:
        return None
    module, _, name = target.partition(":")
    if importlib.util.find_spec(module) is None:
        return None
    cls: Any = getattr(importlib.import_module(module), name)
    factory: ObserverFactory = cls
    return factory
