"""Card notation, the deck's points and the trick rule (the rulebook: 10 high, Ace low)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench.games.auction_house import DECK, TRUMP_DECK, parse_cards, points_of, trick_winner
from workbench.games.auction_house.cards import card_index, rank_of, suit_of, trump_suit_of
from workbench.games.auction_house.policies import count_cards, select_card


def test_the_decks():
    assert len(DECK) == 40 and len(set(DECK)) == 40
    assert len(TRUMP_DECK) == 12 and {c[-1] for c in TRUMP_DECK} == set("CDHS")
    assert points_of(" ".join(DECK)) == 220  # the rulebook: face value, Ace 1
    assert points_of("10H") == 10 and points_of("AS") == 1 and points_of("7c") == 7


@pytest.mark.parametrize(
    "text, expected",
    [("10H", "10H"), ("ah", "AH"), (" 2c ", "2C"), ("9S", "9S"), ("10d", "10D")],
)
def test_parsing_accepts_notation_in_any_case(text, expected):
    assert parse_cards([text]) == (expected,)


@pytest.mark.parametrize(
    "text, message",
    [
        ("KH", "face card: J, Q and K form the trump deck"),
        ("QS", "face card"),
        ("1H", "the Ace is written A"),
        ("11H", "bad card '11H'"),
        ("10X", "bad card"),
        ("", "bad card"),
        ("H10", "bad card"),
    ],
)
def test_bad_cards_say_what_a_card_is(text, message):
    with pytest.raises(ValueError, match=message):
        card_index(text)


def test_a_card_must_be_a_string():
    with pytest.raises(TypeError, match="a card is a string"):
        card_index(10)


def test_parse_cards_reads_a_string_or_a_list():
    assert parse_cards("10H 3c, AS") == ("10H", "3C", "AS")
    assert rank_of("10H") == 10 and rank_of("AD") == 1 and suit_of("5S") == "S"
    assert trump_suit_of("qh") == "H" and trump_suit_of("S") == "S"
    with pytest.raises(ValueError, match="trump deck holds J, Q and K"):
        trump_suit_of("10H")


# Tricks in play order -> index of the winner (hand-checked against the rulebook's rule).
TRICKS = [
    (["5H", "9H", "AH", "10H"], None, 3),  # highest of the suit led; 10 beats 9
    (["5H", "9H", "AH", "10H"], "S", 3),  # no trump played
    (["5H", "2S", "10H", "9H"], "S", 1),  # a low trump beats the 10 led
    (["5H", "2S", "3S", "10H"], "S", 2),  # the higher trump
    (["5H", "10C", "9D", "AH"], "S", 0),  # off-suit cards never win; A is low but follows
    (["AH", "2H", "10C", "3S"], None, 1),  # no trump (the 13th deal): 2 beats A
    (["AS", "10H", "10D", "10C"], "S", 0),  # the Ace of trump led wins
    (["3D"], "H", 0),
]


@pytest.mark.parametrize("cards, trump, winner", TRICKS)
def test_trick_winner(cards, trump, winner):
    assert trick_winner(cards, trump) == winner


def test_trick_winner_rejects_bad_tricks():
    with pytest.raises(ValueError, match="same card twice"):
        trick_winner(["5H", "5H"], None)
    with pytest.raises(ValueError, match="non-empty sequence"):
        trick_winner([], "H")
    with pytest.raises(ValueError, match="face card"):
        trick_winner(["KH", "5H"], None)
    with pytest.raises(ValueError, match="bad suit"):
        trick_winner(["5H"], "X")


def test_select_card_picks_the_kth_card_of_each_mask():
    rng = np.random.default_rng(5)
    for k in (0, 1, 5, 10, 40):
        cards = sorted(int(c) for c in rng.choice(40, size=k, replace=False))
        mask = sum(1 << c for c in cards)
        assert [select_card(mask, n) for n in range(41)] == cards + [-1] * (41 - k)
        assert count_cards(mask) == k


def test_trick_winner_agrees_with_a_brute_force_ranking():
    """Every ordered 3-card trick from a small pool, both ways of deciding."""
    pool = ["AH", "5H", "10H", "2S", "9S", "4C"]
    for cards in itertools.permutations(pool, 3):
        for trump in (None, "S", "H", "D"):
            led = cards[0][-1]

            def strength(card, trump=trump, led=led):
                if trump and card[-1] == trump:
                    return 100 + rank_of(card)
                return rank_of(card) if card[-1] == led else -1

            assert trick_winner(list(cards), trump) == max(
                range(3), key=lambda i: strength(cards[i])
            )
