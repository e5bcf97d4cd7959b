"""Altair charts for the Rubbish Auction analyses: each takes a tidy frame made by ``inference``
or ``cheapskate`` and layers marks over a ``base`` chart; nothing here computes a number.
"""

from __future__ import annotations

from typing import TypeVar

import altair as alt
import polars as pl

from workbench.charts import WIDTH
from workbench.charts import check_frame as _check

HEIGHT = 220

_Chart = TypeVar("_Chart", alt.Chart, alt.LayerChart)


def _with_interval(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows that carry an interval (low/high not null), for the interval layer."""
    if "low" not in frame.columns or "high" not in frame.columns:
        return frame.clear()
    return frame.filter(pl.col("low").is_not_null() & pl.col("high").is_not_null())


def bid_posterior_chart(
    frame: pl.DataFrame, *, series: str | None = None, title: str = ""
) -> alt.LayerChart:
    """Bars of probability by bid total (a ``bid_posterior``, ``possible_bids`` or ``infer``
    frame), with interval bars for estimates; ``series``: distributions set side by side."""
    _check(frame, ["total", "probability"] + ([series] if series else []), "bid_posterior_chart")
    x = alt.X("total:O", title="bid total (thousands)", axis=alt.Axis(labelAngle=0))
    y = alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1]))
    encodings: dict = {"x": x, "y": y}
    if series:
        encodings["xOffset"] = alt.XOffset(f"{series}:N")
        encodings["color"] = alt.Color(f"{series}:N", title=series.replace("_", " "))
    base = alt.Chart(frame).encode(**encodings)
    bars = base.mark_bar()
    ranged = _with_interval(frame)
    # Labels sit above the bar, or above its interval bar when the value is an estimate.
    label_at = "high:Q" if frame.height and ranged.height == frame.height else "probability:Q"
    labels = base.mark_text(dy=-6, fontSize=10).encode(
        y=alt.Y(label_at), text=alt.Text("probability:Q", format=".2f")
    )
    chart = bars + labels
    if ranged.height:
        interval = {**encodings, "y": alt.Y("low:Q"), "y2": alt.Y2("high:Q")}
        chart = chart + alt.Chart(ranged).mark_rule(color="black", strokeWidth=2).encode(**interval)
    subtitle = "black lines: 95% interval (an estimate)" if ranged.height else ""
    return _sized(chart, title, subtitle)


def geek_posterior_chart(geeks: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Heat map of P(seat holds geek) from an ``infer(...).geeks`` frame, values printed."""
    _check(geeks, ["seat", "name", "probability"], "geek_posterior_chart")
    base = alt.Chart(geeks).encode(
        x=alt.X("name:N", title="geek", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("seat:O", title="seat"),
    )
    scale = alt.Scale(domain=[0, 1], scheme="blues")
    cells = base.mark_rect().encode(color=alt.Color("probability:Q", scale=scale, title="P(geek)"))
    labels = base.mark_text(fontSize=10).encode(
        text=alt.Text("probability:Q", format=".2f"),
        color=alt.condition(alt.datum.probability > 0.5, alt.value("white"), alt.value("black")),
    )
    return (cells + labels).properties(width=WIDTH, height=alt.Step(32), title=title)


def game_inference_chart(
    scores: pl.DataFrame, measure: str = "p_true_total", *, title: str = ""
) -> alt.LayerChart:
    """Round by round, the probability each prior gave the truth about each opponent
    (``game_inference(...).scores``): ``measure`` "p_true_total" (the opponent's real bid
    total) or "p_true_geek" (its real geek). One line per prior and opponent seat."""
    _check(scores, ["round", "prior", "seat", measure], "game_inference_chart")
    labels = {"p_true_total": "P(true bid total)", "p_true_geek": "P(true geek)"}
    label = labels.get(measure, measure)
    base = alt.Chart(scores).encode(
        x=alt.X("round:O", title="round", axis=alt.Axis(labelAngle=0)),
        y=alt.Y(f"{measure}:Q", title=label, scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("prior:N", title="prior"), detail="seat:N",
    )  # fmt: skip
    lines = base.mark_line(opacity=0.6)
    points = base.mark_point(filled=True).encode(shape=alt.Shape("seat:N", title="seat"))
    return (lines + points).properties(width=WIDTH, height=HEIGHT, title=title)


def cheapskate_chart(summary: pl.DataFrame, *, x: str = "seat", title: str = "") -> alt.LayerChart:
    """Mean times cheapskate per game with 95% intervals (a ``CheapskateReport.summary``), by
    ``x`` ("seat" or "players"), beside the exact fair share (rounds / players) as a tick."""
    _check(
        summary, [x, "seat", "agent", "times_mean", "times_low", "times_high", "fair_share"],
        "cheapskate_chart",
    )  # fmt: skip
    encodings: dict = {"x": alt.X(f"{x}:O", title=x, axis=alt.Axis(labelAngle=0))}
    if x != "seat":
        encodings["xOffset"] = alt.XOffset("seat:O")
    base = alt.Chart(summary).encode(**encodings)
    colour = alt.Color("agent:N", title="agent")
    means = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("times_mean:Q", title="times cheapskate per game"), color=colour
    )
    intervals = base.mark_rule(strokeWidth=2).encode(
        y="times_low:Q", y2="times_high:Q", color=colour
    )
    fair = base.mark_tick(color="gray", thickness=2, size=18).encode(y="fair_share:Q")
    subtitle = [
        "dots: mean per game, lines: 95% interval", "grey ticks: fair share (rounds/players)",
    ]  # fmt: skip
    return _sized(fair + intervals + means, title, subtitle)


def cheapskate_win_rate_chart(summary: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Win rate per seat with 95% intervals (a ``CheapskateReport.summary``; a k-way shared
    win counts 1/k) beside the even share 1/players as a labelled dashed line."""
    _check(summary, ["seat", "agent", "win_rate", "win_low", "win_high", "players"],
           "cheapskate_win_rate_chart")  # fmt: skip
    even = 1 / summary["players"][0]
    base = alt.Chart(summary).encode(x=alt.X("seat:O", title="seat", axis=alt.Axis(labelAngle=0)))
    colour = alt.Color("agent:N", title="agent")
    points = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("win_rate:Q", title="win rate (shared wins split)"), color=colour
    )
    intervals = base.mark_rule(strokeWidth=2).encode(y="win_low:Q", y2="win_high:Q", color=colour)
    line = alt.Chart(alt.Data(values=[{"even": even, "label": f"even share 1/{round(1 / even)}"}]))
    rule = line.mark_rule(color="gray", strokeDash=[4, 3]).encode(y="even:Q")
    label = line.mark_text(align="right", baseline="bottom", dy=-3, color="gray").encode(
        y="even:Q", x=alt.value("width"), text="label:N"
    )
    return _sized(rule + label + intervals + points, title, "dots: win rate · lines: 95% interval")


def cheapskate_distribution_chart(distribution: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Share of games with each cheapskate count, per seat (``CheapskateReport.distribution``)."""
    base = _by_times_cheapskate(
        distribution, "cheapskate_distribution_chart", "seat", "share",
        "times cheapskate in a game",
        xOffset=alt.XOffset("seat:O"), color=alt.Color("seat:O", title="seat"),
    )  # fmt: skip
    bars = base.mark_bar().encode(y=alt.Y("share:Q", title="share of games"))
    intervals = base.mark_rule(color="black").encode(y="low:Q", y2="high:Q")
    return _sized(bars + intervals, title, "black lines: 95% interval")


def cheapskate_winning_chart(winning: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Win rate by times cheapskate with 95% intervals (``CheapskateReport.winning``)."""
    base = _by_times_cheapskate(
        winning, "cheapskate_winning_chart", "agent", "win_rate",
        "times cheapskate in the game", color=alt.Color("agent:N", title="agent"),
    )  # fmt: skip
    line = base.mark_line(point=True).encode(y=alt.Y("win_rate:Q", title="win rate"))
    intervals = base.mark_rule(strokeWidth=2).encode(y="low:Q", y2="high:Q")
    return _sized(line + intervals, title, "vertical lines: 95% interval")


def _by_times_cheapskate(
    frame: pl.DataFrame, what: str, series: str, measure: str, axis_title: str, **channels: object
) -> alt.Chart:
    """A chart of ``frame`` (``series``, ``measure`` and its interval ``low``–``high`` per
    cheapskate count, along x) with ``channels``; ``what`` names the chart in errors."""
    _check(frame, [series, "times_cheapskate", measure, "low", "high"], what)
    x = alt.X("times_cheapskate:O", title=axis_title, axis=alt.Axis(labelAngle=0))
    return alt.Chart(frame).encode(x=x, **channels)


def _sized(chart: _Chart, title: str, subtitle: str | list[str]) -> _Chart:
    """``chart`` at the usual width and height, its subtitle saying what each mark is."""
    titled = alt.Title(title, subtitle=subtitle) if subtitle else title
    return chart.properties(width=WIDTH, height=HEIGHT, title=titled)


__all__ = [
    "bid_posterior_chart", "cheapskate_chart", "cheapskate_distribution_chart",
    "cheapskate_win_rate_chart", "cheapskate_winning_chart", "game_inference_chart",
    "geek_posterior_chart",
]  # fmt: skip
