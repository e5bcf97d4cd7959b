"""Does a rule change's effect hold when the players adapt? ``robust_compare`` runs ``compare``'s
paired comparison once per strength of play (a table of hand-written agents, of agents fitted
to each rule set, of search agents) and gives each metric a verdict.

Each strength is a line-up played at every seat, under the baseline and the variant rules, on
common random numbers. A ``fitted`` line-up fits (or loads from the fit cache) separately for
each rule set, so each side is played as the rules invite. Search is slow: it plays fewer
games (``games_by_strength``), and each row's ``n`` says how many pairs it rests on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import polars as pl

from workbench.designer.cells import (
    CellTask,
    InvalidCells,
    cell_values,
    check_run,
    lineup_label,
    positive_count,
    resolve_agents,
    rules_label,
)
from workbench.designer.comparison import paired_summary, resolve_rules
from workbench.designer.executors import run_tasks
from workbench.kit.game import Game
from workbench.kit.store import RunStore, StorePath

#: The verdicts, in the order a chart shows them.
VERDICTS = ("robust", "depends on play", "no clear effect")
#: Games search plays by default: this share of ``games`` (at least SEARCH_MIN_GAMES).
SEARCH_SHARE, SEARCH_MIN_GAMES = 0.025, 50

ROBUST_SCHEMA = {
    "metric": pl.String,
    "strength": pl.String,
    "n": pl.Int64,
    "baseline": pl.Float64,
    "variant": pl.Float64,
    "diff": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "verdict": pl.String,
}


def robust_compare(
    game: str | Game,
    baseline: Any = None,
    variant: Any = None,
    *,
    strengths: Sequence[Any] | None = None,
    games: int,
    seed: int,
    games_by_strength: Mapping[str, int] | None = None,
    executor: Executor | None = None, progress: bool = True, confidence: float = 0.95,
    store: StorePath = None, resume: bool = False, overwrite: bool = False,
) -> pl.DataFrame:
    """Variant minus baseline for every metric under each strength of play, with a verdict.

    ``baseline``/``variant`` as for ``compare``. ``strengths``: line-ups, each one agent name
    for every seat or one per seat (default: the game's default hand-written agent, "fitted"
    and "search", those the game has). ``games`` per strength, except where
    ``games_by_strength`` says otherwise (search by default plays 2.5%, at least 50).

    One row per metric x strength: n (paired games), each side's value, ``diff`` with its
    paired ``low``-``high`` interval, and the metric's ``verdict``: "robust" when every
    strength's interval excludes 0 on the same side, "no clear effect" when none does, else
    "depends on play". ``store``/``resume``/``overwrite`` keep finished runs as for ``sweep``.
    """
    game, games, seed = check_run(game, games, seed)
    if variant is None:
        raise ValueError("variant is missing: give the variant's Rules or its changes")
    strengths = _default_strengths(game) if strengths is None else list(strengths)
    if not strengths:
        raise ValueError("strengths is empty: name at least one line-up, e.g. ('fitted',)")
    counts = _games_per_strength(strengths, games, games_by_strength)
    rulebook = game.Rules()
    base, problems = resolve_rules(game, baseline, rulebook, "baseline")
    changed, more = resolve_rules(game, variant, base if base is not None else rulebook,
                                  "variant")  # fmt: skip
    problems += more
    tasks = []
    if not problems:
        for strength, count in zip(strengths, counts, strict=True):
            for side, rules in (("baseline", base), ("variant", changed)):
                made, problem = resolve_agents(game, rules, strength, progress=progress)
                if problem:
                    problems.append(f"{lineup_label(strength)} ({side}): {problem}")
                tasks.append(CellTask(game, rules, made, count, seed))
    if problems:
        raise InvalidCells(problems)
    kept = None
    if store is not None:
        identity = {
            "command": "robust_compare", "game": game.id, "seed": seed,
            "baseline": rules_label(game, base), "variant": rules_label(game, changed),
            "units": [[lineup_label(s), n, side] for s, n in zip(strengths, counts, strict=True)
                      for side in ("baseline", "variant")],
        }  # fmt: skip
        kept = RunStore.open(store, identity, resume=resume, overwrite=overwrite)
    values = run_tasks(
        cell_values, tasks, executor=executor, weights=[t.games for t in tasks],
        progress=progress, description=f"robust compare {game.id}", store=kept,
    )  # fmt: skip
    frames = []
    for index, strength in enumerate(strengths):
        (base_values, _), (variant_values, _) = values[2 * index], values[2 * index + 1]
        summary = paired_summary(base_values, variant_values, game, confidence)
        frames.append(summary.select(
            "metric", pl.lit(lineup_label(strength)).alias("strength"), "n", "baseline",
            "variant", pl.col("difference").alias("diff"),
            pl.col("difference_low").alias("low"), pl.col("difference_high").alias("high"),
        ))  # fmt: skip
    rows = pl.concat(frames)
    result = rows.join(verdicts(rows), on="metric", how="left", maintain_order="left")
    if kept is not None:
        kept.remove()
    return result.select(*ROBUST_SCHEMA).with_columns(
        game=pl.lit(game.id),
        baseline_name=pl.lit(rules_label(game, base)),
        variant_name=pl.lit(rules_label(game, changed, base)),
        seed=pl.lit(seed, pl.Int64),
    )


def verdicts(rows: pl.DataFrame) -> pl.DataFrame:
    """Per metric, its verdict from the rows' intervals (see ``robust_compare``)."""
    above = (pl.col("low") > 0).fill_null(False)
    below = (pl.col("high") < 0).fill_null(False)
    return rows.group_by("metric", maintain_order=True).agg(
        pl.when(above.all() | below.all()).then(pl.lit(VERDICTS[0]))
        .when((above | below).any()).then(pl.lit(VERDICTS[1]))
        .otherwise(pl.lit(VERDICTS[2])).alias("verdict")
    )  # fmt: skip


def _default_strengths(game: Any) -> list[str]:
    """The game's default hand-written agent, then fitted and search where the game has them."""
    adaptive = [name for name in ("fitted", "search") if name in game.agents]
    return [game.default_agent, *adaptive]


def _games_per_strength(
    strengths: Sequence[Any], games: int, override: Mapping[str, int] | None
) -> list[int]:
    override = dict(override or {})
    labels = [lineup_label(s) for s in strengths]
    unknown = sorted(set(override) - set(labels))
    if unknown:
        raise ValueError(f"games_by_strength names {unknown}, not among the strengths {labels}")
    search_games = max(SEARCH_MIN_GAMES, int(games * SEARCH_SHARE))
    return [
        positive_count(f"games_by_strength[{label!r}]", override[label]) if label in override
        else min(games, search_games) if label == "search" else games
        for label in labels
    ]  # fmt: skip


__all__ = ["ROBUST_SCHEMA", "VERDICTS", "robust_compare", "verdicts"]
