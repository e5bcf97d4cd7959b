"""The step-by-step engine against hand-worked rounds (docs/rules.md and the rulebook)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from workbench.errors import IllegalAction
from workbench.games.rubbish import Auction, Bid, Rules, State, new_game
from workbench.games.rubbish.engine import score


def start(rules: Rules | None = None, auctioneer: int = 0) -> State:
    """Seat s holds geek s (geek s wants items s and s+1)."""
    rules = rules or Rules()
    return new_game(
        rules, seed=0, geeks=tuple(range(rules.players)), starting_auctioneer=auctioneer
    )


def play_round(state: State, item: int, first: int, bids: dict[int, tuple[int, ...]]) -> State:
    """Auction ``item`` naming ``first`` First Bidder; each seat holds out ``bids[seat]``."""
    state = state.apply(Auction(item, first))
    while state.phase == "bid":
        state = state.apply(Bid(bids[state.to_play]))
    return state


# Each scenario: players, first bidder, bids by seat -> winner, cheapskate, fame after, locks.
# Fame starts at 30; the winner pays the bid, the cheapskate is unchanged, the rest gain.
ROUND_SCENARIOS = {
    "tie for highest goes to the bidder closest to the First Bidder": (
        4,
        1,
        {0: (1,), 1: (5, 2), 2: (5, 2), 3: (2, 1)},
        1,
        0,
        (30, 23, 37, 33),
        (None, 5, 5, 2),
    ),
    "tie for lowest goes to the bidder farthest from the First Bidder": (
        4,
        1,
        {0: (5,), 1: (10,), 2: (2, 1), 3: (2, 1)},
        1,
        3,
        (35, 20, 33, 30),
        (5, 10, 2, None),
    ),
    "all bid 15: the first bids wins, being last is the lowest (rulebook hint)": (
        4,
        2,
        {seat: (10, 5) for seat in range(4)},
        2,
        1,
        (45, 30, 15, 45),
        (10, None, 10, 10),
    ),
    "two players: a winner and a cheapskate, no one else": (
        2,
        0,
        {0: (5,), 1: (5,)},
        0,
        1,
        (25, 30),
        (5, None),
    ),
    "two players, second bids more": (
        2,
        0,
        {0: (2, 1), 1: (5,)},
        1,
        0,
        (30, 25),
        (None, 5),
    ),
    "the First Bidder's zero-card bid among real bids is the cheapskate": (
        3,
        1,
        {0: (10, 2), 1: (), 2: (5, 2, 2, 1)},
        0,
        1,
        (18, 30, 40),
        (10, None, 5),
    ),
    "later bidders' one-card minimum: all bid 1 but the First Bidder, who bids 0": (
        4,
        2,
        {0: (1,), 1: (1,), 2: (), 3: (1,)},
        3,
        2,
        (31, 31, 30, 29),
        (1, 1, None, 1),
    ),
    "the highest card played is locked, not the others": (
        3,
        2,
        {0: (10, 5, 2, 2, 1), 1: (2, 2), 2: (1,)},
        0,
        2,
        (10, 34, 30),
        (10, 2, None),
    ),
}


@pytest.mark.parametrize(
    ("players", "first", "bids", "winner", "cheapskate", "fame", "locks"),
    list(ROUND_SCENARIOS.values()),
    ids=list(ROUND_SCENARIOS),
)
def test_round_resolution(players, first, bids, winner, cheapskate, fame, locks):
    state = play_round(start(Rules(players=players)), item=3, first=first, bids=bids)
    _check_round(state, players, winner, cheapskate, fame, locks)


OTHER_MINIMUM_SCENARIOS = {
    # reading: bids by seat (First Bidder seat 1) -> winner, cheapskate, fame, locks
    "any: everyone holds out nothing, the First Bidder wins for free": (
        "any",
        {0: (), 1: (), 2: ()},
        1,
        0,
        (30, 30, 30),
        (None, None, None),
    ),
    "one: the First Bidder must hold out a card too; all bid 1, the last is lowest": (
        "one",
        {0: (1,), 1: (1,), 2: (1,)},
        1,
        0,
        (30, 29, 31),
        (None, 1, 1),
    ),
}


@pytest.mark.parametrize(
    ("reading", "bids", "winner", "cheapskate", "fame", "locks"),
    list(OTHER_MINIMUM_SCENARIOS.values()),
    ids=list(OTHER_MINIMUM_SCENARIOS),
)
def test_round_resolution_under_the_other_bid_minimums(
    reading, bids, winner, cheapskate, fame, locks
):
    state = play_round(start(Rules(players=3, bid_minimum=reading)), item=3, first=1, bids=bids)
    _check_round(state, 3, winner, cheapskate, fame, locks)


def _check_round(state, players, winner, cheapskate, fame, locks):
    record = state.history[-1]
    assert (record.winner, record.cheapskate) == (winner, cheapskate)
    assert state.fame == fame
    assert state.locked == locks
    assert state.items_won[winner] == (3,)
    assert state.auctioneer == cheapskate  # the cheapskate takes the Next Auctioneer card
    assert state.cheapskate_counts[cheapskate] == 1
    roles = [record.role(seat) for seat in range(players)]
    assert roles.count("winner") == 1 and roles.count("cheapskate") == 1


def test_bidding_goes_clockwise_from_the_first_bidder():
    state = start().apply(Auction(0, 2))
    seen = []
    while state.phase == "bid":
        seen.append(state.to_play)
        state = state.apply(Bid((1,)))
    assert seen == [2, 3, 0, 1]


BID_MINIMUM_CASES = {
    # reading: (fewest cards for the First Bidder, for each later bidder)
    "first_any_later_one": (0, 1),  # the rulebook: "any number", then "one or more"
    "any": (0, 0),
    "one": (1, 1),
}


@pytest.mark.parametrize(("reading", "fewest"), list(BID_MINIMUM_CASES.items()))
def test_bid_minimum_readings(reading, fewest):
    rules = Rules(bid_minimum=reading)
    assert rules.bid_minimums == fewest
    state = start(rules).apply(Auction(0, 1))
    for position in range(4):
        legal = state.legal_actions()
        # 10, 5, 2, 2, 1 make 2 * 2 * 3 * 2 = 24 multisets (0-2 of the 2s), the empty one first.
        assert len(legal) == 24 - fewest[min(position, 1)]
        assert (Bid(()) in legal) is (fewest[min(position, 1)] == 0)
        if Bid(()) not in legal:
            with pytest.raises(IllegalAction, match=r"must hold out at least 1 card"):
                state.apply(Bid(()))
        state = state.apply(legal[0])


@pytest.mark.parametrize(
    ("overspend", "fame", "kept"),
    [("discard", (0, 49, 35, 33), False), ("keep", (0, 49, 35, 33), True)],
)
def test_overspend_readings(overspend, fame, kept):
    rules = Rules(starting_fame=30, overspend=overspend)
    state = play_round(start(rules), 0, 0, {0: (10, 5, 2, 2, 1), 1: (10,), 2: (2,), 3: (1,)})
    state = play_round(state, 1, 0, {0: (5, 2, 2, 1), 1: (5, 2, 2), 2: (1,), 3: (1,)})
    # Round 2: seat 0 (fame 10 after paying 20) bids 10 and wins: exactly 0, so it keeps it.
    # Seats 2 and 3 both bid 1: seat 3, farther from the First Bidder, is the cheapskate.
    assert state.fame[0] == 0 and state.items_won[0] == (0, 1)
    state = play_round(state, 2, 3, {0: (10,), 1: (1,), 2: (2,), 3: (2, 1)})
    # Round 3: seat 0 (fame 0) bids 10 and wins: fame would be -10. Fame: seat 1 30+10+9 (the
    # cheapskate of round 3), seat 2 30+2+1+2, seat 3 30+0 (cheapskate twice)+3.
    record = state.history[-1]
    assert record.winner == 0 and record.kept is kept
    assert state.fame == fame
    assert (2 in state.items_won[0]) is kept
    assert (2 in state.discarded) is (not kept)


def test_fame_exactly_zero_keeps_the_item():
    state = play_round(start(Rules(starting_fame=10)), 0, 0, {0: (10,), 1: (5,), 2: (2,), 3: (1,)})
    assert state.fame[0] == 0 and state.items_won[0] == (0,) and not state.discarded


def test_locks_last_one_round_then_return():
    state = play_round(start(), 0, 0, {0: (10,), 1: (5,), 2: (2,), 3: (1,)})
    assert state.locked == (10, 5, 2, None)
    state = state.apply(Auction(1, 0))
    with pytest.raises(IllegalAction, match=r"10 is locked this round"):
        state.apply(Bid((10,)))
    assert Bid((10,)) not in state.legal_actions()
    assert state.available(0) == (5, 2, 2, 1)
    assert state.available(2) == (10, 5, 2, 1)  # one 2 locked, the other still usable
    # Round 2: seat 0 is the cheapskate, so it locks nothing; its 10 is back for round 3.
    for cards in [(), (10,), (10, 5), (5, 2)]:
        state = state.apply(Bid(cards))
    assert state.history[-1].cheapskate == 0
    assert state.locked == (None, 10, 10, 5)
    state = state.apply(Auction(2, 0))
    assert Bid((10, 5, 2, 2, 1)) in state.legal_actions()


def test_geeks_score_destined_items_at_the_end():
    state = start()
    # Seat s holds geek s, which wants items s and s+1, and bids first (holding out nothing:
    # the First Bidder may, later bidders may not). Seat 0 wins items 0 and 1 with bids of 1
    # then 2 (its 1 is locked in round 2) against three empty bids (rulebook minimum "any");
    # seat 3 wins the rest the same way.
    state = start(Rules(bid_minimum="any"))
    for item in range(7):
        winner = 0 if item < 2 else 3
        bids = {seat: () for seat in range(4)}
        bids[winner] = (1,) if item % 2 == 0 else (2,)
        state = play_round(state, item, 0, bids)
    assert state.is_over and state.to_play is None and state.legal_actions() == []
    result = state.result()
    assert state.items_won[0] == (0, 1)
    assert result.destined_won[0] == 2
    assert result.scores[0] == state.fame[0] + 60 == 27 + 60
    assert state.items_won[3] == (2, 3, 4, 5, 6) and result.destined_won[3] == 2  # items 3, 4


@pytest.mark.parametrize(
    ("fame", "won", "ranks", "winners"),
    [
        # Highest fame wins.
        ((50, 40, 30, 20), ((), (), (), ()), (1, 2, 3, 4), (0,)),
        # Tied fame: more items won breaks the tie.
        ((40, 40, 30, 20), ((), (5, 6), (), ()), (2, 1, 3, 4), (1,)),
        # Still tied: a shared victory, both rank 1.
        ((40, 40, 30, 20), ((5,), (6,), (), ()), (1, 1, 3, 4), (0, 1)),
        # Everyone tied.
        ((30, 30, 30, 30), ((), (), (), ()), (1, 1, 1, 1), (0, 1, 2, 3)),
    ],
)
def test_final_tie_breaks(fame, won, ranks, winners):
    # Geeks 0-3 want items 0-4; items 5 and 6 are nobody's here, so they only break ties.
    result = score(Rules(), (0, 1, 2, 3), fame, won)
    assert result.ranks == ranks
    assert result.winners == winners


def test_destined_bonus_changes_the_winner():
    # Seat 1 has less fame but won its destined item 1 (geek 1 wants items 1 and 2).
    result = score(Rules(), (0, 1, 2, 3), (50, 25, 30, 20), ((), (1,), (), ()))
    assert result.scores == (50, 55, 30, 20)
    assert result.winners == (1,)


def test_peek_at_held_out_cards_when_two_or_more_are_held_out():
    state = start().apply(Auction(0, 0)).apply(Bid((10, 5, 1)))
    peek = state.observation(1).peek
    u = state.deal.peek_uniforms[0][1]
    assert peek.target == 0 and peek.source == "held_out"
    assert peek.card == (10, 5, 1)[int(u * 3)]


@pytest.mark.parametrize("cards", [(), (5,)])
def test_peek_at_unused_cards_when_at_most_one_is_held_out(cards):
    state = start().apply(Auction(0, 0)).apply(Bid(cards))
    peek = state.observation(1).peek
    unused = [c for c in (10, 5, 2, 2, 1) if c != 5 or cards != (5,)]
    u = state.deal.peek_uniforms[0][1]
    assert peek.source == "unused"
    assert peek.card == unused[int(u * len(unused))]


def test_peek_respects_the_locked_card():
    # Seat 0 locked its 10; holding out one card, its unused cards exclude the locked 10.
    state = play_round(start(), 0, 0, {0: (10,), 1: (5,), 2: (2,), 3: (1,)})
    seen = set()
    for seed in range(40):
        replay = new_game(Rules(), seed=seed, geeks=(0, 1, 2, 3), starting_auctioneer=0)
        replay = play_round(replay, 0, 0, {0: (10,), 1: (5,), 2: (2,), 3: (1,)})
        replay = replay.apply(Auction(1, 0)).apply(Bid((1,)))
        seen.add(replay.observation(1).peek.card)
    assert seen == {5, 2}
    assert state.locked[0] == 10


def test_first_bidder_sees_no_peek_and_peeks_are_private():
    state = start().apply(Auction(0, 0))
    assert state.observation(0).peek is None
    state = state.apply(Bid((10, 5)))
    assert state.observation(1).peek is not None
    assert state.observation(2).peek is None and state.observation(0).peek is None


def test_observation_shows_counts_not_cards_of_this_rounds_bids():
    state = start().apply(Auction(4, 0)).apply(Bid((10, 5))).apply(Bid((2,)))
    seen_by_3 = state.observation(3)
    assert seen_by_3.held_out == (2, 1, None, None)
    assert seen_by_3.own_bid is None
    assert state.observation(0).own_bid == Bid((10, 5))
    assert seen_by_3.geek == 3 and seen_by_3.destined == (3, 4)
    text = repr(seen_by_3)
    assert "(10, 5)" not in text and "geek=0" not in text


def test_observations_do_not_depend_on_hidden_facts():
    """Two games that differ only in what seat 2 cannot see give seat 2 equal observations."""

    def through(geeks, first_bid):
        state = new_game(Rules(), seed=5, geeks=geeks, starting_auctioneer=0)
        state = play_round(state, 0, 0, {0: (10,), 1: (5, 1), 2: (2,), 3: (1,)})
        return state.apply(Auction(1, 3)).apply(Bid(first_bid))  # seat 3 bids first

    a = through((0, 1, 2, 3), (10, 5))
    b = through((6, 5, 2, 4), (2, 1))  # others' geeks and seat 3's cards differ
    assert a.observation(2) == b.observation(2)
    assert a.observation(0) != b.observation(0)  # seat 0 is next: its peek differs


def test_log_reads_as_a_replay():
    state = play_round(start(), 3, 1, {0: (1,), 1: (5, 2), 2: (5, 2), 3: (2, 1)})
    lines = [entry.text for entry in state.log]
    assert lines[0] == (
        "round 1: seat 0 auctions Stuffed owl (item 3) and names seat 1 First Bidder"
    )
    assert "seat 1 holds out 2 cards" in lines
    assert any(
        line.startswith("seat 2 peeks blind at one of seat 1's held-out cards") for line in lines
    )
    assert "reveal: seat 1 5+2 = 7, seat 2 5+2 = 7, seat 3 2+1 = 3, seat 0 1 = 1" in lines
    assert "seat 1 wins Stuffed owl for 7: fame 30 -> 23" in lines
    assert "seat 2 gains 7: fame 30 -> 37" in lines
    assert "seat 1 locks their 5 for round 2" in lines
    kinds = [entry.kind for entry in state.log]
    assert kinds.count("cheapskate") == 1 and kinds.count("peek") == 3


def test_log_for_a_seat_hides_other_peeks_and_unrevealed_cards():
    state = start().apply(Auction(3, 1)).apply(Bid((5, 2)))
    # Seat 2 is to bid and has peeked at one of seat 1's two held-out cards (a 5 or a 2).
    peek = state.observation(2).peek
    seen = f"seat 2 peeks blind at one of seat 1's held-out cards: a {peek.card}"
    assert state.log_for(2) == [
        "round 1: seat 0 auctions Stuffed owl (item 3) and names seat 1 First Bidder",
        "seat 1 holds out 2 cards",
        seen,
    ]
    assert seen not in state.log_for(3) and seen in state.log_for(None)
    assert not any("5+2" in line for line in state.log_for(3))  # revealed only after the round
    state = state.apply(Bid((10,))).apply(Bid((1,))).apply(Bid((2,)))
    assert "reveal: seat 1 5+2 = 7, seat 2 10 = 10, seat 3 1 = 1, seat 0 2 = 2" in state.log_for(3)
    assert sum(" peeks blind " in line for line in state.log_for(None)) == 3
    assert [line for line in state.log_for(0) if " peeks " in line] == [
        line for line in state.log_for(None) if line.startswith("seat 0 peeks")
    ]


ILLEGAL = {
    "a bid while the auctioneer must choose": (lambda s: s, Bid((5,)), "must choose an Auction"),
    "an item already auctioned": (
        lambda s: play_round(s, 0, 0, {0: (), 1: (1,), 2: (1,), 3: (1,)}),
        Auction(0, 0),
        r"item 0 is not up for auction",
    ),
    "a first bidder who is not a seat": (
        lambda s: s,
        Auction(0, 4),
        r"first_bidder must be a seat",
    ),
    "an auction during the bidding": (
        lambda s: s.apply(Auction(0, 0)),
        Auction(1, 0),
        r"must play a Bid",
    ),
    "a card not in hand": (
        lambda s: s.apply(Auction(0, 0)),
        Bid((10, 10)),
        r"cannot hold out \[10, 10\]",
    ),
    "a locked card": (
        lambda s: play_round(s, 0, 0, {0: (10,), 1: (5,), 2: (2,), 3: (1,)}).apply(Auction(1, 0)),
        Bid((10, 1)),
        r"10 is locked this round",
    ),
    "an empty bid from a later bidder (the rulebook's minimum)": (
        lambda s: s.apply(Auction(0, 0)).apply(Bid(())),
        Bid(()),
        r"seat 1 bids as a later bidder and must hold out at least 1 card",
    ),
    "an empty First Bidder's bid when everyone must hold out one": (
        lambda s: new_game(Rules(bid_minimum="one"), seed=0).apply(Auction(0, 0)),
        Bid(()),
        r"seat 0 bids as the First Bidder and must hold out at least 1 card",
    ),
    "a plain tuple instead of a Bid": (
        lambda s: s.apply(Auction(0, 0)),
        (5, 2),
        r"must play a Bid",
    ),
}


@pytest.mark.parametrize(("setup", "action", "message"), list(ILLEGAL.values()), ids=list(ILLEGAL))
def test_illegal_actions_raise_and_leave_the_state_unchanged(setup, action, message):
    state = setup(start())
    table = state._table  # shared, immutable lookup table: compared by identity
    before = copy.deepcopy({k: v for k, v in vars(state).items() if k != "_table"})
    with pytest.raises(IllegalAction, match=message) as caught:
        state.apply(action)
    assert {k: v for k, v in vars(state).items() if k != "_table"} == before
    assert state._table is table
    assert caught.value.legal == tuple(state.legal_actions())
    assert "legal: " in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_nothing_is_legal_once_the_game_is_over():
    state = start(Rules(bid_minimum="any"))
    for item in range(7):
        state = play_round(state, item, 0, {0: (), 1: (), 2: (), 3: ()})
    with pytest.raises(IllegalAction, match="the game is over; no action is legal here"):
        state.apply(Auction(0, 0))


def test_apply_returns_a_new_state_and_unsorted_cards_are_accepted():
    state = start().apply(Auction(0, 0))
    after = state.apply(Bid((1, 5, 2)))
    assert state.bids == () and after.bids == (Bid((5, 2, 1)),)


def test_result_before_the_end_is_an_error():
    with pytest.raises(ValueError, match="the game is not over: round 1 of 7"):
        start().result()


def test_same_seed_same_game_and_deal_validation():
    a, b = new_game(seed=11), new_game(seed=11)
    assert a.deal == b.deal
    assert new_game(seed=12).deal != a.deal
    with pytest.raises(ValueError, match="geeks must give 4 distinct geek numbers"):
        new_game(seed=0, geeks=(0, 0, 1, 2))
    with pytest.raises(ValueError, match="starting_auctioneer must be a seat 0–3"):
        new_game(seed=0, starting_auctioneer=7)
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        new_game(seed=-3)
    with pytest.raises(ValueError, match="player must be a seat 0–3"):
        new_game(seed=0).observation(4)


def test_random_starting_auctioneer_uses_the_seed():
    starts = {new_game(Rules(starting_auctioneer="random"), seed=s).auctioneer for s in range(40)}
    assert starts == {0, 1, 2, 3}


def test_numpy_integers_are_accepted_and_stored_as_plain_ints():
    state = start().apply(Auction(np.int64(2), np.int8(1)))
    assert (state.item, state.first_bidder) == (2, 1) and type(state.item) is int
    state = state.apply(Bid((np.int64(5), np.int64(2))))
    assert state.bids == (Bid((5, 2)),) and all(type(c) is int for c in state.bids[0].cards)
    assert state.observation(np.int64(2)).player == 2
    dealt = new_game(seed=0, geeks=np.array([3, 1, 0, 2]), starting_auctioneer=np.int8(1))
    assert dealt.deal.geeks == (3, 1, 0, 2) and dealt.auctioneer == 1
    assert all(type(g) is int for g in dealt.deal.geeks)
    assert Bid([5, 2]) == Bid((2, 5)) == Bid(np.array([5, 2])) == Bid((5, 2))


MALFORMED = {
    # what a caller wrote -> the error, naming the argument and what is allowed
    "a bare number of cards": (lambda: Bid(5), r"Bid cards must be a sequence of money card"),
    "no cards at all": (lambda: Bid(None), r"Bid cards must be a sequence .*got None"),
    "a string": (lambda: Bid("52"), r"Bid cards must be a sequence .*got '52' \(str\)"),
    "a card as text": (lambda: Bid((5, "2")), r"Bid cards must be whole numbers .*'2' \(str\)"),
    "a bool card": (lambda: Bid((True,)), r"Bid cards must be whole numbers .*True \(bool\)"),
    "float cards": (lambda: Bid((5.0, 2.0)), r"Bid cards must be whole numbers .*5.0 \(float\)"),
    "a float item": (lambda: Auction(1.0, 0), r"Auction item must be a whole number .*1.0"),
    "a bool item": (lambda: Auction(True, 0), r"Auction item must be a whole number .*True"),
    "a seat as text": (lambda: Auction(1, "0"), r"Auction first_bidder must be a whole number"),
}


@pytest.mark.parametrize(("make", "message"), MALFORMED.values(), ids=MALFORMED)
def test_malformed_actions_are_type_errors_when_made(make, message):
    with pytest.raises(TypeError, match=message):
        make()


def test_seats_are_checked_everywhere():
    state = start().apply(Auction(0, 0))
    observation = state.observation(1)
    for call in (state.available, observation.available, state.observation, state.log_for):
        with pytest.raises(ValueError, match=r"must be a seat 0–3"):
            call(9)
        with pytest.raises(TypeError, match=r"must be a seat 0–3.*got 1.0 \(float\)"):
            call(1.0)
        with pytest.raises(TypeError, match=r"must be a seat 0–3.*got True \(bool\)"):
            call(True)
    assert state.available(np.int64(1)) == observation.available(np.int8(1)) == (10, 5, 2, 2, 1)


def test_new_game_accepts_what_rules_accept_for_the_start():
    starts = {new_game(seed=s, starting_auctioneer="random").auctioneer for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert (
        new_game(Rules(starting_auctioneer="random"), seed=3, starting_auctioneer=2).auctioneer == 2
    )
    with pytest.raises(TypeError, match=r"starting_auctioneer must be a seat 0–3, 'random' or"):
        new_game(seed=0, starting_auctioneer=1.5)
    with pytest.raises(TypeError, match=r"rules must be a rubbish Rules or None, got int"):
        new_game(4, seed=0)
    with pytest.raises(TypeError, match=r"geeks must give 4 distinct geek numbers .*got 1.0"):
        new_game(seed=0, geeks=(0, 1.0, 2, 3))
    with pytest.raises(TypeError, match=r"geeks must give 4 distinct geek numbers .*got 3 \(int\)"):
        new_game(seed=0, geeks=3)
    with pytest.raises(
        ValueError, match=r"geeks must give 4 distinct geek numbers .*\(0, 0, 1, 2\)"
    ):
        new_game(seed=0, geeks=(0, 0, 1, 2))
