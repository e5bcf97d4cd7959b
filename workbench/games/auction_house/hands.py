"""Hands as 40-bit masks (see ``cards``): the cards a mask holds, as indices or in notation, and
the four hands one shuffle deals."""

from __future__ import annotations

from workbench.games.auction_house.cards import DECK, SUIT_SIZE, SUITS
from workbench.games.auction_house.rules import PLAYERS


def card_bits(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending: one step per card held (the step engine's hot
    path)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _suit_names(suit: int) -> tuple[tuple[str, ...], ...]:
    """For each 10-bit pattern of one suit's cards, their names in rank order."""
    return tuple(
        tuple(DECK[suit * SUIT_SIZE + rank] for rank in range(SUIT_SIZE) if pattern >> rank & 1)
        for pattern in range(1 << SUIT_SIZE)
    )


#: Names by suit and 10-bit pattern: a hand's names are four look-ups (4,096 short tuples).
_NAMES = tuple(_suit_names(suit) for suit in range(len(SUITS)))
_SUIT_MASK = (1 << SUIT_SIZE) - 1


def card_names(mask: int) -> tuple[str, ...]:
    """The cards in ``mask`` in notation, in index order (suit C, D, H, S, then rank)."""
    mask = int(mask)
    clubs, diamonds, hearts, spades = _NAMES
    return (
        clubs[mask & _SUIT_MASK]
        + diamonds[mask >> SUIT_SIZE & _SUIT_MASK]
        + hearts[mask >> 2 * SUIT_SIZE & _SUIT_MASK]
        + spades[mask >> 3 * SUIT_SIZE & _SUIT_MASK]
    )


def dealt_hands(shuffle: tuple[int, ...], dealer: int) -> tuple[int, ...]:
    """Each seat's hand when ``dealer`` deals ``shuffle`` one card at a time from its left."""
    hands = [0] * PLAYERS
    for position, card in enumerate(shuffle):
        hands[(dealer + 1 + position) % PLAYERS] |= 1 << card
    return tuple(hands)
