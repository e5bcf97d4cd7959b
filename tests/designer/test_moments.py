"""Moments: exact combination across batches, and the same intervals as workbench.stats."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.designer.moments import Moments
from workbench.stats import mean_interval, proportion_interval

values = st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=0, max_size=40)


@given(values, st.lists(st.integers(0, 40), max_size=4))
def test_any_split_combines_to_the_one_pass_moments(numbers, cuts):
    array = np.array(numbers, dtype=float)
    whole = Moments.of(array)
    combined = Moments()
    for part in np.split(array, sorted({min(c, len(numbers)) for c in cuts})):
        combined = combined + Moments.of(part)
    assert combined.count == whole.count == len(numbers)
    assert combined.mean == pytest.approx(whole.mean, abs=1e-9)
    assert combined.m2 == pytest.approx(whole.m2, rel=1e-9, abs=1e-6)
    if len(numbers) > 1:
        assert whole.mean == pytest.approx(array.mean(), abs=1e-9)
        assert whole.variance == pytest.approx(array.var(ddof=1), rel=1e-9, abs=1e-9)


def test_nans_are_left_out():
    moments = Moments.of(np.array([1.0, np.nan, 3.0]))
    assert (moments.count, moments.mean, moments.m2) == (2, 2.0, 2.0)


def test_intervals_match_the_stats_module():
    data = np.array([0.0, 1.0, 1.0, 0.5, 0.0, 1.0, 0.0])
    moments = Moments.of(data)
    _, low, high = mean_interval(data)
    assert moments.t_interval() == pytest.approx((low, high))
    assert moments.wilson_interval() == pytest.approx(proportion_interval(data.sum(), data.size))
    assert moments.t_interval(0.5) != moments.t_interval()


def test_degenerate_cases():
    assert all(math.isnan(x) for x in Moments().t_interval())
    assert all(math.isnan(x) for x in Moments.of(np.array([2.0])).t_interval())
    assert Moments.of(np.array([2.0, 2.0])).t_interval() == (2.0, 2.0)
    assert Moments.of(np.array([1.0, 1.0])).wilson_interval()[1] == 1.0
    with pytest.raises(ValueError, match="confidence"):
        Moments.of(np.array([1.0, 2.0])).t_interval(1.5)
