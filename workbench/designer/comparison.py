"""Baseline versus variant: both rule sets on the same seeds, every balance metric side by side
with its difference and a 95% interval on the difference.

Both runs use the same seed, so game g of the baseline and game g of the variant draw from the
same seed streams (common random numbers). How much randomness they actually share depends on
the engine and on the change (the game record's ``common_randomness`` says; the output repeats it).
The per-game pairs are independent across games whatever is shared, so the paired t interval
on the per-game differences is valid either way; shared randomness only makes it narrower
(the ``correlation`` column shows how much pairing helped: 0 = none).
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import Any

import numpy as np
import polars as pl

from workbench.designer.balance import metric_catalogue, spread_summary, summary_rows
from workbench.designer.cells import (
    CellTask,
    InvalidCells,
    baseline_and_variant,
    cell_values,
    check_run,
    designer_lineup,
    lineup_label,
    require_variant,
    resolve_agents,
    rules_label,
)
from workbench.designer.executors import run_tasks
from workbench.designer.moments import Moments
from workbench.kit.game import Game

#: Printed when a game does not say what two rule sets on the same seed share.
UNSTATED = "not stated by the game: games are paired by index and seed stream"

COMPARE_SCHEMA = {
    "metric": pl.String,
    "kind": pl.String,
    "n": pl.Int64,
    **{
        f"{estimate}{end}": pl.Float64
        for estimate in ("baseline", "variant", "difference")
        for end in ("", "_low", "_high")
    },
    "interval": pl.String,
    "correlation": pl.Float64,
    "source": pl.String,
    "description": pl.String,
}


def compare(
    game: str | Game,
    baseline: Any = None,
    variant: Any = None,
    agents: Any = None,
    *,
    games: int,
    seed: int,
    executor: Executor | None = None, progress: bool = True, confidence: float = 0.95,
) -> pl.DataFrame:
    """Every metric under ``baseline`` and ``variant`` rules, and variant minus baseline.

    ``baseline``: the game's Rules, a mapping of changes to the rulebook's, or None (the
    rulebook's). ``variant``: Rules, or a mapping of changes to the baseline (e.g.
    ``{"destined_bonus": 40}``). ``agents``: one line-up for both (None: ``designer_lineup``).
    One row per metric: n (paired games), each side's value and interval, the difference with
    its paired t interval (a conservative Bonferroni range for the derived spread), the
    correlation of the paired per-game values; then the game, both rule sets' labels
    (``variant_name`` names what changed), the line-up, games, seed and what the engine shares
    between the two runs (``common_randomness``). Both runs go to ``executor`` (default: two
    local processes), and pairing keeps every game's metric values until both are done: about
    8 bytes per metric per game per side (140 MB a side for a million Rubbish games).
    """
    game, games, seed = check_run(game, games, seed, confidence)
    agents = designer_lineup(game, agents)
    require_variant(game, variant)
    base, changed, problems = baseline_and_variant(game, baseline, variant)
    tasks = []
    for name, rules in (("baseline", base), ("variant", changed)):
        made, problem = (
            resolve_agents(game, rules, agents, progress=progress)
            if rules is not None else (None, "")
        )  # fmt: skip
        if problem:
            problems.append(f"{name}: {problem}")
        tasks.append(CellTask(game, rules, made, games, seed))
    if problems:
        raise InvalidCells(problems)
    (base_values, base_lineup), (variant_values, _) = run_tasks(
        cell_values,
        tasks,
        executor=executor,
        weights=[games, games],
        progress=progress,
        description=f"compare {game.id}",
    )
    frame = paired_summary(base_values, variant_values, game, confidence)
    return frame.with_columns(
        game=pl.lit(game.id),
        baseline_name=pl.lit(rules_label(game, base)),
        variant_name=pl.lit(rules_label(game, changed, base)),
        agents=pl.lit(lineup_label(agents) if agents is not None else ",".join(base_lineup)),
        games=pl.lit(games, pl.Int64),
        seed=pl.lit(seed, pl.Int64),
        common_randomness=pl.lit(game.common_randomness or UNSTATED),
    )


def paired_summary(
    baseline: Any, variant: Any, game: Any = None, confidence: float = 0.95
) -> pl.DataFrame:
    """Side-by-side summary of two runs' per-game values (``GameValues``), paired by game id."""
    players = max(baseline.players, variant.players)
    catalogue = metric_catalogue(players, game)
    _, in_base, in_variant = np.intersect1d(
        baseline.games, variant.games, assume_unique=True, return_indices=True
    )
    base_moments, variant_moments = baseline.moments(), variant.moments()
    sides = {
        side: {row["metric"]: row for row in summary_rows(moments, catalogue, confidence)}
        for side, moments in (("baseline", base_moments), ("variant", variant_moments))
    }
    rows = []
    for info in catalogue:
        b, v = sides["baseline"][info.name], sides["variant"][info.name]
        if info.kind == "derived":
            n, difference, low, high = _spread_difference(base_moments, variant_moments, confidence)
            correlation, interval = math.nan, "Bonferroni range"
        else:
            first = baseline.values.get(info.name)
            second = variant.values.get(info.name)
            if first is None or second is None:
                pairs = np.empty((0, 2))
            else:
                pairs = np.column_stack([first[in_base], second[in_variant]])
                pairs = pairs[~np.isnan(pairs).any(axis=1)]
            moments = Moments.of(pairs[:, 1] - pairs[:, 0])
            n = moments.count
            difference = moments.mean if n else math.nan
            low, high = moments.t_interval(confidence)
            correlation, interval = _correlation(pairs), "paired t"
        rows.append(
            {
                "metric": info.name,
                "kind": info.kind,
                "n": n,
                "baseline": b["value"],
                "baseline_low": b["low"],
                "baseline_high": b["high"],
                "variant": v["value"],
                "variant_low": v["low"],
                "variant_high": v["high"],
                "difference": difference,
                "difference_low": low,
                "difference_high": high,
                "interval": interval,
                "correlation": correlation,
                "source": info.source,
                "description": info.description,
            }
        )
    return pl.DataFrame(rows, COMPARE_SCHEMA)


def _spread_difference(
    baseline: dict[str, Moments], variant: dict[str, Moments], confidence: float
) -> tuple[int, float, float, float]:
    """Variant minus baseline spread, with a conservative interval: each side's spread range at
    confidence 1 - (1 - confidence)/2 (Bonferroni over the two sides)."""
    each = 1 - (1 - confidence) / 2
    n_b, spread_b, low_b, high_b = spread_summary(baseline, each)
    n_v, spread_v, low_v, high_v = spread_summary(variant, each)
    return min(n_b, n_v), spread_v - spread_b, low_v - high_b, high_v - low_b


def _correlation(pairs: np.ndarray) -> float:
    """Pearson correlation of paired per-game values (NaN when either side is constant)."""
    if pairs.shape[0] < 3:
        return math.nan
    first, second = pairs[:, 0], pairs[:, 1]
    if first.std() == 0 or second.std() == 0:
        return math.nan
    return float(np.corrcoef(first, second)[0, 1])


__all__ = ["COMPARE_SCHEMA", "compare", "paired_summary"]
