"""Rubbish Auction's compiled policies (numba): a kind and a parameter vector, one entry per
decision (``choose_auction``, ``choose_bid``), read by the compiled loop through the kit's
``PolicyTable`` and by a step call (``choose_one``); they never allocate and are inlined."""

from __future__ import annotations

import numpy as np
from numba import njit

from workbench.games.rubbish.cards import BidTable

#: Policy kinds.
RANDOM, HEURISTIC = 0, 1
#: The heuristic's parameters, in the order of its vector.
MAX_WANTED_BID, GAIN_SHARE, CHEAPSKATE_SHARE, LAST_ROUND_SHARE = 0, 1, 2, 3


@njit(cache=True, _nrt=False, inline="always")
def next_seat(seat, steps, n):  # type: ignore[no-untyped-def]
    """The seat ``steps`` (0 <= steps <= n) after ``seat`` round the table, without a division."""
    later = seat + steps
    return later - n if later >= n else later


@njit(cache=True, _nrt=False, inline="always")
def _nth_remaining(remaining, g, nth):  # type: ignore[no-untyped-def]
    """The ``nth`` (0-based) item still up in game ``g``; 0 if there are fewer (only a uniform
    within 2**-53 of 1 gets there, as the numpy engine's argmax said)."""
    found = seen = 0
    for item in range(remaining.shape[1]):  # without branches: which items are up is random
        up = remaining[g, item]
        found = item if (seen == nth) & up else found
        seen += up
    return found


@njit(cache=True, _nrt=False, inline="always")
def choose_auction(kind, remaining, destined, geek, g, actor, n, u, up):  # type: ignore[no-untyped-def]
    """(item, First Bidder) with ``up`` items remaining. Random: uniform among every (item,
    seat), items in order, then seats. Heuristic: its first wanted item naming itself First
    Bidder, else a random unwanted item naming the seat on its left."""
    if kind == HEURISTIC:
        for item in range(remaining.shape[1]):
            if remaining[g, item] and destined[geek[g, actor], item]:
                return item, actor
        # No wanted item is left, so the unwanted items are exactly the remaining ones.
        return _nth_remaining(remaining, g, int(u * up)), next_seat(actor, 1, n)
    # The pick-th of up * n (item, seat) pairs, without a division or a branch (pick < up * n).
    pick = int(u * (up * n))
    found = seat = low = 0
    for item in range(remaining.shape[1]):
        is_up = remaining[g, item]
        hit = is_up & (pick >= low) & (pick < low + n)
        found = item if hit else found
        seat = pick - low if hit else seat
        low += n * is_up
    return found, seat


@njit(cache=True, _nrt=False, inline="always")
def _heuristic_bid(  # type: ignore[no-untyped-def]
    parameters, best_at_most, cheapest_at_least, totals, available_totals, top_sums,
    lock, held, fame, g, actor, n, wanted, share_kind,
):  # fmt: skip
    """The rulebook's hints (``agents.HeuristicAgent``); ``best_at_most`` and
    ``cheapest_at_least`` are the preferred-bid tables of this bidding position's minimum."""
    top = best_at_most.shape[1] - 2  # the largest total any bid can reach
    own = lock[g, actor]
    lowest = cheapest_at_least[own, 0]
    # Each opponent's cap: all its usable money, or once it has held out c cards its c largest
    # usable cards. sure_win beats every cap (an equal total beats the seats bidding after the
    # actor: ties go to whoever bid earlier, the seats that hold cards out already).
    sure_win = most_others = -1
    for seat in range(n):
        if seat == actor:
            cap = -1
        elif held[g, seat] < 0:
            cap = available_totals[lock[g, seat]]
        else:
            cap = top_sums[lock[g, seat], held[g, seat]]
        sure_win = max(sure_win, cap + (1 if held[g, seat] >= 0 else 0))
        most_others = max(most_others, cap)
    if wanted:
        budget = min(min(int(parameters[MAX_WANTED_BID]), fame[g, actor]), top)
        cheapest_win = cheapest_at_least[own, min(sure_win, top + 1)]
        if cheapest_win >= 0 and totals[own, cheapest_win] <= budget:
            return cheapest_win
        best_effort = best_at_most[own, budget + 1]
        return best_effort if best_effort >= 0 else lowest
    target = min(int(np.floor(parameters[share_kind] * available_totals[own])), most_others - 1)
    gaining = best_at_most[own, min(max(target, -1), top) + 1]
    return gaining if gaining >= 0 else lowest


@njit(cache=True, _nrt=False, inline="always")
def choose_bid(  # type: ignore[no-untyped-def]
    kind, parameters, t_totals, t_n_bids, t_available_totals, t_top_sums, t_best_at_most,
    t_cheapest_at_least, t_destined, t_min_cards, rounds,
    geek, fame, lock, held, g, auctioneer, rounds_done, item, first, position, actor, n, u,
):  # fmt: skip
    """The bid index (in the bid table of its lock) of the seat to bid in game g."""
    fewest = t_min_cards[position]
    if kind != HEURISTIC:
        return fewest + int(u * (t_n_bids[lock[g, actor]] - fewest))
    share_kind = CHEAPSKATE_SHARE if auctioneer == actor else GAIN_SHARE
    if rounds_done == 0:
        share_kind = GAIN_SHARE
    if rounds_done == rounds - 1:
        share_kind = LAST_ROUND_SHARE
    return _heuristic_bid(
        parameters, t_best_at_most[fewest], t_cheapest_at_least[fewest], t_totals,
        t_available_totals, t_top_sums, lock, held, fame, g, actor, n,
        t_destined[geek[g, actor], max(item, 0)], share_kind,
    )  # fmt: skip


@njit(cache=True)
def choose_one(kind, parameters, tables, pos, u):  # type: ignore[no-untyped-def]
    """A policy's choice in game 0 of ``pos``: (item, First Bidder), or (bid index, -1)."""
    n = tables.players
    if pos.position[0] < 0:
        up = 0
        for item in range(pos.remaining.shape[1]):
            up += pos.remaining[0, item]
        actor = pos.auctioneer[0]
        return choose_auction(kind, pos.remaining, tables.destined, pos.geek, 0, actor, n, u, up)
    actor = next_seat(pos.first[0], pos.position[0], n)
    bid = choose_bid(
        kind, parameters, tables.totals, tables.n_bids, tables.available_totals,
        tables.top_sums, tables.best_at_most, tables.cheapest_at_least, tables.destined,
        tables.min_cards, tables.rounds, pos.geek, pos.fame, pos.lock, pos.held, 0,
        pos.auctioneer[0], pos.rounds_done[0], pos.item[0], pos.first[0], pos.position[0],
        actor, n, u,
    )  # fmt: skip
    return bid, -1


def preferred_bids(table: BidTable, min_cards: int) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic's preferred bid per lock option and threshold among the bids holding out
    at least ``min_cards`` (-1: none): ``best_at_most[option, t + 1]``, the largest total <= t;
    ``cheapest_at_least[option, t]``, the smallest total >= t. Among equal totals: the lowest
    top card (the card the lock takes), then fewer cards, then the first listed."""
    top = int(table.totals.max())
    best_at_most = np.full((len(table.bids), top + 2), -1, np.int64)
    cheapest_at_least = np.full((len(table.bids), top + 2), -1, np.int64)
    for option, bids in enumerate(table.bids):
        best_of_total: dict[int, int] = {}
        for k, bid in enumerate(bids):
            held = best_of_total.get(bid.total)
            if bid.count >= min_cards and (
                held is None
                or (bid.highest or 0, bid.count) < (bids[held].highest or 0, bids[held].count)
            ):
                best_of_total[bid.total] = k
        last = -1
        for threshold in range(-1, top + 1):
            last = best_of_total.get(threshold, last)
            best_at_most[option, threshold + 1] = last
        last = -1
        for threshold in range(top + 1, -1, -1):
            last = best_of_total.get(threshold, last)
            cheapest_at_least[option, threshold] = last
    return best_at_most, cheapest_at_least


__all__ = [
    "CHEAPSKATE_SHARE", "GAIN_SHARE", "HEURISTIC", "LAST_ROUND_SHARE", "MAX_WANTED_BID", "RANDOM",
    "choose_auction", "choose_bid", "choose_one", "next_seat", "preferred_bids",
]  # fmt: skip
