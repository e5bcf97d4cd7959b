"""The compiled agents' policies: one numba function, ``choose``, that every engine calls.

A policy is an integer ``kind`` (``RANDOM``, ``HEURISTIC``) plus a float64 parameter vector,
so a fitted agent is the same parametrised policy with other numbers. The compiled engine
(``compiled.py``) calls ``choose`` inside its loop; an agent's step-by-step call builds the same
inputs from its observation and calls it too, so both engines play one policy.

The inputs are what the acting seat may know: its hand, the cards it may choose now
(``legal``), trump (-1 while face down or in a deal without one), the auction's face-up card
and called suit, the offers (-1 until revealed) and the trick so far by position (read from
the position's row), the cards played this deal, and a uniform ``u`` in [0, 1) (the engine's
random number for this decision).

``HEURISTIC_PARAMETERS`` names the heuristic's parameter vector, in order (defaults today's):

- ``give_rank`` (3): start an auction only when the card it would put up ranks at most this.
- ``long_suit`` (4): with trump unknown, the suit it calls must hold at least this many cards.
- ``trade_rank`` (7): offer a card of the called suit (to be taken) when the face-up card
  ranks at least this (11: never).
"""

from __future__ import annotations

import numba
import numpy as np

from workbench.games.auction_house.cards import (
    ABOVE,
    FIELD_COUNT,
    FIELD_HIGH,
    FIELD_LOW,
    FIELD_SELECT,
    FULL_MASK,
    SUIT_SIZE,
)
from workbench.games.auction_house.layout import AUCTION, OFFER, PLAY, TAKE, TRICK
from workbench.games.auction_house.layout import OFFERS as OFFER_COLUMN

#: Policy kinds.
RANDOM, HEURISTIC = 0, 1
KIND_NAMES = ("random", "heuristic")
HEURISTIC_PARAMETERS = ("give_rank", "long_suit", "trade_rank")
HEURISTIC_DEFAULTS = (3.0, 4.0, 7.0)
#: Parameter vectors are this long for every kind (unused entries are 0).
PARAMETERS = len(HEURISTIC_PARAMETERS)
BIG = 10**6
FIELD = (1 << SUIT_SIZE) - 1

_FULL = np.int64(FULL_MASK)


@numba.njit(cache=True, inline="always")
def suit_field(mask: int, suit: int) -> int:
    """The 10-bit field of ``suit`` in a card mask."""
    return (mask >> (SUIT_SIZE * suit)) & FIELD


@numba.njit(cache=True, inline="always")
def count_cards(mask: int) -> int:
    """How many cards a mask holds."""
    total = 0
    for suit in range(4):
        total += FIELD_COUNT[suit_field(mask, suit)]
    return total


@numba.njit(cache=True, inline="always")
def select_card(mask: int, k: int) -> int:
    """The k-th (0-based, ascending) card of a mask; -1 past the end."""
    for suit in range(4):
        field = suit_field(mask, suit)
        count = FIELD_COUNT[field]
        if k < count:
            return suit * SUIT_SIZE + FIELD_SELECT[field, k]
        k -= count
    return -1


@numba.njit(cache=True, inline="always")
def shed(hand: int, trump: int, called: int, called_penalty: int) -> int:
    """The card least useful for tricks: the lowest card of a short suit, trumps kept (value =
    rank + 3 x suit length + 20 for a trump, + ``called_penalty`` for suit ``called``; the
    lowest value wins, the first suit on a tie)."""
    best_suit, best_value = 0, BIG
    for suit in range(4):
        field = suit_field(hand, suit)
        if field == 0:
            continue
        value = FIELD_LOW[field] + 3 * FIELD_COUNT[field]
        if suit == trump:
            value += 20
        if suit == called:
            value += called_penalty
        if value < best_value:
            best_suit, best_value = suit, value
    return best_suit * SUIT_SIZE + FIELD_LOW[suit_field(hand, best_suit)]


@numba.njit(cache=True, inline="always")
def _random_start(hand: int, u: float) -> tuple[bool, int, int]:
    # Uniform over Pass and every (card, other suit), in legal_actions' order.
    options = 1 + 3 * count_cards(hand)
    pick = np.int64(u * options) - 1
    if pick < 0:
        return False, -1, -1
    card = select_card(hand, pick // 3)
    other = pick % 3
    suit = other + (1 if other >= card // SUIT_SIZE else 0)
    return True, card, suit


@numba.njit(cache=True, inline="always")
def _heuristic_start(
    hand: int, trump: int, give_rank: float, long_suit: float
) -> tuple[bool, int, int]:
    face = shed(hand, trump, -1, 0)
    face_suit = face // SUIT_SIZE
    longest, longest_strength = 0, -BIG - 1
    for suit in range(4):
        field = suit_field(hand, suit)
        strength = FIELD_COUNT[field] * 16 + FIELD_HIGH[field]
        if suit == face_suit:
            strength = -BIG
        if strength > longest_strength:
            longest, longest_strength = suit, strength
    if trump >= 0:
        called = trump if trump != face_suit else longest
        worth = called == trump
    else:
        called = longest
        worth = FIELD_COUNT[suit_field(hand, called)] >= long_suit
    start = face % SUIT_SIZE + 1 <= give_rank and worth
    return start, face, called


@numba.njit(cache=True, inline="always")
def _heuristic_take(row: np.ndarray, trump: int) -> int:
    best, best_value = 0, -2
    for seat in range(4):
        card = row[OFFER_COLUMN + seat]
        value = -1
        if card >= 0:
            value = card % SUIT_SIZE + (20 if card // SUIT_SIZE == trump else 0)
        if value > best_value:
            best, best_value = seat, value
    return row[OFFER_COLUMN + best]


@numba.njit(cache=True, inline="always")
def _heuristic_lead(hand: int, trump: int, played: int) -> int:
    out = _FULL & ~played & ~hand
    side_master, draw = -1, False
    longest, longest_length = -1, -1
    for suit in range(4):
        mine, theirs = suit_field(hand, suit), suit_field(out, suit)
        high = FIELD_HIGH[mine]
        master = high >= 0 and high > FIELD_HIGH[theirs]
        if suit == trump:
            draw = master and theirs != 0
        else:
            if master and side_master < 0:
                side_master = suit
            if mine != 0 and FIELD_COUNT[mine] > longest_length:
                longest, longest_length = suit, FIELD_COUNT[mine]
    if side_master >= 0:
        return side_master * SUIT_SIZE + FIELD_HIGH[suit_field(hand, side_master)]
    if draw:
        return trump * SUIT_SIZE + FIELD_HIGH[suit_field(hand, trump)]
    if longest >= 0:
        return longest * SUIT_SIZE + FIELD_LOW[suit_field(hand, longest)]
    trump0 = max(trump, 0)
    return trump0 * SUIT_SIZE + FIELD_LOW[suit_field(hand, trump0)]


@numba.njit(cache=True, inline="always")
def _heuristic_follow(
    hand: int, legal: int, trump: int, played: int, row: np.ndarray, position: int
) -> int:
    led = row[TRICK] // SUIT_SIZE
    best, best_key = row[TRICK], -2
    for k in range(position):
        card = row[TRICK + k]
        suit, rank = card // SUIT_SIZE, card % SUIT_SIZE
        key = 100 + rank if suit == trump else (rank if suit == led else -1)
        if key > best_key:
            best, best_key = card, key
    best_suit, best_rank = best // SUIT_SIZE, best % SUIT_SIZE
    led_field = suit_field(legal, led)
    if led_field != 0:
        ruffed = best_suit == trump and led != trump
        winners = 0 if ruffed else led_field & ABOVE[best_rank + 1]
        out = _FULL & ~played & ~hand
        sure = winners & ABOVE[FIELD_HIGH[suit_field(out, led)] + 1]
        if sure != 0:
            return led * SUIT_SIZE + FIELD_LOW[sure]
        if winners != 0 and position == 3:
            return led * SUIT_SIZE + FIELD_LOW[winners]
        return led * SUIT_SIZE + FIELD_LOW[led_field]
    trumps = suit_field(hand, trump) if trump >= 0 else 0
    beat = ABOVE[best_rank + 1] if best_suit == trump else FIELD
    ruff_field = trumps & beat
    if ruff_field != 0:
        return trump * SUIT_SIZE + FIELD_LOW[ruff_field]
    return shed(hand, trump, -1, 0)


@numba.njit(cache=True, inline="always")
def choose(
    kind: int,
    params: np.ndarray,
    seat: int,
    phase: int,
    position: int,
    hand: int,
    legal: int,
    trump: int,
    face_up: int,
    called: int,
    row: np.ndarray,
    played: int,
    u: float,
) -> tuple[bool, int, int]:
    """One decision: (start, card, suit). In the auction phase ``start`` says whether to start
    (with ``card`` face up, calling ``suit``); in the other phases ``card`` is the choice.
    ``params[seat]`` is the policy's vector; ``row`` (the position, ``layout``) is read for the
    revealed offers and the trick only. An unknown kind answers card -1, which the engine
    refuses as illegal."""
    if kind == RANDOM:
        if phase == AUCTION:
            return _random_start(hand, u)
        return False, select_card(legal, np.int64(u * count_cards(legal))), -1
    if kind != HEURISTIC:
        return False, -1, -1
    if phase == PLAY:
        if position == 0:
            return False, _heuristic_lead(hand, trump, played), -1
        return False, _heuristic_follow(hand, legal, trump, played, row, position), -1
    if phase == AUCTION:
        return _heuristic_start(hand, trump, params[seat, 0], params[seat, 1])
    if phase == OFFER:
        wanted = face_up % SUIT_SIZE + 1 >= params[seat, 2]
        return False, shed(hand, trump, called, -BIG // 10 if wanted else 40), -1
    if phase == TAKE:
        return False, _heuristic_take(row, trump), -1
    return False, shed(hand, trump, -1, 0), -1
