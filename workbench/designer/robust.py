"""Does a rule change's effect hold when the players adapt? ``robust_compare`` runs ``compare``'s
paired comparison once per strength of play (a table of hand-written agents, of agents fitted
to each rule set, of search agents) and gives each metric a verdict that says what was shown.

Each strength is a line-up played at every seat, under the baseline and the variant rules, on
common random numbers. A ``fitted`` line-up fits (or loads from the fit cache) separately for
each rule set, so each side is played as the rules invite. Search is slow: it starts with fewer
games (``games_by_strength``) and plays more, in doubling steps, while it alone leaves a verdict
unclear (``budget_by_strength``); each row's ``n`` says how many pairs it rests on.

**Verdicts**, per metric, from every strength's interval on variant minus baseline:

- "robust": every strength's interval excludes 0, all on the same side;
- "reverses with play": one strength's interval lies above 0 and another's below;
- "unclear under S" (S: one or more strengths): the strengths whose intervals exclude 0 all
  agree on a side, and S's intervals include 0 (or are undefined);
- "unchanged under S": as "unclear under S", but the metric is the same in every pair of S's
  games (its interval is exactly [0, 0]): the change does not move it under S at all;
- "no change": the metric is the same in every pair of games under every strength;
- "no effect beyond ±δ": no interval excludes 0 and every interval lies within ±δ, where δ is
  the equivalence margin the designer set for the metric (``margin``);
- "no clear effect": no interval excludes 0 (and no margin shows the effect small).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from itertools import combinations
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from workbench.designer.balance import GameValues, metric_catalogue
from workbench.designer.cells import (
    CellTask,
    InvalidCells,
    baseline_and_variant,
    cell_values,
    check_run,
    lineup_label,
    positive_count,
    require_variant,
    resolve_agents,
    rules_label,
)
from workbench.designer.comparison import paired_summary
from workbench.designer.executors import run_tasks
from workbench.findings import VERDICT_KINDS, interval, number, verdict_kind
from workbench.kit.game import Game
from workbench.kit.seeding import derive_seed
from workbench.kit.store import RunStore, StorePath

#: Games search plays at first by default: this share of ``games`` (at least SEARCH_MIN_GAMES).
SEARCH_SHARE, SEARCH_MIN_GAMES = 0.025, 50
#: A slow strength's default budget: this many times its first games (never above ``games``).
BUDGET_FACTOR = 4
#: The line-ups played sequentially by default (slow ones).
SEQUENTIAL = ("search",)
#: The chance that the estimated ``games_to_decide`` would decide (power of the estimate).
POWER = 0.8
#: Game ids of a strength's later looks are shifted by this per look (their seeds differ).
LOOK_STRIDE = 2**40

ROBUST_SCHEMA = {
    "metric": pl.String,
    "strength": pl.String,
    "n": pl.Int64,
    "baseline": pl.Float64,
    "variant": pl.Float64,
    "diff": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "confidence": pl.Float64,
    "verdict": pl.String,
    "games_to_decide": pl.Int64,
    "effects_differ": pl.String,
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
    budget_by_strength: Mapping[str, int] | None = None,
    decide: Sequence[str] | None = None,
    seconds: float | None = None,
    margin: float | Mapping[str, float] | None = None,
    executor: Executor | None = None, progress: bool = True, confidence: float = 0.95,
    store: StorePath = None, resume: bool = False, overwrite: bool = False,
) -> pl.DataFrame:
    """Variant minus baseline for every metric under each strength of play, with a verdict.

    ``baseline``/``variant`` as for ``compare``. ``strengths``: line-ups (default: the game's
    default agent, "fitted" and "search", those it has). ``games`` per strength, except where
    ``games_by_strength`` says otherwise (search starts with 2.5%, at least 50).

    **Playing until decided.** A strength whose budget (``budget_by_strength``, in games;
    default: search, 4 times its first games, at most ``games``) exceeds its first games
    doubles its games, on seeds of its own, while a metric of ``decide`` (default: all) is
    "unclear under" it, until the verdict is decided or the budget spent. ``seconds`` adds an
    opt-in wall-clock budget for the extra games (runs then differ by machine). To keep the
    chance of any false exclusion of 0 over all its looks within 1 - ``confidence``, such a
    strength's intervals are Bonferroni intervals over its planned looks (column
    ``confidence``).

    ``margin``: an equivalence margin δ (one number, or metric -> δ) for "no effect beyond ±δ".

    One row per metric x strength: ``n`` (paired games), each side's value, ``diff`` with its
    paired ``low``-``high`` interval, the metric's ``verdict`` (module docstring),
    ``games_to_decide`` for a strength that leaves a verdict unclear (the games its interval
    would need to exclude 0 with probability POWER, were its effect the smallest measured under
    the other strengths: a normal approximation from its standard error), and
    ``effects_differ``: the pairs of strengths whose effects differ measurably, with an
    interval on the difference. Every strength plays game g from the same seed, so those
    intervals count the covariance of the two strengths' per-game effects; t intervals with
    min(n) - 1 degrees of freedom, Bonferroni-adjusted over the pairs (and looks). Not for
    derived metrics, which have no per-game values. ``store``/``resume``/``overwrite`` as for
    ``sweep``.
    """
    game, games, seed = check_run(game, games, seed, confidence)
    require_variant(game, variant)
    strengths = _default_strengths(game) if strengths is None else list(strengths)
    if not strengths:
        raise ValueError("strengths is empty: name at least one line-up, e.g. ('fitted',)")
    labels = [lineup_label(s) for s in strengths]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ValueError(f"strengths names {repeated} more than once; name each line-up once")
    counts = _games_per_strength(strengths, games, games_by_strength)
    budgets = _budgets(labels, counts, games, budget_by_strength)
    looks = [_looks(first, budget) for first, budget in zip(counts, budgets, strict=True)]
    levels = [1 - (1 - confidence) / len(planned) for planned in looks]
    if seconds is not None and not (isinstance(seconds, int | float) and seconds > 0):
        raise ValueError(f"seconds must be a positive number of seconds or None, got {seconds!r}")
    base, changed, problems = baseline_and_variant(game, baseline, variant)
    known = [info.name for info in metric_catalogue((base or game.Rules()).players, game)]
    problems += [f"decide: unknown metric {m!r}; metrics: {', '.join(known)}"
                 for m in (decide or ()) if m not in known]  # fmt: skip
    margins = _margins(margin, known, problems)
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
            "units": [[label, n, side] for label, n in zip(labels, counts, strict=True)
                      for side in ("baseline", "variant")],
            "budgets": budgets, "confidence": confidence, "seconds": seconds,
            "decide": sorted(decide) if decide is not None else None,
        }  # fmt: skip
        kept = RunStore.open(store, identity, resume=resume, overwrite=overwrite)
    runner = _Runner(executor, progress, f"robust compare {game.id}", kept)
    first = runner.run(tasks)
    sides = [[[first[2 * i][0]], [first[2 * i + 1][0]]] for i in range(len(strengths))]
    totals, look, started = list(counts), 0, time.monotonic()
    while True:
        # A strength's looks as one run (their game ids never collide: see ``_shifted``).
        values = [tuple(map(GameValues.concat, parts)) for parts in sides]
        rows = _rows(values, labels, levels, game)
        judged = verdicts(rows, margins)
        extend = _to_extend(rows, judged, labels, totals, budgets, decide)
        out_of_time = seconds is not None and time.monotonic() - started >= seconds
        if not extend or out_of_time:
            break
        look += 1
        more_tasks = []
        for index in extend:
            size = min(totals[index], budgets[index] - totals[index])
            for side in (0, 1):
                task = tasks[2 * index + side]
                more_tasks.append(task._replace(games=size, seed=derive_seed(seed, look)))
        extra = runner.run(more_tasks)
        for position, index in enumerate(extend):
            for side in (0, 1):
                sides[index][side].append(_shifted(extra[2 * position + side][0], look))
            totals[index] += more_tasks[2 * position].games
    result = rows.join(judged, on="metric", how="left", maintain_order="left")
    result = result.with_columns(
        games_to_decide=pl.Series(_games_to_decide(result), dtype=pl.Int64),
    )
    differ = _effects_differ(values, labels, [len(p) for p in looks], confidence)
    result = result.with_columns(
        effects_differ=pl.col("metric").replace_strict(differ, default="", return_dtype=pl.String)
    )
    return result.select(*ROBUST_SCHEMA).cast(ROBUST_SCHEMA).with_columns(
        game=pl.lit(game.id),
        baseline_name=pl.lit(rules_label(game, base)),
        variant_name=pl.lit(rules_label(game, changed, base)),
        seed=pl.lit(seed, pl.Int64),
    )


def verdicts(
    rows: pl.DataFrame, margin: float | Mapping[str, float] | None = None
) -> pl.DataFrame:
    """Per metric, its verdict from the rows' intervals (``metric``, ``low``, ``high``, and
    ``strength`` to name an unclear one); see the module docstring for the rules."""
    margins = margin if isinstance(margin, Mapping) else None
    records = []
    for (metric,), group in rows.group_by("metric", maintain_order=True):
        names = group["strength"].to_list() if "strength" in group.columns else [
            f"strength {i + 1}" for i in range(group.height)]  # fmt: skip
        lows, highs = group["low"].to_list(), group["high"].to_list()
        above = [_defined(lo) and lo > 0 for lo in lows]
        below = [_defined(hi) and hi < 0 for hi in highs]
        unclear = [name for name, a, b in zip(names, above, below, strict=True) if not (a or b)]
        unchanged = {name for name, lo, hi in zip(names, lows, highs, strict=True)
                     if lo == 0 and hi == 0}  # fmt: skip
        delta = margins.get(metric) if margins is not None else margin
        if all(above) or all(below):
            label = "robust"
        elif any(above) and any(below):
            label = "reverses with play"
        elif any(above) or any(below):
            kind = "unchanged under " if unchanged >= set(unclear) else "unclear under "
            label = kind + _join(unclear)
        elif len(unchanged) == len(names):
            label = "no change"
        elif delta is not None and all(
            _defined(lo) and _defined(hi) and -delta <= lo and hi <= delta
            for lo, hi in zip(lows, highs, strict=True)
        ):
            label = f"no effect beyond ±{delta:g}"
        else:
            label = "no clear effect"
        records.append({"metric": metric, "verdict": label})
    return pl.DataFrame(records, {"metric": pl.String, "verdict": pl.String})


def _defined(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _join(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class _Runner:
    """Runs rounds of tasks, numbering their units on from the last round's in the store."""

    def __init__(self, executor, progress, description, store) -> None:
        self.executor, self.progress, self.description = executor, progress, description
        self.store, self.next_unit = store, 0

    def run(self, tasks: list[CellTask]) -> list[Any]:
        results = run_tasks(
            cell_values, tasks, executor=self.executor, weights=[t.games for t in tasks],
            progress=self.progress, description=self.description, store=self.store,
            first_unit=self.next_unit,
        )  # fmt: skip
        self.next_unit += len(tasks)
        return results


def _shifted(values: GameValues, look: int) -> GameValues:
    """A later look's games, their ids shifted: they were played from another seed."""
    return GameValues(values.games + look * LOOK_STRIDE, values.players, values.values)


def _rows(values, labels, levels, game) -> pl.DataFrame:
    frames = []
    for (base_values, variant_values), label, level in zip(values, labels, levels, strict=True):
        summary = paired_summary(base_values, variant_values, game, level)
        frames.append(summary.select(
            "metric", pl.lit(label).alias("strength"), "n", "baseline", "variant",
            pl.col("difference").alias("diff"), pl.col("difference_low").alias("low"),
            pl.col("difference_high").alias("high"), pl.lit(level).alias("confidence"),
        ))  # fmt: skip
    return pl.concat(frames)


def _to_extend(rows, judged, labels, totals, budgets, decide) -> list[int]:
    """The sequential strengths (budget left) that leave a metric of ``decide`` unclear."""
    unclear = judged.filter(pl.col("verdict").str.starts_with("unclear under"))
    if decide is not None:
        unclear = unclear.filter(pl.col("metric").is_in(list(decide)))
    undecided = rows.join(unclear.select("metric"), on="metric").filter(
        ~((pl.col("low") > 0) | (pl.col("high") < 0)).fill_null(False)
    )
    named = set(undecided["strength"].to_list())
    return [i for i, label in enumerate(labels) if label in named and totals[i] < budgets[i]]


def _games_to_decide(frame: pl.DataFrame) -> list[int | None]:
    """Per row (see ``robust_compare``): for an undecided strength of an "unclear under"
    metric, n = ((z + z_power) * sd / effect)^2 with sd = the interval's half-width / z *
    sqrt(n), effect = the smallest |diff| among the strengths that decided."""
    decided_effect: dict[str, float] = {}
    for row in frame.iter_rows(named=True):
        if _defined(row["low"]) and (row["low"] > 0 or row["high"] < 0):
            size = abs(row["diff"])
            decided_effect[row["metric"]] = min(size, decided_effect.get(row["metric"], size))
    found: list[int | None] = []
    for row in frame.iter_rows(named=True):
        effect = decided_effect.get(row["metric"])
        undecided = not (_defined(row["low"]) and (row["low"] > 0 or row["high"] < 0))
        if (not row["verdict"].startswith("unclear under") or not undecided or not effect
                or not _defined(row["low"]) or row["high"] <= row["low"]):  # fmt: skip
            found.append(None)
            continue
        z = float(stats.norm.ppf(0.5 + row["confidence"] / 2))
        sd = (row["high"] - row["low"]) / (2 * z) * math.sqrt(row["n"])
        found.append(math.ceil(((z + float(stats.norm.ppf(POWER))) * sd / effect) ** 2))
    return found


def _per_game_effects(base: GameValues, variant: GameValues) -> dict[str, tuple]:
    """Per metric with per-game values: (game ids, variant minus baseline) over paired games."""
    common, in_base, in_variant = np.intersect1d(
        base.games, variant.games, assume_unique=True, return_indices=True
    )
    found = {}
    for name, first in base.values.items():
        second = variant.values.get(name)
        if second is None:
            continue
        effect = second[in_variant] - first[in_base]
        keep = ~np.isnan(effect)
        found[name] = (common[keep], effect[keep])
    return found


def _effects_differ(values, labels, looks, confidence) -> dict[str, str]:
    """Per metric, the pairs of strengths whose effects differ measurably (see
    ``robust_compare``), as text; '' when none does."""
    effects = [_per_game_effects(base, variant) for base, variant in values]
    pairs = list(combinations(range(len(labels)), 2))
    found: dict[str, list[str]] = {}
    for metric in effects[0] if effects else {}:
        for i, j in pairs:
            if metric not in effects[i] or metric not in effects[j]:
                continue
            (ids_i, d_i), (ids_j, d_j) = effects[i][metric], effects[j][metric]
            n_i, n_j = d_i.size, d_j.size
            if n_i < 2 or n_j < 2:
                continue
            _, at_i, at_j = np.intersect1d(ids_i, ids_j, assume_unique=True,
                                           return_indices=True)  # fmt: skip
            shared = at_i.size
            covariance = float(np.cov(d_i[at_i], d_j[at_j])[0, 1]) if shared >= 2 else 0.0
            variance = (d_i.var(ddof=1) / n_i + d_j.var(ddof=1) / n_j
                        - 2 * covariance * shared / (n_i * n_j))  # fmt: skip
            if not variance > 0:
                continue
            alpha = (1 - confidence) / len(pairs) / max(looks[i], looks[j])
            half = float(stats.t.ppf(1 - alpha / 2, min(n_i, n_j) - 1)) * math.sqrt(variance)
            gap = float(d_i.mean() - d_j.mean())
            if abs(gap) > half:
                found.setdefault(metric, []).append(
                    f"{labels[i]} − {labels[j]} {number(gap, 3, signed=True)} "
                    f"({interval(gap - half, gap + half, 3, signed=True)})"
                )
    return {metric: "; ".join(texts) for metric, texts in found.items()}


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
        else min(games, search_games) if label in SEQUENTIAL else games
        for label in labels
    ]  # fmt: skip


def _budgets(
    labels: list[str], counts: list[int], games: int, override: Mapping[str, int] | None
) -> list[int]:
    """Each strength's budget in games (see ``robust_compare``); at least its first games."""
    override = dict(override or {})
    unknown = sorted(set(override) - set(labels))
    if unknown:
        raise ValueError(f"budget_by_strength names {unknown}, not among the strengths {labels}")
    budgets = []
    for label, first in zip(labels, counts, strict=True):
        if label in override:
            budget = positive_count(f"budget_by_strength[{label!r}]", override[label])
            if budget < first:
                raise ValueError(f"budget_by_strength[{label!r}] = {budget} is below the "
                                 f"{first} games it starts with")  # fmt: skip
        elif label in SEQUENTIAL:
            budget = max(first, min(games, BUDGET_FACTOR * first))
        else:
            budget = first
        budgets.append(budget)
    return budgets


def _looks(first: int, budget: int) -> list[int]:
    """The totals at which a sequential strength is judged: first, doubling, the budget."""
    totals = [first]
    while totals[-1] < budget:
        totals.append(min(budget, 2 * totals[-1]))
    return totals


def _margins(margin: Any, known: list[str], problems: list[str]) -> Any:
    """``margin`` checked: None, one positive number, or metric -> positive number."""
    if margin is None:
        return None
    items = margin.items() if isinstance(margin, Mapping) else [("margin", margin)]
    for name, delta in items:
        if isinstance(margin, Mapping) and name not in known:
            problems.append(f"margin: unknown metric {name!r}; metrics: {', '.join(known)}")
        if isinstance(delta, bool) or not isinstance(delta, int | float) or not delta > 0:
            problems.append(f"margin[{name!r}] must be a positive number, got {delta!r}")
    return dict(margin) if isinstance(margin, Mapping) else margin


__all__ = [
    "ROBUST_SCHEMA",
    "VERDICT_KINDS",
    "robust_compare",
    "verdict_kind",
    "verdicts",
]
