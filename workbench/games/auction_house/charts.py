"""Altair charts for the Auction House kitty analyses: each takes a tidy frame made by
``kitty`` and returns a chart; nothing here computes a number.

Intervals are drawn as black rules and named in the legend ("95% interval"); reference lines
are labelled in the chart.
"""

from __future__ import annotations

import altair as alt
import polars as pl

from workbench.charts import WIDTH
from workbench.charts import check_frame as _check

HEIGHT = 220
INTERVAL = "95% interval"


def _interval_legend() -> alt.Color:
    return alt.Color("interval:N", scale=alt.Scale(domain=[INTERVAL], range=["black"]), title=None)


def kitty_value_chart(distribution: pl.DataFrame, *, title: str = "") -> alt.Chart:
    """Stacked bars: share of deals by points at stake, split by whether points were carried
    in (a ``kitty_value_distribution`` frame)."""
    _check(distribution, ["at_stake", "carried", "share"], "kitty_value_chart")
    frame = distribution.with_columns(
        pot=pl.when(pl.col("carried"))
        .then(pl.lit("with carry-in"))
        .otherwise(pl.lit("own kitty only"))
    )
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("at_stake:Q", bin=alt.Bin(step=2), title="points at stake"),
            y=alt.Y("sum(share):Q", title="share of deals", axis=alt.Axis(format="%")),
            color=alt.Color("pot:N", title="pot", sort="descending"),
            tooltip=[
                alt.Tooltip("at_stake:Q", bin=alt.Bin(step=2), title="points at stake"),
                alt.Tooltip("pot:N", title="pot"),
                alt.Tooltip("sum(share):Q", format=".1%", title="share of deals"),
            ],
        )
        .properties(width=WIDTH, height=HEIGHT, title=title)
    )


def carry_chain_chart(chains: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Share of tie runs by length (a ``carry_chains`` frame), with 95% intervals."""
    _check(chains, ["length", "share", "low", "high", "runs"], "carry_chain_chart")
    frame = chains.with_columns(interval=pl.lit(INTERVAL))
    base = alt.Chart(frame).encode(x=alt.X("length:O", title="tied deals in a row"))
    bars = base.mark_bar(color="#4c78a8").encode(
        y=alt.Y("share:Q", title="share of tie runs", axis=alt.Axis(format="%")),
        tooltip=["length", "runs", alt.Tooltip("share:Q", format=".3f")],
    )
    rules = base.mark_rule().encode(y="low:Q", y2="high:Q", color=_interval_legend())
    labels = base.mark_text(dy=-8, fontSize=10).encode(y="high:Q", text="runs:Q")
    return (bars + rules + labels).properties(
        width=WIDTH - 120, height=HEIGHT, title=title or "Runs of tied deals (label: runs seen)"
    )


def win_by_tricks_chart(
    table: pl.DataFrame, *, series: str | None = None, title: str = ""
) -> alt.LayerChart:
    """P(winning the kitty | tricks taken) with 95% intervals (a ``win_by_tricks`` frame);
    ``series`` names a column to compare (e.g. "agents" or "trump_reveal")."""
    _check(table, ["tricks", "p_win", "low", "high", *([series] if series else [])],
           "win_by_tricks_chart")  # fmt: skip
    frame = table.with_columns(interval=pl.lit(INTERVAL))
    encodings: dict = {"x": alt.X("tricks:O", title="tricks taken in the deal")}
    if series:
        encodings["xOffset"] = alt.XOffset(f"{series}:N")
    base = alt.Chart(frame).encode(**encodings)
    points = base.mark_point(filled=True, size=50).encode(
        y=alt.Y("p_win:Q", title="P(wins the kitty)", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color(f"{series}:N", title=series.replace("_", " "),
                        legend=alt.Legend(labelLimit=260)) if series else alt.value("#4c78a8"),
        tooltip=["tricks", alt.Tooltip("p_win:Q", format=".3f"), "seat_deals"],
    )
    dash = alt.StrokeDash("interval:N", title=None, legend=alt.Legend(symbolType="stroke"))
    rules = base.mark_rule().encode(y="low:Q", y2="high:Q", strokeDash=dash)
    return (points + rules).properties(width=WIDTH - 60, height=HEIGHT, title=title)


def auction_value_chart(
    value: pl.DataFrame, *, series: str = "agents", title: str = ""
) -> alt.LayerChart:
    """What an auction changes, per role: the change in the chance of winning the kitty with
    95% intervals (``auction_value`` frames, concatenated, told apart by ``series``)."""
    _check(value, ["role", "win_change", "win_change_low", "win_change_high", series],
           "auction_value_chart")  # fmt: skip
    frame = value.with_columns(interval=pl.lit(INTERVAL), zero=pl.lit("no change"))
    base = alt.Chart(frame).encode(
        y=alt.Y("role:N", title=None, sort=["starter", "seller", "offerer"]),
        yOffset=alt.YOffset(f"{series}:N"),
    )
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X("win_change:Q", title="change in P(wins the kitty) when an auction is held",
                axis=alt.Axis(format="+%")),
        color=alt.Color(f"{series}:N", title=series.replace("_", " "),
                        legend=alt.Legend(labelLimit=260)),
    )  # fmt: skip
    dash = alt.StrokeDash("interval:N", title=None)
    rules = base.mark_rule().encode(x="win_change_low:Q", x2="win_change_high:Q", strokeDash=dash)
    first = alt.Chart(frame.head(1))
    zero = first.mark_rule(color="gray", strokeDash=[4, 3]).encode(x=alt.datum(0))
    zero_label = first.mark_text(align="left", dx=3, dy=-HEIGHT / 2 + 8, color="gray").encode(
        x=alt.datum(0), text="zero:N")  # fmt: skip
    return (points + rules + zero + zero_label).properties(
        width=WIDTH - 60, height=HEIGHT - 60, title=title
    )


def trump_reveal_chart(comparison: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Each metric under both trump-reveal readings with 95% intervals (a
    ``trump_reveal_comparison`` frame), one panel per metric so scales stay honest."""
    needed = ["metric", "estimate_after_kitty", "estimate_before_auction"]
    _check(comparison, needed, "trump_reveal_chart")
    frame = pl.concat(
        comparison.select("metric", reading=pl.lit(reading.replace("_", " ")),
                          estimate=pl.col(f"estimate_{reading}"), low=pl.col(f"low_{reading}"),
                          high=pl.col(f"high_{reading}"))
        for reading in ("after_kitty", "before_auction")
    ).with_columns(interval=pl.lit(INTERVAL))  # fmt: skip
    base = alt.Chart().encode(
        y=alt.Y("reading:N", title=None, axis=alt.Axis(labelLimit=120, minExtent=90))
    )
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X("estimate:Q", title=None, scale=alt.Scale(zero=False)),
        color=alt.Color("reading:N", title="trump shown"),
    )
    rules = base.mark_rule().encode(
        x="low:Q", x2="high:Q", strokeDash=alt.StrokeDash("interval:N", title=None)
    )
    return (
        alt.layer(points, rules, data=frame)
        .properties(width=WIDTH // 2, height=60)
        .facet(facet=alt.Facet("metric:N", title=None), columns=2)
        .resolve_scale(x="independent")
        .properties(title=title)
    )


def trump_odds_chart(odds: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Heat map of the exact chance of each trump suit before each deal (a
    ``trump_odds_through`` frame), the suit that came outlined and every cell labelled."""
    _check(odds, ["deal", "suit", "probability", "exact", "came"], "trump_odds_chart")
    frame = odds.with_columns(turned=pl.when(pl.col("came")).then(pl.lit("turned")).otherwise(None))
    base = alt.Chart(frame).encode(
        x=alt.X("deal:O", title="deal", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("suit:N", title="trump suit", sort=["C", "D", "H", "S"]),
    )
    shade = alt.Scale(domain=[0, 1], scheme="blues")
    cells = base.mark_rect().encode(color=alt.Color("probability:Q", scale=shade, title="chance"))
    outline = (
        base.transform_filter("datum.came")
        .mark_rect(fill=None, strokeWidth=2)
        .encode(stroke=alt.Stroke("turned:N", scale=alt.Scale(range=["#d62728"]), title=None))
    )
    labels = base.mark_text(fontSize=9).encode(
        text="exact:N",
        color=alt.condition(alt.datum.probability > 0.5, alt.value("white"), alt.value("black")),
    )
    return (cells + outline + labels).properties(width=WIDTH + 60, height=160, title=title)


__all__ = ["auction_value_chart", "carry_chain_chart", "kitty_value_chart", "trump_odds_chart",
           "trump_reveal_chart", "win_by_tricks_chart"]  # fmt: skip
