"""Building result frames: typed columns from arrays, and rows collected game by game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

#: The games frame's first columns, as the fast engines type them (a game's own follow).
GAME_COLUMNS = {
    "game": pl.Int64,
    "seat": pl.Int8,
    "agent": pl.String,
    "score": pl.Int32,
    "rank": pl.Int8,
    "won": pl.Boolean,
    "win_share": pl.Float64,
}


def agent_column(labels: Sequence[str], seats: np.ndarray, name: str = "agent") -> pl.Series:
    """The agent label of each row's seat."""
    return pl.Series(name, list(labels), dtype=pl.String).gather(seats)

#: The rounds frame's first columns, as the fast engines type them.
ROUND_COLUMNS = {
    "game": pl.Int64,
    "round": pl.Int8,
    "seat": pl.Int8,
    "agent": pl.String,
    "score_after": pl.Int32,
}


def common_game_columns(
    labels: Sequence[str], first_game: int, scores: np.ndarray, ranks: np.ndarray, share: np.ndarray
) -> dict[str, Any]:
    """The ``GAME_COLUMNS`` of a finished batch, from its (games, seats) scores, ranks and win
    shares, game-major like every games frame."""
    games, seats = scores.shape
    seat = np.tile(np.arange(seats), games)
    return {
        "game": np.repeat(np.arange(first_game, first_game + games), seats),
        "seat": seat,
        "agent": agent_column(labels, seat),
        "score": scores.ravel(),
        "rank": ranks.ravel(),
        "won": (ranks == 1).ravel(),
        "win_share": share.ravel(),
    }


def common_round_columns(
    labels: Sequence[str], first_game: int, score_after: np.ndarray
) -> dict[str, Any]:
    """The ``ROUND_COLUMNS`` of a recorded batch from its (games, rounds, seats) scores after
    each round, game-major, then round, then seat."""
    games, rounds, seats = score_after.shape
    seat = np.tile(np.arange(seats), games * rounds)
    return {
        "game": np.repeat(np.arange(first_game, first_game + games), rounds * seats),
        "round": np.tile(np.repeat(np.arange(1, rounds + 1), seats), games),
        "seat": seat,
        "agent": agent_column(labels, seat),
        "score_after": score_after.ravel(),
    }


def typed_frame(columns: Mapping[str, Any], schema: Mapping[str, Any]) -> pl.DataFrame:
    """A frame of ``schema``'s columns, in its order, each cast to its type (arrays from a batch
    engine come in whatever integer width the engine used)."""
    return pl.DataFrame(
        {name: _series(name, columns[name]).cast(dtype) for name, dtype in schema.items()}
    )


def _series(name: str, values: Any) -> pl.Series:
    return values.alias(name) if isinstance(values, pl.Series) else pl.Series(name, values)


def shares(ranks: Sequence[int]) -> list[float]:
    """Each seat's win share: 1/k for the k seats ranked first, 0 for the others."""
    first = sum(rank == 1 for rank in ranks)
    return [1 / first if rank == 1 else 0.0 for rank in ranks]


class FrameRows:
    """Rows gathered one at a time (from finished step-engine games), then one typed frame."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = dict(schema)
        self.columns: dict[str, list[Any]] = {name: [] for name in self.schema}

    def add(self, *values: Any) -> None:
        """One row, its values in the schema's column order."""
        for column, value in zip(self.columns.values(), values, strict=True):
            column.append(value)

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.columns, schema=self.schema)
