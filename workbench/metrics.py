"""Metrics over tidy result frames (one row per game × seat), shared by every game.

Each estimate comes with its sample size and a 95% interval: these are simulations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import polars as pl

from workbench.stats import mean_interval

METRIC_KINDS = ("proportion", "mean")


class GameMetric(NamedTuple):
    """A game's own balance metric (cheapskate rate, kitty carry-over rate, ...), a column of
    its record's ``game_metrics`` frame, summarised over games: ``kind`` "proportion" when each
    game's value is 0 or 1 (Wilson interval), "mean" otherwise (t interval). ``description``
    says what the number is, in words a designer reads."""

    name: str
    kind: str
    description: str


def mean_with_interval(
    frame: pl.DataFrame, column: str, by: str | Sequence[str], confidence: float = 0.95
) -> pl.DataFrame:
    """Per group: n, mean of ``column``, and a Student t interval (``low``, ``high``)."""
    keys = [by] if isinstance(by, str) else list(by)
    missing = [name for name in [*keys, column] if name not in frame.columns]
    if missing:
        raise ValueError(f"columns {missing} are not in the frame; it has {frame.columns}")
    rows = []
    for key, group in frame.group_by(keys, maintain_order=True):
        mean, low, high = mean_interval(group[column].to_numpy(), confidence)
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "n": group.height,
                "mean": mean,
                "low": low,
                "high": high,
            }
        )
    return pl.DataFrame(rows).sort(keys)


def win_rates(games: pl.DataFrame, by: str | Sequence[str] = "agent") -> pl.DataFrame:
    """Share of wins per group (a k-way shared win counts 1/k) with a 95% interval.

    ``games`` is a simulate() games frame with a ``win_share`` column. When it has a ``game``
    column, games are the independent units: a group's seats in one game (three random seats,
    say) are averaged first, so ``n`` counts games and the t interval does not treat seats of
    one game, whose shares add up to 1, as independent draws.
    """
    keys = [by] if isinstance(by, str) else list(by)
    if "game" in games.columns and "game" not in keys:
        missing = [name for name in [*keys, "win_share"] if name not in games.columns]
        if missing:
            raise ValueError(f"columns {missing} are not in the frame; it has {games.columns}")
        games = games.group_by([*keys, "game"], maintain_order=True).agg(pl.col("win_share").mean())
    return mean_with_interval(games, "win_share", keys).rename({"mean": "win_rate"})
