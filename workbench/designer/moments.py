"""Running count, mean and sum of squared deviations, combined exactly across batches and cells.

A sweep computes its metrics batch by batch (memory stays bounded) and in several processes;
``Moments`` keeps what a Student t or Wilson interval needs and merges two parts with Chan's
pairwise update, which is numerically stable (unlike raw sums of squares) and gives the same
mean and variance as one pass over all the values, up to float rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as _scipy_stats

from workbench.kit.store import unit_type
from workbench.stats import check_confidence, proportion_interval


@unit_type
@dataclass(frozen=True)
class Moments:
    """Count, mean and M2 (sum of squared deviations from the mean) of some values."""

    count: int = 0
    mean: float = 0.0
    m2: float = 0.0

    @classmethod
    def of(cls, values: np.ndarray) -> Moments:
        """The moments of ``values``, NaNs left out (a metric undefined for that game)."""
        array = np.asarray(values, dtype=float)
        array = array[~np.isnan(array)]
        if array.size == 0:
            return cls()
        mean = float(array.mean())
        return cls(int(array.size), mean, float(((array - mean) ** 2).sum()))

    def __add__(self, other: Moments) -> Moments:
        """The moments of both sets of values together (Chan et al.'s pairwise update)."""
        if not isinstance(other, Moments):
            return NotImplemented
        if other.count == 0:
            return self
        if self.count == 0:
            return other
        count = self.count + other.count
        delta = other.mean - self.mean
        mean = self.mean + delta * other.count / count
        m2 = self.m2 + other.m2 + delta * delta * self.count * other.count / count
        return Moments(count, mean, m2)

    @property
    def variance(self) -> float:
        """Sample variance (n - 1 in the denominator); NaN below two values."""
        return self.m2 / (self.count - 1) if self.count > 1 else math.nan

    def t_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Student t interval for the mean; NaNs below two values."""
        if self.count < 2:
            return math.nan, math.nan
        check_confidence(confidence)
        if self.m2 <= 0:
            return self.mean, self.mean
        quantile = float(_scipy_stats.t.ppf(0.5 + confidence / 2, self.count - 1))
        half = quantile * math.sqrt(self.variance / self.count)
        return self.mean - half, self.mean + half

    def wilson_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Wilson interval for a rate whose per-game values lie in [0, 1] (a fractional value,
        such as a shared win's 1/k, counts as that share of a success: conservative, since such
        values vary less than 0/1 values with the same mean)."""
        if self.count == 0:
            return math.nan, math.nan
        successes = min(max(self.mean * self.count, 0.0), float(self.count))
        return proportion_interval(successes, self.count, confidence)


__all__ = ["Moments"]
