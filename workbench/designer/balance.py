"""Balance metrics: pure functions over any game's ``simulate`` frames, in the spirit of the
established game-design metrics (Ludii's Balance, Advantage, Drawishness, Decisiveness and
LeadChange), plus each game's own (``GAME_METRICS`` / ``game_metrics``).

Games are the independent units. Every metric is first a value per game, then summarised over
games with its sample size ``n`` (the games where it is defined) and a 95% interval: Wilson for
a rate (kind "proportion": each game's value lies in [0, 1]), Student t for a mean (kind
"mean"). The common metrics, for a table of n seats, each from the contract's columns only:

- ``win_rate_seat_<s>`` (proportion): seat s's win share in a game: 1 for a sole win, 1/k for
  a win shared by k seats, else 0 (the games frame's ``win_share``). The Wilson interval counts
  a 1/k share as that fraction of a success, which is conservative.
- ``win_rate_spread`` (derived): the largest minus the smallest per-seat win rate. Its interval
  is conservative and recomputable from the per-seat rates: with each seat's Wilson interval
  [l_s, h_s] taken at confidence 1 - 0.05/n (Bonferroni, so all n hold together with
  probability >= 95%), the spread lies in [max(0, max_s l_s - min_s h_s), max_s h_s - min_s l_s].
- ``first_seat_advantage`` (mean): seat 0's win share minus the fair share 1/n, per game.
  Which seat acts first, holds the auctioneer card or the tie priority is each game's own
  business (see its ``GAME_METRICS``); seat 0 is the one every game has.
- ``shared_win_rate`` (proportion): the game ended with two or more winners (drawishness).
- ``winning_margin`` (mean): the highest final score minus the second highest (0 when two seats
  tie on the top score, whoever wins the tie-break).
- ``lead_changes`` (mean): after each round the *sole leader* is the seat whose score_after is
  highest, if no other seat has that score; a round with a tie for the highest score has no
  sole leader and the lead stays with the last sole leader. A lead change is a round whose
  sole leader differs from the previous sole leader; the first sole leader is not a change.
- ``winner_lead_round`` (mean): the first round from which a winner's score_after is the
  highest (ties included) after every remaining round: 1 = on top throughout, the game's last
  round = took the lead only at the end. For a shared win, the earliest among the winners.
- ``late_winner_rate`` (proportion): winner_lead_round is the game's last round (the winner was
  not on top, alone or tied, after the second-to-last round).

Games with fewer rounds than others (a game that ends early) are handled: each game's lead is
followed over its own rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from workbench import games as registry
from workbench.designer.moments import Moments
from workbench.kit.game import Game
from workbench.kit.store import unit_type
from workbench.metrics import METRIC_KINDS, GameMetric

#: Per-game common metrics (the per-seat win rates are added per table size).
COMMON_METRICS: tuple[GameMetric, ...] = (
    GameMetric(
        "first_seat_advantage",
        "mean",
        "seat 0's win share minus the fair share 1/n (0 = no first-seat advantage)",
    ),
    GameMetric("shared_win_rate", "proportion", "share of games won jointly by 2+ seats"),
    GameMetric(
        "winning_margin", "mean", "highest final score minus the second highest (0 on a tie)"
    ),
    GameMetric(
        "lead_changes",
        "mean",
        "times per game the sole leader (highest score_after, no tie) changes; ties keep the "
        "last sole leader",
    ),
    GameMetric(
        "winner_lead_round",
        "mean",
        "first round from which a winner stays on top (ties included) to the end; 1 = led "
        "throughout",
    ),
    GameMetric(
        "late_winner_rate",
        "proportion",
        "share of games whose winner reached the top only in the last round",
    ),
)
SPREAD = GameMetric(
    "win_rate_spread",
    "derived",
    "largest minus smallest per-seat win rate (interval: range of Bonferroni Wilson intervals)",
)
INTERVALS = {"proportion": "Wilson", "mean": "t", "derived": "Bonferroni range"}


def seat_metric(seat: int) -> GameMetric:
    """The win-rate metric of one seat."""
    return GameMetric(
        f"win_rate_seat_{seat}",
        "proportion",
        f"share of games seat {seat} wins (a win shared by k seats counts 1/k)",
    )


@dataclass(frozen=True)
class MetricInfo:
    """One metric as the bench reports it: its definition and where it comes from."""

    name: str
    kind: str  # "proportion", "mean" or "derived"
    description: str
    source: str  # "common" or the game id


def game_record(game: str | Game | None) -> Game | None:
    """The game's record (None: no game, common metrics only)."""
    return None if game is None else registry.get(game)


def game_metric_list(game: Game | None) -> tuple[GameMetric, ...]:
    """The game's own metrics, checked; () for none."""
    if game is None:
        return ()
    listed = tuple(game.metrics)
    common = {metric.name for metric in COMMON_METRICS} | {SPREAD.name}
    for metric in listed:
        if not isinstance(metric, GameMetric) or metric.kind not in METRIC_KINDS:
            raise ValueError(
                f"{game.id} metrics must hold GameMetric(name, kind, description) "
                f"with kind in {METRIC_KINDS}; got {metric!r}"
            )
        if metric.name in common or metric.name.startswith("win_rate_seat_"):
            raise ValueError(f"{game.id} metrics names {metric.name!r}, a common metric's name")
    return listed


def metric_catalogue(players: int, game: str | Game | None = None) -> list[MetricInfo]:
    """Every metric the bench reports for a table of ``players`` seats, in report order."""
    game = game_record(game)
    source = "common" if game is None else game.id
    rows = [MetricInfo(*seat_metric(seat), "common") for seat in range(players)]
    rows.append(MetricInfo(*SPREAD, "common"))
    rows += [MetricInfo(*metric, "common") for metric in COMMON_METRICS]
    rows += [MetricInfo(*metric, source) for metric in game_metric_list(game)]
    return rows


# -- per-game values ------------------------------------------------------------------------


@unit_type
@dataclass(frozen=True)
class GameValues:
    """Per-game metric values of one run: ``values[name]`` over ``games`` (sorted game ids),
    NaN where the metric is undefined for that game."""

    games: np.ndarray
    players: int
    values: Mapping[str, np.ndarray]

    def frame(self) -> pl.DataFrame:
        """One row per game: ``game`` and one column per metric."""
        return pl.DataFrame({"game": self.games, **self.values})

    def moments(self) -> dict[str, Moments]:
        """Count, mean and M2 of every metric over these games."""
        return {name: Moments.of(array) for name, array in self.values.items()}

    @classmethod
    def concat(cls, parts: Sequence[GameValues]) -> GameValues:
        """Several parts of one table's games (batches, or looks at it) as one run."""
        return cls(
            np.concatenate([part.games for part in parts]),
            parts[0].players,
            {name: np.concatenate([p.values[name] for p in parts]) for name in parts[0].values},
        )


def game_values(
    games: pl.DataFrame, rounds: pl.DataFrame | None, game: str | Game | None = None
) -> GameValues:
    """Every metric's value for every game of one run (``simulate`` frames of one rule set and
    line-up), ``game``'s own included; without ``rounds`` the lead metrics are NaN."""
    game = game_record(game)
    ids, scores, ranks, shares = seat_table(games)
    count, players = scores.shape
    values: dict[str, np.ndarray] = {}
    for seat in range(players):
        values[f"win_rate_seat_{seat}"] = shares[:, seat]
    values["first_seat_advantage"] = shares[:, 0] - 1.0 / players
    winners = ranks == 1
    values["shared_win_rate"] = (winners.sum(axis=1) > 1).astype(float)
    if players > 1:
        ordered = np.sort(scores, axis=1)
        values["winning_margin"] = ordered[:, -1] - ordered[:, -2]
    else:
        values["winning_margin"] = np.full(count, np.nan)
    if rounds is None:
        for name in ("lead_changes", "winner_lead_round", "late_winner_rate"):
            values[name] = np.full(count, np.nan)
    else:
        values.update(_lead_values(rounds, ids, players, winners))
    own = game_metric_list(game)
    for metric in own:  # undefined without a rounds frame
        values[metric.name] = np.full(count, np.nan)
    if own and rounds is not None:
        values.update(_own_values(game, games, rounds, ids))
    return GameValues(ids, players, values)


def per_game_metrics(
    games: pl.DataFrame, rounds: pl.DataFrame | None, game: str | Game | None = None
) -> pl.DataFrame:
    """One row per game: ``game`` and the value of every metric (see the module docstring)."""
    return game_values(games, rounds, game).frame()


def seat_table(games: pl.DataFrame) -> tuple[np.ndarray, ...]:
    """(game ids, scores, ranks, win shares) with one row per game and one column per seat."""
    if not isinstance(games, pl.DataFrame):
        raise TypeError(f"games must be a simulate() games frame, got {type(games).__name__}")
    needed = ["game", "seat", "score", "rank", "win_share"]
    missing = [c for c in needed if c not in games.columns]
    if missing:
        raise ValueError(f"the games frame lacks columns {missing}; it has {games.columns}")
    if games.height == 0:
        raise ValueError("the games frame is empty: metrics need at least one game")
    game = games["game"].to_numpy()
    seat = games["seat"].to_numpy().astype(np.int64)
    players = int(seat.max()) + 1
    order = _sorted_order(game, seat)
    game, seat = game[order], seat[order]
    rectangular = games.height % players == 0
    if rectangular:
        ids = game[::players]
        rectangular = (
            bool((np.diff(ids) > 0).all())
            and np.array_equal(
                game.reshape(-1, players), np.repeat(ids, players).reshape(-1, players)
            )
            and np.array_equal(
                seat.reshape(-1, players), np.broadcast_to(np.arange(players), (ids.size, players))
            )
        )
    if not rectangular:
        raise ValueError(
            f"the games frame must hold one row per game × seat (seats 0–{players - 1} in "
            f"every game); it has {games.height} rows for {np.unique(game).size} games"
        )

    def table(column: str) -> np.ndarray:
        return games[column].to_numpy().astype(float)[order].reshape(ids.size, players)

    return ids, table("score"), table("rank"), table("win_share")


def _sorted_order(*keys: np.ndarray) -> np.ndarray | slice:
    """Row order sorting by ``keys`` (first key most significant); a no-op slice when sorted."""
    rows = len(keys[0])
    if rows < 2:
        return slice(None)
    ascending = np.ones(rows - 1, bool)
    decided = np.zeros(rows - 1, bool)
    for key in keys:
        step = np.diff(key.astype(np.int64))
        ascending &= decided | (step >= 0)
        decided |= step > 0
    if ascending.all():
        return slice(None)
    return np.lexsort(tuple(reversed(keys)))


def _score_table(
    rounds: pl.DataFrame, ids: np.ndarray, players: int
) -> tuple[np.ndarray, np.ndarray]:
    """(score_after as [round, seat, game], rounds played per game). A game that ended before
    the longest keeps its final standing in the rounds after its end."""
    needed = ["game", "round", "seat", "score_after"]
    missing = [c for c in needed if c not in rounds.columns]
    if missing:
        raise ValueError(f"the rounds frame lacks columns {missing}; it has {rounds.columns}")
    count = ids.size
    game = rounds["game"].to_numpy()
    seat = rounds["seat"].to_numpy()
    round_number = rounds["round"].to_numpy()
    score = rounds["score_after"].to_numpy()
    # The common case, checked cheaply: sorted by game, round, seat, every game the same rounds.
    per_game = count * players
    if per_game and rounds.height % per_game == 0 and rounds.height:
        length = rounds.height // per_game
        shape = (count, length, players)
        numbers = round_number.reshape(shape)
        if (
            np.array_equal(
                game.reshape(count, -1), np.broadcast_to(ids[:, None], (count, length * players))
            )
            and np.array_equal(seat.reshape(shape), np.broadcast_to(np.arange(players), shape))
            and (numbers == numbers[:, :, :1]).all()
            and (np.diff(numbers[:, :, 0].astype(np.int64), axis=1) > 0).all()
        ):
            table = score.reshape(shape).astype(float).transpose(1, 2, 0)
            return np.ascontiguousarray(table), np.full(count, length)
    return _ragged_score_table(game, round_number, seat, score, ids, players)


def _ragged_score_table(
    game: np.ndarray,
    round_number: np.ndarray,
    seat: np.ndarray,
    score: np.ndarray,
    ids: np.ndarray,
    players: int,
) -> tuple[np.ndarray, np.ndarray]:
    """``_score_table`` for rows in any order and games of different lengths."""
    round_number, seat = round_number.astype(np.int64), seat.astype(np.int64)
    order = _sorted_order(game, round_number, seat)
    game, round_number, seat = game[order], round_number[order], seat[order]
    score = score[order].astype(float)
    count = ids.size
    index = np.searchsorted(ids, game)
    if game.size and (index.max() >= count or not np.array_equal(ids[index], game)):
        unknown = sorted(set(game.tolist()) - set(ids.tolist()))[:5]
        raise ValueError(f"the rounds frame has games missing from the games frame: {unknown}")
    # Position of each row's round within its game (0, 1, ...), whatever the round numbers.
    new_block = np.ones(game.size, bool)
    new_block[1:] = (game[1:] != game[:-1]) | (round_number[1:] != round_number[:-1])
    block = np.cumsum(new_block) - 1
    starts = np.flatnonzero(new_block)
    first_block_of_game = np.zeros(count, np.int64)
    with_rounds, first_block = np.unique(index[starts], return_index=True)
    first_block_of_game[with_rounds] = first_block
    position = block - first_block_of_game[index]
    sizes = np.diff(np.append(starts, game.size))
    seats_ok = sizes.size == 0 or (
        (sizes == players).all()
        and np.array_equal(
            seat.reshape(-1, players), np.broadcast_to(np.arange(players), (sizes.size, players))
        )
    )
    if not seats_ok:
        bad = int(np.argmax(sizes != players)) if (sizes != players).any() else 0
        raise ValueError(
            f"the rounds frame must hold one row per game × round × seat (seats 0–{players - 1}); "
            f"round {int(round_number[starts[bad]])} of game {int(game[starts[bad]])} does not"
        )
    played = np.zeros(count, np.int64)
    np.maximum.at(played, index, position + 1)
    longest = max(int(played.max()) if count else 0, 1)
    table = np.full((longest, players, count), np.nan)
    table[position, seat, index] = score
    for r in range(1, longest):  # a game that ended early keeps its final standing
        gap = np.isnan(table[r, 0])
        table[r][:, gap] = table[r - 1][:, gap]
    return table, played


def _lead_values(
    rounds: pl.DataFrame, ids: np.ndarray, players: int, winners: np.ndarray
) -> dict[str, np.ndarray]:
    """lead_changes, winner_lead_round and late_winner_rate per game (module docstring)."""
    table, played = _score_table(rounds, ids, players)
    longest, count = table.shape[0], ids.size
    top = table.max(axis=1)  # (round, game); NaN for a game with no rounds
    on_top = table == top[:, None, :]  # (round, seat, game); NaN compares False
    tops = on_top.sum(axis=1)
    sole = np.where(tops == 1, on_top.argmax(axis=1), -1)
    changes = np.zeros(count)
    leader = np.full(count, -1)
    for r in range(longest):
        current = sole[r]
        changes += (current >= 0) & (leader >= 0) & (current != leader)
        leader = np.where(current >= 0, current, leader)
    # Rounds (counted from the end) through which each seat has been on top continuously.
    streak = np.zeros((players, count), np.int64)
    still = np.ones((players, count), bool)
    for r in range(longest - 1, -1, -1):
        still &= on_top[r]
        streak += still
    padding = longest - played  # rounds copied after a game's end count in the streak too
    lead_from = np.where(streak > padding, longest - streak + 1, np.inf)
    lead_from = np.where(winners.T, lead_from, np.inf).min(axis=0)
    lead_from[~np.isfinite(lead_from) | (played == 0)] = np.nan
    late = np.where(np.isnan(lead_from), np.nan, (lead_from == played).astype(float))
    changes[played == 0] = np.nan
    return {"lead_changes": changes, "winner_lead_round": lead_from, "late_winner_rate": late}


def _own_values(
    game: Game, games: pl.DataFrame, rounds: pl.DataFrame, ids: np.ndarray
) -> dict[str, np.ndarray]:
    """The game's own metrics per game, aligned with ``ids``."""
    listed = game_metric_list(game)
    name = game.id
    frame = game.game_metrics(games, rounds)
    missing = [m.name for m in listed if m.name not in frame.columns]
    if "game" not in frame.columns or missing:
        raise ValueError(
            f"{name}.game_metrics must return a frame with 'game' and {[m.name for m in listed]}; "
            f"missing {(['game'] if 'game' not in frame.columns else []) + missing}"
        )
    frame = frame.sort("game")
    if not np.array_equal(frame["game"].to_numpy(), ids):
        raise ValueError(f"{name}.game_metrics must return exactly one row per game")
    return {
        m.name: frame[m.name].cast(pl.Float64).fill_null(np.nan).to_numpy().astype(float)
        for m in listed
    }


# -- summaries ------------------------------------------------------------------------------


SUMMARY_SCHEMA = {
    "metric": pl.String,
    "kind": pl.String,
    "n": pl.Int64,
    "value": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "interval": pl.String,
    "source": pl.String,
    "description": pl.String,
}


def summary_rows(
    moments: Mapping[str, Moments],
    catalogue: Sequence[MetricInfo],
    confidence: float = 0.95,
) -> list[dict[str, Any]]:
    """One summary row per catalogued metric: n, value and its interval (module docstring)."""
    rows = []
    for info in catalogue:
        if info.kind == "derived":
            n, value, low, high = spread_summary(moments, confidence)
        else:
            stats = moments.get(info.name, Moments())
            n, value = stats.count, stats.mean if stats.count else np.nan
            if info.kind == "proportion":
                low, high = stats.wilson_interval(confidence)
            else:
                low, high = stats.t_interval(confidence)
        rows.append(
            {
                "metric": info.name,
                "kind": info.kind,
                "n": n,
                "value": value,
                "low": low,
                "high": high,
                "interval": INTERVALS[info.kind],
                "source": info.source,
                "description": info.description,
            }
        )
    return rows


def spread_summary(
    moments: Mapping[str, Moments], confidence: float = 0.95
) -> tuple[int, float, float, float]:
    """(n, spread, low, high) of the per-seat win rates (module docstring)."""
    seats = sorted(
        (name for name in moments if name.startswith("win_rate_seat_")),
        key=lambda name: int(name.rsplit("_", 1)[1]),
    )
    stats = [moments[name] for name in seats]
    if len(stats) < 2 or any(s.count == 0 for s in stats):
        return (min((s.count for s in stats), default=0), np.nan, np.nan, np.nan)
    rates = [s.mean for s in stats]
    joint = 1 - (1 - confidence) / len(stats)
    bounds = [s.wilson_interval(joint) for s in stats]
    lows, highs = [b[0] for b in bounds], [b[1] for b in bounds]
    return (
        min(s.count for s in stats),
        max(rates) - min(rates),
        max(0.0, max(lows) - min(highs)),
        max(highs) - min(lows),
    )


def balance_metrics(
    games: pl.DataFrame,
    rounds: pl.DataFrame | None = None,
    *,
    game: str | Game | None = None,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Every balance metric of one run (a ``simulate`` run's frames; ``game`` for its own
    metrics) with n and a 95% interval: one row per metric (``SUMMARY_SCHEMA``)."""
    values = game_values(games, rounds, game)
    catalogue = metric_catalogue(values.players, game)
    return pl.DataFrame(summary_rows(values.moments(), catalogue, confidence), SUMMARY_SCHEMA)


__all__ = [
    "COMMON_METRICS",
    "SPREAD",
    "GameValues",
    "MetricInfo",
    "balance_metrics",
    "game_values",
    "metric_catalogue",
    "per_game_metrics",
    "seat_metric",
    "spread_summary",
    "summary_rows",
]
