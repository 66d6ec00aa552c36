"""The seeded random generator every state owns.

SplitMix64 in pure Python: one integer of state, so a clone copies it for free, the stream is the same
on every machine and Python version, and "was randomness used?" is a comparison of two integers.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """A small, fast, deterministic random generator.

    >>> a, b = Rng(7), Rng(7)
    >>> [a.roll(12) for _ in range(3)] == [b.roll(12) for _ in range(3)]
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = (seed * _GOLDEN + 0x632BE59BD9B4E019) & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output."""
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return a uniform integer in ``0..n-1`` (``n`` > 0; bias below 2**-50 for any card-game n)."""
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def roll(self, sides: int) -> int:
        """Roll one die: a uniform integer in ``1..sides``."""
        return self.below(sides) + 1

    def choice(self, seq: list[T] | tuple[T, ...]) -> T:
        """Return a uniform element of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle ``seq`` in place (Fisher-Yates)."""
        below = self.below
        for i in range(len(seq) - 1, 0, -1):
            j = below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def fork(self) -> Rng:
        """Return an independent generator seeded from this one (advances this one)."""
        child = Rng.__new__(Rng)
        child.state = self.next64()
        return child

    def copy(self) -> Rng:
        """Return a generator in exactly this state."""
        child = Rng.__new__(Rng)
        child.state = self.state
        return child


def as_rng(rng: Rng | int) -> Rng:
    """Accept an :class:`Rng` or an integer seed."""
    return rng if isinstance(rng, Rng) else Rng(rng)
