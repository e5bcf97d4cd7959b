"""The Explorer pattern every game's widgets are built on, driven without a browser."""

from __future__ import annotations

import base64
import re

import altair as alt
import ipywidgets as widgets
import polars as pl
import pytest

from workbench.widgets import (
    BUSY_CLASS,
    BUSY_TEXT,
    FALLBACK_NOTE,
    NONE_OPTION,
    Explorer,
    SavedCopy,
)


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
    assert explorer.rendered is not None and explorer.view.spec["title"] == "n = 5"
    assert explorer.view.spec["datasets"] == explorer.spec["datasets"]  # the live view


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


class BusySquares(Squares):
    """Also records whether the explorer carried the busy class while computing."""

    def __init__(self) -> None:
        super().__init__()
        self.busy_during: list[bool] = []

    def __call__(self, n: int, label: str | None):
        if self.explorer is not None:
            self.busy_during.append(BUSY_CLASS in self.explorer._dom_classes)
        return super().__call__(n, label)


def test_a_busy_indicator_shows_while_computing_and_clears_after():
    compute = BusySquares()
    controls = {
        "n": widgets.IntSlider(value=3, min=-5, max=10, description="n"),
        "label": widgets.Dropdown(options=[("no label", None), ("x", "x")], value=None),
    }
    explorer = Explorer(controls, compute, title="Squares")
    compute.explorer = explorer
    explorer.set(n=7)
    assert BUSY_TEXT in compute.status_during[-1] and compute.busy_during[-1] is True
    assert BUSY_TEXT not in explorer.status.value.split("</style>")[-1]
    assert BUSY_CLASS not in explorer._dom_classes
    assert re.search(r"computed in \d+\.\d\d s", explorer.status.value)
    explorer.set(n=-1)  # an answer that is an error clears it too
    assert BUSY_CLASS not in explorer._dom_classes


def test_bad_input_shows_a_message_not_a_traceback():
    explorer, _ = _explorer()
    explorer.set(n=-2)
    assert explorer.frame is None and explorer.chart is None and explorer.rendered is None
    assert explorer.error == "n must be >= 0, got -2"
    assert "n must be &gt;= 0, got -2" in explorer.status.value
    assert explorer.view.layout.display == "none"
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
    assert explorer.view.layout.display == "none"  # compute gave no chart


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


# --- picking in the chart ----------------------------------------------------------------------


def _scores(pick=("player",)) -> Explorer:
    """Three players' scores as bars (one row each); ``pick`` as given."""

    def compute(bonus: int):
        frame = pl.DataFrame({"player": ["ann", "bob", "cy"], "score": [3 + bonus, 5, 4]})
        chart = alt.Chart(frame).mark_bar().encode(x="player:N", y="score:Q")
        return frame, chart

    return Explorer({"bonus": widgets.IntSlider(value=0, max=5)}, compute, pick=pick)


def test_a_pick_in_the_chart_filters_the_table():
    explorer = _scores()
    assert explorer.view._selection_types == {"pick": "point", "zoom_1": "interval"}
    assert explorer.shown["player"].to_list() == ["ann", "bob", "cy"]
    explorer.pick({"player": "bob"})
    assert explorer.view.selections.pick.value == [{"player": "bob"}]
    assert explorer.shown.rows() == [("bob", 5)]
    assert ">bob</td>" in explorer.table.value and ">ann</td>" not in explorer.table.value
    assert "player = bob (1 of 3 rows)" in explorer.pick_note.value
    explorer.pick({"player": "ann"}, {"player": "cy"})
    assert explorer.shown.rows() == [("ann", 3), ("cy", 4)]
    explorer.pick()  # a click on the background
    assert explorer.shown.height == 3 and "click a mark" in explorer.pick_note.value
    explorer.pick({"player": "cy"})
    explorer.set(bonus=2)  # a new result shows every row again
    assert explorer.picked == [] and explorer.shown.rows()[0] == ("ann", 5)


def test_the_browser_s_selection_message_reaches_the_table():
    # What the page sends on a click: the selection signal of the point selection.
    explorer = _scores()
    signal = {"vlPoint": {"or": [{"player": "cy"}]}, "player": ["cy"]}
    explorer.view._vl_selections = {
        "pick": {"value": signal, "store": [{"unit": "", "values": ["cy"]}]},
        "zoom_1": {"value": None, "store": []},
    }
    assert explorer.shown.rows() == [("cy", 4)]


def test_a_pick_on_fields_the_table_lacks_shows_the_chart_s_rows():
    def compute(n: int):
        summary = pl.DataFrame({"metric": ["mean"], "value": [2.0]})
        detail = pl.DataFrame({"k": [1, 2, 3], "p": [0.1 * n, 0.2, 0.3]})
        return summary, alt.Chart(detail).mark_point().encode(x="k:O", y="p:Q")

    explorer = Explorer({"n": widgets.IntSlider(value=1)}, compute, pick=("k",))
    explorer.pick({"k": 2})
    assert explorer.shown.rows() == [(2, 0.2)]


def test_pick_fields_are_checked():
    with pytest.raises(ValueError, match=r"pick takes a tuple of field names, got 'player'"):
        _scores(pick="player")
    with pytest.raises(ValueError, match=r"no view of the chart has data with the fields \['x'\]"):
        _scores(pick=("x",))
    explorer = _scores()
    with pytest.raises(ValueError, match=r"every pick field \['player'\], got \['score'\]"):
        explorer.pick({"score": 5})
    with pytest.raises(ValueError, match="no pick fields"):
        _scores(pick=()).pick({"player": "ann"})


def _explorers_given_bad_settings() -> list[tuple[str, object, type, str]]:
    """(label, a call building an explorer or a table from bad settings, error, message)."""
    import workbench
    from workbench.designer import designer_dashboard
    from workbench.games import auction_house, going_gone, rubbish, shared_budget
    from workbench.reviews import hint

    return [
        ("cheapskate games", lambda: rubbish.cheapskate_explorer(games=0), ValueError,
         "games must be a whole number >= 1, got 0"),
        ("cheapskate seed", lambda: rubbish.cheapskate_explorer(seed=-1), ValueError,
         "seed must be a whole number >= 0, got -1"),
        ("bid inference rules", lambda: rubbish.bid_inference_explorer(shared_budget.Rules()),
         TypeError, "rules must be a rubbish Rules or None, got Rules from workbench.games"),
        ("collection rules", lambda: going_gone.collection_explorer(rubbish.Rules()), TypeError,
         "rules must be a going_gone Rules or None"),
        ("kitty games", lambda: auction_house.kitty_explorer(games=0), ValueError,
         "games must be a whole number >= 1"),
        ("state explorer", lambda: shared_budget.state_explorer("solution"), TypeError,
         "state_explorer takes a Solution from solve\\(rules\\), got str"),
        ("dashboard field", lambda: designer_dashboard("rubbish", field="colour"), ValueError,
         "field 'colour' is not one the dashboard varies for rubbish; its fields: players"),
        ("dashboard games", lambda: designer_dashboard("rubbish", games=0), ValueError,
         "games must be a whole number >= 1"),
        ("table review budget", lambda: workbench.table("rubbish", seed=1, review_budget=1),
         ValueError, "budget must be a whole number from 2"),
        ("hint state", lambda: hint("rubbish", "state"), TypeError,
         "state must be a rubbish State \\(from new_game, then apply\\), got str"),
    ]  # fmt: skip


@pytest.mark.parametrize(("label", "build", "error", "message"), _explorers_given_bad_settings())
def test_explorers_refuse_bad_settings_before_drawing_anything(label, build, error, message):
    # Each used to build its widgets and fail later, at the first change, or raise from inside.
    with pytest.raises(error, match=message):
        build()
