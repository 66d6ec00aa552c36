"""``state.deal``, determinize's draw of hidden cards: uniform over every ordered sequence of cards,
reproducible from the generator, the rest of the pool kept in order."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from cardtable.engine import Rng
from cardtable.games.mr_card_game.state import deal


def test_every_ordered_draw_is_equally_likely() -> None:
    # 5 cards, 3 drawn: 60 ordered outcomes, one 64-bit output each (a product of 60).
    rng = Rng(2024)
    draws = 60_000
    counts = Counter(tuple(deal([10, 11, 12, 13, 14], 3, rng)) for _ in range(draws))
    assert len(counts) == 60
    expected = draws / 60
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 59 + 5 * math.sqrt(2 * 59)  # 59 degrees of freedom: five standard deviations


def test_long_deals_take_new_outputs_and_stay_uniform_per_position() -> None:
    # 40 cards, 12 drawn: the product of pool sizes is far above 2**32, so several outputs serve.
    rng = Rng(7)
    last = Counter(deal(list(range(40)), 12, rng)[-1] for _ in range(40_000))
    expected = 40_000 / 40
    chi2 = sum((last[x] - expected) ** 2 / expected for x in range(40))
    assert chi2 < 39 + 5 * math.sqrt(2 * 39)


@given(n=st.integers(0, 30), k=st.integers(0, 30), seed=st.integers(0, 2**63))
def test_deal_takes_k_distinct_cards_and_keeps_the_rest_in_order(n: int, k: int, seed: int) -> None:
    k = min(k, n)
    pool = list(range(100, 100 + n))
    a, b = Rng(seed), Rng(seed)
    dealt = deal(pool, k, a)
    assert len(dealt) == k and len(set(dealt)) == k
    assert sorted(dealt + pool) == list(range(100, 100 + n)) and pool == sorted(pool)
    again = list(range(100, 100 + n))
    assert deal(again, k, b) == dealt and a.state == b.state  # reproducible
