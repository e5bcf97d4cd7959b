"""Auction House cards: the 40-card playing deck (A–10 in four suits) and the 12-card trump deck
(J, Q, K), in the notation people read ("10H", "AS", "QD"), and the trick rule.

Inside the engines a playing card is an index ``suit * 10 + rank - 1`` (0–39; rank 1 is the
Ace, 10 the Ten, which is also its point value), and a set of cards is a 40-bit mask: bit
``index`` set when the card is in the set. Each suit is a 10-bit field of the mask, so the
lookup tables below answer "highest / lowest / how many in this suit" with one look-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

SUITS = ("C", "D", "H", "S")
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")  # rank 1 (low) .. 10 (high)
FACE_RANKS = ("J", "Q", "K")
DECK_SIZE = 40
SUIT_SIZE = 10

#: Every playing card, in index order (clubs A..10, diamonds, hearts, spades).
DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANK_NAMES)
#: The trump deck: the twelve face cards. Only a trump card's suit matters.
TRUMP_DECK = tuple(f"{face}{suit}" for suit in SUITS for face in FACE_RANKS)
#: Points of every card: its face value, the Ace 1 (220 in the deck).
POINTS = tuple(rank for _ in SUITS for rank in range(1, SUIT_SIZE + 1))

#: Card notation -> index, for the deck's own notation (``card_index`` reads any).
INDEX = {name: index for index, name in enumerate(DECK)}
_CARD_FORMAT = "a rank A, 2–10 and a suit letter C, D, H or S, like '10H' or 'AS'"


def card_index(card: str) -> int:
    """The index (0–39) of a playing card written like "10H"; a clear error for anything else."""
    if not isinstance(card, str):
        raise TypeError(
            f"a card is a string ({_CARD_FORMAT}), got {card!r} ({type(card).__name__})"
        )
    text = card.strip().upper()
    index = INDEX.get(text)
    if index is not None:
        return index
    rank, suit = text[:-1], text[-1:]
    if rank in FACE_RANKS and suit in SUITS:
        raise ValueError(
            f"{card!r} is a face card: J, Q and K form the trump deck and are never played; "
            f"a playing card is {_CARD_FORMAT}"
        )
    if rank == "1" and suit in SUITS:
        raise ValueError(f"bad card {card!r}: the Ace is written A (e.g. 'A{suit}')")
    raise ValueError(f"bad card {card!r}: a playing card is {_CARD_FORMAT}")


def parse_cards(cards: str | Iterable[str]) -> tuple[str, ...]:
    """Cards in canonical notation from "10H 3c AS" or an iterable of card strings."""
    items = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    return tuple(DECK[card_index(item)] for item in items)


def suit_index(suit: str) -> int:
    """0–3 for a suit letter C/D/H/S (any case); a clear error otherwise."""
    if isinstance(suit, str) and suit.strip().upper() in SUITS:
        return SUITS.index(suit.strip().upper())
    raise ValueError(f"bad suit {suit!r}: a suit is one of C, D, H, S")


def trump_suit_of(card: str) -> str:
    """The suit letter of a trump-deck card ("QH" -> "H"); a suit letter is accepted as is."""
    if not isinstance(card, str):
        raise TypeError(f"a trump card is a string like 'QH' or a suit letter, got {card!r}")
    text = card.strip().upper()
    if text in SUITS:
        return text
    if text in TRUMP_DECK:
        return text[-1]
    raise ValueError(
        f"bad trump card {card!r}: the trump deck holds J, Q and K of C, D, H, S (like 'QH'); "
        "a suit letter alone is accepted too"
    )


def rank_of(card: str) -> int:
    """Rank 1 (Ace, low) to 10 (high) of a playing card; also its points."""
    return card_index(card) % SUIT_SIZE + 1


def suit_of(card: str) -> str:
    """The suit letter of a playing card."""
    return SUITS[card_index(card) // SUIT_SIZE]


def points_of(cards: str | Iterable[str]) -> int:
    """Points of one card or of several (face value, the Ace 1)."""
    if isinstance(cards, str) and " " not in cards.strip() and "," not in cards:
        return POINTS[card_index(cards)]
    return sum(POINTS[card_index(card)] for card in parse_cards(cards))


def winning_position(cards: Sequence[int], trump: int | None) -> int:
    """Position (in play order) of the winner of a trick of card indices: the highest trump,
    else the highest card of the suit led."""
    led = cards[0] // SUIT_SIZE
    best, best_key = 0, -1
    for position, card in enumerate(cards):
        suit = card // SUIT_SIZE
        if trump is not None and suit == trump:
            key = 100 + card % SUIT_SIZE
        elif suit == led:
            key = card % SUIT_SIZE
        else:
            continue
        if key > best_key:
            best, best_key = position, key
    return best


def trick_winner(cards: Sequence[str], trump: str | None) -> int:
    """Index of the winning card of a trick given in play order (``trump`` a suit letter, or
    None when there is no trump, as in the last deal)."""
    if isinstance(cards, str) or not isinstance(cards, Sequence) or not cards:
        raise ValueError(
            f"cards must be a non-empty sequence of cards in play order, got {cards!r}"
        )
    indices = [card_index(card) for card in cards]
    if len(set(indices)) != len(indices):
        raise ValueError(f"a trick cannot hold the same card twice: {list(cards)!r}")
    trump_index = None if trump is None else suit_index(trump)
    return winning_position(indices, trump_index)


# -- bit masks ----------------------------------------------------------------------------------

FULL_MASK = (1 << DECK_SIZE) - 1
_FIELDS = np.arange(1 << SUIT_SIZE)
#: Over a 10-bit suit field: how many cards, the highest and lowest rank index (0–9; -1: none).
FIELD_COUNT = np.array([bin(f).count("1") for f in _FIELDS], np.int64)
FIELD_HIGH = np.array([f.bit_length() - 1 for f in _FIELDS.tolist()], np.int64)
FIELD_LOW = np.array([(f & -f).bit_length() - 1 if f else -1 for f in _FIELDS.tolist()], np.int64)
#: FIELD_SELECT[field, k]: rank index of the k-th lowest card in the field (-1 past the end).
FIELD_SELECT = np.full((1 << SUIT_SIZE, SUIT_SIZE), -1, np.int64)
for _field in _FIELDS.tolist():
    _ranks = [r for r in range(SUIT_SIZE) if _field >> r & 1]
    FIELD_SELECT[_field, : len(_ranks)] = _ranks
#: ABOVE[r]: the field bits of ranks strictly above rank index r (r = -1 gives every rank).
ABOVE = np.array([((1 << SUIT_SIZE) - 1) & ~((1 << (r + 1)) - 1) for r in range(-1, SUIT_SIZE)])


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
