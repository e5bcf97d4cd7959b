"""Altair charts for Going, Going, GONE!: each takes a frame (or an ``Arrangement``) from the
game's analyses and returns a chart; nothing is computed here beyond laying frames out."""

from __future__ import annotations

import altair as alt
import polars as pl

from workbench.charts import WIDTH, check_frame, interval_tooltip
from workbench.games.going_gone.collection_values import Arrangement

#: Room to the right of every chart: a browser's fonts can run wider than the ones the SVG was
#: laid out with, and legends sit on the right.
PADDING = {"left": 5, "top": 5, "right": 90, "bottom": 5}


def _titled(title: str) -> alt.TitleParams:
    """A title anchored left, so a long one is never cut at the chart's left edge."""
    return alt.TitleParams(title, anchor="start")


def value_chart(
    table: pl.DataFrame, *, title: str = "Collection values (rulebook chart)"
) -> alt.LayerChart:
    """The value chart (``value_table``): bars of a collection's value by size, and the
    marginal value of the item that made it that size, as a line with points."""
    check_frame(table, ["size", "value", "marginal"], "value_chart")
    long = table.select("size", "value", "marginal").unpivot(
        index="size", variable_name="measure", value_name="bucks"
    )
    labels = "datum.label == 'value' ? 'value of the collection' : 'added by its last item'"
    colour = alt.Color(
        "measure:N", scale=alt.Scale(domain=["value", "marginal"], range=["#4c78a8", "#e45756"]),
        title=None, legend=alt.Legend(labelLimit=0, labelExpr=labels),
    )  # fmt: skip
    base = alt.Chart(long).encode(
        x=alt.X("size:O", title="items in the collection", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("bucks:Q", title="Bucks"),
        color=colour,
        tooltip=["size:Q", "measure:N", "bucks:Q"],
    )
    bars = base.transform_filter(alt.datum.measure == "value").mark_bar(opacity=0.8)
    line = base.transform_filter(alt.datum.measure == "marginal").mark_line(point=True)
    return alt.layer(bars, line).properties(
        width=WIDTH - 80, height=220, title=_titled(title), padding=PADDING
    )


def arrangement_chart(
    arrangement: Arrangement, *, lot: tuple[int, ...] = (), title: str | None = None
) -> alt.LayerChart:
    """The grid of types (rows) and countries (columns): each held item coloured by the
    collection it is in, labelled with that collection's size; items of ``lot`` outlined."""
    if not isinstance(arrangement, Arrangement):
        raise TypeError("arrangement_chart takes an Arrangement (best_collections' answer), got "
                        f"{type(arrangement).__name__}")  # fmt: skip
    rules = arrangement.rules
    cells = []
    placed = arrangement.frame()
    collection_of = {row["item"]: row for row in placed.iter_rows(named=True)}
    for item, card in enumerate(rules.items):
        row = collection_of.get(item)
        collection = f"{row['line']} ({row['kind']}) x{row['size']}: {row['value']}" if row else ""
        cells.append({
            "type": card.type, "country": card.country, "collection": collection or "not held",
            "line": row["line"] if row else None, "size": str(row["size"]) if row else "",
            "in_lot": item in lot,
        })  # fmt: skip
    frame = pl.DataFrame(cells)
    held = sorted({c["collection"] for c in cells if c["collection"] != "not held"})
    base = alt.Chart(frame).encode(
        x=alt.X("country:N", sort=list(rules.countries), title=None, axis=alt.Axis(labelAngle=-30)),
        y=alt.Y("type:N", sort=list(rules.types), title=None),
    )
    scale = alt.Scale(domain=[*held, "not held"], range=[*_palette(len(held)), "#eeeeee"])
    legend = alt.Legend(labelLimit=0, titleLimit=0)
    colour = alt.Color(
        "collection:N", scale=scale, title="collection (line, size: value)", legend=legend
    )
    rects = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=colour, tooltip=["type:N", "country:N", "collection:N"]
    )
    layers = [rects, base.mark_text(fontSize=11).encode(text="size:N")]
    if lot:
        stroke = alt.Stroke(
            "marked:N", scale=alt.Scale(domain=["the lot"], range=["black"]), title=None
        )
        outline = base.transform_filter(alt.datum.in_lot).transform_calculate(marked="'the lot'")
        layers.append(outline.mark_rect(fill=None, strokeWidth=3).encode(stroke=stroke))
    shown = title if title is not None else f"Best arrangement: worth {arrangement.value}"
    return alt.layer(*layers).properties(
        width=WIDTH - 120, height=WIDTH - 160, title=_titled(shown), padding=PADDING
    )


def _palette(count: int) -> list[str]:
    base = [
        "#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#eeca3b", "#b279a2",
        "#ff9da6", "#9d755d", "#bab0ac", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b",
    ]  # fmt: skip
    return [base[i % len(base)] for i in range(count)]


def holding_values_chart(values: pl.DataFrame, *, title: str | None = None) -> alt.LayerChart:
    """What random holdings are worth (``random_holding_values``): the mean exact value by
    size with its 95% interval, and the least and most seen."""
    check_frame(values, ["size", "n", "mean", "low", "high", "least", "most"],
                "holding_values_chart")  # fmt: skip
    n = int(values["n"][0])
    measures = {"mean": "mean (95% interval)", "least": "least seen", "most": "most seen"}
    long = pl.concat(
        values.select("size", pl.col(column).cast(pl.Float64).alias("bucks"),
                      pl.lit(measure).alias("measure"))
        for column, measure in measures.items()
    )  # fmt: skip
    colour = alt.Color(
        "measure:N", title=None, legend=alt.Legend(labelLimit=0),
        scale=alt.Scale(domain=list(measures.values()), range=["#4c78a8", "#9d9d9d", "#54a24b"]),
    )  # fmt: skip
    x = alt.X("size:Q", title="items held")
    band = (
        alt.Chart(values)
        .mark_area(opacity=0.3, color="#4c78a8")
        .encode(x=x, y=alt.Y("low:Q", title="best arrangement (Bucks)"), y2="high:Q")
    )
    lines = alt.Chart(long).mark_line(point=True).encode(
        x=x, y="bucks:Q", color=colour,
        tooltip=["size:Q", "measure:N", alt.Tooltip("bucks:Q", format=".1f")],
    )  # fmt: skip
    shown = title or f"What a random holding is worth ({n:,} holdings per size)"
    return alt.layer(band, lines).properties(
        width=WIDTH - 80, height=240, title=_titled(shown), padding=PADDING
    )


def arrival_chart(
    path: pl.DataFrame, *, title: str = "The best arrangement as items arrive"
) -> alt.LayerChart:
    """``arrival_path``: one column per step, one row per item (in arrival order), coloured by
    the line it is collected in at that step; a ring marks an item that changed line."""
    check_frame(path, ["step", "item", "name", "value", "kind", "line", "size", "marginal",
                       "moved"], "arrival_chart")  # fmt: skip
    order = path.sort("step").unique("item", keep="first", maintain_order=True)["name"].to_list()
    steps = path.select("step", "value").unique().sort("step")
    labels = {row["step"]: f"{row['step']}: {row['value']}" for row in steps.iter_rows(named=True)}
    frame = path.with_columns(
        pl.col("step").replace_strict(labels, return_dtype=pl.String).alias("step (value)"),
        (pl.col("kind") + ": " + pl.col("line")).alias("collected in"),
    )
    ticks = [labels[s] for s in sorted(labels)]
    axis = alt.Axis(labelAngle=0)
    x = alt.X("step (value):N", sort=ticks, title="step: value of the holding", axis=axis)
    base = alt.Chart(frame).encode(x=x, y=alt.Y("name:N", sort=order, title=None))
    cells = base.mark_square(size=260).encode(
        color=alt.Color("collected in:N", title="collected in"),
        tooltip=["step:Q", "name:N", "collected in:N", "size:Q", "value:Q", "marginal:Q"],
    )
    moved = base.transform_filter(alt.datum.moved).mark_point(
        shape="circle", size=520, filled=False, strokeWidth=2
    ).encode(stroke=alt.Stroke("moved:N", scale=alt.Scale(range=["black"]), title=None,
                               legend=alt.Legend(labelExpr="'changed line'")))  # fmt: skip
    return alt.layer(cells, moved).properties(
        width=WIDTH - 60, height=22 * len(order), title=_titled(title), padding=PADDING
    )


def price_chart(
    prices: pl.DataFrame, *, title: str = "Price paid per lot, by round"
) -> alt.FacetChart | alt.LayerChart:
    """``analysis.prices`` (with a ``lineup`` column to compare line-ups): the mean price by
    round for each lot size with its 95% interval; one panel per line-up."""
    check_frame(prices, ["round", "lot_size", "n", "mean", "low", "high"], "price_chart")
    frame = prices.with_columns(pl.format("{} item(s)", pl.col("lot_size")).alias("lot"))
    base = alt.Chart(frame).encode(
        x=alt.X("round:O", title="round", axis=alt.Axis(labelAngle=0)),
        color=alt.Color("lot:N", title="lot size"),
    )
    axis_title = "mean price (Bucks), 95% interval"
    tooltip = ["round:Q", "lot:N", "n:Q", *interval_tooltip("mean", number_format=".2f")]
    line = base.mark_line(point=True).encode(y=alt.Y("mean:Q", title=axis_title), tooltip=tooltip)
    errors = base.mark_errorbar().encode(y=alt.Y("low:Q", title=axis_title), y2="high:Q")
    layers = alt.layer(line, errors).properties(width=(WIDTH - 60) // 2, height=200)
    if "lineup" in frame.columns:
        layers = layers.facet(column=alt.Column("lineup:N", title=None))
    return layers.properties(title=_titled(title), padding=PADDING)


def win_rate_chart(
    rates: pl.DataFrame, *, category: str = "seat", fair_share: float | None = None,
    title: str = "Win rate by seat",
) -> alt.LayerChart | alt.FacetChart:  # fmt: skip
    """Win rates with 95% intervals (``analysis.seat_win_rates`` or
    ``auctioneer_turn_win_rates``): a point and interval per ``category``, one colour per
    line-up, and a dashed line at the fair share (labelled in the legend)."""
    check_frame(rates, [category, "n", "win_rate", "low", "high"], "win_rate_chart")
    frame = rates.with_columns(pl.col(category).cast(pl.String))
    by_lineup = "lineup" in frame.columns
    base = alt.Chart(frame).encode(
        y=alt.Y(f"{category}:N", title=category.replace("_", " ")),
        yOffset=alt.YOffset("lineup:N") if by_lineup else alt.Undefined,
        color=(
            alt.Color("lineup:N", title="line-up", legend=alt.Legend(labelLimit=0))
            if by_lineup
            else alt.value("#4c78a8")
        ),
    )
    x = alt.X("low:Q", title="win rate (95% interval)", axis=alt.Axis(format=".2f", tickCount=6))
    tooltip = [f"{category}:N", "n:Q", *interval_tooltip("win_rate", number_format=".3f")]
    layers = [
        base.mark_rule(strokeWidth=2).encode(x=x, x2="high:Q"),
        base.mark_point(filled=True, size=60).encode(
            x="win_rate:Q", tooltip=tooltip + (["lineup:N"] if by_lineup else [])
        ),
    ]
    if fair_share is not None:
        label = f"fair share ({fair_share:.2f})"
        dash = alt.StrokeDash("reference:N", title=None, scale=alt.Scale(range=[[4, 3]]))
        share = pl.DataFrame({"share": [fair_share], "reference": [label]})
        rule = alt.Chart(share).mark_rule(strokeDash=[4, 3], color="gray")
        layers.append(rule.encode(x="share:Q", strokeDash=dash))
    height = 40 * frame[category].n_unique() + 40
    return alt.layer(*layers).properties(
        width=WIDTH - 60, height=height, title=_titled(title), padding=PADDING
    )
