"""Exact collection values: the solver against independent brute forces and an integer
programme, on hundreds of seeded random holdings, with the rulebook's table and odd ones."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from workbench.games.going_gone import Rules
from workbench.games.going_gone.arrangement import best_lines, best_value
from workbench.games.going_gone.holdings import exact_values

DEFAULT = (2, 6, 12, 20, 30, 38, 44)
#: tables where greedy grouping fails in other ways: splitting a line pays, sizes are skipped,
#: big collections are worth little, values fall
ODD_TABLES = [
    (2, 3, 5, 20, 21, 22, 23),
    (5, 6, 7, 30, 31, 32, 70),
    (3, 4, 12, 13, 14, 40, 41),
    (1, 10, 10, 10, 40, 40, 100),
    (0, 0, 9, 9, 9, 9, 9),
    (4, 8, 12, 16, 20, 24, 28),
    (10, 1, 1, 1, 1, 1, 1),
]
CELLS = [(t, c) for t in range(7) for c in range(7)]


def mask(cells) -> int:
    return sum(1 << (8 * t + c) for t, c in cells)


def best_split(values, m: int) -> int:
    """The most ``m`` items of one line are worth, by trying every integer partition of m."""

    def partitions(rest: int, largest: int):
        if rest == 0:
            yield ()
            return
        for part in range(min(rest, largest), 0, -1):
            for tail in partitions(rest - part, part):
                yield (part, *tail)

    return max(sum(values[p - 1] for p in parts) for parts in partitions(m, m))


def every_assignment(cells, values) -> int:
    """Brute force: every item to its type line or its country line (2^n), each line's items
    split as well as an integer-partition search allows."""
    split = [best_split(values, m) for m in range(8)]
    best = 0
    for sides in itertools.product((0, 1), repeat=len(cells)):
        counts: dict[tuple[int, int], int] = {}
        for (t, c), side in zip(cells, sides, strict=True):
            line = (0, t) if side == 0 else (1, c)
            counts[line] = counts.get(line, 0) + 1
        best = max(best, sum(split[m] for m in counts.values()))
    return best


def every_partition(cells, values) -> int:
    """Brute force of the rule itself: every way to split the items into collections, each
    collection one type or one country (set partitions; small holdings only)."""
    best = 0

    def search(rest, total):
        nonlocal best
        if not rest:
            best = max(best, total)
            return
        first, others = rest[0], rest[1:]
        for k in range(len(others) + 1):
            for mates in itertools.combinations(others, k):
                group = (first, *mates)
                if len({t for t, _ in group}) == 1 or len({c for _, c in group}) == 1:
                    left = [cell for cell in others if cell not in mates]
                    search(left, total + values[len(group) - 1])

    search(list(cells), 0)
    return best


def integer_programme(cells, values) -> int:
    """An independent exact check: a mixed-integer programme over (item -> line) and (number of
    collections of each size in each line), solved by scipy's HiGHS."""
    lines = [(0, t) for t in range(7)] + [(1, c) for c in range(7)]
    sizes = range(1, len(values) + 1)
    n_x, n_z = 2 * len(cells), len(lines) * len(values)
    objective = np.zeros(n_x + n_z)
    for li in range(len(lines)):
        for k in sizes:
            objective[n_x + li * len(values) + k - 1] = -values[k - 1]
    rows, low, high = [], [], []
    for i in range(len(cells)):
        row = np.zeros(n_x + n_z)
        row[2 * i : 2 * i + 2] = 1
        rows.append(row), low.append(1), high.append(1)
    for li, (side, index) in enumerate(lines):
        row = np.zeros(n_x + n_z)
        for i, cell in enumerate(cells):
            if cell[side] == index:
                row[2 * i + side] = -1
        for k in sizes:
            row[n_x + li * len(values) + k - 1] = k
        rows.append(row), low.append(0), high.append(0)
    result = milp(
        objective,
        constraints=LinearConstraint(np.array(rows), low, high),
        integrality=np.ones(n_x + n_z),
        bounds=Bounds(0, np.r_[np.ones(n_x), np.full(n_z, 7)]),
    )
    assert result.success
    return round(-result.fun)


def random_holdings(seed: int, count: int, largest: int):
    """Seeded holdings: half uniform over the grid, half clustered on three types and three
    countries (where lines compete for items)."""
    rng = random.Random(seed)
    holdings = []
    for k in range(count):
        n = rng.randint(0, largest)
        if k % 2:
            types, countries = rng.sample(range(7), 3), rng.sample(range(7), 3)
            pool = [cell for cell in CELLS if cell[0] in types or cell[1] in countries]
            holdings.append(rng.sample(pool, min(n, len(pool))))
        else:
            holdings.append(rng.sample(CELLS, n))
    return holdings


@pytest.mark.parametrize("values", [DEFAULT, *ODD_TABLES])
def test_exact_against_every_assignment_up_to_14_items(values):
    best = Rules(collection_values=values).best_line_values
    holdings = random_holdings(seed=sum(values), count=40, largest=14)
    expected = [every_assignment(cells, values) for cells in holdings]
    assert [best_value(mask(cells), best) for cells in holdings] == expected
    masks = np.array([mask(cells) for cells in holdings], dtype=np.uint64)
    assert exact_values(masks, np.asarray(best)).tolist() == expected


@pytest.mark.parametrize("values", [DEFAULT, ODD_TABLES[0], ODD_TABLES[3]])
def test_exact_against_every_partition_into_collections(values):
    best = Rules(collection_values=values).best_line_values
    for cells in random_holdings(seed=7, count=25, largest=8):
        assert best_value(mask(cells), best) == every_partition(cells, values), cells


def test_exact_against_an_integer_programme_on_larger_holdings():
    for values in (DEFAULT, ODD_TABLES[1], ODD_TABLES[2]):
        best = Rules(collection_values=values).best_line_values
        for cells in random_holdings(seed=11, count=8, largest=30):
            assert best_value(mask(cells), best) == integer_programme(cells, values), cells


def test_hand_counted_holdings_where_greedy_grouping_is_wrong():
    best = Rules().best_line_values
    # All 7 cars and 5 more German items. Cars as one collection of 7 (44) leaves 5 German
    # (30): 74. The German car in the German collection instead: 6 cars (38) + 6 German (38)
    # = 76, the best.
    cars = [(0, c) for c in range(7)]
    german = [(t, 0) for t in range(1, 6)]
    assert best_value(mask(cars + german), best) == 76
    # The whole deck: six types of 6 (6 x 38), one full type (44) and the six items they left
    # as one country collection (38) = 310; checked by the integer programme.
    assert best_value(mask(CELLS), best) == 310 == integer_programme(CELLS, DEFAULT)
    # With pairs worth less than two singles, one type's two items are two collections.
    odd = Rules(collection_values=(2, 3, 5, 20, 21, 22, 23)).best_line_values
    assert best_value(mask([(0, 0), (0, 1)]), odd) == 4


@pytest.mark.parametrize("values", [DEFAULT, *ODD_TABLES[:3]])
def test_best_lines_is_a_complete_arrangement_worth_the_value(values):
    best = Rules(collection_values=values).best_line_values
    for cells in random_holdings(seed=3, count=60, largest=20):
        value, where = best_lines(mask(cells), best)
        assert set(where) == set(cells)
        counts: dict[tuple[str, int], int] = {}
        for (t, c), side in where.items():
            line = (side, t if side == "type" else c)
            counts[line] = counts.get(line, 0) + 1
        assert sum(best[m] for m in counts.values()) == value == best_value(mask(cells), best)
