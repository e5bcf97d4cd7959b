"""Shared chart plumbing. Game charts live beside each game (``workbench.games.<id>.charts``);
each takes a tidy polars frame and returns an altair chart."""

from __future__ import annotations

import altair as alt

#: Default width of the notebooks' charts, in pixels.
WIDTH = 420


def enable_offline_rendering() -> None:
    """Render charts as SVG made locally by vl-convert: works with no internet, and its text is
    stable, so nbval compares it. (Altair's default ``html`` renderer loads Vega from a CDN.)"""
    alt.renderers.enable("svg")


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
) -> alt.LayerChart:
    """Horizontal bars of an estimate per category with its interval drawn as a black rule,
    and an optional dashed reference line (e.g. a fair share)."""
    base = alt.Chart(frame).encode(y=alt.Y(f"{category}:N", title=None))
    layers = [
        base.mark_bar().encode(x=alt.X(f"{value}:Q", title=value_title or value)),
        base.mark_rule(color="black").encode(x=f"{low}:Q", x2=f"{high}:Q"),
    ]
    if reference is not None:
        layers.append(
            alt.Chart(alt.Data(values=[{"reference": reference}]))
            .mark_rule(strokeDash=[4, 3], color="gray")
            .encode(x="reference:Q")
        )
    return alt.layer(*layers).properties(width=WIDTH - 60, title=title)
