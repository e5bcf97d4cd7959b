"""Uniform sampling of what a Going, Going, GONE! seat cannot see, for the ``search`` agent.

A seat's ``Observation`` keeps no memory of past rounds (docs/rules.md), so a *filling* is the
hidden part that decides the rest of the game: ``sealed``, while bidding, the allocations of the
other seats that have bid this round; ``holdings``, with secret collections, every other seat's
items; ``future``, the order of the cards still to be dealt; ``pending``, while selling, the
sealed sales of the other seats that have started selling.

A filling is *consistent* with the observation when every item is in exactly one place (the
observer's holding, sold or on offer as seen; each other seat holds exactly its counted items;
the deck exactly the cards still to come; the rest out of play), no other seat holds more past
items than the past rounds dealt less the observer's own, a sealed allocation is any split of
whole Bucks within that seat's budget and a sale any set of disjoint collections of that seat's
items. While selling, a lot the observer did not win went whole to one other seat or, only if
the observer bid nothing in that cup, was discarded, and every other seat can have bid enough
to win its lots within its cube limit. Each consistent filling is equally likely.

What never affects the game from here on (past rounds, which out-of-play cards were discarded
or sold, other seats' bids of a resolved round) is no part of a filling: a sampled State holds
one consistent witness of it (no history, the least winning bids), so its ``observation``
equals the given one. Sampling is exact: lot winners by their number of completions, cards by
a uniform shuffle, allocations by stars and bars, and, when other seats' sales are hidden,
holdings accepted in proportion to their number of sales (rejection against Bell(k + 1)).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from workbench.games.going_gone.actions import Allocation, Allocations, budget_of
from workbench.games.going_gone.compiled import Positions, repeat_positions
from workbench.games.going_gone.engine import Deal, Observation, State
from workbench.games.going_gone.holdings import (
    BYTE_ONES,
    GOLDEN,
    U0,
    U1,
    U255,
    item_bits,
    items_of,
    mask_of,
    popcount,
)
from workbench.games.going_gone.positions import observed_position
from workbench.games.going_gone.rules import Rules

#: (sealed, holdings, future, pending): see the module docstring; None where a seat has none.
Filling = tuple[tuple, tuple, tuple[int, ...], tuple]


@dataclass(frozen=True)
class _Frame:
    """What the observation fixes, worked out once per observation."""

    observation: Observation
    order: tuple[int, ...]  # seats in turn order from the Auctioneer
    sealed_seats: tuple[int, ...]  # other seats whose allocation is sealed this round
    pool: tuple[int, ...]  # unseen items that are not in this round's lots
    future_size: int  # cards still to be dealt after this round
    past_room: int  # most past items the other seats can hold together
    lot_options: tuple[tuple[int | None, ...], ...]  # while selling (secret): who may own each lot
    pending_seats: tuple[int, ...]  # other seats whose sealed sale is hidden


def _frame(observation: Observation) -> _Frame:
    if not isinstance(observation, Observation):
        raise TypeError(f"observation must be a going_gone Observation, got {observation!r}")
    rules, me, phase = observation.rules, observation.player, observation.phase
    n, per_round = rules.players, rules.items_per_round
    order = tuple((observation.auctioneer + k) % n for k in range(n))
    rounds_done = observation.round - 1
    lots = observation.lots if phase != "over" else ()
    own_sold = [item for c in observation.sold[me] for item in c]
    seen = set(observation.holding) | set(own_sold) | {i for lot in lots for i in lot}
    if rules.open_collections:
        seen |= {i for h in observation.holdings for i in h}
        seen |= {i for sold in observation.sold for c in sold for i in c}
    pool = tuple(item for item in range(len(rules.items)) if item not in seen)
    future_size = 0 if phase == "over" else (rules.rounds - rounds_done - 1) * per_round
    won_now = {i for lot in lots for i in lot if i in observation.holding}
    past_room = rounds_done * per_round - (len(observation.holding) - len(won_now)) - len(own_sold)
    sealed_seats: tuple[int, ...] = ()
    pending_seats: tuple[int, ...] = ()
    lot_options: tuple[tuple[int | None, ...], ...] = ()
    if phase == "bid":
        before = order[: order.index(observation.to_play)]
        sealed_seats = tuple(seat for seat in before if seat != me)
    elif phase == "sell":
        sellers = tuple(seat for seat in order if observation.item_counts[seat])
        started = sellers[: sellers.index(observation.to_play) + 1]
        pending_seats = tuple(seat for seat in started if seat != me)
        if not rules.open_collections:
            others = tuple(seat for seat in order if seat != me)
            lot_options = tuple(
                (me,) if set(lot) <= won_now
                else (*others, None) if observation.own_bids.bids[cup] == 0 else others
                for cup, lot in enumerate(lots)
            )  # fmt: skip
    return _Frame(observation, order, sealed_seats, pool, future_size, past_room, lot_options,
                  pending_seats)  # fmt: skip


#: A type line and a country line of a holding mask, shifted into place by the line's first bit.
_TYPE_LINE, _COUNTRY_LINE = 0xFF, 0x0101010101010101


def _fates(left: int) -> list[tuple[int, int]]:
    """What a sale can do with the lowest item of the holding mask ``left``: (the items left to
    decide, the collection sold or 0) for keeping it, selling it alone, or with a non-empty set
    of the other items of its type line or of its country line."""
    rest = left & (left - 1)
    low = left ^ rest
    x = low.bit_length() - 1
    fates = [(rest, 0), (rest, low)]
    for line in (_TYPE_LINE << (x & ~7), _COUNTRY_LINE << (x & 7)):
        others = rest & line
        sub = others
        while sub:
            fates.append((rest & ~sub, low | sub))
            sub = (sub - 1) & others
    return fates


@lru_cache(maxsize=1 << 18)
def _mask_sales(left: int) -> int:
    """How many sales (sets of disjoint collections, none included) the holding mask allows."""
    return sum(_mask_sales(rest) for rest, _ in _fates(left)) if left else 1


#: Items up to which ``sales_counts`` counts a holding's sales in int64: there are at most
#: Bell(k + 1) sales of k items, and Bell(25) < 2^63.
SALES_ITEMS = 24
_SALES_SLOTS = 1 << 16
_SALES_SHIFT = np.uint64(64 - 16)
#: Direct-mapped memo of sales counts (a count depends on the items alone): masks and counts.
_SALES_KEYS = np.zeros(_SALES_SLOTS, dtype=np.uint64)
_SALES_COUNTS = np.zeros(_SALES_SLOTS, dtype=np.int64)


@njit(cache=True)
def _sales(left: np.uint64, keys: np.ndarray, counts: np.ndarray) -> np.int64:
    """``_mask_sales``, compiled, memoised in ``keys`` and ``counts``."""
    if left == U0:
        return np.int64(1)
    slot = (left * GOLDEN) >> _SALES_SHIFT
    if keys[slot] == left:
        return counts[slot]
    rest = left & (left - U1)
    x = popcount((left ^ rest) - U1)
    total = 2 * _sales(rest, keys, counts)
    type_line = U255 << np.uint64(x & ~7)
    country_line = BYTE_ONES << np.uint64(x & 7)
    for line in (type_line, country_line):
        others = rest & line
        sub = others
        while sub != U0:
            total += _sales(rest & ~sub, keys, counts)
            sub = (sub - U1) & others
    keys[slot] = left
    counts[slot] = total
    return total


@njit(cache=True)
def _many_sales(masks: np.ndarray, keys: np.ndarray, counts: np.ndarray) -> np.ndarray:
    out = np.empty(len(masks), dtype=np.int64)
    for i in range(len(masks)):
        out[i] = -1 if popcount(masks[i]) > SALES_ITEMS else _sales(masks[i], keys, counts)
    return out


def sales_counts(masks: np.ndarray) -> np.ndarray:
    """How many sealed sales each holding mask allows (``_mask_sales``), compiled;
    -1 for a holding of more than ``SALES_ITEMS`` items (its count may not fit in int64)."""
    masks = np.ascontiguousarray(masks, dtype=np.uint64)
    return _many_sales(masks.ravel(), _SALES_KEYS, _SALES_COUNTS).reshape(masks.shape)


@njit(cache=True, _nrt=False)
def proposal_masks(
    shuffled: np.ndarray, lookup: np.ndarray, picks: np.ndarray, starts: np.ndarray,
    ends: np.ndarray, won: np.ndarray, others: np.ndarray, masks: np.ndarray,
) -> None:  # fmt: skip
    """Each proposal's holding of each other seat into ``masks``: the lots its split gives it
    (``won``) and its past items, the slice ``starts``-``ends`` of the shuffled pool."""
    for row in range(shuffled.shape[0]):
        split = picks[row]
        for k in range(len(others)):
            mask = won[split, k]
            for at in range(starts[split, k], ends[split, k]):
                mask |= lookup[shuffled[row, at]]
            masks[row, others[k]] = mask


def _holding_sales(masks: np.ndarray) -> list[int]:
    """Per row, the product of its holdings' numbers of sales (compiled where int64 holds it)."""
    counts = sales_counts(masks).tolist()
    return [
        math.prod(c if c >= 0 else _mask_sales(m) for c, m in zip(row, held, strict=True))
        for row, held in zip(counts, masks.tolist(), strict=True)
    ]


def sale_count(rules: Rules, holding: Sequence[int]) -> int:
    """How many sealed sales ``holding`` allows: sets of disjoint collections, none included."""
    return _mask_sales(mask_of(rules, holding))


def _draw_sale(holding: int, rng: np.random.Generator) -> list[int]:
    """A sale of the holding mask drawn uniformly (collection masks): the lowest item's fate
    drawn by the number of sales each leaves for the rest."""
    left, sale = holding, []
    while left:
        fates = _fates(left)
        weights = [_mask_sales(rest) for rest, _ in fates]
        target = rng.random() * sum(weights)
        pick = 0
        while pick < len(fates) - 1 and target >= weights[pick]:
            target -= weights[pick]
            pick += 1
        left, block = fates[pick]
        if block:
            sale.append(block)
    return sale


def _all_sales(rules: Rules, holding: Sequence[int]) -> Iterator[tuple]:
    """Every sale of ``holding`` (item ids), each a sorted tuple of collections."""

    def walk(left: int, sale: tuple) -> Iterator[tuple]:
        if not left:
            yield tuple(sorted(items_of(rules, c) for c in sale))
            return
        for rest, block in _fates(left):
            yield from walk(rest, (*sale, block) if block else sale)

    yield from walk(mask_of(rules, holding), ())


@lru_cache(maxsize=64)
def _bell(n: int) -> int:
    """Set partitions of ``n`` things (Bell number); Bell(k + 1) counts partial partitions of k."""
    row = [1]
    for _ in range(n):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    return row[0]


def _least_bids(frame: _Frame, winners: Sequence[int | None]) -> dict[int, list[int]]:
    """Every other seat's least allocation that wins it the lots ``winners`` gives it."""
    observation = frame.observation
    me, cups = observation.player, observation.rules.cups
    bids = {seat: [0] * cups for seat in frame.order if seat != me}
    for cup, winner in enumerate(winners):
        if winner is not None and winner != me:
            behind = frame.order.index(winner) > frame.order.index(me)
            bids[winner][cup] = max(1, observation.own_bids.bids[cup] + behind)
    return bids


def _split_table(frame: _Frame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every consistent split of the unseen items, as arrays: lot winners (splits, cups; -1
    discarded), each other seat's past items (splits, other seats), and their weights."""
    observation = frame.observation
    rules, me, counts = observation.rules, observation.player, observation.item_counts
    others = [seat for seat in range(rules.players) if seat != me]
    if rules.open_collections:
        return np.zeros((1, 0), np.int64), np.zeros((1, len(others)), np.int64), np.ones(1)
    if not frame.lot_options:  # no lot winners to choose: one split, or none
        past = np.array([[counts[seat] for seat in others]], np.int64)
        held = int(past.sum())
        fits = held <= frame.past_room and held + frame.future_size <= len(frame.pool)
        if past.min(initial=0) < 0 or not fits:
            raise ValueError("no filling is consistent with this observation")
        return np.zeros((1, 0), np.int64), past, np.ones(1)
    options = [np.array([-1 if o is None else o for o in opts]) for opts in frame.lot_options]
    winners = np.zeros((1, 0), np.int64)
    if options:  # every choice of winners, in itertools.product's order
        at = np.indices([len(o) for o in options]).reshape(len(options), -1)
        winners = np.array([o[k] for o, k in zip(options, at, strict=True)], np.int64).T
    sizes = np.array([len(lot) for lot in observation.lots][: len(options)], np.int64)
    won = np.stack([((winners == seat) * sizes).sum(axis=1) for seat in others], axis=1)
    past = np.array([counts[seat] for seat in others], np.int64) - won
    held = past.sum(axis=1)
    ok = (past.min(axis=1) >= 0) & (held <= frame.past_room)
    ok &= held + frame.future_size <= len(frame.pool)
    if options and rules.cube_limit is not None:
        own = np.array(observation.own_bids.bids, np.int64)
        for seat in others:
            behind = int(frame.order.index(seat) > frame.order.index(me))
            least = ((winners == seat) * np.maximum(1, own + behind)).sum(axis=1)
            ok &= least <= rules.cube_limit
    winners, past, held = winners[ok], past[ok], held[ok]
    if not len(past):
        raise ValueError("no filling is consistent with this observation")
    pool, future = len(frame.pool), frame.future_size
    ways = [_ways(pool, future, tuple(row)) for row in past.tolist()]
    top = max(ways)
    return winners, past, np.array([w / top for w in ways])


@lru_cache(maxsize=1 << 12)
def _ways(pool: int, future: int, past: tuple[int, ...]) -> int:
    """Ways to place the unseen pool around a split: each other seat's ``past`` items, the
    ordered ``future`` cards, the rest out of play."""
    count = math.factorial(pool) // math.factorial(pool - sum(past) - future)
    for size in past:
        count //= math.factorial(size)
    return count


def _holdings(frame: _Frame, winners: Sequence[int | None], past_items: dict) -> list:
    """Every seat's items: the observer's as seen, the others' from their lots and past items."""
    observation = frame.observation
    if observation.rules.open_collections:
        return [tuple(h) for h in observation.holdings]
    holdings = []
    for seat in range(observation.rules.players):
        if seat == observation.player:
            holdings.append(tuple(observation.holding))
            continue
        lots = [i for lot, w in zip(observation.lots, winners, strict=False) if w == seat
                for i in lot]  # fmt: skip
        holdings.append(tuple(sorted((*lots, *past_items.get(seat, ())))))
    return holdings


def _draw_allocations(budget: int, cups: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` allocations of at most ``budget`` Bucks over ``cups`` cups drawn uniformly
    (stars and bars: ``cups`` dividers among budget + cups places)."""
    keys = rng.random((count, budget + cups))
    places = np.sort(np.argsort(keys, axis=1)[:, :cups], axis=1)
    bids = np.empty_like(places)  # the gaps between dividers (np.diff with -1 prepended, - 1)
    bids[:, 0] = places[:, 0]
    bids[:, 1:] = places[:, 1:] - places[:, :-1] - 1
    return bids


def sample_states(observation: Observation, rng: np.random.Generator, count: int) -> list[State]:
    """``count`` States consistent with ``observation``, every filling equally likely."""
    sampler = Sampler(observation)
    draws = sampler.draw(rng, count)
    return [sampler.state(draws, row) for row in range(count)]


class Draws(NamedTuple):
    """``count`` sampled fillings as arrays (``Sampler.draw``)."""

    picks: np.ndarray  # (count,): each filling's split (lot winners, past items per seat)
    shuffled: np.ndarray  # (count, pool): the unseen pool in a uniform order; each other seat's
    # past items come first (seat after seat, as many as its split gives it), then the future
    masks: np.ndarray  # (count, players) uint64: every other seat's holding (0 for the observer)
    future: np.ndarray  # (count, future_size): the cards still to be dealt after this round
    sealed: dict  # seat -> (count, cups) int64: its hidden sealed allocation
    sales: dict  # seat -> [count lists of collection masks]: its hidden sealed sale


class Sampler:
    """Uniform fillings of one observation, many at once. Proposals (a split by its weight, the
    unseen pool shuffled) are independent; with hidden sales each is accepted with probability
    its holdings' sales over the Bell bound, so the first ``count`` kept are uniform."""

    def __init__(self, observation: Observation) -> None:
        frame = self.frame = _frame(observation)
        self.observation = observation
        rules, me = observation.rules, observation.player
        self.winners, self.past, weights = _split_table(frame)
        self.cumulative = np.cumsum(weights)
        self.pool = np.array(frame.pool, dtype=np.int64)
        self.others = tuple(seat for seat in range(rules.players) if seat != me)
        self.other_seats = np.array(self.others, np.int64)
        self.lookup = item_bits(rules)  # the mask bit of each item id
        # per split: each other seat's past items (a slice of the shuffled pool) and lot items
        self.ends = np.cumsum(self.past, axis=1)
        self.starts = self.ends - self.past
        lots = np.array([mask_of(rules, lot) for lot in observation.lots], np.uint64)
        lots = lots[: self.winners.shape[1]]
        mine = self.winners[:, :, None] == np.array(self.others)
        self.won = np.bitwise_or.reduce(np.where(mine, lots[None, :, None], np.uint64(0)), axis=1)
        self.secret_sales = bool(frame.pending_seats) and not rules.open_collections
        self.seen_masks = np.array(
            [0 if seat == me or h is None else mask_of(rules, h)
             for seat, h in enumerate(observation.holdings)], np.uint64,
        )  # fmt: skip
        self.bound = math.prod(
            _bell(observation.item_counts[s] + 1) for s in frame.pending_seats
        )  # fmt: skip

    def draw(self, rng: np.random.Generator, count: int) -> Draws:
        """``count`` fillings, each consistent filling equally likely."""
        if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
            raise ValueError(f"count must be a whole number >= 0, got {count!r}")
        frame, observation, rules = self.frame, self.observation, self.observation.rules
        sealed = {
            seat: _draw_allocations(
                budget_of(rules, observation.bucks[seat]), rules.cups, count, rng
            )
            for seat in frame.sealed_seats
        }  # only while bidding, when no sale is hidden: never rejected
        parts, kept, proposed = [], 0, 0
        while kept < count or not parts:
            # propose about as many as should be accepted still (by the rate so far)
            want = count - kept
            size = want if not proposed else max(want, int(want * proposed / max(kept, 1)) + 1)
            picks, shuffled, masks = self._propose(rng, size)
            proposed += size
            if self.secret_sales:
                accepted = self._accept(rng, masks)
                picks, shuffled, masks = picks[accepted], shuffled[accepted], masks[accepted]
            parts.append((picks, shuffled, masks))
            kept += len(picks)
        picks, shuffled, masks = (
            (a[0] if len(a) == 1 else np.concatenate(a))[:count] for a in zip(*parts, strict=True)
        )
        if len(self.cumulative) == 1:
            held = self.ends[0, -1]
            future = shuffled[:, held : held + frame.future_size]
        else:
            at = self.ends[picks, -1][:, None] + np.arange(frame.future_size)
            future = np.take_along_axis(shuffled, at, axis=1)
        sales = {
            seat: [_draw_sale(int(masks[row, seat]), rng) for row in range(count)]
            for seat in frame.pending_seats
        }
        return Draws(picks, shuffled, masks, future, sealed, sales)

    def _propose(self, rng: np.random.Generator, size: int) -> tuple:
        """``size`` proposals: split picks, shuffled pools and the other seats' holdings."""
        cumulative, n = self.cumulative, self.observation.rules.players
        if len(cumulative) == 1:  # one split (while bidding, or open collections): no draw
            picks = np.zeros(size, np.int64)
        else:
            picks = np.searchsorted(cumulative, rng.random(size) * cumulative[-1], side="right")
            picks = np.minimum(picks, len(cumulative) - 1)
        pools = np.empty((size, len(self.pool)), np.int64)
        pools[:] = self.pool  # (np.broadcast_to's view costs more than the copy)
        shuffled = rng.permuted(pools, axis=1, out=pools)
        masks = np.zeros((size, n), np.uint64)
        if self.observation.rules.open_collections:
            masks[:] = self.seen_masks
            return picks, shuffled, masks
        proposal_masks(shuffled, self.lookup, picks, self.starts, self.ends, self.won,
                       self.other_seats, masks)  # fmt: skip
        return picks, shuffled, masks

    def _accept(self, rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
        """Which proposals pass the rejection step (by their holdings' numbers of sales)."""
        accept = _holding_sales(masks[:, list(self.frame.pending_seats)])
        u = rng.random(len(masks))
        return np.array([u[i] * self.bound < accept[i] for i in range(len(masks))], np.bool_)

    def state(self, draws: Draws, row: int) -> State:
        """The State of drawn filling ``row`` (with the witness of the module docstring)."""
        frame, rules = self.frame, self.observation.rules
        pick = int(draws.picks[row])
        winners = tuple(None if w < 0 else w for w in self.winners[pick].tolist())
        shuffled = draws.shuffled[row].tolist()
        slices = zip(self.others, self.starts[pick].tolist(), self.ends[pick].tolist(), strict=True)
        past_items = {seat: shuffled[start:end] for seat, start, end in slices}
        future = tuple(draws.future[row].tolist())
        holdings = _holdings(frame, winners, past_items)
        pending = {
            seat: tuple(sorted(items_of(rules, c) for c in sales[row]))
            for seat, sales in draws.sales.items()
        }
        sealed = {
            seat: Allocation(tuple(bids[row].tolist())) for seat, bids in draws.sealed.items()
        }
        return _build(frame, sealed, holdings, future, pending, winners)

    def positions(self, rng: np.random.Generator, count: int, times: int = 1) -> Positions:
        """The positions of the fillings ``draw(rng, count)`` gives, ``times`` over (row
        ``k * count + f`` is filling f, as ``repeat_positions`` gives)."""
        draws = self.draw(rng, count)
        positions = repeat_positions(observed_position(self.observation), count * times)
        rules, me = self.observation.rules, self.observation.player
        n, start = rules.players, self.observation.round * rules.items_per_round
        others = [seat for seat in range(n) if seat != me]
        holdings = positions.holdings.reshape(times, count, n)
        holdings[:, :, others] = draws.masks[:, others]
        deck = positions.deck.reshape(times, count, -1)
        deck[:, :, start : start + draws.future.shape[1]] = draws.future
        bids = positions.bids.reshape(times, count, n, -1)
        for seat, sealed in draws.sealed.items():
            bids[:, :, seat] = sealed
        values = rules.sale_value
        sale_items = positions.sale_items.reshape(times, count, n)
        sale_count = positions.sale_count.reshape(times, count, n)
        sale_bucks = positions.sale_bucks.reshape(times, count, n)
        for seat, sales in draws.sales.items():
            for row, sale in enumerate(sales):
                sale_items[:, row, seat] = sum(sale)  # disjoint collections
                sale_count[:, row, seat] = len(sale)
                sale_bucks[:, row, seat] = sum(values(c.bit_count()) for c in sale)
        return positions


def consistent_fillings(observation: Observation) -> Iterator[Filling]:
    """Every filling consistent with ``observation`` (as ``filling_of`` reads them), by exact
    enumeration: small rules only."""
    frame = _frame(observation)
    rules, me = observation.rules, observation.player
    seats = [seat for seat in range(rules.players) if seat != me]
    table, pasts, _ = _split_table(frame)
    for row, past in zip(table.tolist(), pasts.tolist(), strict=True):
        winners = tuple(None if w < 0 else w for w in row)
        for picks in _disjoint_picks(frame.pool, past):
            used = {i for pick in picks for i in pick}
            rest = [i for i in frame.pool if i not in used]
            holdings = _holdings(frame, winners, dict(zip(seats, picks, strict=False)))
            sales = [list(_all_sales(rules, holdings[s])) for s in frame.pending_seats]
            allocations = [
                list(Allocations(budget_of(rules, observation.bucks[s]), rules.cups))
                for s in frame.sealed_seats
            ]
            for future in itertools.permutations(rest, frame.future_size):
                for sale in itertools.product(*sales):
                    pending = dict(zip(frame.pending_seats, sale, strict=True))
                    for bids in itertools.product(*allocations):
                        sealed = dict(zip(frame.sealed_seats, bids, strict=True))
                        yield _filling(observation, me, sealed, holdings, future, pending)


def filling_of(state: State, player: int) -> Filling:
    """The part of ``state`` hidden from ``player``, as ``consistent_fillings`` yields it."""
    if not isinstance(state, State):
        raise TypeError(f"state must be a going_gone State, got {state!r}")
    observation = state.observation(player)
    rules = state.rules
    start = state.round * rules.items_per_round
    future = state.deal.deck[start : rules.rounds * rules.items_per_round]
    sealed = {s: b for s, b in enumerate(state.bids) if b is not None and state.phase == "bid"}
    pending = dict(enumerate(state.pending)) if state.phase == "sell" else {}
    return _filling(observation, player, sealed, state.holdings, future, pending)


def _filling(
    observation: Observation, me: int, sealed: dict, holdings: Sequence, future: Sequence[int],
    pending: dict,
) -> Filling:  # fmt: skip
    n = observation.rules.players
    return (
        tuple(None if s == me or s not in sealed else tuple(sealed[s].bids) for s in range(n))
        if observation.phase == "bid" else (),
        () if observation.rules.open_collections
        else tuple(None if s == me else tuple(sorted(holdings[s])) for s in range(n)),
        tuple(future) if observation.phase != "over" else (),
        tuple(None if s == me else tuple(sorted(pending.get(s, ()))) for s in range(n))
        if observation.phase == "sell" else (),
    )  # fmt: skip


def _disjoint_picks(pool: Sequence[int], sizes: Sequence[int]) -> Iterator[tuple]:
    """Every way to pick disjoint sets of the given sizes from ``pool`` (in order)."""
    if not sizes:
        yield ()
        return
    for first in itertools.combinations(pool, sizes[0]):
        rest = [i for i in pool if i not in first]
        for others in _disjoint_picks(rest, sizes[1:]):
            yield (first, *others)


def _build(
    frame: _Frame, sealed: dict, holdings: list, future: tuple, pending: dict,
    winners: Sequence[int | None],
) -> State:  # fmt: skip
    """The State of a filling, with the witness described in the module docstring."""
    observation = frame.observation
    rules, me, phase = observation.rules, observation.player, observation.phase
    n, per_round = rules.players, rules.items_per_round
    rounds_done = observation.round - 1
    lots = observation.lots if phase != "over" else ()
    lot_items = [i for lot in lots for i in lot]
    placed = {i for h in holdings for i in h} | set(future) | set(lot_items)
    placed |= {i for sold in observation.sold if sold for c in sold for i in c}
    out_of_play = [i for i in range(len(rules.items)) if i not in placed]
    tail_size = len(rules.items) - rules.rounds * per_round
    tail = out_of_play[len(out_of_play) - tail_size :] if tail_size else []
    gone = out_of_play[: len(out_of_play) - tail_size]
    past = sorted(set(range(len(rules.items))) - set(lot_items) - set(future) - set(tail))
    deck = (*past, *lot_items, *future, *tail)
    first = (observation.auctioneer - min(rounds_done, rules.rounds - 1)) % n
    state = State(rules, Deal(tuple(deck), first))._evolve(
        rounds_done=rounds_done, auctioneer=observation.auctioneer, phase=phase, lots=lots,
        bucks=observation.bucks, holdings=tuple(tuple(sorted(h)) for h in holdings),
        box=n * rules.starting_bucks - sum(observation.bucks), discarded=tuple(gone),
        sold=tuple(observation.sold[s] if s == me or rules.open_collections else ()
                   for s in range(n)),
    )  # fmt: skip
    if phase == "bid":
        state.bids = tuple(observation.own_bids if s == me else sealed.get(s) for s in range(n))
    elif phase == "sell":
        state.__dict__.update(_sale_fields(frame, holdings, pending, winners))
        lost = [i for lot, w in zip(lots, state._cup_results[0], strict=True) if w is None
                for i in lot]  # fmt: skip
        state.discarded = (*state.discarded, *lost)
    return state


def _sale_fields(frame: _Frame, holdings: list, pending: dict, winners: Sequence) -> dict:
    """A selling State's fields: the resolved cups (least winning bids), sellers, sales."""
    observation = frame.observation
    me, lots, n = observation.player, observation.lots, observation.rules.players
    if not winners:  # open collections: the lots' owners are seen
        owner = {i: s for s, h in enumerate(holdings) for i in h}
        winners = tuple(owner.get(lot[0]) for lot in lots)
    least = _least_bids(frame, winners)
    bids = tuple(observation.own_bids if s == me else Allocation(tuple(least[s])) for s in range(n))
    prices = tuple(0 if w is None else bids[w].bids[cup] for cup, w in enumerate(winners))
    sellers = tuple(seat for seat in frame.order if observation.item_counts[seat])
    to_play = sellers.index(observation.to_play)
    return dict(
        bids=bids,
        sellers=sellers,
        pending=tuple(
            observation.pending_sale if s == me else pending.get(s, ()) for s in range(n)
        ),
        done=tuple(s in sellers[:to_play] for s in range(n)),
        _cup_results=(tuple(winners), prices),
    )
