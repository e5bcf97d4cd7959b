"""The notebooks' chart renderer (PNG + text form), its text-outside check, and interval_bars."""

from __future__ import annotations

import base64
import importlib
import struct
import warnings
import zlib

import altair as alt
import ipywidgets as widgets
import polars as pl
import pytest
import vl_convert

import workbench.charts as charts
from workbench import games as registry
from workbench.charts import (
    EMBED_OPTIONS,
    METADATA_KEY,
    PICK,
    PNG_SCALE,
    ChartView,
    chart_text,
    compact_png,
    enable_offline_rendering,
    interval_bars,
    live_spec,
    pick_view,
    render,
    text_outside,
)

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

RATES = pl.DataFrame(
    {"agent": ["A (coverage(±2))", "b"], "rate": [0.6, 0.2], "low": [0.5, 0.1], "high": [0.7, 0.3]}
)


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def test_render_draws_a_png_at_twice_its_display_size():
    chart = alt.Chart(RATES).mark_bar().encode(x="rate:Q", y="agent:N").properties(width=200)
    rendered = render(chart)
    width, height = _png_size(rendered.png)
    assert (width, height) == (rendered.width * PNG_SCALE, rendered.height * PNG_SCALE)
    # 200 px of plot plus the axis labels and the default 5 px padding on each side.
    assert 200 + 2 * 5 < rendered.width < 200 + 200
    assert rendered.text_outside == ()
    data, metadata = rendered.mimebundle()
    assert base64.b64decode(data["image/png"]) == rendered.png
    assert data["text/plain"] == rendered.text
    assert metadata == {
        "image/png": {"width": rendered.width, "height": rendered.height},
        METADATA_KEY: {"text_outside": []},
    }
    assert rendered.data_uri().startswith("data:image/png;base64,iVBORw0KGgo")


def test_render_refuses_what_is_not_a_chart():
    with pytest.raises(TypeError, match="altair chart or a Vega-Lite dict"):
        render("bar chart")


def test_chart_text_lists_title_marks_and_rounded_rows():
    frame = pl.DataFrame({"seat": [0, 1], "rate": [1 / 3, 0.25], "agent": ["h", None]})
    chart = (
        alt.Chart(frame, title="Seats")
        .mark_point()
        .encode(x="seat:O", y="rate:Q")
        .properties(width=100)
    )
    assert chart_text(chart.to_dict()) == "\n".join(
        [
            "Chart: Seats",
            "marks: point",
            "data 1: 2 row(s); seat | rate | agent",
            "  0 | 0.3333 | h",
            "  1 | 0.25 | null",
        ]
    )


def test_chart_text_of_long_data_ends_with_a_count_and_a_digest():
    long = pl.DataFrame({"x": list(range(100)), "y": [v / 7 for v in range(100)]})
    spec = alt.Chart(long).mark_line().encode(x="x:Q", y="y:Q").to_dict()
    lines = chart_text(spec).splitlines()
    assert lines[2] == "data 1: 100 row(s); x | y"
    assert len(lines) == 3 + charts.TEXT_ROWS + 1
    assert lines[-1].startswith(f"  … {100 - charts.TEXT_ROWS} more row(s); digest of all rows ")
    changed = long.with_columns(pl.when(pl.col("x") == 99).then(0.5).otherwise(pl.col("y")))
    other = alt.Chart(changed).mark_line().encode(x="x:Q", y="y:Q").to_dict()
    assert chart_text(other).splitlines()[-1] != lines[-1]  # a change past the shown rows


def test_chart_text_of_layers_shows_each_dataset_once():
    chart = interval_bars(RATES, category="agent", value="rate", reference=0.25, title="t")
    text = chart_text(chart.to_dict())
    assert text.splitlines()[:2] == ["Chart: t", "marks: bar, rule, text (layer)"]
    assert text.count("reference | label") == 1


# The scenegraph below is hand-built: a root group at origin (10, 20) of a 100 x 50 image holds a
# group at (30, 5) with texts; a text's absolute anchor is origin + group + item (+ dx/dy).
SCENEGRAPH = {
    "width": 100,
    "height": 50,
    "origin": [10, 20],
    "scenegraph": {
        "marktype": "group",
        "items": [
            {
                "x": 30,
                "y": 5,
                "items": [
                    {
                        "marktype": "text",
                        "items": [
                            {"text": "inside", "x": 0, "y": 0},  # (40, 25)
                            {"text": "right", "x": 70, "y": 0},  # (110, 25): outside
                            {"text": "above", "x": 0, "y": -30},  # (40, -5): outside
                            {"text": "nudged", "x": 50, "y": 0, "dx": 20},  # (110, 25)
                            {"text": "hidden", "x": 500, "y": 0, "opacity": 0},
                            {"text": ["two", "lines"], "x": -45, "y": 0},  # (-5, 25)
                            {"text": "", "x": 500, "y": 0},
                        ],
                    }
                ],
            }
        ],
    },
}


def test_text_outside_accumulates_group_offsets():
    assert text_outside(SCENEGRAPH) == ["right", "above", "nudged", "two lines"]


def test_a_chart_laid_out_without_room_has_text_outside():
    fits = interval_bars(RATES, category="agent", value="rate", title="Win rates")
    assert render(fits).text_outside == ()
    cramped = fits.properties(autosize=alt.AutoSizeParams(type="none"))
    outside = render(cramped).text_outside
    assert {"A (coverage(±2))", "b", "Win rates", "rate"} <= set(outside)


def test_enabled_renderer_gives_png_and_text_and_warns_about_text_outside():
    previous = alt.renderers.active
    try:
        enable_offline_rendering()
        assert alt.renderers.active == charts.RENDERER
        chart = alt.Chart(RATES, title="ok").mark_bar().encode(x="rate:Q", y="agent:N")
        data, metadata = chart._repr_mimebundle_()
        assert set(data) == {"image/png", "text/plain", WIDGET_VIEW}
        assert data["text/plain"].startswith("Chart: ok\nmarks: bar\n")
        # The model id back to its widget, through the public deserialiser (Widget.widgets is
        # deprecated in ipywidgets 8).
        model = "IPY_MODEL_" + data[WIDGET_VIEW]["model_id"]
        view = widgets.widget_serialization["from_json"](model, None)
        assert isinstance(view, ChartView)
        assert view.spec["datasets"] == chart.to_dict()["datasets"]
        enable_offline_rendering(live=False)
        data, _ = chart._repr_mimebundle_()
        assert set(data) == {"image/png", "text/plain"}
        enable_offline_rendering()
        assert metadata["image/png"]["width"] > 0
        cramped = chart.properties(autosize=alt.AutoSizeParams(type="none"))
        with pytest.warns(UserWarning, match="chart text outside the chart: "):
            cramped._repr_mimebundle_()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            chart._repr_mimebundle_()  # no warning when everything fits
    finally:
        alt.renderers.enable(previous)


def test_interval_bars_labels_its_interval_and_reference_line():
    chart = interval_bars(
        RATES, category="agent", value="rate", reference=0.25, reference_label="fair share"
    )
    spec = chart.to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["bar", "rule", "rule", "text"]
    assert spec["layer"][1]["encoding"]["x2"]["field"] == "high"
    assert spec["layer"][3]["data"]["values"] == [{"reference": 0.25, "label": "fair share"}]
    assert spec["title"]["subtitle"] == "black line: 95% interval"
    plain = interval_bars(RATES, category="agent", value="rate").to_dict()
    assert [layer["mark"]["type"] for layer in plain["layer"]] == ["bar", "rule"]


def _decode(png: bytes) -> list[list[tuple[int, int, int, int]]]:
    """RGBA pixels of an 8-bit PNG by the book (all five filters; palettes), in plain Python:
    an independent reference for the re-encoding."""
    chunks, position = {}, 8
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8].decode()
        chunks.setdefault(kind, b"")
        chunks[kind] += png[position + 8 : position + 8 + length]
        position += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", chunks["IHDR"][:10])
    assert depth == 8
    channels = {6: 4, 2: 3, 3: 1}[colour]
    raw = zlib.decompress(chunks["IDAT"])
    stride = width * channels
    rows, previous = [], [0] * stride
    for y in range(height):
        kind, line = raw[y * (stride + 1)], list(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) % 256
            elif kind == 2:
                line[i] = (line[i] + up) % 256
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) % 256
            elif kind == 4:
                p = left + up - corner
                candidates = [(abs(p - left), 0, left), (abs(p - up), 1, up)]
                near = min([*candidates, (abs(p - corner), 2, corner)])
                line[i] = (line[i] + near[2]) % 256
        previous = line
        if colour == 3:
            palette = chunks["PLTE"]
            rows.append([(*palette[3 * v : 3 * v + 3], 255) for v in line])
        else:
            pixels = [tuple(line[x * channels : (x + 1) * channels]) for x in range(width)]
            rows.append([p if channels == 4 else (*p, 255) for p in pixels])
    return rows


def test_compact_png_keeps_every_pixel_and_is_smaller():
    chart = interval_bars(RATES, category="agent", value="rate", reference=0.25, title="Pixels")
    spec = chart.to_dict()
    spec["background"] = "white"
    original = vl_convert.vegalite_to_png(spec, scale=1)
    compact = compact_png(original)
    assert _decode(compact) == _decode(original)
    assert len(compact) < len(original) / 2
    assert compact[25] == 3  # colour type 3: a palette (a white chart has few colours)
    transparent = vl_convert.vegalite_to_png(chart.to_dict(), scale=1)  # no background
    assert _decode(compact_png(transparent)) == _decode(transparent)


# --- the live view ---------------------------------------------------------------------------


def _units(spec):
    return [view for view in charts._specs(spec) if "mark" in view]


def test_live_spec_adds_tooltips_and_zoom_on_continuous_axes_only():
    bars = alt.Chart(RATES).mark_bar().encode(x="rate:Q", y="agent:N")
    spec = bars.to_dict()
    live = live_spec(spec)
    assert live["config"]["mark"]["tooltip"] == {"content": "data"}
    assert live["params"] == [
        {"name": "zoom_1", "select": {"type": "interval", "encodings": ["x"]}, "bind": "scales"}
    ]
    assert live["mark"] == {"type": "bar", "clip": True}
    assert "params" not in spec and spec["mark"] == {"type": "bar"}  # the input is unchanged
    nominal = alt.Chart(RATES).mark_bar().encode(x="agent:N", y=alt.Y("rate:Q", bin=True))
    assert "params" not in live_spec(nominal.to_dict())  # no continuous, unbinned axis


def test_live_spec_zooms_a_layer_once_and_each_concat_part():
    layers = interval_bars(RATES, category="agent", value="rate", reference=0.5)
    live = live_spec(alt.hconcat(layers, layers).to_dict())
    zooms = [param["name"] for view in _units(live) for param in view.get("params", [])]
    assert zooms == ["zoom_1", "zoom_2"]  # the first layer of each layer chart
    assert all(view["mark"]["clip"] is True for view in _units(live))


def test_live_spec_keeps_facets_unzoomed():
    facet = alt.Chart(RATES).mark_point().encode(x="rate:Q").facet(row="agent:N")
    assert not any(view.get("params") for view in _units(live_spec(facet.to_dict())))


def test_the_pick_selects_in_the_first_clickable_view_with_the_fields():
    layers = interval_bars(RATES, category="agent", value="rate", reference=0.5)
    live = live_spec(layers.to_dict(), pick=("agent",))
    view, rows = pick_view(layers.to_dict(), ("agent",))
    assert view["mark"]["type"] == "bar" and [r["agent"] for r in rows] == RATES["agent"].to_list()
    picked = [v for v in _units(live) if v.get("name") == "picked_view"]
    assert len(picked) == 1 and picked[0]["mark"]["type"] == "bar"
    assert live["params"][-1] == {
        "name": PICK,
        "select": {"type": "point", "fields": ["agent"]},
        "views": ["picked_view"],
    }
    assert picked[0]["encoding"]["opacity"]["condition"]["param"] == PICK
    with pytest.raises(ValueError, match=r"no view of the chart has data with the fields \['x'\]"):
        live_spec(layers.to_dict(), pick=("x",))


def test_a_live_spec_is_valid_vega_lite():
    # vl-convert compiles it (it rejects unknown params, misplaced selections and bad views).
    layers = interval_bars(RATES, category="agent", value="rate", reference=0.5)
    spec = alt.vconcat(layers, alt.Chart(RATES).mark_point().encode(x="rate:Q")).to_dict()
    assert vl_convert.vegalite_to_vega(live_spec(spec, pick=("agent",)))["signals"]


def test_chart_view_draws_the_live_spec_and_reports_selections():
    chart = alt.Chart(RATES).mark_bar().encode(x="rate:Q", y="agent:N")
    view = ChartView()
    view.show(chart.to_dict(), pick=("agent",))
    assert view.embed_options == EMBED_OPTIONS and view.embed_options["actions"] is False
    assert view.spec == live_spec(chart.to_dict(), pick=("agent",))
    assert view._selection_types == {"zoom_1": "interval", PICK: "point"}
    view.select_points(PICK, [{"agent": "b"}])
    assert view.selections.pick.value == [{"agent": "b"}]
    with pytest.raises(ValueError, match=r"no point selection 'zoom_1'; selections: "):
        view.select_points("zoom_1", [])


def test_the_live_view_script_loads_nothing_from_the_network():
    # The offline bundle inlines Vega: no import of a URL (the page's requests are checked too).
    source = ChartView()._esm
    assert "esm.sh" not in source and not any(
        line.lstrip().startswith("import ") and "http" in line for line in source.splitlines()
    )


def test_each_copy_of_the_live_chart_script_names_its_svg_clips_and_gradients_apart():
    # Every live chart loads its own copy of the script; ids counted from 1 in each copy
    # collide ("#clip1" twice on a page draws one chart with another's clip).
    bundle = charts._offline_bundle()
    assert bundle.startswith(f"const {charts._SVG_ID_PREFIX} = Math.random()")
    assert bundle.count(f'"clip"+{charts._SVG_ID_PREFIX}+') == 1
    assert bundle.count(f'"gradient_"+{charts._SVG_ID_PREFIX}+') == 1
    assert '"clip"+$' not in bundle and 'clip_id="clip"+' not in bundle.replace(
        f'clip_id="clip"+{charts._SVG_ID_PREFIX}', ""
    )
    # Another Vega than the locked one: the script is left as it is, with a warning.
    with pytest.warns(RuntimeWarning, match="found 0 of Vega's 2 SVG id counters"):
        assert charts._unique_svg_ids("export default {}") == "export default {}"



def _game_charts() -> list[tuple[str, str]]:
    """Every chart a game exports (``*_chart`` and ``*_heatmap``), as (game id, name)."""
    found = []
    for game_id in registry.available():
        package = importlib.import_module(f"workbench.games.{game_id}")
        found += [(game_id, name) for name in package.__all__
                  if name.endswith(("_chart", "_heatmap"))]  # fmt: skip
    return found


@pytest.mark.parametrize(("game_id", "name"), _game_charts())
def test_every_game_chart_refuses_a_frame_it_cannot_draw_and_names_itself(game_id, name):
    chart = getattr(importlib.import_module(f"workbench.games.{game_id}"), name)
    with pytest.raises((TypeError, ValueError), match=name):
        chart(pl.DataFrame({"x": [1]}))
    with pytest.raises(TypeError, match=name):
        chart([1, 2])
