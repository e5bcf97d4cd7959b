"""Going, Going, GONE!'s one compiled loop: positions (games standing anywhere, every card
known; a new game is a position dealt at its start) played to the end by compiled policies,
recording what the frames need. Round after round across the positions, each from its own
round, phase, sealed bids and sales: the seats still to bid bid, the cups resolve, the seats
holding items sell (adding to a sale under way), the sales are paid. Seat s of position g plays
row ``assignment[g, s]`` of the policy table (``policies``).

Uniforms come from a ``stream`` (self-play; ``workbench.kit.streams``), in a fixed order: each
round, table row after row, position after position, each of the row's seats its bid uniforms
(``cups``, one for the random policy); then, per random row, its sale picks one at a time, a
uniform for each of its (position, seat) per pick until none picks again. Or from keys
(``play_from``, the search): position g's uniform for (round, seat, slot) is a counter-based
hash of ``keys[g]`` (``uniform``; slot j < cups for a bid, 512 + k for a random seat's k-th sale
pick), so a key gives the same playout in any batch (the search's common random numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from workbench.games.going_gone.holdings import WORK, Tables, cached_value, popcount
from workbench.games.going_gone.policies import (
    MAX_SALES,
    RANDOM,
    choose_bids,
    plan_sales,
    random_sale_pick,
    scratch,
)
from workbench.games.going_gone.rules import Rules
from workbench.kit.policies import PolicyTable
from workbench.kit.streams import STREAM_WORDS, keyed_uniform
from workbench.kit.streams import random as stream_uniform

#: ``Positions.phase`` codes.
BID, SELL, OVER = 0, 1, 2
#: ``Rounds.sale_keys``: (round * SEATS + seat) * SALES + the collection's place in the sale.
SEATS, SALES = 8, 64


class Positions(NamedTuple):
    """Games standing anywhere, as arrays (G games, n seats); the play updates them in place."""

    deck: np.ndarray  # (G, items) int64: the whole deal in order
    rounds_done: np.ndarray  # (G,) int64
    phase: np.ndarray  # (G,) int64: BID, SELL or OVER
    auctioneer: np.ndarray  # (G,) int64
    bucks: np.ndarray  # (G, n) int64
    holdings: np.ndarray  # (G, n) uint64 (items won this round included)
    sold: np.ndarray  # (G, n) uint64
    bids: np.ndarray  # (G, n, cups) int64: this round's sealed bids, -1 rows for seats yet to bid
    sale_items: np.ndarray  # (G, n) uint64: the items each seat has put in its sale so far
    sale_count: np.ndarray  # (G, n) int64: ... in how many collections
    sale_bucks: np.ndarray  # (G, n) int64: ... worth how many Bucks
    done: np.ndarray  # (G, n) bool: seats whose sale is sealed (or that hold nothing)
    keys: np.ndarray  # (G,) uint64: each game's random stream


class Totals(NamedTuple):
    """What each seat of each position did over the play, (G, n) int64 each (the games frame)."""

    spent: np.ndarray
    lots_won: np.ndarray
    items_won: np.ndarray
    sales_made: np.ndarray
    sale_bucks: np.ndarray
    times_auctioneer: np.ndarray


class Rounds(NamedTuple):
    """Each round of new games (G games, R rounds): the rounds and lots frames and the replay."""

    bids: np.ndarray  # (G, R, n, cups) int16
    winners: np.ndarray  # (G, R, cups) int8, -1: discarded
    prices: np.ndarray  # (G, R, cups) int16
    spent: np.ndarray  # (G, R, n) int16
    lots_won: np.ndarray  # (G, R, n) int8
    items_won: np.ndarray  # (G, R, n) int8
    sales_made: np.ndarray  # (G, R, n) int8: collections sold
    sale_bucks: np.ndarray  # (G, R, n) int16
    bucks_after: np.ndarray  # (G, R, n) int32
    holdings_after: np.ndarray  # (G, R, n) uint64
    score_after: np.ndarray  # (G, R, n) int32: Bucks + best arrangement if the game ended now
    sales: np.ndarray  # (G, items) uint64: every collection sold, in the order made (0: none)
    sale_keys: np.ndarray  # (G, items) int64: when, by whom and where in the sale (SALES), or -1


@dataclass(frozen=True)
class Recording:
    """Played games as the frames read them: final Bucks, holdings and scores (G, n), the
    totals, and each round when the rounds or lots frame was wanted (else None)."""

    rules: Rules
    deck: np.ndarray  # (G, items)
    first_auctioneer: np.ndarray  # (G,)
    bucks: np.ndarray
    holdings: np.ndarray
    scores: np.ndarray
    totals: Totals
    rounds: Rounds | None


def empty_positions(rules: Rules, games: int) -> Positions:
    """``games`` zeroed positions (no sealed bids) to fill in."""
    seats, z, i64, u64 = (games, rules.players), np.zeros, np.int64, np.uint64
    return Positions(
        z((games, len(rules.items)), i64), z(games, i64), z(games, i64), z(games, i64),
        z(seats, i64), z(seats, u64), z(seats, u64), np.full((*seats, rules.cups), -1, i64),
        z(seats, u64), z(seats, i64), z(seats, i64), z(seats, np.bool_), z(games, u64),
    )  # fmt: skip


def repeat_positions(positions: Positions, times: int) -> Positions:
    """The positions ``times`` over, block after block (row ``k * G + g`` is game g), each
    array copied by one broadcast (faster than concatenating many copies of a row)."""
    copies = []
    for array in positions:
        out = np.empty((times, *array.shape), array.dtype)
        out[:] = array
        copies.append(out.reshape(times * array.shape[0], *array.shape[1:]))
    return Positions(*copies)


def empty_rounds(rules: Rules, games: int) -> Rounds:
    """Zeroed round records of ``games`` games."""
    shape, cups, items = (games, rules.rounds, rules.players), rules.cups, len(rules.items)
    z = np.zeros
    return Rounds(
        z((*shape, cups), np.int16), np.full((*shape[:2], cups), -1, np.int8),
        z((*shape[:2], cups), np.int16), z(shape, np.int16), z(shape, np.int8), z(shape, np.int8),
        z(shape, np.int8), z(shape, np.int16), z(shape, np.int32), z(shape, np.uint64),
        z(shape, np.int32), z((games, items), np.uint64), np.full((games, items), -1, np.int64),
    )  # fmt: skip


@cache
def _no_rounds(rules: Rules) -> Rounds:
    """Empty round records, passed (never written) when no round is recorded."""
    return empty_rounds(rules, 0)


def play_positions(
    rules: Rules, tables: Tables, table: PolicyTable, assignment: np.ndarray,
    positions: Positions, *, stream: np.ndarray | None = None, rounds: Rounds | None = None,
) -> tuple[np.ndarray, Totals]:  # fmt: skip
    """Play every position to the end (in place) with ``table``'s policies at ``assignment``
    (G, n), drawing from ``stream`` (advanced in place) or else the keys, recording each round
    into ``rounds`` when given: the final scores (G, n) int64 and the totals."""
    games, n = positions.bucks.shape
    limit = -1 if rules.cube_limit is None else rules.cube_limit
    scores = np.zeros((games, n), np.int64)
    totals = Totals(*np.zeros((6, games, n), np.int64))
    record = rounds is not None
    rounds = _no_rounds(rules) if rounds is None else rounds
    keyed = stream is None
    if stream is None:
        stream = np.zeros(STREAM_WORDS, np.uint64)
    # work arrays: policy scratch, exact-value ints, lots, uniforms, sale plan, random picks
    work = (
        scratch(rules.cups), np.zeros(WORK, np.int64), np.zeros((games, rules.cups), np.uint64),
        np.zeros(rules.cups), np.zeros(MAX_SALES, np.uint64), np.zeros((games, n), np.uint64),
        np.zeros((games, n), np.bool_), np.zeros(games, np.int64),
    )  # fmt: skip
    _play(table.kinds, table.parameters, np.ascontiguousarray(assignment, np.int64), tables,
          rules.open_collections, limit, rules.rounds, rules.items_per_round, positions, keyed,
          stream, totals, record, rounds, *work, scores)  # fmt: skip
    return scores, totals


@njit(cache=True, inline="always")
def uniform(key: np.uint64, round_: int, seat: int, slot: int) -> float:
    """Key ``key``'s uniform in [0, 1) for (round, seat, slot): the kit's ``keyed_uniform``."""
    return keyed_uniform(key, (round_ * 16 + seat) * 1024 + slot)


@njit(cache=True, inline="always")
def _due(positions, g, r, phase) -> bool:
    """Is position g in round ``r`` (0-based), at ``phase``?"""
    return positions.rounds_done[g] == r and positions.phase[g] == phase


@njit(cache=True, _nrt=False)
def _play(kinds, params, assignment, tb, open_, limit, rounds, per_round, p, keyed, stream,
          totals, record, rec, space, work, lots, u, plan, picking, active, logged,
          scores):  # fmt: skip
    G, n = p.bucks.shape
    start = rounds
    for g in range(G):
        if p.phase[g] != OVER:
            start = min(start, p.rounds_done[g])
    for r in range(start, rounds):
        _bid(r, kinds, params, assignment, tb, open_, limit, rounds, per_round, p, keyed, stream,
             totals, record, rec, space, lots, u)  # fmt: skip
        for k in range(len(kinds)):
            if kinds[k] == RANDOM:
                _random_sales(k, r, assignment, p, tb, keyed, stream, record, rec, picking, active,
                              logged)  # fmt: skip
        _sell(r, kinds, params, assignment, p, tb, rounds, space, work, plan, totals, record, rec,
              logged)  # fmt: skip
    for g in range(G):
        for s in range(n):
            scores[g, s] = p.bucks[g, s] + cached_value(p.holdings[g, s], tb, work)


@njit(cache=True, _nrt=False)
def _bid(r, kinds, params, assignment, tb, open_, limit, rounds, per_round, p, keyed, stream,
         totals, record, rec, space, lots, u):  # fmt: skip
    """Round ``r``'s deal, the bids of the seats still to bid, and the cups resolved."""
    G, n = p.bucks.shape
    cups = len(tb.lot_sizes)
    for g in range(G):
        if _due(p, g, r, BID):
            _deal(p.deck[g], r * per_round, tb, lots[g])
            totals.times_auctioneer[g, p.auctioneer[g]] += 1
    for k in range(len(kinds)):
        width = 1 if kinds[k] == RANDOM else cups
        for g in range(G):
            if not _due(p, g, r, BID):
                continue
            extra = np.uint64(0)
            if open_:
                for s in range(n):
                    extra |= p.holdings[g, s] | p.sold[g, s]
            for s in range(n):
                if assignment[g, s] != k or p.bids[g, s, 0] >= 0:
                    continue
                budget = p.bucks[g, s]
                if 0 <= limit < budget:
                    budget = limit
                for j in range(width):
                    u[j] = uniform(p.keys[g], r, s, j) if keyed else stream_uniform(stream)
                choose_bids(kinds[k], params[k], u, lots[g], p.holdings[g, s], budget, extra,
                            rounds - r - 1, tb, space, p.bids[g, s])  # fmt: skip
    for g in range(G):
        if _due(p, g, r, BID):
            _resolve(g, r, p, lots[g], tb, totals, record, rec)
            p.phase[g] = SELL


@njit(cache=True, inline="always")
def _deal(deck, start, tb, lots):
    at = start
    for cup in range(len(tb.lot_sizes)):
        mask = np.uint64(0)
        for _ in range(tb.lot_sizes[cup]):
            mask |= tb.item_bits[deck[at]]
            at += 1
        lots[cup] = mask


@njit(cache=True, inline="always")
def _resolve(g, r, p, lots, tb, totals, record, rec):
    """Each cup to the highest bid (ties: nearest the Auctioneer clockwise), paid to the box."""
    n, cups = p.bids.shape[1], p.bids.shape[2]
    a = p.auctioneer[g]
    if record:
        for s in range(n):
            for cup in range(cups):
                rec.bids[g, r, s, cup] = p.bids[g, s, cup]
    for cup in range(cups):
        top = 0
        winner = -1
        for k in range(n):
            seat = (a + k) % n
            if p.bids[g, seat, cup] > top:
                top = p.bids[g, seat, cup]
                winner = seat
        if record:
            rec.winners[g, r, cup] = winner
            rec.prices[g, r, cup] = top
        if winner < 0:
            continue
        p.bucks[g, winner] -= top
        p.holdings[g, winner] |= lots[cup]
        totals.spent[g, winner] += top
        totals.lots_won[g, winner] += 1
        totals.items_won[g, winner] += tb.lot_sizes[cup]
        if record:
            rec.spent[g, r, winner] += top
            rec.lots_won[g, r, winner] += 1
            rec.items_won[g, r, winner] += tb.lot_sizes[cup]
    for s in range(n):
        p.bids[g, s, 0] = -1


@njit(cache=True, inline="always")
def _add_sale(g, s, r, collection, p, tb, record, rec, logged):
    """Put ``collection`` into seat s's sale."""
    if record:
        rec.sales[g, logged[g]] = collection
        rec.sale_keys[g, logged[g]] = (r * SEATS + s) * SALES + p.sale_count[g, s]
        logged[g] += 1
    p.sale_items[g, s] |= collection
    p.sale_count[g, s] += 1
    p.sale_bucks[g, s] += tb.values[popcount(collection)]


@njit(cache=True, _nrt=False)
def _random_sales(k, r, assignment, p, tb, keyed, stream, record, rec, picking, active, logged):
    """The sale picks of the random policy's seats (row ``k``), pick after pick: from the
    stream, one uniform for every seat of the row per pick while any picks (the stream's order)."""
    G, n = assignment.shape
    for g in range(G):
        for s in range(n):
            picking[g, s] = p.holdings[g, s] & ~p.sale_items[g, s]
            active[g, s] = not p.done[g, s]
    pick, going = 0, True
    while going:
        going = False
        for g in range(G):
            if not _due(p, g, r, SELL):
                continue
            for s in range(n):
                if assignment[g, s] != k:
                    continue
                u = uniform(p.keys[g], r, s, 512 + pick) if keyed else stream_uniform(stream)
                if not active[g, s]:
                    continue
                c = random_sale_pick(u, picking[g, s], tb)
                if c == np.uint64(0):
                    active[g, s] = False
                    continue
                picking[g, s] &= ~c
                _add_sale(g, s, r, c, p, tb, record, rec, logged)
                going = True
        pick += 1


@njit(cache=True, _nrt=False)
def _sell(r, kinds, params, assignment, p, tb, rounds, space, work, plan, totals, record, rec,
          logged):  # fmt: skip
    """Round ``r``'s planned sales, then every sale revealed and paid, and the round ended."""
    G, n = p.bucks.shape
    for g in range(G):
        if not _due(p, g, r, SELL):
            continue
        for s in range(n):
            held = p.holdings[g, s]
            k = assignment[g, s]
            if held != np.uint64(0) and kinds[k] != RANDOM and not p.done[g, s]:
                made = plan_sales(kinds[k], params[k], held, p.bucks[g, s], rounds - r - 1, tb,
                                  space, plan)  # fmt: skip
                for i in range(p.sale_count[g, s], made):
                    if plan[i] & p.sale_items[g, s]:
                        raise ValueError(
                            "a seat's sale so far does not match its agent's plan: the rest "
                            "of the plan sells an item already in the sale"
                        )
                    _add_sale(g, s, r, plan[i], p, tb, record, rec, logged)
            gone = p.sale_items[g, s]
            p.holdings[g, s] = held & ~gone
            p.sold[g, s] |= gone
            p.bucks[g, s] += p.sale_bucks[g, s]
            totals.sales_made[g, s] += p.sale_count[g, s]
            totals.sale_bucks[g, s] += p.sale_bucks[g, s]
            if record:
                rec.sales_made[g, r, s] = p.sale_count[g, s]
                rec.sale_bucks[g, r, s] = p.sale_bucks[g, s]
                rec.bucks_after[g, r, s] = p.bucks[g, s]
                rec.holdings_after[g, r, s] = p.holdings[g, s]
                if r > 0 and rec.holdings_after[g, r - 1, s] == p.holdings[g, s]:  # unchanged
                    value = rec.score_after[g, r - 1, s] - rec.bucks_after[g, r - 1, s]
                else:
                    value = cached_value(p.holdings[g, s], tb, work)
                rec.score_after[g, r, s] = p.bucks[g, s] + value
            p.sale_items[g, s] = 0
            p.sale_count[g, s] = 0
            p.sale_bucks[g, s] = 0
            p.done[g, s] = False
        p.rounds_done[g] += 1
        p.phase[g] = OVER if r + 1 >= rounds else BID
        if r + 1 < rounds:
            p.auctioneer[g] = (p.auctioneer[g] + 1) % n


__all__ = [
    "BID", "OVER", "SELL", "Positions", "Recording", "Rounds", "Totals", "empty_positions",
    "empty_rounds", "play_positions", "repeat_positions", "uniform",
]  # fmt: skip
