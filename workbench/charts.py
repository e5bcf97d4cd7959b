"""Shared chart plumbing: the notebooks' chart renderer and shared chart builders.

Game charts live beside each game (``workbench.games.<id>.charts``); each takes a tidy polars
frame and returns an altair chart. ``enable_offline_rendering()`` makes every chart display as
a PNG drawn locally by vl-convert (it shows untrusted, offline and in static renderers, with
text measured and drawn in one font, so none is clipped), beside a plain-text form of the
chart's data, which nbval compares (it skips images). In a running kernel the output also
carries a live ``ChartView`` widget, which JupyterLab shows instead of the PNG where it can;
its ``live_spec`` adds tooltips, zoom and pan, while the PNG and the text form are drawn from
the spec as built. ``docs/design.md`` ("Charts", "Live charts") says why.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import math
import os
import re
import struct
import warnings
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import altair as alt
import numpy as np
import polars as pl
import vl_convert
from altair.jupyter.jupyter_chart import Params, Selections
from altair.utils.selection import IndexSelection, IntervalSelection, PointSelection

#: Default width of the notebooks' charts, in pixels.
WIDTH = 420
#: Device pixels per CSS pixel in a chart's PNG: sharp on high-density screens.
PNG_SCALE = 2
#: The altair renderer ``enable_offline_rendering`` selects.
RENDERER = "workbench"
#: Output metadata key that marks a chart rendered here (the browser check counts them).
METADATA_KEY = "workbench_chart"
#: Data rows printed in a chart's text form; longer data ends with a row count and a digest.
TEXT_ROWS = 24
#: Significant digits of the numbers in a chart's text form (stable across platforms).
TEXT_DIGITS = 4
#: Background painted behind every chart (a transparent PNG is unreadable on a dark theme).
BACKGROUND = "white"


@dataclass(frozen=True)
class RenderedChart:
    """One chart drawn by vl-convert: the PNG, its display size, its text form, and the texts
    whose anchor the layout placed outside the image (lost, at least in part)."""

    png: bytes
    width: int
    height: int
    text: str
    text_outside: tuple[str, ...] = field(default=())

    def mimebundle(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The display data and metadata: PNG at natural size plus the text form."""
        data = {"image/png": base64.b64encode(self.png).decode("ascii"), "text/plain": self.text}
        metadata = {
            "image/png": {"width": self.width, "height": self.height},
            METADATA_KEY: {"text_outside": list(self.text_outside)},
        }
        return data, metadata

    def data_uri(self) -> str:
        """The PNG as a ``data:`` URI (for an ``<img>`` or a download link; works offline)."""
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")

    def _repr_mimebundle_(self, **_kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        return self.mimebundle()


def render(
    chart: alt.TopLevelMixin | Mapping[str, Any], *, compact: bool = True, layout: bool = True
) -> RenderedChart:
    """Draw an altair chart (or a Vega-Lite spec) as a PNG, whatever renderer is enabled.

    ``compact``: re-encode the PNG smaller (for what is saved in a notebook); ``layout``:
    record the texts the layout put outside the picture (a second layout pass). An explorer's
    later results, shown live and offered only as a download, skip both (a few tenths of a
    second per answer)."""
    if isinstance(chart, alt.TopLevelMixin):
        spec = chart.to_dict(context={"pre_transform": False})
    elif isinstance(chart, Mapping):
        spec = dict(chart)
    else:
        raise TypeError(f"chart must be an altair chart or a Vega-Lite dict, got {type(chart)}")
    if "background" not in spec and "background" not in spec.get("config", {}):
        spec["background"] = BACKGROUND
    png = vl_convert.vegalite_to_png(spec, scale=PNG_SCALE)
    if compact:
        png = compact_png(png)
    width, height = _png_size(png)
    outside = text_outside(vl_convert.vegalite_to_scenegraph(spec)) if layout else ()
    return RenderedChart(
        png=png,
        width=round(width / PNG_SCALE),
        height=round(height / PNG_SCALE),
        text=chart_text(spec),
        text_outside=tuple(outside),
    )


def _render_for_altair(spec: dict[str, Any], *, live: bool = True, **_options: Any) -> tuple:
    """The altair renderer: the chart's mime bundle (PNG, text and, when ``live``, the live
    view); warns when text falls outside the picture."""
    rendered = render(spec)
    if rendered.text_outside:
        shown = ", ".join(repr(text) for text in rendered.text_outside[:5])
        warnings.warn(f"chart text outside the chart: {shown}", UserWarning, stacklevel=2)
    data, metadata = rendered.mimebundle()
    if live:
        bundle = ChartView(spec)._repr_mimebundle_()
        widget_data = bundle[0] if isinstance(bundle, tuple) else bundle
        data = {**(widget_data or {}), **data}
    return data, metadata


def enable_offline_rendering(*, live: bool = True) -> None:
    """Display charts as the module docstring says (``live``: with the live view), offline:
    altair's default ``html`` renderer loads Vega from a CDN."""
    if RENDERER not in alt.renderers.names():
        alt.renderers.register(RENDERER, _render_for_altair)
    alt.renderers.enable(RENDERER, live=live)


# --- the live view ---------------------------------------------------------------------------

#: vega-embed options of the live view: SVG (marks are elements a browser test can hover) and
#: no action menu (its "open in editor" link leaves the machine).
EMBED_OPTIONS = {"renderer": "svg", "actions": False}
#: Name of the point selection an explorer adds to pick rows (``live_spec(pick=...)``).
PICK = "pick"
#: Name given to the view a pick selects in.
PICKED_VIEW = "picked_view"
CONTINUOUS = ("quantitative", "temporal")
#: Marks an explorer's pick prefers, easiest to click first; rules and text only when nothing
#: else has the fields.
PICKABLE_FIRST = ("bar", "rect", "point", "circle", "square", "arc", "area", "line", "tick")


def live_spec(spec: Mapping[str, Any], *, pick: Sequence[str] = ()) -> dict[str, Any]:
    """The spec the live view draws: every mark shows its datum as a tooltip (unless it
    declares its own), each view with a continuous x or y zooms and pans (wheel and drag,
    double-click resets), and with ``pick`` fields a click selects the datum's values of those
    fields (selection ``PICK``; the picked marks stay opaque, the rest fade). The input is not
    changed."""
    live = copy.deepcopy(dict(spec))
    config = live.setdefault("config", {})
    config.setdefault("mark", {}).setdefault("tooltip", {"content": "data"})
    counter = iter(range(1, 10_000))
    _add_zoom(live, {}, counter)
    if pick:
        _add_pick(live, tuple(pick))
    return live


def _mark_dict(view: dict[str, Any]) -> dict[str, Any]:
    mark = view["mark"]
    if not isinstance(mark, Mapping):
        mark = {"type": mark}
        view["mark"] = mark
    return mark  # type: ignore[return-value]


def _continuous(encoding: Mapping[str, Any]) -> list[str]:
    """The positional channels (x, y) of an encoding on a continuous, unbinned scale."""
    found = []
    for channel in ("x", "y"):
        definition = encoding.get(channel)
        if (
            isinstance(definition, Mapping)
            and definition.get("type") in CONTINUOUS
            and not definition.get("bin")
        ):
            found.append(channel)
    return found


def _add_zoom(view: dict[str, Any], inherited: Mapping[str, Any], counter: Iterator[int]) -> None:
    """Zoom/pan on each unit or layer with a continuous x or y (facets and repeats keep their
    scales: a scale-bound selection needs one scale per view). Zoomed marks are clipped."""
    encoding = {**inherited, **view.get("encoding", {})}
    if "layer" in view:
        children = view["layer"]
        merged = [{**encoding, **child.get("encoding", {})} for child in children]
        channels = sorted({channel for each in merged for channel in _continuous(each)})
        if channels and all("mark" in child for child in children):
            children[0].setdefault("params", []).append(_zoom_param(channels, counter))
            for child in children:
                _mark_dict(child).setdefault("clip", True)
        return
    for key in ("hconcat", "vconcat", "concat"):
        for child in view.get(key, []):
            _add_zoom(child, {}, counter)
    if "mark" in view:
        channels = _continuous(encoding)
        if channels:
            view.setdefault("params", []).append(_zoom_param(channels, counter))
            _mark_dict(view).setdefault("clip", True)


def _zoom_param(channels: list[str], counter: Iterator[int]) -> dict[str, Any]:
    return {
        "name": f"zoom_{next(counter)}",
        "select": {"type": "interval", "encodings": channels},
        "bind": "scales",
    }


def _add_pick(spec: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Add the top-level point selection ``PICK`` on ``fields`` to ``pick_view``: the view is
    named, the selection lists it; its unpicked marks fade while something is picked."""
    view, _data = pick_view(spec, fields)
    selection: dict[str, Any] = {"name": PICK, "select": {"type": "point", "fields": list(fields)}}
    view.setdefault("name", PICKED_VIEW)  # its marks group gets the class PICKED_VIEW_marks
    if view is not spec:
        selection["views"] = [view["name"]]
    spec.setdefault("params", []).append(selection)
    encoding = view.setdefault("encoding", {})
    encoding.setdefault(
        "opacity", {"condition": {"param": PICK, "value": 1, "empty": True}, "value": 0.3}
    )


def pick_view(
    spec: Mapping[str, Any], fields: Sequence[str]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The view a pick on ``fields`` selects in (the first whose data rows hold every field,
    a mark easy to click preferred; facets and repeats are not searched) and its data rows."""
    found = list(_views_with_fields(spec, tuple(fields), spec.get("data"), spec))  # type: ignore[arg-type]
    if not found:
        raise ValueError(f"pick: no view of the chart has data with the fields {list(fields)}")
    rank = {mark: place for place, mark in enumerate(PICKABLE_FIRST)}
    return min(found, key=lambda item: rank.get(_mark_type(item[0]["mark"]), len(rank)))


def _views_with_fields(
    view: dict[str, Any], fields: tuple[str, ...], data: Any, root: Mapping[str, Any]
) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Unit views (outside facets and repeats) whose data rows hold every field, with them."""
    data = view.get("data", data)
    if "mark" in view:
        rows = _data_rows(data, root)
        if rows and all(field in rows[0] for field in fields):
            yield view, rows
        return
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for child in view.get(key, []):
            yield from _views_with_fields(child, fields, data if key == "layer" else None, root)


def _data_rows(data: Any, root: Mapping[str, Any]) -> list[dict[str, Any]]:
    if not isinstance(data, Mapping):
        return []
    if isinstance(data.get("values"), list):
        return [_row(v) for v in data["values"]]
    return [_row(v) for v in root.get("datasets", {}).get(data.get("name"), [])]


_BUNDLE: dict[str, str] = {}
#: JupyterChart's own script (before any offline bundling), part of the bundle cache's key.
_JS_SOURCE = "" if alt.JupyterChart._is_offline else alt.JupyterChart._esm


def _offline_bundle() -> str:
    """JupyterChart's script with Vega bundled in by vl-convert (no CDN), cached on disk:
    bundling takes seconds and gives the same file for the same versions."""
    if "esm" in _BUNDLE:
        return _BUNDLE["esm"]
    source = alt.JupyterChart._esm if alt.JupyterChart._is_offline else None
    key = hashlib.sha256(
        f"{alt.__version__}/{vl_convert.__version__}".encode() + _JS_SOURCE.encode()
    ).hexdigest()[:16]
    from platformdirs import user_cache_dir

    cache = user_cache_dir("auction-workbench")
    path = os.path.join(cache, f"jupyterchart-{key}.js")
    if source is None and os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    if source is None:
        alt.JupyterChart.enable_offline()
        source = alt.JupyterChart._esm
        try:
            os.makedirs(cache, exist_ok=True)
            with open(path + ".tmp", "w", encoding="utf-8") as handle:
                handle.write(source)
            os.replace(path + ".tmp", path)
        except OSError:  # a read-only home: bundle again next time
            pass
    _BUNDLE["esm"] = _unique_svg_ids(source)
    return _BUNDLE["esm"]


#: Where Vega's SVG renderer names its clip paths and gradients ("clip" + counter).
_SVG_ID_COUNTERS = re.compile(r'(\.(?:clip_id|id)=)"(clip|gradient_)"\+')
_SVG_ID_PREFIX = "workbenchSvgIds"


def _unique_svg_ids(source: str) -> str:
    """The bundle with Vega's SVG clip-path and gradient ids made unique per loaded copy.

    Each live chart loads its own copy of the script, and every copy counts ids from 1
    ("clip1", ...): with two charts on a page, a mark clipped to "#clip1" takes the clip of
    whichever chart came first and is drawn cut off (a known Vega bug, open upstream). A random
    prefix per copy keeps the ids apart."""
    patched, count = _SVG_ID_COUNTERS.subn(rf'\1"\2"+{_SVG_ID_PREFIX}+', source)
    if count != 2:  # another Vega than the locked one: live charts still work, ids may repeat
        warnings.warn(
            f"live charts: found {count} of Vega's 2 SVG id counters in the bundled script "
            f"(altair {alt.__version__}); with several live charts on a page one may be cut "
            "to another's plot area (the fix in workbench.charts needs updating)",
            RuntimeWarning,
            stacklevel=2,
        )
        return source
    prefix = f"const {_SVG_ID_PREFIX} = Math.random().toString(36).slice(2, 10) + '-';\n"
    return prefix + patched


class ChartView(alt.JupyterChart):
    """A live chart in a running notebook (altair's ``JupyterChart``, offline): draws a
    Vega-Lite spec (``live_spec`` of it), and holds what the reader selects in ``selections``
    (e.g. ``selections.pick.value``). ``show(spec)`` draws another chart in the same view."""

    def __init__(self, spec: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        type(self)._esm = _offline_bundle()
        super().__init__(None, embed_options=dict(EMBED_OPTIONS), **kwargs)
        self.add_class("workbench-chart-view")
        if spec is not None:
            self.show(spec)

    def show(self, spec: Mapping[str, Any], *, pick: Sequence[str] = ()) -> None:
        """Draw ``live_spec(spec, pick=pick)`` (Vega-Lite dict; no altair validation, which
        takes most of a second on a large chart); selections start empty."""
        live = live_spec(spec, pick=pick)
        kinds: dict[str, str] = {}
        empty: dict[str, Any] = {}
        for param in live.get("params", []):
            select = param.get("select")
            if select is None:
                continue
            kind = select if isinstance(select, str) else select["type"]
            name = param["name"]
            if kind == "interval":
                kinds[name], empty[name] = "interval", IntervalSelection(name, {}, [])
            elif isinstance(select, Mapping) and (select.get("fields") or select.get("encodings")):
                kinds[name], empty[name] = "point", PointSelection(name, [], [])
            else:
                kinds[name], empty[name] = "index", IndexSelection(name, [], [])
        self.params = Params({})
        self.selections = Selections(empty)
        with self.hold_sync():
            self.spec = live
            self._selection_types = kinds
            self._vl_selections = {name: {"value": None, "store": []} for name in kinds}
            self._params = {}

    def select_points(self, name: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Set point selection ``name`` to ``rows`` (field -> value) as the browser does when
        the reader clicks (for tests and notebooks: the same path the page takes)."""
        if self._selection_types.get(name) != "point":
            raise ValueError(
                f"no point selection {name!r}; selections: {sorted(self._selection_types)}"
            )
        value = {"vlPoint": {"or": [dict(row) for row in rows]}} if rows else None
        self._vl_selections = {**self._vl_selections, name: {"value": value, "store": []}}


# --- the text form ----------------------------------------------------------------------------


def chart_text(spec: Mapping[str, Any]) -> str:
    """A stable plain-text form of a chart: its titles, marks and data rows (numbers rounded
    to ``TEXT_DIGITS`` significant digits; past ``TEXT_ROWS`` rows, a count and a digest)."""
    titles = [t for t in (_title_text(s.get("title")) for s in _specs(spec)) if t]
    marks = sorted({_mark_type(s["mark"]) for s in _specs(spec) if "mark" in s})
    kind = next((k for k in ("layer", "facet", "hconcat", "vconcat", "concat") if k in spec), "")
    lines = [f"Chart: {' | '.join(titles) if titles else '(untitled)'}"]
    lines.append(f"marks: {', '.join(marks)}" + (f" ({kind})" if kind else ""))
    for number, rows in enumerate(_datasets(spec), start=1):
        columns = list(dict.fromkeys(key for row in rows for key in row))
        lines.append(f"data {number}: {len(rows)} row(s); " + " | ".join(columns))
        cells = [[_cell(row.get(column)) for column in columns] for row in rows]
        lines.extend("  " + " | ".join(row) for row in cells[:TEXT_ROWS])
        if len(cells) > TEXT_ROWS:
            digest = hashlib.sha256(json.dumps(cells).encode("utf-8")).hexdigest()[:12]
            lines.append(f"  … {len(cells) - TEXT_ROWS} more row(s); digest of all rows {digest}")
    return "\n".join(lines)


def _specs(spec: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """The spec and every view nested in it, depth first."""
    yield spec
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for child in spec.get(key, []):
            yield from _specs(child)
    if isinstance(spec.get("spec"), Mapping):
        yield from _specs(spec["spec"])


def _title_text(title: Any) -> str:
    if isinstance(title, Mapping):
        title = title.get("text", "")
    if isinstance(title, list):
        title = " ".join(map(str, title))
    return str(title) if title else ""


def _mark_type(mark: Any) -> str:
    return str(mark.get("type", "")) if isinstance(mark, Mapping) else str(mark)


def _datasets(spec: Mapping[str, Any]) -> list[list[dict[str, Any]]]:
    """Every data table the chart draws, in order of first use (named or inline)."""
    named = spec.get("datasets", {})
    found: list[list[dict[str, Any]]] = []
    seen: set[str] = set()

    def add(values: list[Any]) -> None:
        key = json.dumps(values, sort_keys=True, default=str)
        if key not in seen:  # a table drawn by several layers is listed once
            seen.add(key)
            found.append([_row(v) for v in values])

    def visit(node: Any) -> None:
        if isinstance(node, Mapping):
            data = node.get("data")
            if isinstance(data, Mapping):
                if "values" in data and isinstance(data["values"], list):
                    add(data["values"])
                elif data.get("name") in named:
                    add(named[data["name"]])
            for key, value in node.items():
                if key not in ("data", "datasets"):
                    visit(value)
        elif isinstance(node, list):
            for item in node:
                visit(item)

    visit(spec)
    return found


def _row(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {"value": value}


def _cell(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.{TEXT_DIGITS}g}"
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


# --- text outside the chart -------------------------------------------------------------------


def text_outside(scenegraph: Mapping[str, Any], *, tolerance: float = 0.5) -> list[str]:
    """Visible texts of a vl-convert scenegraph whose anchor lies outside the image: the layout
    put them (at least half) where the picture ends. (Text drawn inside the image is measured
    and drawn with one font, so it cannot spill over; the browser check looks at the image's
    border pixels for anything cut at the edge.)"""
    width, height = float(scenegraph["width"]), float(scenegraph["height"])
    origin_x, origin_y = (float(v) for v in scenegraph.get("origin", (0, 0)))
    outside: list[str] = []

    def visit(mark: Mapping[str, Any], dx: float, dy: float) -> None:
        for item in mark.get("items", []):
            x = dx + float(item.get("x", 0) or 0)
            y = dy + float(item.get("y", 0) or 0)
            if mark.get("marktype") == "text":
                text = item.get("text", "")
                text = " ".join(map(str, text)) if isinstance(text, list) else str(text)
                visible = text.strip() and item.get("opacity", 1) and item.get("fillOpacity", 1)
                ax, ay = x + float(item.get("dx", 0) or 0), y + float(item.get("dy", 0) or 0)
                inside_x = -tolerance <= ax <= width + tolerance
                inside_y = -tolerance <= ay <= height + tolerance
                if visible and not (inside_x and inside_y):
                    outside.append(text)
            for child in item.get("items", []):
                if isinstance(child, Mapping):
                    visit(child, x, y)

    visit(scenegraph["scenegraph"], origin_x, origin_y)
    return outside


def compact_png(png: bytes) -> bytes:
    """The same picture as a smaller PNG: vl-convert writes RGBA with light compression; a
    chart on an opaque background with at most 256 colours fits an 8-bit palette (else RGB),
    compressed at zlib level 9. Typically 5–8 times smaller. Anything unexpected (another
    colour type, interlacing, filters other than None/Sub/Up) is only recompressed."""
    chunks = _png_chunks(png)
    header = chunks[0][1]
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    raw = zlib.decompress(b"".join(data for kind, data in chunks if kind == b"IDAT"))
    kept = [(kind, data) for kind, data in chunks if kind not in (b"IHDR", b"IDAT", b"IEND")]
    pixels = None
    if depth == 8 and colour in (2, 6) and interlace == 0:
        pixels = _unfilter(raw, width, height, 4 if colour == 6 else 3)
    if pixels is None:  # recompress the filtered scanlines as they are
        return _png_bytes(header, kept, zlib.compress(raw, 9))
    if pixels.shape[2] == 4 and bool((pixels[:, :, 3] == 255).all()):
        pixels = pixels[:, :, :3]
    if pixels.shape[2] == 3:
        packed = (
            (pixels[:, :, 0].astype(np.uint32) << 16)
            | (pixels[:, :, 1].astype(np.uint32) << 8)
            | pixels[:, :, 2]
        )
        colours, index = np.unique(packed, return_inverse=True)
        if colours.size <= 256:
            palette = np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=1)
            rows = index.reshape(height, width).astype(np.uint8)
            header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
            kept = [(b"PLTE", palette.astype(np.uint8).tobytes()), *kept]
            return _png_bytes(header, kept, _scanlines(rows))
        header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
        return _png_bytes(header, kept, _scanlines(pixels.reshape(height, width * 3)))
    return _png_bytes(header, kept, _scanlines(pixels.reshape(height, width * 4)))


def _png_chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    chunks, position = [], 8
    while position < len(png):
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        chunks.append((kind, png[position + 8 : position + 8 + length]))
        position += 12 + length
    if not chunks or chunks[0][0] != b"IHDR":
        raise ValueError("a PNG starts with its IHDR chunk")
    return chunks


def _unfilter(raw: bytes, width: int, height: int, channels: int) -> np.ndarray | None:
    """Pixels (height, width, channels) from filtered scanlines; None if a row uses the
    Average or Paeth filter (not needed for vl-convert's output)."""
    stride = width * channels + 1
    if len(raw) != stride * height:
        return None
    rows = np.frombuffer(raw, dtype=np.uint8).reshape(height, stride)
    kinds, data = rows[:, 0], rows[:, 1:].reshape(height, width, channels)
    if not np.isin(kinds, (0, 1, 2)).all():
        return None
    out = np.empty_like(data)
    previous = np.zeros((width, channels), dtype=np.uint8)
    for y in range(height):
        row = data[y]
        if kinds[y] == 1:  # Sub: each byte adds the one a pixel to the left
            row = np.cumsum(row, axis=0, dtype=np.uint8)
        elif kinds[y] == 2:  # Up: each byte adds the one above
            row = row + previous
        out[y] = row
        previous = out[y]
    return out


def _scanlines(rows: np.ndarray) -> bytes:
    """Rows of bytes, each behind filter type 0 (None), compressed at level 9."""
    framed = np.zeros((rows.shape[0], rows.shape[1] + 1), dtype=np.uint8)
    framed[:, 1:] = rows
    return zlib.compress(framed.tobytes(), 9)


def _png_bytes(header: bytes, chunks: list[tuple[bytes, bytes]], idat: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    parts = [chunk(b"IHDR", header), *(chunk(k, d) for k, d in chunks), chunk(b"IDAT", idat)]
    return b"\x89PNG\r\n\x1a\n" + b"".join(parts) + chunk(b"IEND", b"")


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height in pixels, from the PNG's IHDR chunk."""
    width, height = struct.unpack(">II", _png_chunks(png)[0][1][:8])
    return int(width), int(height)


# --- shared chart builders --------------------------------------------------------------------


def check_frame(frame: pl.DataFrame, columns: Sequence[str], what: str) -> None:
    """Refuse anything but a polars frame holding ``columns``; ``what`` (the chart) is named in
    the error."""
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"{what} takes a polars DataFrame, got {type(frame).__name__}")
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{what} needs columns {missing}; the frame has {frame.columns}")


def interval_tooltip(
    value: str, low: str = "low", high: str = "high", *, number_format: str = ".4g"
) -> list[alt.Tooltip]:
    """Tooltips of an estimate and its interval's ends (quantitative fields), formatted alike."""
    return [alt.Tooltip(f"{field}:Q", format=number_format) for field in (value, low, high)]


def interval_bars(
    frame: object,
    *,
    category: str,
    value: str,
    low: str = "low",
    high: str = "high",
    value_title: str | None = None,
    title: str = "",
    reference: float | None = None,
    reference_label: str = "reference",
) -> alt.LayerChart:
    """Horizontal bars of an estimate per category with its 95% interval drawn as a black
    rule, and an optional dashed reference line (e.g. a fair share) labelled in the chart."""
    base = alt.Chart(frame).encode(y=alt.Y(f"{category}:N", title=None))
    layers = [
        base.mark_bar(color="#9ecae1").encode(x=alt.X(f"{value}:Q", title=value_title or value)),
        base.mark_rule(color="black", strokeWidth=2).encode(x=f"{low}:Q", x2=f"{high}:Q"),
    ]
    if reference is not None:
        line = alt.Chart(alt.Data(values=[{"reference": reference, "label": reference_label}]))
        layers.append(line.mark_rule(strokeDash=[4, 3], color="gray").encode(x="reference:Q"))
        layers.append(
            line.mark_text(align="left", dx=4, dy=-4, baseline="bottom", color="gray").encode(
                x="reference:Q", y=alt.value(0), text="label:N"
            )
        )
    return alt.layer(*layers).properties(
        width=WIDTH - 60, title=alt.Title(title, subtitle="black line: 95% interval")
    )
