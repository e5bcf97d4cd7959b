"""Rules validation: every option in docs/rules.md, bad values rejected clearly."""

from __future__ import annotations

import dataclasses

import numpy as np
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


BAD_TABLES = {
    "an id that is not a number": (
        load_items,
        "id,name\n0,teapot\nx,skate\n",
        "id must be a whole number, got 'x'",
    ),
    "no name column": (load_items, "id,title\n0,teapot\n", r"lacks the column\(s\) \['name'\]"),
    "another game's table": (load_items, "id,type,country\n0,cars,Japan\n", "lacks the column"),
    "a row with a value too many": (
        load_items,
        "# items\nid,name\n0,teapot\n1,skate,spare\n",
        r"line 4: 3 values for the 2 columns \['id', 'name'\]",
    ),
    "ids from 1": (
        load_items,
        "id,name\n1,teapot\n2,skate\n",
        r"ids must number the 2 cards 0 to 1.*\[1, 2\]",
    ),
    "a repeated id": (load_items, "id,name\n0,teapot\n0,skate\n", "each once"),
    "a geek's item that is not a number": (
        load_geeks,
        "id,name,item_a,item_b\n0,Ada,zero,1\n",
        "item_a must be a whole number",
    ),
    "not UTF-8 text": (load_items, "id,name\n0,caf\xe9\n".encode("latin-1"), "not UTF-8 text"),
}


@pytest.mark.parametrize("case", BAD_TABLES.values(), ids=BAD_TABLES.keys())
def test_a_bad_card_table_names_itself_and_the_problem(tmp_path, case):
    load, content, message = case
    path = tmp_path / "cards.csv"
    if isinstance(content, str):
        path.write_text(content)
    else:
        path.write_bytes(content)
    with pytest.raises(ValueError, match=message) as raised:
        load(str(path))
    assert str(path) in str(raised.value)


def test_a_table_a_spreadsheet_saved_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "items.csv"
    path.write_text("\ufeffid,name\n1,skate\n0,teapot\n", encoding="utf-8")
    assert load_items(str(path)) == ("teapot", "skate")


def test_a_missing_csv_file_is_named_as_missing(tmp_path):
    with pytest.raises(ValueError, match=r"no card table at .*: there is no such file"):
        load_items(str(tmp_path / "missing.csv"))


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
        ({"players": 4.0}, r"players must be 2–5 .*got 4.0 \(float\)"),
        ({"players": True}, r"players must be 2–5 .*got True \(bool\)"),
        ({"players": "4"}, r"players must be 2–5 .*got '4' \(str\)"),
        ({"money_cards": (1, 2, -2, 5, 10)}, r"money_cards must all be positive"),
        ({"money_cards": ()}, r"money_cards must be 1–12 positive whole numbers"),
        ({"money_cards": (1, 2.5)}, r"money_cards must be 1–12 positive whole numbers"),
        ({"money_cards": (1, True)}, r"money_cards must be 1–12 positive whole numbers"),
        ({"money_cards": 20}, r"money_cards must be 1–12 positive whole numbers .*got 20"),
        ({"money_cards": (1,) * 13}, r"money_cards must be 1–12 positive whole numbers"),
        ({"starting_fame": -1}, r"starting_fame must be a whole number >= 0, got -1"),
        ({"starting_fame": 30.0}, r"starting_fame must be a whole number >= 0, got 30.0"),
        ({"destined_bonus": -30}, r"destined_bonus must be a whole number >= 0"),
        ({"destined_bonus": 5000}, r"can reach a score of 35170 .* beyond the 32,767"),
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
        ({"starting_auctioneer": 1.0}, r"starting_auctioneer must be a seat 0–3 .*got 1.0"),
        ({"starting_auctioneer": True}, r"starting_auctioneer must be a seat 0–3 .*got True"),
        ({"geeks": (("Zed", (0, 9)),) * 4}, r"geek 'Zed' names unknown item\(s\) \[9\]"),
        ({"geeks": (("Zed", ()),) * 4}, r"geek 'Zed' must name one or more distinct items"),
        ({"geeks": (("A", (0,)), ("B", (1,)))}, r"4 players need 4–127 geeks to deal, got 2"),
        ({"geeks": (("Zed", (0, 1)),) * 4}, r"geeks must have distinct names; repeated: \['Zed'\]"),
        ({"geeks": (("Zed", (0, True)),) * 4}, r"geek 'Zed' names unknown item\(s\) \[True\]"),
        ({"geeks": (("", (0,)),) * 4}, r"each geek's name must be a non-empty string"),
        ({"geeks": 7}, r"geeks must be a sequence of \(name, destined item ids\) pairs"),
        ({"items": ("pot", "pot")}, r"items must have distinct names; repeated: \['pot'\]"),
        ({"items": ()}, r"items must be 1–127 non-empty item names"),
        ({"items": "pot"}, r"items must be a sequence of item names"),
    ],
)
def test_bad_rules_are_rejected_with_the_field_and_what_is_allowed(changes, message):
    with pytest.raises(ValueError, match=message):
        Rules(**changes)


def test_numpy_integers_are_accepted_and_stored_as_plain_ints():
    rules = Rules(
        players=np.int64(3),
        money_cards=np.array([1, 2, 2, 5, 10]),
        starting_fame=np.int32(20),
        destined_bonus=np.uint8(25),
        starting_auctioneer=np.int8(2),
        geeks=[(f"g{i}", np.array([i, (i + 1) % 7])) for i in range(7)],
    )
    assert rules == Rules(
        players=3,
        money_cards=(10, 5, 2, 2, 1),
        starting_fame=20,
        destined_bonus=25,
        starting_auctioneer=2,
        geeks=[(f"g{i}", (i, (i + 1) % 7)) for i in range(7)],
    )
    values = [rules.players, *rules.money_cards, rules.starting_fame, rules.destined_bonus]
    values += [rules.starting_auctioneer, *rules.geeks[0].destined]
    assert all(type(value) is int for value in values)


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
