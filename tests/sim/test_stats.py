"""The report's statistics against values computed by hand (and published tables)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.sim.stats import histogram, mean_interval, paired_difference, percentile, t_quantile, wilson


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
    assert (i.low, i.high) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


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
