"""Exact counts of values: the streamed form of a list of per-game numbers.

A :class:`Tally` keeps how often each value occurred. Games have few distinct lengths, decision
counts and scores (hundreds, whatever the number of games), so a million games fit in the memory of
a few hundred numbers, and everything a report says about the values follows from the tally
*exactly*: the mean and variance with rational arithmetic, percentiles by the same interpolation as
:func:`cardtable.sim.stats.percentile` over the sorted list, and histograms. Tallies merge by adding
counts, so a report is the same bit for bit whatever order its batches were merged in.

Win shares are kept as whole numbers of :data:`WIN_UNITS` (1/720720: every share of a tie among up
to 16 seats, 1/k, is a whole number of them), so sums of win shares are exact too.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from cardtable.sim.stats import Interval, t_quantile

WIN_UNITS = 720720
"""lcm(1..16): a win share of 1/k (k ≤ 16) is ``WIN_UNITS // k`` units."""

Number = int | float


def win_units(share: float) -> int:
    """A win share as a whole number of :data:`WIN_UNITS` (raises ValueError for a share that is not
    a multiple of 1/lcm(1..16), which no game of up to 16 seats produces)."""
    units = round(share * WIN_UNITS)
    if abs(units - share * WIN_UNITS) > 1e-6 * WIN_UNITS:
        raise ValueError(f"a win share of {share!r} is not a fraction 1/k of a win with k at most 16")
    return units


class Tally:
    """How often each value occurred (a multiset); ``add``, ``merge``, and the statistics of the values."""

    __slots__ = ("counts",)

    def __init__(self, values: Iterable[Number] = ()) -> None:
        self.counts: Counter[Number] = Counter(values)

    def add(self, value: Number, times: int = 1) -> None:
        self.counts[value] += times

    def merge(self, other: Tally) -> None:
        self.counts.update(other.counts)

    def __len__(self) -> int:
        return sum(self.counts.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tally) and self.counts == other.counts

    def __repr__(self) -> str:
        return f"Tally({dict(sorted(self.counts.items()))})"

    def items(self) -> list[tuple[Number, int]]:
        """``(value, count)`` in increasing order of value (a value never occurring is absent)."""
        return sorted((v, c) for v, c in self.counts.items() if c)

    def to_json(self) -> list[list[Any]]:
        return [[v, c] for v, c in self.items()]

    # -- statistics --------------------------------------------------------------------------------
    def total(self) -> Fraction:
        """The exact sum of the values."""
        return sum((Fraction(v) * c for v, c in self.counts.items()), Fraction(0))

    def mean_interval(self) -> Interval:
        """The mean with its t interval, exactly as :func:`cardtable.sim.stats.mean_interval` of the
        values (a single value: an infinite interval; none: NaN)."""
        n = len(self)
        if n == 0:
            return Interval(math.nan, math.nan, math.nan, 0)
        mean = self.total() / n
        if n == 1:
            return Interval(float(mean), -math.inf, math.inf, 1)
        var = sum((c * (Fraction(v) - mean) ** 2 for v, c in self.counts.items()), Fraction(0)) / (n - 1)
        m = float(mean)
        half = t_quantile(n - 1) * math.sqrt(float(var) / n)
        return Interval(m, m - half, m + half, n)

    def _at(self) -> Iterator[tuple[int, int, Number]]:
        """``(first rank, last rank, value)`` runs of the sorted values (ranks from 0)."""
        rank = 0
        for v, c in self.items():
            yield rank, rank + c - 1, v
            rank += c

    def value_at(self, rank: int) -> Number:
        """The value at 0-based ``rank`` of the sorted values."""
        for first, last, v in self._at():
            if first <= rank <= last:
                return v
        raise IndexError(rank)

    def percentile(self, q: float) -> float:
        """Linear interpolation between closest ranks (:func:`cardtable.sim.stats.percentile`)."""
        n = len(self)
        if n == 0:
            return math.nan
        pos = (n - 1) * q / 100
        lo = math.floor(pos)
        hi = min(lo + 1, n - 1)
        a, b = self.value_at(lo), self.value_at(hi)
        return float(a + (b - a) * (pos - lo))

    def whole(self) -> bool:
        """Whether every value is a whole number."""
        return all(float(v).is_integer() for v in self.counts)

    def min(self) -> Number | None:
        keys = [v for v, c in self.counts.items() if c]
        return min(keys) if keys else None

    def max(self) -> Number | None:
        keys = [v for v, c in self.counts.items() if c]
        return max(keys) if keys else None


# -- histograms of tallies (the twins of the list versions in cardtable.sim.stats) ----------------


def integer_histogram(t: Tally, max_bins: int = 30) -> tuple[list[float], list[int]]:
    """:func:`cardtable.sim.stats.integer_histogram` of the tally's values."""
    if not len(t):
        return [], []
    lo, hi = math.floor(t.min() or 0), math.floor(t.max() or 0)
    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    bins = (hi - lo) // width + 1
    edges = [lo - 0.5 + k * width for k in range(bins + 1)]
    counts = [0] * bins
    for v, c in t.items():
        counts[int((math.floor(v) - lo) // width)] += c
    return edges, counts


def histogram(t: Tally, bins: int = 20) -> tuple[list[float], list[int]]:
    """:func:`cardtable.sim.stats.histogram` of the tally's values."""
    if not len(t):
        return [], []
    lo, hi = float(t.min() or 0), float(t.max() or 0)
    if lo == hi:
        return [lo - 0.5, hi + 0.5], [len(t)]
    width = (hi - lo) / bins
    edges = [lo + i * width for i in range(bins)] + [hi]
    counts = [0] * bins
    for v, c in t.items():
        counts[min(bins - 1, int((float(v) - lo) / width))] += c
    return edges, counts


def bin_counts(t: Tally, edges: list[float]) -> list[int]:
    """:func:`cardtable.sim.stats.bin_counts` of the tally's values."""
    import bisect

    if len(edges) < 2:
        return []
    counts = [0] * (len(edges) - 1)
    for v, c in t.items():
        if edges[0] <= v <= edges[-1]:
            counts[min(len(counts) - 1, bisect.bisect_right(edges, v) - 1)] += c
    return counts


def merge_counts(into: dict[Any, int], other: Mapping[Any, int]) -> None:
    """Add ``other``'s counts (or integer sums) into ``into``."""
    for k, v in other.items():
        into[k] = into.get(k, 0) + v
