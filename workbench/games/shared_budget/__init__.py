"""Shared budget auction (docs/rules.md): teams bid sealed from one identical budget for
six project cards in a fixed order, scoring one point per required function covered.

Public API: ``Rules`` -> ``new_game`` -> ``State``; ``simulate``; ``play_from`` (compiled
playouts); ``solve`` (the exact two-team equilibrium); ``solve_three`` (a three-team
subgame-perfect equilibrium); agents; analyses; charts; the explorer."""

from workbench.games.shared_budget.agents import CoverageHeuristic, EquilibriumAgent, RandomAgent
from workbench.games.shared_budget.analysis import (
    bid_distributions,
    card_order_variants,
    classroom_plans,
    equilibrium_bids,
    equilibrium_path,
    expected_outcome,
    function_table_variants,
    priority_variants,
    purchase_effect_summary,
    purchase_effects,
    reachable_states,
    seat_results,
    stage_table,
    start_values,
    three_team_line,
    value_by_budget,
    variant_values,
    versus_equilibrium,
)
from workbench.games.shared_budget.engine import (
    Observation,
    Result,
    RoundRecord,
    SealedBid,
    State,
    new_game,
    read_bid,
    resolve_round,
)
from workbench.games.shared_budget.fitted import FittedPolicy, SharedBudgetFittedAgent, fit
from workbench.games.shared_budget.game import (
    AGENTS,
    GAME,
    make_agent,
    play_from,
    play_game,
    simulate,
    simulate_batches,
)
from workbench.games.shared_budget.metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from workbench.games.shared_budget.rules import (
    FUNCTIONS,
    Project,
    Rules,
    award,
    priority_order,
    standings,
)
from workbench.games.shared_budget.solver import (
    Solution,
    SolveEstimate,
    StageGame,
    estimate_solve,
    solve,
)
from workbench.games.shared_budget.three_teams import (
    ThreeTeamSolution,
    estimate_three,
    solve_three,
)
from workbench.lazy import lazy_exports

# Charts, explorers and the table's panel import altair and ipywidgets: loaded on first use.
__getattr__ = lazy_exports(
    globals(),
    {
        "workbench.games.shared_budget.charts": (
            "bid_distribution_chart", "bid_heatmap", "purchase_effects_chart",
            "seat_results_chart", "stage_chart", "value_by_budget_chart", "value_heatmap",
            "variant_chart", "versus_equilibrium_chart",
        ),
        "workbench.games.shared_budget.panel": ("make_panel",),
        "workbench.games.shared_budget.widgets": ("state_explorer",),
    },
)  # fmt: skip

__all__ = [
    "AGENTS", "COMMON_RANDOMNESS", "FUNCTIONS", "GAME", "GAME_METRICS", "CoverageHeuristic",
    "EquilibriumAgent", "FittedPolicy", "Observation", "Project", "RandomAgent", "Result",
    "RoundRecord", "Rules", "SealedBid", "SharedBudgetFittedAgent", "Solution", "SolveEstimate",
    "StageGame", "State", "ThreeTeamSolution", "award", "bid_distribution_chart",
    "bid_distributions", "bid_heatmap", "card_order_variants", "classroom_plans",
    "equilibrium_bids", "equilibrium_path", "estimate_solve", "estimate_three", "expected_outcome",
    "fit", "function_table_variants", "game_metrics", "make_agent", "make_panel", "new_game",
    "play_from", "play_game", "priority_order", "priority_variants", "purchase_effect_summary",
    "purchase_effects", "purchase_effects_chart", "reachable_states", "read_bid", "resolve_round",
    "seat_results", "seat_results_chart", "simulate", "simulate_batches", "solve", "solve_three",
    "stage_chart", "stage_table", "standings", "start_values", "state_explorer", "three_team_line",
    "value_by_budget", "value_by_budget_chart", "value_heatmap", "variant_chart", "variant_values",
    "versus_equilibrium", "versus_equilibrium_chart"
]  # fmt: skip
