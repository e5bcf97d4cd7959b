"""Rules: the rulebook's defaults and clear errors for every bad value."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from workbench.games.auction_house import Rules


def test_defaults_are_the_rulebook():
    rules = Rules()
    assert (rules.deals, rules.trump_reveal, rules.first_dealer) == (13, "after_kitty", "random")
    assert rules.players == 4 and rules.hand_size == 10 and rules.tricks == 9
    assert [rules.has_trump(d) for d in (1, 12, 13)] == [True, True, False]
    assert (
        dataclasses.replace(rules, trump_reveal="before_auction").trump_reveal == "before_auction"
    )


@pytest.mark.parametrize(
    "changes, message",
    [
        (dict(deals=0), "deals must be a whole number 1–13"),
        (dict(deals=14), "deals must be a whole number 1–13"),
        (dict(deals=True), "deals must be"),
        (dict(deals=5.0), "deals must be"),
        (dict(trump_reveal="never"), "trump_reveal must be one of"),
        (dict(first_dealer=4), "first_dealer must be a seat 0–3 or 'random'"),
        (dict(first_dealer="left"), "first_dealer must be"),
    ],
)
def test_bad_rules_name_the_field_and_what_is_allowed(changes, message):
    with pytest.raises(ValueError, match=message):
        Rules(**changes)
    with pytest.raises(ValueError, match=message):
        Rules().replace(**changes)


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().deals = 3


def test_rules_accept_numpy_integers_and_store_plain_ints():
    rules = Rules(deals=np.int64(5), first_dealer=np.int32(2))
    assert (rules.deals, rules.first_dealer) == (5, 2)
    assert type(rules.deals) is int and type(rules.first_dealer) is int
    for bad in ({"deals": True}, {"deals": 2.0}, {"first_dealer": np.float64(1)}):
        with pytest.raises(ValueError, match="must be"):
            Rules(**bad)
