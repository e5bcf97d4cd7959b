"""Rubbish Auction's compiled loop (numba), the rules' second implementation (a test replays
every recorded game through ``State.apply``), and the data layout of the positions it plays.
``play`` plays games to the end from wherever each stands (a new game is a position too), seat s
of game g playing row ``assignment[g, s]`` of the kit's ``PolicyTable``; decision d of game g
reads ``uniforms[d, g]``, the order the numpy lockstep engine it replaced drew them in."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, typeof

from workbench.games.rubbish.policies import choose_auction, choose_bid, next_seat

#: Each seat's role in a round, as recorded.
ROLE_WINNER, ROLE_CHEAPSKATE, ROLE_GAINER = 0, 1, 2


class Tables(NamedTuple):
    """One rule set as arrays: the bid table, the heuristic's preferred bids, the rule numbers."""

    totals: np.ndarray  # (options, width) int32
    counts: np.ndarray  # (options, width) int8: cards held out
    lock_after: np.ndarray  # (options, width) int8: lock option after playing the bid
    n_bids: np.ndarray  # (options,) int32
    available_totals: np.ndarray  # (options,) int32
    top_sums: np.ndarray  # (options, cards + 1) int32: largest total of exactly c cards
    best_at_most: np.ndarray  # [min_cards, o, t + 1]: see policies.preferred_bids
    cheapest_at_least: np.ndarray  # [min_cards, o, t]
    destined: np.ndarray  # (geeks, items) bool
    min_cards: np.ndarray  # (players,) int64: fewest cards at each bidding position
    players: int
    rounds: int
    destined_bonus: int
    keep_overspent: bool


class Positions(NamedTuple):
    """Games, one row each, at some position: ``position`` is the next bidding position (-1:
    the auctioneer chooses; ``item``, ``first`` -1 then); ``bid_index`` (-1: not yet bid) indexes
    the bid table of the seat's ``lock`` option; ``held``: the cards it holds out (public)."""

    geek: np.ndarray  # (G, n) int16
    fame: np.ndarray  # (G, n) int32
    lock: np.ndarray  # (G, n) int8
    remaining: np.ndarray  # (G, items) bool
    auctioneer: np.ndarray  # (G,) int8
    cheapskates: np.ndarray  # (G, n) int16
    items_won: np.ndarray  # (G, n) int16
    destined_won: np.ndarray  # (G, n) int16
    rounds_done: np.ndarray  # (G,) int16
    item: np.ndarray  # (G,) int8
    first: np.ndarray  # (G,) int8
    position: np.ndarray  # (G,) int8
    bid_index: np.ndarray  # (G, n) int16
    held: np.ndarray  # (G, n) int8


class Recording(NamedTuple):
    """Each round of played games, arrays (G, R) or (G, R, n) (no games: not recording): what
    the frames are built from and what a replay through the engine reads."""

    item: np.ndarray
    first: np.ndarray
    bid_index: np.ndarray  # index into the bid table of ``lock_before``
    lock_before: np.ndarray  # lock option each seat bid under
    total: np.ndarray
    cards: np.ndarray
    role: np.ndarray  # ROLE_*
    fame_after: np.ndarray
    score_after: np.ndarray  # fame + destined bonus for the destined items won so far
    kept: np.ndarray


_ENTRIES: dict = {}


def call_direct(function, *args):  # type: ignore[no-untyped-def]
    """``function(*args)`` straight at its compiled entry point, found on the first call (the
    dispatcher takes longer than a small call); only where the argument types never change."""
    entry = _ENTRIES.get(function)
    if entry is None:
        result = function(*args)
        _ENTRIES[function] = function.overloads[tuple(typeof(a) for a in args)].entry_point
        return result
    return entry(*args)


@njit(cache=True)
def play(  # type: ignore[no-untyped-def]
    kinds, parameters, assignment, tables, pos, uniforms, rec, record, games
):
    """Play the first ``games`` games of ``pos`` to the end, seat s of game g by the policy
    ``kinds[assignment[g, s]]``, ``parameters[assignment[g, s]]``; game g's d-th decision reads
    ``uniforms[d, g]``. Records each round in ``rec`` when ``record``."""
    t = tables
    _play(
        games, kinds, parameters, assignment, t.totals, t.counts, t.lock_after, t.n_bids,
        t.available_totals, t.top_sums, t.best_at_most, t.cheapest_at_least, t.destined,
        t.min_cards, t.players, t.rounds, t.destined_bonus, t.keep_overspent,
        pos.geek, pos.fame, pos.lock, pos.remaining, pos.auctioneer, pos.cheapskates,
        pos.items_won, pos.destined_won, pos.rounds_done, pos.item, pos.first, pos.position,
        pos.bid_index, pos.held, uniforms,
        rec.item, rec.first, rec.bid_index, rec.lock_before, rec.total, rec.cards, rec.role,
        rec.fame_after, rec.score_after, rec.kept, record, np.empty(t.players, np.int64),
    )  # fmt: skip


def standings(tables: Tables, pos: Positions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, ranks, win shares) per game and seat of finished games: ranks 1 = best, ties on
    score broken by items won, still tied share the rank and the win (as ``engine.score``)."""
    games, n = pos.fame.shape
    scores = np.empty((games, n), np.int32)
    ranks = np.empty((games, n), np.int8)
    shares = np.empty((games, n), np.float64)
    write_standings(games, pos.fame, pos.destined_won, pos.items_won, tables.destined_bonus,
                    tables.rounds, scores, ranks, shares, np.empty(n, np.int64))  # fmt: skip
    return scores, ranks, shares


@njit(cache=True)
def deal_new(geek_draws, auctioneers, pos):  # type: ignore[no-untyped-def]
    """The geeks and starting auctioneers of new games (``pos`` as ``empty_positions`` makes
    them): game g's seats get the geeks in increasing order of its ``geek_draws[g]`` (the first
    ``players`` of a stable ``np.argsort(geek_draws[g])``), ``auctioneers[g]`` starts."""
    games, n = pos.fame.shape
    geeks = geek_draws.shape[1]
    draws = np.empty(geeks)
    for g in range(games):
        for geek in range(geeks):
            draws[geek] = geek_draws[g, geek]
        for seat in range(n):  # the smallest draw left (the first of equal ones), then drop it
            smallest, least = 0, draws[0]
            for geek in range(1, geeks):
                lower = draws[geek] < least
                smallest = geek if lower else smallest
                least = draws[geek] if lower else least
            pos.geek[g, seat] = smallest
            draws[smallest] = np.inf
        pos.auctioneer[g] = auctioneers[g]


@njit(cache=True, _nrt=False)
def _play(  # type: ignore[no-untyped-def]
    games, kinds, parameters, assignment, totals, counts, lock_after, n_bids, available_totals,
    top_sums, best_at_most, cheapest_at_least, destined, min_cards, n, rounds, destined_bonus,
    keep_overspent,
    geek, fame, lock, remaining, auctioneer, cheapskates, items_won, destined_won, rounds_done,
    item, first, position, bid_index, held, uniforms,
    r_item, r_first, r_bid_index, r_lock_before, r_total, r_cards, r_role, r_fame_after,
    r_score_after, r_kept, record, seat_total,
):  # fmt: skip
    """``play`` on plain arrays; ``seat_total`` (n,) holds the bid totals during a reveal."""
    for g in range(games):
        # This game's scalars live in locals while it plays (written back at the end).
        d = 0
        game_auctioneer, r = auctioneer[g], rounds_done[g]
        game_item, game_first, game_position = item[g], first[g], position[g]
        up = 0  # items remaining (one goes each round)
        for one in range(remaining.shape[1]):
            up += remaining[g, one]
        while r < rounds:
            if game_position < 0:
                game_item, game_first = choose_auction(
                    kinds[np.uint64(assignment[g, game_auctioneer])], remaining, destined, geek, g,
                    game_auctioneer, n, uniforms[d, g], up,
                )  # fmt: skip
                d += 1
                game_position = 0
            while game_position < n:
                actor = next_seat(game_first, game_position, n)
                row = np.uint64(assignment[g, actor])  # unsigned: no negative-index check
                bid = choose_bid(
                    kinds[row], parameters[row], totals, n_bids, available_totals, top_sums,
                    best_at_most, cheapest_at_least, destined, min_cards, rounds,
                    geek, fame, lock, held, g, game_auctioneer, r, game_item, game_first,
                    game_position, actor, n, uniforms[d, g],
                )  # fmt: skip
                d += 1
                bid_index[g, actor] = bid
                held[g, actor] = counts[lock[g, actor], bid]
                game_position += 1
            # The reveal (docs/rules.md): the highest total wins (ties: closest to the First
            # Bidder), the lowest is the cheapskate (ties: farthest from the First Bidder).
            winner = cheapskate = game_first
            best = worst = totals[lock[g, game_first], bid_index[g, game_first]]
            seat_total[game_first] = best
            for offset in range(1, n):
                seat = next_seat(game_first, offset, n)
                total = totals[lock[g, seat], bid_index[g, seat]]
                seat_total[seat] = total
                if total > best:
                    winner, best = seat, total
                if total <= worst:
                    cheapskate, worst = seat, total
            # Every seat locks its top card and gains its total, then the cheapskate's and the
            # winner's own rules override (no branch per seat: who wins is random).
            winner_fame, cheapskate_fame = fame[g, winner], fame[g, cheapskate]
            for seat in range(n):
                before, bid = lock[g, seat], bid_index[g, seat]
                total = seat_total[seat]
                if record:
                    r_bid_index[g, r, seat] = bid
                    r_lock_before[g, r, seat] = before
                    r_total[g, r, seat] = total
                    r_cards[g, r, seat] = counts[before, bid]
                bid_index[g, seat] = -1
                held[g, seat] = -1
                lock[g, seat] = lock_after[before, bid]
                fame[g, seat] += total
            lock[g, cheapskate] = 0  # the cheapskate locks nothing and gains nothing
            fame[g, cheapskate] = cheapskate_fame
            after = winner_fame - best  # the winner pays (never the cheapskate: n >= 2)
            kept = (after >= 0) | keep_overspent
            fame[g, winner] = max(after, 0)
            items_won[g, winner] += kept
            destined_won[g, winner] += kept & destined[geek[g, winner], game_item]
            cheapskates[g, cheapskate] += 1
            remaining[g, game_item] = False
            up -= 1
            if record:
                r_item[g, r] = game_item
                r_first[g, r] = game_first
                r_kept[g, r] = kept
                for seat in range(n):
                    role = ROLE_GAINER
                    if seat == winner:
                        role = ROLE_WINNER
                    elif seat == cheapskate:
                        role = ROLE_CHEAPSKATE
                    r_role[g, r, seat] = role
                    r_fame_after[g, r, seat] = fame[g, seat]
                    r_score_after[g, r, seat] = (
                        fame[g, seat] + destined_bonus * destined_won[g, seat]
                    )
            game_auctioneer = cheapskate
            r += 1
            game_item = game_first = game_position = -1
        auctioneer[g], rounds_done[g] = game_auctioneer, r
        item[g], first[g], position[g] = game_item, game_first, game_position


@njit(cache=True, _nrt=False)
def write_standings(  # type: ignore[no-untyped-def]
    games, fame, destined_won, items_won, bonus, rounds, scores, ranks, shares, keys
):
    """Each seat's score, rank (1 + the seats whose (score, items won) is above its own) and
    share of the win (1/k for each of k seats ranked 1); ``keys`` (n,) is scratch."""
    n = fame.shape[1]
    for g in range(games):
        for seat in range(n):
            score = fame[g, seat] + bonus * destined_won[g, seat]
            scores[g, seat] = score
            keys[seat] = np.int64(score) * (rounds + 1) + items_won[g, seat]
        top = keys[0]
        for seat in range(1, n):
            top = max(top, keys[seat])
        winners = 0
        for seat in range(n):
            above = 0
            for other in range(n):
                above += keys[other] > keys[seat]
            ranks[g, seat] = 1 + above
            winners += keys[seat] == top
        for seat in range(n):
            shares[g, seat] = 1.0 / winners if keys[seat] == top else 0.0
