"""Charts of a game review: each takes a review's frame and returns an altair chart; nothing
here computes a number.

- ``track_chart``: every seat's win chance through the game (a review's ``track``);
- ``loss_chart``: each decision's loss of win chance with its interval, coloured by label,
  the labels' thresholds drawn and named;
- ``where_lost_chart``: win chance lost per game by group and agent (``loss_by``'s frame).
"""

from __future__ import annotations

import altair as alt
import polars as pl

from workbench.charts import WIDTH, check_frame, interval_tooltip
from workbench.reviews.labels import LABELS, THRESHOLDS

HEIGHT = 200
#: One colour per label, mildest first (greens to red).
LABEL_COLOURS = dict(zip(LABELS, ("#1a9850", "#91cf60", "#fee08b", "#fc8d59", "#d73027"),
                         strict=True))  # fmt: skip


def track_chart(track: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Every seat's win chance at each reviewed decision (after the action taken, as the
    reviewed seat could estimate it), a band for its 95% interval, the last point the result."""
    check_frame(track, ["decision", "seat", "player", "win_chance", "low", "high", "n"],
                "track_chart")  # fmt: skip
    frame = track.with_columns(
        (pl.lit("seat ") + pl.col("seat").cast(pl.String) + pl.lit(": ") + pl.col("player"))
        .alias("who")
    )
    base = alt.Chart(frame).encode(
        x=alt.X("decision:Q", title="decision of the reviewed seat (last: the result)",
                axis=alt.Axis(tickMinStep=1)),
        color=alt.Color("who:N", title=None),
    )  # fmt: skip
    y = alt.Y("win_chance:Q", title="win chance", scale=alt.Scale(domain=[0, 1]))
    tooltip = ["who:N", "decision:Q", *interval_tooltip("win_chance"), "n:Q"]
    points = base.mark_point(filled=True, size=24).encode(y=y, tooltip=tooltip)
    band = base.mark_area(opacity=0.15).encode(y="low:Q", y2="high:Q")
    line = base.mark_line().encode(y=y, tooltip=tooltip)
    subtitle = "bands: 95% intervals over the playouts of the action taken"
    heading = alt.Title(title or "Win chance through the game", subtitle=subtitle)
    # the points first: the first marks of the chart are the estimates themselves
    return alt.layer(points, band, line).properties(width=WIDTH, height=HEIGHT, title=heading)


def loss_chart(decisions: pl.DataFrame, *, title: str = "") -> alt.LayerChart:
    """Each rated decision's loss of win chance (point, coloured by its label) and 95% interval
    (black rule), with the labels' thresholds as named dashed lines."""
    check_frame(decisions, ["decision", "action", "best_action", "loss", "low", "high", "label"],
                "loss_chart")  # fmt: skip
    frame = decisions.filter(pl.col("label").is_not_null())
    base = alt.Chart(frame).encode(
        x=alt.X("decision:Q", title="decision", axis=alt.Axis(tickMinStep=1))
    )
    rules = base.mark_rule(color="black").encode(y="low:Q", y2="high:Q")
    points = base.mark_point(filled=True, size=70, stroke="black", strokeWidth=0.5).encode(
        y=alt.Y("loss:Q", title="win chance lost"),
        color=alt.Color("label:N", title="label",
                        scale=alt.Scale(domain=list(LABEL_COLOURS),
                                        range=list(LABEL_COLOURS.values()))),
        tooltip=["decision:Q", "action:N", "best_action:N", "label:N",
                 *interval_tooltip("loss")],
    )  # fmt: skip
    levels = alt.Chart(
        alt.Data(values=[{"threshold": t, "name": f"{n} {t:g}"} for n, t in THRESHOLDS.items()])
    )
    lines = levels.mark_rule(strokeDash=[4, 3], color="gray").encode(y="threshold:Q")
    names = levels.mark_text(align="right", baseline="bottom", dy=-2, color="gray").encode(
        y="threshold:Q", x=alt.value(WIDTH - 2), text="name:N"
    )
    subtitle = "black lines: 95% intervals; dashed: the least loss of each label"
    return alt.layer(rules, lines, names, points).properties(
        width=WIDTH, height=HEIGHT,
        title=alt.Title(title or "What each decision cost", subtitle=subtitle),
    )  # fmt: skip


def where_lost_chart(losses: pl.DataFrame, *, by: str = "phase", title: str = "") -> alt.Chart:
    """Win chance lost per game in each group of ``by`` (``loss_by``'s frame), one row of bars
    per agent, with 95% intervals over games as black rules."""
    check_frame(losses, ["agent", by, "loss_per_game", "low", "high", "games"],
                "where_lost_chart")  # fmt: skip
    base = alt.Chart(losses).encode(y=alt.Y(f"{by}:N", title=None))
    bars = base.mark_bar(color="#9ecae1").encode(
        x=alt.X("loss_per_game:Q", title="win chance lost per game"),
        tooltip=["agent:N", f"{by}:N", *interval_tooltip("loss_per_game"), "games:Q",
                 "decisions:Q"],
    )  # fmt: skip
    rules = base.mark_rule(color="black", strokeWidth=2).encode(x="low:Q", x2="high:Q")
    return (
        alt.layer(bars, rules)
        .properties(width=WIDTH - 80, height=alt.Step(22))
        .facet(row=alt.Row("agent:N", title=None))
        .properties(title=alt.Title(title or "Where the win chance goes",
                                    subtitle="black lines: 95% intervals over games"))
    )  # fmt: skip


__all__ = ["LABEL_COLOURS", "loss_chart", "track_chart", "where_lost_chart"]
