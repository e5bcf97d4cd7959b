"""Rubbish Auction's ``fitted`` agent: the heuristic's compiled policy with its parameters
fitted to the rules being played by the kit's fitter; the rulebook's fit ships in
``data/fits/rubbish/``, other rules are fitted on first use and cached."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.games.rubbish.agents import FittedPolicy, HeuristicAgent, RandomAgent
from workbench.games.rubbish.simulate import SELF_PLAY
from workbench.kit.fitting import FittedAgent, Fitting, Parameter, fit_function

FITTING = Fitting(
    version="rubbish-heuristic-1",
    parameters=(
        Parameter("max_wanted_bid", 15.0, 0.0, 40.0), Parameter("gain_share", 0.5, 0.0, 1.0),
        Parameter("cheapskate_share", 0.7, 0.0, 1.0), Parameter("last_round_share", 0.9, 0.0, 1.0),
    ),
    policy=lambda rules, vector: FittedPolicy(vector),
    opponents=(RandomAgent, HeuristicAgent), games=400, generations=30, population=8,
)  # fmt: skip


class RubbishFittedAgent(FittedAgent):
    """The heuristic's policy fitted to the rules being played; ``seed`` picks the fit."""

    selfplay, fitting = SELF_PLAY, FITTING

    def action_probabilities(self, observation: Any, legal_actions: Sequence[Any]) -> dict:
        """Exact, as the heuristic's: what inference uses when this agent is a prior."""
        policy = self.policy_for(observation.rules)
        return policy.action_probabilities(observation, legal_actions)


fit = fit_function(RubbishFittedAgent)


__all__ = ["FITTING", "RubbishFittedAgent", "fit"]
