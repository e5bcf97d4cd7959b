"""The kitty explorer driven through its controls, and the charts built from real frames."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.games import auction_house as ah


def test_kitty_explorer_recomputes_the_package_numbers():
    explorer = ah.kitty_explorer(games=100, seed=3)
    assert explorer.error is None and explorer.chart is not None
    outcomes = ah.kitty_outcomes(ah.Rules(), "heuristic", deals=13 * 100, seed=3)
    assert explorer.frame.equals(ah.kitty_summary(outcomes))
    explorer.set(lineup="heuristic vs random", trump_reveal="before_auction", deals=4)
    variant = ah.Rules(trump_reveal="before_auction", deals=4)
    lineup = ["heuristic", "random", "heuristic", "random"]
    expected = ah.kitty_summary(ah.kitty_outcomes(variant, lineup, deals=4 * 100, seed=3))
    assert explorer.error is None and explorer.frame.equals(expected)
    assert "heuristic vs random, trump before auction, 4 deals/game" in str(
        explorer.chart.to_dict()
    )
    with pytest.raises(ValueError, match="unknown control"):
        explorer.set(players=3)


def test_charts_build_from_the_analysis_frames():
    outcomes = ah.kitty_outcomes(ah.Rules(), "random", deals=13 * 40, seed=1)
    specs = [
        ah.kitty_value_chart(ah.kitty_value_distribution(outcomes)),
        ah.carry_chain_chart(ah.carry_chains(outcomes)),
        ah.win_by_tricks_chart(ah.win_by_tricks(outcomes, by="agents"), series="agents"),
        ah.auction_value_chart(ah.auction_value(ah.Rules(), "random", deals=13 * 20, seed=1)),
        ah.trump_reveal_chart(
            ah.trump_reveal_comparison(ah.Rules(), "random", deals=13 * 20, seed=1)
        ),
        ah.trump_odds_chart(ah.trump_odds_through(ah.new_game(seed=2).chance.trump_cards)),
    ]
    for chart in specs:
        spec = chart.to_dict()
        assert "95% interval" in str(spec) or "turned" in str(spec) or "pot" in str(spec)
    with pytest.raises(ValueError, match="needs columns"):
        ah.carry_chain_chart(pl.DataFrame({"length": [1]}))
    with pytest.raises(TypeError, match="takes a polars DataFrame"):
        ah.kitty_value_chart("frame")


def test_a_click_on_a_tricks_point_shows_that_row_of_who_wins_the_kitty():
    # The summary table has no tricks column: the pick shows the clicked chart rows instead.
    explorer = ah.kitty_explorer(games=100, seed=3)
    outcomes = ah.kitty_outcomes(ah.Rules(), "heuristic", deals=13 * 100, seed=3)
    by_tricks = ah.win_by_tricks(outcomes)
    tricks = by_tricks["tricks"][1]
    explorer.pick({"tricks": tricks})
    assert explorer.shown["tricks"].to_list() == [tricks]
    expected = by_tricks.filter(pl.col("tricks") == tricks).row(0, named=True)
    assert explorer.shown.row(0, named=True)["p_win"] == pytest.approx(expected["p_win"])
