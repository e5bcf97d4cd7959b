"""What a hidden bid can be before any model of play: the totals a count of cards can make,
what the next bidder's peek can show (uniform prior), and the most anyone can bid."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import polars as pl

from workbench.games.rubbish.cards import physical_ways, sub_multisets
from workbench.games.rubbish.engine import Observation, check_observation
from workbench.games.rubbish.inference.arguments import (
    _cards,
    _count,
    _rules,
    _text,
)
from workbench.games.rubbish.inference.peeks import _none_first, likelihood, peek_source
from workbench.games.rubbish.rules import Rules


def _bids_of(cards: tuple[int, ...], n_cards: int) -> list[tuple[int, ...]]:
    return [bid for bid in sub_multisets(cards) if len(bid) == n_cards]


def _uniform_bids(
    available: Sequence[int], n_cards: int, rules: Rules | None, position: int | None
) -> tuple[tuple[int, ...], int, dict[tuple[int, ...], int]]:
    """The checked cards and count, and each bid of that many cards with its physical ways
    (out of ``comb(len(cards), count)`` equally likely subsets)."""
    rules = _rules(rules)
    cards = _cards(available, rules)
    n = _count(n_cards, cards, rules, position)
    return cards, n, {bid: physical_ways(cards, bid) for bid in _bids_of(cards, n)}


def possible_bids(
    available: Sequence[int], n_cards: int, *, rules: Rules | None = None,
    position: int | None = None,
) -> pl.DataFrame:  # fmt: skip
    """Every total ``n_cards`` held-out cards of ``available`` can make, its ``ways``, uniform
    ``probability`` and card ``combinations`` (``(5, 2, 2, 1), 3``: 5, 8, 9 with 1/4, 1/2,
    1/4); ``position`` (0 = the First Bidder) only checks that ``n_cards`` is legal there."""
    cards, n, ways_of = _uniform_bids(available, n_cards, rules, position)
    subsets = math.comb(len(cards), n)
    by_total: dict[int, list[tuple[int, ...]]] = {}
    for bid in ways_of:
        by_total.setdefault(sum(bid), []).append(bid)
    rows = []
    for total in sorted(by_total):
        ways = sum(ways_of[bid] for bid in by_total[total])
        rows.append(
            {
                "total": total, "ways": ways, "probability": ways / subsets,
                "exact": str(Fraction(ways, subsets)),
                "combinations": ", ".join(_text(bid) for bid in by_total[total]),
            }
        )
    return pl.DataFrame(rows, schema=_POSSIBLE_SCHEMA)


_POSSIBLE_SCHEMA = {
    "total": pl.Int64, "ways": pl.Int64, "probability": pl.Float64, "exact": pl.String,
    "combinations": pl.String,
}  # fmt: skip


def peek_distribution(
    available: Sequence[int], n_cards: int, *, rules: Rules | None = None,
    position: int | None = None,
) -> pl.DataFrame:  # fmt: skip
    """What the next bidder's blind peek can show under the uniform prior: one row per (card,
    source) with its exact probability, the denominator of Bayes' rule in ``bid_posterior``."""
    cards, n, ways_of = _uniform_bids(available, n_cards, rules, position)
    source = peek_source(n)
    subsets = math.comb(len(cards), n)
    seen: dict[int | None, Fraction] = {}
    for bid, ways in ways_of.items():
        prior = Fraction(ways, subsets)
        for card in sorted({*cards, None}, key=_none_first):
            chance = likelihood(cards, bid, card, source)
            if chance:
                seen[card] = seen.get(card, Fraction(0)) + prior * chance
    rows = [
        {"card": card, "source": source, "probability": float(chance), "exact": str(chance)}
        for card, chance in sorted(seen.items(), key=lambda kv: _none_first(kv[0]))
    ]
    return pl.DataFrame(rows, schema=_PEEK_SCHEMA)


_PEEK_SCHEMA = {
    "card": pl.Int64, "source": pl.String, "probability": pl.Float64, "exact": pl.String,
}  # fmt: skip


def max_bid(
    available: Sequence[int], n_cards: int | None = None, *, rules: Rules | None = None
) -> int:
    """The largest total ``available`` can bid: all of it, or its ``n_cards`` highest cards
    (the rulebook: if no one else can use the 10, their max bid is 5+2+2+1 = 10)."""
    rules = _rules(rules)
    cards = _cards(available, rules)
    if n_cards is None:
        return sum(cards)
    return sum(cards[: _count(n_cards, cards, rules)])


def max_bid_table(observation: Observation) -> pl.DataFrame:
    """Every opponent's maximum possible bid from the public record: its locked card, usable
    cards and ``max_bid``; once it has bid, ``held_out`` and the range ``min_now``–``max_now``;
    ``to_beat``, the smallest total that surely beats it from your place (ties go to the bidder
    closer to the First Bidder, so one ahead of you must be beaten by one more)."""
    check_observation(observation)
    rules = observation.rules
    me = observation.player
    bidding = observation.phase == "bid"
    my_place = observation.order.index(me) if bidding else None
    rows = []
    for seat in range(rules.players):
        if seat == me:
            continue
        cards = observation.available(seat)
        held = observation.held_out[seat]
        most = sum(cards) if held is None else sum(cards[:held])
        to_beat = None
        if bidding:
            ahead = observation.order.index(seat) < my_place
            to_beat = most + 1 if ahead else most
        rows.append(
            {
                "seat": seat, "locked": observation.locked[seat], "available": _text(cards),
                "max_bid": sum(cards), "held_out": held,
                "min_now": None if held is None else sum(cards[len(cards) - held :]),
                "max_now": None if held is None else most, "to_beat": to_beat,
            }
        )
    return pl.DataFrame(rows, schema=_MAX_BID_SCHEMA)


_MAX_BID_SCHEMA = {
    "seat": pl.Int64, "locked": pl.Int64, "available": pl.String, "max_bid": pl.Int64,
    "held_out": pl.Int64, "min_now": pl.Int64, "max_now": pl.Int64, "to_beat": pl.Int64,
}  # fmt: skip
