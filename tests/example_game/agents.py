"""The hand-written agents (``agent(observation, legal_actions, rng) -> bid``)."""

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
    """Bids ``factor`` x value + ``offset``, rounded down, within the budget (``factor`` None:
    the textbook (players - 1) / players); ``fitted`` fits both to the rules."""

    def __init__(self, factor: float | None = None, offset: float = 0.0) -> None:
        self.factor = None if factor is None else real_number("ShadingAgent factor", factor,
                                                              low=0.0, high=1.0)  # fmt: skip
        self.offset = real_number("ShadingAgent offset", offset, low=-2.0, high=2.0)
        self.name = "shading" if factor is None else f"shading({factor:g})"

    def __call__(self, observation: Observation, legal: Sequence[int], rng: np.random.Generator):
        players, value = observation.rules.players, observation.value
        if self.factor is None:
            return min(value * (players - 1) // players, legal[-1])
        return min(max(int(np.floor(value * self.factor + self.offset)), 0), legal[-1])
