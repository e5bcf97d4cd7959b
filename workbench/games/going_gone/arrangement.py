"""Exact best arrangement of held items into collections, for any table of collection values.

A holding is a set of cells of the type x country grid, kept as a bitmask: bit ``8 * type +
country``. An arrangement puts every item in exactly one collection, and a collection lies in
one line (one type or one country). Within a line only the number of items matters, and ``m``
items of one line are best split as ``best[m]`` (``Rules.best_line_values``; equal to the
value table unless splitting pays). So the problem is: send each item to its type line or its
country line to maximise ``sum(best[count of each line])``. Greedy grouping is wrong in general
(the table is not convex), so this module solves it exactly:

1. An item alone in its country goes to its type line, and one alone in its type goes to its
   country line: ``best`` is superadditive (``best[a + 1] >= best[a] + best[1]``), so this never
   loses. Then an item goes to its type line when the least that line can gain from one more
   item (over every count it could reach) is at least the most its country line can (and the
   other way round): moving it there never loses either. Fixing items only narrows the other
   items' ranges, so these tests are applied to all items at once until nothing changes. What
   is left — usually nothing — splits into independent connected components.
2. Each component is a dynamic programme over its type lines, the state being how many free
   items each country line has received so far (a dense mixed-radix array); a type line sending
   exactly ``k`` of its free items to their countries is built item by item, so a line costs
   O(n^2) array operations rather than 2^n. The optimum is read off with the country values; the
   arrangement is recovered by walking the stored arrays back. (Rows and columns swap roles when
   that makes the state smaller.)

``batch_values`` values many holdings at once: the reduction above is vectorised, holdings with
no free item are valued in closed form, and the rest are keyed by their (normalised) free
sub-problem, deduplicated and solved once each, with a process-wide cache.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from workbench.games.going_gone.bits import (
    COLUMN_ONES,
    GRID,
    PEXT,
    bit_counts,
    masks_of_bytes,
    transpose,
    type_bytes,
)

_NEG = -(10**6)  # "unreachable" in the DP; far below any reachable value


def popcount(value: int) -> int:
    return bin(value).count("1")


def int_type_bytes(mask: int) -> list[int]:
    """The 8 type lines of a mask, each a byte of country bits."""
    return [(mask >> (GRID * t)) & 0xFF for t in range(GRID)]


# -- the free sub-problem -----------------------------------------------------------------------


def reduce_holding(mask: int) -> tuple[list[int], list[int], list[int]]:
    """(type_fixed, country_fixed, free_rows): items forced to a line by step 1 of the module
    docstring, counted per type and per country, and the free items per type (country bits)."""
    rows = int_type_bytes(mask)
    column_counts = [sum((row >> c) & 1 for row in rows) for c in range(GRID)]
    busy_columns = sum(1 << c for c in range(GRID) if column_counts[c] >= 2)
    type_fixed = [0] * GRID
    country_fixed = [0] * GRID
    free_rows = [0] * GRID
    for t, row in enumerate(rows):
        count = popcount(row)
        if count >= 2:
            free_rows[t] = row & busy_columns
            type_fixed[t] = popcount(row & ~busy_columns)
        elif count == 1:
            if row & busy_columns:
                country_fixed[row.bit_length() - 1] += 1
            else:
                type_fixed[t] = 1
    return type_fixed, country_fixed, free_rows


def _components(free_rows: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """Connected components of the free items: (type lines, country lines) of each."""
    unseen = {t for t in range(GRID) if free_rows[t]}
    groups = []
    while unseen:
        types = {unseen.pop()}
        columns = free_rows[next(iter(types))]
        grown = True
        while grown:
            grown = False
            for t in list(unseen):
                if free_rows[t] & columns:
                    unseen.discard(t)
                    types.add(t)
                    columns |= free_rows[t]
                    grown = True
        groups.append((sorted(types), [c for c in range(GRID) if columns >> c & 1]))
    return groups


def marginal_bounds(best: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high): ``low[i, j]`` is the least and ``high[i, j]`` the most one more item adds to a
    line holding anywhere from ``i`` to ``j`` items (``best[k + 1] - best[k]``, k in i..j)."""
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


def _dominate(
    type_fixed: list[int],
    country_fixed: list[int],
    free_rows: list[int],
    best: np.ndarray,
    where: dict[tuple[int, int], str] | None = None,
) -> None:
    """Fix, in place, every free item whose line is decided by the range test of the module
    docstring (step 1), until none is; record the fixed items' lines in ``where``."""
    low, high = marginal_bounds(best)
    while True:
        columns = [sum((row >> c) & 1 for row in free_rows) for c in range(GRID)]
        rows = [popcount(row) for row in free_rows]
        fixed_any = False
        to_type = [0] * GRID
        to_country = [0] * GRID
        for t in range(GRID):
            row = free_rows[t]
            if not row:
                continue
            a, d = type_fixed[t], rows[t]
            for c in range(GRID):
                if not row >> c & 1:
                    continue
                b, e = country_fixed[c], columns[c]
                if low[a, a + d - 1] >= high[b, b + e - 1]:
                    to_type[t] |= 1 << c
                elif low[b, b + e - 1] >= high[a, a + d - 1]:
                    to_country[t] |= 1 << c
        for t in range(GRID):
            if to_type[t] or to_country[t]:
                fixed_any = True
                type_fixed[t] += popcount(to_type[t])
                for c in range(GRID):
                    if to_country[t] >> c & 1:
                        country_fixed[c] += 1
                    if where is not None and (to_type[t] | to_country[t]) >> c & 1:
                        where[(t, c)] = "type" if to_type[t] >> c & 1 else "country"
                free_rows[t] &= ~(to_type[t] | to_country[t])
        if not fixed_any:
            return


def _solve_component(
    lines: Sequence[Sequence[int]],
    line_fixed: Sequence[int],
    cross_fixed: Sequence[int],
    best: np.ndarray,
    *,
    want_choice: bool,
) -> tuple[int, list[int] | None]:
    """Best value of one component, processing ``lines`` (each a list of cross-line indices,
    one per free item) with the cross lines as the DP state.

    Returns (value, choice): ``choice[i]`` is a bitmask over line ``i``'s items of those sent to
    their cross line (None unless ``want_choice``).
    """
    crosses = len(cross_fixed)
    caps = [0] * crosses
    for items in lines:
        for cross in items:
            caps[cross] += 1
    strides = [1] * crosses
    for j in range(1, crosses):
        strides[j] = strides[j - 1] * (caps[j - 1] + 1)
    size = strides[-1] * (caps[-1] + 1)
    table = np.full(size, _NEG, dtype=np.int64)
    table[0] = 0
    tables = [table]
    for items, fixed in zip(lines, line_fixed, strict=True):
        n = len(items)
        sent: list[np.ndarray | None] = [table] + [None] * n  # sent[k]: k items sent across
        for j, cross in enumerate(items):
            stride = strides[cross]
            for k in range(j + 1, 0, -1):
                previous = sent[k - 1]
                current = sent[k]
                if current is None:
                    current = sent[k] = np.full(size, _NEG, dtype=np.int64)
                    current[stride:] = previous[:-stride]
                else:
                    np.maximum(current[stride:], previous[:-stride], out=current[stride:])
        table = sent[0] + best[fixed + n]
        for k in range(1, n + 1):
            np.maximum(table, sent[k] + best[fixed + n - k], out=table)
        tables.append(table)
    index = np.arange(size)
    cross_values = np.zeros(size, dtype=np.int64)
    for j in range(crosses):
        digit = (index // strides[j]) % (caps[j] + 1)
        cross_values += best[cross_fixed[j] + digit]
    total = table + cross_values
    state = int(np.argmax(total))
    value = int(total[state])
    if not want_choice:
        return value, None
    choice = [0] * len(lines)
    for i in range(len(lines) - 1, -1, -1):
        items, fixed = lines[i], line_fixed[i]
        n = len(items)
        target = int(tables[i + 1][state])
        for subset in range(1 << n):
            previous = state
            ok = True
            for bit, cross in enumerate(items):
                if subset >> bit & 1:
                    if (previous // strides[cross]) % (caps[cross] + 1) == 0:
                        ok = False
                        break
                    previous -= strides[cross]
            if not ok:
                continue
            k = popcount(subset)
            if int(tables[i][previous]) + int(best[fixed + n - k]) == target:
                choice[i] = subset
                state = previous
                break
        else:  # pragma: no cover - the DP guarantees a predecessor
            raise RuntimeError("arrangement back-tracking found no predecessor")
    return value, choice


def _solve_free(
    type_fixed: Sequence[int],
    country_fixed: Sequence[int],
    free_rows: Sequence[int],
    best: np.ndarray,
    *,
    want_choice: bool = False,
    dominated: bool = False,
) -> tuple[int, dict[tuple[int, int], str]]:
    """Best value of the lines touched by free items (plus their fixed items), and, if asked,
    where each free item goes: {(type, country): "type" | "country"}."""
    type_fixed, country_fixed, free_rows = list(type_fixed), list(country_fixed), list(free_rows)
    where: dict[tuple[int, int], str] = {}
    touched_types = [t for t in range(GRID) if free_rows[t]]
    touched_countries = [c for c in range(GRID) if any(row >> c & 1 for row in free_rows)]
    if not dominated:  # (``batch_values`` applies step 1 itself, vectorised)
        _dominate(type_fixed, country_fixed, free_rows, best, where if want_choice else None)
    # the lines the free items touched before step 1 count here, solved or not
    value = sum(int(best[type_fixed[t]]) for t in touched_types if not free_rows[t])
    value += sum(
        int(best[country_fixed[c]])
        for c in touched_countries
        if not any(row >> c & 1 for row in free_rows)
    )
    for types, countries in _components(free_rows):
        cells = [(t, c) for t in types for c in countries if free_rows[t] >> c & 1]
        if len(cells) <= 4:
            best_value, best_assignment = _NEG, 0
            for assignment in range(1 << len(cells)):
                rows = {t: type_fixed[t] for t in types}
                cols = {c: country_fixed[c] for c in countries}
                for bit, (t, c) in enumerate(cells):
                    if assignment >> bit & 1:
                        cols[c] += 1
                    else:
                        rows[t] += 1
                total = sum(int(best[v]) for v in rows.values()) + sum(
                    int(best[v]) for v in cols.values()
                )
                if total > best_value:
                    best_value, best_assignment = total, assignment
            value += best_value
            if want_choice:
                for bit, cell in enumerate(cells):
                    where[cell] = "country" if best_assignment >> bit & 1 else "type"
            continue
        # The DP state is the other side's counts: take the side with the smaller state.
        type_state = np.prod([1 + sum(free_rows[t] >> c & 1 for c in countries) for t in types])
        country_state = np.prod([1 + sum(free_rows[t] >> c & 1 for t in types) for c in countries])
        def held(t: int, c: int) -> bool:
            return bool(free_rows[t] >> c & 1)

        if country_state <= type_state:  # one DP row per type, choosing "country" or not
            part = _solve_side(
                types, countries, held, type_fixed, country_fixed, ("type", "country"),
                best, where if want_choice else None,
            )  # fmt: skip
        else:  # one DP row per country, choosing "type" or not
            part = _solve_side(
                countries, types, lambda c, t: held(t, c), country_fixed, type_fixed,
                ("country", "type"), best, where if want_choice else None,
            )  # fmt: skip
        value += part
    return value, where


def _solve_side(
    rows: list[int],
    cols: list[int],
    held: Callable[[int, int], bool],
    row_fixed: list[int],
    col_fixed: list[int],
    kinds: tuple[str, str],
    best: np.ndarray,
    where: dict[tuple[int, int], str] | None,
) -> int:
    """One component solved by DP with a row per line of one side (types or countries) and the
    other side's counts as the state; each held item joins its row's line or its column's.
    ``kinds`` names (row side, column side); ``where`` (keyed (type, country)) gets each item's
    choice when given."""
    position = {c: j for j, c in enumerate(cols)}
    lines = [[position[c] for c in cols if held(r, c)] for r in rows]
    part, choice = _solve_component(
        lines,
        [row_fixed[r] for r in rows],
        [col_fixed[c] for c in cols],
        best,
        want_choice=where is not None,
    )
    if where is not None:
        row_kind, col_kind = kinds
        for i, r in enumerate(rows):
            for bit, c in enumerate(c for c in cols if held(r, c)):
                cell = (r, c) if row_kind == "type" else (c, r)
                where[cell] = col_kind if choice[i] >> bit & 1 else row_kind
    return part


# -- one holding --------------------------------------------------------------------------------


def best_value(mask: int, best: Sequence[int] | np.ndarray) -> int:
    """The exact value of the best arrangement of holding ``mask`` (``best`` =
    ``Rules.best_line_values``)."""
    return best_lines(mask, best, want_lines=False)[0]


def best_lines(
    mask: int, best: Sequence[int] | np.ndarray, *, want_lines: bool = True
) -> tuple[int, dict[tuple[int, int], str]]:
    """(value, line of every item): ``{(type, country): "type" | "country"}`` for an optimal
    arrangement (how each line's items then split into collections: ``Rules.best_line_splits``).
    """
    best_array = np.asarray(best, dtype=np.int64)
    mask = int(mask)
    type_fixed, country_fixed, free_rows = reduce_holding(mask)
    touched_types = {t for t in range(GRID) if free_rows[t]}
    touched_countries = {c for c in range(GRID) if any(r >> c & 1 for r in free_rows)}
    value = sum(int(best_array[v]) for t, v in enumerate(type_fixed) if t not in touched_types)
    value += sum(
        int(best_array[v]) for c, v in enumerate(country_fixed) if c not in touched_countries
    )
    where: dict[tuple[int, int], str] = {}
    if touched_types:
        part, where = _solve_free(
            type_fixed, country_fixed, free_rows, best_array, want_choice=want_lines
        )
        value += part
    if not want_lines:
        return value, where
    rows = int_type_bytes(mask)
    busy_columns = 0
    for c in range(GRID):
        if sum((row >> c) & 1 for row in rows) >= 2:
            busy_columns |= 1 << c
    for t, row in enumerate(rows):
        for c in range(GRID):
            if row >> c & 1 and (t, c) not in where:
                # Forced: alone in its country -> type line; alone in its type -> country line.
                alone_in_type = popcount(row) == 1
                where[(t, c)] = "country" if alone_in_type and busy_columns >> c & 1 else "type"
    return value, where


# -- many holdings ------------------------------------------------------------------------------

_CACHES: dict[tuple[int, ...], dict[tuple[int, int, int], int]] = {}
#: Solved free sub-problems kept per value table; the cache is cleared when it grows past this.
CACHE_LIMIT = 2_000_000


def _free_value_from_key(key: tuple[int, int, int], best: np.ndarray) -> int:
    """Solve the normalised free sub-problem encoded in ``key`` (see ``_free_keys``)."""
    low_rows, high_rows, columns_key = key
    type_fixed = [0] * GRID
    free_rows = [0] * GRID
    for t in range(GRID):
        part = low_rows if t < GRID // 2 else high_rows
        descriptor = (part >> (12 * (t % (GRID // 2)))) & 0xFFF
        free_rows[t] = descriptor >> 4
        type_fixed[t] = descriptor & 0xF
    country_fixed = [(columns_key >> (4 * c)) & 0xF for c in range(GRID)]
    return _solve_free(type_fixed, country_fixed, free_rows, best, dominated=True)[0]


def _free_keys(
    free: np.ndarray, type_fixed: np.ndarray, country_fixed: np.ndarray, free_columns: np.ndarray
) -> np.ndarray:
    """Normalised keys (three uint64 words per holding) of free sub-problems: columns compressed
    to the touched ones (in order), touched type lines sorted, only touched lines' fixed counts
    kept. Isomorphic sub-problems often share a key; equal keys always mean equal values (the
    key is the problem itself)."""
    compressed = PEXT[free_columns[:, None], free].astype(np.int64)
    descriptor = np.where(free != 0, (compressed << 4) | type_fixed, 0)
    descriptor = -np.sort(-descriptor, axis=1).astype(np.int64)  # touched lines first
    half = GRID // 2
    shifts = 12 * np.arange(half, dtype=np.int64)
    low_rows = (descriptor[:, :half] << shifts).sum(axis=1)
    high_rows = (descriptor[:, half:] << shifts).sum(axis=1)
    # fixed counts of the touched columns, packed in the compressed column order
    columns_key = np.zeros(len(free), dtype=np.int64)
    slot = np.zeros(len(free), dtype=np.int64)
    for c in range(GRID):
        on = ((free_columns >> c) & 1).astype(np.int64)
        columns_key |= (country_fixed[:, c] * on) << (4 * slot)
        slot += on
    return np.stack([low_rows, high_rows, columns_key], axis=1)


def dominate(
    free: np.ndarray, type_fixed: np.ndarray, country_fixed: np.ndarray, best: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_dominate`` for many free sub-problems at once: (free, type_fixed, country_fixed)
    after fixing every item the range test decides, repeated until nothing changes."""
    low, high = marginal_bounds(best)
    width = low.shape[1]
    # compact copies: gains fit in int32 (the sentinels only need to sort below/above them)
    low = np.clip(low, -(2**30), 2**30).astype(np.int32).ravel()
    high = np.clip(high, -(2**30), 2**30).astype(np.int32).ravel()
    free = free.copy()
    type_fixed = type_fixed.copy()
    country_fixed = country_fixed.copy()
    rows = np.arange(len(free))  # the sub-problems still changing
    while rows.size:
        part = free[rows]
        a, b = type_fixed[rows], country_fixed[rows]
        row_free = bit_counts(part)
        column_free = bit_counts(type_bytes(transpose(masks_of_bytes(part))))
        row_range = a * width + np.maximum(a + row_free - 1, 0)
        column_range = b * width + np.maximum(b + column_free - 1, 0)
        row_low, row_high = low.take(row_range), high.take(row_range)
        column_low, column_high = low.take(column_range), high.take(column_range)
        # (N, t, c): the item at (t, c) goes to its type / country line
        to_type = row_low[:, :, None] >= column_high[:, None, :]
        to_country = column_low[:, None, :] >= row_high[:, :, None]
        to_type_bytes = np.packbits(to_type, axis=2, bitorder="little")[:, :, 0] & part
        to_country_bytes = (
            np.packbits(to_country, axis=2, bitorder="little")[:, :, 0] & part & ~to_type_bytes
        )
        moved = to_type_bytes | to_country_bytes
        changed = moved.any(axis=1)
        rows, moved = rows[changed], moved[changed]
        to_type_bytes, to_country_bytes = to_type_bytes[changed], to_country_bytes[changed]
        type_fixed[rows] += bit_counts(to_type_bytes)
        country_fixed[rows] += bit_counts(type_bytes(transpose(masks_of_bytes(to_country_bytes))))
        free[rows] &= ~moved
    return free, type_fixed, country_fixed


def batch_values(masks: np.ndarray, best: Sequence[int] | np.ndarray) -> np.ndarray:
    """Exact best-arrangement values of many holdings (uint64 masks, any shape) at once."""
    masks = np.asarray(masks, dtype=np.uint64)
    shape = masks.shape
    if masks.size == 0:
        return np.zeros(shape, dtype=np.int64)
    best_array = np.asarray(best, dtype=np.int64)
    unique, inverse = np.unique(masks.ravel(), return_inverse=True)
    rows = type_bytes(unique)
    row_counts = bit_counts(rows)
    packed = np.zeros(len(unique), dtype=np.uint64)
    for t in range(GRID):
        packed += COLUMN_ONES[rows[:, t]]
    column_counts = packed.view(np.uint8).reshape(-1, GRID).astype(np.int64)
    busy = np.packbits(column_counts >= 2, axis=1, bitorder="little")[:, 0]
    many = row_counts >= 2
    free = np.where(many, rows & busy[:, None], 0).astype(np.uint8)
    type_fixed = np.where(many, bit_counts(rows & ~busy[:, None]), row_counts)
    single_to_country = (row_counts == 1) & ((rows & busy[:, None]) != 0)
    type_fixed = np.where(single_to_country, 0, type_fixed)
    to_country = np.zeros(len(unique), dtype=np.uint64)
    for t in range(GRID):
        to_country += np.where(single_to_country[:, t], COLUMN_ONES[rows[:, t]], np.uint64(0))
    country_fixed = to_country.view(np.uint8).reshape(-1, GRID).astype(np.int64)
    active = np.flatnonzero(free.any(axis=1))
    if active.size:
        free[active], type_fixed[active], country_fixed[active] = dominate(
            free[active], type_fixed[active], country_fixed[active], best_array
        )
    free_columns = np.bitwise_or.reduce(free, axis=1)
    column_touched = ((free_columns[:, None] >> np.arange(GRID, dtype=np.uint8)) & 1).astype(bool)
    row_touched = free != 0
    values = np.where(row_touched, 0, best_array[type_fixed]).sum(axis=1)
    values += np.where(column_touched, 0, best_array[country_fixed]).sum(axis=1)
    hard = np.flatnonzero(free_columns)
    if hard.size:
        keys = _free_keys(free[hard], type_fixed[hard], country_fixed[hard], free_columns[hard])
        distinct, key_inverse = np.unique(keys, axis=0, return_inverse=True)
        cache = _CACHES.setdefault(tuple(int(v) for v in best_array), {})
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        solved = np.empty(len(distinct), dtype=np.int64)
        for i, key in enumerate(map(tuple, distinct.tolist())):
            found = cache.get(key)
            if found is None:
                found = cache[key] = _free_value_from_key(key, best_array)
            solved[i] = found
        values[hard] += solved[key_inverse.ravel()]
    return values[inverse].reshape(shape)
