"""Helpers for hidden cards that every game's ``determinize`` needs."""

from __future__ import annotations

from collections.abc import Callable

from cardtable.engine.rng import Rng


def resample_hidden(zones: list[list[int]], known: Callable[[int], bool], rng: Rng) -> None:
    """Redeal the unknown cards of ``zones`` among their own positions, in place.

    Every card for which ``known(card)`` is true stays where it is; all other cards of all the zones
    are pooled, shuffled and dealt back into the freed positions. Zone sizes never change, so counts
    a seat can see (hand sizes, deck size) are kept.
    """
    pool: list[int] = []
    slots: list[tuple[list[int], int]] = []
    for zone in zones:
        for i, card in enumerate(zone):
            if not known(card):
                pool.append(card)
                slots.append((zone, i))
    # Sorting first makes the result a function of *which* cards are unknown and the generator only,
    # never of where they really were: two states a seat cannot tell apart resample identically.
    pool.sort()
    rng.shuffle(pool)
    for (zone, i), card in zip(slots, pool, strict=True):
        zone[i] = card
