"""Altair charts for the shared budget auction: each takes a tidy polars frame from
``analysis`` and returns a chart; nothing is computed here."""

from __future__ import annotations

import altair as alt
import polars as pl

from workbench.charts import WIDTH, check_frame, interval_tooltip

#: One colour per team, the same in every chart.
TEAM_COLOURS = {"A": "#1f77b4", "B": "#d62728", "C": "#2ca02c", "D": "#9467bd"}


def _team_colour(frame: pl.DataFrame, title: str = "team") -> alt.Color:
    """Colour by team, the same colours in every chart (so charts can be concatenated), with
    only the teams present in the legend."""
    teams = sorted(frame["team"].unique().to_list())
    scale = alt.Scale(domain=list(TEAM_COLOURS), range=list(TEAM_COLOURS.values()))
    return alt.Color("team:N", scale=scale, title=title, legend=alt.Legend(values=teams))


def _card_order(frame: pl.DataFrame, card: str = "card", by: str = "round") -> list[str]:
    """The cards of ``frame``'s column ``card`` in the order of column ``by``."""
    return frame.sort(by)[card].unique(maintain_order=True).to_list()


def bid_distribution_chart(
    distributions: pl.DataFrame, *, max_bid: int | None = None
) -> alt.FacetChart:
    """Equilibrium bid distribution of each team on each card (``analysis.bid_distributions``),
    one panel per card in offer order, bids 0..max_bid (default the largest)."""
    check_frame(distributions, ["card", "round", "team", "bid", "probability"],
                "bid_distribution_chart")  # fmt: skip
    top = int(distributions["bid"].max()) if max_bid is None else max_bid
    every_bid = list(range(top + 1))
    base = alt.Chart(distributions).encode(
        x=alt.X(
            "bid:O",
            scale=alt.Scale(domain=every_bid),
            title="bid",
            axis=alt.Axis(values=every_bid[::5], labelAngle=0),
        ),
        xOffset=alt.XOffset("team:N"),
        y=alt.Y("probability:Q", scale=alt.Scale(domain=[0, 1]), title="probability"),
        color=_team_colour(distributions),
        tooltip=["card:N", "team:N", "bid:Q", alt.Tooltip("probability:Q", format=".3f")],
    )
    return (
        base.mark_bar()
        .properties(width=WIDTH // 3, height=120)
        .facet(facet=alt.Facet("card:N", sort=_card_order(distributions), title=None), columns=3)
        .properties(title="Equilibrium bids on each card (equilibrium play)")
    )


def bid_heatmap(
    bids: pl.DataFrame,
    *,
    value: str = "bid",
    column: str = "team",
    heading: str | None = None,
    value_title: str | None = None,
) -> alt.FacetChart:
    """``value`` ("bid", or "optimal_low": the least safe bid) for every budget pair on one card
    (``analysis.equilibrium_bids``), one panel per ``column`` value."""
    check_frame(bids, ["card", "budget_a", "budget_b", "team", "value", value, column],
                "bid_heatmap")  # fmt: skip
    card = bids["card"][0]
    heading = f"Equilibrium bid on {card}, by team" if heading is None else heading
    legend = value_title or {"bid": "bid", "optimal_low": "least safe bid"}.get(value, value)
    ticks = sorted(bids["budget_b"].unique().to_list())[::5]
    return (
        alt.Chart(bids)
        .mark_rect()
        .encode(
            x=alt.X("budget_b:O", title="B's budget", axis=alt.Axis(labelAngle=0, values=ticks)),
            y=alt.Y("budget_a:O", sort="descending", title="A's budget"),
            color=alt.Color(f"{value}:Q", scale=alt.Scale(scheme="viridis"), title=legend),
            tooltip=["budget_a:Q", "budget_b:Q", "team:N",
                     alt.Tooltip(f"{value}:Q", format=".2f"), "value:Q"],
        )
        .properties(width=WIDTH // 2, height=WIDTH // 2)
        .facet(column=alt.Column(f"{column}:N", title=heading))
    )


def value_heatmap(values: pl.DataFrame) -> alt.Chart:
    """A's value (1 win, 1/2 shared, 0 loss) for every pair of starting budgets
    (``analysis.start_values``)."""
    check_frame(values, ["budget_a", "budget_b", "value"], "value_heatmap")
    return (
        alt.Chart(values)
        .mark_rect()
        .encode(
            x=alt.X("budget_b:O", title="B's starting budget"),
            y=alt.Y("budget_a:O", sort="descending", title="A's starting budget"),
            color=alt.Color(
                "value:Q", scale=alt.Scale(domain=[0, 1], scheme="redblue"), title="A's value"
            ),
            tooltip=["budget_a:Q", "budget_b:Q", "value:Q"],
        )
        .properties(width=WIDTH, height=WIDTH, title="Value of the game for A, by budgets")
    )


def value_by_budget_chart(values: pl.DataFrame) -> alt.Chart:
    """A's value at equal budgets with A or B first in the tie priority
    (``analysis.value_by_budget``)."""
    check_frame(values, ["budget", "value_a_first", "value_b_first"], "value_by_budget_chart")
    long = values.unpivot(index="budget", on=["value_a_first", "value_b_first"],
                          variable_name="priority", value_name="value").with_columns(
        pl.col("priority").replace({"value_a_first": "A first", "value_b_first": "B first"})
    )
    return (
        alt.Chart(long)
        .mark_line(point=True)
        .encode(
            x=alt.X("budget:Q", title="starting budget (both teams)"),
            y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title="A's value"),
            color=alt.Color("priority:N", title="round 1 priority"),
            strokeDash=alt.StrokeDash("priority:N"),
            tooltip=["budget:Q", "priority:N", "value:Q"],
        )
        .properties(width=WIDTH, height=200, title="Value for A as the budget changes")
    )


def variant_chart(variants: pl.DataFrame, *, title: str) -> alt.LayerChart:
    """A's value under each rule variant (``analysis.variant_values``)."""
    check_frame(variants, ["variant", "value", "functions"], "variant_chart")
    base = alt.Chart(variants).encode(
        y=alt.Y("variant:N", sort=None, title=None),
        x=alt.X("value:Q", scale=alt.Scale(domain=[0, 1]), title="A's value"),
        tooltip=["variant:N", "value:Q", "functions:N"],
    )
    stems = base.mark_bar(size=3, color="#9ecae1")
    return (stems + base.mark_point(filled=True, size=80)).properties(width=WIDTH, title=title)


def _interval_chart(
    frame: pl.DataFrame, y: str, title: str, subtitle: list[str] | None = None
) -> alt.LayerChart:
    base = alt.Chart(frame).encode(y=alt.Y(f"{y}:N", title=None), color=_team_colour(frame))
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X("win_share:Q", scale=alt.Scale(domain=[0, 1]), title="win share"),
        tooltip=[f"{y}:N", "team:N", "games:Q",
                 *interval_tooltip("win_share", number_format=".3f")],
    )
    bars = base.mark_rule(strokeWidth=2).encode(x="low:Q", x2="high:Q")
    key = ["dots: win share (a shared result counts 1/k), lines: 95% interval", *(subtitle or [])]
    return (bars + points).properties(width=WIDTH, title=alt.Title(title, subtitle=key))


def seat_results_chart(results: pl.DataFrame, *, title: str) -> alt.LayerChart:
    """Win share by seat with 95% intervals and the even share as a dashed line
    (``analysis.seat_results``)."""
    check_frame(results, ["team", "agent", "games", "win_share", "low", "high"],
                "seat_results_chart")  # fmt: skip
    labelled = results.with_columns(
        (pl.col("team") + " (" + pl.col("agent") + ")").alias("seat_label")
    )
    teams = labelled.height
    line = alt.Chart(
        alt.Data(values=[{"even": 1 / teams, "label": f"even share 1/{teams}"}])
    )
    even = line.mark_rule(color="grey", strokeDash=[4, 3]).encode(x="even:Q")
    label = line.mark_text(align="left", baseline="bottom", dx=4, dy=-3, color="grey").encode(
        x="even:Q", y=alt.value(0), text="label:N"
    )
    return _interval_chart(labelled, "seat_label", title) + even + label


def versus_equilibrium_chart(versus: pl.DataFrame) -> alt.LayerChart:
    """Each agent's win share against the equilibrium agent, by seat, with the seat's
    equilibrium value as a tick (``analysis.versus_equilibrium``)."""
    check_frame(versus, ["team", "agent", "games", "win_share", "low", "high", "seat_value"],
                "versus_equilibrium_chart")  # fmt: skip
    labelled = versus.with_columns((pl.col("agent") + " as " + pl.col("team")).alias("matchup"))
    intervals = _interval_chart(
        labelled, "matchup", "Against the equilibrium agent",
        ["black ticks: the seat's value under best play (the most it can expect)"],
    )  # fmt: skip
    ticks = (
        alt.Chart(labelled)
        .mark_tick(color="black", thickness=2, size=18)
        .encode(y=alt.Y("matchup:N"), x=alt.X("seat_value:Q"), tooltip=["seat_value:Q"])
    )
    return intervals + ticks


_SHIFT_KEY = "dots: mean shift, lines: 95% interval, dashed: no shift"


def purchase_effects_chart(
    effects: pl.DataFrame, *, title: str = "How an early purchase shifts later bids"
) -> alt.FacetChart:
    """How buying an early card shifts a team's later bids (``analysis.purchase_effects``):
    mean shift per later card, with 95% intervals, one panel per early card."""
    needed = ["early_card", "early_round", "later_card", "later_round", "shift", "low", "high",
              "bought_n", "other_n"]  # fmt: skip
    check_frame(effects, needed, "purchase_effects_chart")
    base = alt.Chart(effects).encode(
        y=alt.Y("later_card:N", sort=_card_order(effects, "later_card", "later_round"),
                title="later card"),
    )
    points = base.mark_point(filled=True, size=50).encode(
        x=alt.X("shift:Q", title="later bid of buyers minus others (credits)"),
        tooltip=["early_card:N", "later_card:N", alt.Tooltip("shift:Q", format=".2f"),
                 "bought_n:Q", "other_n:Q"],
    )
    rules = base.mark_rule(strokeWidth=2).encode(x="low:Q", x2="high:Q")
    zero = alt.Chart(effects).mark_rule(color="grey", strokeDash=[3, 3]).encode(x=alt.datum(0))
    return (
        (zero + rules + points)
        .properties(width=WIDTH // 2, height=110)
        .facet(
            facet=alt.Facet("early_card:N", sort=_card_order(effects, "early_card", "early_round"),
                            title="bought early"),
            columns=3,
        )
        .properties(title=alt.Title(title, subtitle=_SHIFT_KEY, anchor="start"))
    )


def stage_chart(
    stage_frame: pl.DataFrame, *, title: str | None = None, subtitle: str | list[str] = ""
) -> alt.Chart:
    """Both teams' equilibrium bid distributions at one position
    (``analysis.stage_table``); the title says the value for A unless given."""
    check_frame(stage_frame, ["team", "bid", "probability", "value"], "stage_chart")
    value = stage_frame["value"][0]
    heading = f"Equilibrium bids; value for A = {value:.3f}" if title is None else title
    return (
        alt.Chart(stage_frame)
        .mark_bar()
        .encode(
            x=alt.X("bid:O", title="bid", axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("team:N"),
            y=alt.Y("probability:Q", scale=alt.Scale(domain=[0, 1])),
            color=_team_colour(stage_frame),
            tooltip=["team:N", "bid:Q", alt.Tooltip("probability:Q", format=".3f")],
        )
        .properties(width=WIDTH, height=160,
                    title=alt.Title(heading, subtitle=subtitle) if subtitle else heading)
    )
