"""Rule tuning: find the rule settings that put chosen metrics inside target bands.

``tune`` proposes rule sets from a space (each field: a list of values, or a numeric (low,
high) range) with optuna (every point of a small grid once, else TPE sampling), and spends
its budget of games where they matter by successive halving: a candidate plays a few games,
then more only while its distance to the targets stays among the best at that stage (optuna's
successive-halving pruner). Every candidate plays the same seed, so game g is the same deal
for each (common random numbers). A run always ends: when ``INVALID_LIMIT`` candidates in a
row cannot be played (their rules or line-up refused) it stops, and when no candidate could be
played it says why instead of returning an empty table.

Distance to the targets: for each target metric with band [low, high], how far its value lies
outside the band (0 inside), divided by the band's width (or by the size of its one bound
when the band is open, 1 for a bound of 0); summed over the targets. ``meets``: every target
metric's interval lies inside its band. ``verdict`` says what the intervals showed: "meets
every target" (``meets``), "misses a target" (some target metric's interval lies wholly
outside its band), else "unclear" (an interval crosses a band's edge, or is undefined: more
games could go either way).
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from workbench.designer.balance import metric_catalogue, summary_rows
from workbench.designer.cells import (
    CellTask,
    InvalidCells,
    build_rules,
    check_fields,
    check_run,
    designer_lineup,
    lineup_label,
    positive_count,
    resolve_agents,
    resolve_rules,
    rules_label,
    summarise_cell,
    value_label,
)
from workbench.kit.game import Game
from workbench.kit.progress import progress_bar
from workbench.kit.store import RunStore, StorePath

#: Games a candidate plays at each stage grow by this factor (successive halving's eta).
REDUCTION = 3
#: Stages of successive halving: a candidate that survives every cut plays
#: first_games x REDUCTION ** (STAGES - 1) games.
STAGES = 3
#: Largest grid that is walked in full (in a seeded random order) before any repeat.
GRID_LIMIT = 10_000
#: Candidates in a row that cannot be played before the run stops.
INVALID_LIMIT = 25
#: A candidate's verdict on the targets, best first (see the module docstring).
TUNE_VERDICTS = ("meets every target", "misses a target", "unclear")


@dataclass(frozen=True)
class Band:
    """A target band for one metric; None is an open end."""

    metric: str
    low: float | None
    high: float | None

    def distance(self, value: float) -> float:
        """How far ``value`` lies outside the band, in band widths (see the module docstring)."""
        if value is None or math.isnan(value):
            return math.inf
        below = self.low - value if self.low is not None else 0.0
        above = value - self.high if self.high is not None else 0.0
        return max(0.0, below, above) / self.scale

    @property
    def scale(self) -> float:
        if self.low is not None and self.high is not None and self.high > self.low:
            return self.high - self.low
        bound = self.low if self.low is not None else self.high
        return abs(bound) if bound else 1.0

    def holds(self, low: float, high: float) -> bool:
        """Does the interval [low, high] lie inside the band?"""
        if any(v is None or math.isnan(v) for v in (low, high)):
            return False
        return (self.low is None or low >= self.low) and (self.high is None or high <= self.high)

    def misses(self, low: float, high: float) -> bool:
        """Does the interval [low, high] lie wholly outside the band?"""
        if any(v is None or math.isnan(v) for v in (low, high)):
            return False
        return (self.low is not None and high < self.low) or (
            self.high is not None and low > self.high
        )


def tune(
    game: str | Game,
    space: Mapping[str, Any],
    targets: Mapping[str, tuple[float | None, float | None]],
    *,
    agents: Any = None,
    budget: int,
    seed: int,
    base_rules: Any = None,
    first_games: int | None = None,
    progress: bool = True, confidence: float = 0.95,
    store: StorePath = None, resume: bool = False, overwrite: bool = False,
) -> pl.DataFrame:
    """The rule settings in ``space`` ranked by distance to ``targets``.

    ``space``: rule field -> list of values (any values the field takes, tuples included), or
    (low, high) for a numeric field (ints give whole numbers). ``targets``: metric -> (low,
    high), None for an open end. ``agents``: every candidate's line-up (None:
    ``designer_lineup``). ``base_rules``: the rules the space changes (Rules, a mapping of
    changes, or None). ``budget``: games to spend in all. ``first_games``: games each candidate
    plays first (default: budget / 40, at least 50); survivors play REDUCTION times more,
    STAGES times.

    One row per candidate tried, best first: its rule values, ``distance``, ``meets``,
    ``verdict`` (module docstring), each target metric's value and interval (``<metric>``,
    ``<metric>_low``, ``<metric>_high``), ``games`` it played and ``seed``
    (``simulate(rules, agents, games=games, seed=seed)`` reproduces its numbers), ``stage``
    reached, ``rules`` as a label and ``agents``.
    """
    game, budget, seed = check_run(game, budget, seed, confidence)
    agents = designer_lineup(game, agents)
    base, problems = resolve_rules(game, base_rules, game.Rules(), "base_rules")
    if problems:
        raise InvalidCells(problems)
    first = max(50, budget // 40)
    if first_games is not None:
        first = positive_count("first_games", first_games)
    if budget < first:
        raise ValueError(
            f"budget is {budget} games in all, fewer than one candidate's first games ({first}):"
            f" give a budget of at least {first}, or fewer first_games"
        )
    dimensions, bands = _check(game, base, space, targets)
    choices = _choices(dimensions)
    study = _study(dimensions, seed, first)
    kept = None
    if store is not None:
        identity = {
            "command": "tune", "game": game.id, "seed": seed, "budget": budget,
            "first_games": first, "agents": lineup_label(agents),
            "base": rules_label(game, base), "space": {k: repr(v) for k, v in space.items()},
            "targets": {k: list(v) for k, v in targets.items()}, "confidence": confidence,
        }  # fmt: skip
        kept = RunStore.open(store, identity, resume=resume, overwrite=overwrite)
    rows, spent, index, invalid_in_a_row = [], 0, 0, 0
    bar = progress_bar(budget, enabled=progress, description=f"tune {game.id}")
    try:
        while (spent < budget and invalid_in_a_row < INVALID_LIMIT
               and not _exhausted(study, dimensions, index)):  # fmt: skip
            trial = study.ask(_distributions(dimensions))
            found, row = kept.load(index) if kept is not None else (False, None)
            if not found:
                row = _evaluate(game, base, agents, trial, bands, first, seed, confidence,
                                budget - spent, choices, progress)  # fmt: skip
                if kept is not None:
                    kept.save(index, row)
            _tell(study, trial, row, replay=found)
            rows.append(row)
            invalid_in_a_row = invalid_in_a_row + 1 if row["games"] == 0 else 0
            spent += row["games"]
            bar.update(min(row["games"], max(0, budget - spent + row["games"])))
            index += 1
    except BaseException:
        bar.close()
        if kept is not None:  # candidates are drawn one by one: how many in all is not known
            print(kept.stopped(), file=sys.stderr)
        raise
    finally:
        bar.close()
    if not any(row["games"] for row in rows):
        problems = sorted({row["status"].removeprefix("invalid: ") for row in rows})
        if kept is not None:  # it holds only refusals: nothing worth resuming
            kept.remove()
        raise InvalidCells([f"no candidate could be played: {problem}" for problem in problems])
    return _ranked(rows, list(space), bands, agents, seed, game, choices)


def _evaluate(game, base, agents, trial, bands, first, seed, confidence, left, choices,
              progress) -> dict:  # fmt: skip
    """Play one candidate stage by stage (more games while it survives the cuts)."""
    values = dict(trial.params)
    row: dict[str, Any] = {"values": values, "games": 0, "stage": 0, "status": "complete"}
    rules, problem = build_rules(game, base, _decoded(values, choices))
    made = None
    if rules is not None:
        made, problem = resolve_agents(game, rules, agents, progress=progress)
    if problem:
        return {**row, "status": f"invalid: {problem}", "distance": math.inf, "metrics": {}}
    row["rules"] = rules_label(game, rules)
    for stage in range(STAGES):
        games = first * REDUCTION**stage
        if games > left and stage > 0:
            break
        summary = summarise_cell(CellTask(game, rules, made, games, seed))
        rows = summary_rows(summary.moments, metric_catalogue(summary.players, game),
                            confidence)  # fmt: skip
        found = {r["metric"]: (r["value"], r["low"], r["high"]) for r in rows}
        row["metrics"] = {band.metric: found.get(band.metric, (math.nan,) * 3) for band in bands}
        row["distance"] = sum(band.distance(row["metrics"][band.metric][0]) for band in bands)
        row["games"], row["stage"] = games, stage + 1
        row.setdefault("reports", []).append((games, row["distance"]))
        trial.report(_finite(row["distance"]), games)
        if trial.should_prune():
            row["status"] = "pruned"
            break
    return row


def _tell(study, trial, row, *, replay: bool) -> None:
    """Tell the study how the candidate did; a row read from the store first replays the
    stage results it reported when it ran, so the pruner decides later ones as it did then."""
    import optuna

    for games, distance in row.get("reports", []) if replay else []:
        trial.report(_finite(distance), games)
        trial.should_prune()  # the pruner keeps the rung each report reached, as it did then
    if row["status"] == "complete":
        study.tell(trial, _finite(row["distance"]))
    elif row["status"] == "pruned":
        study.tell(trial, state=optuna.trial.TrialState.PRUNED)
    else:
        study.tell(trial, state=optuna.trial.TrialState.FAIL)


def _finite(distance: float) -> float:
    return distance if math.isfinite(distance) else 1e9


def _check(game, base, space, targets) -> tuple[dict[str, Any], list[Band]]:
    """The space's dimensions and the target bands; every problem at once, before any game."""
    problems = []
    if not isinstance(space, Mapping) or not space:
        raise ValueError("space is empty: give rule field -> list of values or (low, high)")
    if not isinstance(targets, Mapping) or not targets:
        raise ValueError("targets is empty: give metric -> (low, high), None for an open end")
    problems += check_fields(game, list(space))
    dimensions = {}
    for name, values in space.items():
        if isinstance(values, tuple) and len(values) == 2 and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values
        ):
            if not values[0] < values[1]:
                problems.append(f"space[{name!r}]: range {values} needs low < high")
            problems += _range_fits_field(name, values, getattr(base, name, None))
            dimensions[name] = values
        elif isinstance(values, list | tuple | range | np.ndarray) and len(values) > 0:
            dimensions[name] = list(values)
        else:
            problems.append(f"space[{name!r}]: give a non-empty list of values or (low, high)")
    players = max([base.players, *[v for v in np.ravel(space.get("players", [])) if
                                    isinstance(v, int | np.integer)]])  # fmt: skip
    known = [info.name for info in metric_catalogue(int(players), game)]
    bands = []
    for metric, band in targets.items():
        if metric not in known:
            problems.append(f"unknown metric {metric!r}; metrics: {', '.join(known)}")
            continue
        if not (isinstance(band, tuple | list) and len(band) == 2) or band == (None, None):
            problems.append(f"targets[{metric!r}]: give (low, high) with at most one None")
            continue
        low, high = band
        if low is not None and high is not None and low > high:
            problems.append(f"targets[{metric!r}]: low {low} is above high {high}")
        bands.append(Band(metric, low, high))
    if problems:
        raise InvalidCells(problems)
    return dimensions, bands


def _range_fits_field(name: str, bounds: tuple, current: Any) -> list[str]:
    """A range draws numbers: the field must hold one (as the base rules' value does), and a
    whole number's range must have whole ends."""
    if current is None:
        return []  # an unknown field: check_fields said so
    if isinstance(current, bool) or not isinstance(current, int | float | np.number):
        return [f"space[{name!r}]: a range draws numbers, but {name} is {current!r}; give its "
                "values as a list"]  # fmt: skip
    if isinstance(current, int | np.integer) and not all(isinstance(v, int) for v in bounds):
        return [f"space[{name!r}]: {name} is a whole number; give the range's ends as whole "
                f"numbers, got {bounds}"]  # fmt: skip
    return []


def _distributions(dimensions: Mapping[str, Any]) -> dict[str, Any]:
    from optuna.distributions import (
        CategoricalDistribution,
        FloatDistribution,
        IntDistribution,
    )

    made = {}
    for name, values in dimensions.items():
        if isinstance(values, tuple):
            low, high = values
            both_ints = all(isinstance(v, int) for v in values)
            made[name] = IntDistribution(low, high) if both_ints else FloatDistribution(low, high)
        else:
            made[name] = CategoricalDistribution([_choice(v) for v in values])
    return made


def _choice(value: Any) -> Any:
    """A grid value as optuna stores it: None, a bool, number or string as is, anything else
    (a tuple of collection values, say) by its repr, read back by ``_choices``."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return value_label(value)


def _choices(dimensions: Mapping[str, Any]) -> dict[str, dict[Any, Any]]:
    """Per listed field, each stored choice -> the value it stands for (for values optuna
    cannot store; two values with one label are refused)."""
    found: dict[str, dict[Any, Any]] = {}
    for name, values in dimensions.items():
        if isinstance(values, tuple):
            continue
        labels: dict[Any, Any] = {}
        for value in values:
            label = _choice(value)
            if label in labels and labels[label] != value:
                raise InvalidCells([f"space[{name!r}]: values {labels[label]!r} and {value!r} "
                                    "cannot be told apart"])  # fmt: skip
            labels[label] = value
        found[name] = labels
    return found


def _decoded(stored: Mapping[str, Any], choices: Mapping[str, Mapping[Any, Any]]) -> dict:
    """Trial parameters as rule values (labels of tuple values read back)."""
    return {name: choices.get(name, {}).get(value, value) for name, value in stored.items()}


def _grid(dimensions: Mapping[str, Any]) -> dict[str, list[Any]] | None:
    """The space as a grid when every field is a list and the grid is small, else None."""
    if any(isinstance(v, tuple) for v in dimensions.values()):
        return None
    if math.prod(len(v) for v in dimensions.values()) > GRID_LIMIT:
        return None
    return {name: [_choice(v) for v in values] for name, values in dimensions.items()}


def _study(dimensions: Mapping[str, Any], seed: int, first: int) -> Any:
    """An optuna study: a small grid is queued in full in a seeded random order (so each point
    is tried once); a larger space is sampled by TPE."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    pruner = optuna.pruners.SuccessiveHalvingPruner(
        min_resource=first, reduction_factor=REDUCTION, min_early_stopping_rate=0
    )
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=8)
    study = optuna.create_study(direction="minimize", sampler=sampler, pruner=pruner)
    grid = _grid(dimensions)
    if grid is not None:
        points = list(itertools.product(*grid.values()))
        for index in np.random.default_rng(seed).permutation(len(points)):
            study.enqueue_trial(dict(zip(grid, points[index], strict=True)))
    return study


def _exhausted(study: Any, dimensions: Mapping[str, Any], tried: int) -> bool:
    """Every point of a grid space has been tried."""
    grid = _grid(dimensions)
    return grid is not None and tried >= math.prod(len(v) for v in grid.values())


def _ranked(rows, fields, bands, agents, seed, game, choices) -> pl.DataFrame:
    records = []
    for trial, row in enumerate(rows):
        metrics = row.get("metrics", {})
        record = {field: row["values"].get(field) for field in fields}
        record = _decoded(record, choices)
        record["distance"] = row["distance"]
        record["meets"] = bool(metrics) and all(
            band.holds(*metrics[band.metric][1:]) for band in bands
        )
        record["verdict"] = _verdict(record["meets"], metrics, bands)
        for band in bands:
            value, low, high = metrics.get(band.metric, (math.nan,) * 3)
            record.update({band.metric: value, f"{band.metric}_low": low,
                           f"{band.metric}_high": high})  # fmt: skip
        record.update(games=row["games"], stage=row["stage"], status=row["status"],
                      seed=seed, trial=trial, rules=row.get("rules", ""),
                      agents=lineup_label(agents))  # fmt: skip
        records.append(record)
    frame = pl.DataFrame(records, infer_schema_length=None)
    frame = frame.sort(["meets", "distance", "games", "trial"], descending=[True, False, True,
                                                                             False])  # fmt: skip
    return frame.with_columns(game=pl.lit(game.id)).with_row_index("rank", offset=1)


def _verdict(meets: bool, metrics: dict, bands: list[Band]) -> str:
    """What a candidate's intervals showed about the targets (see the module docstring)."""
    if meets:
        return TUNE_VERDICTS[0]
    if any(band.misses(*metrics.get(band.metric, (math.nan,) * 3)[1:]) for band in bands):
        return TUNE_VERDICTS[1]
    return TUNE_VERDICTS[2]


__all__ = ["REDUCTION", "STAGES", "TUNE_VERDICTS", "Band", "tune"]
