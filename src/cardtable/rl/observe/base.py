"""The observer base: :class:`Observer`, :class:`Tracker` and the reference path :class:`ViewObserver`.

What an observer is and how it writes is told in :mod:`cardtable.rl.observe`. This module and the
games' observers beside it are compiled with mypyc in the compiled build (an environment's step is
mostly its observer: the observer runs at the speed of the engine it reads); the package's
``__init__`` (the registry, run once) stays Python. :class:`Observer` allows interpreted subclasses:
a plug-in game's observer, or the leaking one of the conformance harness, is written in Python.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from mypy_extensions import mypyc_attr

from cardtable.engine.game import Game, State
from cardtable.rl.encode import Encoder, Vector

__all__ = ["Buffer", "Memo", "Observer", "Tracker", "ViewObserver", "clip"]

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

    # A memoryview does not pickle: a tracker pickles as its buffer (a copy), memo and seat, and is
    # made again from them. ``__reduce__``, not ``__getstate__``: unpickling a compiled (mypyc) class
    # calls its ``__init__``, which takes arguments.
    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_tracker, (self.vector, self.memo, self.seat))


def _restore_tracker(vector: Vector, memo: Memo, seat: int) -> Tracker:
    tracker = Tracker(np.empty_like(vector), len(memo))
    tracker.vector = vector
    tracker.view = vector.data
    tracker.memo = memo
    tracker.seat = seat
    return tracker


Buffer = Any
"""Where a section writes: a ``memoryview`` of a float32 buffer (or the array itself)."""


@mypyc_attr(allow_interpreted_subclasses=True)
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
        self._zero_cells: Any = None
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
            k = len(old)
            n = len(new)
            # A zone that only grew at its end (a card tabled, drawn or discarded: the usual change
            # between two decisions): set the new cells alone.
            if n > k and type(new) is list and type(old) is list and new[:k] == old:
                for i in range(k, n):
                    out[column[new[i]]] = 1.0
                return
            # One card gone, the others in order (a card played from a hand or taken off the table):
            # clear its cell alone.
            if n == k - 1 and type(new) is list and type(old) is list:
                i = 0
                while i < n and new[i] == old[i]:
                    i += 1
                gone = old[i]
                if new[i:] == old[i + 1 :] and gone not in new:
                    out[column[gone]] = 0.0
                    return
            if k > 4 and n > 4:
                for c in set(old).difference(new):
                    out[column[c]] = 0.0
                for c in set(new).difference(old):
                    out[column[c]] = 1.0
                return
            for c in old:
                out[column[c]] = 0.0
        for c in new:
            out[column[c]] = 1.0

    # -- following a state's change list (cardtable.engine.changes) ---------------------------------
    def _followed(self, state: Any, seat: int, out: Buffer, memo: Memo, slot: int) -> tuple[list[int], int] | None:
        """The change list (``state.changes``) this buffer follows, as the memo keeps it in ``slot``
        (the list and how many of its entries are written in), or ``None`` when the buffer is to be
        written in full: the first time, or when it last followed another state's list (a clone, a
        determinized copy, another game: the memo holds the list, so its identity cannot pass to
        another), in which case the buffer and its memo are cleared here and the common block written
        again."""
        read: tuple[list[int], int] | None = memo[slot]
        if read is not None and read[0] is not state.changes:
            out[:] = self._zeros()
            for i in range(len(memo)):
                memo[i] = None
            self._common(state, seat, out, memo)
            return None
        return read

    @staticmethod
    def _follow(state: Any, memo: Memo, slot: int) -> None:
        """After a full write: from now on ``state`` keeps a change list, and the buffer has read it
        all (``slot``: where the memo keeps the list and its place)."""
        if state.changes is None:
            state.changes = []
        memo[slot] = (state.changes, len(state.changes))

    def _zeros(self) -> Any:
        """A memoryview of :attr:`size` zeros (made once), to clear a buffer with one copy."""
        zeros = self._zero_cells
        if zeros is None:
            zeros = self._zero_cells = np.zeros(self.size, dtype=np.float32).data
        return zeros

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

    def observe(self, state: State, seat: object) -> Vector:
        """``seat``'s observation of ``state`` as a new array (a ``ValueError`` for a seat that is no
        seat of the game, whatever its type)."""
        who = self._check_seat(seat)
        out = np.empty(self.size, dtype=np.float32)
        self.write(state, who, out)
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

    # An observer is made again from its encoder (``build`` works out the rest): a compiled class is
    # unpickled through its ``__init__``.
    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.encoder,))

    def _check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"an observation is made for a seat from 0 to {self.players - 1}, got {seat!r}")
        return seat


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
