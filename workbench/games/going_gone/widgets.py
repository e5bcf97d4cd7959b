"""Explorers for Going, Going, GONE!, built on ``workbench.widgets.Explorer``."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import ipywidgets as widgets
import polars as pl

from workbench.checks import instance_or_default
from workbench.games.going_gone.charts import arrangement_chart
from workbench.games.going_gone.collection_values import (
    best_collections,
    lot_value,
    parse_items,
    sale_options,
)
from workbench.games.going_gone.rules import Rules
from workbench.widgets import Explorer


def collection_explorer(
    rules: Rules | None = None, *, holding: Sequence[object] = (), lot: Sequence[object] = ()
) -> Explorer:
    """Pick a holding and a lot (any form ``parse_items`` accepts; the lot must not repeat held
    items) -> the best arrangement of both on the grid (the lot outlined), the value with and
    without the lot, and every collection one could then sell (best net first); clicking a
    collection in the grid lists the sale options along its line."""
    rules = instance_or_default("rules", rules, Rules, Rules, "a going_gone Rules or None")
    options = [(rules.item_name(item), item) for item in range(len(rules.items))]
    rows = min(12, len(options))
    controls = {
        "holding": widgets.SelectMultiple(
            options=options, value=parse_items(holding, rules), description="holding", rows=rows
        ),
        "lot": widgets.SelectMultiple(
            options=options, value=parse_items(lot, rules), description="lot", rows=rows
        ),
    }

    def compute(
        holding: tuple[int, ...], lot: tuple[int, ...]
    ) -> tuple[pl.DataFrame, alt.LayerChart]:
        held = parse_items(holding, rules)
        lot_items = parse_items(lot, rules)
        if lot_items:
            values = lot_value(held, lot_items, rules=rules).row(0, named=True)
            title = (
                f"Worth {values['value_without']} without the lot, {values['value_with']} with it "
                f"(+{values['marginal']})"
            )
        else:
            title = f"Worth {best_collections(held, rules=rules).value} (no lot chosen)"
        if rules.collection_values != Rules.__dataclass_fields__["collection_values"].default:
            title += f" (collection values {', '.join(map(str, rules.collection_values))})"
        combined = held + lot_items
        arrangement = best_collections(combined, rules=rules)
        chart = arrangement_chart(arrangement, lot=lot_items, title=title)
        return sale_options(combined, rules=rules), chart

    heading = "Going, Going, GONE!: a holding, a lot, what to sell"
    return Explorer(controls, compute, title=heading, pick=("line",))
