"""The example game's ``fitted`` agent: a shading policy, bid = factor x value + offset
(rounded down, within the budget), with its two parameters fitted to the rules by the kit's
fitter (workbench.kit.fitting) against the truthful and shading agents and itself."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.kit.fitting import FittedAgent, Fitting, Parameter

from .agents import ShadingAgent, TruthfulAgent
from .engine import Observation
from .simulate import SELF_PLAY


class ShadingPolicy:
    """Bids ``factor`` x value + ``offset``, rounded down, between 0 and the budget."""

    name = "shading policy"

    def __init__(self, factor: float, offset: float) -> None:
        self.factor, self.offset = float(factor), float(offset)

    def __call__(self, observation: Observation, legal: Sequence[int], rng: np.random.Generator):
        bid = int(np.floor(self.factor * observation.value + self.offset))
        return min(max(bid, 0), legal[-1])


FITTING = Fitting(
    version="example-shading-1",
    parameters=(Parameter("factor", 0.67, 0.0, 1.0), Parameter("offset", 0.0, -2.0, 2.0)),
    policy=lambda rules, vector: ShadingPolicy(*vector),
    opponents=(TruthfulAgent, ShadingAgent),
    games=10,
    generations=8,
    population=6,
)


class ExampleFittedAgent(FittedAgent):
    """The shading policy with parameters fitted to the rules being played."""

    selfplay, fitting = SELF_PLAY, FITTING
