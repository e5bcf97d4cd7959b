"""Rule sweeps: every combination of a grid of rule values (and, optionally, agent line-ups),
each cell simulated from its own seed, every balance metric with n and a 95% interval.

    sweep("rubbish", grid={"destined_bonus": [10, 30, 50]}, agents="heuristic",
          games=100_000, seed=1)

One row per cell × metric. Each cell's seed comes from the base seed and the cell's own
parameters (``workbench.designer.cells``), so a cell re-run alone, or inside another grid,
gives the same numbers. Cells run in local processes by default (``executor``).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from workbench.designer.balance import SUMMARY_SCHEMA, metric_catalogue, summary_rows
from workbench.designer.cells import (
    AGENTS_AXIS,
    CellTask,
    InvalidCells,
    build_rules,
    cell_seed,
    check_fields,
    check_run,
    designer_lineup,
    lineup_label,
    plain,
    resolve_agents,
    resolve_rules,
    rule_fields,
    rules_label,
    summarise_cell,
    value_label,
)
from workbench.designer.executors import run_tasks
from workbench.kit.game import Game
from workbench.kit.store import RunStore, StorePath
from workbench.stats import check_confidence


@dataclass(frozen=True)
class SweepCell:
    """One cell of a sweep: its grid values (axis -> value), rules, line-up and seed."""

    values: dict[str, Any]
    rules: Any
    agents: Any  # the line-up as given (for labels and the seed)
    seed: int
    made: list[Any] | None = None  # the agents, one per seat (None: the game's default)

    @property
    def label(self) -> str:
        """'destined_bonus=30, agents=heuristic'."""
        return ", ".join(
            f"{axis}={lineup_label(value) if axis == AGENTS_AXIS else value_label(value)}"
            for axis, value in self.values.items()
        )


@dataclass(frozen=True)
class SweepPlan:
    """A validated sweep: the game, its cells in grid order, games per cell."""

    game: Game
    axes: tuple[str, ...]
    cells: tuple[SweepCell, ...]
    games: int


def plan_sweep(
    game: str | Game,
    base_rules: Any = None,
    grid: Mapping[str, Sequence[Any]] | None = None,
    agents: Any = None,
    *,
    games: int,
    seed: int,
    progress: bool = True,
) -> SweepPlan:
    """Check everything and list the cells, running nothing but the fits a ``fitted`` line-up
    needs. Every problem of every cell is raised together as ``InvalidCells``."""
    game, games, seed = check_run(game, games, seed)
    if not (isinstance(grid, Mapping) and AGENTS_AXIS in grid):
        agents = designer_lineup(game, agents)
    base, problems = resolve_rules(game, base_rules, game.Rules(), "base_rules")
    if problems:
        raise InvalidCells(problems)
    axes, problems = _check_grid(game, grid, agents)
    cells = []
    for combination in itertools.product(*(axes[axis] for axis in axes)):
        values = dict(zip(axes, combination, strict=True))
        changes = {axis: value for axis, value in values.items() if axis != AGENTS_AXIS}
        lineup = values.get(AGENTS_AXIS, agents)
        cell = SweepCell(values, None, lineup, 0)
        rules, problem = build_rules(game, base, changes)
        made = None
        if not problem:
            made, problem = resolve_agents(game, rules, lineup, progress=progress)
        if problem:
            problems.append(f"cell {cell.label}: {problem}")
            continue
        seed_of_cell = cell_seed(seed, game, rules, lineup)
        cells.append(SweepCell(values, rules, lineup, seed_of_cell, made))
    if problems:
        raise InvalidCells(problems)
    return SweepPlan(game, tuple(axes), tuple(cells), games)


def _check_grid(
    game: Game, grid: Any, agents: Any
) -> tuple[dict[str, list[Any]], list[str]]:
    """The grid's axes that can be tried, and the problems with the rest."""
    if grid is None or (isinstance(grid, Mapping) and not grid):
        raise ValueError(
            "grid is empty: give each rule field to vary and its values, {field: [values]} "
            f"({game.id}'s fields: {', '.join(rule_fields(game))}), or {{'agents': [line-ups]}}"
        )
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid must map rule fields to lists of values, got {type(grid).__name__}")
    problems = []
    axes: dict[str, list[Any]] = {}
    for axis, values in grid.items():
        if not isinstance(axis, str):
            problems.append(f"grid keys must be rule field names, got {axis!r}")
            continue
        if isinstance(values, str | bytes) or not isinstance(values, Sequence | np.ndarray):
            problems.append(
                f"grid[{axis!r}] must be a list of values, got {values!r}"
                + (f" (did you mean [{values!r}]?)" if isinstance(values, str | int) else "")
            )
            continue
        listed = [v if axis == AGENTS_AXIS else plain(v) for v in values]
        if not listed:
            problems.append(f"grid[{axis!r}] is empty: give at least one value")
            continue
        repeated = sorted(
            {value_label(v) for i, v in enumerate(listed) if any(v == w for w in listed[:i])}
        )
        if repeated:
            problems.append(f"grid[{axis!r}] repeats {', '.join(repeated)}: list each value once")
        axes[axis] = listed
    unknown = [axis for axis in axes if axis != AGENTS_AXIS and axis not in rule_fields(game)]
    problems += check_fields(game, unknown)
    axes = {axis: values for axis, values in axes.items() if axis not in unknown}
    if AGENTS_AXIS in axes and agents is not None:
        problems.append(
            "give the line-up either as agents= or as the grid's 'agents' axis, not both"
        )
    return axes, problems


def sweep(
    game: str | Game,
    base_rules: Any = None,
    grid: Mapping[str, Sequence[Any]] | None = None,
    agents: Any = None,
    *,
    games: int,
    seed: int,
    executor: Executor | None = None, progress: bool = True, confidence: float = 0.95,
    store: StorePath = None, resume: bool = False, overwrite: bool = False,
) -> pl.DataFrame:
    """Every combination of ``grid`` played ``games`` times: one row per cell × metric.

    ``grid`` maps rule fields of ``game`` to the values to try, applied to ``base_rules`` (the
    game's Rules, or a mapping of changes to the rulebook's; default: the rulebook's); the key
    "agents" makes the line-up an axis too (a list of line-ups). ``agents`` is the line-up
    otherwise (None: ``designer_lineup``). Columns: game, one per axis, agents, cell (label),
    seed (the cell's own), games, seats, then the metric's name, kind, n, value, low, high,
    interval, source, description.

    ``executor``: None runs the cells in local processes on all cores; any
    ``concurrent.futures.Executor`` (a Dask client's ``get_executor()``, ``SerialExecutor()``)
    runs them there, with identical results.

    ``store``: a folder where each finished cell is kept as it completes
    (``workbench.kit.store``); the same call with ``resume=True`` finishes a stopped run,
    running only the cells not yet kept. An existing store is refused unless ``resume`` (same
    sweep) or ``overwrite`` (start again). The store stays when the run ends: the same call
    with ``resume=True`` then reads every cell back; the command line removes it once its
    output is written.
    """
    check_confidence(confidence)
    plan = plan_sweep(game, base_rules, grid, agents, games=games, seed=seed, progress=progress)
    return run_sweep(
        plan, executor=executor, progress=progress, confidence=confidence,
        store=store, resume=resume, overwrite=overwrite,
    )  # fmt: skip


def sweep_identity(plan: SweepPlan) -> dict[str, Any]:
    """What makes a sweep the same run (for resuming from a store); a cell's seed carries the
    base seed."""
    return {
        "command": "sweep",
        "game": plan.game.id,
        "games": plan.games,
        "units": [
            [cell.label, rules_label(plan.game, cell.rules), lineup_label(cell.agents), cell.seed]
            for cell in plan.cells
        ],
    }


def run_sweep(
    plan: SweepPlan,
    *,
    executor: Executor | None = None, progress: bool = True, confidence: float = 0.95,
    store: StorePath = None, resume: bool = False, overwrite: bool = False,
) -> pl.DataFrame:
    """Run a checked ``plan_sweep`` plan (see ``sweep``)."""
    check_confidence(confidence)
    kept = None
    if store is not None:
        kept = RunStore.open(store, sweep_identity(plan), resume=resume, overwrite=overwrite)
    tasks = [
        CellTask(plan.game, cell.rules, cell.made, plan.games, cell.seed) for cell in plan.cells
    ]
    summaries = run_tasks(
        summarise_cell,
        tasks,
        executor=executor,
        weights=[plan.games] * len(tasks),
        progress=progress,
        description=f"sweep {plan.game}",
        store=kept,
    )
    frames = []
    for cell, summary in zip(plan.cells, summaries, strict=True):
        catalogue = metric_catalogue(summary.players, plan.game)
        rows = pl.DataFrame(summary_rows(summary.moments, catalogue, confidence), SUMMARY_SCHEMA)
        frames.append(
            rows.with_columns(
                cell=pl.lit(cell.label),
                agents=pl.lit(lineup_label(cell.agents)),
                seed=pl.lit(cell.seed, pl.Int64),
                games=pl.lit(plan.games, pl.Int64),
                seats=pl.lit(summary.players, pl.Int64),
            )
        )
    result = pl.concat(frames, how="vertical")
    axes = [axis for axis in plan.axes if axis != AGENTS_AXIS]
    row_cell = np.repeat(np.arange(len(plan.cells)), [frame.height for frame in frames])
    axis_columns = [
        _axis_series(axis, [cell.values[axis] for cell in plan.cells]).gather(row_cell)
        for axis in axes
    ]
    return result.with_columns(axis_columns, game=pl.lit(plan.game.id)).select(
        "game", *axes, "agents", "cell", "seed", "games", "seats", *SUMMARY_SCHEMA
    )


def _axis_series(name: str, values: list[Any]) -> pl.Series:
    """A column for a grid axis: ints, floats, strings or booleans keep their type (None as
    null); anything else (tuples, mixed types) becomes its text label."""
    present = [v for v in values if v is not None]
    kinds = {type(v) for v in present}
    if kinds <= {bool}:
        return pl.Series(name, values, pl.Boolean)
    if kinds <= {int}:
        return pl.Series(name, values, pl.Int64)
    if kinds <= {int, float}:
        return pl.Series(name, values, pl.Float64)
    if kinds <= {str}:
        return pl.Series(name, values, pl.String)
    return pl.Series(name, [value_label(v) for v in values], pl.String)


__all__ = ["InvalidCells", "SweepCell", "SweepPlan", "plan_sweep", "run_sweep", "sweep"]
