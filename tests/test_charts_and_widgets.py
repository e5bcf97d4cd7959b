"""Shared chart builder and the Explorer pattern every widget is built on."""

from __future__ import annotations

import altair as alt
import ipywidgets as widgets
import polars as pl
import pytest

from workbench.charts import interval_bars
from workbench.widgets import Explorer


def test_interval_bars_layers_estimate_interval_and_reference():
    frame = pl.DataFrame(
        {"agent": ["a", "b"], "rate": [0.6, 0.2], "low": [0.5, 0.1], "high": [0.7, 0.3]}
    )
    chart = interval_bars(frame, category="agent", value="rate", reference=0.25, title="t")
    spec = chart.to_dict()
    assert len(spec["layer"]) == 3
    assert spec["layer"][0]["encoding"]["x"]["field"] == "rate"
    assert spec["layer"][1]["encoding"]["x2"]["field"] == "high"
    assert spec["layer"][2]["data"]["values"] == [{"reference": 0.25}]
    assert len(interval_bars(frame, category="agent", value="rate").to_dict()["layer"]) == 2


def _square_explorer() -> Explorer:
    def compute(n: int, label: str):
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        frame = pl.DataFrame({"label": [label], "square": [n * n]})
        return frame, alt.Chart(frame).mark_bar().encode(x="square:Q")

    controls = {"n": widgets.IntSlider(value=3, min=-5, max=10), "label": widgets.Text("x")}
    return Explorer(controls, compute, title="squares")


def test_explorer_recomputes_when_a_control_changes():
    explorer = _square_explorer()
    assert explorer.frame["square"].to_list() == [9]
    explorer.controls["n"].value = 4  # as a user dragging the slider
    assert explorer.frame["square"].to_list() == [16]
    explorer.set(n=5, label="y")
    assert explorer.frame.row(0) == ("y", 25)
    assert explorer.values() == {"n": 5, "label": "y"}


def test_explorer_shows_bad_input_as_a_message_not_a_traceback():
    explorer = _square_explorer()
    explorer.set(n=-2)
    assert explorer.frame is None and explorer.chart is None
    assert explorer.error == "n must be >= 0, got -2"
    explorer.set(n=2)
    assert explorer.error is None and explorer.frame["square"].to_list() == [4]


def test_explorer_rejects_unknown_controls():
    with pytest.raises(ValueError, match=r"unknown control 'm'; controls: \['label', 'n'\]"):
        _square_explorer().set(m=1)
