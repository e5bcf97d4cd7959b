"""Intervals for estimates from simulation: every estimate carries its sample size and a 95%
interval (Wilson for proportions, Student t for means)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats as _scipy_stats


def check_confidence(confidence: float) -> float:
    """``confidence`` if it is a number strictly between 0 and 1 (an interval's level)."""
    if isinstance(confidence, bool) or not isinstance(confidence, int | float | np.floating):
        raise TypeError(f"confidence must be a number between 0 and 1, got {confidence!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return float(confidence)


def proportion_interval(
    successes: float, trials: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``successes`` may be fractional (shared wins)."""
    check_confidence(confidence)
    if trials <= 0:
        raise ValueError(f"trials must be positive, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in [0, trials={trials}], got {successes}")
    z = float(_scipy_stats.norm.ppf(0.5 + confidence / 2))
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or n successes the Wilson bound is exactly 0 or 1; avoid rounding residue there.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def mean_interval(
    values: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> tuple[float, float, float]:
    """(mean, low, high): Student t interval for the mean of independent samples."""
    check_confidence(confidence)
    array = np.asarray(values, dtype=float)
    if array.size == 0:
        raise ValueError("mean_interval needs at least one value")
    mean = float(array.mean())
    if array.size == 1:
        return mean, float("nan"), float("nan")
    sem = float(array.std(ddof=1)) / math.sqrt(array.size)
    half = float(_scipy_stats.t.ppf(0.5 + confidence / 2, array.size - 1)) * sem
    return mean, mean - half, mean + half


def difference_interval(
    first: Sequence[float] | np.ndarray,
    second: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """(mean of first - mean of second, low, high): Welch's t interval for two independent
    samples with unequal variances; NaNs when a group has fewer than two values."""
    check_confidence(confidence)
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if first.size < 2 or second.size < 2:
        return math.nan, math.nan, math.nan
    shift = float(first.mean() - second.mean())
    v1, v2 = first.var(ddof=1) / first.size, second.var(ddof=1) / second.size
    se = math.sqrt(v1 + v2)
    if se == 0:
        return shift, shift, shift
    df = (v1 + v2) ** 2 / (v1**2 / (first.size - 1) + v2**2 / (second.size - 1))
    half = float(_scipy_stats.t.ppf(0.5 + confidence / 2, df)) * se
    return shift, shift - half, shift + half
