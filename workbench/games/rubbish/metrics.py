"""Rubbish Auction's own balance metrics (``GAME_METRICS``, ``game_metrics``): one value per
game from the ``simulate`` frames. The starting auctioneer's advantage is the bench's common
``first_seat_advantage`` (seat 0 starts under the rulebook).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from workbench.metrics import GameMetric

GAME_METRICS: tuple[GameMetric, ...] = (
    GameMetric(
        "winner_cheapskate_rate", "mean",
        "share of rounds in which the game's winner was the cheapskate (averaged over joint "
        "winners); 1/players is an even share",
    ),
    GameMetric(
        "empty_cheapskate_rate", "mean",
        "share of rounds whose cheapskate bid nothing (a bid total of 0)",
    ),
    GameMetric(
        "discarded_items", "mean",
        "items per game whose winner overspent and discarded them (the 'discard' reading)",
    ),
    GameMetric("destined_items_won", "mean", "destined items won per game, all seats together"),
    GameMetric(
        "first_bidder_win_rate", "mean",
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
    """One row per game: ``game`` and each metric, from the ``simulate`` frames of one run."""
    players = int(games["seat"].max()) + 1
    count = games.height // players
    played = rounds.height // max(count * players, 1)
    if not _in_order(games, rounds, players, played):
        games, rounds = games.sort("game", "seat"), rounds.sort("game", "round", "seat")
        if not _in_order(games, rounds, players, played):
            raise ValueError(
                "game_metrics needs one games row per game × seat and one rounds row per game "
                f"× round × seat; got {games.height} and {rounds.height} rows"
            )
    ids = games["game"].to_numpy()[::players]

    def seats(column: str) -> np.ndarray:
        return games[column].to_numpy().astype(np.int64).reshape(count, players)

    role = rounds["role"]
    winner_rows = _one_per_round(_is(role, "winner"), players, "winner")
    cheapskate_rows = _one_per_round(_is(role, "cheapskate"), players, "cheapskate")
    winner = (winner_rows % players).reshape(count, played)
    cheapskate = (cheapskate_rows % players).reshape(count, played)
    first_bidder_won = (rounds["position"].to_numpy()[winner_rows] == 0).reshape(count, played)
    empty = (rounds["bid_total"].to_numpy()[cheapskate_rows] == 0).reshape(count, played)
    won = seats("rank") == 1
    times = seats("times_cheapskate")
    auctioneer_won = winner[:, 1:] == cheapskate[:, :-1]
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


def _in_order(games: pl.DataFrame, rounds: pl.DataFrame, players: int, played: int) -> bool:
    """Are the frames sorted (games by game, seat; rounds by game, round, seat) with every
    game holding every seat, and every game ``played`` rounds?"""
    count = games.height // players
    if count * players != games.height or count * played * players != rounds.height or not count:
        return False
    game = games["game"].to_numpy().reshape(count, players)
    ids = game[:, 0]
    shape = (count, played, players)
    numbers = rounds["round"].to_numpy().reshape(shape)
    return bool(
        (np.diff(ids) > 0).all()
        and (game == ids[:, None]).all()
        and (games["seat"].to_numpy().reshape(count, players) == np.arange(players)).all()
        and (rounds["game"].to_numpy().reshape(count, -1) == ids[:, None]).all()
        and (rounds["seat"].to_numpy().reshape(shape) == np.arange(players)).all()
        and (numbers == numbers[:, :, :1]).all()
        and (np.diff(numbers[:, :, 0].astype(np.int64), axis=1) > 0).all()
    )


def _is(role: pl.Series, name: str) -> np.ndarray:
    """Rows whose role is ``name`` (on the Enum's codes when it is one: fast)."""
    if isinstance(role.dtype, pl.Enum):
        code = role.dtype.categories.to_list().index(name)
        return role.to_physical().to_numpy() == code
    return (role.cast(pl.String) == name).to_numpy()


def _one_per_round(mask: np.ndarray, players: int, name: str) -> np.ndarray:
    """Row index of the one ``name`` in each round (rounds in order, ``players`` rows each)."""
    rows = np.flatnonzero(mask)
    if rows.size * players != mask.size or not (rows // players == np.arange(rows.size)).all():
        raise ValueError(f"every round must have exactly one {name} in the rounds frame")
    return rows


__all__ = ["COMMON_RANDOMNESS", "GAME_METRICS", "game_metrics"]
