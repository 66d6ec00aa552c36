"""Randomness for hidden piles: random draws from unordered piles, and a fast shuffle.

A face-down pile whose order nobody knows (a stat deck, the hidden part of a location pile, the skill
draw pile) is kept as an unordered collection in a canonical order (sorted by card id), and a draw or
a reveal takes a uniformly random card of it at that moment (:func:`pick_list`, :func:`draw_list`,
:func:`pick_tuple`). That is the same distribution as shuffling the pile and taking its top card, no
seat can tell the difference, and it costs one random number per card instead of a shuffle of the
whole pile. It also means the hidden order is never part of the state: ``determinize`` only has to
reseed the generator for those piles. These draws inline the state's SplitMix64 generator (the same
numbers as ``Rng.below``, without a method call per card).

:func:`shuffle` (Fisher-Yates on the same generator, inlined, two 32-bit draws per 64-bit output)
shuffles a whole list in place; ``determinize`` re-deals hands the same way but draws only the cards
it deals (see :mod:`.state`).
"""

from __future__ import annotations

from cardtable.engine import Rng

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MASK32 = (1 << 32) - 1


def pick_list(pile: list[int], rng: Rng) -> int:
    """Remove and return a uniformly random card of a non-empty list (the rest keeps its order)."""
    state = (rng.state + _GOLDEN) & _MASK64
    rng.state = state
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return pile.pop(((z ^ (z >> 31)) * len(pile)) >> 64)


def draw_list(dest: list[int], pile: list[int], n: int, rng: Rng) -> None:
    """Move ``n`` uniformly random cards of ``pile`` (which holds at least ``n``) to the end of
    ``dest``, one after the other: the same as ``n`` calls of :func:`pick_list`."""
    state = rng.state
    for _ in range(n):
        state = (state + _GOLDEN) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        dest.append(pile.pop(((z ^ (z >> 31)) * len(pile)) >> 64))
    rng.state = state


def pick_tuple(pile: tuple[int, ...], rng: Rng) -> tuple[int, tuple[int, ...]]:
    """A uniformly random card of a non-empty tuple and the tuple without it (order kept)."""
    state = (rng.state + _GOLDEN) & _MASK64
    rng.state = state
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    i = ((z ^ (z >> 31)) * len(pile)) >> 64
    return pile[i], pile[:i] + pile[i + 1 :]


def shuffle(seq: list[int], rng: Rng) -> None:
    """Shuffle ``seq`` in place, advancing ``rng``."""
    state = rng.state
    i = len(seq) - 1
    while i > 0:
        state = (state + _GOLDEN) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
        j = ((z & _MASK32) * (i + 1)) >> 32
        seq[i], seq[j] = seq[j], seq[i]
        i -= 1
        if i > 0:
            j = ((z >> 32) * (i + 1)) >> 32
            seq[i], seq[j] = seq[j], seq[i]
            i -= 1
    rng.state = state
