"""Hands as 40-bit masks (see ``cards``): the cards a mask holds, as indices or in notation, and
the four hands one shuffle deals."""

from __future__ import annotations

from workbench.games.auction_house.cards import DECK
from workbench.games.auction_house.rules import PLAYERS


def card_bits(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending: one step per card held (the step engine's hot
    path; ``cards.cards_of`` reads every bit, and takes numpy integers too)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_names(mask: int) -> tuple[str, ...]:
    """The cards in ``mask`` in notation, in index order (suit C, D, H, S, then rank)."""
    return tuple(DECK[i] for i in card_bits(mask))


def dealt_hands(shuffle: tuple[int, ...], dealer: int) -> tuple[int, ...]:
    """Each seat's hand when ``dealer`` deals ``shuffle`` one card at a time from its left."""
    hands = [0] * PLAYERS
    for position, card in enumerate(shuffle):
        hands[(dealer + 1 + position) % PLAYERS] |= 1 << card
    return tuple(hands)
