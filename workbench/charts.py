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
