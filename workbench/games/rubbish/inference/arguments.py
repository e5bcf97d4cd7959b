"""Argument checks shared by the inference rooms (rules, cards, counts, shares, seeds,
observations, geeks), and how cards and exact probabilities are written."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from numbers import Real
from typing import Any

import polars as pl

from workbench.checks import instance_or_default, whole_entries, whole_number
from workbench.games.rubbish.cards import card_values
from workbench.games.rubbish.rules import Rules

Number = Fraction | float


@functools.cache
def _default_rules() -> Rules:
    return Rules()


def _rules(rules: Rules | None) -> Rules:
    return instance_or_default("rules", rules, Rules, _default_rules, "a rubbish Rules")


def _cards(available: Iterable[int], rules: Rules) -> tuple[int, ...]:
    """``available`` as a high-to-low tuple, checked against the rules' money cards."""
    money = rules.money_cards

    def error(given: object, bad: list[object] | None) -> str:
        if bad is None:
            return (
                f"available must be a sequence of card values from the money cards "
                f"{list(money)}, got {given!r} ({type(given).__name__})"
            )
        return (
            f"available: card values must be whole numbers from the money cards {list(money)}, "
            f"got {bad!r}"
        )

    cards = card_values(available, error)
    unknown = sorted(set(cards) - set(money))
    if unknown:
        raise ValueError(
            f"unknown card value(s) {unknown}: each player's money cards are {list(money)}"
        )
    have, owned = Counter(cards), Counter(money)
    for value, count in have.items():
        if count > owned[value]:
            raise ValueError(
                f"available holds {count} cards of value {value}, but each player owns only "
                f"{owned[value]} (money cards {list(money)})"
            )
    return cards


def _position(position: int | None, rules: Rules) -> int | None:
    """A bidding position (0 = the First Bidder) or None (any position)."""
    if position is None:
        return None
    return whole_number(
        "position", position, low=0, high=rules.players - 1,
        allowed=f"a bidding position 0–{rules.players - 1} (0 = the First Bidder) or None",
    )  # fmt: skip


def _count(n_cards: int, cards: tuple[int, ...], rules: Rules, position: int | None = None) -> int:
    """``n_cards`` checked: a count of available cards the bidder at ``position`` (None: at
    some position) may hold out under the rules' bid minimum."""
    n_cards = whole_number(
        "n_cards", n_cards, low=0, allowed=f"a whole number of cards 0–{len(cards)}"
    )
    if n_cards > len(cards):
        raise ValueError(
            f"cannot hold out {n_cards} cards from the {len(cards)} available "
            f"({_text(cards)}): n_cards must be 0–{len(cards)}"
        )
    position = _position(position, rules)
    fewest = min(rules.bid_minimums) if position is None else rules.min_cards_at(position)
    if n_cards < fewest:
        where = "at any position" if position is None else f"at bidding position {position}"
        raise ValueError(
            f"n_cards={n_cards} is not a legal bid {where}: bid_minimum "
            f"{rules.bid_minimum!r} needs at least {fewest} card(s) (the First Bidder "
            f"{rules.bid_minimums[0]}, later bidders {rules.bid_minimums[1]})"
        )
    return int(n_cards)


def _check_epsilon(epsilon: float) -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, Real):
        raise TypeError(
            f"epsilon must be a number in [0, 1] (a share of uniform play), got {epsilon!r}"
        )
    if not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be in [0, 1] (a share of uniform play), got {epsilon}")
    return float(epsilon)


def _check_positive(name: str, value: int) -> int:
    return whole_number(name, value, low=1, allowed="a positive whole number")


def _check_seed(seed: int) -> int:
    return whole_number("seed", seed, low=0, allowed="a non-negative whole number")


def _geek_numbers(geeks: object, rules: Rules) -> tuple[int, ...]:
    """``geeks`` checked: distinct geek numbers of the rules, at least one."""
    count = len(rules.geeks)
    allowed = f"one or more distinct geek numbers 0–{count - 1}"
    candidates = whole_entries(geeks, lambda *_: f"geeks must be {allowed}, got {geeks!r}")
    if (
        not candidates
        or len(set(candidates)) != len(candidates)
        or not all(0 <= g < count for g in candidates)
    ):
        raise ValueError(f"geeks must be {allowed}, got {geeks!r}")
    return tuple(int(g) for g in candidates)


def _text(cards: Iterable[int]) -> str:
    """Cards low to high as the rulebook writes them: '1+2+5'."""
    ordered = sorted(cards)
    return "+".join(str(card) for card in ordered) if ordered else "nothing"


def _exact_text(value: Number) -> str | None:
    return str(value) if isinstance(value, Fraction) else None


#: A probability's columns in the posterior frames: the float, the exact fraction as text (None
#: unless exact) and the bootstrap interval (None unless the prior was sampled).
_PROBABILITY_SCHEMA = {
    "probability": pl.Float64, "exact": pl.String, "low": pl.Float64, "high": pl.Float64,
}  # fmt: skip


def _probability(value: Number, interval: tuple[float, float] | None) -> dict[str, Any]:
    """``value`` and its ``interval`` as the columns of ``_PROBABILITY_SCHEMA``."""
    low, high = interval if interval else (None, None)
    return {"probability": float(value), "exact": _exact_text(value), "low": low, "high": high}
