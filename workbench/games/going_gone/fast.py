"""The fast engine: many Going, Going, GONE! games advanced in lockstep by compiled loops.

This is the second implementation of the rules (the first is ``engine.State``); a test replays
every recorded fast game through ``State.apply`` and demands identical frames. Holdings, lots
and collections are 64-bit masks (``bits``). Agents play here as compiled policies
(``policies``): an integer kind and a parameter vector each.

Random streams: a batch draws from its generator exactly what the numpy batch engine it
replaced drew, in the same order (the deck's uniforms; then each round, for each distinct agent
in seat order, its bid uniforms for every (game, seat) pair, game-major; then the random
agent's sale picks, one uniform per pair per pick), so a seed gives the same games as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from workbench.games.going_gone.compiled import (
    WORK,
    Tables,
    cached_value,
    popcount,
    tables_of,
)
from workbench.games.going_gone.policies import (
    COLLECTOR,
    MAX_SALES,
    PARAMETERS,
    RANDOM,
    VALUATION,
    choose_bids,
    plan_sales,
    random_sale_pick,
    scratch,
)
from workbench.games.going_gone.rules import Rules
from workbench.kit.batching import distinct_agents


@dataclass
class Recording:
    """Per-round facts of a batch: for the rounds and lots frames and for replay."""

    deck: np.ndarray  # (G, items)
    first_auctioneer: np.ndarray  # (G,)
    bids: np.ndarray  # (G, R, n, cups)
    winners: np.ndarray  # (G, R, cups), -1: discarded
    prices: np.ndarray  # (G, R, cups)
    sales: list[np.ndarray]  # per round: (G, n, S_r) collection masks in submission order
    bucks_after: np.ndarray  # (G, R, n)
    holdings_after: np.ndarray  # (G, R, n) uint64
    score_after: np.ndarray  # (G, R, n): Bucks + best arrangement if the game ended now
    spent: np.ndarray  # (G, R, n)
    lots_won: np.ndarray  # (G, R, n)
    items_won: np.ndarray  # (G, R, n)
    sales_made: np.ndarray  # (G, R, n): collections sold
    sale_bucks: np.ndarray  # (G, R, n)

    @classmethod
    def empty(cls, rules: Rules, games: int) -> Recording:
        """Zeroed arrays for ``games`` games of ``rules``."""
        shape = (games, rules.rounds, rules.players)
        return cls(
            deck=np.zeros((games, len(rules.items)), np.int16),
            first_auctioneer=np.zeros(games, np.int8),
            bids=np.zeros((*shape, rules.cups), np.int16),
            winners=np.full((games, rules.rounds, rules.cups), -1, np.int8),
            prices=np.zeros((games, rules.rounds, rules.cups), np.int16),
            sales=[],
            bucks_after=np.zeros(shape, np.int32),
            holdings_after=np.zeros(shape, np.uint64),
            score_after=np.zeros(shape, np.int32),
            spent=np.zeros(shape, np.int16),
            lots_won=np.zeros(shape, np.int8),
            items_won=np.zeros(shape, np.int8),
            sales_made=np.zeros(shape, np.int8),
            sale_bucks=np.zeros(shape, np.int16),
        )


@dataclass
class FastBatch:
    """Games advanced in lockstep (mutable: the compiled loops update the arrays in place)."""

    rules: Rules
    deck: np.ndarray  # (G, items) item ids, hidden
    first_auctioneer: np.ndarray  # (G,)
    auctioneer: np.ndarray  # (G,)
    bucks: np.ndarray  # (G, n)
    holdings: np.ndarray  # (G, n) uint64
    sold: np.ndarray  # (G, n) uint64
    items_won: np.ndarray  # (G, n)
    lots_won: np.ndarray  # (G, n)
    spent: np.ndarray  # (G, n)
    sales_made: np.ndarray  # (G, n)
    sale_bucks: np.ndarray  # (G, n)
    times_auctioneer: np.ndarray  # (G, n)
    rounds_done: int = 0

    @property
    def games(self) -> int:
        return self.bucks.shape[0]

    @property
    def is_over(self) -> bool:
        return self.rounds_done >= self.rules.rounds

    @property
    def box(self) -> np.ndarray:
        """(G,) Bucks paid into the box minus Bucks it paid for sales (since the batch began)."""
        return self.spent.sum(axis=1) - self.sale_bucks.sum(axis=1)


def new_batch(rules: Rules, games: int, rng: np.random.Generator) -> FastBatch:
    """``games`` fresh games: decks shuffled, the first Auctioneer per the rules."""
    n = rules.players
    deck = np.argsort(rng.random((games, len(rules.items))), axis=1).astype(np.int16)
    if rules.first_auctioneer == "random":
        first = rng.integers(n, size=games).astype(np.int64)
    else:
        first = np.full(games, rules.first_auctioneer, dtype=np.int64)
    zeros = np.zeros((games, n), np.int64)
    return FastBatch(
        rules=rules,
        deck=deck,
        first_auctioneer=first,
        auctioneer=first.copy(),
        bucks=np.full((games, n), rules.starting_bucks, np.int64),
        holdings=np.zeros((games, n), np.uint64),
        sold=np.zeros((games, n), np.uint64),
        items_won=zeros.copy(),
        lots_won=zeros.copy(),
        spent=zeros.copy(),
        sales_made=zeros.copy(),
        sale_bucks=zeros.copy(),
        times_auctioneer=zeros.copy(),
    )


def policy_of(agent: Any) -> tuple[int, np.ndarray]:
    """An agent's compiled policy: (kind, float64 parameter vector); anything else is refused,
    naming the agent and what is allowed."""
    kind = getattr(agent, "policy_kind", None)
    params = getattr(agent, "policy_params", None)
    if kind not in (RANDOM, VALUATION, COLLECTOR) or params is None:
        raise ValueError(
            f"agent {getattr(agent, 'name', agent)!r} has no compiled policy: the fast engine "
            "plays the game's compiled agents (random, valuation, collector)"
        )
    params = np.ascontiguousarray(params, dtype=np.float64)
    if params.shape != (PARAMETERS,):
        raise ValueError(
            f"agent {getattr(agent, 'name', agent)!r} has {params.shape} policy parameters; "
            f"expected {PARAMETERS}"
        )
    return int(kind), params


def play(
    batch: FastBatch,
    agents: Sequence[Any],
    rng: np.random.Generator,
    recording: Recording | None = None,
) -> FastBatch:
    """Play every game of the batch to the end with compiled-policy agents (one per seat)
    (``rollouts`` plays games that stand part-way through a round)."""
    rules = batch.rules
    tb = tables_of(rules)
    distinct, seat_agent = distinct_agents(agents)
    groups = [
        (*policy_of(agent), np.flatnonzero(seat_agent == i).astype(np.int64))
        for i, agent in enumerate(distinct)
    ]
    if recording is not None:
        recording.deck[:] = batch.deck
        recording.first_auctioneer[:] = batch.first_auctioneer
    record = recording if recording is not None else Recording.empty(rules, 0)
    G, n, cups = batch.games, rules.players, rules.cups
    limit = -1 if rules.cube_limit is None else rules.cube_limit
    lots = np.zeros((G, cups), np.uint64)
    bids = np.zeros((G, n, cups), np.int64)
    bid_space, sale_space = scratch(cups), scratch(1)
    work = np.zeros(WORK, np.int64)
    while not batch.is_over:
        r = batch.rounds_done
        rounds_left = rules.rounds - r - 1
        _deal(batch.deck, r * rules.items_per_round, tb, batch.auctioneer,
              batch.times_auctioneer, lots)  # fmt: skip
        for kind, params, seats in groups:
            u = rng.random((G * len(seats), 1 if kind == RANDOM else cups))
            _group_bids(kind, params, seats, u, rounds_left, lots, batch.bucks, batch.holdings,
                        batch.sold, rules.open_collections, limit, tb, bid_space,
                        bids)  # fmt: skip
        _resolve(bids, lots, tb, batch.auctioneer, batch.bucks, batch.holdings, batch.spent,
                 batch.lots_won, batch.items_won, recording is not None, r, record.bids,
                 record.winners, record.prices, record.spent, record.lots_won,
                 record.items_won)  # fmt: skip
        width = MAX_SALES  # a random seat may sell every item, one collection each
        if any(kind == RANDOM for kind, _, _ in groups):
            width = max(width, int(np.bitwise_count(batch.holdings).max(initial=0)))
        table = np.zeros((G, n, width), np.uint64)
        for kind, params, seats in groups:
            if kind == RANDOM:
                _random_sales(seats, batch.holdings, tb, table, rng)
            else:
                _group_sales(kind, params, seats, rounds_left, batch.bucks, batch.holdings, tb,
                             sale_space, table)  # fmt: skip
        _apply_sales(table, tb, work, batch.bucks, batch.holdings, batch.sold, batch.sales_made,
                     batch.sale_bucks, recording is not None, r, record.sales_made,
                     record.sale_bucks, record.bucks_after, record.holdings_after,
                     record.score_after)  # fmt: skip
        if recording is not None:
            made = int(record.sales_made[:, r].max(initial=0))
            recording.sales.append(table[..., :made].copy())
        batch.rounds_done += 1
        if not batch.is_over:
            batch.auctioneer[:] = (batch.auctioneer + 1) % n
    return batch


def _random_sales(
    seats: np.ndarray, holdings: np.ndarray, tb: Tables, table: np.ndarray,
    rng: np.random.Generator,
) -> None:  # fmt: skip
    """The random agent's sales: pick after pick, one uniform per (game, seat) pair each time,
    until every pair has said it is done."""
    available = np.ascontiguousarray(holdings[:, seats]).ravel()
    first = np.zeros(len(seats), np.int64)
    active = np.ones(len(available), np.bool_)
    pick = 0
    while active.any():
        u = rng.random(len(available))
        _random_sale_step(u, seats, available, active, tb, table, pick, first)
        pick += 1


@njit(cache=True, _nrt=False)
def _deal(deck, start, tb, auctioneer, times_auctioneer, lots):
    for g in range(deck.shape[0]):
        at = start
        for cup in range(len(tb.lot_sizes)):
            mask = np.uint64(0)
            for _ in range(tb.lot_sizes[cup]):
                mask |= tb.item_bits[deck[g, at]]
                at += 1
            lots[g, cup] = mask
        times_auctioneer[g, auctioneer[g]] += 1


@njit(cache=True, _nrt=False)
def _group_bids(kind, params, seats, u, rounds_left, lots, bucks, holdings, sold, open_, limit,
                tb, space, bids):  # fmt: skip
    m = len(seats)
    n = bucks.shape[1]
    for g in range(lots.shape[0]):
        extra = np.uint64(0)
        if open_:
            for s in range(n):
                extra |= holdings[g, s] | sold[g, s]
        for i in range(m):
            seat = seats[i]
            budget = bucks[g, seat]
            if 0 <= limit < budget:
                budget = limit
            choose_bids(kind, params, u[g * m + i], lots[g], holdings[g, seat], budget, extra,
                        rounds_left, tb, space, bids[g, seat])  # fmt: skip


@njit(cache=True, _nrt=False)
def _resolve(bids, lots, tb, auctioneer, bucks, holdings, spent, lots_won, items_won, record, r,
             rec_bids, rec_winners, rec_prices, rec_spent, rec_lots_won,
             rec_items_won):  # fmt: skip
    G, n, cups = bids.shape
    for g in range(G):
        if record:
            for s in range(n):
                rec_spent[g, r, s] = 0
                rec_lots_won[g, r, s] = 0
                rec_items_won[g, r, s] = 0
                for cup in range(cups):
                    rec_bids[g, r, s, cup] = bids[g, s, cup]
        for cup in range(cups):
            top = 0
            winner = -1
            for k in range(n):
                seat = (auctioneer[g] + k) % n
                if bids[g, seat, cup] > top:
                    top = bids[g, seat, cup]
                    winner = seat
            if record:
                rec_winners[g, r, cup] = winner
                rec_prices[g, r, cup] = top
            if winner < 0:
                continue
            bucks[g, winner] -= top
            spent[g, winner] += top
            lots_won[g, winner] += 1
            items_won[g, winner] += tb.lot_sizes[cup]
            holdings[g, winner] |= lots[g, cup]
            if record:
                rec_spent[g, r, winner] += top
                rec_lots_won[g, r, winner] += 1
                rec_items_won[g, r, winner] += tb.lot_sizes[cup]


@njit(cache=True, _nrt=False)
def _group_sales(kind, params, seats, rounds_left, bucks, holdings, tb, space, table):
    m = len(seats)
    for g in range(bucks.shape[0]):
        for i in range(m):
            seat = seats[i]
            plan_sales(kind, params, holdings[g, seat], bucks[g, seat], rounds_left, tb, space,
                       table[g, seat, :MAX_SALES])  # fmt: skip


@njit(cache=True, _nrt=False)
def _random_sale_step(u, seats, available, active, tb, table, pick, first):
    m = len(seats)
    for row in range(len(available)):
        if not active[row]:
            continue
        collection = random_sale_pick(u[row], available[row], tb)
        if collection == np.uint64(0):
            active[row] = False
            continue
        table[row // m, seats[row % m], first[row % m] + pick] = collection
        available[row] &= ~collection


@njit(cache=True, _nrt=False)
def _apply_sales(table, tb, work, bucks, holdings, sold, sales_made, sale_bucks, record, r,
                 rec_sales_made, rec_sale_bucks, rec_bucks_after, rec_holdings_after,
                 rec_score_after):  # fmt: skip
    G, n, width = table.shape
    for g in range(G):
        for s in range(n):
            paid = 0
            made = 0
            gone = np.uint64(0)
            for k in range(width):  # a seat's sales fill its row from the start
                collection = table[g, s, k]
                if collection == np.uint64(0):
                    break
                paid += tb.values[popcount(collection)]
                made += 1
                gone |= collection
            holdings[g, s] &= ~gone
            sold[g, s] |= gone
            bucks[g, s] += paid
            sales_made[g, s] += made
            sale_bucks[g, s] += paid
            if record:
                rec_sales_made[g, r, s] = made
                rec_sale_bucks[g, r, s] = paid
                rec_bucks_after[g, r, s] = bucks[g, s]
                rec_holdings_after[g, r, s] = holdings[g, s]
                if r > 0 and rec_holdings_after[g, r - 1, s] == holdings[g, s]:  # unchanged
                    value = rec_score_after[g, r - 1, s] - rec_bucks_after[g, r - 1, s]
                else:
                    value = cached_value(holdings[g, s], tb, work)
                rec_score_after[g, r, s] = bucks[g, s] + value


def final_scores(batch: FastBatch) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(collection values, scores, ranks, win share) per game and seat; ties share the win."""
    values = np.zeros(batch.holdings.shape, np.int64)
    _values(batch.holdings, tables_of(batch.rules), np.zeros(WORK, np.int64), values)
    scores = batch.bucks + values
    ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    winners = ranks == 1
    share = winners / winners.sum(axis=1, keepdims=True)
    return values, scores, ranks, share


@njit(cache=True, _nrt=False)
def _values(holdings, tb, work, out):
    for g in range(holdings.shape[0]):
        for s in range(holdings.shape[1]):
            out[g, s] = cached_value(holdings[g, s], tb, work)
