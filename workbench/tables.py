"""Frames shown as compact HTML tables that fit a notebook's width, with a text form for nbval.

A polars frame printed as text wraps into unreadable rows once it is wider than the notebook
(about 140 characters in JupyterLab). ``table(frame)`` shows it as an HTML table instead: small
type, numbers right-aligned and rounded, long headers allowed to break at underscores, a
horizontal scroll bar only if it still does not fit. JupyterLab renders it in an untrusted
notebook too (the inline styles used here survive its sanitizer). The ``text/plain`` form is
the frame printed by polars, which nbval compares.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

import polars as pl

#: Rows shown before the table is cut (the text says how many were left out).
MAX_ROWS = 60
CELL = "padding:1px 7px;border-bottom:1px solid #e0e0e0;"
HEADER = "padding:2px 7px;border-bottom:1px solid #888;vertical-align:bottom;"


class Table:
    """A frame to display as an HTML table (``text/html``) and as polars text (``text/plain``)."""

    def __init__(
        self,
        frame: pl.DataFrame,
        *,
        digits: int = 3,
        max_rows: int = MAX_ROWS,
        caption: str = "",
    ) -> None:
        if not isinstance(frame, pl.DataFrame):
            raise TypeError(f"table takes a polars DataFrame, got {type(frame).__name__}")
        for name, value in (("digits", digits), ("max_rows", max_rows)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
        self.frame = frame
        self.digits = digits
        self.max_rows = max_rows
        self.caption = caption

    def html(self) -> str:
        """The table as HTML with inline styles."""
        frame = self.frame
        shown = frame.head(self.max_rows)
        numeric = [dtype.is_numeric() for dtype in frame.dtypes]
        align = ["right" if n else "left" for n in numeric]
        head = "".join(
            f'<th style="{HEADER}text-align:{a}">{_header(name)}</th>'
            for name, a in zip(frame.columns, align, strict=True)
        )
        body = []
        for row in shown.iter_rows():
            cells = "".join(
                f'<td style="{CELL}text-align:{a};{"white-space:nowrap;" if n else ""}">'
                f"{html.escape(_format(value, self.digits))}</td>"
                for value, a, n in zip(row, align, numeric, strict=True)
            )
            body.append(f"<tr>{cells}</tr>")
        if frame.height > shown.height:
            more = frame.height - shown.height
            body.append(
                f'<tr><td colspan="{frame.width}" style="{CELL}text-align:left;font-style:italic">'
                f"… {more} more row(s)</td></tr>"
            )
        caption = (
            f'<caption style="caption-side:top;text-align:left;padding:2px 0">'
            f"{html.escape(self.caption)}</caption>"
            if self.caption
            else ""
        )
        return (
            '<div class="workbench-table" style="max-width:100%;overflow-x:auto">'
            '<table style="border-collapse:collapse;font-size:12px;line-height:1.35;'
            'margin:2px 0;table-layout:auto">'
            f"{caption}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        )

    def text(self) -> str:
        """The table as polars prints it (full width, no wrapping), for nbval and terminals."""
        with pl.Config(
            tbl_hide_dataframe_shape=True,
            tbl_hide_column_data_types=True,
            float_precision=self.digits,
            tbl_rows=self.max_rows,
            tbl_cols=-1,
            tbl_width_chars=10_000,
            fmt_str_lengths=200,
            fmt_table_cell_list_len=20,
        ):
            text = str(self.frame)
        if self.caption:
            text = f"{self.caption}\n{text}"
        return text

    def _repr_mimebundle_(self, **_kwargs: Any) -> dict[str, str]:
        return {"text/html": self.html(), "text/plain": self.text()}

    def __repr__(self) -> str:
        return self.text()


#: ``table(frame)``, the last expression of a notebook cell, shows it as a compact HTML table.
table = Table


def _header(name: str) -> str:
    # A zero-width space after each underscore lets a long column name break across lines.
    return html.escape(name).replace("_", "_\u200b")


def _format(value: Any, digits: int) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return f"{value:.{digits}f}"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return ", ".join(_format(item, digits) for item in value)
    return str(value)


__all__ = ["MAX_ROWS", "Table", "table"]
