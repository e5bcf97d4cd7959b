"""Going, Going, GONE!'s own balance metrics over simulate()'s frames (one value per game)."""

from __future__ import annotations

import polars as pl

from workbench.metrics import GameMetric

GAME_METRICS = (
    GameMetric("discarded_lots", "mean", "lots nobody bid on (discarded) per game"),
    GameMetric(
        "unsold_items", "mean", "items still held by all players at the end, scored as collections"
    ),
    GameMetric("sales", "mean", "collections sold per game, all players together"),
    GameMetric(
        "bucks_spent_share",
        "mean",
        "share of all Bucks players had (starting Bucks plus sale income) paid for lots",
    ),
    GameMetric(
        "shared_win", "proportion", "the game ended in a tie for first place (the win is shared)"
    ),
    GameMetric("first_auctioneer_won", "proportion", "the first Auctioneer is among the winners"),
)


def game_metrics(games: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``game`` and one column per metric in ``GAME_METRICS``, from
    ``simulate()``'s games and rounds frames (discarded lots and the first Auctioneer)."""
    if rounds is None:
        raise ValueError("game_metrics needs the rounds frame: simulate(..., rounds=True)")
    needed = {
        "games": (games, ("game", "seat", "won", "bucks", "items_held", "sales", "spent")),
        "rounds": (rounds, ("game", "round", "seat", "is_auctioneer", "lots_discarded")),
    }
    for name, (frame, columns) in needed.items():
        missing = [c for c in columns if c not in frame.columns]
        if missing:
            raise ValueError(f"the {name} frame lacks columns {missing}; pass simulate()'s frames")
    spent = pl.col("spent").cast(pl.Int64)
    per_game = games.group_by("game").agg(
        pl.col("items_held").cast(pl.Int64).sum().alias("unsold_items"),
        pl.col("sales").cast(pl.Int64).sum().alias("sales"),
        # Bucks end = start - spent + sale income, so start + income = Bucks end + spent
        (spent.sum() / (pl.col("bucks").cast(pl.Int64) + spent).sum()).alias("bucks_spent_share"),
        (pl.col("won").sum() > 1).alias("shared_win"),
    )
    discarded = (
        rounds.filter(pl.col("seat") == 0)
        .group_by("game")
        .agg(pl.col("lots_discarded").cast(pl.Int64).sum().alias("discarded_lots"))
    )
    first = rounds.filter((pl.col("round") == 1) & pl.col("is_auctioneer")).select(
        "game", pl.col("seat").alias("first_auctioneer")
    )
    winners = games.filter(pl.col("won")).select("game", pl.col("seat").alias("first_auctioneer"))
    first_won = first.join(winners, on=["game", "first_auctioneer"], how="semi").select(
        "game", pl.lit(True).alias("first_auctioneer_won")
    )
    return (
        per_game.join(discarded, on="game")
        .join(first_won, on="game", how="left")
        .with_columns(pl.col("first_auctioneer_won").fill_null(False))
        .select("game", *(metric.name for metric in GAME_METRICS))
        .sort("game")
    )
