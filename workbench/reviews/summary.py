"""Many games reviewed, and where the players lose their win chance.

``review_games`` reviews every seat of ``games`` seeded games (game ``g`` is the game
``simulate(..., seed=seed, engine="step")`` numbers ``g``, its line-up rotated by ``g`` seats so
that every agent plays every seat); ``loss_by`` sums the losses by agent and by phase or kind of
decision, per game, with intervals over games (the independent units: the seats of one game
share its cards).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from workbench.checks import whole_number
from workbench.kit.seeding import seed_sequence
from workbench.reviews.core import checked_budget, played_game, review_played
from workbench.reviews.labels import LABELS
from workbench.stats import mean_interval

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Labels counted as a lost decision in ``loss_by``'s ``flagged`` share (the label the interval
#: supports: "inaccuracy" or worse).
FLAGGED = LABELS[2:]
#: The win chance lost, with its interval (``total_loss``), in ``decisions_by``'s frame.
TOTAL_SCHEMA = {"lost": pl.Float64, "low": pl.Float64, "high": pl.Float64}


def review_games(
    game: Any,
    rules: Any = None,
    agents: Sequence[str] | None = None,
    *,
    games: int,
    seed: int,
    budget: int | None = None,
) -> pl.DataFrame:
    """Every seat of ``games`` games reviewed: the decisions frame of each (``review``) with
    ``game`` (0 to games - 1) and ``agent`` (the seat's agent) first, and ``stage``: "first
    half" or "second half" of the game by round. ``agents``: one name per seat (None: the
    game's reference agent everywhere), rotated one seat further each game."""
    from workbench import games as registry

    record = registry.get(game)
    rules = record.checked_rules(rules)
    games = whole_number("games", games, low=1, high=100_000)
    seed_sequence(seed)
    lineup = list(agents) if agents is not None else [record.reference] * rules.players
    if (
        isinstance(agents, str)  # one name is not a line-up, even when its letters count right
        or len(lineup) != rules.players
        or not all(isinstance(a, str) for a in lineup)
    ):
        raise ValueError(
            f"agents must name one agent per seat ({rules.players}), got {agents!r}"
        )
    budget = checked_budget(record, budget)
    frames = []
    for g in range(games):
        turn = g % rules.players
        seated = lineup[-turn:] + lineup[:-turn] if turn else list(lineup)
        game_seed = seed_sequence(seed, g)
        played = played_game(record, rules, seated, seed=game_seed)
        for seat in range(rules.players):
            found = review_played(played, seat=seat, seed=game_seed, budget=budget)
            frames.append(
                found.decisions.with_columns(
                    pl.lit(g, pl.Int64).alias("game"), pl.lit(seated[seat]).alias("agent")
                )
            )
    frame = pl.concat(frames)
    # the game's first or second half by round (a game's rounds, or deals, as its rows count them)
    half = (pl.col("round").max().over("game") + 1) // 2
    frame = frame.with_columns(
        pl.when(pl.col("round") <= half).then(pl.lit("first half")).otherwise(pl.lit("second half"))
        .alias("stage")
    )
    return frame.select("game", "agent", *[c for c in frame.columns if c not in ("game", "agent")])


def total_loss(decisions: pl.DataFrame) -> tuple[float, float, float]:
    """The win chance a seat lost over its rated decisions (a review's frame): the sum of the
    losses and an approximate 95% interval (each decision's interval read as +-1.96 standard
    errors; the decisions' playouts are independent, so the variances add)."""
    rated = decisions.filter(pl.col("loss").is_not_null())
    if rated.is_empty():
        return 0.0, 0.0, 0.0
    total = float(rated["loss"].sum())
    errors = ((rated["high"] - rated["low"]) / (2 * Z95)).to_numpy()
    half = Z95 * math.sqrt(float((errors**2).sum()))
    return total, total - half, total + half


def decisions_by(decisions: pl.DataFrame, by: str | Sequence[str] = "phase") -> pl.DataFrame:
    """One review's decisions grouped by ``by``: how many, how many the review found best,
    and the win chance lost with its approximate interval (``total_loss``), most lost first
    (no rows for a review without decisions)."""
    keys = [by] if isinstance(by, str) else list(by)
    missing = [c for c in [*keys, "loss", "low", "high", "label"] if c not in decisions.columns]
    if missing:
        raise ValueError(f"decisions_by needs columns {missing} (a review's frame); got "
                         f"{decisions.columns}")  # fmt: skip
    rows = []
    for group, part in decisions.group_by(keys, maintain_order=True):
        lost, low, high = total_loss(part)
        rows.append({**dict(zip(keys, group, strict=True)), "decisions": part.height,
                     "best": int((part["label"] == "best").sum()), "lost": lost, "low": low,
                     "high": high})  # fmt: skip
    counts = {"decisions": pl.Int64, "best": pl.Int64}
    schema = {**{key: decisions.schema[key] for key in keys}, **counts, **TOTAL_SCHEMA}
    return pl.DataFrame(rows, schema=schema).sort("lost", descending=True)


def loss_by(reviews: pl.DataFrame, by: str | Sequence[str] = "phase") -> pl.DataFrame:
    """Win chance lost per game by agent and ``by`` (columns of ``reviews``, e.g. "phase",
    "kind"): one row per agent and group with the games, the decisions per game, the loss per
    game (each game's mean over the agent's seats of their summed losses in the group; mean
    over games, 95% t interval, ``low``/``high``) and ``flagged``, the share of the group's
    decisions labelled inaccuracy or worse by their interval. Sorted by agent, most lost
    first."""
    keys = [by] if isinstance(by, str) else list(by)
    needed = ["game", "agent", "seat", "loss", "label", *keys]
    missing = [c for c in needed if c not in reviews.columns]
    if missing:
        raise ValueError(f"loss_by needs columns {missing} (review_games' frame); got "
                         f"{reviews.columns}")  # fmt: skip
    if reviews.is_empty():
        raise ValueError("loss_by needs at least one reviewed decision")
    seats = reviews.group_by("game", "agent").agg(pl.col("seat").n_unique().alias("seats"))
    groups = reviews.select(*keys).unique()
    units = seats.join(groups, how="cross")
    totals = reviews.group_by("game", "agent", *keys).agg(
        pl.col("loss").sum().alias("lost"),
        pl.len().alias("decisions"),
        pl.col("label").is_in(list(FLAGGED)).sum().alias("flagged"),
    )
    per_game = (
        units.join(totals, on=["game", "agent", *keys], how="left")
        .with_columns(pl.col("lost", "decisions", "flagged").fill_null(0))
        .with_columns(
            (pl.col("lost") / pl.col("seats")).alias("lost"),
            (pl.col("decisions") / pl.col("seats")).alias("per_seat"),
        )
    )
    rows = []
    for (agent, *group), frame in per_game.group_by("agent", *keys, maintain_order=True):
        lost = frame["lost"].to_numpy()
        mean, low, high = mean_interval(lost)
        decisions = int(frame["decisions"].sum())
        rows.append({
            "agent": agent, **dict(zip(keys, group, strict=True)), "games": frame.height,
            "decisions": decisions, "decisions_per_game": float(frame["per_seat"].mean()),
            "loss_per_game": mean, "low": low, "high": high,
            "flagged": int(frame["flagged"].sum()) / decisions if decisions else 0.0,
        })  # fmt: skip
    return pl.DataFrame(rows).sort(["agent", "loss_per_game"], descending=[False, True])


__all__ = ["FLAGGED", "decisions_by", "loss_by", "review_games", "total_loss"]
