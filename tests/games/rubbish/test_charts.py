"""Rubbish Auction charts: every builder draws with all its text inside the image, and says in
the chart what its intervals and reference marks are."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.charts import render
from workbench.games import rubbish


@pytest.fixture(scope="module")
def report():
    lineup = ["heuristic", "random"] * 2
    return rubbish.cheapskate_frequency(rubbish.Rules(), lineup, games=300, seed=5)


@pytest.fixture(scope="module")
def game():
    return rubbish.play_game(rubbish.Rules(), [rubbish.HeuristicAgent()] * 4, seed=2024)


def _subtitle(chart) -> list[str]:
    title = chart.to_dict().get("title", {})
    subtitle = title.get("subtitle", []) if isinstance(title, dict) else []
    return [subtitle] if isinstance(subtitle, str) else subtitle


def _charts(report, game):
    exact = rubbish.possible_bids((5, 2, 2, 1), 3)
    sampled = rubbish.bid_posterior(
        (5, 2, 2, 1), 3, None, "sampling", situation=rubbish.bidding_situation(locked=10),
        samples=4, seed=1, epsilon=0.1,
    )  # fmt: skip
    scores = rubbish.game_inference(game, priors=("uniform",)).scores
    geeks = rubbish.infer(rubbish.observations_before_last_bid(game)[0], prior="uniform").geeks
    return {
        "exact bids": (rubbish.bid_posterior_chart(exact, title="Exact"), []),
        "estimated bids": (
            rubbish.bid_posterior_chart(sampled, title="Estimate"),
            ["black lines: 95% interval (an estimate)"],
        ),
        "geeks": (rubbish.geek_posterior_chart(geeks, title="Geeks"), []),
        "through the game": (rubbish.game_inference_chart(scores, title="Totals"), []),
        "cheapskate by seat": (
            rubbish.cheapskate_chart(report.summary, title="By seat"),
            ["dots: mean per game, lines: 95% interval", "grey ticks: fair share (rounds/players)"],
        ),
        "win rate": (
            rubbish.cheapskate_win_rate_chart(report.summary, title="Win rate"),
            ["dots: win rate · lines: 95% interval"],
        ),
        "distribution": (
            rubbish.cheapskate_distribution_chart(
                report.distribution.filter(pl.col("times_cheapskate") <= 4), title="Spread"
            ),
            ["black lines: 95% interval"],
        ),
        "cost": (
            rubbish.cheapskate_winning_chart(report.winning, title="Cost"),
            ["vertical lines: 95% interval"],
        ),
    }


def test_every_chart_keeps_its_text_inside_and_names_its_marks(report, game):
    for name, (chart, subtitle) in _charts(report, game).items():
        rendered = render(chart)
        assert rendered.text_outside == (), name
        assert _subtitle(chart) == subtitle, name


def test_the_win_rate_chart_labels_the_even_share(report):
    text = render(rubbish.cheapskate_win_rate_chart(report.summary)).text
    assert "even | label\n  0.25 | even share 1/4" in text
