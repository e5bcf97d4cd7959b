"""tune_chart: every candidate of a ``tune`` frame, best first, against each target's band."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.charts import render
from workbench.designer.charts import tune_chart
from workbench.designer.tuning import tune

TARGETS = {"mean_price": (3.0, None), "win_rate_spread": (None, 0.5)}


@pytest.fixture
def tuned(example):
    return tune(
        "example", {"budget": [1, 4, 16]}, TARGETS, agents="truthful", budget=600, seed=0,
        base_rules={"players": 3, "items": 3}, first_games=60, progress=False,
    )  # fmt: skip


def _panels(chart):
    return chart.to_dict()["vconcat"]


def test_one_panel_per_target_with_its_band_and_the_candidates_best_first(tuned):
    chart = tune_chart(tuned, TARGETS)
    spec = chart.to_dict()
    assert spec["title"]["text"] == "example: candidates against the targets, best first"
    assert "bars: 95% intervals" in spec["title"]["subtitle"]
    panels = _panels(chart)
    assert [p["title"]["text"] for p in panels] == list(TARGETS)
    assert [p["title"]["subtitle"] for p in panels] == [
        "shaded: target band ≥ 3",
        "shaded: target band ≤ 0.5",
    ]
    order = panels[0]["layer"][1]["encoding"]["y"]["sort"]
    best = tuned.row(0, named=True)
    assert order[0] == f"#1 budget={best['budget']}"
    assert len(order) == tuned.height
    # An open end of a band runs past every interval drawn beside it.
    datasets = spec["datasets"]
    band = next(rows[0] for rows in datasets.values() if "band_low" in rows[0])
    assert band["band_low"] == 3.0
    assert band["band_high"] > tuned["mean_price_high"].max()


def test_the_chart_renders_with_every_text_inside_it(tuned):
    drawn = render(tune_chart(tuned, TARGETS, title="Budgets"))
    assert drawn.text_outside == ()
    assert "Budgets" in drawn.text and "meets every target" in drawn.text


def test_tune_chart_refuses_a_frame_without_the_targets(tuned):
    with pytest.raises(ValueError, match="no columns for targets"):
        tune_chart(tuned, {"nope": (0, 1)})
    with pytest.raises(ValueError, match="needs the targets"):
        tune_chart(tuned, {})
    with pytest.raises(ValueError, match="columns"):
        tune_chart(pl.DataFrame({"x": [1]}), TARGETS)
