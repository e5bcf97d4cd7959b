"""The notebooks' chart renderer (PNG + text form), its text-outside check, and interval_bars."""

from __future__ import annotations

import base64
import struct
import warnings
import zlib

import altair as alt
import polars as pl
import pytest
import vl_convert

import workbench.charts as charts
from workbench.charts import (
    METADATA_KEY,
    PNG_SCALE,
    chart_text,
    compact_png,
    enable_offline_rendering,
    interval_bars,
    render,
    text_outside,
)

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
        assert set(data) == {"image/png", "text/plain"}
        assert data["text/plain"].startswith("Chart: ok\nmarks: bar\n")
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
