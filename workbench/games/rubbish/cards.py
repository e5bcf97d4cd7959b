"""Money cards and bids: which bids a hand allows, as Python tuples and as numpy tables. A bid
is the multiset of cards held out (cards of equal value are interchangeable in play), and where
a blind peek at it looks.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from workbench.checks import whole_entries


class _BidFields(NamedTuple):
    cards: tuple[int, ...]


class Bid(_BidFields):
    """The money cards held out, e.g. ``Bid((5, 2, 1))`` bids 8; ``Bid(())`` holds out none.
    ``cards``: whole numbers, stored as plain ints high to low (anything else is a TypeError);
    whether they may be held out is for ``State.apply`` to judge."""

    __slots__ = ()

    def __new__(cls, cards: Iterable[int]) -> Bid:
        return super().__new__(cls, card_values(cards, _bid_cards_error))

    @property
    def total(self) -> int:
        return sum(self.cards)

    @property
    def count(self) -> int:
        return len(self.cards)

    @property
    def highest(self) -> int | None:
        """The card that gets locked if this bid does not make its bidder the cheapskate."""
        return self.cards[0] if self.cards else None

    def __str__(self) -> str:
        return (
            "+".join(str(card) for card in self.cards) + f" = {self.total}" if self.cards else "0"
        )


def card_values(
    cards: object, error: Callable[[object, list[object] | None], str]
) -> tuple[int, ...]:
    """``cards`` as plain ints high to low. A TypeError worded by the caller's ``error(cards,
    bad)`` otherwise: ``bad`` None when ``cards`` is not a sequence, else its non-whole entries."""
    return tuple(sorted((int(card) for card in whole_entries(cards, error)), reverse=True))


def _bid_cards_error(cards: object, bad: list[object] | None) -> str:
    if bad is None:
        return (
            f"Bid cards must be a sequence of money card values such as (5, 2), or () for no "
            f"cards; got {cards!r} ({type(cards).__name__})"
        )
    return (
        f"Bid cards must be whole numbers (money card values such as 5 or 2), got "
        f"{bad[0]!r} ({type(bad[0]).__name__}) in {cards!r}"
    )


def without(cards: tuple[int, ...], removed: tuple[int, ...]) -> tuple[int, ...]:
    """``cards`` minus the multiset ``removed`` (high to low); ValueError if not contained."""
    remaining = Counter(cards)
    remaining.subtract(removed)
    if any(count < 0 for count in remaining.values()):
        raise ValueError(f"{removed!r} is not part of {cards!r}")
    return tuple(sorted(remaining.elements(), reverse=True))


def sub_multisets(cards: tuple[int, ...], min_cards: int = 0) -> list[tuple[int, ...]]:
    """Every distinct multiset of at least ``min_cards`` of ``cards``, ordered by total, size."""
    counts = Counter(cards)
    values = sorted(counts, reverse=True)
    found = []
    for taken in itertools.product(*(range(counts[value] + 1) for value in values)):
        bid = tuple(value for value, k in zip(values, taken, strict=True) for _ in range(k))
        if len(bid) >= min_cards:
            found.append(bid)
    return sorted(found, key=lambda bid: (sum(bid), len(bid), bid))


@dataclass(frozen=True, eq=False)
class BidTable:
    """Every bid for every lock option (0: nothing locked; ``j``: a card of ``values[j - 1]``):
    ``bids[option]`` by total, then size, the empty bid first (so a minimum of ``m`` cards leaves
    ``bids[option][m:]``); the numpy arrays hold it padded to a rectangle."""

    money_cards: tuple[int, ...]
    values: tuple[int, ...]
    bids: tuple[tuple[Bid, ...], ...]
    available: tuple[tuple[int, ...], ...]
    index: tuple[dict[Bid, int], ...]
    #: unused[option][bid]: the available cards a bid leaves in hand
    unused: tuple[dict[Bid, tuple[int, ...]], ...]
    n_bids: np.ndarray
    totals: np.ndarray
    counts: np.ndarray
    highest: np.ndarray
    lock_after: np.ndarray
    available_totals: np.ndarray
    #: top_sums[option, c]: the largest total of exactly c available cards (c = 0..all cards)
    top_sums: np.ndarray

    def legal(self, option: int, min_cards: int) -> tuple[Bid, ...]:
        """The bids of lock option ``option`` holding out at least ``min_cards`` (0 or 1)."""
        return self.bids[option][min_cards:]

    def lock_option(self, locked: int | None) -> int:
        return 0 if locked is None else self.values.index(locked) + 1


_TABLES: dict[tuple[int, ...], BidTable] = {}


def bid_table(money_cards: tuple[int, ...]) -> BidTable:
    """The (cached) table of every bid these money cards allow."""
    key = tuple(money_cards)
    if key not in _TABLES:
        _TABLES[key] = _build_table(key)
    return _TABLES[key]


def _build_table(money_cards: tuple[int, ...]) -> BidTable:
    values = tuple(sorted(set(money_cards), reverse=True))
    options: list[int | None] = [None, *values]
    available = tuple(
        money_cards if locked is None else without(money_cards, (locked,)) for locked in options
    )
    bids = tuple(tuple(Bid(cards) for cards in sub_multisets(hand)) for hand in available)
    if any(listed[0].cards for listed in bids):
        raise ValueError(f"money cards must be positive, got {money_cards!r}")
    width = max(len(listed) for listed in bids)
    shape = (len(options), width)
    totals = np.full(shape, -1, dtype=np.int32)
    counts = np.zeros(shape, dtype=np.int8)
    highest = np.zeros(shape, dtype=np.int32)
    lock_after = np.zeros(shape, dtype=np.int8)
    for option, listed in enumerate(bids):
        for k, bid in enumerate(listed):
            totals[option, k] = bid.total
            counts[option, k] = bid.count
            highest[option, k] = bid.highest or 0
            lock_after[option, k] = 0 if not bid.cards else values.index(bid.cards[0]) + 1
    return BidTable(
        money_cards=tuple(money_cards),
        values=values,
        bids=bids,
        available=available,
        index=tuple({bid: k for k, bid in enumerate(listed)} for listed in bids),
        unused=tuple(
            {bid: without(hand, bid.cards) for bid in listed}
            for hand, listed in zip(available, bids, strict=True)
        ),
        n_bids=np.array([len(listed) for listed in bids], dtype=np.int32),
        totals=totals,
        counts=counts,
        highest=highest,
        lock_after=lock_after,
        available_totals=np.array([sum(hand) for hand in available], dtype=np.int32),
        top_sums=np.array(
            [[max_total(hand, c) for c in range(len(money_cards) + 1)] for hand in available],
            dtype=np.int32,
        ),
    )


def max_total(available: tuple[int, ...], n_cards: int | None = None) -> int:
    """The largest bid from ``available`` (using exactly ``n_cards`` cards if given)."""
    ordered = sorted(available, reverse=True)
    return sum(ordered if n_cards is None else ordered[:n_cards])


def physical_ways(available: tuple[int, ...], bid: tuple[int, ...]) -> int:
    """How many physical card subsets of ``available`` make the multiset ``bid`` (the two 2s are
    different cards: holding out one 2 from 1, 2, 2, 5 can be done two ways)."""
    have, take = Counter(available), Counter(bid)
    ways = 1
    for value, k in take.items():
        ways *= math.comb(have[value], k)
    return ways


def peek_source(n_cards: int) -> str:
    """Where the next bidder's blind peek looks: among 2+ held-out cards, else the unused ones."""
    return "held_out" if n_cards >= 2 else "unused"


def peek_pool(available: tuple[int, ...], bid: tuple[int, ...]) -> tuple[tuple[int, ...], str]:
    """The cards a blind peek at ``bid`` (from ``available``) falls among, and their source."""
    source = peek_source(len(bid))
    return (bid if source == "held_out" else without(available, bid)), source


def peek_odds(
    available: tuple[int, ...], bid: tuple[int, ...], card: int | None, source: str
) -> tuple[int, int]:
    """P(the blind peek shows ``card`` from ``source`` | ``bid``) as (numerator, denominator)."""
    pool, expected = peek_pool(available, bid)
    if source != expected:
        return 0, 1
    if card is None:
        return (0 if pool else 1), 1
    return (pool.count(card), len(pool)) if pool else (0, 1)


def peek_likelihood(
    available: tuple[int, ...], bid: tuple[int, ...], card: int | None, source: str
) -> float:
    """``peek_odds`` as a float."""
    numerator, denominator = peek_odds(available, bid, card, source)
    return numerator / denominator


def bid_weights(
    available: tuple[int, ...], n_cards: int, peek: tuple[int | None, str] | None = None,
) -> list[tuple[Bid, float]]:  # fmt: skip
    """Unnormalised weights of each bid of ``n_cards`` from ``available`` (uniform over physical
    card subsets, times an optional peek's likelihood); bids of weight 0 are left out."""
    weighted = []
    for cards in sub_multisets(available):
        if len(cards) != n_cards:
            continue
        weight = float(physical_ways(available, cards))
        if peek is not None:
            weight *= peek_likelihood(available, cards, *peek)
        if weight > 0:
            weighted.append((Bid(cards), weight))
    return weighted
