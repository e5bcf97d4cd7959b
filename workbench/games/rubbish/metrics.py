"""Rubbish Auction's own balance metrics (``GAME_METRICS``, ``game_metrics``): pure functions of
the ``simulate`` frames, one value per game, summarised over games by the designer's bench.

Every round has exactly one winner (highest bid, ties to the bidder nearest the First Bidder)
and one cheapskate (lowest bid, ties to the bidder furthest from the First Bidder), who gains no
fame and is the next round's auctioneer.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from workbench.metrics import GameMetric

GAME_METRICS: tuple[GameMetric, ...] = (
    GameMetric(
        "winner_cheapskate_rate",
        "mean",
        "share of rounds in which the game's winner was the cheapskate (averaged over joint "
        "winners); 1/players is an even share",
    ),
    GameMetric(
        "empty_cheapskate_rate",
        "mean",
        "share of rounds whose cheapskate bid nothing (a bid total of 0)",
    ),
    GameMetric(
        "discarded_items",
        "mean",
        "items per game whose winner overspent and discarded them (the 'discard' reading)",
    ),
    GameMetric("destined_items_won", "mean", "destined items won per game, all seats together"),
    GameMetric(
        "first_bidder_win_rate",
        "mean",
        "share of rounds won by the First Bidder (who wins ties for the highest bid)",
    ),
    GameMetric(
        "auctioneer_win_rate",
        "mean",
        "share of rounds 2 onward won by that round's auctioneer (the previous cheapskate, who "
        "chose the item and the First Bidder)",
    ),
)

#: What game g of two rule sets run with the same seed share (see docs/design.md).
COMMON_RANDOMNESS = (
    "fast engine: game g of a batch gets the same geek deal and the same uniform draw at every "
    "decision while the seat count and the number of items are unchanged; step engine: the same "
    "deal stream and per-seat agent streams"
)


def game_metrics(games: pl.DataFrame, rounds: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``game`` and each metric of ``GAME_METRICS``.

    ``games`` and ``rounds`` are ``simulate`` frames of one run, in any row order; uses the
    games frame's rank, items_won, destined_won and times_cheapskate and the rounds frame's
    role, position and bid_total.
    """
    games = games.sort("game", "seat") if not _in_order(games, "game", "seat") else games
    if not _in_order(rounds, "game", "round", "seat"):
        rounds = rounds.sort("game", "round", "seat")
    ids = np.unique(games["game"].to_numpy())
    count, players = ids.size, games.height // max(ids.size, 1)
    played = rounds.height // max(count * players, 1)
    if games.height != count * players or rounds.height != count * played * players:
        raise ValueError(
            "game_metrics needs one games row per game × seat and one rounds row per game × "
            f"round × seat; got {games.height} and {rounds.height} rows for {count} games"
        )

    def seats(column: str) -> np.ndarray:
        return games[column].to_numpy().astype(np.int64).reshape(count, players)

    def table(column: str) -> np.ndarray:
        return rounds[column].to_numpy().astype(np.int64).reshape(count, played, players)

    roles = rounds.select(winner=pl.col("role") == "winner", cheap=pl.col("role") == "cheapskate")
    shape = (count, played, players)
    winner = np.argmax(roles["winner"].to_numpy().reshape(shape), axis=2)  # one per round
    cheapskate = np.argmax(roles["cheap"].to_numpy().reshape(shape), axis=2)
    pick = (np.arange(count)[:, None], np.arange(played)[None, :])
    first_bidder_won = table("position")[(*pick, winner)] == 0
    empty = table("bid_total")[(*pick, cheapskate)] == 0
    auctioneer_won = winner[:, 1:] == cheapskate[:, :-1]
    won = seats("rank") == 1
    times = seats("times_cheapskate")
    return pl.DataFrame(
        {
            "game": ids,
            "winner_cheapskate_rate": (times * won).sum(axis=1) / won.sum(axis=1) / played,
            "empty_cheapskate_rate": empty.mean(axis=1),
            "discarded_items": (played - seats("items_won").sum(axis=1)).astype(float),
            "destined_items_won": seats("destined_won").sum(axis=1).astype(float),
            "first_bidder_win_rate": first_bidder_won.mean(axis=1),
            "auctioneer_win_rate": (
                auctioneer_won.mean(axis=1) if played > 1 else np.full(count, np.nan)
            ),
        }
    )


def _in_order(frame: pl.DataFrame, *columns: str) -> bool:
    """Are the rows sorted by ``columns`` (first most significant)?"""
    if frame.height < 2:
        return True
    keys = [frame[c].to_numpy().astype(np.int64) for c in columns]
    ascending = np.ones(frame.height - 1, bool)
    decided = np.zeros(frame.height - 1, bool)
    for key in keys:
        step = np.diff(key)
        ascending &= decided | (step >= 0)
        decided |= step > 0
    return bool(ascending.all())


__all__ = ["COMMON_RANDOMNESS", "GAME_METRICS", "game_metrics"]
