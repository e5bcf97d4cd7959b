"""The kitty explorer, built on ``workbench.widgets.Explorer``: pick a line-up and the rule
options, and the kitty outcomes are re-simulated (``explorer.set(...)`` in a test)."""

from __future__ import annotations

import altair as alt
import ipywidgets as widgets
import polars as pl

from workbench.checks import instance_or_default, whole_number
from workbench.games.auction_house.charts import kitty_value_chart, win_by_tricks_chart
from workbench.games.auction_house.kitty import (
    kitty_outcomes,
    kitty_summary,
    kitty_value_distribution,
    win_by_tricks,
)
from workbench.games.auction_house.rules import MAX_DEALS, TRUMP_REVEALS, Rules
from workbench.widgets import Explorer

#: Line-ups the explorer offers (seats 0-3); the determinization agent is too slow to re-run
#: on every change.
LINEUPS = {
    "heuristic": ["heuristic"] * 4,
    "random": ["random"] * 4,
    "heuristic vs random": ["heuristic", "random", "heuristic", "random"],
    "one heuristic, three random": ["heuristic", "random", "random", "random"],
}


def kitty_explorer(rules: Rules | None = None, *, games: int = 500, seed: int = 0) -> Explorer:
    """Choose the line-up, when trump is revealed, deals per game and games: the kitty
    outcomes are re-simulated (about a second for 500 games) and shown as the distribution of
    points at stake, P(winning the kitty | tricks) with 95% intervals, and the summary table."""
    rules = instance_or_default("rules", rules, Rules, Rules, "an auction_house Rules or None")
    games, seed = whole_number("games", games, low=1), whole_number("seed", seed, low=0)
    controls = {
        "lineup": widgets.Dropdown(options=list(LINEUPS), value="heuristic", description="seats"),
        "trump_reveal": widgets.Dropdown(
            options=list(TRUMP_REVEALS), value=rules.trump_reveal, description="trump shown"
        ),
        "deals": widgets.IntSlider(value=rules.deals, min=1, max=MAX_DEALS,
                                   description="deals/game", continuous_update=False),
        "games": widgets.IntSlider(value=games, min=100, max=5000, step=100,
                                   description="games", continuous_update=False),
    }  # fmt: skip

    def compute(lineup: str, trump_reveal: str, deals: int,
                games: int) -> tuple[pl.DataFrame, alt.TopLevelMixin]:  # fmt: skip
        if lineup not in LINEUPS:
            raise ValueError(f"unknown line-up {lineup!r}; line-ups: {', '.join(LINEUPS)}")
        variant = rules.replace(trump_reveal=trump_reveal, deals=deals)
        outcomes = kitty_outcomes(variant, LINEUPS[lineup], deals=games * deals, seed=seed)
        name = f"{lineup}, trump {trump_reveal.replace('_', ' ')}, {deals} deals/game"
        stakes = kitty_value_chart(kitty_value_distribution(outcomes), title="Points at stake")
        wins = win_by_tricks_chart(win_by_tricks(outcomes), title="Who wins the kitty")
        chart = alt.hconcat(stakes.properties(width=300), wins.properties(width=300))
        chart = chart.properties(title=f"{name}, {games:,} games (seed {seed})")
        return kitty_summary(outcomes), chart

    return Explorer(controls, compute, title="Kitty outcomes", pick=("tricks",))


__all__ = ["LINEUPS", "kitty_explorer"]
