"""A small explorer pattern shared by every game's widgets.

An ``Explorer`` owns named controls, a function from control values to a result frame and a
chart, and an output area. Changing a control recomputes; ``explorer.frame`` and
``explorer.chart`` hold the latest result so unit tests can drive the controls and check the
numbers without a browser. Bad combinations of inputs show the ValueError's message instead of
a traceback, and keep it in ``explorer.error``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl
from IPython.display import display

Compute = Callable[..., tuple[pl.DataFrame, alt.TopLevelMixin | None]]


class Explorer(widgets.VBox):
    """Controls on top, chart and table below; recomputed whenever a control changes."""

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        compute: Compute,
        *,
        title: str = "",
        table_rows: int = 20,
    ) -> None:
        self.controls = dict(controls)
        self.compute = compute
        self.table_rows = table_rows
        self.frame: pl.DataFrame | None = None
        self.chart: alt.TopLevelMixin | None = None
        self.error: str | None = None
        self.output = widgets.Output()
        header = [widgets.HTML(f"<b>{title}</b>")] if title else []
        wrap = widgets.Layout(flex_flow="row wrap")
        box = widgets.HBox(list(self.controls.values()), layout=wrap)
        super().__init__([*header, box, self.output])
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.refresh()

    def values(self) -> dict[str, Any]:
        """The current value of every control, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def set(self, **values: Any) -> None:
        """Set several controls at once and recompute once (what a test or a notebook calls)."""
        for name, value in values.items():
            if name not in self.controls:
                raise ValueError(f"unknown control {name!r}; controls: {sorted(self.controls)}")
            control = self.controls[name]
            control.unobserve(self._on_change, names="value")
            try:
                control.value = value
            finally:
                control.observe(self._on_change, names="value")
        self.refresh()

    def refresh(self) -> None:
        """Recompute from the current control values and redraw."""
        try:
            self.frame, self.chart = self.compute(**self.values())
            self.error = None
        except ValueError as exc:
            self.frame, self.chart, self.error = None, None, str(exc)
        self.output.clear_output(wait=True)
        with self.output:
            if self.error is not None:
                display(widgets.HTML(f"<span style='color:#b00'>{_escape(self.error)}</span>"))
                return
            if self.chart is not None:
                display(self.chart)
            if self.frame is not None:
                with pl.Config(tbl_rows=self.table_rows, tbl_width_chars=120):
                    print(self.frame)

    def _on_change(self, _change: Mapping[str, Any]) -> None:
        self.refresh()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
