"""The explorer pattern behind every game's widgets.

An ``Explorer`` owns named controls and a ``compute`` function from their values to a result
frame and a chart, and shows both: the chart live (``workbench.charts.ChartView``: tooltips,
zoom and pan), the frame as a table that fits the notebook, links to download the frame (CSV)
and the chart (a PNG drawn by ``workbench.charts.render``).
``explorer.frame``, ``explorer.chart`` and ``explorer.error`` hold the latest result, so tests
drive the controls with ``explorer.set(...)`` and check the numbers without a browser.

What every explorer gets from here, so each game's builder only says what is specific to it,
is listed in ``docs/design.md`` ("Explorers"): recompute on release, a busy look (the class
``BUSY_CLASS``), results cached by control values, rows picked by a click in the chart (or
``explorer.pick``), bounds and options that follow the situation (``adapt``), a ValueError
shown as a message (and kept in ``explorer.error``), and a static copy of the first result
for an untrusted notebook. Options whose value is None keep their label: ipywidgets 8 reads a
Dropdown value of None as "nothing selected" and shows a blank entry, so such options get a
stand-in value here.
"""

from __future__ import annotations

import base64
import html
import json
import re
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl
from altair.utils.selection import PointSelection

from workbench.charts import PICK, ChartView, RenderedChart, pick_view, render
from workbench.tables import Table

Compute = Callable[..., tuple[pl.DataFrame | None, alt.TopLevelMixin | None]]
#: ``adapt(**values)`` -> {control name: {attribute: value}} for the current situation.
Adapt = Callable[..., Mapping[str, Mapping[str, Any]]]

#: The ipywidgets bases of controls with options: one value, several values.
_SINGLE = widgets.widget_selection._Selection
_MULTIPLE = widgets.widget_selection._MultipleSelection
#: How many results an explorer keeps, by control values.
CACHE_SIZE = 32
FALLBACK_NOTE = (
    "A saved copy of this explorer's first result. Run the notebook to change the settings."
)


class _NoneOption:
    """Stands in for an option whose value is None (see the module docstring)."""

    _instance: _NoneOption | None = None

    def __new__(cls) -> _NoneOption:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NONE_OPTION"


NONE_OPTION = _NoneOption()


#: Class of the saved copy a widget carries (the browser check looks for it).
SAVED_CLASS = "workbench-saved"
#: Class an explorer carries while it computes (the busy indicator; the browser check waits
#: for it to clear).
BUSY_CLASS = "workbench-busy"
#: Shown in the status line while an explorer computes.
BUSY_TEXT = "working…"
#: The busy look: chart and table dimmed, the status as a badge (a style element in the
#: status line, so that it travels with the widget).
BUSY_STYLE = (
    f"<style>.{BUSY_CLASS} .workbench-chart, .{BUSY_CLASS} .workbench-table-box "
    "{opacity:0.45;transition:opacity 0.15s} "
    ".workbench-busy-badge {background:#fff3bf;border:1px solid #e0b000;border-radius:3px;"
    "padding:0 6px}</style>"
)


class SavedCopy:
    """Mixin for a widget class whose display should carry a static copy of what it first
    shows: JupyterLab shows the copy in an untrusted notebook (where it shows no widgets, only
    a text form such as ``Table(children=…)``), static renderers show it too, and a running Lab
    shows the live widget. A subclass implements ``saved_copy()`` -> (HTML, text); the copy is
    taken when the widget is first displayed (or earlier, if ``keep_saved_copy()`` is called).
    Put it before the ipywidgets base class: ``class Table(SavedCopy, widgets.HBox)``."""

    _saved: tuple[str, str] | None = None

    def saved_copy(self) -> tuple[str, str] | None:
        """The copy as (HTML, text), or None for none."""
        return None

    def keep_saved_copy(self) -> None:
        """Take the copy now (an explorer keeps its first result, before any change)."""
        copy = self.saved_copy()
        if copy is not None:
            html_copy, text = copy
            self._saved = (
                f'<div class="{SAVED_CLASS}" style="border-left:3px solid #ccc;padding-left:8px">'
                f"{html_copy}</div>",
                text,
            )

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        if self._saved is None:
            self.keep_saved_copy()
        if bundle is None or self._saved is None:
            return bundle
        bundle["text/html"], bundle["text/plain"] = self._saved
        return bundle


class Explorer(SavedCopy, widgets.VBox):
    """Controls on top, then a status line, the chart, download links and the table."""

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        compute: Compute,
        *,
        title: str = "",
        table_rows: int = 20,
        adapt: Adapt | None = None,
        cache_size: int = CACHE_SIZE,
        pick: tuple[str, ...] = (),
    ) -> None:
        """``cache_size``: results kept by control values (0: recompute every time, for a
        ``compute`` that is not a function of the controls alone); ``pick``: fields a click on
        the chart selects, filtering the table (see the module docstring)."""
        if not controls:
            raise ValueError("an Explorer needs at least one control")
        if isinstance(pick, str) or not all(isinstance(f, str) and f for f in pick):
            raise ValueError(f"pick takes a tuple of field names, got {pick!r}")
        self.pick_fields = tuple(pick)
        #: The rows the table shows (the result frame, or the picked rows of it).
        self.shown: pl.DataFrame | None = None
        #: The picked values, one dict (field -> value) per picked mark; empty: none picked.
        self.picked: list[dict[str, Any]] = []
        self.spec: dict[str, Any] | None = None
        self.controls = dict(controls)
        self.compute = compute
        self.title = title
        self.table_rows = table_rows
        self.adapt = adapt
        self.frame: pl.DataFrame | None = None
        self.chart: alt.TopLevelMixin | None = None
        self.rendered: RenderedChart | None = None
        self.error: str | None = None
        self.seconds = 0.0
        self.updates = 0
        self._cache: OrderedDict[Hashable, tuple[Any, ...]] = OrderedDict()
        self._cache_size = cache_size
        self._quiet = False
        for control in self.controls.values():
            _prepare(control)
        self.status = widgets.HTML(layout=widgets.Layout(min_height="1.5em"))
        self.view = ChartView(layout=widgets.Layout(max_width="100%"))
        self.pick_note = widgets.HTML()
        self.links = widgets.HTML()
        self.table = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.output = widgets.Output()  # tracebacks of unexpected errors
        header = [widgets.HTML(f"<b>{html.escape(title)}</b>")] if title else []
        wrap = widgets.Layout(flex_flow="row wrap")
        box = widgets.HBox(list(self.controls.values()), layout=wrap)
        results = [self.status, self.view, self.links, self.pick_note, self.table, self.output]
        super().__init__([*header, box, *results])
        # Class names the browser check looks for.
        self.add_class("workbench-explorer-live")
        self.status.add_class("workbench-status")
        self.links.add_class("workbench-downloads")
        self.view.add_class("workbench-chart")
        self.table.add_class("workbench-table-box")
        self.pick_note.add_class("workbench-pick")
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.view.observe(self._on_selection, names="_vl_selections")
        self.refresh()

    # --- values -------------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """The current value of every control, by name (None for a None option)."""
        return {name: _real(control.value) for name, control in self.controls.items()}

    def set(self, **values: Any) -> None:
        """Set several controls at once and recompute once (what a test or a notebook calls).
        A value the controls cannot take in the resulting situation raises a ValueError and
        leaves every control as it was."""
        unknown = sorted(set(values) - set(self.controls))
        if unknown:
            raise ValueError(f"unknown control {unknown[0]!r}; controls: {sorted(self.controls)}")
        before = {name: _real(control.value) for name, control in self.controls.items()}
        with self._hold():
            refused = self._assign_all(values)
            if refused:
                name = refused[0]
                message = (
                    f"{name}={values[name]!r} is not possible here; {_allowed(self.controls[name])}"
                )
                self._assign_all(before)
                raise ValueError(message)
        self.refresh()

    def _assign_all(self, values: Mapping[str, Any]) -> list[str]:
        """Assign ``values``, again after the bounds have followed the new situation, until
        they hold (four passes at most); returns the names whose values did not."""
        for _ in range(4):
            for name, value in values.items():
                _assign(self.controls[name], value)
            self._adapt()
            refused = [
                name for name, value in values.items() if not _same(self.values()[name], value)
            ]
            if not refused:
                break
        return refused

    # --- computing ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Recompute from the current control values (cached) and redraw."""
        with self._hold():
            self._adapt()
        values = self.values()
        key = _key(values)
        started = time.perf_counter()
        cached = key in self._cache
        if cached:
            self._cache.move_to_end(key)
            result = self._cache[key]
        else:
            self.add_class(BUSY_CLASS)
            self.status.value = f"{BUSY_STYLE}<span class='workbench-busy-badge'>{BUSY_TEXT}</span>"
            try:
                result = self._run(values)
            finally:
                self.remove_class(BUSY_CLASS)
            if self._cache_size:
                self._cache[key] = result
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
        self.frame, self.chart, self.spec, self.rendered, self.error = result
        self._show()
        self.seconds = time.perf_counter() - started
        self.updates += 1
        if self.error is None:
            done = "shown from the cache" if cached else f"computed in {self.seconds:.2f} s"
            self.status.value = f"{BUSY_STYLE}<span style='color:#666'>{done}</span>"
        # The update count lets a browser tell one answer from the next.
        self.status.value += f"<span data-update='{self.updates}'></span>"
        if self._saved is None:
            self.keep_saved_copy()

    def _run(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        try:
            frame, chart = self.compute(**values)
        except ValueError as exc:
            return None, None, None, None, str(exc)
        except Exception:
            self.status.value = "<span style='color:#b00'>internal error (details below)</span>"
            with self.output:
                traceback.print_exc()
            raise
        if chart is None:
            return frame, None, None, None, None
        # Not validated against the schema again (the chart builders' tests do that): a large
        # chart's validation takes a tenth of a second per answer.
        spec = chart.to_dict(validate=False, context={"pre_transform": False})
        if self.pick_fields:
            pick_view(spec, self.pick_fields)  # a clear error now if no view has the fields
        # Only the first result is saved in the notebook (kept small); later ones are drawn
        # live, their PNG only a download.
        first = self._saved is None
        return frame, chart, spec, render(spec, compact=first, layout=False), None

    def _show(self) -> None:
        if self.error is not None:
            self.status.value = f"<span style='color:#b00'>{html.escape(self.error)}</span>"
        if self.spec is None:
            self.view.layout.display = "none"
        else:
            self.view.show(self.spec, pick=self.pick_fields)
            self.view.layout.display = None
        self.picked = []
        self._show_table()
        self.links.value = self._links()

    # --- picking in the chart -----------------------------------------------------------------

    def pick(self, *rows: Mapping[str, Any]) -> None:
        """Pick marks by their values of the pick fields (none: clear the pick), through the
        chart's selection as a click in the browser does; the table follows."""
        if not self.pick_fields:
            raise ValueError("this explorer has no pick fields (Explorer(..., pick=(...)))")
        for row in rows:
            if set(row) != set(self.pick_fields):
                raise ValueError(
                    f"a pick gives every pick field {list(self.pick_fields)}, got {sorted(row)}"
                )
        if self.spec is None:
            raise ValueError("nothing to pick from: the explorer shows no chart")
        self.view.select_points(PICK, rows)

    def _on_selection(self, change: Mapping[str, Any]) -> None:
        # Read from the change itself: altair's own observer may not have run yet.
        signal = (change["new"].get(PICK) or {}).get("value") if self.pick_fields else None
        points = PointSelection.from_vega(PICK, signal, []).value if signal else []
        picked = [{f: row.get(f) for f in self.pick_fields} for row in points]
        # A mark with none of the pick fields (say, an empty cell of a grid) picks nothing.
        picked = [row for row in picked if any(v is not None for v in row.values())]
        if picked != self.picked:
            self.picked = picked
            self._show_table()

    def _pick_source(self) -> pl.DataFrame | None:
        """What a pick filters: the result frame when it has the pick fields, else the data
        of the chart's view the pick selects in."""
        if self.frame is not None and all(f in self.frame.columns for f in self.pick_fields):
            return self.frame
        if self.spec is None:
            return self.frame
        _view, rows = pick_view(self.spec, self.pick_fields)
        return pl.DataFrame(rows, infer_schema_length=None)

    def _fields_attribute(self) -> str:
        """The pick fields as a data attribute (the browser check reads them)."""
        return f"data-pick-fields='{html.escape(json.dumps(list(self.pick_fields)), quote=True)}'"

    def _show_table(self) -> None:
        """The table: every row, or (something picked) the picked rows, with a note."""
        shown = self.frame
        note = ""
        if self.picked and self.pick_fields:
            source = self._pick_source()
            if source is not None:
                wanted = pl.DataFrame(self.picked, infer_schema_length=None)
                wanted = wanted.with_columns(
                    pl.col(f).cast(source.schema[f], strict=False) for f in self.pick_fields
                ).unique()
                shown = source.join(wanted, on=list(self.pick_fields), how="semi",
                                    nulls_equal=True)  # fmt: skip
                what = "; ".join(
                    ", ".join(f"{f} = {row[f]}" for f in self.pick_fields) for row in self.picked
                )
                note = (
                    f"<span {self._fields_attribute()} style='color:#1a5fb4'>"
                    f"picked in the chart: {html.escape(what)} "
                    f"({shown.height} of {source.height} rows); click the chart's background "
                    "to show every row</span>"
                )
        elif self.pick_fields and self.spec is not None:
            note = (
                f"<span {self._fields_attribute()} style='color:#666'>"
                "click a mark in the chart to pick its rows</span>"
            )
        self.shown = shown
        self.pick_note.value = note
        self.table.value = "" if shown is None else Table(shown, max_rows=self.table_rows).html()

    def _links(self) -> str:
        stem = _slug(self.title) or "explorer"
        links = []
        if self.frame is not None:
            csv = base64.b64encode(_csv(self.frame).encode("utf-8")).decode("ascii")
            links.append(
                f'<a download="{stem}.csv" href="data:text/csv;charset=utf-8;base64,{csv}" '
                'style="color:#1a5fb4;text-decoration:underline">download the table (CSV)</a>'
            )
        if self.rendered is not None:
            links.append(
                f'<a download="{stem}.png" href="{self.rendered.data_uri()}" '
                'style="color:#1a5fb4;text-decoration:underline">save the chart (PNG)</a>'
            )
        return " · ".join(links)

    # --- bounds that follow the situation -----------------------------------------------------

    def _adapt(self) -> None:
        """Apply ``adapt``'s bounds, options and flags until they are stable (observers held)."""
        if self.adapt is None:
            return
        for _ in range(4):
            changed = False
            for name, attributes in self.adapt(**self.values()).items():
                if name not in self.controls:
                    raise ValueError(f"adapt names unknown control {name!r}")
                changed |= _update(self.controls[name], attributes)
            if not changed:
                return

    @contextmanager
    def _hold(self) -> Iterator[None]:
        """Within it, control changes do not trigger a recompute."""
        was, self._quiet = self._quiet, True
        try:
            yield
        finally:
            self._quiet = was

    def _on_change(self, _change: Mapping[str, Any]) -> None:
        if not self._quiet:
            self.refresh()

    # --- what a notebook shows before it runs -------------------------------------------------

    def settings_text(self) -> str:
        """The current settings as "description value" pairs (labels for dropdowns)."""
        parts = []
        for name, control in self.controls.items():
            label = (getattr(control, "description", "") or name).strip()
            if isinstance(control, _SINGLE):
                shown = str(control.label)
            elif isinstance(control, _MULTIPLE):
                shown = "+".join(control.label) or "none"
            else:
                shown = str(control.value)
            parts.append(f"{label} {shown}")
        return " · ".join(parts)

    def saved_copy(self) -> tuple[str, str]:
        """The current result as HTML (chart as a data-URI image, table) and as text."""
        return self._static_html(), self._static_text()

    def _static_html(self) -> str:
        parts = [
            '<div class="workbench-explorer">',
            f"<p style='margin:2px 0'><b>{html.escape(self.title or 'Explorer')}</b> "
            f"({html.escape(self.settings_text())})<br>"
            f"<i style='color:#666'>{FALLBACK_NOTE}</i></p>",
        ]
        if self.error is not None:
            parts.append(f"<p style='color:#b00'>{html.escape(self.error)}</p>")
        if self.rendered is not None:
            parts.append(
                f'<img src="{self.rendered.data_uri()}" width="{self.rendered.width}" '
                f'alt="{html.escape(self.title or "chart")}" style="max-width:100%;height:auto">'
            )
        if self.frame is not None:
            parts.append(Table(self.frame, max_rows=self.table_rows).html())
        parts.append("</div>")
        return "".join(parts)

    def _static_text(self) -> str:
        lines = [f"Explorer: {self.title or 'untitled'} ({self.settings_text()})", FALLBACK_NOTE]
        if self.error is not None:
            lines.append(f"error: {self.error}")
        if self.rendered is not None:
            lines.append(self.rendered.text)
        if self.frame is not None:
            lines.append(Table(self.frame, max_rows=self.table_rows).text())
        return "\n".join(lines)


# --- control helpers ---------------------------------------------------------------------------


def _prepare(control: widgets.Widget) -> None:
    """Recompute on release; readable descriptions; None options get a stand-in value."""
    if "continuous_update" in control.trait_names():
        control.continuous_update = False
    if "style" in control.trait_names() and hasattr(control.style, "description_width"):
        control.style.description_width = "initial"
    if isinstance(control, _SINGLE):
        labels, values = control._options_labels, control._options_values
        if any(value is None for value in values):
            current = control.value  # None: the None option (ipywidgets shows no selection)
            control.options = [
                (label, NONE_OPTION if value is None else value)
                for label, value in zip(labels, values, strict=True)
            ]
            _assign(control, current)


def _assign(control: widgets.Widget, value: Any) -> None:
    """Set a control's value, mapping None to the None option where there is one."""
    if isinstance(control, _SINGLE):
        if value is None and NONE_OPTION in control._options_values:
            value = NONE_OPTION
        if value not in control._options_values:
            return  # leaves the control as it is; ``set`` reports it
    if isinstance(control, _MULTIPLE):
        value = tuple(value)
        if any(v not in control._options_values for v in value):
            return
    control.value = value


def _update(control: widgets.Widget, attributes: Mapping[str, Any]) -> bool:
    """Set attributes that differ (options keep the current value when still offered)."""
    changed = False
    for attribute, value in attributes.items():
        if attribute not in control.trait_names():
            raise ValueError(f"{type(control).__name__} has no attribute {attribute!r}")
        if attribute == "options":
            pairs = [o if isinstance(o, tuple) else (str(o), o) for o in value]
            pairs = [(label, NONE_OPTION if v is None else v) for label, v in pairs]
            if pairs == list(zip(control._options_labels, control._options_values, strict=True)):
                continue
            kept = control.value
            control.options = pairs
            if isinstance(control, _MULTIPLE):
                control.value = tuple(v for v in kept if v in control._options_values)
            elif kept in control._options_values:
                control.value = kept
            changed = True
        elif attribute in ("min", "max") and getattr(control, attribute) != value:
            # Widen before narrowing so that min <= max holds at every step.
            if attribute == "min" and value > control.max:
                control.max = value
            if attribute == "max" and value < control.min:
                control.min = value
            setattr(control, attribute, value)
            changed = True
        elif getattr(control, attribute) != value:
            setattr(control, attribute, value)
            changed = True
    return changed


def _allowed(control: widgets.Widget) -> str:
    if isinstance(control, _SINGLE | _MULTIPLE):
        options = ", ".join(repr(_real(v)) for v in control._options_values)
        return f"options: {options or 'none in this setting'}"
    if hasattr(control, "min") and hasattr(control, "max"):
        disabled = " (disabled in this setting)" if getattr(control, "disabled", False) else ""
        return f"allowed {control.min}–{control.max}{disabled}"
    return f"the control holds {_real(control.value)!r}"


def _real(value: Any) -> Any:
    return None if value is NONE_OPTION else value


def _same(actual: Any, wanted: Any) -> bool:
    if isinstance(actual, tuple) and isinstance(wanted, list):
        wanted = tuple(wanted)
    try:
        return bool(actual == wanted)
    except Exception:  # e.g. arrays
        return actual is wanted


def _key(values: Mapping[str, Any]) -> Hashable:
    def hashable(value: Any) -> Hashable:
        if isinstance(value, list | tuple):
            return tuple(hashable(v) for v in value)
        if isinstance(value, set | frozenset):
            return frozenset(hashable(v) for v in value)
        if isinstance(value, dict):
            return tuple(sorted((k, hashable(v)) for k, v in value.items()))
        return value

    return tuple(sorted((name, hashable(value)) for name, value in values.items()))


def _csv(frame: pl.DataFrame) -> str:
    """CSV of a frame; list columns are written as "a+b" strings."""
    lists = [name for name, dtype in frame.schema.items() if isinstance(dtype, pl.List)]
    if lists:
        frame = frame.with_columns(
            pl.col(name).cast(pl.List(pl.String)).list.join("+") for name in lists
        )
    return frame.write_csv()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


__all__ = ["BUSY_CLASS", "BUSY_TEXT", "NONE_OPTION", "SAVED_CLASS", "Explorer", "SavedCopy"]
