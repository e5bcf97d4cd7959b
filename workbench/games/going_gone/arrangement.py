"""Exact best arrangement of held items (a bitmask, bit ``8 * type + country``) into
collections, for any table of collection values: the readable reference.

Within a line only the count matters (``m`` items are best split as ``best[m]``,
``Rules.best_line_values``), so each item goes to its type or its country line to maximise
``sum(best[count])``; greedy grouping is wrong in general (the table is not convex), so:

1. An item alone in its country goes to its type line, one alone in its type to its country
   line (``best`` is superadditive). Then an item goes to its type line when the least that line
   can gain from one more item is at least the most its country line can (and the other way
   round); repeated until nothing changes. What is left splits into connected components.
2. Each component is a dynamic programme over its type lines, the state being how many free
   items each country line has received (a mixed-radix array; rows and columns swap when that is
   smaller); the arrangement is recovered by walking the stored arrays back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from workbench.games.going_gone.holdings import GRID, marginal_bounds

_NEG = -(10**6)  # "unreachable" in the DP; far below any reachable value


def popcount(value: int) -> int:
    return bin(value).count("1")


def int_type_bytes(mask: int) -> list[int]:
    """The 8 type lines of a mask, each a byte of country bits."""
    return [(mask >> (GRID * t)) & 0xFF for t in range(GRID)]


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


def _dominate(
    type_fixed: list[int], country_fixed: list[int], free_rows: list[int], best: np.ndarray,
    where: dict[tuple[int, int], str] | None = None,
) -> None:  # fmt: skip
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
    lines: Sequence[Sequence[int]], line_fixed: Sequence[int], cross_fixed: Sequence[int],
    best: np.ndarray, *, want_choice: bool,
) -> tuple[int, list[int] | None]:  # fmt: skip
    """(value, choice) of one component: the DP over ``lines`` (each a list of cross-line
    indices, one per free item), the cross lines' counts its state; ``choice[i]`` is a bitmask
    over line ``i``'s items of those sent to their cross line (None unless ``want_choice``)."""
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
    type_fixed: Sequence[int], country_fixed: Sequence[int], free_rows: Sequence[int],
    best: np.ndarray, *, want_choice: bool = False,
) -> tuple[int, dict[tuple[int, int], str]]:  # fmt: skip
    """Best value of the lines touched by free items (plus their fixed items), and, if asked,
    where each free item goes: {(type, country): "type" | "country"}."""
    type_fixed, country_fixed, free_rows = list(type_fixed), list(country_fixed), list(free_rows)
    where: dict[tuple[int, int], str] = {}
    touched_types = [t for t in range(GRID) if free_rows[t]]
    touched_countries = [c for c in range(GRID) if any(row >> c & 1 for row in free_rows)]
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
    rows: list[int], cols: list[int], held: Callable[[int, int], bool], row_fixed: list[int],
    col_fixed: list[int], kinds: tuple[str, str], best: np.ndarray,
    where: dict[tuple[int, int], str] | None,
) -> int:  # fmt: skip
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
