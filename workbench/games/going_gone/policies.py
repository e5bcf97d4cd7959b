"""The agents' compiled policies: a kind (``RANDOM``, ``VALUATION``, ``COLLECTOR``) and a
parameter vector (named in ``agents``), read from the kit's ``PolicyTable``. ``choose_bids`` and
``plan_sales`` decide for one seat in the compiled loop and in the agents' step calls alike.
Uniforms come from the caller: ``cups`` per bid (one for the random policy), one per random pick.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from workbench.games.going_gone.holdings import (
    POP8,
    U0,
    U1,
    WORK,
    cached_value,
    greedy,
    greedy_total,
    popcount,
    row_of,
    transpose,
)

RANDOM, VALUATION, COLLECTOR = 0, 1, 2
KINDS = (RANDOM, VALUATION, COLLECTOR)
#: Length of every policy's parameter vector (unused entries are 0).
PARAMETERS = 6
#: Most collections a valuation or collector seat sells in one round.
MAX_SALES = 3


@njit(cache=True)
def scratch(cups: int) -> tuple:
    """Work arrays one decision needs, allocated once per call: (exact-value ints, line counts
    (16,), line masks (16,), marginals (cups,), lot item lines (64,), projected values (cups,),
    projected line counts or sale keys (16,), spare line masks (16,))."""
    return (np.zeros(WORK, np.int64), np.zeros(16, np.int64), np.zeros(16, np.uint64),
            np.zeros(cups), np.zeros(64, np.int64), np.zeros(cups), np.zeros(16),
            np.zeros(16, np.uint64))  # fmt: skip


@njit(cache=True, inline="always")
def choose_bids(
    kind: int, params: np.ndarray, u: np.ndarray, lots: np.ndarray, holding: np.uint64,
    budget: int, seen_extra: np.uint64, rounds_left: int, tb: tuple, space: tuple,
    out: np.ndarray,
) -> None:  # fmt: skip
    """One seat's allocation into ``out`` (cups,). ``seen_extra``: other seats' items and
    sold collections when collections are open (else 0); ``tb``: ``holdings.Tables``."""
    cups = len(lots)
    if kind == RANDOM:
        rank = np.int64(u[0] * _comb(budget + cups, cups))
        _unrank(rank, budget, cups, out)
        return
    work, counts, lines, marginal, projected = space[0], space[1], space[2], space[3], space[5]
    lot_lines = space[4]
    best = tb.best
    greedy(holding, counts, lines)
    if kind == COLLECTOR and params[5] != 0:  # exact values
        base = cached_value(holding, tb, work)
        for cup in range(cups):
            marginal[cup] = cached_value(holding | lots[cup], tb, work) - base
    else:
        for cup in range(cups):
            marginal[cup] = _insertion(counts, lots[cup], best, lot_lines)
    projection = params[3]
    if kind == VALUATION:
        share = params[1] if rounds_left == 0 else params[0]
    elif rounds_left > 0 and projection > 0:
        _project(counts, lots, holding | seen_extra, rounds_left, params[4], tb, space)
        for cup in range(cups):
            marginal[cup] = (1 - projection) * marginal[cup] + projection * projected[cup]
        share = params[0]
    else:
        share = params[1]
    total = 0
    for cup in range(cups):
        wanted = np.floor(share * marginal[cup] + u[cup])
        out[cup] = max(np.int64(wanted), 1) if marginal[cup] > 0 else 0
        total += out[cup]
    if total > budget:
        for cup in range(cups):
            out[cup] = out[cup] * budget // max(total, 1)


@njit(cache=True, _nrt=False)
def _comb(n: int, k: int) -> int:
    """C(n, k) for a small k (``actions.allocation_count``)."""
    if n < k:
        return 0
    result = 1
    for i in range(k):
        result = result * (n - i) // (i + 1)
    return result


@njit(cache=True, _nrt=False)
def _unrank(rank: int, budget: int, cups: int, out: np.ndarray) -> None:
    """The allocation at ``rank`` in lexicographic order (``actions.unrank_allocation``)."""
    remaining = budget
    for j in range(cups):
        later = cups - j - 1
        x = 0
        while True:
            count = _comb(remaining - x + later, later)
            if rank < count:
                break
            rank -= count
            x += 1
        out[j] = x
        remaining -= x


@njit(cache=True, inline="always")
def _lot_items(lot: np.uint64, lot_lines: np.ndarray) -> int:
    """The lot's items, lowest bit first: type line in ``lot_lines[2i]``, country line
    (numbered 8-15) in ``lot_lines[2i + 1]``; returns how many."""
    k = 0
    rest = lot
    while rest != U0 and k < 32:
        low = rest & (~rest + U1)
        rest ^= low
        position = popcount(low - U1)  # the index of the bit
        lot_lines[2 * k] = position // 8
        lot_lines[2 * k + 1] = 8 + position % 8
        k += 1
    return k


@njit(cache=True, inline="always")
def _insertion(counts: np.ndarray, lot: np.uint64, best: np.ndarray, lot_lines: np.ndarray) -> int:
    """The most a lot adds to the line ``counts`` when its items join their type or country
    lines, nothing else moving."""
    k = _lot_items(lot, lot_lines)
    if k == 1:  # the better of its two lines (or nothing)
        return max(0, _gain(counts[lot_lines[0]], 1, best), _gain(counts[lot_lines[1]], 1, best))
    if k == 2:  # the four ways two items can go
        found = 0
        for option in range(4):
            first = lot_lines[option & 1]
            second = lot_lines[2 + (option >> 1)]
            if first == second:
                gain = _gain(counts[first], 2, best)
            else:
                gain = _gain(counts[first], 1, best) + _gain(counts[second], 1, best)
            found = max(found, gain)
        return found
    found = 0
    for option in range(1 << k):
        gain = 0
        for i in range(k):
            line = lot_lines[2 * i + (option >> i & 1)]
            joining = 0
            first = True
            for j in range(k):
                if lot_lines[2 * j + (option >> j & 1)] == line:
                    joining += 1
                    if j < i:
                        first = False
            if first:
                gain += _gain(counts[line], joining, best)
        if gain > found:
            found = gain
    return found


@njit(cache=True, inline="always")
def _gain(before: int, joining: int, best: np.ndarray) -> int:
    """What ``joining`` more items add to a line of ``before`` (counts capped at the table)."""
    top = len(best) - 1
    return best[min(before + joining, top)] - best[min(before, top)]


@njit(cache=True, _nrt=False)
def _interp(x: float, best: np.ndarray) -> float:
    """``np.interp(x, arange(len(best)), best)``, computed the way numpy does."""
    top = len(best) - 1
    if x < 0:
        return float(best[0])
    if x >= top:
        return float(best[top])
    j = np.int64(np.floor(x))
    if x == j:
        return float(best[j])
    slope = (float(best[j + 1]) - float(best[j])) / 1.0
    return slope * (x - j) + float(best[j])


@njit(cache=True, _nrt=False)
def _project(
    counts: np.ndarray, lots: np.ndarray, seen: np.uint64, rounds_left: int, capture: float,
    tb: tuple, space: tuple,
) -> None:  # fmt: skip
    """Each lot's value to line counts raised by the items each line can expect to win later
    (the collector's projection), into ``space``'s projected values."""
    lot_lines, projected, line_counts = space[4], space[5], space[6]
    best = tb.best
    for cup in range(len(lots)):
        seen |= lots[cup]
    unseen = tb.all_items[0] & ~seen
    columns = transpose(unseen)
    to_come = tb.lot_sizes.sum() * rounds_left
    scale = min(to_come / max(popcount(unseen), 1), 1.0)
    for t in range(8):
        line_counts[t] = counts[t] + capture * POP8[row_of(unseen, t)] * scale
        line_counts[8 + t] = counts[8 + t] + capture * POP8[row_of(columns, t)] * scale
    for cup in range(len(lots)):
        k = _lot_items(lots[cup], lot_lines)
        value = 0.0
        for i in range(k):
            at = line_counts[lot_lines[2 * i]]
            by_type = _interp(at + 1, best) - _interp(at, best)
            at = line_counts[lot_lines[2 * i + 1]]
            by_country = _interp(at + 1, best) - _interp(at, best)
            value += max(by_type, by_country)
        projected[cup] = value


@njit(cache=True, inline="always")
def plan_sales(
    kind: int, params: np.ndarray, holding: np.uint64, bucks: int, rounds_left: int,
    tb: tuple, space: tuple, out: np.ndarray,
) -> int:  # fmt: skip
    """A valuation or collector seat's sale: up to ``MAX_SALES`` collection masks into ``out``
    in the order sold (the rest 0); returns how many. Never in the last round."""
    for s in range(len(out)):
        out[s] = U0
    if rounds_left == 0 or kind == RANDOM or not bucks < params[2] or holding == U0:
        return 0  # (a seat with enough Bucks, or nothing to sell, sells nothing)
    if kind == VALUATION:
        return _sell_arranged(holding, bucks, params[2], tb, space, out)
    return _sell_for_bucks(holding, bucks, params[2], params[5] != 0, tb, space, out)


@njit(cache=True, inline="always")
def _sell_arranged(
    holding: np.uint64, bucks: int, reserve: float, tb: tuple, space: tuple, out: np.ndarray
) -> int:
    """The valuation policy's sale: lines of the quick arrangement, best Bucks per value first,
    while Bucks are below ``reserve``."""
    counts, lines, keys = space[1], space[2], space[6]
    best, values = tb.best, tb.values
    top = len(best) - 1
    greedy(holding, counts, lines)
    for line in range(16):
        if counts[line] > 0:
            size = min(counts[line], top)
            pays = float(values[size])
            keys[line] = pays / max(float(best[size]), 1.0) * 1e6 + pays
        else:
            keys[line] = -np.inf
    made = 0
    for _ in range(MAX_SALES):
        pick = 0
        for line in range(1, 16):
            if keys[line] > keys[pick]:
                pick = line
        if not (bucks < reserve and np.isfinite(keys[pick])):
            break
        out[made] = lines[pick]
        made += 1
        bucks += np.int64(float(values[min(counts[pick], top)]))
        keys[pick] = -np.inf
    return made


@njit(cache=True, _nrt=False)
def _sell_for_bucks(
    holding: np.uint64, bucks: int, reserve: float, exact: bool, tb: tuple, space: tuple,
    out: np.ndarray,
) -> int:  # fmt: skip
    """The collector's sale: whole lines, least value lost per Buck first (exact or quick
    values), while Bucks are below ``reserve``. The holding's value after a sale is the one
    computed for the line sold."""
    lines = space[2]
    values = tb.values
    made = 0
    worth = _value(holding, exact, tb, space)
    for _ in range(MAX_SALES):
        if not (bucks < reserve and holding != U0):
            break
        columns = transpose(holding)
        for t in range(8):
            shift = np.uint64(8 * t)
            lines[t] = np.uint64(row_of(holding, t)) << shift
            lines[8 + t] = transpose(np.uint64(row_of(columns, t)) << shift)
        pick, lost = _least_lost(holding, worth, exact, tb, space)
        sale = lines[pick]
        out[made] = sale
        made += 1
        holding &= ~sale
        worth -= lost  # the value of what is left: the one computed for the pick
        bucks += values[popcount(sale)]
    return made


@njit(cache=True, _nrt=False)
def _least_lost(holding: np.uint64, worth: int, exact: bool, tb: tuple, space: tuple) -> tuple:
    """(the line of ``space``'s lines losing least value per Buck, the value it loses), the
    lowest line among equals. With exact values a line of ``size`` items loses at least
    ``best[size]`` (the rest's best arrangement plus the line is an arrangement of the holding),
    so lines are tried in order of that bound on their key until it cannot beat the pick."""
    lines, bounds, order = space[2], space[6], space[4]
    values, best = tb.values, tb.best
    k = 0
    for line in range(16):  # insertion sort by (bound, line)
        size = popcount(lines[line])
        if size == 0:
            continue
        paid = values[size]
        bound = best[size] / max(paid, 1) - paid * 1e-6 if exact else -np.inf
        bounds[line] = bound
        at = k
        while at > 0 and bounds[order[at - 1]] > bound:
            order[at] = order[at - 1]
            at -= 1
        order[at] = line
        k += 1
    pick = -1
    pick_key = np.inf
    pick_lost = 0
    for i in range(k):
        line = order[i]
        if pick >= 0 and (bounds[line] > pick_key or (bounds[line] == pick_key and line > pick)):
            break  # (every later line's bound is at least as large, or equal with a later line)
        lost = worth - _value(holding & ~lines[line], exact, tb, space)
        paid = values[popcount(lines[line])]
        key = lost / max(paid, 1) - paid * 1e-6
        if pick < 0 or key < pick_key or (key == pick_key and line < pick):
            pick = line
            pick_key = key
            pick_lost = lost
    return pick, pick_lost


@njit(cache=True, _nrt=False)
def _value(holding: np.uint64, exact: bool, tb: tuple, space: tuple) -> int:
    """Exact or quick value of a holding (the collector's ``exact_values`` option)."""
    if exact:
        return cached_value(holding, tb, space[0])
    return greedy_total(holding, tb.best, space[1], space[7])


@njit(cache=True, _nrt=False)
def random_sale_pick(u: float, available: np.uint64, tb: tuple) -> np.uint64:
    """The random agent's next pick: with ``options`` collections left, ``DoneSelling`` (0) or
    collection ``int(u * (options + 1)) - 1`` of ``actions.line_collections``' order."""
    columns = transpose(available)
    options = 0
    for line in range(8):
        options += (1 << POP8[row_of(available, line)]) - 1
        k = POP8[row_of(columns, line)]
        options += (1 << k) - 1 - k
    pick = np.int64(u * (options + 1))
    if pick <= 0:
        return U0
    index = pick - 1
    for line in range(16):
        row = row_of(available, line) if line < 8 else row_of(columns, line - 8)
        k = POP8[row]
        size = (1 << k) - 1 if line < 8 else (1 << k) - 1 - k
        if index < size:
            if line < 8:
                return np.uint64(tb.pdep[row, index + 1]) << np.uint64(8 * line)
            types = tb.pdep[row, tb.pairs_up[k, index]]
            return tb.spread[types] << np.uint64(line - 8)
        index -= size
    return U0
