"""Explorers for the shared budget auction, built on ``workbench.widgets.Explorer``."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl

from workbench.games.shared_budget.analysis import stage_table
from workbench.games.shared_budget.charts import stage_chart
from workbench.games.shared_budget.rules import priority_order
from workbench.games.shared_budget.solver import Solution
from workbench.widgets import Explorer


class _Reachable:
    """Which positions some play of the game reaches: by (round index, coverage masks), the
    budget pairs that occur. Positions off this set are refused with a message."""

    def __init__(self, solution: Solution) -> None:
        self.rules = solution.rules
        self.budgets: dict[tuple[int, int, int], set[tuple[int, int]]] = defaultdict(set)
        for k, a, b, mask_a, mask_b in solution.reachable_positions():
            self.budgets[(k, mask_a, mask_b)].add((a, b))

    def budget_ranges(
        self, k: int, coverage: tuple[tuple[str, ...], ...]
    ) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The budgets some play leaves each team before card ``k`` with these coverages
        (lowest, highest), or None when no play gives the coverages."""
        pairs = self.budgets.get((k, self.rules.mask(coverage[0]), self.rules.mask(coverage[1])))
        if not pairs:
            return None
        a, b = zip(*pairs, strict=True)
        return (min(a), max(a)), (min(b), max(b))

    def check(
        self, k: int, budgets: tuple[int, int], coverage: tuple[tuple[str, ...], ...]
    ) -> None:
        """Raise a ValueError saying why, unless some play reaches this position."""
        rules = self.rules
        ranges = self.budget_ranges(k, coverage)
        card = rules.projects[k].name
        before = ", ".join(p.label for p in rules.projects[:k]) or "none"
        covers = " and ".join(
            f"{team} covering {'+'.join(c) or 'nothing'}"
            for team, c in zip("AB", coverage, strict=True)
        )
        if ranges is None:
            raise ValueError(
                f"no play of the game reaches {covers} before {card} (cards before it: "
                f"{before}); pick coverages that the earlier cards can give"
            )
        if budgets not in self.budgets[(k, rules.mask(coverage[0]), rules.mask(coverage[1]))]:
            spans = [f"{team} {low}" if low == high else f"{team} {low}–{high}"
                     for team, (low, high) in zip("AB", ranges, strict=True)]  # fmt: skip
            raise ValueError(
                f"no play of the game leaves A {budgets[0]} and B {budgets[1]} credits with "
                f"{covers} before {card}: each card bought costs at least 1 credit; "
                f"reachable here: {', '.join(spans)}"
            )


def state_explorer(solution: Solution) -> Explorer:
    """Pick a position (card, both budgets, both coverages) -> both teams' equilibrium bids and
    the value for A; only positions some play reaches are offered."""
    if not isinstance(solution, Solution):
        raise TypeError(f"state_explorer takes a Solution from solve(rules), got "
                        f"{type(solution).__name__}")  # fmt: skip
    rules = solution.rules
    reachable = _Reachable(solution)
    cards = [(f"{k + 1}. {p.label}", k + 1) for k, p in enumerate(rules.projects)]
    budget = dict(min=0, max=rules.budget, value=rules.budget, continuous_update=False)
    rows = len(rules.functions)
    controls = {
        "round": widgets.Dropdown(options=cards, value=1, description="card"),
        "budget_a": widgets.IntSlider(description="A's budget", **budget),
        "budget_b": widgets.IntSlider(description="B's budget", **budget),
        **{f"coverage_{team.lower()}": widgets.SelectMultiple(
            options=rules.functions, value=(), description=f"{team} covers", rows=rows
        ) for team in "AB"},
    }  # fmt: skip

    def offered(round: int) -> list[str]:
        """Functions the cards before ``round`` supply, in the rules' order."""
        earlier = {f for project in rules.projects[: round - 1] for f in project.functions}
        return [f for f in rules.functions if f in earlier]

    def adapt(
        round: int, coverage_a: tuple[str, ...], coverage_b: tuple[str, ...], **_: Any
    ) -> dict[str, dict[str, Any]]:
        functions = offered(round)
        changes: dict[str, dict[str, Any]] = {
            name: {"options": functions, "disabled": not functions}
            for name in ("coverage_a", "coverage_b")
        }
        ranges = reachable.budget_ranges(round - 1, (tuple(coverage_a), tuple(coverage_b)))
        for name, span in zip(("budget_a", "budget_b"), ranges or ((0, rules.budget),) * 2,
                              strict=True):  # fmt: skip
            changes[name] = {"min": span[0], "max": span[1], "disabled": span[0] == span[1]}
        return changes

    def compute(
        round: int, budget_a: int, budget_b: int, coverage_a: tuple[str, ...],
        coverage_b: tuple[str, ...],
    ) -> tuple[pl.DataFrame, alt.Chart]:  # fmt: skip
        coverage = (tuple(coverage_a), tuple(coverage_b))
        reachable.check(round - 1, (budget_a, budget_b), coverage)
        stage = solution.stage(round, (budget_a, budget_b), coverage)
        frame = stage_table(stage)
        first = "AB"[priority_order(rules, round - 1)[0]]
        title = f"Card {round}: {rules.projects[round - 1].name} ({first} first on ties)"
        teams = " · ".join(
            f"{team}: {credits} credits, covers {'+'.join(c) or 'nothing'}"
            for team, credits, c in zip("AB", (budget_a, budget_b), coverage, strict=True)
        )
        subtitle = [teams, f"value for A under best play: {stage.value:.3f}"]
        return frame, stage_chart(frame, title=title, subtitle=subtitle)

    return Explorer(controls, compute, title="Shared budget auction: equilibrium at a position",
                    adapt=adapt, pick=("bid",))  # fmt: skip
