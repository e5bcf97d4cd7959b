"""Auction House's own balance metrics, one value per game (games are the independent units:
see ``workbench.metrics.GameMetric``)."""

from __future__ import annotations

import numpy as np
import polars as pl

from workbench.metrics import GameMetric

GAME_METRICS = (
    GameMetric(
        "carry_over_rate",
        "mean",
        "share of the game's deals whose kitty was tied for (carried over, or lost at the end)",
    ),
    GameMetric(
        "points_lost", "mean", "kitty points lost to a tie for most tricks in the last deal"
    ),
    GameMetric("last_kitty_lost", "proportion", "the last deal's kitty was lost to a tie"),
    GameMetric("auctions", "mean", "deals of the game in which someone started the auction"),
    GameMetric("longest_chain", "mean", "the longest run of consecutive tied deals in the game"),
    GameMetric("winning_score", "mean", "the winner's score"),
    GameMetric("shared_win", "proportion", "two or more seats tied for the highest score"),
)


def game_metrics(games: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``game`` and one column per metric of ``GAME_METRICS`` (from the
    ``simulate`` frames; run simulate with rounds=True)."""
    for name, frame, needed in (
        ("games", games, ("game", "score", "won", "points_lost")),
        ("rounds", rounds, ("game", "round", "auction_role", "carried_out", "lost")),
    ):
        if not isinstance(frame, pl.DataFrame):
            raise TypeError(f"{name} must be a simulate() {name} frame, got {type(frame).__name__}")
        missing = [c for c in needed if c not in frame.columns]
        if missing:
            raise ValueError(f"the {name} frame lacks columns {missing}; it has {frame.columns}")
    per_deal = (
        rounds.group_by("game", "round")
        .agg(
            tied=((pl.col("carried_out") > 0) | (pl.col("lost") > 0)).first(),
            auction=(pl.col("auction_role") == "starter").any(),
        )
        .sort("game", "round")
    )
    game_ids = per_deal["game"].unique(maintain_order=True)
    deals = per_deal.height // max(len(game_ids), 1)
    if deals * len(game_ids) != per_deal.height:
        raise ValueError("every game of the rounds frame must have all its deals")
    tied = per_deal["tied"].to_numpy().reshape(len(game_ids), deals)
    run = np.zeros(len(game_ids), np.int64)
    longest = np.zeros(len(game_ids), np.int64)
    for d in range(deals):
        run = np.where(tied[:, d], run + 1, 0)
        longest = np.maximum(longest, run)
    by_game = pl.DataFrame(
        {
            "game": game_ids,
            "carry_over_rate": tied.mean(axis=1),
            "auctions": per_deal["auction"].to_numpy().reshape(len(game_ids), deals).sum(axis=1),
            "longest_chain": longest,
        }
    )
    final = games.group_by("game").agg(
        points_lost=pl.col("points_lost").first().cast(pl.Int64),
        last_kitty_lost=pl.col("points_lost").first() > 0,
        winning_score=pl.col("score").max().cast(pl.Int64),
        shared_win=pl.col("won").sum() > 1,
    )
    return (
        final.join(by_game, on="game")
        .select("game", *(metric.name for metric in GAME_METRICS))
        .sort("game")
    )
