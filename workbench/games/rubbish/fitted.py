"""Rubbish Auction's ``fitted`` agent: the heuristic's compiled policy with its parameters
fitted to the rules being played by the kit's fitter; the rulebook's fit ships in
``data/fits/rubbish/``, other rules are fitted on first use and cached."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.games.rubbish.agents import FittedPolicy, HeuristicAgent, RandomAgent
from workbench.games.rubbish.simulate import SELF_PLAY
from workbench.kit.fitting import Equilibrium, FittedAgent, Fitting, fit_function

FITTING = Fitting(
    version="rubbish-heuristic-2",
    parameters=HeuristicAgent.SPACE,
    policy=lambda rules, vector: FittedPolicy(vector),
    opponents=(RandomAgent, HeuristicAgent), games=400, population=8,
    # Policy-space response oracles straight from the start values: the CMA-ES stage (which
    # fitted against weak tables and its own mean) left play a re-fitted copy beat with 0.51
    # of the wins; PSRO's few best responses reach a policy its family gains nothing against.
    generations=0, equilibrium=Equilibrium(),
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
