"""Rules validation: every option from RULES.md section 1, bad values rejected clearly."""

from __future__ import annotations

import dataclasses

import pytest

from workbench.games.rubbish import Geek, Rules, load_geeks, load_items


def test_defaults_are_the_rulebook():
    rules = Rules()
    assert rules.players == 4
    assert rules.money_cards == (10, 5, 2, 2, 1)  # 1, 2, 2, 5, 10 thousand: total 20
    assert rules.money_total == 20
    assert rules.starting_fame == 30
    assert rules.destined_bonus == 30
    # "The First Bidder takes any number of money cards"; each next player chooses "one or more".
    assert rules.bid_minimum == "first_any_later_one"
    assert rules.bid_minimums == (0, 1)
    assert [rules.min_cards_at(position) for position in range(4)] == [0, 1, 1, 1]
    assert rules.overspend == "discard"
    assert rules.starting_auctioneer == 0
    assert rules.rounds == 7


def test_shipped_geek_table_destines_every_item_exactly_twice():
    rules = Rules()
    assert len(rules.geeks) == 7
    counts = [sum(item in geek.destined for geek in rules.geeks) for item in range(7)]
    assert counts == [2] * 7
    assert rules.geeks[0] == Geek("Ada", (0, 1))
    assert rules.geeks[6].destined == (6, 0)


def test_tables_load_from_data():
    assert len(load_items()) == 7
    assert load_geeks()[3].destined == (3, 4)


def test_variants_by_replace_are_validated_again():
    rules = Rules()
    assert dataclasses.replace(rules, players=2).players == 2
    with pytest.raises(ValueError, match="players must be 2–5"):
        dataclasses.replace(rules, players=6)


def test_money_cards_are_stored_high_to_low():
    assert Rules(money_cards=(1, 3, 3)).money_cards == (3, 3, 1)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 6}, r"players must be 2–5 .*got 6"),
        ({"players": 1}, r"players must be 2–5 .*got 1"),
        ({"players": 4.0}, r"players must be a whole number"),
        ({"money_cards": (1, 2, -2, 5, 10)}, r"money_cards must all be positive"),
        ({"money_cards": ()}, r"money_cards must be a non-empty tuple"),
        ({"money_cards": (1, 2.5)}, r"money_cards must be a non-empty tuple of positive whole"),
        ({"starting_fame": -1}, r"starting_fame must be >= 0, got -1"),
        ({"destined_bonus": -30}, r"destined_bonus must be >= 0"),
        (
            {"bid_minimum": "two"},
            r"bid_minimum must be one of \('first_any_later_one', 'any', 'one'\)",
        ),
        ({"bid_minimum": 1}, r"bid_minimum must be one of .*got 1"),
        ({"money_cards": (5,)}, r"bid_minimum 'first_any_later_one' needs at least 2 money cards"),
        ({"bid_minimum": "one", "money_cards": (5,)}, r"bid_minimum 'one' needs at least 2"),
        ({"overspend": "refund"}, r"overspend must be one of \('discard', 'keep'\)"),
        ({"starting_auctioneer": 4}, r"starting_auctioneer must be a seat 0–3 or 'random'"),
        ({"starting_auctioneer": "first"}, r"starting_auctioneer must be a seat"),
        ({"geeks": (("Zed", (0, 9)),) * 4}, r"geek 'Zed' names unknown item\(s\) \[9\]"),
        ({"geeks": (("Zed", ()),) * 4}, r"geek 'Zed' must name one or more distinct items"),
        ({"geeks": (("A", (0,)), ("B", (1,)))}, r"4 players need at least 4 geeks"),
        ({"items": ("pot", "pot")}, r"items must have distinct names; repeated: \['pot'\]"),
        ({"items": ()}, r"items must be a non-empty tuple"),
    ],
)
def test_bad_rules_are_rejected_with_the_field_and_what_is_allowed(changes, message):
    with pytest.raises(ValueError, match=message):
        Rules(**changes)


def test_one_money_card_is_playable_when_no_one_must_hold_one_out():
    rules = Rules(money_cards=(5,), bid_minimum="any")
    assert rules.bid_minimums == (0, 0)


def test_custom_tables_of_other_sizes():
    rules = Rules(items=("a", "b", "c"), geeks=(("x", (0,)), ("y", (1, 2))), players=2)
    assert rules.rounds == 3
    assert rules.destined_to(1) == (1, 2)


def test_unknown_table_name_lists_shipped_tables():
    with pytest.raises(ValueError, match=r"unknown table 'nope': shipped tables are \["):
        load_items("nope")
