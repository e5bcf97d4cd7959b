"""Uniform sampling of what a Going, Going, GONE! seat cannot see, for the ``search`` agents.

What a seat sees is its ``Observation``: the round, phase, seat to act and Auctioneer, the lots
on offer, every seat's Bucks and item count, its own items, its own sealed allocation and sale,
its own sold collections; with ``open_collections`` also every holding and sold collection. It
keeps no memory of past rounds (docs/rules.md: the secrecy the default observation models), so
everything else is hidden. A *filling* is the hidden part that decides the rest of the game:

- ``sealed``: while bidding, the allocation of every other seat that has already bid this
  round (the seats before the one to act, in turn order);
- ``holdings``: with secret collections, every other seat's items;
- ``future``: the order of the cards still to be dealt in later rounds;
- ``pending``: while selling, the sealed sale of every other seat that has started selling
  (the sellers before the one to act, and the one to act if it is not the observer).

A filling is *consistent* with the observation when these card-location and rule constraints
hold: every item is in exactly one place (the observer's holding, sold or on offer as seen;
each other seat holds exactly its counted items; the deck has exactly the cards still to come;
the rest are out of play: discarded, sold by others, or never dealt); the items out of play
fit the past rounds (no other seat holds more past items than the past rounds dealt, less the
observer's own); a sealed allocation is any split of whole Bucks over the cups totalling at
most that seat's budget; a sale is any set of disjoint collections of that seat's items.
While selling, this round's lots are already won: a lot the observer did not win went whole
to one other seat or, only if the observer bid nothing in that cup, was discarded; and every
other seat can have bid enough to win its lots (at least 1, and at least the observer's bid,
one more if the observer is ahead of it in turn order) within its cube limit. Nothing about
how opponents would have played weighs in: each consistent filling is equally likely.

Parts of a State that never affect the game from here on (the record of past rounds, the
order of past deals, which out-of-play cards were discarded and which sold by others, the
other seats' bids of a round already resolved) are not part of the filling: a sampled State
holds one consistent witness of them (no history, out-of-play cards counted as discarded,
the least bids that win the lots), so its ``observation`` equals the given one but its log
starts at the sampled position.

Sampling is exact: the lot winners are drawn by their number of completions, the cards by a
uniform shuffle, allocations by stars and bars; when other seats' secret sales are hidden the
holdings are accepted with probability proportional to their number of possible sales
(rejection against the bound Bell(k + 1) on the sales of k items).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from workbench.games.going_gone.actions import Allocation, Allocations, budget_of
from workbench.games.going_gone.engine import Deal, Observation, State
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


# -- sales: every set of disjoint collections of a holding -----------------------------------


def _lines(rules: Rules, items: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For each item (by position in ``items``): bitmasks of the other positions sharing its
    type, and sharing its country."""
    types = [rules.item_type[i] for i in items]
    countries = [rules.item_country[i] for i in items]

    def sharing(keys: list[int]) -> tuple[int, ...]:
        return tuple(
            sum(1 << j for j, key in enumerate(keys) if key == keys[i] and j != i)
            for i in range(len(keys))
        )

    return sharing(types), sharing(countries)


def _blocks(lines: tuple[tuple[int, ...], tuple[int, ...]], left: int) -> Iterator[int]:
    """Every collection holding the lowest position in ``left`` (as a bitmask), besides none."""
    low = left & -left
    x = low.bit_length() - 1
    yield low
    for line in lines:
        others = line[x] & left
        sub = others
        while sub:
            yield low | sub
            sub = (sub - 1) & others


@lru_cache(maxsize=1 << 16)
def _sales_count(lines: tuple[tuple[int, ...], tuple[int, ...]], left: int) -> int:
    """How many sets of disjoint collections the positions in ``left`` allow (the empty set
    included): the lowest position is either unsold or in exactly one collection."""
    if not left:
        return 1
    low = left & -left
    return _sales_count(lines, left ^ low) + sum(
        _sales_count(lines, left & ~block) for block in _blocks(lines, left)
    )


def sale_count(rules: Rules, holding: Sequence[int]) -> int:
    """How many sealed sales ``holding`` allows: sets of disjoint collections, none included."""
    items = tuple(sorted(holding))
    return _sales_count(_lines(rules, items), (1 << len(items)) - 1)


def _draw_sale(rules: Rules, holding: Sequence[int], rng: np.random.Generator) -> tuple:
    """A sale of ``holding`` drawn uniformly from all ``sale_count`` of them."""
    items = tuple(sorted(holding))
    lines = _lines(rules, items)
    left, sale = (1 << len(items)) - 1, []
    while left:
        low = left & -left
        choices = [(left ^ low, None)] + [(left & ~b, b) for b in _blocks(lines, left)]
        weights = np.array([_sales_count(lines, rest) for rest, _ in choices], dtype=float)
        rest, block = choices[int(rng.choice(len(choices), p=weights / weights.sum()))]
        if block is not None:
            sale.append(tuple(items[j] for j in range(len(items)) if block >> j & 1))
        left = rest
    return tuple(sorted(sale))


def _all_sales(rules: Rules, holding: Sequence[int]) -> Iterator[tuple]:
    items = tuple(sorted(holding))
    lines = _lines(rules, items)

    def walk(left: int, sale: tuple) -> Iterator[tuple]:
        if not left:
            yield tuple(sorted(sale))
            return
        low = left & -left
        yield from walk(left ^ low, sale)
        for block in _blocks(lines, left):
            chosen = tuple(items[j] for j in range(len(items)) if block >> j & 1)
            yield from walk(left & ~block, (*sale, chosen))

    yield from walk((1 << len(items)) - 1, ())


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


# -- this round's lots while selling, and how the unseen cards are split ----------------------


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


def _splits(frame: _Frame) -> tuple[list[tuple], np.ndarray]:
    """Every consistent (lot winners, past items each other seat holds) and its weight: the
    number of ways to place the unseen pool around it (held items, ordered deck, the rest)."""
    observation = frame.observation
    rules, me, counts = observation.rules, observation.player, observation.item_counts
    others = tuple(seat for seat in range(rules.players) if seat != me)
    if rules.open_collections:
        return [((), {})], np.ones(1)
    choices = itertools.product(*frame.lot_options) if frame.lot_options else [()]
    splits, weights = [], []
    for winners in choices:
        won = dict.fromkeys(others, 0)
        for lot, winner in zip(observation.lots, winners, strict=False):
            if winner is not None and winner != me:
                won[winner] += len(lot)
        past = {seat: counts[seat] - won[seat] for seat in others}
        held = sum(past.values())
        if min(past.values(), default=0) < 0 or held > frame.past_room:
            continue
        if held + frame.future_size > len(frame.pool):
            continue
        if winners and rules.cube_limit is not None:
            least = _least_bids(frame, winners)
            if any(sum(bids) > rules.cube_limit for bids in least.values()):
                continue
        ways = math.factorial(len(frame.pool)) // math.factorial(
            len(frame.pool) - held - frame.future_size
        )
        for size in past.values():
            ways //= math.factorial(size)
        splits.append((winners, past))
        weights.append(ways)
    if not splits:
        raise ValueError("no filling is consistent with this observation")
    top = max(weights)
    return splits, np.array([w / top for w in weights])


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


def _draw_allocations(budget: int, cups: int, count: int, rng: np.random.Generator) -> list:
    """``count`` allocations of at most ``budget`` Bucks over ``cups`` cups, each drawn uniformly
    (stars and bars: the cups' dividers are ``cups`` distinct places among budget + cups)."""
    keys = rng.random((count, budget + cups))
    places = np.sort(np.argsort(keys, axis=1)[:, :cups], axis=1)
    bids = np.diff(places, axis=1, prepend=-1) - 1
    return [Allocation(tuple(row)) for row in bids.tolist()]


# -- the public functions ---------------------------------------------------------------------


def sample_states(observation: Observation, rng: np.random.Generator, count: int) -> list[State]:
    """``count`` States consistent with ``observation``, every filling equally likely (see the
    module docstring for what is hidden and what consistent means)."""
    if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
        raise ValueError(f"count must be a whole number >= 0, got {count!r}")
    frame = _frame(observation)
    rules = observation.rules
    splits, weights = _splits(frame)
    cumulative = np.cumsum(weights)
    secret_sales = bool(frame.pending_seats) and not rules.open_collections
    pool = np.array(frame.pool, dtype=np.int64)
    allocations = {
        seat: _draw_allocations(budget_of(rules, observation.bucks[seat]), rules.cups, count, rng)
        for seat in frame.sealed_seats
    }  # only while bidding, when no sale is hidden: never rejected
    states: list[State] = []
    while len(states) < count:
        pick = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        winners, past = splits[min(pick, len(splits) - 1)]
        shuffled = rng.permutation(pool).tolist()
        past_items, start = {}, 0
        for seat, size in past.items():
            past_items[seat] = shuffled[start : start + size]
            start += size
        future = tuple(shuffled[start : start + frame.future_size])
        holdings = _holdings(frame, winners, past_items)
        if secret_sales:
            accept = math.prod(sale_count(rules, holdings[s]) for s in frame.pending_seats)
            bound = math.prod(_bell(len(holdings[s]) + 1) for s in frame.pending_seats)
            if rng.random() * bound >= accept:
                continue
        pending = {seat: _draw_sale(rules, holdings[seat], rng) for seat in frame.pending_seats}
        sealed = {seat: allocations[seat][len(states)] for seat in frame.sealed_seats}
        states.append(_build(frame, sealed, holdings, future, pending, winners))
    return states


def consistent_fillings(observation: Observation) -> Iterator[Filling]:
    """Every filling consistent with ``observation``, by exact enumeration (small rules only:
    it walks every split, deck order, sale and allocation), as ``filling_of`` reads them."""
    frame = _frame(observation)
    rules, me = observation.rules, observation.player
    splits, _ = _splits(frame)
    for winners, past in splits:
        seats = list(past)
        for picks in _disjoint_picks(frame.pool, [past[s] for s in seats]):
            used = {i for pick in picks for i in pick}
            rest = [i for i in frame.pool if i not in used]
            holdings = _holdings(frame, winners, dict(zip(seats, picks, strict=True)))
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
    """The part of ``state`` hidden from ``player`` (see the module docstring), as the hashable
    value ``consistent_fillings`` yields."""
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
    bucks = observation.bucks
    state = State.__new__(State)
    state.__dict__.update(
        rules=rules,
        deal=Deal(tuple(deck), (observation.auctioneer - min(rounds_done, rules.rounds - 1)) % n),
        rounds_done=rounds_done,
        auctioneer=observation.auctioneer,
        phase=phase,
        lots=lots,
        bucks=bucks,
        holdings=tuple(tuple(sorted(h)) for h in holdings),
        box=n * rules.starting_bucks - sum(bucks),
        bids=(None,) * n,
        sellers=(),
        pending=((),) * n,
        done=(False,) * n,
        discarded=tuple(gone),
        sold=tuple(
            observation.sold[s] if s == me or rules.open_collections else () for s in range(n)
        ),
        history=(),
        _cup_results=None,
    )
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
