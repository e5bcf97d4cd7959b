"""The example game's ``fitted`` agent: the shading policy fitted to the rules by the kit."""

from __future__ import annotations

from workbench.kit.fitting import FittedAgent, Fitting, Parameter

from .agents import ShadingAgent, TruthfulAgent
from .simulate import SELF_PLAY


class ExampleFittedAgent(FittedAgent):
    """The shading policy with parameters fitted to the rules being played."""

    selfplay = SELF_PLAY
    fitting = Fitting(
        version="example-shading-1",
        parameters=(Parameter("factor", 0.67, 0.0, 1.0), Parameter("offset", 0.0, -2.0, 2.0)),
        policy=lambda rules, vector: ShadingAgent(*vector),
        opponents=(TruthfulAgent, ShadingAgent),
        games=10, generations=8, population=6,
    )  # fmt: skip
