"""Baseline vs variant: paired differences on common random numbers, checked against an
independent computation from two simulate runs."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest

from workbench import SerialExecutor, compare
from workbench import games as registry
from workbench.designer import per_game_metrics
from workbench.designer.balance import game_values
from workbench.designer.comparison import UNSTATED, paired_summary
from workbench.games import rubbish, shared_budget
from workbench.stats import mean_interval

MIXED = ["heuristic", "random", "random", "random"]


def run(game, baseline, variant, agents, games=300, seed=4):
    return compare(
        game,
        baseline,
        variant,
        agents,
        games=games,
        seed=seed,
        executor=SerialExecutor(),
        progress=False,
    )


def test_a_variant_equal_to_the_baseline_differs_by_exactly_zero():
    frame = run("rubbish", None, {}, MIXED).filter(pl.col("kind") != "derived")
    assert (frame["difference"] == 0).all()
    assert (frame["difference_low"] == 0).all() and (frame["difference_high"] == 0).all()
    assert (frame["baseline"] == frame["variant"]).all()
    assert frame["variant_name"][0] == "same as baseline"


def test_differences_are_paired_per_game_and_intervals_are_t():
    variant = shared_budget.Rules(tie_priority="fixed")
    frame = run("shared_budget", None, variant, ["coverage", "random"], games=400, seed=8)
    base_games, base_rounds = shared_budget.simulate(
        None, ["coverage", "random"], games=400, seed=8, progress=False
    )
    var_games, var_rounds = shared_budget.simulate(
        variant, ["coverage", "random"], games=400, seed=8, progress=False
    )
    before = per_game_metrics(base_games, base_rounds, shared_budget)
    after = per_game_metrics(var_games, var_rounds, shared_budget)
    for name in ("win_rate_seat_0", "priority_decided_rate", "budget_left", "lead_changes"):
        row = frame.filter(pl.col("metric") == name).row(0, named=True)
        difference = (after[name] - before[name]).to_numpy()
        mean, low, high = mean_interval(difference)
        assert (row["difference"], row["difference_low"], row["difference_high"]) == pytest.approx(
            (mean, low, high)
        )
        assert row["n"] == 400 and row["interval"] == "paired t"
        assert row["correlation"] == pytest.approx(np.corrcoef(before[name], after[name])[0, 1])
    info = frame.row(0, named=True)
    assert info["variant_name"] == "tie_priority=fixed" and info["baseline_name"] == "rulebook"
    assert info["common_randomness"] == shared_budget.COMMON_RANDOMNESS
    assert info["agents"] == "coverage,random" and (info["games"], info["seed"]) == (400, 8)


def test_common_random_numbers_correlate_the_pairs():
    # The fast engine deals the same geeks and draws the same uniforms for game g of both runs.
    frame = run("rubbish", None, {"destined_bonus": 40}, "heuristic", games=2_000)
    seats = frame.filter(pl.col("metric").str.starts_with("win_rate_seat_"))
    assert (seats["correlation"] > 0.2).all()


def test_a_change_of_seat_count_pairs_what_both_have():
    frame = run("rubbish", None, {"players": 3}, "heuristic", games=200)
    seat3 = frame.filter(pl.col("metric") == "win_rate_seat_3").row(0, named=True)
    assert seat3["n"] == 0 and np.isnan(seat3["variant"]) and np.isnan(seat3["difference"])
    assert frame.filter(pl.col("metric") == "first_seat_advantage")["n"].item() == 200


def test_spread_difference_is_a_conservative_range():
    row = (
        run("rubbish", None, {"destined_bonus": 0}, MIXED)
        .filter(pl.col("metric") == "win_rate_spread")
        .row(0, named=True)
    )
    assert row["interval"] == "Bonferroni range"
    assert row["difference_low"] <= row["difference"] <= row["difference_high"]
    # Wider than the difference of the two sides' own (95%) ranges would suggest.
    assert row["difference_high"] - row["difference_low"] > (
        row["variant_high"] - row["variant_low"]
    )


def test_a_game_that_does_not_say_what_it_shares_is_labelled():
    games, rounds = rubbish.simulate(None, "random", games=20, seed=1, progress=False)
    values = game_values(games, rounds)
    frame = paired_summary(values, values)
    assert frame.height == 4 + 1 + 6  # common metrics only without the game
    assert "not stated by the game" in UNSTATED


@pytest.mark.parametrize(
    ("baseline", "variant", "agents", "error", "message"),
    [
        (None, None, None, ValueError, "variant is missing"),
        (None, {"bonus": 1}, None, ValueError, "variant: unknown rule field 'bonus'"),
        ({"destined_bonus": -1}, {}, None, ValueError, "baseline: destined_bonus must be a whole"),
        (None, {"players": 3}, MIXED, ValueError, "variant: agents must give one agent per seat"),
        (shared_budget.Rules(), {}, None, TypeError, "baseline must be rubbish.Rules"),
    ],
)
def test_bad_input_is_reported_before_running(baseline, variant, agents, error, message):
    with pytest.raises(error, match=message):
        run("rubbish", baseline, variant, agents)


@pytest.mark.parametrize("game_id", registry.available())
def test_a_missing_variant_is_told_the_fields_of_its_own_game(game_id):
    fields = [spec.name for spec in dataclasses.fields(registry.get(game_id).Rules) if spec.init]
    with pytest.raises(ValueError, match=f"variant's {game_id} Rules") as raised:
        compare(game_id, games=10, seed=1)
    assert str(raised.value).endswith(f"(the fields: {', '.join(fields)})")


def test_without_a_lineup_the_designer_seats_the_fitted_agent():
    """The designer's default line-up is ``fitted`` (fitted to each side's rules): the same
    table as naming it, labelled so; a game without one keeps its own default agent."""
    default = run("rubbish", None, {"destined_bonus": 40}, None, games=100)
    named = run("rubbish", None, {"destined_bonus": 40}, "fitted", games=100)
    assert default["agents"].unique().to_list() == ["fitted"]
    assert default.equals(named)
    heuristic = run("rubbish", None, {"destined_bonus": 40}, "heuristic", games=100)
    assert not default["baseline"].equals(heuristic["baseline"])
