"""Small, dependency-free statistics for simulation reports.

Every function here is checked against hand-computed values in ``tests/sim/test_stats.py``.

* :func:`wilson` — the Wilson score interval for a proportion (also for fractional successes, as
  when a tie shares a win: the formula only needs the observed proportion and the count).
* :func:`percentile` — linear interpolation between closest ranks (NumPy's default, "type 7").
* :func:`t_quantile` — the two-sided Student t critical value (exact table for df ≤ 30, a
  Cornish-Fisher expansion beyond, which is within 1e-4 of the exact value).
* :func:`mean_interval` and :func:`paired_difference` — a mean and a paired difference of means with
  their t interval.
* :func:`proportion_difference` — the difference of two independent proportions with Newcombe's
  hybrid Wilson interval.
* :func:`histogram` and :func:`integer_histogram` — bin edges and counts (integer data gets bins
  centred on whole numbers, so no bin is empty only because it falls between two integers).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""

# t_{0.975, df} for df = 1..30 (two-sided 95%), from the standard table.
_T975 = (
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
)


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval ``[low, high]`` and the number of observations ``n``."""

    estimate: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "n": self.n}

    def text(self, percent: bool = False, digits: int = 3) -> str:
        if self.n == 0:
            return "n/a"
        if percent:
            return f"{100 * self.estimate:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"
        return f"{self.estimate:.{digits}g} [{self.low:.{digits}g}, {self.high:.{digits}g}]"


def wilson(successes: float, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``successes`` out of ``n`` (``n`` = 0 gives an empty interval).

    >>> i = wilson(8, 10)
    >>> round(i.low, 4), round(i.high, 4)
    (0.4902, 0.9433)
    """
    if n <= 0:
        return Interval(math.nan, 0.0, 1.0, 0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in 0..{n}, got {successes}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # The interval always contains p; min/max only absorb rounding at p = 0 or 1.
    return Interval(p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)), n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation between closest ranks.

    >>> percentile([1, 2, 3, 4], 50)
    2.5
    """
    if not values:
        return math.nan
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must lie in 0..100, got {q}")
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def t_quantile(df: int) -> float:
    """The two-sided 95% critical value of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    # Cornish-Fisher expansion of the t quantile in powers of 1/df.
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with its t interval (a single value gives an infinite interval)."""
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, -math.inf, math.inf, 1)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half, n)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Interval:
    """The mean of ``b[i] - a[i]`` with its t interval: how much ``b`` exceeds ``a`` on paired trials."""
    if len(a) != len(b):
        raise ValueError(f"paired samples must have the same length, got {len(a)} and {len(b)}")
    return mean_interval([y - x for x, y in zip(a, b, strict=True)])


def proportion_difference(s1: float, n1: int, s2: float, n2: int, z: float = Z95) -> Interval:
    """``s1/n1 - s2/n2`` with Newcombe's hybrid score interval (his method 10, built from the two
    Wilson intervals; good coverage even for small counts and proportions near 0 or 1).
    ``n`` of the result is ``n1 + n2``; either sample empty gives an empty interval.

    >>> i = proportion_difference(56, 70, 48, 80)  # Newcombe (1998), example (a)
    >>> round(i.estimate, 4), round(i.low, 4), round(i.high, 4)
    (0.2, 0.0524, 0.3339)
    """
    if n1 <= 0 or n2 <= 0:
        return Interval(math.nan, -1.0, 1.0, 0)
    a, b = wilson(s1, n1, z), wilson(s2, n2, z)
    d = a.estimate - b.estimate
    low = d - math.sqrt((a.estimate - a.low) ** 2 + (b.high - b.estimate) ** 2)
    high = d + math.sqrt((a.high - a.estimate) ** 2 + (b.estimate - b.low) ** 2)
    return Interval(d, low, high, n1 + n2)


def integer_histogram(values: Sequence[float], max_bins: int = 30) -> tuple[list[float], list[int]]:
    """Bins for whole-number data: each ``width`` consecutive integers wide (``width`` the smallest
    that gives at most ``max_bins`` bins), edges halfway between integers; every value counted once.

    >>> integer_histogram([1, 2, 2, 5])
    ([0.5, 1.5, 2.5, 3.5, 4.5, 5.5], [1, 2, 0, 0, 1])
    """
    if not values:
        return [], []
    lo, hi = math.floor(min(values)), math.floor(max(values))
    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    bins = (hi - lo) // width + 1
    edges = [lo - 0.5 + k * width for k in range(bins + 1)]
    counts = [0] * bins
    for v in values:
        counts[int((math.floor(v) - lo) // width)] += 1
    return edges, counts


def bin_counts(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """How many of ``values`` fall in each bin ``[edges[k], edges[k + 1])`` (the last bin closed), so
    that several series can share one set of bins; values outside the edges are not counted.

    >>> bin_counts([0, 1, 2, 2, 9], [0, 1, 2])
    [1, 3]
    """
    if len(edges) < 2:
        return []
    counts = [0] * (len(edges) - 1)
    for v in values:
        if edges[0] <= v <= edges[-1]:
            counts[min(len(counts) - 1, bisect.bisect_right(edges, v) - 1)] += 1
    return counts


def histogram(values: Sequence[float], bins: int = 20) -> tuple[list[float], list[int]]:
    """Equal-width bin edges (``bins + 1`` of them) and counts; the last bin includes its right edge."""
    if not values:
        return [], []
    lo, hi = min(values), max(values)
    if lo == hi:
        return [lo - 0.5, hi + 0.5], [len(values)]
    width = (hi - lo) / bins
    edges = [lo + i * width for i in range(bins)] + [hi]
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / width))] += 1
    return edges, counts
