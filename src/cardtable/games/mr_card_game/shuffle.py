"""Randomness for hidden piles: random draws from unordered piles.

A face-down pile whose order nobody knows (a stat deck, the hidden part of a location pile, the skill
draw pile) is kept as an unordered collection in a canonical order (sorted by card id), and a draw or
a reveal takes a uniformly random card of it at that moment (:func:`draw_list`, :func:`pick_tuple`).
That is the same distribution as shuffling the pile and taking its top card, no seat can tell the
difference, and it costs one random number per card instead of a shuffle of the whole pile. It also
means the hidden order is never part of the state: ``determinize`` only has to reseed the generator
for those piles. These draws inline the state's SplitMix64 generator (the same
numbers as ``Rng.below``, without a method call per card).

``determinize`` re-deals hands from the same generator, drawing only the cards it deals (see
:func:`.state.deal`).
"""

from __future__ import annotations

from cardtable.engine import Rng

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def draw_list(dest: list[int], pile: list[int], n: int, rng: Rng) -> None:
    """Move ``n`` uniformly random cards of ``pile`` (which holds at least ``n``) to the end of
    ``dest``, one after the other (each one uniformly random among those still in ``pile``)."""
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
