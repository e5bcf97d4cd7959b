"""The shared budget auction's own balance metrics (``GAME_METRICS``, ``game_metrics``): pure
functions of the ``simulate`` frames, one value per game, summarised over games by the
designer's bench."""

from __future__ import annotations

import polars as pl

from workbench.metrics import GameMetric

GAME_METRICS: tuple[GameMetric, ...] = (
    GameMetric("priority_advantage", "mean", "win share of the team first in round 1's tie "
               "priority, minus the fair share 1/teams"),
    GameMetric("priority_decided_rate", "mean",
               "share of rounds whose top bid was tied, so the tie priority gave the card"),
    GameMetric("unallocated_cards", "mean", "cards per game nobody bid on (unsold)"),
    GameMetric("budget_tiebreak_rate", "proportion", "share of games whose top score was tied "
               "and the remaining budget picked a sole winner"),
    GameMetric("budget_left", "mean", "credits left unspent per team at the end"),
    GameMetric("invalid_bid_rate", "mean",
               "share of written bids that were unreadable or over budget and read as a pass"),
)  # fmt: skip

#: What game g of two rule sets run with the same seed share (see docs/design.md).
COMMON_RANDOMNESS = (
    "game g's state and each seat's agent draw from streams of (seed, g) and (seed, g, seat), "
    "the same for both rule sets; the draws stay aligned while the agents make the same number "
    "of random choices"
)


def game_metrics(games: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``game`` and each metric of ``GAME_METRICS``, from ``simulate`` frames
    of one run (any row order)."""
    per_round = rounds.group_by("game", "round").agg(
        top=pl.col("bid").max(), at_top=(pl.col("bid") == pl.col("bid").max()).sum(),
        invalid=pl.col("invalid").sum(), bids=pl.len(),
    )  # fmt: skip
    by_round = per_round.group_by("game").agg(
        priority_decided_rate=((pl.col("top") > 0) & (pl.col("at_top") > 1)).mean(),
        unallocated_cards=(pl.col("top") <= 0).sum().cast(pl.Float64),
        invalid_bid_rate=pl.col("invalid").sum() / pl.col("bids").sum(),
    )
    first_round = rounds.filter(pl.col("round") == pl.col("round").min().over("game"))
    priority_seat = first_round.filter(pl.col("priority_rank") == 1).select("game", "seat")
    by_game = games.group_by("game").agg(
        teams=pl.len(), top_tied=(pl.col("score") == pl.col("score").max()).sum() > 1,
        winners=(pl.col("rank") == 1).sum(),
        budget_left=pl.col("budget_left").cast(pl.Float64).mean(),
    )  # fmt: skip
    priority_share = games.join(priority_seat, on=["game", "seat"], how="semi").select(
        "game", priority_share="win_share"
    )
    return (
        by_game.join(by_round, on="game", how="left")
        .join(priority_share, on="game", how="left")
        .select(
            "game",
            priority_advantage=pl.when(pl.col("teams") > 1).then(
                pl.col("priority_share") - 1.0 / pl.col("teams")
            ),
            priority_decided_rate=pl.col("priority_decided_rate").cast(pl.Float64),
            unallocated_cards="unallocated_cards",
            budget_tiebreak_rate=(pl.col("top_tied") & (pl.col("winners") == 1)).cast(pl.Float64),
            budget_left="budget_left",
            invalid_bid_rate=pl.col("invalid_bid_rate").cast(pl.Float64),
        )
        .sort("game")
    )


__all__ = ["COMMON_RANDOMNESS", "GAME_METRICS", "game_metrics"]
