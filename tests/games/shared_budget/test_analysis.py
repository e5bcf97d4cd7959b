"""Analyses (frames), charts and the state explorer."""

from __future__ import annotations

import dataclasses

import altair as alt
import numpy as np
import polars as pl
import pytest
from scipy import stats as scipy_stats

from workbench.charts import render
from workbench.games.shared_budget import (
    CoverageHeuristic,
    RandomAgent,
    Rules,
    bid_distribution_chart,
    bid_distributions,
    bid_heatmap,
    card_order_variants,
    classroom_plans,
    equilibrium_bids,
    equilibrium_path,
    function_table_variants,
    new_game,
    priority_variants,
    purchase_effect_summary,
    purchase_effects,
    purchase_effects_chart,
    reachable_states,
    seat_results,
    seat_results_chart,
    simulate,
    solve,
    stage_table,
    start_values,
    state_explorer,
    value_by_budget,
    value_by_budget_chart,
    value_heatmap,
    variant_chart,
    variant_values,
    versus_equilibrium,
    versus_equilibrium_chart,
)
from workbench.stats import proportion_interval


@pytest.fixture(scope="module")
def solution():
    return solve()


def test_equilibrium_path_replays_through_the_engine(solution):
    path = equilibrium_path(solution)
    assert path["probability"].to_list() == [1.0] * 6  # every stage game on it is pure
    state = new_game(seed=0)
    for row in path.iter_rows(named=True):
        assert state.budgets == (row["budget_a"], row["budget_b"])
        state = state.apply(row["bid_a"]).apply(row["bid_b"])
        winner = state.history[-1].winner
        assert row["winner"] == ("-" if winner is None else "AB"[winner])
    # the engine's final result is worth exactly the game's value to A
    assert state.result().shares[0] == solution.value
    assert path["value"].to_list() == [solution.value] * 6


def test_bid_distributions_sum_to_one(solution):
    distributions = bid_distributions(solution)
    sums = distributions.group_by("round", "team").agg(pl.col("probability").sum())
    assert sums.height == 12
    assert sums["probability"].to_list() == pytest.approx([1.0] * 12)


def test_equilibrium_bids_cover_every_budget_pair(solution):
    bids = equilibrium_bids(solution, 4)
    assert bids.height == 21 * 21 * 2
    assert bids["card"].unique().to_list() == ["Music nook"]
    # default coverage = the equilibrium path's at round 4: A rest+explore, B welcome
    at = bids.filter((pl.col("budget_a") == 11) & (pl.col("budget_b") == 19))
    assert at.sort("team")["bid"].to_list() == [11, 11]
    stage = solution.stage(4, (11, 19), (("rest", "explore"), ("welcome",)))
    assert at["value"][0] == stage.value
    assert at["optimal_low"].to_list() == [11, 11] == at["optimal_high"].to_list()
    # A on 11 against B on 9 has won the position; its least safe bid is 2 (see notebook 05)
    ahead = bids.filter(pl.col("budget_a") == 11, pl.col("budget_b") == 9).sort("team")
    assert ahead["optimal_low"].to_list() == [2, 0]
    assert ahead["optimal_high"].to_list() == [11, 9]
    with pytest.raises(ValueError, match="round"):
        equilibrium_bids(solution, 9)


def test_reachable_states_and_start_values(solution):
    states = reachable_states(solution)
    assert states.height == sum(1 for _ in solution.reachable_positions())
    assert states.filter(pl.col("round") == 1).height == 1
    assert not states["mixed"].any()
    assert states["value"].is_between(0, 1).all()
    values = start_values(solution)
    assert values.height == 21 * 21
    assert values.filter((pl.col("budget_a") == 20) & (pl.col("budget_b") == 20))["value"][0] == (
        solution.value
    )


def test_value_by_budget_and_priority_symmetry():
    frame = value_by_budget(None, [2, 3, 8, 20])
    # independent solves at each budget give the same values as the embedded ones
    for row in frame.iter_rows(named=True):
        assert row["value_a_first"] == solve(Rules(budget=row["budget"])).value
    # swapping who is first swaps the teams: value with B first = 1 - value with A first
    assert (frame["value_b_first"] == 1 - frame["value_a_first"]).all()
    assert frame["value_a_first"].to_list() == [0.0, 0.0, 1.0, 0.5]
    with pytest.raises(ValueError, match="positive"):
        value_by_budget(None, [0, 3])


def test_variants_and_their_values():
    orders = card_order_variants()
    assert len(orders) == 7
    assert orders["reversed"].projects[0].name == "Neighborhood map"
    assert orders["Music nook first"].projects[0].name == "Music nook"
    tables = function_table_variants()
    assert tables["single functions only"].projects[3].functions == ("rest",)
    small = {name: dataclasses.replace(rules, budget=6) for name, rules in orders.items()}
    frame = variant_values(small)
    assert frame["variant"].to_list() == list(orders)
    assert frame["value"].to_list() == [solve(rules).value for rules in small.values()]
    reversed_functions = "welcome+explore > explore > welcome+rest > explore > welcome > rest"
    assert frame["functions"][1] == reversed_functions


def test_priority_variants():
    variants = priority_variants(Rules(budget=8))
    assert [(r.tie_priority, r.first_priority) for r in variants.values()] == [
        ("rotating", 0),
        ("rotating", 1),
        ("fixed", 0),
        ("fixed", 1),
    ]
    values = variant_values(variants)["value"].to_list()
    # swapping the teams' priority swaps the result: values pair up as v and 1 - v
    assert values[0] == 1 - values[1] and values[2] == 1 - values[3]


def test_seat_results_intervals():
    games, _ = simulate(
        None, [RandomAgent(), CoverageHeuristic()], games=200, seed=1, progress=False
    )
    results = seat_results(games)
    assert results["games"].to_list() == [200, 200]
    wins = games.filter(pl.col("seat") == 1)["win_share"].sum()
    row = results.filter(pl.col("seat") == 1).row(0, named=True)
    assert row["win_share"] == pytest.approx(wins / 200)
    assert (row["low"], row["high"]) == pytest.approx(proportion_interval(wins, 200))


def synthetic_rounds() -> pl.DataFrame:
    """Three rounds, two games x two teams: buyers of round 1's card bid (1, 3) on round 2,
    the others (4, 6, 8)..."""
    rows = []
    bought = {(0, 0): True, (0, 1): False, (1, 0): True, (1, 1): False, (2, 0): False}
    later_bids = {(0, 0): 1, (0, 1): 4, (1, 0): 3, (1, 1): 6, (2, 0): 8}
    for (game, seat), won in bought.items():
        rows.append(
            {"game": game, "seat": seat, "round": 1, "card": "first", "bid": 5, "won_card": won}
        )
        rows.append(
            {
                "game": game,
                "seat": seat,
                "round": 2,
                "card": "second",
                "bid": later_bids[(game, seat)],
                "won_card": False,
            }
        )
    return pl.DataFrame(rows)


def test_purchase_effects_against_scipy_welch():
    effects = purchase_effects(synthetic_rounds(), early_rounds=1)
    row = effects.row(0, named=True)
    assert (row["bought_n"], row["other_n"]) == (2, 3)
    assert row["bought_bid"] == 2.0 and row["other_bid"] == 6.0
    assert row["shift"] == -4.0
    welch = scipy_stats.ttest_ind([1, 3], [4, 6, 8], equal_var=False).confidence_interval(0.95)
    assert (row["low"], row["high"]) == pytest.approx((welch.low, welch.high))
    with pytest.raises(ValueError, match="early_rounds"):
        purchase_effects(synthetic_rounds(), early_rounds=2)


def test_purchase_effect_summary_picks_the_biggest_shift():
    effects = pl.DataFrame(
        {
            "early_round": [1, 1, 2],
            "early_card": ["x", "x", "y"],
            "later_round": [2, 3, 3],
            "later_card": ["y", "z", "z"],
            "bought_n": [5, 5, 4],
            "bought_bid": [1.0, 2.0, 3.0],
            "other_n": [5, 5, 6],
            "other_bid": [3.0, 1.0, 3.5],
            "shift": [-2.0, 1.0, -0.5],
            "low": [-3.0, 0.0, -1.0],
            "high": [-1.0, 2.0, 0.0],
        }
    )
    summary = purchase_effect_summary(effects)
    assert summary["early_card"].to_list() == ["x", "y"]
    assert summary["total_shift"].to_list() == [3.0, 0.5]
    assert summary["most_changed"].to_list() == ["y", "z"]
    assert summary["biggest_shift"].to_list() == [-2.0, -0.5]
    with pytest.raises(ValueError, match="no early card"):
        purchase_effect_summary(effects.with_columns(pl.lit(float("nan")).alias("shift")))
    with pytest.raises(ValueError, match=r"\['shift'\] \(a purchase_effects frame has them\)"):
        purchase_effect_summary(effects.drop("shift"))
    with pytest.raises(TypeError, match=r"stage must be a StageGame .*, got DataFrame$"):
        stage_table(effects)


def test_classroom_plans():
    plans = classroom_plans()
    assert plans.height == 64
    best = plans.row(0, named=True)
    assert (best["functions"], best["left"], best["cost"]) == (3, 5, 15)
    # hand count: Discovery table 6 + Music nook 9 = 15, covering all three
    pick = plans.filter(pl.col("plan") == "Discovery table + Music nook").row(0, named=True)
    assert (pick["cost"], pick["functions"], pick["affordable"]) == (15, 3, True)
    assert plans.filter(pl.col("affordable"))["cost"].max() <= 20


def test_charts_build_valid_specs(solution):
    games, rounds = simulate(
        None, [CoverageHeuristic(), CoverageHeuristic()], games=40, seed=0, progress=False
    )
    versus = versus_equilibrium(solution, [CoverageHeuristic()], games=10, seed=0)
    charts = [
        bid_distribution_chart(bid_distributions(solution)),
        bid_heatmap(equilibrium_bids(solution, 1)),
        value_heatmap(start_values(solution)),
        value_by_budget_chart(value_by_budget(None, [3, 4])),
        variant_chart(variant_values({"tiny": Rules(budget=3)}), title="t"),
        seat_results_chart(seat_results(games), title="t"),
        versus_equilibrium_chart(versus),
        purchase_effects_chart(purchase_effects(rounds)),
    ]
    for chart in charts:
        assert isinstance(chart, alt.TopLevelMixin)
        spec = chart.to_dict()
        assert "$schema" in spec
        assert render(chart).text_outside == ()  # every text inside the image


def test_interval_charts_say_what_their_marks_are(solution):
    games, _ = simulate(
        Rules(teams=3), [CoverageHeuristic()] * 3, games=30, seed=0, progress=False
    )
    seats = seat_results_chart(seat_results(games), title="Three")
    key = "dots: win share (a shared result counts 1/k), lines: 95% interval"
    assert seats.to_dict()["title"] == {"text": "Three", "subtitle": [key]}
    assert "even | label\n  0.3333 | even share 1/3" in render(seats).text
    versus = versus_equilibrium_chart(
        versus_equilibrium(solution, [CoverageHeuristic()], games=10, seed=0)
    )
    subtitle = versus.to_dict()["title"]["subtitle"]
    assert subtitle[1].startswith("black ticks: the seat's value under best play")


def test_state_explorer_shows_the_stage_solution(solution):
    explorer = state_explorer(solution)
    assert explorer.error is None
    assert explorer.frame["bid"].to_list() == [6, 6] and explorer.frame["value"][0] == 0.5
    explorer.set(
        round=4, budget_a=11, budget_b=19, coverage_a=("rest", "explore"), coverage_b=("welcome",)
    )
    stage = solution.stage(4, (11, 19), (("rest", "explore"), ("welcome",)))
    assert explorer.frame.equals(stage_table(stage))
    explorer.set(budget_a=5)  # with 5 credits instead of 11, A loses this position
    assert (
        explorer.frame["value"][0]
        == solution.stage(4, (5, 19), (("rest", "explore"), ("welcome",))).value
        == 0.0
    )
    assert isinstance(explorer.chart, alt.Chart)


def test_state_explorer_offers_what_the_earlier_cards_supply(solution):
    explorer = state_explorer(solution)
    coverage_a = explorer.controls["coverage_a"]
    assert coverage_a.options == () and coverage_a.disabled  # nothing bought before card 1
    explorer.set(round=3)  # Quiet corner (rest) and Welcome desk (welcome) came before
    assert coverage_a.options == (("welcome", "welcome"), ("rest", "rest"))
    assert not coverage_a.disabled
    with pytest.raises(ValueError, match=r"coverage_a=\('explore',\) is not possible here; "
                       r"options: 'welcome', 'rest'"):  # fmt: skip
        explorer.set(coverage_a=("explore",))


def test_state_explorer_refuses_positions_no_play_reaches(solution):
    explorer = state_explorer(solution)
    # Both teams covering welcome before card 3: only one welcome card has been offered.
    explorer.set(round=3, coverage_a=("welcome",), coverage_b=("welcome",))
    assert explorer.frame is None
    assert explorer.error.startswith(
        "no play of the game reaches A covering welcome and B covering welcome before "
        "Discovery table (cards before it: Quiet corner (rest), Welcome desk (welcome))"
    )
    # A covering welcome has bought a card, so it cannot still hold all 20 credits; B, covering
    # nothing, has bought nothing. The sliders follow; a budget off them is refused.
    explorer.set(coverage_b=())
    budget_a, budget_b = explorer.controls["budget_a"], explorer.controls["budget_b"]
    assert (budget_a.min, budget_a.max, budget_a.value) == (0, 19, 19)
    assert (budget_b.min, budget_b.max, budget_b.disabled) == (20, 20, True)
    assert explorer.error is None
    with pytest.raises(ValueError, match="budget_a=20 is not possible here; allowed 0–19"):
        explorer.set(budget_a=20)
    explorer.set(budget_a=12)
    assert explorer.error is None and explorer.frame["value"][0] == solution.stage(
        3, (12, 20), (("welcome",), ())
    ).value


def test_state_explorer_budgets_are_fixed_before_the_first_card(solution):
    explorer = state_explorer(solution)
    for name in ("budget_a", "budget_b"):
        control = explorer.controls[name]
        assert (control.min, control.max, control.disabled) == (20, 20, True)


def test_state_explorer_names_the_position_in_the_chart_title(solution):
    explorer = state_explorer(solution)
    explorer.set(
        round=4, budget_a=11, budget_b=19, coverage_a=("rest", "explore"), coverage_b=("welcome",)
    )
    title = explorer.chart.to_dict()["title"]
    assert title["text"] == "Card 4: Music nook (B first on ties)"
    assert title["subtitle"] == [
        "A: 11 credits, covers rest+explore · B: 19 credits, covers welcome",
        "value for A under best play: 0.500",
    ]


def test_stage_table_lists_the_support(solution):
    table = stage_table(solution.stage())
    assert table.columns == ["team", "bid", "probability", "optimal", "value"]
    assert np.isclose(
        table.group_by("team").agg(pl.col("probability").sum())["probability"], 1.0
    ).all()
