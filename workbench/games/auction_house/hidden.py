"""What one Auction House seat cannot see, and the exact uniform distribution over it.

Hidden from a seat, in the deal in progress: the other hands, their kitty cards once placed,
their offers while face down, and a face-down trump card. A *filling* (``Filling``) puts them
where the seat's view allows: every other seat holds as many cards as the public record says;
no hand holds a suit its seat failed to follow (a kitty card, put down before the play, may);
a card the table saw a seat receive or keep in the auction, not played since, is in that seat's
hand or its kitty card; a hidden offer is one of its owner's cards. No rule forces a choice
among legal cards, so consistency is about card locations only.

The exact sampler counts the fillings and draws from the counts: once it is fixed which seats'
kitty card is one they were seen to hold, the unseen cards go to four bins (the other hands,
each only in suits its seat has not shown void in, and a pool of kitty cards); suits the same
bins accept form a class, and ``n`` cards split ``a`` over the bins deal ``n! / prod(a!)``
ways. ``consistent_fillings`` enumerates the fillings by brute force to check it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from workbench.games.auction_house.cards import (
    DECK,
    DECK_SIZE,
    INDEX,
    POINTS,
    SUIT_SIZE,
    SUITS,
    TRUMP_DECK,
    card_bits,
)
from workbench.games.auction_house.engine import State
from workbench.games.auction_house.observation import Observation
from workbench.games.auction_house.rules import HAND_SIZE, PLAYERS

_SUIT_BIT = {suit: 1 << index for index, suit in enumerate(SUITS)}
_POOL = PLAYERS - 1  # bin index of the kitty pool, after the three other hands


class Hidden(NamedTuple):
    """What seat ``me`` cannot see, as a counting problem; per-seat fields follow ``seats``."""

    me: int
    seats: tuple[int, ...]  # the other three seats, in seat order
    room: tuple[int, ...]  # cards in the seat's hand now
    has_kitty: tuple[bool, ...]  # the seat has put its kitty card face down
    voids: tuple[int, ...]  # bit per suit its hand cannot hold (shown void this deal)
    known: tuple[tuple[int, ...], ...]  # cards the table saw it hold, not yet played
    offer_hidden: tuple[bool, ...]  # its offer is face down, not yet revealed
    unseen: tuple[int, ...]  # every other card nobody showed this seat the place of


class Filling(NamedTuple):
    """One filling of the hidden information; per-seat fields follow ``Hidden.seats``."""

    hands: tuple[int, ...]  # hand masks
    kitty: tuple[int | None, ...]  # kitty card (None: not placed yet)
    offers: tuple[int | None, ...]  # hidden offer (None: none face down)
    trump_card: str | None  # the face-down trump card (None: turned, or no trump this deal)


def read_hidden(observation: Observation) -> Hidden:
    """The hidden cards of ``observation`` and the constraints on where they are; ValueError
    when the game is over (nothing is left to play) or no card can be placed."""
    obs = observation
    if not isinstance(obs, Observation):
        raise TypeError(f"observation must be an auction_house Observation, not {type(obs)}")
    if obs.phase == "over":
        raise ValueError("the game is over: there is nothing hidden left to sample")
    me = obs.player
    seats = tuple(s for s in range(PLAYERS) if s != me)
    played = [0] * PLAYERS
    void_bits = [0] * PLAYERS  # suits each seat did not follow (``Observation.voids``)
    own = [card for card in (obs.own_kitty, obs.own_offer) if card is not None]
    seen = {INDEX[c] for c in (*obs.hand, *own)}
    # One pass for the cards played, seen and the voids (every search decision reads them).
    for seat, card, led in obs.plays():
        played[seat] += 1
        seen.add(INDEX[card])
        if card[-1] != led:
            void_bits[seat] |= _SUIT_BIT[led]
    room = tuple(HAND_SIZE - int(obs.kitty_placed[s]) - played[s] for s in seats)
    voids = tuple(void_bits[s] for s in seats)
    holdings = obs.known_holdings()
    known = tuple(tuple(sorted(INDEX[c] for c in holdings[s])) for s in seats)
    for cards in known:
        seen.update(cards)
    revealed = any(card is not None for card in obs.offers)
    offer_hidden = tuple(obs.offered[s] and not revealed for s in seats)
    unseen = tuple(c for c in range(DECK_SIZE) if c not in seen)
    hidden = Hidden(me, seats, room, tuple(obs.kitty_placed[s] for s in seats), voids, known,
                    offer_hidden, unseen)  # fmt: skip
    slots = sum(room) + sum(hidden.has_kitty)
    if slots != len(unseen) + sum(map(len, known)):
        raise ValueError(
            f"seat {me}'s observation is inconsistent: the other seats hold {slots} cards but "
            f"{len(unseen) + sum(map(len, known))} are unaccounted for"
        )
    return hidden


# -- counting and drawing ---------------------------------------------------------------------


def _splits(count: int, allowed: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to put ``count`` cards into the bins whose bit is set in ``allowed``, each bin
    at most its cap: one tuple of counts per bin, the first bins' counts ascending."""
    bins = [b for b in range(len(caps)) if allowed >> b & 1]
    if not bins:
        return [(0,) * len(caps)] if count == 0 else []
    out = []
    for parts in itertools.product(*(range(min(count, caps[b]) + 1) for b in bins[:-1])):
        last = count - sum(parts)
        if 0 <= last <= caps[bins[-1]]:
            split = [0] * len(caps)
            for b, part in zip(bins, (*parts, last), strict=True):
                split[b] = part
            out.append(tuple(split))
    return out


def _ways(count: int, split: tuple[int, ...]) -> int:
    """Ways to deal ``count`` distinct cards into bins getting ``split`` cards each."""
    ways = math.factorial(count)
    for part in split:
        ways //= math.factorial(part)
    return ways


class _Classes:
    """The unseen cards grouped by the bins that accept them, and the exact number of ways to
    deal them into bins of given room (memoized: every layout of a Hidden shares it)."""

    def __init__(self, hidden: Hidden) -> None:
        by_allowed: dict[int, list[int]] = {}
        for card in hidden.unseen:
            suit_bit = 1 << (card // SUIT_SIZE)
            allowed = 1 << _POOL
            for i, voids in enumerate(hidden.voids):
                if not voids & suit_bit:
                    allowed |= 1 << i
            by_allowed.setdefault(allowed, []).append(card)
        # Most restricted classes first: the last one's split is forced, the cheapest case.
        order = sorted(by_allowed, key=lambda allowed: (allowed.bit_count(), allowed))
        self.classes = [(allowed, tuple(by_allowed[allowed])) for allowed in order]
        # With a last class every bin takes, the one before it is dealt to a uniformly random
        # set of the slots of the bins it may go to (Vandermonde's identity, below).
        last_free = bool(self.classes) and self.classes[-1][0] == (1 << (_POOL + 1)) - 1
        self.paired = len(self.classes) - 2 if last_free and len(self.classes) > 1 else None
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._tables: dict[tuple[int, tuple[int, ...]], tuple[list, list]] = {}

    def completions(self, index: int, caps: tuple[int, ...]) -> int:
        """Ways to deal classes ``index``.. into bins with exactly ``caps`` room."""
        if index == len(self.classes):
            return int(not any(caps))
        allowed, cards = self.classes[index]
        if index == len(self.classes) - 1:
            if any(cap and not allowed >> b & 1 for b, cap in enumerate(caps)):
                return 0
            return _ways(len(cards), caps) if sum(caps) == len(cards) else 0
        if index == self.paired:
            # Sum over splits a of n!/prod(a!) * m!/prod((caps - a)!) = n! m!/prod(caps!) *
            # sum of prod C(caps_b, a_b) = n! m!/prod(caps!) * C(room of allowed bins, n).
            free = self.classes[-1][1]
            if sum(caps) != len(cards) + len(free):
                return 0
            room = sum(cap for b, cap in enumerate(caps) if allowed >> b & 1)
            ways = math.factorial(len(cards)) * math.factorial(len(free))
            ways *= math.comb(room, len(cards))
            for cap in caps:
                ways //= math.factorial(cap)  # divides exactly: it is a count of dealings
            return ways
        key = (index, caps)
        if key not in self._memo:
            self._memo[key] = sum(self.table(index, caps)[1])
        return self._memo[key]

    def table(self, index: int, caps: tuple[int, ...]) -> tuple[list, list]:
        """The splits of class ``index`` into ``caps`` with their counts of completions."""
        key = (index, caps)
        if key not in self._tables:
            allowed, cards = self.classes[index]
            splits, weights = [], []
            for split in _splits(len(cards), allowed, caps):
                rest = tuple(c - s for c, s in zip(caps, split, strict=True))
                weight = _ways(len(cards), split) * self.completions(index + 1, rest)
                if weight:
                    splits.append(split)
                    weights.append(weight)
            self._tables[key] = (splits, weights)
        return self._tables[key]

    def deal(self, caps: tuple[int, ...], bins: list[list[int]], rng: np.random.Generator) -> None:
        """Add to ``bins`` one dealing of every class into ``caps``, uniformly."""
        last = len(self.classes) - 1
        for index, (allowed, cards) in enumerate(self.classes):
            if index == self.paired:
                # Each dealing of the last two classes is one order of the slots: this class's
                # cards take random slots of the bins it may go to, the last class the rest.
                mine = [b for b, cap in enumerate(caps) if allowed >> b & 1 for _ in range(cap)]
                rest = [b for b, cap in enumerate(caps) if not allowed >> b & 1 for _ in range(cap)]
                picked = rng.permutation(len(mine)).tolist()
                for card, slot in zip(cards, picked, strict=False):
                    bins[mine[slot]].append(card)
                rest += [mine[slot] for slot in picked[len(cards) :]]
                free = self.classes[-1][1]
                for card, slot in zip(free, rng.permutation(len(rest)).tolist(), strict=True):
                    bins[rest[slot]].append(card)
                return
            if index == last:
                split = caps
            else:
                splits, weights = self.table(index, caps)
                split = splits[_pick(weights, rng)]
            order = rng.permutation(len(cards)).tolist() if len(cards) > 1 else [0]
            start = 0
            for b, part in enumerate(split):
                if part:
                    bins[b].extend(cards[k] for k in order[start : start + part])
                    start += part
            caps = tuple(c - s for c, s in zip(caps, split, strict=True))


class _Layout:
    """One choice of which seats' kitty card is a card they were seen to hold (per seat: that
    card, -1 for an unseen card from the pool, None for no kitty card yet): the bins' room and
    the exact number of fillings it allows."""

    def __init__(self, hidden: Hidden, classes: _Classes, choice: tuple[int | None, ...]) -> None:
        self.classes = classes
        self.choice = choice
        self.pool_seats = [i for i, c in enumerate(choice) if c == -1]
        caps = [0] * (PLAYERS - 1) + [len(self.pool_seats)]
        self.hand_known: list[list[int]] = []
        possible = True
        for i in range(len(hidden.seats)):
            in_hand = [c for c in hidden.known[i] if c != choice[i]]
            if any(hidden.voids[i] >> (c // SUIT_SIZE) & 1 for c in in_hand):
                possible = False  # a card of a suit it showed void in cannot be in its hand
            caps[i] = hidden.room[i] - len(in_hand)
            possible &= caps[i] >= 0
            self.hand_known.append(in_hand)
        self.caps = tuple(caps)
        self.count = 0
        if possible:
            self.count = math.factorial(len(self.pool_seats)) * classes.completions(0, self.caps)

    def draw(self, rng: np.random.Generator) -> tuple[list[list[int]], list[int | None]]:
        """One filling of this layout, uniformly: the cards of each hand and each kitty card."""
        bins: list[list[int]] = [list(cards) for cards in self.hand_known] + [[]]
        self.classes.deal(self.caps, bins, rng)
        kitty: list[int | None] = [None if c == -1 else c for c in self.choice]
        pool = bins[_POOL]
        order = rng.permutation(len(pool)).tolist() if len(pool) > 1 else range(len(pool))
        for i, k in zip(self.pool_seats, order, strict=True):
            kitty[i] = pool[k]  # the pool's m! orders to its seats, equally likely
        return bins[:_POOL], kitty


def _pick(weights: Sequence[int], rng: np.random.Generator) -> int:
    """An index drawn with probability ``weights[i] / sum(weights)``, exactly (whole numbers)."""
    total = sum(weights)
    target = _below(total, rng)
    for index, weight in enumerate(weights):
        target -= weight
        if target < 0:
            return index
    raise AssertionError("unreachable: the target is below the total")


def _below(total: int, rng: np.random.Generator) -> int:
    """A whole number drawn uniformly from 0..total-1 (any size)."""
    if total < 2**62:
        return int(rng.integers(total))
    bits = total.bit_length()
    while True:  # rejection from the next power of two: exact, at most two tries on average
        value = int.from_bytes(rng.bytes((bits + 7) // 8), "little") >> (-bits % 8)
        if value < total:
            return value


class _Sampler:
    """Every layout of one Hidden with its count: draws fillings uniformly."""

    def __init__(self, hidden: Hidden) -> None:
        options = [
            (*hidden.known[i], -1) if hidden.has_kitty[i] else (None,)
            for i in range(len(hidden.seats))
        ]
        classes = _Classes(hidden)
        layouts = [_Layout(hidden, classes, choice) for choice in itertools.product(*options)]
        self.layouts = [layout for layout in layouts if layout.count]
        self.weights = [layout.count for layout in self.layouts]
        self.count = sum(self.weights)
        if not self.count:
            raise ValueError(
                f"no deal is consistent with seat {hidden.me}'s observation: the unseen cards "
                "cannot fill the other hands given the suits shown void"
            )

    def draw(self, rng: np.random.Generator) -> tuple[list[list[int]], list[int | None]]:
        layout = self.layouts[_pick(self.weights, rng)] if len(self.layouts) > 1 else (
            self.layouts[0])  # fmt: skip
        return layout.draw(rng)


@lru_cache(maxsize=256)
def exact_sampler(hidden: Hidden) -> _Sampler:
    """The exact sampler of ``hidden`` (made once per Hidden)."""
    return _Sampler(hidden)


def count_fillings(observation: Observation) -> int:
    """The exact number of card placements consistent with ``observation`` (hands and kitty
    cards; times each hidden offer's choices and the face-down trump's, as ``filling_of``)."""
    hidden = read_hidden(observation)
    offers = math.prod(room for room, face_down in zip(hidden.room, hidden.offer_hidden,
                                                       strict=True) if face_down)  # fmt: skip
    return exact_sampler(hidden).count * offers * len(hidden_trump_options(observation))


def hidden_trump_options(observation: Observation) -> list[str | None]:
    """The cards the face-down trump card may be; [None] when it is turned or there is none."""
    if observation.trump_shown or not observation.rules.has_trump(observation.deal):
        return [None]
    shown = set(observation.revealed_trumps)
    return [card for card in TRUMP_DECK if card not in shown]


def filling_of(state: State, player: int) -> Filling:
    """The part of ``state`` hidden from seat ``player``: the others' hands, kitty cards and
    face-down offers, and the face-down trump card (see the module docstring)."""
    seats = [s for s in range(PLAYERS) if s != player]
    revealed = state.n_offers == PLAYERS - 1
    trump = None
    if not state.trump_shown and state.rules.has_trump(state.deal) and state.phase != "over":
        trump = state.chance.trump_cards[state.deal - 1]
    return Filling(tuple(state.hands[s] for s in seats), tuple(state.kitty[s] for s in seats),
                   tuple(None if revealed else state.offers[s] for s in seats), trump)  # fmt: skip


def consistent_fillings(observation: Observation) -> Iterator[Filling]:
    """Every filling consistent with ``observation``, by brute force over the card places (for
    small positions: tests check the sampler against it)."""
    hidden = read_hidden(observation)
    trumps = hidden_trump_options(observation)
    cards = sorted((*hidden.unseen, *itertools.chain.from_iterable(hidden.known)))
    for hand_cards, kitty in _placements(hidden, 0, frozenset(cards)):
        choices = [card_bits(hand) if hidden.offer_hidden[i] else [None]
                   for i, hand in enumerate(hand_cards)]  # fmt: skip
        for offers in itertools.product(*choices):
            for trump in trumps:
                yield Filling(tuple(hand_cards), tuple(kitty), tuple(offers), trump)


def _placements(hidden: Hidden, index: int,
                left: frozenset[int]) -> Iterator[tuple[list[int], list[int | None]]]:  # fmt: skip
    """Every way for seats ``index``.. to hold exactly the cards ``left`` (hand masks and kitty
    cards), each seat within its constraints."""
    if index == len(hidden.seats):
        if not left:
            yield [], []
        return
    voids, known = hidden.voids[index], set(hidden.known[index])
    others_known = set(itertools.chain.from_iterable(
        k for i, k in enumerate(hidden.known) if i != index))  # fmt: skip
    mine = sorted(left - others_known)
    kitty_options = mine if hidden.has_kitty[index] else [None]
    for kitty in kitty_options:
        hand_options = [c for c in mine if c != kitty and not voids >> (c // SUIT_SIZE) & 1]
        for hand in itertools.combinations(hand_options, hidden.room[index]):
            taken = set(hand) | ({kitty} if kitty is not None else set())
            if not known <= taken:
                continue
            for hands, kitties in _placements(hidden, index + 1, left - taken):
                yield [sum(1 << c for c in hand), *hands], [kitty, *kitties]


class Holding(NamedTuple):
    """One opponent's hand as the uniform sampler sees it: the expected number of cards of each
    suit (exact fractions, ``SUITS`` order), its cards in hand, the cards the table saw it keep
    and still in its hand or kitty, and its kitty card's expected points (None: none placed)."""

    seat: int
    suits: tuple[Fraction, ...]
    cards: int
    known: tuple[str, ...]
    kitty_points: Fraction | None


def _class_expectations(classes: _Classes, caps: tuple[int, ...]) -> tuple[list, int]:
    """For cards dealt class by class into bins of room ``caps`` (every dealing equally
    likely): the summed count of each class's cards in each bin over all dealings, and the
    number of dealings. A forward pass over the bins' room left (the sampler's own counts
    give each split's completions)."""
    states: dict[tuple[int, ...], int] = {caps: 1}
    totals = [[0] * len(caps) for _ in classes.classes]
    last = len(classes.classes) - 1
    for index, (allowed, cards) in enumerate(classes.classes):
        following: dict[tuple[int, ...], int] = {}
        for room, ways_so_far in states.items():
            if index == last:
                weight = ways_so_far * classes.completions(index, room)
                if weight:
                    for b, part in enumerate(room):
                        totals[index][b] += weight * part
                continue
            for split in _splits(len(cards), allowed, room):
                rest = tuple(r - s for r, s in zip(room, split, strict=True))
                ways = ways_so_far * _ways(len(cards), split)
                weight = ways * classes.completions(index + 1, rest)
                if not weight:
                    continue
                for b, part in enumerate(split):
                    totals[index][b] += weight * part
                following[rest] = following.get(rest, 0) + ways
        states = following
    return totals, classes.completions(0, caps) if classes.classes else int(not any(caps))


def expected_holdings(observation: Observation) -> list[Holding]:
    """Each other seat's hand by suit as the uniform sampler sees it (``Holding``), exact:
    every consistent deal of the hidden cards (this module's counting) weighs the same."""
    hidden = read_hidden(observation)
    sampler = exact_sampler(hidden)
    classes = sampler.layouts[0].classes if sampler.layouts else _Classes(hidden)
    suits = len(SUITS)
    hand = [[Fraction(0)] * suits for _ in hidden.seats]
    kitty = [Fraction(0)] * len(hidden.seats)
    for layout in sampler.layouts:
        share = Fraction(layout.count, sampler.count)
        totals, dealings = _class_expectations(classes, layout.caps)
        pool = [Fraction(0)] * 1
        for (_, cards), per_bin in zip(classes.classes, totals, strict=True):
            for b in range(len(hidden.seats)):
                if per_bin[b]:
                    for card in cards:
                        hand[b][card // SUIT_SIZE] += share * Fraction(per_bin[b],
                                                                       dealings * len(cards))
            if per_bin[_POOL]:
                mean_points = Fraction(sum(POINTS[c] for c in cards), len(cards))
                pool[0] += Fraction(per_bin[_POOL], dealings) * mean_points
        for i in range(len(hidden.seats)):
            for card in layout.hand_known[i]:
                hand[i][card // SUIT_SIZE] += share
            choice = layout.choice[i]
            if choice is not None and choice >= 0:
                kitty[i] += share * POINTS[choice]
            elif choice == -1:
                kitty[i] += share * pool[0] / len(layout.pool_seats)
    return [
        Holding(
            seat=seat, suits=tuple(hand[i]), cards=hidden.room[i],
            known=tuple(DECK[c] for c in hidden.known[i]),
            kitty_points=kitty[i] if hidden.has_kitty[i] else None,
        )
        for i, seat in enumerate(hidden.seats)
    ]



__all__ = [
    "Filling", "Hidden", "Holding", "consistent_fillings", "count_fillings", "exact_sampler",
    "expected_holdings",
    "filling_of", "hidden_trump_options", "read_hidden",
]  # fmt: skip
