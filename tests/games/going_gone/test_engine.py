"""The step engine: a hand-played round, the tie rule table, sales, scoring, lazy legal
actions, observations and the log; every bad action refused with the state unchanged."""

from __future__ import annotations

import math
import re
import sys

import numpy as np
import pytest

from workbench.errors import IllegalAction
from workbench.games.going_gone import (
    Allocation,
    Allocations,
    DoneSelling,
    Rules,
    Sell,
    State,
    allocation_count,
    new_game,
)

DECK = tuple(range(49))  # round 1 lots: (0) (1, 2) (3) (4, 5) (6) - all cars


def bid_round(state: State, bids_by_seat: dict[int, tuple[int, ...]]) -> State:
    while state.phase == "bid":
        state = state.apply(Allocation(bids_by_seat[state.to_play]))
    return state


def snapshot(state: State) -> dict:
    return {key: value for key, value in state.__dict__.items()}


@pytest.fixture
def first_round() -> State:
    """Round 1 of a 4-player game on the unshuffled deck, bids placed, sales pending."""
    state = new_game(Rules(), seed=0, deck=DECK, first_auctioneer=0)
    return bid_round(
        state,
        {
            0: (3, 0, 2, 0, 0),
            1: (3, 5, 0, 0, 0),
            2: (0, 5, 2, 1, 0),
            3: (0, 0, 0, 1, 0),
        },
    )


def test_a_hand_played_round(first_round):
    state = first_round
    # cup 1: seats 0 and 1 tie at 3, the Auctioneer (seat 0) wins; cup 2: seats 1 and 2 tie
    # at 5, seat 1 is nearer clockwise; cup 3: seat 0 (Auctioneer) beats seat 2 on a tie;
    # cup 4: seats 2 and 3 tie at 1, seat 2 nearer; cup 5: no bids, discarded.
    assert state.phase == "sell"
    assert state.bucks == (20, 20, 24, 25)
    assert state.holdings == ((0, 3), (1, 2), (4, 5), ())
    assert state.discarded == (6,)
    assert state.box == 11
    assert state.sellers == (0, 1, 2)  # seat 3 holds nothing and is not asked
    assert state.to_play == 0
    state = state.apply(Sell((3, 0)))  # cars/Germany + cars/Great Britain: 6 Bucks
    assert state.bucks == (20, 20, 24, 25)  # sealed until everyone is done
    state = state.apply(DoneSelling())
    state = state.apply(DoneSelling())
    state = state.apply(Sell((4,))).apply(Sell((5,))).apply(DoneSelling())  # two singles: 4
    assert state.phase == "bid" and state.round == 2 and state.auctioneer == 1
    assert state.bucks == (26, 20, 28, 25)
    assert state.holdings == ((), (1, 2), (), ())
    assert state.sold == (((0, 3),), (), ((4,), (5,)), ())
    assert state.box == 11 - 10
    assert sum(state.bucks) + state.box == 4 * 25  # Bucks are conserved
    record = state.history[0]
    assert record.winners == (0, 1, 0, 2, None)
    assert record.prices == (3, 5, 2, 1, 0)
    assert state.lots == ((7,), (8, 9), (10,), (11, 12), (13,))  # round 2 deals on


@pytest.mark.parametrize(
    ("auctioneer", "cup_bids", "winner"),
    [
        (0, (4, 4, 0, 0), 0),  # the Auctioneer involved in a tie wins it
        (2, (4, 4, 4, 0), 2),
        (2, (4, 4, 0, 0), 0),  # not involved: nearest clockwise from seat 2 is 3, then 0
        (3, (0, 5, 5, 0), 1),
        (1, (6, 0, 0, 6), 3),
        (1, (0, 0, 0, 0), None),  # no bids: discarded
        (0, (1, 2, 3, 2), 2),  # no tie: most Bucks
    ],
)
def test_tie_rule(auctioneer, cup_bids, winner):
    state = new_game(Rules(), seed=0, deck=DECK, first_auctioneer=auctioneer)
    state = bid_round(state, {seat: (bid, 0, 0, 0, 0) for seat, bid in enumerate(cup_bids)})
    while state.phase == "sell":
        state = state.apply(DoneSelling())
    assert state.history[0].winners[0] == winner


def test_a_whole_game_scores_bucks_plus_the_best_arrangement():
    rules = Rules(players=2)
    state = new_game(rules, seed=0, deck=DECK, first_auctioneer=0)
    while not state.is_over:
        if state.phase == "bid":
            # seat 0 buys every lot for 1 Buck while it can; seat 1 never bids
            seat = state.to_play
            budget = state.budget(seat)
            bids = tuple(1 if seat == 0 and cup < budget else 0 for cup in range(5))
            state = state.apply(Allocation(bids))
        else:
            state = state.apply(DoneSelling())
    result = state.result()
    # seat 0 paid 25 Bucks for 25 lots: 35 items (rounds 1-5 whole, the deck in order = five
    # complete types: cars, comics, cards, phonographs, toys), each type a collection of 7
    assert state.bucks == (0, 25)
    assert state.holdings[0] == tuple(range(35))
    assert result.collection_values == (5 * 44, 0)
    assert result.scores == (220, 25) and result.ranks == (1, 2) and result.winners == (0,)
    assert state.to_play is None and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over; no action is legal here"):
        state.apply(DoneSelling())


def test_shared_wins_and_ranks():
    state = new_game(Rules(players=3), seed=0, deck=DECK, first_auctioneer=0)
    while not state.is_over:
        state = state.apply(Allocation((0,) * 5) if state.phase == "bid" else DoneSelling())
    result = state.result()
    assert result.scores == (25, 25, 25)
    assert result.ranks == (1, 1, 1) and result.winners == (0, 1, 2)
    assert len(state.discarded) == 49


def test_lazy_allocations_list_every_allocation_in_order():
    legal = Allocations(25, 5)
    assert len(legal) == math.comb(30, 5) == 142_506
    assert legal[0] == Allocation((0, 0, 0, 0, 0))
    assert legal[1] == Allocation((0, 0, 0, 0, 1))
    assert legal[-1] == Allocation((25, 0, 0, 0, 0))
    assert Allocation((5, 5, 5, 5, 5)) in legal
    assert Allocation((5, 5, 5, 5, 6)) not in legal
    assert legal[legal.index(Allocation((3, 0, 7, 1, 2)))] == Allocation((3, 0, 7, 1, 2))
    small = Allocations(3, 2)
    assert (
        list(small)
        == [small[i] for i in range(len(small))]
        == [
            Allocation(b)
            for b in [
                (0, 0),
                (0, 1),
                (0, 2),
                (0, 3),
                (1, 0),
                (1, 1),
                (1, 2),
                (2, 0),
                (2, 1),
                (3, 0),
            ]
        ]
    )
    assert small[np.int64(4)] == Allocation((1, 0))
    with pytest.raises(IndexError):
        small[10]


@pytest.mark.parametrize(
    ("budget", "cups", "error", "message"),
    [
        # was: a TypeError from adding a str and an int; 6 for True; 0 for -1
        ("5", 5, TypeError, "budget must be a whole number of Bucks >= 0, got '5'"),
        (True, 5, TypeError, "budget must be a whole number of Bucks >= 0, got True"),
        (None, 5, TypeError, "budget must be a whole number of Bucks >= 0, got None"),
        (-1, 5, ValueError, "budget must be a whole number of Bucks >= 0, got -1"),
        (5, 2.0, TypeError, "cups must be a whole number of cups >= 0, got 2.0"),
    ],
)
def test_allocation_counts_name_a_bad_budget_or_cups(budget, cups, error, message):
    allocation_count(5, 5), allocation_count(1, 5)  # cached: the checks still run
    for call in (allocation_count, Allocations):
        with pytest.raises(error, match=re.escape(message)):
            call(budget, cups)


def test_allocations_too_many_for_len_are_refused_when_made():
    assert allocation_count(10**6, 8) > sys.maxsize
    with pytest.raises(ValueError, match="of at most 1000000 Bucks over 8 cups are too many"):
        Allocations(10**6, 8)  # was: made, then len() an OverflowError


def test_legal_actions_follow_the_phase_and_the_cube_limit():
    state = new_game(Rules(cube_limit=5), seed=1)
    legal = state.legal_actions()
    assert isinstance(legal, Allocations) and legal.budget == 5  # min(25 Bucks, 5 cubes)
    with pytest.raises(IllegalAction, match="6 Bucks in the cups is over the biddable 5"):
        state.apply(Allocation((2, 2, 2, 0, 0)))


def test_sale_actions_list_every_collection_then_done(first_round):
    legal = first_round.legal_actions()
    # seat 0 holds cars/Germany (0) and cars/Great Britain (3): two singles and the pair
    assert legal == [DoneSelling(), Sell((0,)), Sell((3,)), Sell((0, 3))]
    after = first_round.apply(Sell((0,)))
    assert after.legal_actions() == [DoneSelling(), Sell((3,))]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Allocation((1, 2, 3)), "one whole number of Bucks for each of the 5 cups"),
        (Allocation((1, -1, 0, 0, 0)), "cup 2: -1 is negative"),
        (Allocation((1, 2.5, 0, 0, 0)), r"cup 2: 2\.5 is not a whole number"),
        (Allocation((True, 0, 0, 0, 0)), "cup 1: True is not a whole number"),
        (Allocation((20, 6, 0, 0, 0)), r"26 Bucks in the cups is over the biddable 25"),
        (DoneSelling(), "must submit an Allocation"),
        ((1, 2, 3, 4, 5), "must submit an Allocation"),
    ],
)
def test_bad_allocations_are_refused_and_change_nothing(action, message):
    state = new_game(Rules(), seed=3)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=message):
        state.apply(action)
    assert snapshot(state) == before


def test_numpy_integers_are_accepted_in_actions():
    state = new_game(Rules(), seed=3)
    after = state.apply(Allocation(tuple(np.int64(b) for b in (1, 0, 2, 0, 0))))
    assert after.bids[0] == Allocation((1, 0, 2, 0, 0))
    assert all(type(b) is int for b in after.bids[0].bids)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Sell((1,)), r"item\(s\) 1 \(cars/Canada\) are not held"),
        (Sell((0, 0)), "item 0 is listed twice"),
        (Sell(()), "a collection is a non-empty tuple of item ids"),
        (Sell((0, 99)), r"99 is not an item id \(0–48\)"),
        (Sell((0, 1.0)), "is not an item id"),
        (Allocation((0,) * 5), "play Sell"),
    ],
)
def test_bad_sales_are_refused_and_change_nothing(first_round, action, message):
    before = snapshot(first_round)
    with pytest.raises(IllegalAction, match=message):
        first_round.apply(action)
    assert snapshot(first_round) == before


def test_a_sale_must_be_one_collection():
    state = new_game(Rules(), seed=0, deck=DECK, first_auctioneer=0)
    # seat 0 wins cars/Germany (0) in round 1 and comics/Canada (8) in round 2
    state = bid_round(state, {0: (1, 0, 0, 0, 0), 1: (0,) * 5, 2: (0,) * 5, 3: (0,) * 5})
    state = state.apply(DoneSelling())
    state = bid_round(state, {0: (0, 1, 0, 0, 0), 1: (0,) * 5, 2: (0,) * 5, 3: (0,) * 5})
    assert state.holdings[0] == (0, 8, 9)
    with pytest.raises(IllegalAction, match="share neither a type nor a country"):
        state.apply(Sell((0, 9)))  # cars/Germany + comics/China
    state = state.apply(Sell((8, 9)))  # comics/Canada + comics/China: one type
    with pytest.raises(IllegalAction, match=r"are not held \(or are already in this sale\)"):
        state.apply(Sell((8,)))


def test_observations_keep_collections_secret_by_default(first_round):
    observation = first_round.observation(1)
    assert observation.holding == (1, 2)
    assert observation.holdings == (None, (1, 2), None, None)
    assert observation.sold == (None, (), None, None)
    assert observation.item_counts == (2, 2, 2, 0)
    assert observation.bucks == (20, 20, 24, 25)
    assert observation.lots == ((0,), (1, 2), (3,), (4, 5), (6,))
    assert observation.own_bids == Allocation((3, 5, 0, 0, 0))
    # seat 0's sealed sale is not visible to seat 1
    after = first_round.apply(Sell((0, 3)))
    assert after.observation(1) == observation
    assert after.observation(0).pending_sale == ((0, 3),)
    assert after.observation(0).unsold == ()


@pytest.mark.parametrize("open_collections", [False, True])
def test_who_won_what_is_secret_unless_collections_are_open(open_collections):
    # Game A: seat 2 wins cup 1 and seat 3 cup 3, for 3 Bucks each; game B: the other way
    # round. Seats 0 and 1 see the same Bucks and item counts either way.
    rules = Rules(open_collections=open_collections)
    observations = []
    for cup_of_seat_2, cup_of_seat_3 in ((0, 2), (2, 0)):
        state = new_game(rules, seed=0, deck=DECK, first_auctioneer=0)
        bids = {0: (0,) * 5, 1: (0,) * 5, 2: [0] * 5, 3: [0] * 5}
        bids[2][cup_of_seat_2] = 3
        bids[3][cup_of_seat_3] = 3
        state = bid_round(state, {seat: tuple(b) for seat, b in bids.items()})
        while state.phase == "sell":
            state = state.apply(DoneSelling())
        observations.append([state.observation(seat) for seat in (0, 1)])
    assert (observations[0] == observations[1]) is not open_collections


def test_open_collections_show_every_holding_and_sale():
    rules = Rules(open_collections=True)
    state = new_game(rules, seed=0, deck=DECK, first_auctioneer=0)
    state = bid_round(state, {0: (1, 0, 0, 0, 0), 1: (0, 1, 0, 0, 0), 2: (0,) * 5, 3: (0,) * 5})
    state = state.apply(Sell((0,))).apply(DoneSelling()).apply(DoneSelling())
    observation = state.observation(3)
    assert observation.holdings == ((), (1, 2), (), ())
    assert observation.sold == (((0,),), (), (), ())


def test_log_for_shows_only_what_the_player_saw(first_round):
    state = first_round.apply(Sell((0, 3))).apply(DoneSelling()).apply(DoneSelling())
    state = state.apply(DoneSelling())
    full = state.log_for(None)
    assert full[0] == (
        "round 1: seat 0 is the Auctioneer and deals cup 1: cars/Germany; cup 2: cars/Canada, "
        "cars/China; cup 3: cars/Great Britain; cup 4: cars/Japan, cars/United States; "
        "cup 5: cars/Italy"
    )
    assert "seat 1 bids [3, 5, 0, 0, 0]" in full
    assert "cup 2 (cars/Canada, cars/China): seat 1 wins for 5" in full
    assert "cup 5 (cars/Italy): no bids, discarded" in full
    assert "seat 0 sells cars/Germany, cars/Great Britain for 6" in full
    own = state.log_for(1)
    assert "seat 1 bids [3, 5, 0, 0, 0]" in own
    assert not any(line.startswith("seat 0 bids") for line in own)
    assert "cup 2 (cars/Canada, cars/China): you win for 5" in own
    assert not any("seat 0 sells" in line for line in own)
    assert "after round 1: Bucks [26, 20, 24, 25], items held [0, 2, 2, 0]" in own
    assert state.log == full


def test_bad_seats_and_games():
    state = new_game(Rules(), seed=0)
    for call in (state.observation, state.log_for, state.budget):
        with pytest.raises(ValueError, match="must be a seat 0–3"):
            call(4)
    with pytest.raises(ValueError, match="must be a seat 0–3"):
        state.observation(True)
    with pytest.raises(ValueError, match="the game is not over: round 1 of 7"):
        state.result()
    with pytest.raises(ValueError, match="deck must order every item id 0–48 exactly once"):
        new_game(Rules(), seed=0, deck=(0, 0, 1))
    with pytest.raises(ValueError, match="first_auctioneer must be a seat 0–3"):
        new_game(Rules(), seed=0, first_auctioneer=5)
    with pytest.raises(TypeError, match="rules must be a going_gone Rules"):
        new_game("default", seed=0)


@pytest.mark.parametrize(
    ("deck", "shown"),
    [(5, "5 (int)"), ("abc", "'abc' (str)"), ([float(i) for i in range(49)], "0.0 (float)")],
)
def test_a_deck_of_other_than_item_ids_is_named(deck, shown):
    # was: "'int' object is not iterable", or "got 49 entries" for 49 floats
    with pytest.raises(TypeError, match=rf"deck must order every item id 0–48 exactly once; got "
                       rf"{re.escape(shown)}"):  # fmt: skip
        new_game(Rules(), seed=0, deck=deck)
    assert new_game(Rules(), seed=0, deck=np.arange(49)).deal.deck == tuple(range(49))


def test_same_seed_same_game_and_a_random_first_auctioneer():
    a, b = new_game(Rules(), seed=5), new_game(Rules(), seed=5)
    assert a.deal == b.deal and a.lots == b.lots
    assert new_game(Rules(), seed=6).deal != a.deal
    starts = {new_game(Rules(first_auctioneer="random"), seed=s).auctioneer for s in range(40)}
    assert starts == {0, 1, 2, 3}
