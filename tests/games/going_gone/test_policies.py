"""The compiled collector policy's sale plan against the plan written plainly: every whole
line tried with exact values from ``arrangement``'s solver, least value lost per Buck first,
while Bucks are below the reserve (the compiled search skips lines that cannot win)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.games.going_gone import Rules
from workbench.games.going_gone.arrangement import best_value
from workbench.games.going_gone.holdings import tables_of
from workbench.games.going_gone.policies import COLLECTOR, MAX_SALES, plan_sales, scratch

from .test_arrangement import DEFAULT, ODD_TABLES, mask, random_holdings


def plain_sales(rules: Rules, holding: int, bucks: int, reserve: float) -> list[int]:
    """The collections sold, in order: while Bucks < reserve, the whole type or country line
    with the least (value lost / Bucks paid - Bucks paid / 10^6), the first line on a tie."""
    best = rules.best_line_values
    sold = []
    while len(sold) < MAX_SALES and bucks < reserve and holding:
        worth = best_value(holding, best)
        lines = [holding & (0xFF << (8 * t)) for t in range(8)]
        lines += [holding & (0x0101010101010101 << c) for c in range(8)]
        keys = []
        for line in lines:
            size = bin(line).count("1")
            if size == 0:
                keys.append(math.inf)
                continue
            paid = rules.collection_values[size - 1]
            lost = worth - best_value(holding & ~line, best)
            keys.append(lost / max(paid, 1) - paid * 1e-6)
        line = lines[keys.index(min(keys))]
        sold.append(line)
        holding &= ~line
        bucks += rules.collection_values[bin(line).count("1") - 1]
    return sold


@pytest.mark.parametrize("values", [DEFAULT, *ODD_TABLES])
def test_exact_sale_plan_against_every_line_tried(values):
    rules = Rules(collection_values=values)
    tables = tables_of(rules)
    space = scratch(1)
    out = np.zeros(MAX_SALES, dtype=np.uint64)
    rng = np.random.default_rng(sum(values))
    for cells in random_holdings(seed=11 + sum(values), count=150, largest=16):
        holding = mask(cells)
        bucks = int(rng.integers(0, 30))
        reserve = float(rng.choice([bucks + 1, bucks + 20, 200.0]))
        params = np.array([0.6, 0.85, reserve, 0.5, 0.5, 1.0])
        made = plan_sales(COLLECTOR, params, np.uint64(holding), bucks, 3, tables, space, out)
        assert [int(c) for c in out[:made]] == plain_sales(rules, holding, bucks, reserve), cells
