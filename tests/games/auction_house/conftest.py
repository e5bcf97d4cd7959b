"""Shared set-ups for the Auction House tests: deals whose hands are known by construction."""

from __future__ import annotations

import pytest

from workbench.games.auction_house import TRUMP_DECK, Deal, Rules, State, new_game
from workbench.games.auction_house.cards import card_index


def hands_deal(
    hands: list[str], dealer: int = 3, trump_cards: tuple[str, ...] = TRUMP_DECK
) -> Deal:
    """A Deal giving seat s the ten cards ``hands[s]`` (space-separated) in every deal.

    Cards go one at a time clockwise from the dealer's left: shuffle position i goes to seat
    (dealer + 1 + i) % 4."""
    cards = [[card_index(c) for c in hand.split()] for hand in hands]
    assert all(len(hand) == 10 for hand in cards)
    shuffle = tuple(cards[(dealer + 1 + i) % 4][i // 4] for i in range(40))
    return Deal(dealer, tuple(trump_cards), (shuffle,) * 13)


def suit_hand(suit: str, ranks: str = "A 2 3 4 5 6 7 8 9 10") -> str:
    return " ".join(f"{rank}{suit}" for rank in ranks.split())


#: Seat s holds every card of suit s (clubs, diamonds, hearts, spades).
SUITED = [suit_hand(s) for s in "CDHS"]
#: Seat 0 clubs; seats 1 and 2 share diamonds and hearts; seat 3 spades.
MIXED = [
    suit_hand("C"),
    suit_hand("D", "A 2 3 4 5") + " " + suit_hand("H", "A 2 3 4 5"),
    suit_hand("D", "6 7 8 9 10") + " " + suit_hand("H", "6 7 8 9 10"),
    suit_hand("S"),
]


@pytest.fixture
def suited():
    """A factory: a new game of the SUITED hands (``suited(rules, dealer=...)``)."""

    def make(rules: Rules | None = None, **deal: object) -> State:
        return new_game(rules, seed=0, deal=hands_deal(SUITED, **deal))

    return make


@pytest.fixture
def mixed():
    """A factory: a new game of the MIXED hands (``mixed(rules, dealer=...)``)."""

    def make(rules: Rules | None = None, **deal: object) -> State:
        return new_game(rules, seed=0, deal=hands_deal(MIXED, **deal))

    return make
