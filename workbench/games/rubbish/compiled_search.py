"""The ``search`` agent's compiled parts: the hidden-card sampler's draws turned into positions
(``fill_samples``: what ``sampling.PositionSampler`` draws, one numba call instead of a few
dozen numpy calls per round) and one whole round of sequential halving (``play_round``:
fill, write each candidate's action, play every row out, score it), so a round costs one call.

Both read the sampler's uniform numbers drawn in Python (the same draws as ``sample_states``)
and write into Positions buffers the caller owns (``fast.empty_positions``' dtypes).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from workbench.games.rubbish.compiled import _play, _standings


@njit(cache=True)
def fill_samples(  # type: ignore[no-untyped-def]
    template, pos, u, count, copies, geek_pool, geek_seats, destined,
    bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative,
):  # fmt: skip
    """Rows ``k * count + f`` (k < ``copies``) of ``pos``: game 0 of ``template`` with filling f
    drawn from ``u[f]``: the other seats' geeks by a partial Fisher-Yates shuffle of
    ``geek_pool`` (one uniform each, in ``geek_seats`` order), then each bid made this round,
    known or drawn by inverting its cumulative weights (one uniform per hidden bid).

    Bid b is seat ``bid_seats[b]``'s, its candidates ``bid_indices[bid_starts[b]:bid_starts[b +
    1]]`` (bid table indices) with cumulative weights at the same places when ``bid_hidden[b]``.
    """
    games = count * copies
    n = template.geek.shape[1]
    items = template.remaining.shape[1]
    for row in range(games):
        for seat in range(n):
            pos.geek[row, seat] = template.geek[0, seat]
            pos.fame[row, seat] = template.fame[0, seat]
            pos.lock[row, seat] = template.lock[0, seat]
            pos.cheapskates[row, seat] = template.cheapskates[0, seat]
            pos.items_won[row, seat] = template.items_won[0, seat]
            pos.destined_won[row, seat] = template.destined_won[0, seat]
            pos.bid_index[row, seat] = template.bid_index[0, seat]
            pos.held[row, seat] = template.held[0, seat]
        for item in range(items):
            pos.remaining[row, item] = template.remaining[0, item]
        pos.auctioneer[row] = template.auctioneer[0]
        pos.rounds_done[row] = template.rounds_done[0]
        pos.item[row] = template.item[0]
        pos.first[row] = template.first[0]
        pos.position[row] = template.position[0]
    size = geek_pool.shape[0]
    pool = np.empty(size, geek_pool.dtype)
    for f in range(count):
        pool[:] = geek_pool
        for k in range(geek_seats.shape[0]):  # the partial Fisher-Yates of sampling._Plan.state
            pick = int(u[f, k] * (size - k))
            geek = pool[pick]
            pool[pick] = pool[size - 1 - k]
            seat = geek_seats[k]
            for copy in range(copies):
                pos.geek[copy * count + f, seat] = geek
                pos.destined_won[copy * count + f, seat] = destined[seat, geek]
        k = geek_seats.shape[0]
        for b in range(bid_seats.shape[0]):
            start, stop = bid_starts[b], bid_starts[b + 1]
            chosen = start
            if bid_hidden[b]:  # bisect_right: the first cumulative weight above u
                while chosen < stop - 1 and bid_cumulative[chosen] <= u[f, k]:
                    chosen += 1
                k += 1
            for copy in range(copies):
                pos.bid_index[copy * count + f, bid_seats[b]] = bid_indices[chosen]


@njit(cache=True)
def play_round(  # type: ignore[no-untyped-def]
    kinds, parameters, tables, template, pos, rec, u, count, geek_pool, geek_seats, destined,
    bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative,
    me, auction, action_a, action_b, alive, drawn, uniforms, scores, ranks, shares,
):  # fmt: skip
    """One round of sequential halving: ``count`` fillings (``fill_samples``) once per
    surviving candidate ``alive[k]`` (rows ``k * count + f``), each row taking its candidate's
    action (auction: item ``action_a``, First Bidder ``action_b``; bid: bid table index
    ``action_a`` holding out ``action_b`` cards, by seat ``me``), played to the end with
    ``drawn[d, f]`` as decision d's uniform in every copy of filling f; the standings of the
    rows are written into the first rows of ``scores``, ``ranks`` and ``shares``."""
    copies = alive.shape[0]
    games = count * copies
    fill_samples(template, pos, u, count, copies, geek_pool, geek_seats, destined,
                 bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative)  # fmt: skip
    for copy in range(copies):
        action = alive[copy]
        for f in range(count):
            row = copy * count + f
            if auction:  # as State.apply: the item is up, bidding starts at position 0
                pos.item[row] = action_a[action]
                pos.first[row] = action_b[action]
                pos.position[row] = 0
            else:
                pos.bid_index[row, me] = action_a[action]
                pos.held[row, me] = action_b[action]
                pos.position[row] += 1
            for d in range(drawn.shape[0]):
                uniforms[d, row] = drawn[d, f]
    t = tables
    _play(
        kinds, parameters, t.totals, t.counts, t.lock_after, t.n_bids, t.available_totals,
        t.top_sums, t.best_at_most, t.cheapest_at_least, t.destined, t.min_cards, t.players,
        t.rounds, t.destined_bonus, t.keep_overspent,
        pos.geek[:games], pos.fame[:games], pos.lock[:games], pos.remaining[:games],
        pos.auctioneer[:games], pos.cheapskates[:games], pos.items_won[:games],
        pos.destined_won[:games], pos.rounds_done[:games], pos.item[:games], pos.first[:games],
        pos.position[:games], pos.bid_index[:games], pos.held[:games], uniforms,
        rec.item, rec.first, rec.bid_index, rec.lock_before, rec.total, rec.cards, rec.role,
        rec.fame_after, rec.score_after, rec.kept, False, np.empty(t.players, np.int64),
    )  # fmt: skip
    _standings(
        pos.fame[:games], pos.destined_won[:games], pos.items_won[:games], t.destined_bonus,
        t.rounds, scores[:games], ranks[:games], shares[:games], np.empty(t.players, np.int64),
    )  # fmt: skip


__all__ = ["fill_samples", "play_round"]
