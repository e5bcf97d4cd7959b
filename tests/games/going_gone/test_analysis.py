"""Self-play summaries (prices, seat and Auctioneer win rates, ties), the charts built from
them and the collection explorer driven through its controls."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.charts import pick_view
from workbench.games.going_gone import (
    Rules,
    arrangement_chart,
    arrival_chart,
    arrival_path,
    auctioneer_turn_win_rates,
    best_collections,
    collection_explorer,
    holding_values_chart,
    lot_value,
    price_chart,
    prices,
    random_holding_values,
    sale_options,
    seat_win_rates,
    simulate,
    simulate_lineups,
    tie_summary,
    value_chart,
    value_table,
    win_rate_chart,
)


@pytest.fixture(scope="module")
def lineups():
    return simulate_lineups(
        {"valuation": "valuation", "collector": "collector"}, Rules(), games=200, seed=5
    )


def test_simulate_lineups_labels_and_seeds_each_line_up(lineups):
    games, lots = lineups
    assert games["lineup"].unique(maintain_order=True).to_list() == ["valuation", "collector"]
    assert games.height == 2 * 200 * 4 and lots.height == 2 * 200 * 35
    again, _ = simulate_lineups({"collector": "collector"}, Rules(), games=200, seed=5)
    first = games.filter(pl.col("lineup") == "collector").drop("lineup")
    # line-up i plays stream (seed, i): alone at position 0 the collector plays other games
    assert not again.drop("lineup").equals(first)
    with pytest.raises(ValueError, match="lineups must name at least one line-up"):
        simulate_lineups({}, games=1, seed=1)


def test_prices_average_each_game_first(lineups):
    _, lots = lineups
    table = prices(lots)
    assert table.columns == [
        "lineup", "lot_size", "round", "n", "mean", "low", "high", "discarded_share"
    ]  # fmt: skip
    assert table.height == 2 * 2 * 7
    one = lots.filter(
        (pl.col("lineup") == "valuation") & (pl.col("lot_size") == 2) & (pl.col("round") == 7)
    )
    per_game = (
        one.filter(pl.col("winner").is_not_null())
        .group_by("game")
        .agg(pl.col("price").cast(pl.Float64).mean())
    )
    row = table.filter(
        (pl.col("lineup") == "valuation") & (pl.col("lot_size") == 2) & (pl.col("round") == 7)
    ).row(0, named=True)
    assert row["n"] == per_game.height
    assert row["mean"] == pytest.approx(per_game["price"].mean())
    assert row["low"] < row["mean"] < row["high"]


def test_win_rates_by_seat_and_by_turns_as_auctioneer(lineups):
    games, _ = lineups
    seats = seat_win_rates(games)
    assert seats.columns == ["lineup", "seat", "n", "win_rate", "low", "high"]
    assert seats["n"].unique().to_list() == [200]
    for lineup in ("valuation", "collector"):
        assert seats.filter(pl.col("lineup") == lineup)["win_rate"].sum() == pytest.approx(1)
    turns = auctioneer_turn_win_rates(games)
    # 7 rounds, 4 seats, the paddle from seat 0: seats 0-2 hold it twice, seat 3 once. The
    # three two-turn seats of a game are averaged first: n counts games, 200 in both rows.
    valuation = turns.filter(pl.col("lineup") == "valuation")
    assert valuation["times_auctioneer"].to_list() == [1, 2]
    assert valuation["n"].to_list() == [200, 200]
    one_turn = games.filter((pl.col("lineup") == "valuation") & (pl.col("seat") == 3))
    assert valuation["win_rate"][0] == pytest.approx(one_turn["win_share"].mean())
    # The shares of a game add up to 1, so the two-turn seats' mean is the rest split three ways.
    assert valuation["win_rate"][1] == pytest.approx((1 - valuation["win_rate"][0]) / 3)


def test_tie_summary_counts_per_game(lineups):
    _, lots = lineups
    summary = tie_summary(lots)
    assert summary["measure"].unique(maintain_order=True).to_list() == [
        "tied lots per game",
        "lots the Auctioneer wins on a tie, per game",
    ]
    valuation = lots.filter(pl.col("lineup") == "valuation")
    tied = summary.filter(
        (pl.col("lineup") == "valuation") & (pl.col("measure") == "tied lots per game")
    ).row(0, named=True)
    assert tied["n"] == 200
    assert tied["mean"] == pytest.approx(valuation["tie"].sum() / 200)
    options = {"games": 20, "seed": 1, "lots": True, "progress": False, "rounds": False}
    *_, lots_one = simulate(Rules(players=2), "valuation", **options)
    assert tie_summary(lots_one)["lineup"].unique().to_list() == ["all"]


def test_summaries_refuse_the_wrong_frame(lineups):
    games, lots = lineups
    with pytest.raises(ValueError, match=r"the lots frame lacks columns \['price'\]"):
        prices(lots.drop("price"))
    with pytest.raises(ValueError, match=r"the games frame lacks columns \['seat'\]"):
        seat_win_rates(games.drop("seat"))
    with pytest.raises(TypeError, match=r"the lots frame must be a polars DataFrame .* got list"):
        prices(lots.to_dicts())


def test_charts_build_with_titles_legends_and_references(lineups):
    games, lots = lineups
    spec = value_chart(value_table()).to_dict()
    assert spec["title"]["text"] == "Collection values (rulebook chart)"
    assert len(spec["layer"]) == 2
    arrangement = best_collections(["cars/Germany", "comics/Germany"])
    spec = arrangement_chart(arrangement, lot=(7,)).to_dict()
    assert spec["title"]["text"] == "Best arrangement: worth 6" and len(spec["layer"]) == 3
    assert len(arrangement_chart(arrangement).to_dict()["layer"]) == 2
    spec = holding_values_chart(random_holding_values([1, 2], samples=10, seed=1)).to_dict()
    assert "10 holdings per size" in spec["title"]["text"]
    spec = arrival_chart(arrival_path(["cars/Germany", "comics/Germany"])).to_dict()
    assert spec["layer"][1]["mark"]["shape"] == "circle"
    spec = price_chart(prices(lots)).to_dict()
    assert spec["facet"]["column"]["field"] == "lineup"
    spec = win_rate_chart(seat_win_rates(games), fair_share=0.25).to_dict()
    assert spec["layer"][2]["encoding"]["strokeDash"]["field"] == "reference"
    assert len(win_rate_chart(seat_win_rates(games)).to_dict()["layer"]) == 2


def test_collection_explorer_shows_value_with_and_without_the_lot():
    explorer = collection_explorer(holding=["cars/Germany", "cars/Canada"], lot=["cars/China"])
    assert explorer.error is None
    assert explorer.chart.to_dict()["title"]["text"] == "Worth 6 without the lot, 12 with it (+6)"
    three_cars = ["cars/Germany", "cars/Canada", "cars/China"]
    assert explorer.frame.equals(sale_options(three_cars))
    explorer.set(lot=(7, 28))  # comics/Germany + toys/Germany: 14 (see test_collections)
    assert explorer.chart.to_dict()["title"]["text"] == "Worth 6 without the lot, 14 with it (+8)"
    explorer.set(lot=())
    assert explorer.chart.to_dict()["title"]["text"] == "Worth 6 (no lot chosen)"
    explorer.set(lot=(0,))
    assert "already in the holding" in explorer.error and explorer.frame is None
    explorer.set(holding=(), lot=(0,))
    assert explorer.error is None
    row = lot_value([], [0]).row(0, named=True)
    assert (
        explorer.chart.to_dict()["title"]["text"]
        == f"Worth 0 without the lot, {row['value_with']} with it (+2)"
    )


def test_collection_explorer_names_a_non_default_value_table():
    odd = collection_explorer(Rules(collection_values=(1, 4, 9, 16, 25, 36, 49)), lot=[0, 1])
    assert odd.chart.to_dict()["title"]["text"] == (
        "Worth 0 without the lot, 4 with it (+4) (collection values 1, 4, 9, 16, 25, 36, 49)"
    )


def test_a_click_on_a_collection_in_the_grid_lists_the_sale_options_along_its_line():
    holding = ["cars/Germany", "cars/Canada", "comics/Germany"]
    explorer = collection_explorer(holding=holding, lot=["cars/China"])
    _view, marks = pick_view(explorer.spec, explorer.pick_fields)
    assert {m["line"] for m in marks} == {"cars", "Germany", None}  # None: cells not held
    explorer.pick({"line": "cars"})
    # The three cars sell as all three, as any of the three pairs, or one alone: 7 options.
    assert explorer.shown.height == 7
    assert set(explorer.shown["line"].to_list()) == {"cars"}
    assert explorer.frame.height == 9  # and comics/Germany alone, and the Germany pair
    explorer.pick({"line": "Germany"})
    assert explorer.shown["collection"].to_list() == ["cars/Germany + comics/Germany"]


def test_a_click_on_an_empty_cell_of_the_grid_picks_nothing():
    explorer = collection_explorer(holding=["cars/Germany"])
    explorer.pick({"line": None})
    assert explorer.picked == []
    assert explorer.shown.rows() == explorer.frame.rows()
