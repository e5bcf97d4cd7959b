"""The compiled exact values and quick arrangement (``holdings``) agree with ``arrangement``'s
solver and the quick arrangement written plainly on seeded random holdings, for several value
tables; the bit-parallel value of holdings with few free items agrees with trying every
assignment."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.going_gone import Rules
from workbench.games.going_gone.arrangement import best_value
from workbench.games.going_gone.holdings import (
    FEW_FREE,
    WORK,
    exact_values,
    few_free_value,
    greedy_values,
    item_bits,
)

from .test_arrangement import DEFAULT, ODD_TABLES, every_assignment, random_holdings
from .test_arrangement import mask as cells_mask

TABLES = [(2, 6, 12, 20, 30, 38, 44), (1, 5, 6, 20, 21, 22, 40), (2, 3, 4, 5, 6, 7, 8)]


@pytest.mark.parametrize("values", TABLES)
def test_compiled_values_match_the_solver_on_random_holdings(values):
    rules = Rules(collection_values=values)
    bits = item_bits(rules)
    rng = np.random.default_rng(sum(values))
    masks = np.array(
        [
            np.bitwise_or.reduce(bits[rng.choice(len(bits), size=size, replace=False)])
            for size in list(range(1, 21)) * 25
        ]
        + [0],
        dtype=np.uint64,
    )
    expected = [best_value(int(m), rules.best_line_values) for m in masks]
    assert exact_values(masks, rules).tolist() == expected
    assert greedy_values(masks, rules).tolist() == [quick_value(rules, int(m)) for m in masks]
    shaped = masks[:40].reshape(4, 10)
    assert exact_values(shaped, rules).tolist() == np.reshape(expected[:40], (4, 10)).tolist()
    assert exact_values(np.zeros((0, 3), np.uint64), rules).shape == (0, 3)


def quick_value(rules: Rules, mask: int) -> int:
    """The quick arrangement, written plainly: every held item joins the longer of its type and
    country lines (the type line on a tie), counted in the whole holding."""
    held = [(t, c) for t in range(8) for c in range(8) if mask >> (8 * t + c) & 1]
    by_type = {t: sum(1 for h in held if h[0] == t) for t in range(8)}
    by_country = {c: sum(1 for h in held if h[1] == c) for c in range(8)}
    lines: dict[tuple[str, int], int] = {}
    for t, c in held:
        key = ("type", t) if by_type[t] >= by_country[c] else ("country", c)
        lines[key] = lines.get(key, 0) + 1
    return sum(rules.best_line_values[count] for count in lines.values())


def test_hand_counted_holding():
    # cars/Germany, cars/Canada, comics/Germany, toys/Germany: Germany x3 (12) + Canada (2) = 14
    rules = Rules()
    at = rules.item_at
    mask = sum(int(item_bits(rules)[at[cell]]) for cell in [(0, 0), (0, 1), (1, 0), (4, 0)])
    assert exact_values(np.array([mask], np.uint64), rules).tolist() == [14]


def free_items(cells) -> int:
    """Items sharing their type with another item and their country with another item."""
    return sum(
        1
        for t, c in cells
        if sum(1 for u, _ in cells if u == t) >= 2 and sum(1 for _, d in cells if d == c) >= 2
    )


@pytest.mark.parametrize("values", [DEFAULT, *ODD_TABLES])
def test_few_free_value_against_every_assignment(values):
    rules = Rules(collection_values=values)
    best = np.asarray(rules.best_line_values)
    work = np.zeros(WORK, dtype=np.int64)
    holdings = random_holdings(seed=3 + sum(values), count=300, largest=12)
    seen = [0] * (FEW_FREE + 2)
    for cells in holdings:
        free = free_items(cells)
        found = few_free_value(np.uint64(cells_mask(cells)), best, work)
        if free > FEW_FREE:
            assert found == -1, cells
        else:
            assert found == every_assignment(cells, values), cells
        seen[min(free, FEW_FREE + 1)] += 1
    assert min(seen) >= 5  # every case, none to more than FEW_FREE free items, was tried
