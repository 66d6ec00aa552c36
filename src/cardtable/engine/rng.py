"""The seeded random generator every state owns.

SplitMix64: one 64-bit word of state, so a clone copies it for free, the stream is the same on every
machine and Python version, and "was randomness used?" is a comparison of two integers.

There are two twins of :class:`Rng` with the very same numbers: the one written here in pure Python
(:data:`PyRng`, always available) and a small C extension (``cardtable.engine._crng``, built with the
compiled build, see docs/engine.md). ``Rng`` is the C one when it is built, unless the environment
variable ``CARDTABLE_PURE_RNG`` is set. Every seeded draw of the engine and the games goes through
these methods, including the games' pile draws and deals (:meth:`Rng.draw`, :meth:`Rng.pick`,
:meth:`Rng.deal`, :meth:`Rng.shuffle32`), so compiled code never does 64-bit arithmetic itself.

Arguments are checked before the state moves: a call that raises leaves the generator unchanged.
This module is never compiled with mypyc (Python ints do the 64-bit arithmetic here).
"""

from __future__ import annotations

import os
from collections.abc import MutableSequence
from typing import TYPE_CHECKING, TypeVar

_MASK = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_ROOM = 1 << 32

T = TypeVar("T")


def _count(n: object, what: str) -> int:
    """``n`` as a draw's range: an integer with 1 <= n < 2**64 (TypeError / ValueError otherwise)."""
    if not isinstance(n, int):
        raise TypeError(f"{what} must be an integer, got {type(n).__name__}")
    if not 0 < n <= _MASK:
        raise ValueError(f"{what} must be at least 1 and below 2**64")
    return n


def _word(value: object, what: str) -> int:
    """Any integer taken modulo 2**64 (TypeError for anything else)."""
    if not isinstance(value, int):
        raise TypeError(f"{what} must be an integer, got {type(value).__name__}")
    return value & _MASK


class Rng:
    """A small, fast, deterministic random generator (this is the pure-Python twin).

    >>> a, b = Rng(7), Rng(7)
    >>> [a.roll(12) for _ in range(3)] == [b.roll(12) for _ in range(3)]
    True

    A subclass may override a method (a scripted die overriding :meth:`roll`); the compound methods
    (:meth:`choice`, :meth:`shuffle`, the pile draws) draw from the stream directly, not through
    :meth:`below`, exactly as the C twin does.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        self._state = (_word(seed, "seed") * _GOLDEN + 0x632BE59BD9B4E019) & _MASK

    @property
    def state(self) -> int:
        """The generator's one 64-bit word of state (an assigned integer is taken modulo 2**64)."""
        return self._state

    @state.setter
    def state(self, value: int) -> None:
        self._state = _word(value, "state")

    def next64(self) -> int:
        """Return the next 64-bit output."""
        s = (self._state + _GOLDEN) & _MASK
        self._state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``0..n-1`` (1 <= ``n`` < 2**64; bias below 2**-50 for any
        card-game ``n``): the high word of one output times ``n``."""
        if not 0 < n <= _MASK:  # a range check costs nothing; a wrong type fails below, before the state moves
            _count(n, "n")
        s = (self._state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        out: int = ((z ^ (z >> 31)) * n) >> 64
        self._state = s
        return out

    def roll(self, sides: int) -> int:
        """Roll one die: a uniform integer in ``1..sides``."""
        if not 0 < sides <= _MASK:
            _count(sides, "sides")
        s = (self._state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        out: int = (((z ^ (z >> 31)) * sides) >> 64) + 1
        self._state = s
        return out

    def choice(self, seq: list[T] | tuple[T, ...]) -> T:
        """Return a uniform element of a non-empty sequence."""
        n = len(seq)
        if not n:
            raise IndexError("cannot choose from an empty sequence")
        s = (self._state + _GOLDEN) & _MASK
        self._state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return seq[((z ^ (z >> 31)) * n) >> 64]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle ``seq`` in place (Fisher-Yates: position ``i`` takes a uniform one of ``0..i``)."""
        if isinstance(seq, (tuple, str, bytes)) or not isinstance(seq, MutableSequence):
            raise TypeError(f"shuffle needs a mutable sequence, got {type(seq).__name__}")
        s = self._state
        for i in range(len(seq) - 1, 0, -1):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            seq[i], seq[j] = seq[j], seq[i]
        self._state = s

    def shuffle32(self, seq: list[T]) -> None:
        """Shuffle a list in place (Fisher-Yates) with two 32-bit draws per output: the low word of
        an output serves position ``i``, the high word position ``i - 1`` (bias below 60 / 2**32 per
        draw, irrelevant for resampling hidden cards; Mephisto deals and resamples with it)."""
        if not isinstance(seq, list):
            raise TypeError(f"shuffle32's argument must be a list, got {type(seq).__name__}")
        s = self._state
        i = len(seq) - 1
        while i > 0:
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            j = ((z & _MASK32) * (i + 1)) >> 32
            seq[i], seq[j] = seq[j], seq[i]
            i -= 1
            if i > 0:
                j = ((z >> 32) * (i + 1)) >> 32
                seq[i], seq[j] = seq[j], seq[i]
                i -= 1
        self._state = s

    def draw(self, dest: list[T], pile: list[T], n: int) -> None:
        """Move ``n`` uniformly random items of ``pile`` (which holds at least ``n``) to the end of
        ``dest``, one after the other (each uniformly random among those still in ``pile``): a draw
        from a face-down pile whose order nobody knows."""
        if not isinstance(dest, list) or not isinstance(pile, list):
            bad = pile if isinstance(dest, list) else dest
            raise TypeError(f"{'pile' if isinstance(dest, list) else 'dest'} must be a list, got {type(bad).__name__}")
        if not isinstance(n, int):
            raise TypeError(f"n must be an integer, got {type(n).__name__}")
        if not 0 <= n <= len(pile):
            raise ValueError(f"cannot draw {n} cards from a pile of {len(pile)}")
        s = self._state
        for _ in range(n):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            dest.append(pile.pop(((z ^ (z >> 31)) * len(pile)) >> 64))
        self._state = s

    def pick(self, pile: tuple[T, ...]) -> tuple[T, tuple[T, ...]]:
        """A uniformly random item of a non-empty tuple and the tuple without it (order kept)."""
        if not isinstance(pile, tuple):
            raise TypeError(f"pick needs a tuple, got {type(pile).__name__}")
        if not pile:
            raise IndexError("cannot pick from an empty tuple")
        s = (self._state + _GOLDEN) & _MASK
        self._state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        i = ((z ^ (z >> 31)) * len(pile)) >> 64
        return pile[i], pile[:i] + pile[i + 1 :]

    def deal(self, pool: list[T], k: int) -> list[T]:
        """Remove ``k`` uniformly random items of ``pool`` (0 <= ``k`` <= its size) and return them in
        the order drawn; the rest of ``pool`` keeps its order.

        One 64-bit output ``z`` serves as many draws as it can with full precision: the draws from
        pools of ``n``, ``n - 1``, ... items are the digits of ``z * P / 2**64`` in that mixed radix
        (``P`` their product, kept at most ``2**32`` before a new output is taken), so every sequence
        of draws comes up with probability within ``2**-32`` of uniform (relative), as one 32-bit
        draw per item would give. Dealing a hand of six from a pool of nine takes one output."""
        if not isinstance(pool, list):
            raise TypeError(f"pool must be a list, got {type(pool).__name__}")
        if not isinstance(k, int):
            raise TypeError(f"k must be an integer, got {type(k).__name__}")
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError(f"cannot deal {k} cards from a pool of {n}")
        out: list[T] = []
        pop = pool.pop
        append = out.append
        s = self._state
        room = 0
        z = 0
        while k > 0:
            if room < n:
                s = (s + _GOLDEN) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                room = _ROOM
            room //= n
            z *= n
            append(pop(z >> 64))
            z &= _MASK
            n -= 1
            k -= 1
        self._state = s
        return out

    def fork(self) -> Rng:
        """Return an independent generator seeded from this one (advances this one)."""
        child = PyRng.__new__(PyRng)
        child._state = self.next64()
        return child

    def copy(self) -> Rng:
        """Return a generator in exactly this state."""
        child = PyRng.__new__(PyRng)
        child._state = self._state
        return child

    def __getstate__(self) -> int:
        return self._state

    def __setstate__(self, state: int) -> None:
        self._state = _word(state, "state")

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__qualname__} state=0x{self._state:016x}>"


PyRng = Rng
"""The pure-Python twin, whichever twin :class:`Rng` is."""

C_GENERATOR = False
"""Whether :class:`Rng` is the C generator (``cardtable.engine._crng``)."""

if not TYPE_CHECKING and not os.environ.get("CARDTABLE_PURE_RNG"):
    try:
        from cardtable.engine._crng import Rng  # the C twin, when the compiled build made it

        C_GENERATOR = True
    except ImportError:
        pass


def as_rng(rng: object) -> Rng:
    """Accept a generator (either twin) or an integer seed (TypeError for anything else)."""
    if isinstance(rng, (Rng, PyRng)):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return Rng(rng)
    raise TypeError(f"rng must be a generator (Rng) or an integer seed, got {type(rng).__name__}")
