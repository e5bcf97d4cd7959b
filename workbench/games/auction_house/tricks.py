"""The trick's arithmetic in compiled form, shared by the policies and the fitted policy's
card scorer: how a card ranks in the trick, the trick's best card so far and the seat playing
it, and the race for most tricks."""

from __future__ import annotations

import numba
import numpy as np

from workbench.games.auction_house.cards import SUIT_SIZE
from workbench.games.auction_house.layout import TRICK, WON

SUIT_OF = np.array([card // SUIT_SIZE for card in range(4 * SUIT_SIZE)], np.int64)
RANK_OF = np.array([card % SUIT_SIZE for card in range(4 * SUIT_SIZE)], np.int64)


@numba.njit(cache=True, inline="always")
def trick_key(card: int, trump: int, led: int) -> int:
    """How a card ranks in the trick (``card`` 0-39, ``led`` the suit led): 100 + rank for a
    trump, its rank in the suit led, else -1; the highest key wins the trick."""
    suit = SUIT_OF[card]
    if suit == trump:
        return 100 + RANK_OF[card]
    return RANK_OF[card] if suit == led else -1


@numba.njit(cache=True, inline="always")
def trick_best(row: np.ndarray, trump: int, position: int) -> tuple[int, int, int]:
    """The trick's first ``position`` (>= 1) cards: the suit led, the best card and its
    position (the first of the highest ``trick_key``)."""
    led = SUIT_OF[row[TRICK]]
    best, best_key, best_position = row[TRICK], -2, 0
    for k in range(position):
        key = trick_key(row[TRICK + k], trump, led)
        if key > best_key:
            best, best_key, best_position = row[TRICK + k], key, k
    return led, best, best_position


@numba.njit(cache=True, inline="always")
def trick_winner(me: int, position: int, best_position: int) -> int:
    """The seat winning the trick so far (at ``best_position``), seen from ``me`` (at
    ``position``)."""
    return (me - position + best_position) % 4


@numba.njit(cache=True, inline="always")
def trick_race(row: np.ndarray, winner: int, me: int) -> int:
    """How many more tricks this deal seat ``winner`` has taken than ``me``."""
    return row[WON + winner] - row[WON + me]


__all__ = ["RANK_OF", "SUIT_OF", "trick_best", "trick_key", "trick_race", "trick_winner"]
