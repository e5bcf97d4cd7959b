"""The Explorer pattern every game's widgets are built on, driven without a browser."""

from __future__ import annotations

import base64
import re

import altair as alt
import ipywidgets as widgets
import polars as pl
import pytest

from workbench.widgets import FALLBACK_NOTE, NONE_OPTION, Explorer, SavedCopy


class Squares:
    """compute(): n squared, labelled; counts its calls and what the status said meanwhile."""

    def __init__(self) -> None:
        self.calls = 0
        self.status_during: list[str] = []
        self.explorer: Explorer | None = None

    def __call__(self, n: int, label: str | None):
        self.calls += 1
        if self.explorer is not None:
            self.status_during.append(self.explorer.status.value)
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        frame = pl.DataFrame({"label": [label or "none"], "square": [n * n]})
        return frame, alt.Chart(frame, title=f"n = {n}").mark_bar().encode(x="square:Q")


def _explorer(**options) -> tuple[Explorer, Squares]:
    compute = Squares()
    controls = {
        "n": widgets.IntSlider(value=3, min=-5, max=10, description="n"),
        "label": widgets.Dropdown(options=[("no label", None), ("x", "x")], value=None),
    }
    explorer = Explorer(controls, compute, title="Squares", **options)
    compute.explorer = explorer
    return explorer, compute


def test_recomputes_when_a_control_changes_and_on_set():
    explorer, _ = _explorer()
    assert explorer.frame["square"].to_list() == [9]
    explorer.controls["n"].value = 4  # as a user releasing the slider
    assert explorer.frame["square"].to_list() == [16]
    explorer.set(n=5, label="x")
    assert explorer.frame.row(0) == ("x", 25)
    assert explorer.values() == {"n": 5, "label": "x"}
    assert explorer.chart.to_dict()["title"] == "n = 5"
    assert explorer.rendered is not None and explorer.image.value == explorer.rendered.png


def test_sliders_recompute_on_release():
    explorer, _ = _explorer()
    assert explorer.controls["n"].continuous_update is False


def test_a_none_option_keeps_its_label():
    # ipywidgets 8 reads value None as "nothing selected" (a blank entry); the explorer maps it.
    explorer, _ = _explorer()
    label = explorer.controls["label"]
    assert (label.index, label.label, label.value) == (0, "no label", NONE_OPTION)
    assert explorer.values()["label"] is None
    assert explorer.frame["label"].to_list() == ["none"]
    explorer.set(label="x")
    explorer.set(label=None)
    assert (label.label, explorer.values()["label"]) == ("no label", None)


def test_results_are_cached_by_control_values():
    explorer, compute = _explorer()
    explorer.set(n=4)
    explorer.set(n=3)
    explorer.set(n=4)
    assert compute.calls == 2  # n=3 (at start), n=4; both later ones from the cache
    assert "cache" in explorer.status.value


def test_a_cache_of_size_zero_recomputes_every_time():
    explorer, compute = _explorer(cache_size=0)
    explorer.set(n=4)
    explorer.set(n=3)
    assert compute.calls == 3 and explorer.frame["square"].to_list() == [9]


def test_the_status_says_computing_while_computing():
    explorer, compute = _explorer()
    explorer.set(n=7)
    assert "computing…" in compute.status_during[-1]
    assert re.search(r"computed in \d+\.\d\d s", explorer.status.value)


def test_bad_input_shows_a_message_not_a_traceback():
    explorer, _ = _explorer()
    explorer.set(n=-2)
    assert explorer.frame is None and explorer.chart is None and explorer.rendered is None
    assert explorer.error == "n must be >= 0, got -2"
    assert "n must be &gt;= 0, got -2" in explorer.status.value
    assert explorer.image.layout.display == "none"
    explorer.set(n=2)
    assert explorer.error is None and explorer.frame["square"].to_list() == [4]


def test_set_refuses_unknown_controls_and_values_out_of_bounds():
    explorer, _ = _explorer()
    with pytest.raises(ValueError, match=r"unknown control 'm'; controls: \['label', 'n'\]"):
        explorer.set(m=1)
    with pytest.raises(ValueError, match=r"n=11 is not possible here; allowed -5–10"):
        explorer.set(n=11, label="x")
    assert explorer.values() == {"n": 3, "label": None}  # nothing changed
    with pytest.raises(ValueError, match=r"label='y' is not possible here; options: None, 'x'"):
        explorer.set(label="y")


def test_adapt_moves_bounds_and_disables_controls_with_the_situation():
    def compute(cards: int, held_out: int, epsilon: float):
        frame = pl.DataFrame({"cards": [cards], "held_out": [held_out], "epsilon": [epsilon]})
        return frame, None

    def adapt(cards: int, held_out: int, epsilon: float):
        return {"held_out": {"max": cards}, "epsilon": {"disabled": cards == 5}}

    controls = {
        "cards": widgets.IntSlider(value=5, min=1, max=5),
        "held_out": widgets.IntSlider(value=5, min=0, max=5),
        "epsilon": widgets.FloatSlider(value=0.1, min=0, max=0.5),
    }
    explorer = Explorer(controls, compute, adapt=adapt)
    assert controls["epsilon"].disabled is True
    explorer.set(cards=3)
    assert (controls["held_out"].max, controls["held_out"].value) == (3, 3)  # clamped
    assert controls["epsilon"].disabled is False
    assert explorer.frame.row(0) == (3, 3, 0.1)
    explorer.set(cards=5, held_out=5)  # the bound follows before the value is checked
    assert explorer.frame.row(0) == (5, 5, 0.1)
    with pytest.raises(ValueError, match=r"held_out=4 is not possible here; allowed 0–2"):
        explorer.set(cards=2, held_out=4)
    assert explorer.values() == {"cards": 5, "held_out": 5, "epsilon": 0.1}
    assert controls["held_out"].max == 5  # restored with the values
    assert explorer.image.layout.display == "none"  # compute gave no chart


def test_downloads_hold_the_frame_as_csv_and_the_chart_as_png():
    explorer, _ = _explorer()
    links = explorer.links.value
    csv = re.search(r'download="squares\.csv" href="data:text/csv;[^,]*base64,([^"]+)"', links)
    assert base64.b64decode(csv.group(1)).decode() == "label,square\nnone,9\n"
    assert f'download="squares.png" href="{explorer.rendered.data_uri()}"' in links


def test_a_saved_notebook_shows_the_first_result_beside_the_live_widget():
    explorer, _ = _explorer()
    first_png = explorer.rendered.data_uri()
    explorer.set(n=6)  # later changes do not alter what the saved copy shows
    bundle = explorer._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.model_id
    html, text = bundle["text/html"], bundle["text/plain"]
    assert html.startswith('<div class="workbench-saved"')
    assert '<div class="workbench-explorer">' in html
    assert "(n 3 · label no label)" in html and FALLBACK_NOTE in html
    assert f'<img src="{first_png}"' in html and ">9</td>" in html
    assert text.splitlines()[:3] == [
        "Explorer: Squares (n 3 · label no label)",
        FALLBACK_NOTE,
        "Chart: n = 3",
    ]
    assert "square" in text.splitlines()[-4]


def test_any_widget_can_carry_a_saved_copy():
    class Counter(SavedCopy, widgets.HTML):
        def saved_copy(self):
            return f"<b>{self.value}</b>", f"Counter at {self.value}"

    counter = Counter("1")
    counter.value = "2"  # the copy is taken when first displayed
    bundle = counter._repr_mimebundle_()
    assert bundle["text/html"].startswith('<div class="workbench-saved"')
    assert "<b>2</b>" in bundle["text/html"] and bundle["text/plain"] == "Counter at 2"
    counter.value = "3"
    assert counter._repr_mimebundle_()["text/plain"] == "Counter at 2"
    assert "text/html" not in widgets.HTML("plain")._repr_mimebundle_()


def test_unexpected_errors_are_raised_and_their_traceback_shown():
    def compute(n: int):
        raise KeyError("bug")

    with pytest.raises(KeyError):
        Explorer({"n": widgets.IntSlider(value=1)}, compute)


def test_an_explorer_needs_controls():
    with pytest.raises(ValueError, match="at least one control"):
        Explorer({}, lambda: (None, None))
