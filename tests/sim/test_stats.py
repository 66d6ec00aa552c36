"""The report's statistics against values computed by hand (and published tables)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.sim.stats import (
    bin_counts,
    histogram,
    integer_histogram,
    mean_interval,
    paired_difference,
    percentile,
    proportion_difference,
    t_quantile,
    wilson,
)


def test_wilson_matches_hand_computation() -> None:
    # p = 0.8, n = 10, z = 1.96: centre (0.8 + 0.19207)/1.38415 = 0.71674,
    # half 1.96 * sqrt(0.016 + 0.0096037) / 1.38415 = 0.22658.
    i = wilson(8, 10)
    assert i.estimate == 0.8
    assert i.low == pytest.approx(0.4902, abs=1e-4)
    assert i.high == pytest.approx(0.9433, abs=1e-4)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (1, 4, 0.0456, 0.6994)],
)
def test_wilson_table(k: int, n: int, low: float, high: float) -> None:
    i = wilson(k, n)
    assert (i.low, i.high) == pytest.approx((low, high), abs=1e-4)


def test_wilson_accepts_shared_wins_and_refuses_nonsense() -> None:
    assert wilson(2.5, 5).estimate == 0.5
    assert wilson(0, 0).n == 0
    with pytest.raises(ValueError):
        wilson(6, 5)


@given(st.integers(1, 500), st.data())
def test_wilson_contains_the_estimate(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    i = wilson(k, n)
    assert 0.0 <= i.low <= i.estimate <= i.high <= 1.0


def test_percentiles_interpolate_between_closest_ranks() -> None:
    values = [50, 15, 40, 20, 35]  # sorted 15 20 35 40 50
    assert percentile(values, 0) == 15
    assert percentile(values, 40) == pytest.approx(29.0)  # rank 1.6: 20 + 0.6 * 15
    assert percentile(values, 50) == 35
    assert percentile(values, 90) == pytest.approx(46.0)  # rank 3.6: 40 + 0.6 * 10
    assert percentile(values, 100) == 50
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert math.isnan(percentile([], 50))


def test_paired_difference_matches_hand_computation() -> None:
    # differences 1, 2, 0, 3: mean 1.5, sd sqrt(5/3), se 0.645497, t(3) = 3.182446 -> half 2.054260
    i = paired_difference([1, 2, 3, 4], [2, 4, 3, 7])
    assert i.estimate == 1.5
    assert i.low == pytest.approx(1.5 - 2.054260, abs=1e-5)
    assert i.high == pytest.approx(1.5 + 2.054260, abs=1e-5)
    with pytest.raises(ValueError):
        paired_difference([1], [1, 2])


def test_mean_interval_edge_cases() -> None:
    assert mean_interval([]).n == 0
    one = mean_interval([3.0])
    assert (one.estimate, one.low, one.high) == (3.0, -math.inf, math.inf)
    same = mean_interval([2.0, 2.0, 2.0])
    assert (same.low, same.high) == (2.0, 2.0)


@pytest.mark.parametrize(("df", "t"), [(1, 12.7062), (5, 2.5706), (30, 2.0423), (60, 2.0003), (120, 1.9799)])
def test_t_quantiles(df: int, t: float) -> None:
    assert t_quantile(df) == pytest.approx(t, abs=2e-4)


def test_histogram_counts_every_value_once() -> None:
    edges, counts = histogram([0, 1, 2, 3, 4], bins=2)
    assert edges == [0, 2, 4]
    assert counts == [2, 3]
    assert histogram([7, 7], 5) == ([6.5, 7.5], [2])


@pytest.mark.parametrize(
    ("s1", "n1", "s2", "n2", "low", "high"),
    # Newcombe (1998), "Interval estimation for the difference between independent proportions",
    # Table II, method 10 (score interval, hybrid of two Wilson intervals), examples (a)-(f).
    [
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (6, 7, 2, 7, 0.0582, 0.8062),
        (5, 56, 0, 29, -0.0381, 0.1926),
        (0, 10, 0, 20, -0.1611, 0.2775),
        (10, 10, 0, 20, 0.6791, 1.0000),
    ],
)
def test_difference_of_shares_matches_newcombes_table(
    s1: int, n1: int, s2: int, n2: int, low: float, high: float
) -> None:
    i = proportion_difference(s1, n1, s2, n2)
    assert i.estimate == pytest.approx(s1 / n1 - s2 / n2)
    assert (i.low, i.high) == pytest.approx((low, high), abs=1e-4)
    assert proportion_difference(1, 0, 1, 2).n == 0


def test_whole_number_histogram_centres_bins_on_integers() -> None:
    assert integer_histogram([1, 2, 2, 5]) == ([0.5, 1.5, 2.5, 3.5, 4.5, 5.5], [1, 2, 0, 0, 1])
    # 0..99 in at most 30 bins: 4 integers per bin, 25 bins, every value counted once.
    edges, counts = integer_histogram(list(range(100)), max_bins=30)
    assert (len(counts), edges[0], edges[1], sum(counts)) == (25, -0.5, 3.5, 100)
    assert integer_histogram([]) == ([], [])


@given(st.lists(st.integers(-50, 500), min_size=1, max_size=60), st.integers(1, 40))
def test_whole_number_histogram_counts_every_value_in_its_bin(values: list[int], max_bins: int) -> None:
    edges, counts = integer_histogram(values, max_bins)
    assert len(counts) <= max_bins and sum(counts) == len(values)
    assert bin_counts(values, edges) == counts


def test_bin_counts_share_edges_between_series() -> None:
    assert bin_counts([0, 1, 2, 2, 9], [0, 1, 2]) == [1, 3]
    assert bin_counts([0.5], [1.0, 2.0]) == [0]
    assert bin_counts([1], [1.0]) == []
