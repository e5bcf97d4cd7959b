"""Holdings as 64-bit masks over the type x country grid (bit ``8 * type + country``), and the
compiled work on one holding: its exact best-arrangement value (``arrangement``'s method, tied
to ``arrangement.best_value`` by tests) and the quick arrangement the agents use.

Functions that never allocate run without numba's reference counting (``_nrt=False``, here and
in ``policies`` and ``compiled``; callers pass their work arrays): counting references on every
call cost more than the decisions. The DP allocates, so says ``_nrt=True`` (a callee otherwise
inherits its caller's setting).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from workbench.games.going_gone.rules import Rules
from workbench.kit.streams import GOLDEN  # the caches hash holdings as the keys do

GRID = 8  # bits per type line in a mask (at most 8 countries)
#: COLUMN_ONES[byte]: byte c is 1 when bit c of ``byte`` is set (summed: column counts).
COLUMN_ONES = np.array(
    [sum(((b >> c) & 1) << (8 * c) for c in range(8)) for b in range(256)], dtype=np.uint64
)
#: SPREAD[byte] << c: the column-c mask of the types set in ``byte``.
SPREAD = np.array(
    [sum(((b >> t) & 1) << (GRID * t) for t in range(GRID)) for b in range(256)], dtype=np.uint64
)
#: PDEP[mask, k]: the bits of ``k`` deposited, low first, at the positions set in ``mask``.
PDEP = np.zeros((256, 256), dtype=np.uint8)
for _mask in range(256):
    _positions = [c for c in range(8) if _mask >> c & 1]
    for _k in range(1 << len(_positions)):
        PDEP[_mask, _k] = sum(((_k >> i) & 1) << p for i, p in enumerate(_positions))
#: PAIRS_UP[m, j]: the j-th (0-based) number below 2^m with at least two bits set.
PAIRS_UP = np.zeros((GRID + 1, 256), dtype=np.uint8)
for _m in range(GRID + 1):
    _found = [k for k in range(1 << _m) if bin(k).count("1") >= 2]
    PAIRS_UP[_m, : len(_found)] = _found
del _mask, _positions, _k, _m, _found


@cache
def item_bits(rules: Rules) -> np.ndarray:
    """The mask bit of every item id."""
    return np.array(
        [1 << (GRID * t + c) for t, c in zip(rules.item_type, rules.item_country, strict=True)],
        dtype=np.uint64,
    )


@cache
def _item_bit_ints(rules: Rules) -> tuple[int, ...]:
    """``item_bits`` as Python ints (``mask_of`` runs on every step-engine decision)."""
    return tuple(int(b) for b in item_bits(rules))


def mask_of(rules: Rules, items: Iterable[int]) -> int:
    """The mask of a set of item ids."""
    bits = _item_bit_ints(rules)
    mask = 0
    for item in items:
        mask |= bits[item]
    return mask


def items_of(rules: Rules, mask: int) -> tuple[int, ...]:
    """The item ids in a mask, sorted."""
    mask = int(mask)
    return tuple(sorted(rules.item_at[b // GRID, b % GRID] for b in range(64) if mask >> b & 1))


def marginal_bounds(best: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): ``low[i, j]`` is the least and ``high[i, j]`` the most one more item adds to
    a line holding anywhere from ``i`` to ``j`` items (``best[k + 1] - best[k]``, k in i..j)."""
    key = tuple(int(v) for v in best)
    if key not in _BOUNDS:
        gains = np.diff(np.asarray(key, dtype=np.int64))
        size = len(gains) + 1
        low = np.full((size, size), np.iinfo(np.int64).max // 4, dtype=np.int64)
        high = np.full((size, size), np.iinfo(np.int64).min // 4, dtype=np.int64)
        for i in range(len(gains)):
            for j in range(i, len(gains)):
                low[i, j] = gains[i : j + 1].min()
                high[i, j] = gains[i : j + 1].max()
        _BOUNDS[key] = (low, high)
    return _BOUNDS[key]


_BOUNDS: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}


U0 = np.uint64(0)
U1 = np.uint64(1)
U8 = np.uint64(8)
U255 = np.uint64(255)
POP8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
#: LOW8[byte]: index of the lowest set bit of a non-zero byte.
LOW8 = np.array([(b & -b).bit_length() - 1 if b else 0 for b in range(256)], dtype=np.int64)
_NEG = -(10**6)  # "unreachable" in the DP; far below any reachable value
#: Slots of the direct-mapped cache of exact values each rule set keeps (a power of two).
CACHE = 1 << 18
_CACHE_SHIFT = np.uint64(64 - 18)
#: Free items up to which every assignment is tried (``_gray_value``) instead of the DP.
GRAY_ITEMS = 10
#: Free items above which the range test (``_dominate``) runs before the search.
DOMINATE_ITEMS = 6
#: Free items up to which ``cached_value`` tries every assignment before looking in the cache.
FEW_FREE = 4
#: Scratch ints ``exact_value`` needs (callers pass one array of this size, reused).
WORK = 128


class Tables(NamedTuple):
    """A rule set's tables, as arrays the compiled code takes."""

    best: np.ndarray  # int64 (L+1,): Rules.best_line_values
    values: np.ndarray  # int64 (L+1,): 0, then Rules.collection_values (Bucks per size)
    low: np.ndarray  # int64 (L+1, L+1): marginal_bounds' least gain over a count range
    high: np.ndarray  # int64 (L+1, L+1): ... and most
    item_bits: np.ndarray  # uint64 (items,): mask bit of each item id
    lot_sizes: np.ndarray  # int64 (cups,)
    all_items: np.ndarray  # uint64 (1,): mask of every item in the table
    pdep: np.ndarray  # uint8 (256, 256): PDEP
    pairs_up: np.ndarray  # uint8 (9, 256): PAIRS_UP
    spread: np.ndarray  # uint64 (256,): SPREAD
    cache_keys: np.ndarray  # uint64 (CACHE,): holdings valued so far (0: empty slot)
    cache_values: np.ndarray  # int64 (CACHE,): their exact values


@cache
def tables_of(rules: Rules) -> Tables:
    """The compiled code's tables for ``rules`` (cached per rule set)."""
    best = np.asarray(rules.best_line_values, dtype=np.int64)
    low, high = marginal_bounds(best)
    bits = item_bits(rules)
    values = np.zeros(len(best), dtype=np.int64)
    values[1:] = rules.collection_values[: len(best) - 1]
    return Tables(
        best=best,
        values=values,
        low=np.ascontiguousarray(low),
        high=np.ascontiguousarray(high),
        item_bits=bits,
        lot_sizes=np.asarray(rules.lot_sizes, dtype=np.int64),
        all_items=np.array([np.bitwise_or.reduce(bits)], dtype=np.uint64),
        pdep=PDEP,
        pairs_up=PAIRS_UP,
        spread=SPREAD,
        cache_keys=np.zeros(CACHE, dtype=np.uint64),
        cache_values=np.zeros(CACHE, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def row_of(mask: np.uint64, line: int) -> int:
    """Byte ``line`` of a mask (a type line's countries, or of a transposed mask)."""
    return np.int64((mask >> np.uint64(8 * line)) & U255)


@njit(cache=True, inline="always")
def transpose(x: np.uint64) -> np.uint64:
    """Swap types and countries (an 8x8 bit-matrix transpose, Hacker's Delight 7-3)."""
    t = (x ^ (x >> np.uint64(7))) & np.uint64(0x00AA00AA00AA00AA)
    x = x ^ t ^ (t << np.uint64(7))
    t = (x ^ (x >> np.uint64(14))) & np.uint64(0x0000CCCC0000CCCC)
    x = x ^ t ^ (t << np.uint64(14))
    t = (x ^ (x >> np.uint64(28))) & np.uint64(0x00000000F0F0F0F0)
    return x ^ t ^ (t << np.uint64(28))


_M55 = np.uint64(0x5555555555555555)
_M33 = np.uint64(0x3333333333333333)
_M0F = np.uint64(0x0F0F0F0F0F0F0F0F)
_M7E = np.uint64(0x7E7E7E7E7E7E7E7E)
_M80 = np.uint64(0x8080808080808080)
#: A one in every byte: a country's line (one bit per type), shifted to the country.
BYTE_ONES = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def byte_counts(x: np.uint64) -> np.uint64:
    """Each byte of ``x`` replaced by its number of set bits (0-8)."""
    x = x - ((x >> U1) & _M55)
    x = (x & _M33) + ((x >> np.uint64(2)) & _M33)
    return (x + (x >> np.uint64(4))) & _M0F


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> int:
    """Set bits of a uint64."""
    return np.int64((byte_counts(x) * BYTE_ONES) >> np.uint64(56))


@njit(cache=True, inline="always")
def _crowded_bytes(x: np.uint64) -> np.uint64:
    """0xFF in every byte of ``x`` holding two or more set bits, 0 elsewhere."""
    flags = (byte_counts(x) + _M7E) & _M80  # a count of 2-8 (plus 126) reaches bit 7
    return (flags >> np.uint64(7)) * U255


@njit(cache=True, inline="always")
def _byte_values(counts: np.uint64, best: np.ndarray) -> int:
    """The sum of ``best`` at each byte of ``counts``."""
    value = 0
    for line in range(8):
        value += best[np.int64((counts >> np.uint64(8 * line)) & U255)]
    return value


@njit(cache=True, inline="always")
def _crowded_columns(mask: np.uint64) -> np.uint64:
    """Every cell of each column (country) holding two or more items of ``mask``."""
    ones = mask | (mask >> np.uint64(32))
    twos = mask & (mask >> np.uint64(32))
    twos |= (twos >> np.uint64(16)) | (ones & (ones >> np.uint64(16)))
    ones |= ones >> np.uint64(16)
    twos |= (twos >> U8) | (ones & (ones >> U8))
    return (twos & U255) * BYTE_ONES


@njit(cache=True, inline="always")
def few_free_value(mask: np.uint64, best: np.ndarray, work: np.ndarray) -> int:
    """``exact_value`` of a holding with at most ``FEW_FREE`` free items (sharing both lines
    with other items), else -1: bit-parallel, every assignment tried in Gray-code order. Most
    holdings have none or one, and this beats a lookup in the value cache."""
    crowded_types = _crowded_bytes(mask)
    crowded_countries = _crowded_columns(mask)
    free = mask & crowded_types & crowded_countries
    k = popcount(free)
    if k > FEW_FREE:
        return -1
    # an item alone in its type line and sharing its country goes to the country line
    by_country = mask & crowded_countries & ~crowded_types
    type_counts = byte_counts(mask & ~by_country)  # the free items start on their type lines
    country_counts = byte_counts(transpose(by_country))
    value = _byte_values(type_counts, best) + _byte_values(country_counts, best)
    if k == 0:
        return value
    if k == 1:  # the better of its two lines
        at = popcount(free - U1)
        a = np.int64((type_counts >> np.uint64(8 * (at // 8))) & U255)
        b = np.int64((country_counts >> np.uint64(8 * (at % 8))) & U255)
        return value + max(0, best[a - 1] - best[a] + best[b + 1] - best[b])
    for i in range(k):  # the free items' bit positions, lowest first
        low = free & (~free + U1)
        free ^= low
        work[i] = popcount(low - U1)
    found = value
    to_country = 0
    for step in range(1, 1 << k):
        j = LOW8[step]
        shift_t = np.uint64(8 * (work[j] // 8))
        shift_c = np.uint64(8 * (work[j] % 8))
        a = np.int64((type_counts >> shift_t) & U255)
        b = np.int64((country_counts >> shift_c) & U255)
        if to_country >> j & 1:
            value += best[a + 1] - best[a] + best[b - 1] - best[b]
            type_counts += U1 << shift_t
            country_counts -= U1 << shift_c
        else:
            value += best[a - 1] - best[a] + best[b + 1] - best[b]
            type_counts -= U1 << shift_t
            country_counts += U1 << shift_c
        to_country ^= 1 << j
        if value > found:
            found = value
    return found


@njit(cache=True, _nrt=False)
def exact_value(
    mask: np.uint64, best: np.ndarray, low: np.ndarray, high: np.ndarray, work: np.ndarray
) -> int:
    """The exact best-arrangement value of one holding (``arrangement.best_value``)."""
    if mask == U0:
        return 0
    # tfix, cfix and free live at work[8:16], work[16:24] and work[24:32]; indexed directly
    # (no views) until a free item needs the search
    packed = U0
    for t in range(8):
        packed += COLUMN_ONES[row_of(mask, t)]
    busy = 0
    for c in range(8):
        work[16 + c] = 0
        if row_of(packed, c) >= 2:
            busy |= 1 << c
    any_free = False
    for t in range(8):
        r = row_of(mask, t)
        k = POP8[r]
        work[24 + t] = 0
        work[8 + t] = 0
        if k >= 2:
            work[24 + t] = r & busy
            work[8 + t] = POP8[r & ~busy & 255]
            any_free = any_free or (r & busy) != 0
        elif k == 1:
            if r & busy:
                work[16 + LOW8[r]] += 1
            else:
                work[8 + t] = 1
    if not any_free:
        value = 0
        for line in range(8):
            value += best[work[8 + line]] + best[work[16 + line]]
        return value
    tfix, cfix, free = work[8:16], work[16:24], work[24:32]
    if _free_count(free) > DOMINATE_ITEMS:
        _dominate(tfix, cfix, free, low, high, work[32:64])
    value = 0
    columns = 0
    for t in range(8):
        columns |= free[t]
        if free[t] == 0:
            value += best[tfix[t]]
    for c in range(8):
        if not columns >> c & 1:
            value += best[cfix[c]]
    if columns:
        value += _components_value(tfix, cfix, free, best, work)
    return value


@njit(cache=True, _nrt=False)
def _components_value(
    tfix: np.ndarray, cfix: np.ndarray, free: np.ndarray, best: np.ndarray, work: np.ndarray
) -> int:
    """Best value of the lines the free items touch, one connected component (free items linked
    through shared lines) at a time, as their values add: small ones by ``_gray_value``, the
    others by the DP."""
    part = work[80:88]
    taken = 0  # type lines already in a component
    value = 0
    for start in range(8):
        if free[start] == 0 or taken >> start & 1:
            continue
        types = 1 << start
        columns = free[start]
        grown = True
        while grown:
            grown = False
            for t in range(8):
                if free[t] & columns and not types >> t & 1:
                    types |= 1 << t
                    columns |= free[t]
                    grown = True
        taken |= types
        for t in range(8):
            part[t] = free[t] if types >> t & 1 else 0
        if _free_count(part) <= GRAY_ITEMS:
            value += _gray_value(tfix, cfix, part, best, work[32:80])
        else:
            value += _free_value(tfix, cfix, part, columns, best)
    return value


@njit(cache=True, _nrt=False)
def _free_count(free: np.ndarray) -> int:
    k = 0
    for t in range(8):
        k += POP8[free[t]]
    return k


@njit(cache=True, _nrt=False)
def _gray_value(
    tfix: np.ndarray, cfix: np.ndarray, free: np.ndarray, best: np.ndarray, work: np.ndarray
) -> int:
    """Best value of the lines the free items touch, every assignment of them tried in
    Gray-code order (one item moves per step)."""
    tcount, ccount, item_type, item_country = work[0:8], work[8:16], work[16:32], work[32:48]
    k = 0
    for t in range(8):
        tcount[t] = tfix[t]
        ccount[t] = cfix[t]
    for t in range(8):
        row = free[t]
        while row:
            c = LOW8[row]
            row &= row - 1
            item_type[k] = t
            item_country[k] = c
            tcount[t] += 1
            k += 1
    columns = 0
    value = 0
    for t in range(8):
        columns |= free[t]
        if free[t]:
            value += best[tcount[t]]
    for c in range(8):
        if columns >> c & 1:
            value += best[ccount[c]]
    found = value
    to_country = 0
    for step in range(1, 1 << k):
        j = LOW8[step & 255] if step & 255 else 8 + LOW8[(step >> 8) & 255]
        t, c = item_type[j], item_country[j]
        a, b = tcount[t], ccount[c]
        if to_country >> j & 1:
            value += best[a + 1] - best[a] + best[b - 1] - best[b]
            tcount[t] = a + 1
            ccount[c] = b - 1
        else:
            value += best[a - 1] - best[a] + best[b + 1] - best[b]
            tcount[t] = a - 1
            ccount[c] = b + 1
        to_country ^= 1 << j
        if value > found:
            found = value
    return found


@njit(cache=True, inline="always")
def cached_value(mask: np.uint64, tb: tuple, work: np.ndarray) -> int:
    """``exact_value``: at once with few free items, else through the rule set's cache."""
    value = few_free_value(mask, tb.best, work)
    if value >= 0:
        return value
    slot = (mask * GOLDEN) >> _CACHE_SHIFT
    if tb.cache_keys[slot] == mask:
        return tb.cache_values[slot]
    value = exact_value(mask, tb.best, tb.low, tb.high, work)
    tb.cache_keys[slot] = mask
    tb.cache_values[slot] = value
    return value


@njit(cache=True, _nrt=False)
def _dominate(
    tfix: np.ndarray, cfix: np.ndarray, free: np.ndarray, low: np.ndarray, high: np.ndarray,
    work: np.ndarray,
) -> None:  # fmt: skip
    """Fix every free item whose line the range test decides, until none is (in place)."""
    d, e, to_type, to_country = work[0:8], work[8:16], work[16:24], work[24:32]
    while True:
        for c in range(8):
            e[c] = 0
        for t in range(8):
            d[t] = POP8[free[t]]
            for c in range(8):
                e[c] += free[t] >> c & 1
        moved = False
        for t in range(8):
            to_type[t] = 0
            to_country[t] = 0
            row = free[t]
            if row == 0:
                continue
            a = tfix[t]
            a_end = a + d[t] - 1
            for c in range(8):
                if not row >> c & 1:
                    continue
                b = cfix[c]
                b_end = b + e[c] - 1
                if low[a, a_end] >= high[b, b_end]:
                    to_type[t] |= 1 << c
                    moved = True
                elif low[b, b_end] >= high[a, a_end]:
                    to_country[t] |= 1 << c
                    moved = True
        if not moved:
            return
        for t in range(8):
            tfix[t] += POP8[to_type[t]]
            for c in range(8):
                cfix[c] += to_country[t] >> c & 1
            free[t] &= ~(to_type[t] | to_country[t])


@njit(cache=True, _nrt=True)
def _free_value(
    tfix: np.ndarray, cfix: np.ndarray, free: np.ndarray, columns: int, best: np.ndarray
) -> int:
    """Best value of the lines the free items touch: a DP over one side's lines, the state
    being how many free items each line of the other (smaller) side has received."""
    type_states = 1
    country_states = 1
    for t in range(8):
        type_states *= 1 + POP8[free[t]]
    for c in range(8):
        if columns >> c & 1:
            k = 0
            for t in range(8):
                k += free[t] >> c & 1
            country_states *= 1 + k
    # held[i, j]: the free item of DP line i and cross line j
    held = np.zeros((8, 8), dtype=np.int64)
    for t in range(8):
        for c in range(8):
            if country_states <= type_states:
                held[t, c] = free[t] >> c & 1
            else:
                held[c, t] = free[t] >> c & 1
    line_fixed = tfix if country_states <= type_states else cfix
    cross_fixed = cfix if country_states <= type_states else tfix
    return _dp(held, line_fixed, cross_fixed, best)


@njit(cache=True, _nrt=True)
def _dp(held: np.ndarray, line_fixed: np.ndarray, cross_fixed: np.ndarray, best: np.ndarray) -> int:
    """``arrangement._solve_component`` (value only) over every touched line at once."""
    caps = np.zeros(8, dtype=np.int64)
    for i in range(8):
        for j in range(8):
            caps[j] += held[i, j]
    strides = np.zeros(8, dtype=np.int64)
    size = 1
    for j in range(8):
        strides[j] = size
        size *= caps[j] + 1
    table = np.full(size, _NEG, dtype=np.int64)
    table[0] = 0
    for i in range(8):
        n = 0
        for j in range(8):
            n += held[i, j]
        if n == 0:
            continue
        sent = np.full((n + 1, size), _NEG, dtype=np.int64)
        sent[0, :] = table
        j_seen = 0
        for j in range(8):
            if not held[i, j]:
                continue
            stride = strides[j]
            for k in range(j_seen + 1, 0, -1):
                for state in range(stride, size):
                    v = sent[k - 1, state - stride]
                    if v > sent[k, state]:
                        sent[k, state] = v
            j_seen += 1
        fixed = line_fixed[i]
        for state in range(size):
            top = sent[0, state] + best[fixed + n]
            for k in range(1, n + 1):
                v = sent[k, state] + best[fixed + n - k]
                if v > top:
                    top = v
            table[state] = top
    # the cross lines' values, walking the states in order with a mixed-radix counter
    digits = np.zeros(8, dtype=np.int64)
    cross = 0
    for j in range(8):
        cross += best[cross_fixed[j]] if caps[j] else 0
    found = _NEG
    for state in range(size):
        v = table[state] + cross
        if v > found:
            found = v
        for j in range(8):  # the next state: carry through the full digits
            if caps[j] == 0:
                continue
            d = digits[j]
            if d < caps[j]:
                cross += best[cross_fixed[j] + d + 1] - best[cross_fixed[j] + d]
                digits[j] = d + 1
                break
            cross += best[cross_fixed[j]] - best[cross_fixed[j] + d]
            digits[j] = 0
    return found


@njit(cache=True, inline="always")
def greedy(mask: np.uint64, counts: np.ndarray, lines: np.ndarray) -> None:
    """The quick arrangement: every item joins the longer of its type and country lines (the
    type on a tie), into ``counts`` and ``lines`` (16,): types 0-7, then countries 8-15."""
    packed = U0
    for t in range(8):
        packed += COLUMN_ONES[row_of(mask, t)]
    to_country = U0
    for t in range(8):
        r = row_of(mask, t)
        k = POP8[r]
        if k == 0:
            counts[t] = 0
            lines[t] = U0
            continue
        # the countries of this row whose line holds at most k items (no allocation)
        to_type = 0
        row = r
        while row:
            c = LOW8[row]
            row &= row - 1
            if row_of(packed, c) <= k:
                to_type |= 1 << c
        counts[t] = POP8[to_type]
        shift = np.uint64(8 * t)
        lines[t] = np.uint64(to_type) << shift
        to_country |= np.uint64(r & ~to_type) << shift
    by_country = transpose(to_country)
    for c in range(8):
        column = row_of(by_country, c)
        counts[8 + c] = POP8[column]
        lines[8 + c] = transpose(np.uint64(column) << np.uint64(8 * c))


@njit(cache=True, _nrt=False)
def greedy_total(mask: np.uint64, best: np.ndarray, counts: np.ndarray, lines: np.ndarray) -> int:
    """Value of the quick arrangement (a lower bound on ``exact_value``)."""
    greedy(mask, counts, lines)
    total = 0
    for line in range(16):
        total += best[counts[line]]
    return total


@njit(cache=True)
def _many(masks: np.ndarray, best: np.ndarray, low: np.ndarray, high: np.ndarray,
          exact: bool) -> np.ndarray:  # fmt: skip
    """``exact_value`` (or ``greedy_total``) of every mask of a flat uint64 array."""
    work, lines = np.zeros(WORK, dtype=np.int64), np.zeros(16, dtype=np.uint64)
    out = np.empty(len(masks), dtype=np.int64)
    for i in range(len(masks)):
        if exact:
            out[i] = exact_value(masks[i], best, low, high, work)
        else:
            out[i] = greedy_total(masks[i], best, work, lines)
    return out


def exact_values(masks: np.ndarray, rules_or_best: Rules | np.ndarray) -> np.ndarray:
    """Exact best-arrangement values of uint64 masks of any shape (compiled)."""
    return _values(masks, rules_or_best, True)


def greedy_values(masks: np.ndarray, rules_or_best: Rules | np.ndarray) -> np.ndarray:
    """Values of the quick arrangement of uint64 masks of any shape (compiled)."""
    return _values(masks, rules_or_best, False)


def _values(masks: np.ndarray, rules_or_best: Rules | np.ndarray, exact: bool) -> np.ndarray:
    best = rules_or_best.best_line_values if isinstance(rules_or_best, Rules) else rules_or_best
    best = np.ascontiguousarray(best, dtype=np.int64)
    low, high = marginal_bounds(best)
    masks = np.ascontiguousarray(masks, dtype=np.uint64)
    return _many(masks.ravel(), best, low, high, exact).reshape(masks.shape)
