"""The shared budget auction's ``search`` agent: the kit's determinized search
(``workbench.kit.search``) with this game's sampler of hidden bids (``sampling``), compiled
playouts (``compiled.play_from``) of the ``fitted`` policy at every seat, and the game's own
win rule (the best score, then the larger remaining budget; ties shared).

Candidates: every bid from 0 to the budget is legal (up to 21 at the rulebook's budget), so
the search compares the fitted policy's bids with a few alternatives: passing, the smallest
bid, one more than each rival's budget (or equal to it with tie priority), and the whole
budget. The classroom group compares buying and passing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.shared_budget.choices import Action
from workbench.games.shared_budget.compiled import play_from
from workbench.games.shared_budget.engine import Observation, State
from workbench.games.shared_budget.fitted import SharedBudgetFittedAgent
from workbench.games.shared_budget.sampling import sample_states
from workbench.kit.search import SearchAgent, Searching, split_wins
from workbench.kit.seeding import SeedLike

_FITTED = SharedBudgetFittedAgent()


def standing_play_from(
    states: Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike
) -> np.ndarray:
    """Compiled playouts scored as the game ranks teams: functions covered, then (under
    ``final_tiebreak='budget'``) the budget left as a fraction below one function; the
    classroom group scores 1 when it covers every function, else 0."""
    scores, budgets = play_from(states, agents, playouts=playouts, seed=seed, budgets=True)
    rules = states[0].rules
    if rules.variant == "classroom":
        return (scores == len(rules.functions)).astype(np.float64)
    if rules.final_tiebreak == "budget":
        return scores + budgets / (rules.budget + 1)
    return scores


def win_shares(standings: np.ndarray) -> np.ndarray:
    """Each team's share of the win (ties split); the classroom group's single score is its
    win (1 or 0)."""
    if standings.shape[-1] == 1:
        return standings
    return split_wins(standings)


def candidates(observation: Observation, legal_actions: Sequence[Action]) -> list[Action]:
    """The fitted policy's bids plus passing, the smallest bid, the bids that surely beat each
    rival's budget, and the whole budget (those legal); the classroom: both actions."""
    if observation.rules.variant == "classroom" or observation.card is None:
        return list(legal_actions)
    policy = _FITTED.policy_for(observation.rules)
    chosen = set(policy.probabilities(observation, legal_actions))
    me, budget = observation.player, observation.budget
    first = observation.priority[0] == me
    chosen |= {0, 1, budget}
    chosen |= {b + (0 if first else 1) for s, b in enumerate(observation.budgets) if s != me}
    return sorted(bid for bid in chosen if 0 <= bid <= budget)


def rollout_agents(rules: Any) -> list[Any]:
    """The fitted policy for ``rules`` at every seat."""
    return [_FITTED.policy_for(rules)] * rules.players


SEARCHING = Searching(
    sample_states=sample_states,
    play_from=standing_play_from,
    rollout_agents=rollout_agents,
    candidates=candidates,
    win_shares=win_shares,
    budget=16,
)


class SharedBudgetSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (fitted-policy playouts)."""

    def __init__(self, budget: int = SEARCHING.budget) -> None:
        super().__init__(SEARCHING, budget)
