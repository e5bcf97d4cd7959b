"""Charts of the designer's bench: each takes a ``compare``, ``sweep``, ``robust_compare`` or
``tune`` frame and returns an altair chart; nothing is computed here. Every interval is drawn as
a bar and named in the axis title or subtitle; the variant is named in every title.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import polars as pl

from workbench.charts import WIDTH, check_frame, interval_tooltip
from workbench.findings import VERDICT_KINDS, percent, verdict_kind

SIDE_COLOURS = {"baseline": "#7f7f7f", "variant": "#1f77b4"}


def _json_safe(frame: pl.DataFrame) -> pl.DataFrame:
    """NaN (an undefined estimate) as null, which JSON and so Vega-Lite can hold."""
    return frame.with_columns(pl.col(pl.Float64, pl.Float32).fill_nan(None))


def _pick_metrics(frame: pl.DataFrame, metrics: Sequence[str] | None, what: str) -> list[str]:
    known = frame["metric"].unique(maintain_order=True).to_list()
    if metrics is None:
        return known
    unknown = [m for m in metrics if m not in known]
    if unknown:
        raise ValueError(f"{what}: unknown metrics {unknown}; the frame has {known}")
    return list(metrics)


def _by_metric(layers: alt.LayerChart, metrics: list[str], heading: str) -> alt.FacetChart:
    """One panel per metric (in the order chosen), each on its own x scale, under ``heading``."""
    return (
        layers.facet(
            row=alt.Row(
                "metric:N",
                sort=metrics,
                title=None,
                header=alt.Header(labelAngle=0, labelAlign="left", labelLimit=220),
            )
        )
        .resolve_scale(x="independent")
        .properties(title=heading)
    )


def compare_chart(
    frame: pl.DataFrame, metrics: Sequence[str] | None = None, *, title: str | None = None
) -> alt.FacetChart:
    """Baseline and variant side by side, one panel per metric (each on its own scale): the
    estimate as a point, its 95% interval as a bar (a ``compare`` frame)."""
    columns = [f"{side}{end}" for side in ("baseline", "variant") for end in ("", "_low", "_high")]
    needed = ["metric", *columns, "baseline_name", "variant_name", "game"]
    check_frame(frame, needed, "compare_chart")
    chosen, first = _pick_metrics(frame, metrics, "compare_chart"), frame.row(0, named=True)
    names = {side: first[f"{side}_name"] for side in ("baseline", "variant")}
    long = _json_safe(
        pl.concat(
            [
                frame.filter(pl.col("metric").is_in(chosen)).select(
                    "metric",
                    side=pl.lit(f"{side}: {names[side]}"),
                    value=pl.col(side),
                    low=pl.col(f"{side}_low"),
                    high=pl.col(f"{side}_high"),
                )
                for side in ("baseline", "variant")
            ]
        )
    )
    colour = alt.Color(
        "side:N",
        title=None,
        scale=alt.Scale(
            domain=[f"{side}: {names[side]}" for side in ("baseline", "variant")],
            range=list(SIDE_COLOURS.values()),
        ),
        legend=alt.Legend(orient="bottom"),
    )
    base = alt.Chart().encode(y=alt.Y("side:N", title=None, axis=None), color=colour)
    points = base.mark_point(filled=True, size=70).encode(
        x=alt.X(
            "value:Q",
            title="estimate (bar: 95% interval)",
            scale=alt.Scale(zero=False),
            axis=alt.Axis(tickCount=5),
        ),
        tooltip=["metric:N", "side:N", *interval_tooltip("value")],
    )
    bars = base.mark_rule(strokeWidth=2).encode(x="low:Q", x2="high:Q")
    heading = title or f"{first['game']}: {names['variant']} vs {names['baseline']}"
    layers = alt.layer(bars, points, data=long).properties(width=WIDTH - 120, height=34)
    return _by_metric(layers, chosen, heading)


def sweep_chart(
    frame: pl.DataFrame,
    metric: str,
    *,
    x: str | None = None,
    colour: str | None = None,
    column: str | None = None,
    title: str | None = None,
) -> alt.TopLevelMixin:
    """One metric across a sweep (a ``sweep`` frame): its estimate by the grid axis ``x``
    (default: the first axis), a line per value of ``colour`` (default: the line-ups when they
    vary, else the second axis), one panel per value of ``column``; bars are 95% intervals."""
    check_frame(frame, ["game", "agents", "cell", "metric", "value", "low", "high"], "sweep_chart")
    axes = [c for c in frame.columns[1 : frame.columns.index("agents")]]
    if frame["agents"].n_unique() > 1:
        axes.append("agents")
    if not axes:
        raise ValueError("sweep_chart needs a sweep frame with at least one grid axis")
    x = x or axes[0]
    rest = [a for a in axes if a != x]
    colour = colour or (rest[0] if rest else None)
    column = column or next((a for a in rest if a != colour), None)
    for name in (x, colour, column):
        if name is not None and name not in axes:
            raise ValueError(f"sweep_chart: {name!r} is not a grid axis; axes: {axes}")
    data = _json_safe(frame.filter(pl.col("metric") == metric))
    if data.height == 0:
        known = frame["metric"].unique(maintain_order=True).to_list()
        raise ValueError(f"sweep_chart: unknown metric {metric!r}; the frame has {known}")
    numeric = data.schema[x].is_numeric()
    x_encoding = alt.X(f"{x}:{'Q' if numeric else 'O'}", title=x, scale=alt.Scale(zero=False))
    if not numeric:  # in the grid's order
        order = data[x].cast(pl.String).unique(maintain_order=True).to_list()
        x_encoding = alt.X(f"{x}:O", title=x, sort=order, axis=alt.Axis(labelAngle=0))
    encodings: dict = {"x": x_encoding}
    if colour is not None:
        encodings["color"] = alt.Color(
            f"{colour}:N", title=colour, legend=alt.Legend(labelLimit=320, titleLimit=320)
        )
        if not numeric:
            encodings["xOffset"] = alt.XOffset(f"{colour}:N")
    kind = data["kind"][0] if "kind" in data.columns else ""
    y_title = metric  # the subtitle says what the bars are
    base = alt.Chart(data).encode(**encodings)
    y_encoding = alt.Y("value:Q", title=y_title, scale=alt.Scale(zero=kind == "proportion"))
    # Points of their own (not a line's point overlay): a click on one picks its cell.
    points = base.mark_point(filled=True, size=30 if numeric else 60)
    estimates = points.encode(y=y_encoding, tooltip=["cell:N", *interval_tooltip("value"), "n:Q"])
    bars = base.mark_rule(strokeWidth=2).encode(y="low:Q", y2="high:Q")
    if numeric:
        bars = bars + base.mark_line().encode(y=y_encoding)
    games = int(data["games"][0]) if "games" in data.columns else None
    per_cell = f"{games:,} games per cell; " if games else ""
    heading = alt.TitleParams(
        title or f"{data['game'][0]}: {metric} as {x} varies",
        subtitle=f"{per_cell}bars: 95% intervals",
        anchor="start",
    )
    chart = (bars + estimates).properties(width=WIDTH if column is None else WIDTH // 2, height=220)
    if column is not None:
        return chart.facet(column=alt.Column(f"{column}:N", title=column)).properties(title=heading)
    return chart.properties(title=heading)


def ladder_chart(ratings: pl.DataFrame, *, title: str | None = None) -> alt.TopLevelMixin:
    """A ladder's ratings (``ladder(...).ratings``): each agent's rating, best first, with its
    95% interval; 0 is the mean agent of the ladder."""
    check_frame(ratings, ["game", "agent", "rating", "low", "high", "games"], "ladder_chart")
    data = _json_safe(ratings)
    order = data.sort("rating", descending=True)["agent"].to_list()
    base = alt.Chart(data).encode(y=alt.Y("agent:N", sort=order, title=None))
    points = base.mark_point(filled=True, size=70, color="#3182bd").encode(
        x=alt.X("rating:Q", title="rating (log strength; 0 = the ladder's mean agent)"),
        tooltip=["agent:N", *interval_tooltip("rating"), "games:Q"],
    )
    bars = base.mark_rule(color="black", strokeWidth=2).encode(x="low:Q", x2="high:Q")
    zero = alt.Chart(alt.Data(values=[{"zero": 0}])).mark_rule(strokeDash=[4, 3], color="gray")
    heading = alt.TitleParams(
        title or f"{data['game'][0]}: strength ladder",
        subtitle="black line: 95% interval; a difference d: e^d times as likely to win as one "
        "of the other agent's seats",
        anchor="start",
    )
    return alt.layer(zero.encode(x="zero:Q"), bars, points).properties(
        width=WIDTH - 160, title=heading
    )


#: A verdict kind's colour in ``robust_chart`` (``workbench.findings.VERDICT_KINDS``).
VERDICT_COLOURS = {
    "robust": "#2ca02c", "reverses with play": "#d62728", "unclear under": "#ff7f0e",
    "unchanged under": "#bcbd22", "no effect beyond": "#1f77b4", "no change": "#17becf",
    "no clear effect": "#7f7f7f",
}  # fmt: skip


def robust_chart(
    frame: pl.DataFrame, metrics: Sequence[str] | None = None, *, title: str | None = None
) -> alt.FacetChart:
    """Variant minus baseline per metric under each strength of play, with its interval,
    coloured by the metric's verdict (a ``robust_compare`` frame); each metric on its own
    scale, a dashed line at 0. The subtitle names the intervals' confidence (a strength played
    until decided has wider, Bonferroni intervals)."""
    check_frame(
        frame, ["metric", "strength", "n", "diff", "low", "high", "verdict", "game",
                "baseline_name", "variant_name"], "robust_chart",
    )  # fmt: skip
    chosen = _pick_metrics(frame, metrics, "robust_chart")
    first = frame.row(0, named=True)
    data = _json_safe(frame.filter(pl.col("metric").is_in(chosen))).with_columns(zero=pl.lit(0.0))
    strengths = data["strength"].unique(maintain_order=True).to_list()
    shown = sorted(data["verdict"].unique().to_list(),
                   key=lambda v: (VERDICT_KINDS.index(verdict_kind(v)), v))  # fmt: skip
    colour = alt.Color(
        "verdict:N",
        scale=alt.Scale(domain=shown, range=[VERDICT_COLOURS[verdict_kind(v)] for v in shown]),
        legend=alt.Legend(orient="bottom", title="verdict", labelLimit=300),
    )
    base = alt.Chart().encode(y=alt.Y("strength:N", sort=strengths, title=None))
    zero = base.mark_rule(color="gray", strokeDash=[4, 3]).encode(x="zero:Q")
    bars = base.mark_rule(strokeWidth=2).encode(x="low:Q", x2="high:Q", color=colour)
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X("diff:Q", title="variant − baseline (bar: interval)",
                axis=alt.Axis(tickCount=5)),
        color=colour,
        tooltip=["metric:N", "strength:N", *interval_tooltip("diff"), "n:Q", "verdict:N"],
    )  # fmt: skip
    heading = alt.TitleParams(
        title or f"{first['game']}: {first['variant_name']} vs {first['baseline_name']}, "
        "by strength",
        subtitle=_confidence_note(data),
        anchor="start",
    )
    layers = alt.layer(zero, bars, points, data=data).properties(
        width=WIDTH - 160, height=16 * len(strengths) + 8
    )
    return _by_metric(layers, chosen, heading)


def _confidence_note(data: pl.DataFrame) -> str:
    """'bars: 95% intervals', naming a strength whose intervals are wider (played until
    decided, Bonferroni over its looks)."""
    if "confidence" not in data.columns:
        return "bars: 95% intervals"
    levels = data.select("strength", "confidence").unique(maintain_order=True)
    common = levels["confidence"].mode().sort()[0]
    wider = [f"{row['strength']} {percent(row['confidence'])}"
             for row in levels.iter_rows(named=True) if row["confidence"] != common]  # fmt: skip
    note = f"bars: {percent(common)} intervals"
    if wider:
        note += f" ({', '.join(wider)}: played until decided)"
    return note


#: Colours of ``tune_chart``: a candidate's verdict on the targets (``TUNE_VERDICTS``), the band.
TUNE_COLOURS = {"meets every target": "#2ca02c", "unclear": "#ff7f0e",
                "misses a target": "#7f7f7f"}  # fmt: skip
BAND_COLOUR = "#2ca02c"


def tune_chart(
    frame: pl.DataFrame,
    targets: Mapping[str, tuple[float | None, float | None]],
    *,
    title: str | None = None,
) -> alt.VConcatChart:
    """Each candidate of a ``tune`` frame (best first) and its value of every target metric,
    with its 95% interval as a bar, beside the metric's target band (shaded; an open end runs
    to the panel's edge); one panel per target, coloured by the candidate's verdict (meets
    every target, misses one, or unclear: an interval crosses a band's edge). ``targets``: as
    given to ``tune``."""
    check_frame(frame, ["rank", "distance", "meets", "games", "game"], "tune_chart")
    if not targets:
        raise ValueError("tune_chart needs the targets given to tune (metric -> (low, high))")
    missing = [m for m in targets if not {m, f"{m}_low", f"{m}_high"} <= set(frame.columns)]
    if missing:
        raise ValueError(f"tune_chart: the frame has no columns for targets {missing}")
    fields = frame.columns[frame.columns.index("rank") + 1 : frame.columns.index("distance")]
    ranked = frame.sort("rank")
    labels = [
        f"#{row['rank']} " + ", ".join(f"{name}={row[name]}" for name in fields)
        for row in ranked.iter_rows(named=True)
    ]
    colour = alt.Color(
        "verdict:N",
        title=None,
        scale=alt.Scale(domain=list(TUNE_COLOURS), range=list(TUNE_COLOURS.values())),
        legend=alt.Legend(orient="bottom"),
    )
    panels = []
    for metric, (low, high) in targets.items():
        data = _json_safe(
            ranked.select(
                "rank", "games", "stage", "status",
                candidate=pl.Series(labels),
                verdict=pl.col("verdict") if "verdict" in ranked.columns
                else pl.when(pl.col("meets")).then(pl.lit("meets every target"))
                .otherwise(pl.lit("misses a target")),
                value=pl.col(metric), low=pl.col(f"{metric}_low"),
                high=pl.col(f"{metric}_high"),
            )
        )  # fmt: skip
        seen = [v for v in (*data["low"], *data["high"], low, high) if v is not None]
        pad = 0.05 * ((max(seen) - min(seen)) or 1.0)
        band = pl.DataFrame(
            {"band": [f"target band {_band_text(low, high)}"],
             "band_low": [low if low is not None else min(seen) - pad],
             "band_high": [high if high is not None else max(seen) + pad]}
        )  # fmt: skip
        shade = alt.Chart(band).mark_rect(color=BAND_COLOUR, opacity=0.15)
        base = alt.Chart(data).encode(
            y=alt.Y("candidate:N", sort=labels, title=None, axis=alt.Axis(labelLimit=320))
        )
        bars = base.mark_rule(strokeWidth=2).encode(x="low:Q", x2="high:Q", color=colour)
        points = base.mark_point(filled=True, size=60).encode(
            x=alt.X(
                "value:Q",
                title=None,
                scale=alt.Scale(zero=False, padding=10),
                axis=alt.Axis(tickCount=5),
            ),
            color=colour,
            tooltip=["candidate:N", *interval_tooltip("value"), "games:Q", "stage:Q",
                     "status:N"],
        )  # fmt: skip
        panels.append(
            alt.layer(
                shade.encode(x="band_low:Q", x2="band_high:Q", tooltip=["band:N"]), bars, points
            ).properties(
                width=WIDTH - 180,
                height=16 * len(labels) + 8,
                title=alt.TitleParams(
                    metric, subtitle=f"shaded: target band {_band_text(low, high)}",
                    anchor="start", fontSize=12,
                ),
            )
        )  # fmt: skip
    games = sorted(set(ranked["games"].to_list()))
    heading = alt.TitleParams(
        title or f"{ranked['game'][0]}: candidates against the targets, best first",
        subtitle=f"bars: 95% intervals; games per candidate {games[0]:,}–{games[-1]:,} "
        "(fewer: cut early by successive halving)",
        anchor="start",
    )
    return alt.vconcat(*panels).properties(title=heading)


def _band_text(low: float | None, high: float | None) -> str:
    if low is None:
        return f"≤ {high:g}"
    if high is None:
        return f"≥ {low:g}"
    return f"{low:g} to {high:g}"


__all__ = [
    "compare_chart",
    "ladder_chart",
    "robust_chart",
    "sweep_chart",
    "tune_chart",
]
