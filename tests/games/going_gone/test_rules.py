"""Rules: the rulebook's defaults, the shipped item table, every option validated clearly."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from workbench.games.going_gone import Item, Rules, load_items, new_game

TYPES = ("cars", "comics", "cards", "phonographs", "toys", "art", "games")
COUNTRIES = ("Germany", "Canada", "China", "Great Britain", "Japan", "United States", "Italy")


def test_defaults_are_the_rulebook():
    rules = Rules()
    assert rules.players == 4
    assert rules.starting_bucks == 25
    assert rules.rounds == 7
    assert rules.lot_sizes == (1, 2, 1, 2, 1)  # "alternating lots of one and two cards"
    assert rules.cups == 5
    assert rules.items_per_round == 7
    assert rules.cube_limit == 40  # 40 cubes of each colour
    assert rules.collection_values == (2, 6, 12, 20, 30, 38, 44)  # the rulebook's chart
    assert rules.open_collections is False
    assert rules.first_auctioneer == 0


def test_item_table_is_every_type_country_pair_once():
    rules = Rules()
    assert rules.types == TYPES
    assert rules.countries == COUNTRIES
    assert len(rules.items) == 49
    assert set(rules.items) == {Item(t, c) for t in TYPES for c in COUNTRIES}
    assert rules.items[0] == Item("cars", "Germany")
    assert rules.item_name(48) == "games/Italy"
    assert rules.item_at[(2, 3)] == 17 and rules.items[17] == Item("cards", "Great Britain")
    assert len(load_items()) == 49
    assert rules.largest_collection == 7
    # 7 rounds x 7 cards deal the whole deck
    assert rules.rounds * rules.items_per_round == len(rules.items)


def test_an_item_table_without_a_column_names_the_column(tmp_path):
    path = tmp_path / "items.csv"
    path.write_text("id,type\n0,cars\n")
    with pytest.raises(ValueError, match=r"items.csv lacks the column\(s\) \['country'\]"):
        load_items(str(path))
    path.write_text("id,type,country\n1,cars,Japan\nzero,toys,Italy\n")
    with pytest.raises(ValueError, match="id must be a whole number, got 'zero'"):
        load_items(str(path))


def test_best_line_values_equal_the_table_when_splitting_never_pays():
    rules = Rules()
    assert rules.best_line_values == (0, 2, 6, 12, 20, 30, 38, 44)
    assert rules.best_line_splits[7] == (7,)
    assert rules.sale_value(3) == 12


def test_best_line_values_split_when_the_table_makes_it_pay():
    # a pair is worth 3 < two singles (4); three singles (6) beat a 3 (5); 4 + 1 + 1 + 1 items
    # (20 + 6) beat one 7 (23)
    rules = Rules(collection_values=(2, 3, 5, 20, 21, 22, 23))
    assert rules.best_line_values == (0, 2, 4, 6, 20, 22, 24, 26)
    assert rules.best_line_splits[2] == (1, 1)
    assert rules.best_line_splits[3] == (1, 1, 1)
    assert rules.best_line_splits[7] == (4, 1, 1, 1)
    # on a tie one collection is preferred: 4 items as one (8) or as 2 + 2 (4 + 4)
    assert Rules(collection_values=(1, 4, 5, 8, 9, 10, 11)).best_line_splits[4] == (4,)


def test_variants_are_validated_again_and_numpy_integers_are_stored_as_int():
    rules = dataclasses.replace(Rules(), players=np.int64(6), cube_limit=np.int32(12))
    assert rules.players == 6 and type(rules.players) is int
    assert rules.cube_limit == 12 and type(rules.cube_limit) is int
    assert Rules(cube_limit=None).cube_limit is None
    assert Rules(first_auctioneer="random").first_auctioneer == "random"
    assert Rules(lot_sizes=[2, 2]).lot_sizes == (2, 2)
    assert rules.replace(players=2).players == 2


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 1}, r"players must be 2–6 \(the box has 6 colours\), got 1"),
        ({"players": 7}, "players must be 2–6"),
        ({"players": 4.0}, "players must be a whole number 2–6, got 4.0"),
        ({"players": True}, "players must be a whole number"),
        ({"starting_bucks": -1}, "starting_bucks must be >= 0, got -1"),
        ({"rounds": 0}, "rounds must be >= 1"),
        ({"rounds": 8}, r"rounds x sum\(lot_sizes\) = 8 x 7 = 56 cards, but the deck has 49"),
        ({"lot_sizes": ()}, "lot_sizes must be a non-empty tuple of whole numbers >= 1"),
        ({"lot_sizes": (1, 0)}, "lot_sizes must be a non-empty tuple"),
        ({"lot_sizes": (1,) * 9}, "lot_sizes must give 1–8 lots"),
        ({"cube_limit": 0}, r"cube_limit must be >= 1, got 0"),
        ({"cube_limit": 2.5}, r"cube_limit must be a whole number >= 1 or None \(no limit\)"),
        ({"collection_values": (2, 6, 12)}, "a value for every size from 1 to 7"),
        ({"collection_values": (2, -6, 12, 20, 30, 38, 44)}, "whole numbers >= 0"),
        ({"open_collections": 1}, "open_collections must be True or False, got 1"),
        ({"first_auctioneer": 4}, "first_auctioneer must be a seat 0–3 or 'random', got 4"),
        ({"first_auctioneer": "youngest"}, "first_auctioneer must be a seat"),
        ({"items": ()}, "items must list at least one"),
        ({"items": (("cars", "Germany"), ("cars", "Germany"))}, r"repeated: \['cars/Germany'\]"),
        ({"items": (("cars",),)}, "each item must be a .type, country. pair of names"),
    ],
)
def test_bad_rules_say_what_is_allowed(changes, message):
    with pytest.raises(ValueError, match=message):
        Rules(**changes)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        # was: len(legal_actions()) an OverflowError; the compiled loop's bids wrapped in 16 bits
        ({"starting_bucks": 40_000, "cube_limit": None}, "a seat can bid up to 40,310 Bucks"),
        # was: the compiled random agent's allocation count wrapped in 64 bits: it bid nothing
        ({"starting_bucks": 700, "cube_limit": None, "rounds": 6, "lot_sizes": (1,) * 8},
         "at most 676 Bucks over 8 cups"),
        # was: a round's sale Bucks wrapped in the compiled loop's 16 bits
        ({"collection_values": (20_000,) * 7}, "can pay 980,000 Bucks for sales"),
        ({"starting_bucks": 3_000_000_000}, "reach a score of 3,000,000,310"),
    ],
)  # fmt: skip
def test_rules_whose_bids_or_scores_the_engines_cannot_count_are_refused(changes, message):
    with pytest.raises(ValueError, match=message):
        Rules(**changes)


def test_big_budgets_within_what_the_engines_count_are_kept():
    rich = Rules(starting_bucks=11_000, cube_limit=None)  # 11,310 Bucks at most: 5 cups count it
    state = new_game(rich, seed=0)
    assert len(state.legal_actions()) == math.comb(11_000 + 5, 5)
    assert Rules(starting_bucks=1_000_000).cube_limit == 40  # the 40 cubes bound every bid
    assert Rules(cube_limit=None, lot_sizes=(1,) * 8, rounds=6).cube_limit is None


def test_a_designer_table_of_other_types_and_countries():
    items = tuple(Item(t, c) for t in ("a", "b", "c") for c in ("x", "y"))
    rules = Rules(items=items, rounds=2, lot_sizes=(1, 2), collection_values=(1, 4, 9))
    assert rules.types == ("a", "b", "c") and rules.countries == ("x", "y")
    assert rules.largest_collection == 3  # a country line holds three items
    with pytest.raises(ValueError, match="at most 8 types"):
        Rules(items=tuple(Item(f"t{i}", "x") for i in range(9)), rounds=1, lot_sizes=(1,))


def test_numpy_bools_are_taken_as_plain_bools():
    """A flag read from an array (numpy's bool) is the same rule as the Python bool."""
    rules = Rules(open_collections=np.bool_(not Rules().open_collections))
    assert rules.open_collections is (not Rules().open_collections)
    assert rules == Rules(open_collections=not Rules().open_collections)
