"""How often each seat is the cheapskate (lowest bid: no fame that round), and what it costs:
exact arithmetic (``cheapskate_facts``) and seeded estimates with 95% intervals
(``cheapskate_frequency``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import polars as pl

from workbench.checks import is_whole_number, whole_number
from workbench.games.rubbish.game import GAME, simulate
from workbench.games.rubbish.rules import MAX_ITEMS, MAX_PLAYERS, MIN_PLAYERS, Rules
from workbench.kit.seeding import SeedLike
from workbench.metrics import mean_with_interval
from workbench.stats import proportion_interval


class CheapskateReport(NamedTuple):
    """``cheapskate_frequency``'s frames: ``summary`` (per seat and agent: times cheapskate
    per game, fair share, final-round rate, longest streak, win rate, each with its interval),
    ``distribution`` (share of games per cheapskate count), ``winning`` (win rate by cheapskate
    count) and ``facts`` (``cheapskate_facts`` plus what the games confirm)."""

    summary: pl.DataFrame
    distribution: pl.DataFrame
    winning: pl.DataFrame
    facts: pl.DataFrame


def cheapskate_facts(
    players: int | Iterable[int] = range(MIN_PLAYERS, MAX_PLAYERS + 1), rounds: int = 7
) -> pl.DataFrame:
    """Exact facts: one cheapskate a round, so ``rounds`` events per game share out among the
    players; 7 mod n is never 0 for n = 2–5, so someone is cheapskate at least ceil(7/n) times.
    ``players``: one count or several."""
    rounds = whole_number("rounds", rounds, low=1, high=MAX_ITEMS)
    counts = _player_counts("players", players)
    rows = [
        (n, rounds, rounds, rounds / n, str(Fraction(rounds, n)), rounds % n, rounds % n == 0,
         math.ceil(rounds / n))
        for n in counts
    ]  # fmt: skip
    return pl.DataFrame(rows, schema=_FACTS_SCHEMA, orient="row")


_FACTS_SCHEMA = {
    "players": pl.Int64, "rounds": pl.Int64, "cheapskate_events": pl.Int64,
    "fair_share": pl.Float64, "fair_share_exact": pl.String,
    "remainder": pl.Int64, "splits_evenly": pl.Boolean, "someone_at_least": pl.Int64,
}  # fmt: skip


def cheapskate_frequency(
    rules: Rules | None = None, agents: Sequence[Any] | Any | None = None, *, games: int,
    seed: SeedLike, progress: bool = False,
) -> CheapskateReport:  # fmt: skip
    """Cheapskate frequency per seat and agent from ``games`` seeded games (``agents`` as for
    ``simulate``): times per game and its distribution, the final-round rate, the longest
    streak, and the win rate by seat and by cheapskate count (shared wins split)."""
    rules = GAME.checked_rules(rules)
    games = whole_number("games", games, low=1, allowed="a positive whole number")
    games_frame, rounds_frame = simulate(
        rules, agents, games=games, seed=seed, progress=progress, rounds=True
    )
    games_frame = games_frame.sort("game", "seat")
    n, r = rules.players, rules.rounds
    cheap = (
        rounds_frame.sort("game", "round", "seat")["role"].cast(pl.String).to_numpy()
        == "cheapskate"
    ).reshape(games, r, n)
    per_game = cheap.sum(axis=(1, 2))
    longest = np.zeros((games, n), np.int64)
    run = np.zeros((games, n), np.int64)
    for k in range(r):
        run = (run + 1) * cheap[:, k, :]
        np.maximum(longest, run, out=longest)
    frame = games_frame.with_columns(
        final_round=pl.Series(cheap[:, -1, :].ravel()), longest_streak=pl.Series(longest.ravel()),
        times=pl.col("times_cheapskate").cast(pl.Int64),
    )  # fmt: skip
    keys = ["seat", "agent"]
    summary = _summary(frame, keys, rules)
    facts = cheapskate_facts(n, r).with_columns(
        games=pl.lit(games, pl.Int64),
        every_game_has_one_per_round=pl.lit(bool((per_game == r).all())),
    )
    return CheapskateReport(summary, _distribution(frame, keys, r), _winning(frame), facts)


def _rate_columns(frame: pl.DataFrame, keys: list[str], column: str, name: str) -> pl.DataFrame:
    """Share of rows where ``column`` is true (or its mean for fractions), with Wilson bounds."""
    rows = []
    for key, group in frame.group_by(keys, maintain_order=True):
        successes = float(group[column].cast(pl.Float64).sum())
        low, high = proportion_interval(successes, group.height)
        rows.append({**dict(zip(keys, key, strict=True)), f"{name}_rate": successes / group.height,
                     f"{name}_low": low, f"{name}_high": high})  # fmt: skip
    return pl.DataFrame(rows)


def _summary(frame: pl.DataFrame, keys: list[str], rules: Rules) -> pl.DataFrame:
    times = mean_with_interval(frame, "times", keys).rename(
        {"n": "games", "mean": "times_mean", "low": "times_low", "high": "times_high"}
    )
    streak = mean_with_interval(frame, "longest_streak", keys).rename(
        {"mean": "streak_mean", "low": "streak_low", "high": "streak_high"}
    )
    two_plus = frame.with_columns(streak_2plus=pl.col("longest_streak") >= 2)
    return (
        times.with_columns(
            players=pl.lit(rules.players, pl.Int64),
            fair_share=pl.lit(rules.rounds / rules.players),
        )
        .join(_rate_columns(frame, keys, "final_round", "final_round"), on=keys)
        .join(streak.drop("n"), on=keys)
        .join(two_plus.group_by(keys).agg(streak_2plus_rate=pl.col("streak_2plus").mean()), on=keys)
        .join(_rate_columns(frame, keys, "win_share", "win"), on=keys)
        .select(
            "players", *keys, "games", "times_mean", "times_low", "times_high", "fair_share",
            "final_round_rate", "final_round_low", "final_round_high", "streak_mean",
            "streak_low", "streak_high", "streak_2plus_rate", "win_rate", "win_low", "win_high",
        )
        .sort(keys)
    )


def _distribution(frame: pl.DataFrame, keys: list[str], rounds: int) -> pl.DataFrame:
    rows = []
    for key, group in frame.group_by(keys, maintain_order=True):
        counts = np.bincount(group["times"].to_numpy(), minlength=rounds + 1)
        for times, count in enumerate(counts.tolist()):
            low, high = proportion_interval(count, group.height)
            rows.append({**dict(zip(keys, key, strict=True)), "times_cheapskate": times,
                         "games": count, "share": count / group.height, "low": low,
                         "high": high})  # fmt: skip
    return pl.DataFrame(rows).sort([*keys, "times_cheapskate"])


def _winning(frame: pl.DataFrame) -> pl.DataFrame:
    keys = ["agent", "times"]
    wins = _rate_columns(frame, keys, "win_share", "win")
    scores = frame.group_by(keys).agg(n=pl.len().cast(pl.Int64), mean_score=pl.col("score").mean())
    return (
        wins.join(scores, on=keys)
        .rename({"times": "times_cheapskate"})
        .select("agent", "times_cheapskate", "n", "win_rate", "win_low", "win_high", "mean_score")
        .rename({"win_low": "low", "win_high": "high"})
        .sort("agent", "times_cheapskate")
    )


def cheapskate_by_player_count(
    rules: Rules | None = None, agent: Any = "heuristic", *,
    player_counts: Iterable[int] = range(MIN_PLAYERS, MAX_PLAYERS + 1), games: int, seed: SeedLike,
) -> CheapskateReport:  # fmt: skip
    """``cheapskate_frequency`` for each player count (``agent`` in every seat), stacked; the
    ``players`` column tells the reports apart. Each count uses the same ``seed``."""
    rules = GAME.checked_rules(rules)
    counts = _player_counts("player_counts", player_counts)
    if not counts:
        raise ValueError("player_counts must name at least one player count")
    games = whole_number("games", games, low=1, allowed="a positive whole number")
    if isinstance(agent, Sequence) and not isinstance(agent, str):
        raise TypeError(
            "agent must be one agent or agent name for every seat (the player count varies), "
            f"got {agent!r}"
        )
    reports = [
        cheapskate_frequency(rules.replace(players=n), agent, games=games, seed=seed)
        for n in counts
    ]

    def stack(part: str) -> pl.DataFrame:
        frames = [getattr(report, part) for report in reports]
        if part in ("summary", "facts"):
            return pl.concat(frames)
        return pl.concat([
            f.with_columns(players=pl.lit(n, pl.Int64)).select("players", *f.columns)
            for f, n in zip(frames, counts, strict=True)
        ])  # fmt: skip

    return CheapskateReport(*(stack(part) for part in CheapskateReport._fields))


def _player_counts(name: str, players: object) -> list[int]:
    """One player count or several, each a whole number the game allows."""
    allowed = f"a player count {MIN_PLAYERS}–{MAX_PLAYERS} or a sequence of them"
    if isinstance(players, str | bytes) or not (
        isinstance(players, Iterable) or is_whole_number(players)
    ):
        raise TypeError(f"{name} must be {allowed}, got {players!r}")
    given = [players] if is_whole_number(players) else list(players)  # type: ignore[arg-type]
    return [
        whole_number(name, n, low=MIN_PLAYERS, high=MAX_PLAYERS, allowed=allowed) for n in given
    ]


__all__ = [
    "CheapskateReport", "cheapskate_by_player_count", "cheapskate_facts", "cheapskate_frequency",
]  # fmt: skip
