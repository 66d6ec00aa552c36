"""Randomness for hidden piles: random draws from unordered piles.

A face-down pile whose order nobody knows (a stat deck, the hidden part of a location pile, the skill
draw pile) is kept as an unordered collection in a canonical order (sorted by card id), and a draw or
a reveal takes a uniformly random card of it at that moment (:func:`draw_list`, :func:`pick_tuple`).
That is the same distribution as shuffling the pile and taking its top card, no seat can tell the
difference, and it costs one random number per card instead of a shuffle of the whole pile. It also
means the hidden order is never part of the state: ``determinize`` only has to reseed the generator
for those piles. These draws are the generator's own (:meth:`Rng.draw`, :meth:`Rng.pick`): one call
per draw, whichever twin of the generator runs.

``determinize`` re-deals hands from the same generator, drawing only the cards it deals (see
:func:`.state.deal`).
"""

from __future__ import annotations

from cardtable.engine import Rng


def draw_list(dest: list[int], pile: list[int], n: int, rng: Rng) -> None:
    """Move ``n`` uniformly random cards of ``pile`` (which holds at least ``n``) to the end of
    ``dest``, one after the other (each one uniformly random among those still in ``pile``)."""
    rng.draw(dest, pile, n)


def pick_tuple(pile: tuple[int, ...], rng: Rng) -> tuple[int, tuple[int, ...]]:
    """A uniformly random card of a non-empty tuple and the tuple without it (order kept)."""
    return rng.pick(pile)
