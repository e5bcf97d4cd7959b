"""The shared budget auction's record: what the registry returns
(``workbench.games.get("shared_budget")``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from workbench.games.shared_budget import positions
from workbench.games.shared_budget.agents import CoverageHeuristic, EquilibriumAgent, RandomAgent
from workbench.games.shared_budget.engine import State, new_game
from workbench.games.shared_budget.fitted import (
    SharedBudgetFittedAgent,
    exact_equilibrium,
    exactly_solvable,
)
from workbench.games.shared_budget.metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from workbench.games.shared_budget.rules import Rules
from workbench.games.shared_budget.search import SharedBudgetSearchAgent
from workbench.games.shared_budget.simulate import SELF_PLAY
from workbench.games.shared_budget.solver import solve
from workbench.games.shared_budget.three_teams import solve_three
from workbench.kit.game import Game
from workbench.kit.seeding import SeedLike


def _equilibrium(rules: Rules | None, **options: Any) -> EquilibriumAgent:
    """The exact equilibrium of ``rules`` (two teams; three: the subgame-perfect one), solved
    when made."""
    if options:
        raise TypeError(f"the equilibrium agent takes no options, got {sorted(options)}")
    rules = Rules() if rules is None else rules
    if isinstance(rules, Rules) and exactly_solvable(rules):
        return exact_equilibrium(rules)  # solved once per rule set, shared with fitted teams
    if isinstance(rules, Rules) and rules.teams == 3:
        return EquilibriumAgent(solve_three(rules))
    return EquilibriumAgent(solve(rules))


GAME = Game(
    id="shared_budget",
    summary=("Shared budget auction: teams bid sealed from one identical budget for six project "
             "cards in a fixed order, scoring one point per required function covered."),
    Rules=Rules, new_game=new_game,
    # Weakest first: at 4 teams search alone beats three fitted teams, which beat coverage; at
    # 2 and 3 teams fitted is the exact equilibrium (listed last), which nothing beats alone.
    agents={"random": RandomAgent, "coverage": CoverageHeuristic,
            "fitted": SharedBudgetFittedAgent, "search": SharedBudgetSearchAgent,
            "equilibrium": EquilibriumAgent},
    makers={"equilibrium": _equilibrium}, default_agent="coverage", reference_agent="fitted",
    selfplay=SELF_PLAY, metrics=GAME_METRICS, game_metrics=game_metrics,
    common_randomness=COMMON_RANDOMNESS, play_from=positions.play_from,
    panel="workbench.games.shared_budget.panel:make_panel",
    docs="docs/rules.md#shared-budget-auction-shared_budget",
)  # fmt: skip
AGENTS, make_agent, simulate, simulate_batches, play_game = GAME.entry_points()


def play_from(
    states: State | Sequence[State], agents: Any, *, playouts: int, seed: SeedLike,
    budgets: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``positions.play_from`` with the agents given as ``simulate`` takes them (names too)."""
    if not isinstance(states, State) and isinstance(states, Iterable):
        states = list(states)  # read once: an iterator's first state is not lost to the look below
    first = states[0] if isinstance(states, list) and states else states
    if isinstance(first, State):
        agents = GAME.resolve_agents(first.rules, agents)
    return positions.play_from(states, agents, playouts=playouts, seed=seed, budgets=budgets)


__all__ = ["AGENTS", "GAME", "make_agent", "play_from", "play_game", "simulate",
           "simulate_batches"]  # fmt: skip
