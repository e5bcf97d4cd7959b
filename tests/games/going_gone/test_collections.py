"""The exact-value analyses a notebook charts: arrangements, lot values, sale values, the value
chart, arrivals and random holdings; items read in every accepted form, bad ones refused."""

from __future__ import annotations

import random

import polars as pl
import pytest

from workbench.games.going_gone import (
    Collection,
    Rules,
    arrival_path,
    best_collections,
    holding_value,
    lot_value,
    lot_values,
    parse_items,
    random_holding_values,
    sale_options,
    sale_value,
    value_table,
)
from workbench.games.going_gone.actions import line_collections

CARS = [("cars", country) for country in range(7)]
GERMAN = [(kind, "Germany") for kind in range(1, 6)]


def test_items_in_every_accepted_form():
    assert parse_items(
        [0, ("cars", "Canada"), (0, 2), "cars/Great Britain", ("CARS", "japan")]
    ) == (
        0,
        1,
        2,
        3,
        4,
    )
    assert parse_items([]) == ()


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([("boats", "Germany")], "unknown type 'boats'; types: cars, comics, cards, phonographs"),
        ([("cars", "Mars")], "unknown country 'Mars'; countries: Germany, Canada"),
        ([(7, 0)], r"type index 7 is out of range: 0–6"),
        ([49], r"item id 49 is out of range: ids are 0–48"),
        (["cars Germany"], "must be written 'type/country'"),
        ([0, "cars/Germany"], "item cars/Germany is listed twice"),
        ([(0, 1, 2)], r"an item is an id, a \(type, country\) pair or 'type/country'"),
        ([2.0], "an item is an id"),
        ([(True, 0)], "a type is a name or an index, got True"),
        ("cars/Germany", "items must be a sequence of items"),
    ],
)
def test_bad_items_name_the_problem(items, message):
    with pytest.raises(ValueError, match=message):
        parse_items(items)


def test_best_collections_of_the_hand_counted_holding():
    # all 7 cars and 5 more German items: 6 cars (38) + 6 German items (38) = 76
    arrangement = best_collections(CARS + GERMAN)
    assert arrangement.value == 76 == holding_value(CARS + GERMAN)
    assert arrangement.collections == (
        Collection("country", "Germany", (0, 7, 14, 21, 28, 35), 38),
        Collection("type", "cars", (1, 2, 3, 4, 5, 6), 38),
    )
    assert str(arrangement) == "worth 76: Germany x6 (38) + cars x6 (38)"
    frame = arrangement.frame()
    assert frame.height == 12 and frame["value"].unique().to_list() == [38]
    assert frame.filter(pl.col("item") == 0)["line"].item() == "Germany"
    assert str(best_collections([])) == "no items: worth 0"


def test_best_collections_split_a_line_when_the_table_pays_for_it():
    rules = Rules(collection_values=(2, 3, 5, 20, 21, 22, 23))  # a pair is worth less than 2
    arrangement = best_collections(["cars/Germany", "cars/Canada"], rules=rules)
    assert arrangement.value == 4
    assert [c.size for c in arrangement.collections] == [1, 1]


def test_lot_values_are_exact_marginals():
    holding = ["cars/Germany", "cars/Canada"]  # a pair of cars: 6
    frame = lot_values(holding, [["cars/China"], ["comics/Germany", "toys/Germany"]])
    assert frame.to_dicts() == [
        # three cars: 12
        {"lot": 1, "items": "cars/China", "lot_size": 1, "value_without": 6, "value_with": 12,
         "marginal": 6},
        # three German items (12) + cars/Canada (2) = 14 beats cars x2 + two singles (10)
        {"lot": 2, "items": "comics/Germany + toys/Germany", "lot_size": 2, "value_without": 6,
         "value_with": 14, "marginal": 8},
    ]  # fmt: skip
    assert lot_value(holding, ["cars/China"]).row(0, named=True)["marginal"] == 6
    with pytest.raises(ValueError, match="lot 1 holds cars/Germany, already in the holding"):
        lot_value(holding, ["cars/Germany"])
    with pytest.raises(ValueError, match="lot 2 is empty"):
        lot_values(holding, [["cars/China"], []])


def test_sale_values_trade_collection_value_for_bucks():
    holding = ["cars/Germany", "cars/Canada", "comics/Germany"]  # worth 8 (a pair + a single)
    row = sale_value(holding, ["cars/Germany"]).row(0, named=True)
    # selling cars/Germany pays 2 and leaves two singles (4): 4 lost, net -2
    assert row == {
        "collection": "cars/Germany", "kind": "type", "line": "cars", "size": 1, "bucks_now": 2,
        "value_before": 8, "value_after": 4, "value_lost": 4, "net": -2,
    }  # fmt: skip
    pair = sale_value(holding, ["cars/Germany", "comics/Germany"]).row(0, named=True)
    assert (pair["kind"], pair["line"], pair["bucks_now"], pair["net"]) == (
        "country",
        "Germany",
        6,
        0,
    )
    with pytest.raises(ValueError, match="share neither a type nor a country"):
        sale_value(holding, ["cars/Canada", "comics/Germany"])
    with pytest.raises(ValueError, match="are not held"):
        sale_value(holding, ["toys/Japan"])


def test_no_sale_ever_beats_holding():
    # the best arrangement can always keep the sold collection, so net <= 0 (seeded holdings)
    rng = random.Random(5)
    for _ in range(30):
        holding = rng.sample(range(49), rng.randint(1, 12))
        options = sale_options(holding)
        assert options.height == len(line_collections(Rules(), holding))
        assert options["net"].max() <= 0
        assert options["net"].to_list() == sorted(options["net"].to_list(), reverse=True)
        # some collection of a best arrangement always sells at net 0
        assert options["net"].max() == 0


def test_value_table():
    table = value_table()
    assert table["value"].to_list() == [2, 6, 12, 20, 30, 38, 44]
    assert table["marginal"].to_list() == [2, 4, 6, 8, 10, 8, 6]  # rises to 10, then falls
    assert table["best_value"].to_list() == [2, 6, 12, 20, 30, 38, 44]
    odd = value_table(Rules(collection_values=(2, 3, 5, 20, 21, 22, 23)))
    assert odd["best_value"].to_list() == [2, 4, 6, 20, 22, 24, 26]
    assert odd["best_split"].to_list()[:3] == ["1", "1 + 1", "1 + 1 + 1"]


def test_arrival_path_follows_the_best_arrangement():
    order = ["cars/Germany", "comics/Germany", "cars/Canada", "cars/China", "toys/Germany",
             "art/Germany"]  # fmt: skip
    path = arrival_path(order)
    values = path.select("step", "value").unique().sort("step")["value"].to_list()
    assert values == [2, 6, 8, 14, 18, 26]
    # cars/Germany must move three times: step 2, a German pair (6) beats two singles (4);
    # step 4, three cars (12) + comics/Germany (2) beat the pair + two cars (6 + 6); step 6,
    # four German items (20) + two cars (6) beat three of each (12 + 12). At step 3 both
    # arrangements are worth 8 and nothing moves.
    moves = path.filter(pl.col("moved")).select("step", "name").rows()
    assert moves == [(2, "cars/Germany"), (4, "cars/Germany"), (6, "cars/Germany")]
    # at the end: four German items (20) and the two other cars (6) = 26
    final = path.filter(pl.col("step") == 6)
    assert final.filter(pl.col("line") == "Germany").height == 4
    assert final.filter(pl.col("line") == "cars").height == 2
    with pytest.raises(ValueError, match="listed twice"):
        arrival_path(["cars/Germany", 0])


def test_random_holding_values_are_a_seeded_estimate():
    frame = random_holding_values([0, 1, 5, 12], samples=200, seed=4)
    again = random_holding_values([0, 1, 5, 12], samples=200, seed=4)
    assert frame.equals(again)
    assert frame["n"].to_list() == [200] * 4
    assert frame.row(0, named=True)["mean"] == 0 and frame.row(1, named=True)["mean"] == 2
    assert (frame["low"] <= frame["mean"]).all() and (frame["mean"] <= frame["high"]).all()
    assert frame.row(1, named=True)["greedy_short_share"] == 0
    with pytest.raises(ValueError, match="samples must be a whole number >= 2"):
        random_holding_values([1], samples=1, seed=1)
    with pytest.raises(ValueError, match="sizes must be whole numbers 0–49"):
        random_holding_values([50], samples=10, seed=1)
