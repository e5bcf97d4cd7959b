"""The ``fitted`` agent: its compiled policy at the hand-written start is the coverage
heuristic, legal and identical in both engines, reproducible, shipped fits for the rulebook's
rules, fits that follow the rules, and a seeded match where it beats the heuristic."""

from __future__ import annotations

import dataclasses
import math
import time

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from workbench.designer.executors import SerialExecutor
from workbench.designer.exploitability import exploitability, lone_shares
from workbench.games.shared_budget import (
    AGENTS,
    GAME,
    CoverageHeuristic,
    EquilibriumAgent,
    FittedPolicy,
    Rules,
    SharedBudgetFittedAgent,
    fit,
    make_agent,
    simulate,
)
from workbench.games.shared_budget.fitted import FITTING, exactly_solvable
from workbench.games.shared_budget.policies import FITTED_PARAMETERS
from workbench.games.shared_budget.simulate import SELF_PLAY
from workbench.kit.fits import fit_key, read_fit, shipped_folder
from workbench.kit.fitting import fit_policy
from workbench.kit.policies import Mixture
from workbench.stats import proportion_interval

START = [p.start for p in FITTING.parameters]


def test_agents_keep_their_order_with_fitted_and_search_last():
    assert list(AGENTS) == ["random", "coverage", "fitted", "search", "equilibrium"]
    assert isinstance(make_agent("fitted", seed=3), SharedBudgetFittedAgent)
    with pytest.raises(ValueError, match="fitted seed"):
        make_agent("fitted", seed=-1)


@pytest.mark.parametrize("teams", [2, 3, 4])
def test_the_start_vector_plays_the_coverage_heuristic(teams):
    """Every added feature's start value gives the heuristic's bid back, in both engines."""
    rules = Rules(teams=teams)
    policy = FittedPolicy(rules, START)
    for engine in ("fast", "step"):
        lineup = [policy] + ["coverage"] * (teams - 1)
        fitted, _ = simulate(rules, lineup, games=120, seed=4, progress=False, engine=engine)
        heuristic, _ = simulate(rules, "coverage", games=120, seed=4, progress=False,
                                engine=engine)  # fmt: skip
        assert_frame_equal(fitted.drop("agent"), heuristic.drop("agent"))


@pytest.mark.parametrize("teams", [2, 3, 4])
def test_fitted_is_legal_and_identical_in_both_engines(teams):
    rules = Rules(teams=teams)
    lineup = ["fitted", "random", "coverage", "fitted"][:teams]
    fast = simulate(rules, lineup, games=200, seed=9, progress=False, engine="fast")
    step = simulate(rules, lineup, games=200, seed=9, progress=False, engine="step")
    for fast_frame, step_frame in zip(fast, step, strict=True):
        assert_frame_equal(fast_frame, step_frame)
    rounds = step[1]
    assert not rounds["invalid"].any()  # every bid written was a legal action
    assert (rounds["bid"] <= rounds["budget_before"]).all()
    again = simulate(rules, lineup, games=200, seed=9, progress=False, engine="fast")
    assert_frame_equal(again[0], fast[0])


def test_classroom_fitted_buys_what_adds_a_function():
    rules = Rules(variant="classroom")
    fast = simulate(rules, "fitted", games=20, seed=1, progress=False, engine="fast")
    step = simulate(rules, "fitted", games=20, seed=1, progress=False, engine="step")
    assert_frame_equal(fast[1], step[1])
    heuristic = simulate(rules, "coverage", games=20, seed=1, progress=False)
    assert fast[1]["written"].to_list() == heuristic[1]["written"].to_list()


@pytest.mark.parametrize("teams", [2, 3, 4])
def test_the_rulebook_fits_ship_and_load_without_fitting(teams):
    rules = Rules(teams=teams)
    name = fit_key("shared_budget", rules, version=FITTING.cache_version, seed=0) + ".json"
    shipped = read_fit(shipped_folder("shared_budget") / name)
    assert shipped is not None and shipped.version == FITTING.cache_version
    assert set(shipped.params) == set(FITTED_PARAMETERS)
    for parameter in FITTING.parameters:
        assert parameter.low <= shipped.params[parameter.name] <= parameter.high
    started = time.perf_counter()
    found = SharedBudgetFittedAgent().fit(rules, progress=False)
    assert time.perf_counter() - started < 1.0
    assert found == shipped == fit(rules, progress=False)


def test_fits_follow_the_rules(tmp_path):
    """A cheap fit at the rulebook's 3 teams and at a far-apart rule set (4 teams, 6 credits,
    shared ties) gives different parameters; the same arguments give the same fit."""
    cheap = dataclasses.replace(FITTING, games=20, generations=3, population=6, exploiter_games=1,
                                equilibrium=None)  # the CMA-ES stage alone
    near = Rules(teams=3)
    far = Rules(teams=4, budget=6, final_tiebreak="shared")
    near_params, details = fit_policy(SELF_PLAY, cheap, near, seed=1, progress=False)
    far_params, _ = fit_policy(SELF_PLAY, cheap, far, seed=1, progress=False)
    assert near_params != far_params
    assert len(details["mean_objective_by_generation"]) == 3
    assert fit_policy(SELF_PLAY, cheap, near, seed=1, progress=False)[0] == near_params


def test_fitted_beats_the_heuristic_one_against_two():
    rules = Rules(teams=3)
    games = 300
    share = 0.0
    for seat in range(3):
        lineup = ["coverage"] * 3
        lineup[seat] = "fitted"
        frame, _ = simulate(rules, lineup, games=games, seed=20 + seat, progress=False,
                            rounds=False)  # fmt: skip
        share += frame.filter(pl.col("seat") == seat)["win_share"].sum()
    low, _high = proportion_interval(share, 3 * games)
    assert low > 1 / 3


def test_two_teams_play_the_exact_equilibrium_and_no_family_gains():
    """At two teams the fitted seat is the solved equilibrium (compiled): a re-fitted coverage
    or fitted team, the search modelling it and the equilibrium agent itself gain nothing on
    2,000 fresh games (measured 2026-12-05: -0.49, -0.50, -0.018 and 0.0; the parametrised
    fit it replaced lost every game to the equilibrium)."""
    rules = Rules()
    policy = make_agent("fitted").policy_for(rules)
    assert isinstance(policy, EquilibriumAgent) and policy.solution.rules == rules
    assert not isinstance(make_agent("fitted").policy_for(Rules(teams=4)), EquilibriumAgent)
    table = exploitability("shared_budget", rules, challengers=["search", "equilibrium"],
                           executor=SerialExecutor(), progress=False)  # fmt: skip
    assert table["gain_high"].max() <= 0.01, table
    shares = lone_shares(GAME, rules, policy, make_agent("coverage"), 400, 3)
    assert shares.mean() == 1.0  # the equilibrium alone wins every game against coverage


@pytest.mark.parametrize(("changes", "exact"), [
    ({}, True),  # the rulebook's: solved in a quarter of a second
    ({"budget": 60}, True),  # 2.9 million table entries
    ({"budget": 120}, False),  # beyond EXACT_ENTRIES: the parametrised fit plays
    ({"teams": 3}, True),  # three teams' subgame-perfect equilibrium, about 7 s on one core
    ({"teams": 3, "budget": 30}, False),  # estimated 23 s on one core
    ({"teams": 4}, False),  # a solve would take hours
    ({"variant": "classroom"}, False),  # no bidding
])  # fmt: skip
def test_the_exact_equilibrium_plays_where_it_solves_in_time(changes, exact):
    assert exactly_solvable(Rules(**changes)) is exact


def test_the_equilibrium_mixture_resists_the_families_at_four_teams():
    """The shipped fit's equilibrium stage searches the fitted family and the coverage
    heuristic's. Measured 2026-12-05 on 2,000 fresh games per family: coverage +0.011, fitted
    -0.057, search +0.023 (the target, 0.03, met)."""
    fitted = make_agent("fitted")
    mixture = fitted.policy_for(Rules(teams=4))
    assert isinstance(mixture, Mixture) and math.isclose(sum(mixture.weights), 1.0)
    assert any(isinstance(member, CoverageHeuristic) for member in mixture.components)
    families = ["coverage", "fitted", "search"]
    table = exploitability("shared_budget", Rules(teams=4), challengers=families,
                           executor=SerialExecutor(), progress=False)  # fmt: skip
    assert table["gain"].max() <= 0.03, table


def test_three_teams_play_the_subgame_perfect_equilibrium_and_no_family_gains():
    """At three teams the fitted seat is the subgame-perfect equilibrium (``solve_three``): a
    re-fitted coverage team and the search modelling it lose on 2,000 fresh games (measured
    2026-12-05: -0.167 and -0.142; the fitted family re-fitted -0.221; the parametrised
    mixture it replaced left the search +0.158)."""
    rules = Rules(teams=3)
    assert isinstance(make_agent("fitted").policy_for(rules), EquilibriumAgent)
    table = exploitability("shared_budget", rules, challengers=["coverage", "search"],
                           executor=SerialExecutor(), progress=False)  # fmt: skip
    assert table["gain_high"].max() <= -0.12, table  # measured -0.131 (search), -0.156


def test_bad_parameter_vectors_are_refused():
    with pytest.raises(ValueError, match="10 finite parameters"):
        FittedPolicy(Rules(), [1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        FittedPolicy(Rules(), [math.nan] * len(FITTED_PARAMETERS))
    with pytest.raises(TypeError, match="Rules"):
        FittedPolicy("rules", START)
