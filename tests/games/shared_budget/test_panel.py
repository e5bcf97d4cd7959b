"""The shared budget panel: the equilibrium at the position and each bid's cost against best
play, checked against the solver's own values of the positions a bid leads to."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games import shared_budget
from workbench.games.shared_budget.panel import (
    ThreeTeamPanel,
    _range,
    bid_costs,
    bid_values,
    solution_for,
    stage_at,
    three_team_costs,
    three_team_shares,
)
from workbench.play.table import table


@pytest.fixture(scope="module")
def solution():
    return solution_for(shared_budget.Rules())


def continuation(solution, round_, budgets, coverage, bids) -> float:
    """Team A's value after both bids are revealed, from the solver's value_at (another path
    than the stage game's payoff matrix)."""
    rules = solution.rules
    _, _, after, covered = shared_budget.resolve_round(rules, round_ - 1, budgets, coverage, bids)
    names = tuple(rules.names(mask) for mask in covered)
    return solution.value_at(round_ + 1, after, names)


@pytest.mark.parametrize("team", [0, 1])
def test_bid_values_against_the_continuation_values(solution, team):
    budgets, coverage = (20, 20), (0, 0)
    stage = stage_at(solution, 1, budgets, coverage)
    values = bid_values(stage, team)
    # The opening: the game is worth 1/2 to each team and both bid 6 (the solver's result).
    assert stage.value == pytest.approx(0.5) and stage.bid_distribution(team) == {6: 1.0}
    other = 1 - team
    (reply,) = stage.bid_distribution(other)
    for bid in (0, 5, 6, 7, 20):
        pair = [0, 0]
        pair[team], pair[other] = bid, reply
        a_value = continuation(solution, 1, budgets, coverage, pair)
        mine = a_value if team == 0 else 1 - a_value
        row = values.row(bid, named=True)
        assert row["vs_equilibrium"] == pytest.approx(mine)
        assert row["cost"] == pytest.approx(max(0.5 - mine, 0))
        worst = min(
            (lambda v: v if team == 0 else 1 - v)(
                continuation(solution, 1, budgets, coverage, [y, bid] if team else [bid, y])
            )
            for y in range(21)
        )
        assert row["worst_case"] == pytest.approx(worst)
    assert values.filter(values["bid"] == 6)["cost"].item() == pytest.approx(0)


def test_equilibrium_bids_cost_nothing_and_no_bid_earns_more_than_the_value(solution):
    rng = np.random.default_rng(3)
    positions = list(solution.reachable_positions())
    for index in rng.choice(len(positions), size=40, replace=False):
        k, a, b, mask_a, mask_b = positions[index]
        stage = stage_at(solution, k + 1, (a, b), (mask_a, mask_b))
        for team in (0, 1):
            values = bid_values(stage, team)
            assert (values["cost"] >= 0).all() and (values["worst_case_cost"] >= 0).all()
            used = values.filter(values["probability"] > 1e-9)
            assert used["cost"].to_list() == pytest.approx([0.0] * used.height, abs=1e-7)
            assert (values["vs_equilibrium"] <= values["value"] + 1e-7).all()
            assert (values["worst_case"] <= values["vs_equilibrium"] + 1e-9).all()


def test_the_panel_through_a_complete_game():
    t = table("shared_budget", seed=2, seat=1, opponents="equilibrium")
    panel = t.panel
    assert panel.position.round == 1 and "0.500" in panel.view.value
    mine = [4, 9, 0, 3, 2, 1]
    for bid in mine:
        assert panel.bids.height == t.session.observation().budget + 1
        t.form.set(value=min(bid, t.form.groups[0].spec.high))
        t.form.play_button.click()
    assert t.session.is_over and panel.position is None
    history = t.session.state.history
    assert panel.costs["bid"].to_list() == [r.bids[1] for r in history]
    expected = bid_costs(panel.solution, history, 1)
    assert panel.costs.equals(expected)
    first = history[0]
    a_value = continuation(
        panel.solution, 1, first.budgets_before, first.coverage_before, list(first.bids)
    )
    assert panel.costs["vs_equilibrium"][0] == pytest.approx(1 - a_value)
    assert f"{panel.costs['cost'].sum():.3f}" in panel.view.value


def test_rules_without_an_exact_equilibrium_say_why():
    t = table("shared_budget", shared_budget.Rules(teams=4), seed=0, opponents="coverage")
    assert t.panel.solution is None and "exactly 2 teams" in t.panel.view.value
    t.autoplay("coverage")
    assert "exactly 2 teams" in t.panel.view.value


def test_the_panel_describes_the_position():
    t = table("shared_budget", seed=0, seat=0, opponents="coverage")
    text = t.observation_view.value
    assert "Round 1 of 6: <b>Quiet corner (rest)</b>. You are team A: 20 credits" in text


@pytest.mark.parametrize("team", [0, 1, 2])
def test_no_bid_earns_more_than_three_teams_equilibrium(team):
    """At every reachable position (budget 4), the equilibrium's bid earns the team its share
    under equilibrium play, and no other bid earns more while the others keep to it."""
    solution = shared_budget.solve_three(shared_budget.Rules(teams=3, budget=4))
    for k, budgets, coverage in solution.reachable_positions():
        shares = three_team_shares(solution, k, budgets, coverage, team)
        value = solution.win_shares_at(k, budgets, coverage)[team]
        assert shares.height == budgets[team] + 1
        assert shares["win_share"].max() <= value + 1e-12
        assert shares["win_share"][solution.bids_at(k, budgets, coverage)[team]] == value


def test_the_three_team_panel_through_a_complete_game():
    """Team A at a table of two equilibrium teams: bidding 3 for the Quiet corner (the
    equilibrium bids 14 and loses the tie) keeps its share; the costs are
    ``three_team_costs``' and the view shows their total."""
    t = table("shared_budget", shared_budget.Rules(teams=3), seed=0, seat=0)
    panel = t.panel
    assert isinstance(panel, ThreeTeamPanel) and panel.shares["win_share"].max() == 0.5
    assert "A <b>0.500</b>, B <b>0.000</b>, C <b>0.500</b>; its bids: A 14, B 15, C 15" in (
        panel.view.value)
    for bid in [3, 20, 0, 0, 0, 0]:
        t.form.set(value=min(bid, t.session.observation().budget))
        t.form.play_button.click()
    assert t.session.is_over and panel.shares is None
    history = t.session.state.history
    assert panel.costs.equals(three_team_costs(panel.solution, history, 0))
    assert panel.costs["cost"][0] == 0.0 and panel.costs["cost"].sum() > 0
    assert f"{panel.costs['cost'].sum():.3f}" in panel.view.value


@pytest.mark.parametrize(("bids", "shown"), [
    ([], "none"), ([3], "3"), ([2, 3, 4, 5, 6], "2–6"), ([0, 1, 2, 3, 4, 9], "0–4, 9"),
    ((5, 3, 4, 9, 10), "3–5, 9–10"),
])  # fmt: skip
def test_bids_are_shown_as_runs(bids, shown):
    assert _range(bids) == shown
