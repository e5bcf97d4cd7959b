"""Summaries of self-play frames: prices paid by lot size and round, win rates by seat and by
turns as Auctioneer, and how often ties decide a lot. Each is an estimate with its sample size
and a 95% interval, games being the independent units (a k-way shared win counts 1/k).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from workbench.games.going_gone.game import simulate
from workbench.games.going_gone.rules import Rules
from workbench.kit.seeding import SeedLike, derive_seed
from workbench.metrics import mean_with_interval, win_rates


def simulate_lineups(
    lineups: Mapping[str, Any], rules: Rules | None = None, *, games: int, seed: SeedLike
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``simulate`` each named line-up (anything ``simulate`` accepts as ``agents``) for
    ``games`` games: (games frame, lots frame), each with a ``lineup`` column. Line-up ``i``
    plays seed stream ``(seed, i)``, so adding a line-up never changes another's games."""
    if not lineups:
        raise ValueError("lineups must name at least one line-up, e.g. {'valuation': 'valuation'}")
    games_parts, lots_parts = [], []
    for index, (name, agents) in enumerate(lineups.items()):
        stream = derive_seed(seed, index)
        games_frame, _, lots_frame = simulate(
            rules, agents, games=games, seed=stream, progress=False, rounds=False, lots=True
        )
        label = pl.lit(str(name)).alias("lineup")
        games_parts.append(games_frame.with_columns(label))
        lots_parts.append(lots_frame.with_columns(label))
    return pl.concat(games_parts), pl.concat(lots_parts)


def _require(frame: pl.DataFrame, columns: tuple[str, ...], what: str) -> None:
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"the {what} frame must be a polars DataFrame (simulate()'s {what}), got "
                        f"{type(frame).__name__}")  # fmt: skip
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"the {what} frame lacks columns {missing}; pass simulate()'s {what}")


def prices(lots: pl.DataFrame) -> pl.DataFrame:
    """Mean price paid per lot size and round (per line-up if given) over lots won, each game's
    lots averaged first (games are the units): n, mean, low, high, and the share unbid."""
    _require(lots, ("game", "round", "lot_size", "price", "winner"), "lots")
    keys = [*(["lineup"] if "lineup" in lots.columns else []), "lot_size", "round"]
    won = (
        lots.filter(pl.col("winner").is_not_null())
        .group_by([*keys, "game"])
        .agg(pl.col("price").cast(pl.Float64).mean())
        .sort([*keys, "game"])  # a fixed order: identical sums (and numbers) on every run
    )
    summary = mean_with_interval(won, "price", keys)
    discarded = lots.group_by(keys).agg(pl.col("winner").is_null().mean().alias("discarded_share"))
    return summary.join(discarded, on=keys).sort(keys)


def seat_win_rates(games: pl.DataFrame) -> pl.DataFrame:
    """Win rate of every seat (a k-way shared win counts 1/k) with n and a 95% interval, per
    agent line-up label if the frame has a ``lineup`` column."""
    _require(games, ("seat", "win_share"), "games")
    keys = ["lineup", "seat"] if "lineup" in games.columns else ["seat"]
    return win_rates(games, by=keys)


def auctioneer_turn_win_rates(games: pl.DataFrame) -> pl.DataFrame:
    """Win rate by how many rounds a seat held the paddle (``times_auctioneer``), with n and a
    95% interval, per line-up if given."""
    _require(games, ("times_auctioneer", "win_share"), "games")
    keys = ["lineup", "times_auctioneer"] if "lineup" in games.columns else ["times_auctioneer"]
    return win_rates(games, by=keys)


def tie_summary(lots: pl.DataFrame) -> pl.DataFrame:
    """How often the tie rule decides a lot: per line-up if given, the mean number of lots per
    game that were tied and that the Auctioneer took by the tie rule (n games, 95% t
    intervals: games are the independent units)."""
    _require(lots, ("game", "tie", "auctioneer_tie_win"), "lots")
    by = ["lineup"] if "lineup" in lots.columns else []
    per_game = (
        lots.group_by([*by, "game"])
        .agg(
            pl.col("tie").cast(pl.Float64).sum().alias("tied_lots"),
            pl.col("auctioneer_tie_win").cast(pl.Float64).sum().alias("auctioneer_tie_wins"),
        )
        .sort([*by, "game"])  # a fixed order: identical sums on every run
    )
    if not by:
        per_game = per_game.with_columns(pl.lit("all").alias("lineup"))
    tied = mean_with_interval(per_game, "tied_lots", "lineup").with_columns(
        pl.lit("tied lots per game").alias("measure")
    )
    won = mean_with_interval(per_game, "auctioneer_tie_wins", "lineup").with_columns(
        pl.lit("lots the Auctioneer wins on a tie, per game").alias("measure")
    )
    return pl.concat([tied, won]).select("lineup", "measure", "n", "mean", "low", "high")
