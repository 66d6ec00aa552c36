"""A fast Fisher-Yates shuffle driven by the state's generator (SplitMix64, inlined).

Each 64-bit output gives two 32-bit draws (bias below 60 / 2**32 per draw, irrelevant for shuffling
cards). Used for every shuffle of the game and for resampling hidden cards in ``determinize``.
"""

from __future__ import annotations

from cardtable.engine import Rng

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MASK32 = (1 << 32) - 1


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
