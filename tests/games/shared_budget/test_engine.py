"""The step-by-step engine: the rulebook's worked example, sealed bids, passes, the log,
results, the classroom variant and invariants over random play."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import IllegalAction
from workbench.games.shared_budget import Rules, new_game


def discovery_table_position(rules: Rules | None = None):
    """The rulebook's example position: A has 14 and B 16 when Discovery table (round 3) is
    offered. A buys Quiet corner for 6, B buys Welcome desk for 4."""
    state = new_game(rules, seed=0).apply(6).apply(0).apply(0).apply(4)
    assert state.card.name == "Discovery table"
    assert state.budgets == (14, 16)
    return state


def test_rulebook_example_a_bids_six_b_bids_four():
    # "A bids six and B bids four. A receives the card, now has eight credits, and B still
    # has sixteen."
    after = discovery_table_position().apply(6).apply(4)
    assert after.budgets == (8, 16)
    assert after.history[-1].winner == 0
    assert after.history[-1].price == 6
    assert "Discovery table" in [after.rules.projects[i].name for i in after.holdings[0]]


def test_rulebook_example_equal_bids_use_the_rounds_priority():
    # "If both had bid six, use the published priority for that round": round 3 starts at
    # team (3 - 1) mod 2 = A.
    after = discovery_table_position().apply(6).apply(6)
    assert after.history[-1].priority == (0, 1)
    assert after.history[-1].winner == 0
    assert after.budgets == (8, 16)
    assert any("earlier in this round's priority" in line for line in after.log)
    # with B first in round 1 the rotation gives B round 3's priority, and B pays its 6
    b_first = discovery_table_position(Rules(first_priority=1)).apply(6).apply(6)
    assert b_first.history[-1].winner == 1
    assert b_first.budgets == (14, 10)


def test_apply_returns_a_new_state_and_leaves_the_old_one():
    start = new_game(seed=3)
    after = start.apply(5)
    assert start.to_play == 0 and start.sealed == (None, None) and start.budgets == (20, 20)
    assert after.to_play == 1


def test_sealed_bid_is_hidden_from_the_other_team():
    start = new_game(seed=0)
    seen_by_b = {bid: start.apply(bid).observation(1) for bid in (0, 7, 20)}
    assert len(set(seen_by_b.values())) == 1  # B's view is the same whatever A wrote
    view = seen_by_b[7]
    assert view.has_bid == (True, False) and view.my_bid is None
    assert start.apply(7).observation(0).my_bid == 7


def test_all_zero_bids_leave_the_card_unallocated():
    after = new_game(seed=0).apply(0).apply(0)
    assert after.history[-1].winner is None
    assert after.budgets == (20, 20) and after.holdings == ((), ())
    assert "stays unallocated" in after.log[-2]


# (written bid, reason it is a pass): the rulebook reads these as passes. A bid is an int or
# the text on the slip; text counts only as digits 0-9 with an optional minus sign.
INVALID_BIDS = [
    (21, "over the remaining budget 20"),
    (np.int64(21), "over the remaining budget 20"),
    (-3, "negative"),
    (" -2 ", "negative"),
    ("9" * 40, "over the remaining budget 20"),
    ("-" + "9" * 40, "negative"),
    ("six", "unreadable"),
    ("+7", "unreadable"),
    ("\u0665", "unreadable"),  # ARABIC-INDIC DIGIT FIVE: not a digit 0-9
    ("7.5", "unreadable"),
    ("", "unreadable"),
]


@pytest.mark.parametrize(("written", "reason"), INVALID_BIDS)
def test_invalid_bid_is_a_pass_recorded_in_the_log(written, reason):
    after = new_game(seed=0).apply(written).apply(3)
    record = after.history[-1]
    assert record.bids == (0, 3) and record.winner == 1
    assert reason in record.invalid[0]
    assert any(reason in line and "read as a pass" in line for line in after.log)


@pytest.mark.parametrize(("written", "reason"), INVALID_BIDS)
def test_strict_bids_raise_illegal_action_and_leave_the_state(written, reason):
    start = new_game(Rules(strict_bids=True), seed=0)
    with pytest.raises(IllegalAction) as error:
        start.apply(written)
    shown = repr(written) if isinstance(written, str) else str(int(written))
    assert reason in str(error.value) and shown[:30] in str(error.value)
    assert error.value.legal == tuple(range(21))
    assert start.sealed == (None, None)


# Values that are no bid at all (not an int, not the slip's text): a TypeError in either mode,
# never a silent pass.
NOT_BIDS = [None, 2.5, 5.0, np.float64(5.0), True, False, np.bool_(True), (6, 4), [6], b"6"]


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("value", NOT_BIDS, ids=repr)
def test_values_that_are_no_bid_are_type_errors_and_leave_the_state(value, strict):
    start = new_game(Rules(strict_bids=strict), seed=0)
    with pytest.raises(TypeError, match=r"a bid must be a whole number \(int\) or the text"):
        start.apply(value)
    assert start.sealed == (None, None) and start.log == new_game(seed=0).log


def test_whole_number_strings_and_numpy_ints_are_readable():
    after = new_game(seed=0).apply(" 6 ").apply(np.int64(4))
    assert after.history[-1].bids == (6, 4)
    assert after.history[-1].written == ("' 6 '", "4")


def test_over_budget_is_checked_against_the_remaining_budget():
    state = discovery_table_position()  # A has 14
    after = state.apply(15).apply(0)
    assert after.history[-1].invalid[0] == "over the remaining budget 14"
    with pytest.raises(IllegalAction, match="over the remaining budget 14"):
        dataclasses.replace(state, rules=Rules(strict_bids=True)).apply(15)


def play(state, bids):
    for bid in bids:
        state = state.apply(bid)
    return state


def test_full_game_result_and_log():
    # A: Quiet corner 6, Discovery table 3; B: Welcome desk 1, Music nook 11, Make together 3;
    # A: Neighborhood map 6 -> both cover all three functions with 5 left: a shared result.
    bids = [6, 6, 1, 1, 3, 3, 11, 11, 2, 3, 6, 5]
    end = play(new_game(seed=0), bids)
    assert end.is_over and end.to_play is None and end.legal_actions() == ()
    result = end.result()
    assert result.scores == (3, 3)
    assert result.budgets == (5, 5)
    assert result.ranks == (1, 1) and result.winners == (0, 1) and result.shares == (0.5, 0.5)
    assert result.cards[0] == ("Quiet corner", "Discovery table", "Neighborhood map")
    assert end.log[-1].startswith("final:") and "shared result" in end.log[-1]
    with pytest.raises(IllegalAction, match="the game is over"):
        end.apply(0)


def test_budget_breaks_equal_scores():
    # A buys Music nook (welcome+rest) for 5; B buys Quiet corner 1, Welcome desk 1:
    # scores 2-2, budgets 15-18 -> B wins on remaining budget.
    bids = [0, 1, 0, 1, 0, 0, 5, 0, 0, 0, 0, 0]
    result = play(new_game(seed=0), bids).result()
    assert result.scores == (2, 2) and result.budgets == (15, 18)
    assert result.winners == (1,) and result.ranks == (2, 1)


def test_result_before_the_end_is_an_error():
    with pytest.raises(ValueError, match="not over"):
        new_game(seed=0).result()


def test_observation_and_log_reject_bad_players():
    state = new_game(seed=0)
    for call in (state.observation, state.log_for):
        with pytest.raises(ValueError, match="player must be a seat 0–1"):
            call(2)
        with pytest.raises(TypeError, match=r"player must be a seat 0–1.*got 'A' \(str\)"):
            call("A")
        with pytest.raises(TypeError, match=r"player must be a seat 0–1.*got True \(bool\)"):
            call(True)
        with pytest.raises(TypeError, match=r"player must be a seat 0–1.*got 1.0 \(float\)"):
            call(1.0)
    assert state.observation(np.int64(1)).player == 1
    assert state.log_for(np.int8(1)) == state.log_for(None)


def test_new_game_checks_its_arguments():
    with pytest.raises(TypeError):
        new_game(seed="x")
    with pytest.raises(ValueError):
        new_game(seed=-1)
    with pytest.raises(TypeError, match="Rules"):
        new_game(object(), seed=0)


def test_same_rules_and_seed_give_the_same_game():
    assert new_game(seed=5) == new_game(seed=5)
    assert play(new_game(seed=5), [3, 4] * 6).log == play(new_game(seed=5), [3, 4] * 6).log


def test_four_teams_rotate_priority_and_all_tie():
    state = new_game(Rules(teams=4), seed=0)
    for round_index in range(6):
        state = play(state, [2, 2, 2, 2])
        assert state.history[-1].winner == round_index % 4  # all tie: priority decides
    assert state.budgets == (16, 16, 18, 18)


def test_classroom_variant_buys_at_fixed_prices():
    state = new_game(Rules(variant="classroom"), seed=0)
    assert state.legal_actions() == ("pass", "buy")
    end = play(state, ["buy", "pass", "pass", "pass", "pass", "buy"])
    result = end.result()
    assert end.budgets == (5,)  # 20 - 5 (Quiet corner) - 10 (Neighborhood map)
    assert result.scores == (3,) and result.winners == (0,) and result.shares == (1.0,)
    broke = play(state, ["buy", "buy", "pass", "buy"])  # 5 + 6 + 9 = 20 spent
    assert broke.budgets == (0,)
    with pytest.raises(IllegalAction, match="costs 7 and the group has 0"):
        broke.apply("buy")
    with pytest.raises(IllegalAction, match="'buy' or 'pass'"):
        state.apply(5)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    teams=st.integers(2, 4),
    budget=st.integers(1, 12),
    choices=st.lists(st.floats(0, 1), min_size=24, max_size=24),
)
def test_random_play_keeps_the_ledger(teams, budget, choices):
    state = new_game(Rules(teams=teams, budget=budget), seed=0)
    draws = iter(choices)
    while not state.is_over:
        legal = state.legal_actions()
        before = state
        state = state.apply(legal[int(next(draws, 0.5) * (len(legal) - 1))])
        if state.round_index != before.round_index:
            record = state.history[-1]
            assert min(state.budgets) >= 0  # budgets never negative
            for seat in range(teams):
                paid = record.budgets_before[seat] - record.budgets_after[seat]
                # the winner pays exactly its bid; nobody else pays
                assert paid == (record.bids[seat] if record.winner == seat else 0)
            if record.winner is not None:
                assert record.bids[record.winner] == max(record.bids) > 0
    result = state.result()
    spent = sum(record.price for record in state.history)
    assert sum(result.budgets) == teams * budget - spent
    assert sum(result.shares) == pytest.approx(1.0)
    assert all(0 <= score <= 3 for score in result.scores)
