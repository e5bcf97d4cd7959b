"""The Auction House panel: each opponent's hand by suit against exact enumeration of every
consistent deal, the trump odds, the kitty so far and what the auction is worth, and the panel
driven through a table game."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from workbench.games.auction_house import HeuristicAgent, RandomAgent, Rules, new_game
from workbench.games.auction_house.cards import DECK, POINTS, SUIT_SIZE, SUITS
from workbench.games.auction_house.hidden import consistent_fillings, read_hidden
from workbench.games.auction_house.panel import (
    AUCTION_DEALS,
    auction_worth,
    expected_holdings,
    holdings_frame,
    knowledge,
    trump_lines,
)
from workbench.kit.seeding import generator
from workbench.play.table import table

TABLE = [HeuristicAgent(), RandomAgent(), HeuristicAgent(), RandomAgent()]


def _positions(seed: int, rules: Rules = Rules(deals=1)):  # noqa: B008 (frozen)
    """Every decision point of a seeded game of mixed heuristic and random seats."""
    state = new_game(rules, seed=seed)
    rng = generator(500 + seed)
    while state.to_play is not None:
        yield state
        seat = state.to_play
        state = state.apply(TABLE[seat](state.observation(seat), state.legal_actions(), rng))


def _brute_force(observation):
    """Expected cards of each suit in each other hand, and expected kitty points, averaged over
    every consistent filling (exact enumeration; offers and the trump card repeat each placement
    equally often, so they do not weigh)."""
    hidden = read_hidden(observation)
    fillings = list(consistent_fillings(observation))
    suits = [[Fraction(0)] * len(SUITS) for _ in hidden.seats]
    kitty = [Fraction(0)] * len(hidden.seats)
    for filling in fillings:
        for i, hand in enumerate(filling.hands):
            for card in range(len(DECK)):
                if hand >> card & 1:
                    suits[i][card // SUIT_SIZE] += Fraction(1, len(fillings))
            if filling.kitty[i] is not None:
                kitty[i] += Fraction(POINTS[filling.kitty[i]], len(fillings))
    return suits, kitty


def test_hands_by_suit_are_the_exact_means_over_every_consistent_deal():
    checked = 0
    for seed in range(4):
        for state in _positions(seed):
            observation = state.observation(state.to_play)
            hidden = read_hidden(observation)
            size = len(hidden.unseen) + sum(map(len, hidden.known))
            if state.phase not in ("play", "kitty") or size > 11:
                continue
            suits, kitty = _brute_force(observation)
            holdings = expected_holdings(observation)
            assert [list(h.suits) for h in holdings] == suits
            assert [h.kitty_points for h in holdings] == [
                k if placed else None for k, placed in zip(kitty, hidden.has_kitty, strict=True)
            ]
            assert [sum(h.suits) for h in holdings] == list(hidden.room)
            checked += 1
    assert checked >= 30


def test_a_seat_void_in_a_suit_holds_none_of_it_and_known_cards_count():
    for state in _positions(2):
        observation = state.observation(state.to_play)
        if state.phase != "play" or not any(observation.voids()):
            continue
        for holding in expected_holdings(observation):
            for suit in observation.voids()[holding.seat]:
                assert holding.suits[SUITS.index(suit)] == 0
        return
    pytest.fail("no position with a void shown")


def test_the_first_decision_sees_every_hand_alike():
    observation = new_game(seed=4).observation(0)
    unseen = Counter(c[-1] for c in DECK if c not in observation.hand)
    frame = holdings_frame(expected_holdings(observation))
    # 30 unseen cards over three hands of ten: each hand expects a third of each suit.
    for suit, name in zip(SUITS, ("clubs", "diamonds", "hearts", "spades"), strict=True):
        values = frame.filter(frame["suit"] == name)["exact"].to_list()
        assert values == [str(Fraction(unseen[suit], 3))] * 3


def test_trump_odds_lines():
    state = new_game(seed=1)
    observation = state.observation(state.to_play)
    assert not observation.trump_shown
    assert trump_lines(observation) == [
        "This deal's face-down trump card: clubs 1/4, diamonds 1/4, hearts 1/4, spades 1/4 "
        "(exact)",
        "Deal 2: as this deal's, until its card is turned.",
    ]
    # once turned: this deal's trump, and the next deal's odds without the turned card (2/11)
    while not state.trump_shown:
        seat = state.to_play
        state = state.apply(TABLE[seat](state.observation(seat), state.legal_actions(),
                                        generator(0)))  # fmt: skip
    observation = state.observation(state.to_play)
    name = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[observation.trump]
    lines = trump_lines(observation)
    assert observation.trump_card in lines[0] and name in lines[0]
    assert f"{name} 2/11" in lines[1] and lines[1].count("3/11") == 3


def test_what_the_auction_is_worth_is_the_package_estimate():
    frame = auction_worth(Rules())
    assert frame["role"].to_list() == ["starter", "seller", "offerer"]
    assert int(frame["deals"][0]) == AUCTION_DEALS
    assert ((frame["win_change_low"] <= frame["win_change"])
            & (frame["win_change"] <= frame["win_change_high"])).all()  # fmt: skip
    assert auction_worth(Rules()) is frame  # once per rule set


def test_the_panel_follows_a_table_game():
    t = table("auction_house", seed=3, opponents="fitted")
    panel = t.panel
    assert panel.holdings is not None and panel.holdings.height == 12  # 3 seats x 4 suits
    assert "wb-panel-holdings" in panel.view.value and "Trump odds" in panel.view.value
    assert "What the auction is worth" in panel.view.value
    observation = t.session.observation()
    assert knowledge(observation).startswith(f"deal 1, {observation.phase}; hand ")
    before = panel.view.value
    t.autoplay("fitted", 3)
    assert panel.view.value != before
    t.autoplay("fitted")
    assert t.session.is_over and panel.holdings is None
    assert "What the auction is worth" in panel.view.value
