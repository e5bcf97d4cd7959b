"""Rules of the shared budget auction: defaults = the rulebook, validation, the pure rule
functions (tie priority, award, standings), card tables."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from workbench.games.shared_budget import (
    FUNCTIONS,
    Project,
    Rules,
    award,
    priority_order,
    standings,
)

# The rulebook's order of the six cards with docs/rules.md's default functions.
RULEBOOK_CARDS = [
    ("Quiet corner", ("rest",)),
    ("Welcome desk", ("welcome",)),
    ("Discovery table", ("explore",)),
    ("Music nook", ("welcome", "rest")),
    ("Make together station", ("explore",)),
    ("Neighborhood map", ("welcome", "explore")),
]


def test_defaults_are_the_rulebook():
    rules = Rules()
    assert rules.teams == 2
    assert rules.budget == 20
    assert rules.functions == FUNCTIONS == ("welcome", "rest", "explore")
    assert [(p.name, p.functions) for p in rules.projects] == RULEBOOK_CARDS
    assert rules.rounds == 6
    assert rules.tie_priority == "rotating"
    assert rules.final_tiebreak == "budget"
    assert rules.variant == "auction"
    assert rules.strict_bids is False
    # the shipped classroom prices (data/shared_budget_projects.csv)
    assert [p.price for p in rules.projects] == [5, 6, 6, 9, 7, 10]


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("teams", 1, "from 2 to 4"),
        ("teams", 5, "from 2 to 4"),
        ("teams", 2.0, "from 2 to 4"),
        ("budget", 0, "from 1 to 1000"),
        ("budget", True, "from 1 to 1000"),
        ("tie_priority", "random", "one of"),
        ("first_priority", 2, "from 0 to 1"),
        ("final_tiebreak", "coin", "one of"),
        ("variant", "lottery", "one of"),
        ("strict_bids", "yes", "True or False"),
        ("functions", ("rest", "rest"), "distinct"),
        ("functions", ("rest", " rest"), "distinct names (surrounding spaces do not count)"),
        ("teams", "2", "from 2 to 4"),
        ("first_priority", np.float64(1.0), "from 0 to 1"),
        ("functions", "rest", "sequence"),
        ("card_table", "no_such_table", "unknown table"),
    ],
)
def test_invalid_values_name_field_value_and_allowed(field, value, allowed):
    with pytest.raises(ValueError) as error:
        Rules(**{field: value})
    message = str(error.value)
    assert allowed in message
    if field != "card_table":
        assert field in message and repr(value) in message


def test_numpy_integers_are_accepted_and_stored_as_plain_ints():
    rules = Rules(
        teams=np.int64(3),
        budget=np.int32(25),
        first_priority=np.uint8(2),
        cards=[("Bench", "rest", np.int64(4))],
    )
    assert rules == Rules(teams=3, budget=25, first_priority=2, cards=[("Bench", "rest", 4)])
    values = (rules.teams, rules.budget, rules.first_priority, rules.projects[0].price)
    assert all(type(value) is int for value in values)


@pytest.mark.parametrize(
    ("changes", "ignored"),
    [
        ({"teams": 3}, "teams=3"),
        ({"tie_priority": "fixed"}, "tie_priority='fixed'"),
        ({"first_priority": 1}, "first_priority=1"),
        ({"final_tiebreak": "shared", "teams": 4}, "teams=4, final_tiebreak='shared'"),
    ],
)
def test_the_classroom_variant_refuses_settings_it_would_ignore(changes, ignored):
    with pytest.raises(ValueError, match=rf"variant='classroom' is one group .*{ignored}"):
        Rules(variant="classroom", **changes)
    with pytest.raises(ValueError, match="or use variant='auction'"):
        dataclasses.replace(Rules(**changes), variant="classroom")


def test_replace_makes_variants_and_revalidates():
    rules = dataclasses.replace(Rules(), teams=4, budget=30)
    assert (rules.teams, rules.budget) == (4, 30)
    with pytest.raises(ValueError, match="first_priority"):
        dataclasses.replace(Rules(teams=3, first_priority=2), teams=2)


def test_explicit_cards_as_pairs_triples_and_lists():
    rules = Rules(cards=[("Bench", "rest"), ("Kiosk", ["explore", "welcome"], 4)])
    assert rules.projects == (
        Project("Bench", ("rest",), None),
        Project("Kiosk", ("welcome", "explore"), 4),
    )
    assert rules.card_masks() == (0b010, 0b101)
    # replace keeps the (normalised) explicit cards
    assert dataclasses.replace(rules, budget=5).projects == rules.projects


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([("Bench", "sleep")], "unknown functions"),
        ([("Bench", "rest"), ("Bench", "welcome")], "distinct"),
        ([], "1 to 20 cards"),
        (["Bench"], r"\(name, functions\)"),
        ([("", "rest")], "non-empty"),
        ([("Bench", "rest", -1)], "price"),
    ],
)
def test_bad_explicit_cards(cards, message):
    with pytest.raises(ValueError, match=message):
        Rules(cards=cards)


def test_classroom_variant_needs_prices():
    assert Rules(variant="classroom").players == 1
    with pytest.raises(ValueError, match="price"):
        Rules(variant="classroom", cards=[("Bench", "rest")])


def test_card_table_from_a_csv_path(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text(
        "# a comment line\norder,name,functions,price\n2,Second,welcome,3\n1,First,rest+explore,\n"
    )
    rules = Rules(card_table=str(path))
    assert [(p.name, p.functions, p.price) for p in rules.projects] == [
        ("First", ("rest", "explore"), None),
        ("Second", ("welcome",), 3),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("name,functions\nA,rest\n", "columns"),
        ("order,name,functions\n1,A,rest\n1,B,rest\n", "must not repeat"),
        ("order,name,functions\nx,A,rest\n", "whole numbers"),
    ],
)
def test_bad_card_tables(tmp_path, content, message):
    path = tmp_path / "cards.csv"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        Rules(card_table=str(path))


# (teams, tie_priority, first_priority, round_index, expected order): docs/rules.md —
# round r (1-based) starts at team (r - 1) mod n and runs in team order.
PRIORITY_CASES = [
    (2, "rotating", 0, 0, (0, 1)),
    (2, "rotating", 0, 1, (1, 0)),
    (2, "rotating", 0, 2, (0, 1)),
    (3, "rotating", 0, 0, (0, 1, 2)),
    (3, "rotating", 0, 1, (1, 2, 0)),
    (3, "rotating", 0, 2, (2, 0, 1)),
    (3, "rotating", 0, 3, (0, 1, 2)),  # "returning to A afterward"
    (4, "rotating", 0, 5, (1, 2, 3, 0)),
    (2, "rotating", 1, 0, (1, 0)),
    (3, "fixed", 1, 4, (1, 2, 0)),
]


@pytest.mark.parametrize(("teams", "kind", "first", "round_index", "order"), PRIORITY_CASES)
def test_priority_order(teams, kind, first, round_index, order):
    rules = Rules(teams=teams, tie_priority=kind, first_priority=first)
    assert priority_order(rules, round_index) == order
    assert rules.priority_order(round_index) == order


# (bids, priority, winner)
AWARD_CASES = [
    ((6, 4), (0, 1), 0),  # the rulebook's example: A 6, B 4 -> A
    ((6, 6), (0, 1), 0),  # equal bids: earliest in this round's priority
    ((6, 6), (1, 0), 1),
    ((0, 0), (0, 1), None),  # all zero: the card stays unallocated
    ((0, 1), (0, 1), 1),  # a single positive bid wins
    ((3, 5, 5), (2, 0, 1), 2),
    ((3, 5, 5, 1), (0, 1, 2, 3), 1),
    ((0, 0, 0, 0), (3, 0, 1, 2), None),
]


@pytest.mark.parametrize(("bids", "priority", "winner"), AWARD_CASES)
def test_award(bids, priority, winner):
    assert award(bids, priority) == winner


# (scores, budgets, tiebreak, ranks, winners, shares)
STANDINGS_CASES = [
    ((3, 2), (0, 20), "budget", (1, 2), (0,), (1.0, 0.0)),
    ((2, 2), (5, 8), "budget", (2, 1), (1,), (0.0, 1.0)),  # larger remaining budget
    ((2, 2), (5, 5), "budget", (1, 1), (0, 1), (0.5, 0.5)),  # still tied: shared
    ((2, 2), (5, 8), "shared", (1, 1), (0, 1), (0.5, 0.5)),
    ((1, 3, 3), (9, 2, 2), "budget", (3, 1, 1), (1, 2), (0.0, 0.5, 0.5)),
    ((3, 3, 3, 0), (1, 1, 1, 20), "budget", (1, 1, 1, 4), (0, 1, 2), (1 / 3, 1 / 3, 1 / 3, 0.0)),
    ((2, 2, 1, 1), (4, 6, 9, 9), "budget", (2, 1, 3, 3), (1,), (0.0, 1.0, 0.0, 0.0)),
]


@pytest.mark.parametrize(
    ("scores", "budgets", "tiebreak", "ranks", "winners", "shares"), STANDINGS_CASES
)
def test_standings(scores, budgets, tiebreak, ranks, winners, shares):
    assert standings(scores, budgets, tiebreak) == (ranks, winners, shares)


def test_numpy_bools_are_taken_as_plain_bools():
    """A flag read from an array (numpy's bool) is the same rule as the Python bool."""
    assert Rules(strict_bids=np.True_).strict_bids is True
    assert Rules(strict_bids=np.False_) == Rules(strict_bids=False)
