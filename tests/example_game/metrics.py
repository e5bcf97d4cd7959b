"""The example game's own balance metrics: one value per game, from the ``simulate`` frames."""

from __future__ import annotations

import polars as pl

from workbench.metrics import GameMetric

GAME_METRICS: tuple[GameMetric, ...] = (
    GameMetric("mean_price", "mean", "average price paid per item sold (unsold items aside)"),
    GameMetric("tie_rate", "mean", "share of items whose top positive bid was tied"),
    GameMetric("efficient_rate", "mean", "share of items won by a seat valuing them most"),
)
COMMON_RANDOMNESS = ("the same values (while players, items and max_value are unchanged) and "
                     "the same draws at every decision of every seat's agent")


def game_metrics(games: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``game`` and each metric of ``GAME_METRICS``."""
    per_item = rounds.group_by("game", "round").agg(
        sold=pl.col("won_item").any(), price=pl.col("paid").max(),
        tied=pl.col("top_tied").first(),
        efficient=(pl.col("won_item") & (pl.col("value") == pl.col("value").max())).any(),
    )  # fmt: skip
    return per_item.group_by("game").agg(
        mean_price=pl.col("price").filter(pl.col("sold")).mean(),
        tie_rate=pl.col("tied").cast(pl.Float64).mean(),
        efficient_rate=pl.col("efficient").cast(pl.Float64).mean(),
    ).sort("game")
