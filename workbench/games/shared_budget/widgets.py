"""Explorers for the shared budget auction, built on ``workbench.widgets.Explorer``."""

from __future__ import annotations

import altair as alt
import ipywidgets as widgets
import polars as pl

from workbench.games.shared_budget.analysis import stage_table
from workbench.games.shared_budget.charts import stage_chart
from workbench.games.shared_budget.solver import Solution
from workbench.widgets import Explorer


def state_explorer(solution: Solution) -> Explorer:
    """Pick a position (card, both budgets, both coverages) -> both teams' equilibrium bids
    and the value for A. Controls: round, budget_a, budget_b, coverage_a, coverage_b."""
    rules = solution.rules
    cards = [(f"{k + 1}. {p.label}", k + 1) for k, p in enumerate(rules.projects)]
    budget = dict(min=0, max=rules.budget, value=rules.budget, continuous_update=False)
    controls = {
        "round": widgets.Dropdown(options=cards, value=1, description="card"),
        "budget_a": widgets.IntSlider(description="A's budget", **budget),
        "budget_b": widgets.IntSlider(description="B's budget", **budget),
        "coverage_a": widgets.SelectMultiple(
            options=rules.functions, value=(), description="A covers", rows=len(rules.functions)
        ),
        "coverage_b": widgets.SelectMultiple(
            options=rules.functions, value=(), description="B covers", rows=len(rules.functions)
        ),
    }

    def compute(
        round: int,
        budget_a: int,
        budget_b: int,
        coverage_a: tuple[str, ...],
        coverage_b: tuple[str, ...],
    ) -> tuple[pl.DataFrame, alt.Chart]:
        stage = solution.stage(round, (budget_a, budget_b), (coverage_a, coverage_b))
        frame = stage_table(stage)
        return frame, stage_chart(frame)

    return Explorer(controls, compute, title="Shared budget auction: equilibrium at a position")
