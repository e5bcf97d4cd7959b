"""Playouts in one compiled call: every game of a batch of positions played to the end by
compiled policies, each game from wherever it stands (its own round, phase, sealed bids and
sales), for ``play_from`` and the ``search`` agent.

A position holds every card (``Positions``: a filled-in State as arrays). Games are played one
after another; the policies are ``policies.choose_bids`` and ``plan_sales``, as in the fast
engine (``fast.play``), and a round under way resumes as there: sealed bids stand, a sealed
sale stands, a seat part-way through its sale keeps what it has put in and adds the rest of its
plan (a random seat picks on from the items left).

Random streams: game g's uniforms are a counter-based hash of its key ``keys[g]`` and (round,
seat, slot): slot j < cups for the bid of that round, 512 + k for a random seat's k-th sale
pick. A game's draws depend on nothing but its key, so the same key gives the same playout in
any batch (the search's common random numbers: one key per filling, shared by every candidate).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from workbench.games.going_gone.compiled import GOLDEN, WORK, Tables, cached_value, popcount
from workbench.games.going_gone.policies import (
    MAX_SALES,
    RANDOM,
    choose_bids,
    plan_sales,
    random_sale_pick,
    scratch,
)
from workbench.games.going_gone.rules import Rules

#: ``Positions.phase`` codes.
BID, SELL, OVER = 0, 1, 2
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


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


def empty_positions(rules: Rules, games: int) -> Positions:
    """``games`` zeroed positions (no sealed bids) to fill in."""
    n, cups = rules.players, rules.cups
    return Positions(
        deck=np.zeros((games, len(rules.items)), np.int64),
        rounds_done=np.zeros(games, np.int64),
        phase=np.zeros(games, np.int64),
        auctioneer=np.zeros(games, np.int64),
        bucks=np.zeros((games, n), np.int64),
        holdings=np.zeros((games, n), np.uint64),
        sold=np.zeros((games, n), np.uint64),
        bids=np.full((games, n, cups), -1, np.int64),
        sale_items=np.zeros((games, n), np.uint64),
        sale_count=np.zeros((games, n), np.int64),
        sale_bucks=np.zeros((games, n), np.int64),
        done=np.zeros((games, n), np.bool_),
        keys=np.zeros(games, np.uint64),
    )


def repeat_positions(positions: Positions, times: int) -> Positions:
    """The positions ``times`` over, block after block (row ``k * G + g`` is game g)."""
    return Positions(*(_blocks(a, times) for a in positions))


def _blocks(array: np.ndarray, times: int) -> np.ndarray:
    """``np.concatenate([array] * times)``, written by one broadcast (several times faster for
    the search's many copies of one row)."""
    out = np.empty((times, *array.shape), array.dtype)
    out[:] = array
    return out.reshape(times * array.shape[0], *array.shape[1:])


def play_positions(
    rules: Rules, tables: Tables, kinds: np.ndarray, params: np.ndarray, positions: Positions
) -> np.ndarray:
    """Play every position to the end (in place) with the compiled policies ``kinds`` (n,) and
    ``params`` (n, PARAMETERS), one per seat; the final scores (G, n) int64."""
    limit = -1 if rules.cube_limit is None else rules.cube_limit
    scores = np.zeros(positions.bucks.shape, np.int64)
    n, cups = rules.players, rules.cups
    # _play's work arrays: policy scratch, exact-value ints, lots, bids, uniforms, sale plan
    work = (
        scratch(cups),
        np.zeros(WORK, np.int64),
        np.zeros(cups, np.uint64),
        np.zeros((n, cups), np.int64),
        np.zeros(cups),
        np.zeros(MAX_SALES, np.uint64),
    )
    _play(kinds, params, tables, rules.open_collections, limit, rules.rounds,
          rules.items_per_round, *positions, *work, scores)  # fmt: skip
    return scores


@njit(cache=True, inline="always")
def uniform(key: np.uint64, round_: int, seat: int, slot: int) -> float:
    """Game ``key``'s uniform in [0, 1) for (round, seat, slot) (SplitMix64's finaliser)."""
    z = key + np.uint64((round_ * 16 + seat) * 1024 + slot + 1) * GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def _play(kinds, params, tb, open_, limit, rounds, per_round, deck, rounds_done, phase,
          auctioneer, bucks, holdings, sold, sealed, sale_items, sale_count, sale_bucks, done,
          keys, space, work, lots, bids, u, plan, scores):  # fmt: skip
    G, n = bucks.shape
    cups = len(tb.lot_sizes)
    for g in range(G):
        key = keys[g]
        first = True
        r = rounds_done[g]
        a = auctioneer[g]
        while r < rounds and phase[g] != OVER:
            rounds_left = rounds - r - 1
            if not (first and phase[g] == SELL):
                _deal(deck[g], r * per_round, tb, lots)
                extra = np.uint64(0)
                if open_:
                    for s in range(n):
                        extra |= holdings[g, s] | sold[g, s]
                for s in range(n):
                    if first and sealed[g, s, 0] >= 0:
                        for j in range(cups):  # (a slice copy would allocate)
                            bids[s, j] = sealed[g, s, j]
                        continue
                    budget = bucks[g, s]
                    if 0 <= limit < budget:
                        budget = limit
                    for j in range(cups):
                        u[j] = uniform(key, r, s, j)
                    choose_bids(kinds[s], params[s], u, lots, holdings[g, s], budget, extra,
                                rounds_left, tb, space, bids[s])  # fmt: skip
                _resolve(bids, lots, a, bucks[g], holdings[g])
            resumed = first and phase[g] == SELL
            for s in range(n):
                held = holdings[g, s]
                if held == np.uint64(0):
                    continue
                gone = np.uint64(0)
                paid = 0
                sealed_count = 0
                if resumed:
                    gone = sale_items[g, s]
                    paid = sale_bucks[g, s]
                    sealed_count = sale_count[g, s]
                if not (resumed and done[g, s]):
                    if kinds[s] == RANDOM:
                        available = held & ~gone
                        for pick in range(64):
                            c = random_sale_pick(uniform(key, r, s, 512 + pick), available, tb)
                            if c == np.uint64(0):
                                break
                            gone |= c
                            paid += tb.values[popcount(c)]
                            available &= ~c
                    else:
                        made = plan_sales(kinds[s], params[s], held, bucks[g, s], rounds_left,
                                          tb, space, plan)  # fmt: skip
                        for k in range(sealed_count, made):
                            if plan[k] & gone:
                                raise ValueError(
                                    "a seat's sale so far does not match its agent's plan: "
                                    "the rest of the plan sells an item already in the sale"
                                )
                            gone |= plan[k]
                            paid += tb.values[popcount(plan[k])]
                holdings[g, s] = held & ~gone
                sold[g, s] |= gone
                bucks[g, s] += paid
            r += 1
            a = (a + 1) % n
            first = False
        for s in range(n):
            scores[g, s] = bucks[g, s] + cached_value(holdings[g, s], tb, work)


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
def _resolve(bids, lots, auctioneer, bucks, holdings):
    """Each cup to the highest bid (ties: nearest the Auctioneer clockwise), paid to the box."""
    n, cups = bids.shape
    for cup in range(cups):
        top = 0
        winner = -1
        for k in range(n):
            seat = (auctioneer + k) % n
            if bids[seat, cup] > top:
                top = bids[seat, cup]
                winner = seat
        if winner >= 0:
            bucks[winner] -= top
            holdings[winner] |= lots[cup]


__all__ = [
    "BID", "OVER", "SELL", "Positions", "empty_positions", "play_positions",
    "repeat_positions", "uniform",
]  # fmt: skip
