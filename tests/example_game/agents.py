"""The hand-written agents: random bids, truthful bids, bids shaded below the value.

Every agent is ``agent(observation, legal_actions, rng) -> bid``, deterministic given the rng.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.checks import real_number

from .engine import Observation


class RandomAgent:
    """Any legal bid, uniformly."""

    name = "random"

    def __call__(self, observation: Observation, legal: Sequence[int], rng: np.random.Generator):
        return legal[int(rng.integers(len(legal)))]


class TruthfulAgent:
    """Bids its value (capped by the budget): wins often, gains nothing when it pays in full."""

    name = "truthful"

    def __call__(self, observation: Observation, legal: Sequence[int], rng: np.random.Generator):
        return min(observation.value, legal[-1])


class ShadingAgent:
    """Bids ``factor`` x value, rounded down (capped by the budget). ``factor`` None: the
    textbook shading (players - 1) / players for uniform values."""

    def __init__(self, factor: float | None = None) -> None:
        if factor is not None:
            factor = real_number("ShadingAgent factor", factor, low=0.0, high=1.0)
        self.factor = factor
        self.name = "shading" if factor is None else f"shading({factor:g})"

    def __call__(self, observation: Observation, legal: Sequence[int], rng: np.random.Generator):
        players, value = observation.rules.players, observation.value
        if self.factor is None:
            return min(value * (players - 1) // players, legal[-1])
        return min(int(value * self.factor), legal[-1])
