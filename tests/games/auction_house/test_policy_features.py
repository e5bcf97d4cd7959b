"""The fitted policy's features beyond the heuristic (``policies``: ``block_weight``,
``kitty_strength``, ``lead_trumps``, ``kitty_standing``, ``block_standing``): each changes the
decision it names, as its docstring says, and at the heuristic's values changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import SUIT_SIZE
from workbench.games.auction_house.layout import DEALER, KITTY, PLAY, SCORES, STEP, TRICK, WON
from workbench.games.auction_house.policies import (
    FITTED,
    FITTED_DEFAULTS,
    FITTED_PARAMETERS,
    HEURISTIC,
    STANDING_POINTS,
    behind,
    choose,
    high_cards,
    standing,
    trick_race,
    trick_winner,
)
from workbench.kit.seeding import generator

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def card(suit: int, face: int) -> int:
    """A card index by suit and face value (1 = ace, 10 = ten)."""
    return suit * SUIT_SIZE + face - 1


def mask(*cards: int) -> int:
    return sum(1 << c for c in cards)


def vector(**changes: float) -> np.ndarray:
    """The heuristic's full parameter vector with ``changes``, as ``choose`` reads it."""
    values = dict(zip(FITTED_PARAMETERS, FITTED_DEFAULTS, strict=True)) | changes
    return np.array([[values[name] for name in FITTED_PARAMETERS]], np.float64)


def empty_row() -> np.ndarray:
    row = np.zeros(layout.ROW, np.int64)
    row[TRICK : TRICK + 4] = -1
    return row


def test_high_cards_counts_eights_nines_and_tens_as_a_brute_force_does():
    rng = generator(11)
    for _ in range(200):
        hand = rng.choice(40, size=int(rng.integers(0, 11)), replace=False)
        expected = sum(1 for c in hand if c % SUIT_SIZE + 1 >= 8)
        assert high_cards(mask(*(int(c) for c in hand))) == expected


def test_trick_winner_and_race_read_the_seat_ahead_and_its_tricks():
    row = empty_row()
    row[WON : WON + 4] = [3, 0, 1, 2]
    # leader seat 2 (position 0); seat 0 acts in position 2; the best card is at position 1,
    # seat 3's: 2 tricks against seat 0's 3
    assert trick_winner(0, 2, 1) == 3
    assert trick_race(row, 3, 0) == -1
    assert trick_winner(1, 3, 0) == 2  # seat 1 in position 3: leader 2 wins (1 - 0)
    assert trick_race(row, 2, 1) == 1
    assert trick_winner(1, 3, 2) == 0  # seat 0 wins the trick so far (3 - 0)
    assert trick_race(row, 0, 1) == 3


def _follow(
    kind: int, params: np.ndarray, won: list[int], scores: tuple[int, ...] = (0, 0, 0, 0)
) -> int:
    """Seat 3, second to play after seat 2 led the 5 of clubs, holding the ace and 7 of clubs
    (the 10 of clubs is out, so the 7 is not sure to win) and the 2 of hearts."""
    row = empty_row()
    row[layout.LEADER] = 2
    row[WON : WON + 4] = won
    row[SCORES : SCORES + 4] = scores
    row[TRICK] = card(CLUBS, 5)
    hand = mask(card(CLUBS, 1), card(CLUBS, 7), card(HEARTS, 2))
    legal = mask(card(CLUBS, 1), card(CLUBS, 7))
    played = mask(card(CLUBS, 5))
    _, chosen, _ = choose(kind, params, 0, PLAY, 1, hand, legal, SPADES, -1, -1, row, played, 0.0)
    return chosen


@pytest.mark.parametrize(
    ("weight", "won", "expected"),
    [
        (0.0, [0, 0, 4, 0], card(CLUBS, 1)),  # never blocks: the heuristic's lowest card
        (0.5, [0, 0, 1, 1], card(CLUBS, 7)),  # the leader level with it: cover (0.5 x 2 >= 1)
        (0.5, [0, 0, 0, 1], card(CLUBS, 1)),  # the leader one behind: 0.5 x 1 < 1, duck
        (1.0, [0, 0, 0, 1], card(CLUBS, 7)),  # 1 x 1 >= 1: cover
        (0.3, [0, 0, 3, 1], card(CLUBS, 7)),  # the leader two ahead: 0.3 x 4 >= 1
    ],
)
def test_block_weight_covers_when_the_trick_winner_is_level_or_ahead(weight, won, expected):
    assert _follow(FITTED, vector(block_weight=weight), won) == expected
    assert _follow(HEURISTIC, vector(block_weight=weight), won) == card(CLUBS, 1)


def test_lead_trumps_leads_a_low_trump_holding_enough_of_them():
    # no side master (the 10s are out), no master trump: the heuristic leads low from its
    # longest side suit; with lead_trumps 3 and three spades it leads its lowest spade
    hand = mask(card(SPADES, 3), card(SPADES, 6), card(SPADES, 8), card(CLUBS, 2),
                card(CLUBS, 4), card(CLUBS, 9), card(CLUBS, 6), card(HEARTS, 5))  # fmt: skip
    row = empty_row()

    def lead(params: np.ndarray) -> int:
        return choose(FITTED, params, 0, PLAY, 0, hand, hand, SPADES, -1, -1, row, 0, 0.0)[1]

    assert lead(vector()) == card(CLUBS, 2)
    assert lead(vector(lead_trumps=3.0)) == card(SPADES, 3)
    assert lead(vector(lead_trumps=4.0)) == card(CLUBS, 2)


def test_kitty_strength_moves_the_kitty_card_with_the_hands_high_cards():
    # trump unknown; kitty_rank -2 + strength x (high cards - 3): below -1 the card's value
    # falls with its rank (the highest goes in), above it the lowest of a suit
    strong = mask(card(CLUBS, 9), card(CLUBS, 10), card(HEARTS, 8), card(HEARTS, 9),
                  card(DIAMONDS, 2), card(DIAMONDS, 7))  # fmt: skip  # 4 high cards
    weak = mask(card(CLUBS, 2), card(CLUBS, 3), card(HEARTS, 4), card(HEARTS, 5),
                card(DIAMONDS, 2), card(DIAMONDS, 7))  # fmt: skip  # none
    row = empty_row()

    def kitty(hand: int, **changes: float) -> int:
        params = vector(**changes)
        return choose(FITTED, params, 0, KITTY, 0, hand, hand, -1, -1, -1, row, 0, 0.0)[1]

    assert kitty(strong) == card(DIAMONDS, 2)
    assert kitty(weak) == card(CLUBS, 2)
    # strong: -2 + 1.5 x 1 = -0.5 (lowest); weak: -2 + 1.5 x -3 = -6.5 (highest of a suit)
    assert kitty(strong, kitty_rank=-2.0, kitty_strength=1.5) == card(DIAMONDS, 2)
    # every suit two long: the highest card of the hand, the 7 of diamonds
    assert kitty(weak, kitty_rank=-2.0, kitty_strength=1.5) == card(DIAMONDS, 7)


@pytest.mark.parametrize(
    ("scores", "me", "seat", "expected_standing", "expected_behind"),
    [
        ((0, 0, 0, 0), 0, 1, 0.0, 0.0),
        ((10, 25, 40, 0), 0, 2, 1.0, 1.0),  # 30 points: one unit
        ((10, 25, 40, 0), 0, 1, 0.5, 1.0),
        ((40, 25, 10, 0), 0, 1, -0.5, -0.5),  # ahead of the best other by 15
        ((100, 0, 0, 0), 0, 1, -1.0, -1.0),  # clipped
        ((0, 100, 0, 0), 2, 1, 1.0, 1.0),
    ],
)
def test_standing_and_behind_count_score_gaps_in_kitties_clipped(
    scores, me, seat, expected_standing, expected_behind
):
    row = empty_row()
    row[SCORES : SCORES + 4] = scores
    assert STANDING_POINTS == 30.0
    assert standing(row, seat, me) == pytest.approx(expected_standing)
    assert behind(row, me) == pytest.approx(expected_behind)


@pytest.mark.parametrize(
    ("weight", "winner_score", "expected"),
    [
        (0.0, 60, card(CLUBS, 1)),  # never: the heuristic's lowest card
        (1.0, 30, card(CLUBS, 7)),  # the trick winner a kitty ahead in the game: 1 x 1 >= 1
        (1.0, 15, card(CLUBS, 1)),  # half a kitty: 0.5 < 1, duck
        (1.0, 0, card(CLUBS, 1)),  # level: nothing to stop
        (-1.0, -30, card(CLUBS, 7)),  # a negative weight stops a seat behind in the game
    ],
)
def test_block_standing_covers_when_the_trick_winner_leads_the_game(weight, winner_score, expected):
    # seat 2 (the trick winner so far) scores winner_score, seat 3 (to play) 0; tricks level, so
    # block_weight 0 adds nothing
    scores = (0, 0, winner_score, 0)
    params = vector(block_standing=weight)
    assert _follow(FITTED, params, [0, 0, 0, 0], scores) == expected
    assert _follow(HEURISTIC, params, [0, 0, 0, 0], scores) == card(CLUBS, 1)


@pytest.mark.parametrize(
    ("scores", "weight", "expected"),
    [
        ((0, 30, 0, 0), 0.0, card(CLUBS, 2)),  # no weight: the heuristic's card
        ((0, 30, 0, 0), -2.0, card(DIAMONDS, 7)),  # a kitty behind: -2 x 1, the highest card
        ((30, 0, 0, 0), -2.0, card(CLUBS, 2)),  # a kitty ahead: +2, the lowest
        ((0, 15, 0, 0), -2.0, card(CLUBS, 2)),  # half a kitty behind: -1, not below -1
        ((0, 30, 0, 0), 2.0, card(CLUBS, 2)),
    ],
)
def test_kitty_standing_moves_the_kitty_card_with_the_game_score(scores, weight, expected):
    # the kitty's actor is the seat left of the dealer plus the kitty cards already placed:
    # dealer 2, one placed -> seat 0; the weak hand of the kitty_strength test
    weak = mask(card(CLUBS, 2), card(CLUBS, 3), card(HEARTS, 4), card(HEARTS, 5),
                card(DIAMONDS, 2), card(DIAMONDS, 7))  # fmt: skip
    row = empty_row()
    row[DEALER], row[STEP] = 2, 1
    row[SCORES : SCORES + 4] = scores
    params = vector(kitty_standing=weight)
    assert choose(FITTED, params, 0, KITTY, 1, weak, weak, -1, -1, -1, row, 0, 0.0)[1] == expected
    heuristic = choose(HEURISTIC, params, 0, KITTY, 1, weak, weak, -1, -1, -1, row, 0, 0.0)[1]
    assert heuristic == card(CLUBS, 2)
