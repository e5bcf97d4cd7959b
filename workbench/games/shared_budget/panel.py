"""The shared budget panel of the play-along table (two teams): the exact equilibrium at your
position and what each of your bids cost against best play: the value (your win share under
best play) minus what the bid earns against the opponent's equilibrium mix, and the worst case."""

from __future__ import annotations

import functools
from typing import Any

import ipywidgets as widgets
import numpy as np
import polars as pl

from workbench.games.shared_budget.engine import Observation, RoundRecord
from workbench.games.shared_budget.rules import Rules
from workbench.games.shared_budget.solver import Solution, StageGame, solve
from workbench.panels import Panel, escape

_CELL = "padding:1px 6px;text-align:right"
_HEAD = "padding:1px 6px;text-align:right;white-space:nowrap"
#: The cost table's columns and their headings.
_COST_HEADERS = {
    "round": "round", "card": "card", "bid": "your bid", "equilibrium_bids": "best play",
    "value": "value", "vs_equilibrium": "bid earns", "cost": "cost",
    "worst_case_cost": "worst case",
}  # fmt: skip


@functools.lru_cache(maxsize=8)
def solution_for(rules: Rules) -> Solution:
    """``solve(rules)``, once per rule set."""
    return solve(rules)


def stage_at(solution: Solution, round: int, budgets: tuple[int, ...], coverage: tuple[int, ...]):
    """The solved stage game at the start of ``round`` (1-based) for these budgets and
    coverage masks."""
    rules = solution.rules
    names = (rules.names(coverage[0]), rules.names(coverage[1]))
    return solution.stage(round, (budgets[0], budgets[1]), names)


def bid_values(stage: StageGame, team: int) -> pl.DataFrame:
    """Every bid ``team`` (0 = A, 1 = B) could make in ``stage``: its probability, the value, what
    it earns against the opponent's mix and best reply, and the costs (the value minus each)."""
    payoffs = stage.payoffs if team == 0 else 1.0 - stage.payoffs.T  # rows: this team's bids
    value = stage.value if team == 0 else 1.0 - stage.value
    against_mix, worst = payoffs @ stage.strategies[1 - team], payoffs.min(axis=1)
    bids = np.arange(payoffs.shape[0])
    return pl.DataFrame({
        "bid": bids, "probability": stage.strategies[team][: bids.size],
        "value": np.full(bids.size, value), "vs_equilibrium": against_mix,
        "cost": np.maximum(value - against_mix, 0.0), "worst_case": worst,
        "worst_case_cost": np.maximum(value - worst, 0.0),
    })  # fmt: skip


#: ``bid_values``' columns a bid's cost row repeats.
_VALUED = ("value", "vs_equilibrium", "cost", "worst_case", "worst_case_cost")


def bid_costs(solution: Solution, history: tuple[RoundRecord, ...], team: int) -> pl.DataFrame:
    """Each revealed round of ``history``: ``team``'s bid with its ``bid_values`` row and the
    equilibrium's bids."""
    rows = []
    for record in history:
        stage = stage_at(solution, record.round, record.budgets_before, record.coverage_before)
        row = bid_values(stage, team).row(record.bids[team], named=True)
        rows.append({"round": record.round, "card": record.card, "bid": record.bids[team],
                     **{name: row[name] for name in _VALUED},
                     "equilibrium_bids": _support(stage.bid_distribution(team))})  # fmt: skip
    schema = {"round": pl.Int64, "card": pl.String, "bid": pl.Int64,
              **dict.fromkeys(_VALUED, pl.Float64), "equilibrium_bids": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def _support(distribution: dict[int, float]) -> str:
    bids = sorted(distribution)
    if len(bids) == 1:
        return str(bids[0])
    return ", ".join(f"{b} ({distribution[b]:.2f})" for b in bids)


def _range(bids: tuple[int, ...] | list[int]) -> str:
    if not bids:
        return "none"
    low, high = min(bids), max(bids)
    return str(low) if low == high else f"{low}–{high}"


class SharedBudgetPanel(Panel):
    """The panel: after ``update``, ``position`` (the stage game now), ``bids`` (valued),
    ``costs`` (your bids so far) and ``unavailable`` (why no equilibrium), each possibly None."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.view = widgets.HTML()
        self.view.add_class("wb-panel-view")
        self.solution: Solution | None = None
        self.unavailable: str | None = None
        try:
            self.solution = solution_for(session.rules)
        except ValueError as exc:
            self.unavailable = str(exc)
        self.position: StageGame | None = None
        self.bids: pl.DataFrame | None = None
        self.costs: pl.DataFrame | None = None
        title = widgets.HTML("<b>What best play says</b> (shared budget auction)")
        super().__init__([title, self.view])
        self.add_class("wb-panel")

    def update(self, session: Any) -> None:
        """The stage game at the current position and the cost of your bids so far."""
        self.session = session
        if self.solution is None:
            self.view.value = ("No exact equilibrium for these rules: "
                               f"<span style='color:#b00'>{escape(self.unavailable)}</span>")
            return
        observation: Observation = session.observation()
        team = session.seat
        self.costs = bid_costs(self.solution, observation.history, team)
        if observation.card is None:
            self.position, self.bids = None, None
        else:
            self.position = stage_at(self.solution, observation.round, observation.budgets,
                                     observation.coverage)  # fmt: skip
            self.bids = bid_values(self.position, team)
        self.view.value = self._draw(observation)

    def _draw(self, observation: Observation) -> str:
        rules = observation.rules
        team = self.session.seat
        me, them = rules.team_name(team), rules.team_name(1 - team)
        parts = []
        if self.position is not None:
            stage = self.position
            value = stage.value if team == 0 else 1.0 - stage.value
            mine, theirs = stage.bid_distribution(team), stage.bid_distribution(1 - team)
            kind = "mixed: a linear programme" if stage.method == "lp" else "pure: a saddle point"
            parts.append(
                f"<div>Round {stage.round}, <b>{escape(stage.card)}</b>; budgets "
                f"A {stage.budgets[0]}, B {stage.budgets[1]}.</div>"
                f"<div>Your value under best play from here: <b>{value:.3f}</b> "
                "(your win share; exact).</div>"
                f"<div>Best play bids ({kind}): you ({me}) {escape(_support(mine))}, range "
                f"{_range(list(mine))}; {them} {escape(_support(theirs))}.</div>"
                f"<div>Bids that alone guarantee you the value: "
                f"{_range(stage.optimal_bids[team])}.</div>"
            )
        if self.costs is not None and not self.costs.is_empty():
            columns = list(_COST_HEADERS)
            head = "".join(f"<th style='{_HEAD}'>{escape(_COST_HEADERS[c])}</th>" for c in columns)
            rows = ""
            for r in self.costs.iter_rows(named=True):
                cells = "".join(
                    f"<td style='{_CELL}'>"
                    f"{f'{r[c]:.3f}' if isinstance(r[c], float) else escape(r[c])}</td>"
                    for c in columns
                )
                rows += f"<tr>{cells}</tr>"
            total = float(self.costs["cost"].sum())
            parts.append(
                "<div style='margin-top:6px'><b>Your bids against best play</b>: value is yours "
                "before the round; the bid earns its value against the other team's "
                "equilibrium mix; cost is the difference; worst case: the cost against the "
                "reply that punishes that very bid.</div>"
                f"<table class='wb-panel-costs' style='border-collapse:collapse'><tr>{head}</tr>"
                f"{rows}</table><div>Total cost so far: <b>{total:.3f}</b> of a win.</div>"
            )
        return "".join(parts)

    def prompt(self, observation: Observation) -> str | None:
        """'Your sealed bid for <card> (0–<budget> credits)'."""
        if observation.card is None or observation.rules.variant != "auction":
            return None
        return f"Your sealed bid for the {observation.card.name} (0–{observation.budget} credits)"

    def describe(self, observation: Observation) -> str | None:
        """The card on offer, your budget and coverage, and the other teams'."""
        rules = observation.rules
        me = observation.player
        if observation.card is None:
            return None
        covered = ", ".join(observation.coverage_names()) or "nothing yet"
        others = "; ".join(
            f"{rules.team_name(s)}: {observation.budgets[s]} credits, covers "
            f"{', '.join(observation.coverage_names(s)) or 'nothing'}"
            for s in range(rules.players) if s != me
        )  # fmt: skip
        return (
            f"<div style='margin-bottom:4px'>Round {observation.round} of {rules.rounds}: "
            f"<b>{escape(observation.card.label)}</b>. You are team "
            f"{escape(rules.team_name(me))}: {observation.budget} credits, covering "
            f"{escape(covered)}. {escape(others)}.</div>"
        )


def make_panel(session: Any) -> SharedBudgetPanel:
    """The shared budget panel for a table session."""
    return SharedBudgetPanel(session)
