"""The step engine on hands known by construction: the auction (forced and free takes, the
swap), the kitty, trump timing, trick play, scoring, observations, the log and bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench.errors import IllegalAction
from workbench.games.auction_house import (
    Kitty,
    Offer,
    Pass,
    Play,
    RandomAgent,
    Rules,
    Start,
    Take,
    new_game,
)
from workbench.kit.seeding import generator


def apply_all(state, *actions):
    for action in actions:
        state = state.apply(action)
    return state


def test_the_auction_asks_from_the_dealers_left_and_lists_every_start(suited):
    state = suited()
    assert (state.deal, state.dealer, state.phase, state.to_play) == (1, 3, "auction", 0)
    legal = state.legal_actions()
    assert legal[0] == Pass() and len(legal) == 1 + 10 * 3
    assert legal[1:4] == [Start("AC", "D"), Start("AC", "H"), Start("AC", "S")]
    state = apply_all(state, Pass(), Pass())
    assert state.to_play == 2 and state.passes == (0, 1)


def test_forced_take_the_highest_offered_card_of_the_called_suit(mixed):
    state = apply_all(mixed(), Start("AC", "H"), Offer("5H"), Offer("9H"), Offer("9S"))
    # Hearts offered: 5H (seat 1) and 9H (seat 2): the starter must take the highest, 9H.
    assert state.phase == "kitty" and (state.taken_from, state.forced) == (2, True)
    assert "9H" in state.hand(0) and "AC" not in state.hand(0)
    assert "AC" in state.hand(2) and "9H" not in state.hand(2)
    assert "5H" in state.hand(1) and "9S" in state.hand(3)  # the other offers go back
    assert [len(state.hand(s)) for s in range(4)] == [10] * 4


def test_free_take_when_no_card_of_the_called_suit_is_offered(mixed):
    state = apply_all(mixed(), Start("AC", "H"), Offer("2D"), Offer("7D"), Offer("4S"))
    assert state.phase == "take" and state.to_play == 0
    assert state.legal_actions() == [Take("2D"), Take("7D"), Take("4S")]
    with pytest.raises(IllegalAction, match="5D was not offered"):
        state.apply(Take("5D"))
    state = state.apply(Take("4S"))
    assert (state.taken_from, state.forced, state.phase) == (3, False, "kitty")
    assert "4S" in state.hand(0) and "AC" in state.hand(3)


def test_the_kitty_then_trump_then_nine_tricks_to_the_single_leader(suited):
    # Clubs are trump (JC on top) and seat 0 holds every club: it wins all nine tricks.
    state = apply_all(suited(), Pass(), Pass(), Pass(), Pass())
    assert state.phase == "kitty" and state.to_play == 0 and not state.trump_shown
    state = apply_all(state, Kitty("AC"), Kitty("10D"), Kitty("5H"), Kitty("AS"))
    assert state.phase == "play" and state.trump_card == "JC" and state.observation(1).trump == "C"
    for _ in range(9):
        leader = state.to_play
        assert leader == 0
        state = state.apply(Play(state.hand(0)[-1]))
        for seat in (1, 2, 3):
            state = state.apply(Play(state.hand(seat)[0]))
    record = state.history[0]
    assert record.tricks_won == (9, 0, 0, 0) and record.kitty_winner == 0
    assert record.kitty == ("AC", "10D", "5H", "AS") and record.kitty_points == 1 + 10 + 5 + 1
    assert state.scores == (17, 0, 0, 0) and state.carried_in == 0
    # The next deal: the deal passes left, the trump deck's second card comes next.
    assert (state.deal, state.dealer, state.to_play) == (2, 0, 1)


def test_before_auction_turns_trump_at_the_start(suited):
    state = suited(Rules(trump_reveal="before_auction"))
    assert state.trump_shown and state.trump_card == "JC"
    assert state.observation(2).trump == "C" and state.observation(2).revealed_trumps == ("JC",)
    assert suited().observation(2).trump is None and suited().observation(2).revealed_trumps == ()


def test_following_suit_and_the_revoke(mixed):
    # Dealer 0: seat 1 speaks and leads first.
    state = apply_all(mixed(dealer=0), Pass(), Pass(), Pass(), Pass())
    state = apply_all(state, Kitty("AD"), Kitty("10H"), Kitty("AS"), Kitty("AC"))
    state = state.apply(Play("2D"))
    assert state.to_play == 2
    assert state.legal_actions() == [Play(c) for c in ("6D", "7D", "8D", "9D", "10D")]
    with pytest.raises(IllegalAction, match=r"must follow diamonds .* would be a revoke"):
        state.apply(Play("6H"))
    with pytest.raises(IllegalAction, match="does not hold 5C"):
        state.apply(Play("5C"))
    state = state.apply(Play("6D")).apply(Play("2S"))  # seat 3 has no diamonds: any card
    assert state.observation(0).voids()[3] == frozenset("D")


BAD = {
    "a card not held": (lambda s: s, Start("AD", "H"), "seat 0 does not hold AD"),
    "calling the face-up card's suit": (lambda s: s, Start("AC", "C"), "must differ"),
    "a bad suit": (lambda s: s, Start("AC", "X"), "bad suit 'X'"),
    "a bad card string": (lambda s: s, Start("11C", "H"), "bad card '11C'"),
    "a face card": (lambda s: s, Start("KC", "H"), "face card"),
    "a second auction": (
        lambda s: apply_all(s, Start("AC", "H"), Offer("5H"), Offer("9H"), Offer("9S")),
        Start("2C", "D"),
        "seat 0 held this deal's auction .at most one auction per deal",
    ),
    "a start while the auction is under way": (
        lambda s: s.apply(Start("AC", "H")),
        Start("2C", "D"),
        "auction is under way",
    ),
    "a start after everyone passed": (
        lambda s: apply_all(s, Pass(), Pass(), Pass(), Pass()),
        Start("2C", "D"),
        "everyone passed",
    ),
    "the wrong kind of action": (lambda s: s, Play("AC"), r"Pass\(\) or Start"),
    "an offer of a card not held": (
        lambda s: s.apply(Start("AC", "H")),
        Offer("AC"),
        "seat 1 does not hold AC",
    ),
    "a bad kitty card": (
        lambda s: apply_all(s, Pass(), Pass(), Pass(), Pass()),
        Kitty("QC"),
        "face card",
    ),
}


@pytest.mark.parametrize("case", BAD.values(), ids=BAD.keys())
def test_illegal_actions_raise_name_the_legal_ones_and_change_nothing(case, mixed):
    setup, action, message = case
    state = setup(mixed())
    before = dict(state.__dict__)
    legal = state.legal_actions()
    with pytest.raises(IllegalAction, match=message) as raised:
        state.apply(action)
    assert isinstance(raised.value, ValueError)
    assert raised.value.legal == tuple(legal) and "legal:" in str(raised.value)
    assert state.__dict__ == before


def test_acting_out_of_turn(mixed):
    state = mixed()
    with pytest.raises(IllegalAction, match=r"it is seat 0's turn .* not seat 2's"):
        state.apply(Pass(), player=2)
    assert state.apply(Pass(), player=np.int64(0)).to_play == 1
    with pytest.raises(ValueError, match="player must be a seat 0–3"):
        state.apply(Pass(), player=7)


def test_observations_show_what_the_table_sees(mixed):
    state = apply_all(mixed(), Start("AC", "H"), Offer("2D"))
    seen_by_2 = state.observation(2)
    assert seen_by_2.face_up == "AC" and seen_by_2.called == "H" and seen_by_2.starter == 0
    assert seen_by_2.offered == (False, True, False, False)
    assert seen_by_2.offers == (None,) * 4 and seen_by_2.own_offer is None
    assert state.observation(1).own_offer == "2D"
    state = apply_all(state, Offer("7D"), Offer("4S"))
    assert state.observation(3).offers == (None, "2D", "7D", "4S")
    state = state.apply(Take("7D"))
    known = state.observation(1).known_holdings()
    assert known[0] == {"7D"} and known[2] == {"AC"} and known[1] == {"2D"}
    state = state.apply(Kitty("2C"))
    assert state.observation(0).own_kitty == "2C" and state.observation(1).own_kitty is None
    assert state.observation(1).kitty_placed == (True, False, False, False)
    with pytest.raises(ValueError, match="player must be a seat 0–3"):
        state.observation(4)
    assert state.observation(np.int8(1)).player == 1


def test_the_log_shows_each_seat_only_its_own_view(mixed):
    state = apply_all(mixed(), Start("AC", "H"), Offer("2D"), Offer("7D"))
    mine = state.log_for(1)
    assert "seat 1 offers 2D face down" in mine and "seat 2 puts an offer face down" in mine
    assert not any("7D" in line for line in mine)
    assert any(line.startswith("seat 1 is dealt") for line in mine)
    assert not any(line.startswith("seat 2 is dealt") for line in mine)
    full = state.log_for(None)
    assert "seat 2 offers 7D face down" in full and sum("is dealt" in x for x in full) == 4
    state = apply_all(state, Offer("4S"), Take("7D"))
    assert "offers revealed: seat 1 2D, seat 2 7D, seat 3 4S" in state.log_for(0)
    assert "seat 0 was offered no heart and chooses 7D: seat 2 gets AC" in state.log_for(3)
    with pytest.raises(ValueError, match="player must be a seat"):
        state.log_for(-1)


def test_a_tie_in_the_last_deal_loses_the_kitty():
    """One-deal games until the most tricks are tied: every kitty point is lost, nobody scores
    and all four share the win."""
    agent = RandomAgent()
    for seed in range(200):
        state = new_game(Rules(deals=1), seed=seed)
        rng = generator(seed)
        while not state.is_over:
            state = state.apply(agent(None, state.legal_actions(), rng))
        record = state.history[0]
        if record.kitty_winner is None:
            break
    else:
        pytest.fail("no tie in 200 one-deal games")
    assert (
        record.lost
        == record.kitty_points
        == sum(int(c[:-1].replace("A", "1")) for c in record.kitty)
    )
    assert state.scores == (0, 0, 0, 0) and state.result().winners == (0, 1, 2, 3)
    assert state.result().lost == record.lost
    assert "points are lost" in state.log_for(None)[-2]


def test_a_tie_carries_the_kitty_into_the_next_deal():
    agent = RandomAgent()
    state = new_game(Rules(deals=4), seed=11)
    rng = generator(11)
    while not state.is_over:
        state = state.apply(agent(None, state.legal_actions(), rng))
    history = state.history
    ties = [r for r in history[:-1] if r.kitty_winner is None]
    assert ties, "seed 11 has a carried kitty (pinned)"
    for before, after in itertools.pairwise(history):
        expected = before.at_stake if before.kitty_winner is None else 0
        assert after.carried_in == before.carried_out == expected


def test_result_before_the_end_and_a_finished_game(mixed):
    with pytest.raises(ValueError, match="the game is not over: deal 1 of 13"):
        mixed().result()
    with pytest.raises(TypeError, match="rules must be an auction_house Rules"):
        new_game("default", seed=1)


def test_new_game_names_another_games_rules():
    from workbench.games import rubbish

    with pytest.raises(TypeError, match=r"rules must be an auction_house Rules or None, got Rules "
                       r"from workbench\.games\.rubbish\.rules"):  # fmt: skip
        new_game(rubbish.Rules(), seed=1)  # was: "got Rules", which Rules not said


def _dealt(**changes):
    """The seeded deal of seed 5 with ``changes``, for ``new_game(deal=...)``."""
    return new_game(seed=5).chance._replace(**changes)


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"first_dealer": True}, TypeError, r"deal.first_dealer must be a seat 0–3, got True"),
        ({"first_dealer": 1.0}, TypeError, r"deal.first_dealer must be a seat 0–3, got 1.0"),
        ({"trump_cards": None}, ValueError, r"deal.trump_cards must be the 12 trump cards"),
        ({"trump_cards": tuple(range(12))}, ValueError, r"deal.trump_cards must be the 12"),
        ({"shuffles": None}, ValueError, r"must hold 13 orderings .*, got None"),
        ({"shuffles": (1,) * 13}, TypeError, r"must hold 13 orderings .*, got 1 \(int\)"),
        ({"shuffles": ((0.0,) * 40,) * 13}, TypeError, r"13 orderings .*, got 0.0 \(float\)"),
        ({"shuffles": ((1, 2),) * 13}, ValueError, r"deal 1's is not one: \(1, 2\)"),
    ],
)
def test_a_deal_given_by_hand_is_checked_before_play(changes, error, message):
    # was: accepted, then a TypeError or AttributeError from inside the engine, or a bare one
    with pytest.raises(error, match=message):
        new_game(seed=1, deal=_dealt(**changes))


def test_a_deal_of_numpy_integers_plays_as_plain_ints():
    dealt = _dealt()
    given = dealt._replace(shuffles=np.array(dealt.shuffles), first_dealer=np.int64(dealt[0]),
                           trump_cards=np.array(dealt.trump_cards))  # fmt: skip
    state = new_game(seed=1, deal=given)  # was: an AttributeError ('bit_length') when dealing
    assert state.chance == dealt and type(state.chance.shuffles[0][0]) is int
    assert type(state.chance.trump_cards[0]) is str
    assert state.hand(0) == new_game(seed=5).hand(0)


def test_same_seed_same_game():
    a, b = new_game(seed=5), new_game(seed=5)
    assert a.hand(2) == b.hand(2) and a.chance == b.chance
    assert new_game(Rules(first_dealer=2), seed=5).dealer == 2
    assert new_game(seed=5).chance.shuffles == new_game(Rules(deals=3), seed=5).chance.shuffles


def test_cards_in_any_case_are_accepted_and_stored_canonically(mixed):
    state = mixed().apply(Start("ac", "h")).apply(Offer("2d"))
    assert state.observation(1).own_offer == "2D" and state.observation(2).face_up == "AC"
    with pytest.raises(IllegalAction, match="a card is a string"):
        state.apply(Offer(7))
