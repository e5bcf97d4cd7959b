"""Filling in what one seat cannot see, straight into the compiled engine's rows: the search
agent's and the determinization agent's sampled positions.

``fill_rows`` draws from ``sampling``'s distribution (every filling consistent with the
observation equally likely; tests check it against exact enumeration), fast: each card the
table saw a seat hold goes to a uniformly random place of that seat's (its hand or its kitty
card), the unseen cards in a uniformly random order over the other places; a draw is kept when
no hand holds a suit its seat has shown void in. Every filling that keeps the known cards with
their seats comes out equally often (a hand's order does not count), and rejection keeps that
uniform over the consistent ones; when too few draws are kept, ``sampling``'s exact counting
sampler makes up the rest. A face-down offer is a uniformly random card of its owner's hand.
"""

from __future__ import annotations

import numpy as np

from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import DECK, SUIT_SIZE
from workbench.games.auction_house.observation import Observation
from workbench.games.auction_house.positions import observation_row
from workbench.games.auction_house.sampling import Hidden, _sampler

#: Rejection draws per filling wanted (when some seat has shown a void) before the exact
#: sampler makes up the rest.
REJECTION_TRIES = 4


def fill_rows(
    observation: Observation, hidden: Hidden, count: int, rng: np.random.Generator
) -> np.ndarray:
    """``count`` rows of the position, every other seat's hand, kitty card and face-down offer
    filled in uniformly over the consistent fillings (module docstring)."""
    rows = np.tile(observation_row(observation), (count, 1))
    room, has_kitty = np.array(hidden.room), np.array(hidden.has_kitty, bool)
    ends = np.cumsum(room + has_kitty)
    starts = ends - room - has_kitty
    places = _rejection_fillings(hidden, count, rng)
    drawn = len(places)
    hands = np.zeros((count, 3), np.int64)
    kitty = np.full((count, 3), -1, np.int64)
    bits = np.int64(1) << places
    for i in range(3):
        hands[:drawn, i] = bits[:, starts[i] : starts[i] + room[i]].sum(axis=1)
        if has_kitty[i]:
            kitty[:drawn, i] = places[:, ends[i] - 1]
    if drawn < count:
        exact = _sampler(hidden)
        for n in range(drawn, count):
            hand_cards, kitty_cards = exact.draw(rng)
            for i in range(3):
                hands[n, i] = sum(1 << c for c in hand_cards[i])
                kitty[n, i] = -1 if kitty_cards[i] is None else kitty_cards[i]
    for i, seat in enumerate(hidden.seats):
        rows[:, layout.HANDS + seat] = hands[:, i]
        rows[:, layout.KITTY_CARDS + seat] = kitty[:, i]
        if hidden.offer_hidden[i]:  # a uniformly random card of the hand
            picks = (rng.random(count) * room[i]).astype(np.int64)
            rows[:, layout.OFFERS + seat] = [
                _kth_card(int(mask), int(k)) for mask, k in zip(hands[:, i], picks, strict=True)
            ]
    return rows


def _kth_card(mask: int, k: int) -> int:
    """The k-th lowest card of a hand mask."""
    for card in range(len(DECK)):
        if mask >> card & 1:
            if k == 0:
                return card
            k -= 1
    raise ValueError(f"the hand holds fewer than {k + 1} cards")


def _rejection_fillings(hidden: Hidden, count: int, rng: np.random.Generator) -> np.ndarray:
    """Up to ``count`` uniform fillings, one row of cards by place (each other seat's hand,
    then its kitty card): each seat's known cards at uniformly random places of its own, the
    unseen cards in a uniformly random order over the rest (every filling that keeps the
    known cards with their seats comes equally often), kept when no hand holds a suit its
    seat has shown void in (rejection keeps it uniform)."""
    room, has_kitty = np.array(hidden.room), np.array(hidden.has_kitty, bool)
    ends = np.cumsum(room + has_kitty)
    starts = ends - room - has_kitty
    total = int(ends[-1])
    voided = any(hidden.voids)
    tries = count * (REJECTION_TRIES if voided else 1)
    drawn = np.full((tries, total), -1, np.int64)
    every = np.arange(tries)[:, None]
    for i, known in enumerate(hidden.known):
        if known:
            keys = rng.random((tries, int(ends[i] - starts[i])))
            chosen = np.argsort(keys, axis=1)[:, : len(known)] + starts[i]
            drawn[every, chosen] = np.array(known, np.int64)[None, :]
    if hidden.unseen:
        order = rng.permuted(np.tile(np.array(hidden.unseen), (tries, 1)), axis=1)
        drawn[drawn < 0] = order.ravel()
    if voided:
        owner = np.repeat(np.arange(3), room + has_kitty)
        in_hand = np.concatenate([
            [True] * int(r) + [False] * int(k) for r, k in zip(room, has_kitty, strict=True)
        ])  # fmt: skip
        void_of_place = np.array([hidden.voids[o] for o in owner], np.int64)[None, :]
        clash = (void_of_place >> (drawn // SUIT_SIZE)) & 1 & in_hand[None, :]
        drawn = drawn[~clash.astype(bool).any(axis=1)]
    return drawn[:count]


__all__ = ["REJECTION_TRIES", "fill_rows"]
