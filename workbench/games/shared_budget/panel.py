"""The shared budget panel of the play-along table. Two teams: the exact equilibrium at your
position and what each of your bids cost against best play: the value (your win share under
best play) minus what the bid earns against the opponent's equilibrium mix, and the worst case.
Three teams: the subgame-perfect equilibrium the fitted teams play, and what each of your bids
cost against it (your win share had you kept to it, minus your share with the others keeping to
it)."""

from __future__ import annotations

import functools
from typing import Any

import ipywidgets as widgets
import numpy as np
import polars as pl

from workbench.games.shared_budget.engine import Observation, RoundRecord, resolve_round
from workbench.games.shared_budget.fitted import exact_equilibrium, exactly_solvable
from workbench.games.shared_budget.rules import Rules
from workbench.games.shared_budget.solver import Solution, StageGame, solve
from workbench.games.shared_budget.three_teams import ThreeTeamSolution
from workbench.panels import CELL, Panel, escape

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


def three_team_shares(
    solution: ThreeTeamSolution, round_index: int, budgets: tuple[int, ...],
    coverage: tuple[int, ...], team: int,
) -> pl.DataFrame:  # fmt: skip
    """Every bid ``team`` could make at a position (0-based round, budgets, coverage masks),
    the other two bidding as the equilibrium does: its win share when all then keep to it."""
    shares = [_share_of_bid(solution, round_index, budgets, coverage, team, bid)
              for bid in range(budgets[team] + 1)]  # fmt: skip
    return pl.DataFrame({"bid": range(len(shares)), "win_share": shares},
                        schema={"bid": pl.Int64, "win_share": pl.Float64})  # fmt: skip


def _share_of_bid(
    solution: ThreeTeamSolution, round_index: int, budgets: tuple[int, ...],
    coverage: tuple[int, ...], team: int, bid: int,
) -> float:  # fmt: skip
    """``team``'s win share after bidding ``bid`` at a position, the others bidding as the
    equilibrium does there and everyone keeping to it afterwards."""
    bids = list(solution.bids_at(round_index, budgets, coverage))
    bids[team] = bid
    _, _, after, covered = resolve_round(solution.rules, round_index, budgets, coverage, bids)
    return solution.win_shares_at(round_index + 1, after, covered)[team]


def three_team_costs(
    solution: ThreeTeamSolution, history: tuple[RoundRecord, ...], team: int
) -> pl.DataFrame:
    """Each revealed round: ``team``'s bid, the equilibrium's, the share the equilibrium gave it
    there (value), the share its bid gave with the others keeping to it, and the cost."""
    rows = []
    for record in history:
        k, budgets, coverage = record.round - 1, record.budgets_before, record.coverage_before
        earned = _share_of_bid(solution, k, budgets, coverage, team, record.bids[team])
        value = solution.win_shares_at(k, budgets, coverage)[team]
        rows.append({"round": record.round, "card": record.card, "bid": record.bids[team],
                     "equilibrium_bids": str(solution.bids_at(k, budgets, coverage)[team]),
                     "value": value, "vs_equilibrium": earned,
                     "cost": max(value - earned, 0.0)})  # fmt: skip
    schema = {"round": pl.Int64, "card": pl.String, "bid": pl.Int64,
              "equilibrium_bids": pl.String, "value": pl.Float64, "vs_equilibrium": pl.Float64,
              "cost": pl.Float64}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def _support(distribution: dict[int, float]) -> str:
    bids = sorted(distribution)
    if len(bids) == 1:
        return str(bids[0])
    return ", ".join(f"{b} ({distribution[b]:.2f})" for b in bids)


def _range(bids: tuple[int, ...] | list[int]) -> str:
    """The bids as runs: '3', '2–6', '0–4, 9' ('none' when there are none)."""
    runs: list[list[int]] = []
    for bid in sorted(set(bids)):
        if runs and bid == runs[-1][1] + 1:
            runs[-1][1] = bid
        else:
            runs.append([bid, bid])
    return ", ".join(str(low) if low == high else f"{low}–{high}" for low, high in runs) or "none"


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
            self.solution = self._solution(session.rules)
        except ValueError as exc:
            self.unavailable = str(exc)
        self.position: StageGame | None = None
        self.bids: pl.DataFrame | None = None
        self.costs: pl.DataFrame | None = None
        title = widgets.HTML("<b>What best play says</b> (shared budget auction)")
        super().__init__([title, self.view])
        self.add_class("wb-panel")

    def _solution(self, rules: Rules) -> Any:
        return solution_for(rules)

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
        parts.append(self._cost_table(_COST_HEADERS, "the other team's equilibrium mix; cost is "
                                      "the difference; worst case: the cost against the reply "
                                      "that punishes that very bid"))  # fmt: skip
        return "".join(parts)

    def _cost_table(self, headers: dict[str, str], earns: str) -> str:
        """Your bids so far against the equilibrium, with the total cost ("" before any)."""
        parts = []
        if self.costs is not None and not self.costs.is_empty():
            columns = list(headers)
            head = "".join(f"<th style='{_HEAD}'>{escape(headers[c])}</th>" for c in columns)
            rows = ""
            for r in self.costs.iter_rows(named=True):
                cells = "".join(
                    f"<td style='{CELL}'>"
                    f"{f'{r[c]:.3f}' if isinstance(r[c], float) else escape(r[c])}</td>"
                    for c in columns
                )
                rows += f"<tr>{cells}</tr>"
            total = float(self.costs["cost"].sum())
            parts.append(
                "<div style='margin-top:6px'><b>Your bids against best play</b>: value is yours "
                f"before the round; the bid earns its value against {earns}.</div>"
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


class ThreeTeamPanel(SharedBudgetPanel):
    """The panel at three teams, where the fitted teams play ``solve_three``'s equilibrium:
    ``shares`` (each of your bids valued now), ``costs`` and ``unavailable`` as above."""

    shares: pl.DataFrame | None = None

    def _solution(self, rules: Rules) -> ThreeTeamSolution:
        return exact_equilibrium(rules).solution  # type: ignore[return-value]

    def update(self, session: Any) -> None:
        """Your bids' shares at the current position and the cost of your bids so far."""
        self.session = session
        observation: Observation = session.observation()
        solution: ThreeTeamSolution = self.solution  # type: ignore[assignment]
        team = session.seat
        self.costs = three_team_costs(solution, observation.history, team)
        self.shares = None
        if observation.card is not None:
            self.shares = three_team_shares(solution, observation.round_index,
                                            observation.budgets, observation.coverage, team)
        self.view.value = self._draw(observation)

    def _draw(self, observation: Observation) -> str:
        rules, team, parts = observation.rules, self.session.seat, []
        if self.shares is not None:
            k, budgets, coverage = (observation.round_index, observation.budgets,
                                    observation.coverage)  # fmt: skip
            solution: ThreeTeamSolution = self.solution  # type: ignore[assignment]
            shares = solution.win_shares_at(k, budgets, coverage)
            bids = solution.bids_at(k, budgets, coverage)
            names = [rules.team_name(s) for s in range(3)]
            keeping = self.shares.filter(self.shares["win_share"] >= shares[team] - 1e-12)["bid"]
            parts.append(
                f"<div>Round {observation.round}, <b>{escape(observation.card.name)}</b>; budgets "
                + ", ".join(f"{n} {b}" for n, b in zip(names, budgets, strict=True)) + ".</div>"
                "<div>Under the subgame-perfect equilibrium fitted teams play (one of the "
                "game's many), win shares from here: "
                + ", ".join(f"{n} <b>{v:.3f}</b>" for n, v in zip(names, shares, strict=True))
                + f"; its bids: {', '.join(f'{n} {b}' for n, b in zip(names, bids, strict=True))}."
                f"</div><div>Your bids ({names[team]}) that keep your share while the others keep "
                f"to it: {_range(keeping.to_list())}.</div>"
            )
        parts.append(self._cost_table(_THREE_TEAM_HEADERS, "the other two keeping to the "
                                      "equilibrium; cost is the difference"))  # fmt: skip
        return "".join(parts)


#: The three-team cost table's columns and their headings.
_THREE_TEAM_HEADERS = {
    "round": "round", "card": "card", "bid": "your bid", "equilibrium_bids": "equilibrium",
    "value": "value", "vs_equilibrium": "bid earns", "cost": "cost",
}  # fmt: skip


def make_panel(session: Any) -> SharedBudgetPanel:
    """The shared budget panel for a table session: three teams' where it solves."""
    rules = session.rules
    if rules.teams == 3 and exactly_solvable(rules):
        return ThreeTeamPanel(session)
    return SharedBudgetPanel(session)
