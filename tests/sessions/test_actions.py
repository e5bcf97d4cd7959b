"""Legal actions read as controls: which kind, which values and bounds, for each shape the
contract allows."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest

from workbench.games import rubbish, shared_budget
from workbench.sessions import actions
from workbench.sessions.actions import analyse, match


def test_rubbish_auction_is_a_form_of_two_pickers():
    state = rubbish.new_game(seed=1)
    (group,) = analyse(state.legal_actions())
    assert (group.kind, group.label) == ("form", "Auction")
    item, first = group.fields
    assert (item.name, item.kind, item.values) == ("item", "choice", tuple(range(7)))
    assert (first.name, first.kind, first.values) == ("first_bidder", "choice", (0, 1, 2, 3))
    assert group.compose({"item": 3, "first_bidder": 2}) == rubbish.Auction(3, 2)


def test_rubbish_bid_is_a_toggle_per_card():
    state = rubbish.new_game(seed=1).apply(rubbish.Auction(0, 0))
    (group,) = analyse(state.legal_actions())
    (cards,) = group.fields
    # The rulebook's hand: one toggle per physical card, the two 2s apart.
    assert (cards.kind, cards.values) == ("multiset", (10, 5, 2, 2, 1))
    # Order of the toggles does not matter: the legal Bid is found.
    assert group.compose({"cards": (1, 2, 5)}) == rubbish.Bid((5, 2, 1))


def test_a_locked_card_gets_no_toggle():
    state = rubbish.new_game(seed=1).apply(rubbish.Auction(0, 0))
    for _ in range(4):  # all hold out the 10 alone: seat 0 wins, seat 3 is the cheapskate
        state = state.apply(rubbish.Bid((10,)))
    state = state.apply(rubbish.Auction(1, 0))  # seat 3 auctions; seat 0 bids first
    assert state.to_play == 0 and state.locked[0] == 10
    (group,) = analyse(state.legal_actions())
    assert group.fields[0].values == (5, 2, 2, 1)


def test_shared_budget_bid_is_one_bounded_number():
    state = shared_budget.new_game(seed=0)
    (group,) = analyse(state.legal_actions())
    assert (group.kind, group.low, group.high) == ("number", 0, 20)


def test_short_lists_are_buttons_and_gaps_a_dropdown():
    assert analyse(("pass", "buy"))[0].kind == "buttons"
    assert analyse((0, 2, 5))[0].kind == "buttons"
    assert analyse(tuple(range(0, 40, 2)))[0].kind == "choice"


class Move(NamedTuple):
    to: int
    word: str


def test_mixed_types_give_one_group_each_in_order_of_appearance():
    legal = ["pass", *[Move(t, w) for t in range(5) for w in ("a", "b")]]
    groups = analyse(legal)
    assert [(g.label, g.kind) for g in groups] == [("choice", "buttons"), ("Move", "form")]
    assert [f.kind for f in groups[1].fields] == ["choice", "choice"]


def test_fixed_length_tuples_are_positional_numbers():
    class Split(NamedTuple):
        cups: tuple[int, ...]

    legal = [Split((a, b, c)) for a in range(4) for b in range(3) for c in range(2)]
    (group,) = analyse(legal)
    (cups,) = group.fields
    assert (cups.kind, cups.bounds) == ("vector", ((0, 3), (0, 2), (0, 1)))
    assert group.compose({"cups": [1, 2, 0]}) == Split((1, 2, 0))


def test_a_value_of_the_wrong_shape_is_named_by_its_field():
    bid = analyse(rubbish.new_game(seed=1).apply(rubbish.Auction(0, 0)).legal_actions())[0]
    with pytest.raises(ValueError, match="Bid cards takes a sequence of whole numbers, got 5"):
        bid.compose({"cards": 5})  # a TypeError from sorted() before
    auction = analyse(rubbish.new_game(seed=1).legal_actions())[0]
    with pytest.raises(ValueError, match=r"Auction item takes one value, got \[3\]"):
        auction.compose({"item": [3], "first_bidder": 0})  # 'unhashable type' before


def test_many_int_values_become_a_bounded_number():
    class Offer(NamedTuple):
        amount: int
        lot: int

    legal = [Offer(a, lot) for a in range(0, 60, 3) for lot in (0, 1)]
    amount, lot = analyse(legal)[0].fields
    assert (amount.kind, amount.low, amount.high) == ("number", 0, 57)
    assert lot.kind == "choice"


def test_a_very_long_lazy_sequence_is_sampled_evenly(monkeypatch):
    monkeypatch.setattr(actions, "SCAN_LIMIT", 100)
    read, complete = actions.scan(range(1000))
    assert not complete and len(read) == 100 and read[0] == 0 and read[-1] == 999
    (group,) = analyse(range(1000))
    assert (group.kind, group.low, group.high, group.complete) == ("number", 0, 999, False)


def test_actions_outside_the_contract_are_refused():
    with pytest.raises(ValueError, match="whole number, a string or a NamedTuple"):
        analyse([1.5, 2.5])


MATCHES = {
    "equal": (rubbish.Bid((5, 2)), rubbish.Bid((5, 2))),
    "any order": (rubbish.Bid((2, 5)), rubbish.Bid((5, 2))),
    "numpy int": (np.int64(3), 3),
    "bool is not a number": (True, None),
    "float is not a number": (1.0, None),
    "not legal": (rubbish.Bid((10, 10)), None),
    "unhashable": ([5, 2], None),
}


@pytest.mark.parametrize("case", MATCHES.values(), ids=MATCHES.keys())
def test_match(case):
    given, expected = case
    legal = [0, 1, 2, 3, rubbish.Bid((5, 2)), rubbish.Bid((5,))]
    found = match(given, legal)
    assert found == expected and type(found) is type(expected)


def test_value_text_uses_the_games_wording_then_the_labeller():
    assert actions.value_text(rubbish.Bid((5, 2))) == "5+2 = 7"
    assert actions.value_text(Move(3, "a")) == "to 3, word a"
    assert actions.value_text(3, lambda g, f, v: f"seat {v}") == "seat 3"
    assert actions.value_text((1, 2)) == "1+2" and actions.value_text(()) == "nothing"
