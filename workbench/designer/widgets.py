"""The designer's dashboard: pick a game, a rule field and the values to try, a line-up and a
metric; see the baseline against the first value that differs from it (paired, on the same
seeds) and the sweep over every value, each with 95% intervals. Built on
``workbench.widgets.Explorer``, so a test drives it with ``dashboard.set(...)``.

The games per rule set are the designer's to choose; left to the dashboard, they are chosen
for each game and line-up so that a change is answered in about ``ANSWER_SECONDS`` (measured
on a short run of the rulebook's rules): fewer games for a slow game, with wider intervals,
which every table and chart shows with its n.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl

from workbench import games as registry
from workbench.designer.balance import metric_catalogue
from workbench.designer.cells import (
    build_rules,
    check_seed,
    positive_count,
    rule_fields,
    value_label,
)
from workbench.designer.charts import compare_chart, sweep_chart
from workbench.designer.cli_input import parse_value, split_values
from workbench.designer.comparison import compare
from workbench.designer.executors import SerialExecutor
from workbench.designer.sweeps import sweep
from workbench.widgets import Explorer

SCALARS = (bool, int, float, str)
#: The simulation time the dashboard aims for when it chooses the games per rule set itself;
#: drawing the charts and the table adds about a quarter of a second, and the speed probe is
#: rough, so a change is answered in under a second (``bench/explorers.py``).
ANSWER_SECONDS = 0.25


def games_for_a_quick_answer(game: str, agents: Any = None, rule_sets: int = 5) -> int:
    """Games per rule set so that ``rule_sets`` runs take about ``ANSWER_SECONDS``, measured on
    a short run of the rulebook's rules with ``agents`` (whole hundreds, 100–20,000: a slow
    agent still plays 100 games a rule set, and takes longer than that to answer)."""
    game = registry.get(game)
    per_game = 0.0
    for probe in (20, 200):  # the second, longer probe only when the first was quick
        started = time.perf_counter()
        game.simulate(None, agents, games=probe, seed=0, progress=False)
        per_game = (time.perf_counter() - started) / probe
        if per_game * probe > 0.05:
            break
    affordable = ANSWER_SECONDS / (rule_sets * per_game)
    return int(min(20_000, max(100, affordable // 100 * 100)))


def scalar_fields(game: str) -> list[str]:
    """The game's rule fields a value typed in a box can set (numbers, text, True/False)."""
    game = registry.get(game)
    rules = game.Rules()
    return [f for f in rule_fields(game) if isinstance(getattr(rules, f), SCALARS)]


def suggested_values(game: str, field: str) -> str:
    """A few valid values around the rulebook's, as the dashboard's starting text."""
    game = registry.get(game)
    rules = game.Rules()
    default = getattr(rules, field)
    if isinstance(default, bool):
        candidates: list[Any] = [default, not default]
    elif isinstance(default, int):
        step = max(1, default // 2)
        candidates = [default, default - step, default + step, default - 1, default + 1]
    else:
        candidates = [default]
    valid = []
    for value in candidates:
        if value not in valid and not build_rules(game, rules, {field: value})[1]:
            valid.append(value)
    chosen = valid[:3]
    if all(isinstance(v, int) and not isinstance(v, bool) for v in chosen):
        chosen.sort()
    return ", ".join(value_label(v) if isinstance(v, str) else repr(v) for v in chosen)


#: The line-up choice meaning "the game's own (hand-written) default agent in every seat": the
#: dashboard's first answer, since a ``fitted`` line-up fits each new rule set (seconds each).
DEFAULT_LINEUP = "default"


def _lineups(game: str) -> list[str]:
    """The dashboard's line-ups: the game's default agent, or one named agent in every seat."""
    return [DEFAULT_LINEUP, *registry.get(game).agents]


def _chosen_lineup(game: str, choice: str) -> str:
    """The agent a line-up choice seats (the default choice: the game's hand-written agent)."""
    return registry.get(game).default_agent if choice == DEFAULT_LINEUP else choice


def _metrics(game: str) -> list[str]:
    players = registry.get(game).Rules().players
    return [info.name for info in metric_catalogue(players, game)]


def designer_dashboard(
    game: str = "rubbish",
    *,
    field: str | None = None,
    games: int | None = None,
    seed: int = 0,
    executor: Executor | None = None,
) -> Explorer:
    """The dashboard (see the module docstring). ``games`` per rule set (None: chosen for a
    quick answer, again for each game picked); ``executor`` runs the cells (default: in this
    process, which suits the small runs of an interactive view)."""
    executor = SerialExecutor() if executor is None else executor
    game, seed = registry.get(game).id, check_seed(seed)  # a record or an id; the menu shows ids
    chosen_games = games is None
    games = games_for_a_quick_answer(game) if games is None else positive_count("games", games)
    fields = scalar_fields(game)
    field = field if field is not None else fields[0]
    if field not in fields:
        raise ValueError(f"field {field!r} is not one the dashboard varies for {game}; its "
                         f"fields: {', '.join(fields)}")  # fmt: skip
    controls = {
        "game": widgets.Dropdown(options=registry.available(), value=game, description="game"),
        "field": widgets.Dropdown(options=fields, value=field, description="rule field"),
        "values": widgets.Text(
            value=suggested_values(game, field),
            description="values",
            continuous_update=False,
            placeholder="comma-separated, e.g. 10, 20, 30",
        ),
        "agents": widgets.Dropdown(
            options=_lineups(game), value=DEFAULT_LINEUP, description="agents"
        ),
        "metric": widgets.Dropdown(
            options=_metrics(game), value="win_rate_spread", description="metric"
        ),
        "games": widgets.IntSlider(
            value=games,
            min=100,
            max=max(games, 20_000),
            step=100,
            description="games",
            continuous_update=False,
        ),
    }

    runs: dict[tuple[Any, ...], tuple[pl.DataFrame, pl.DataFrame | None]] = {}

    def simulated(
        game: str, field: str, tried: tuple[Any, ...], agents: Any, games: int
    ) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        """The sweep over ``tried`` and the paired comparison of the first value that differs
        from the rulebook's, kept per setting: choosing another metric re-runs nothing."""
        key = (game, field, tried, agents, games)
        if key not in runs:
            run = {"games": games, "seed": seed, "executor": executor, "progress": False}
            table = sweep(game, grid={field: list(tried)}, agents=agents, **run)
            default = getattr(registry.get(game).Rules(), field)
            variant = next((value for value in tried if value != default), None)
            paired = None
            if variant is not None:
                paired = compare(game, None, {field: variant}, agents, **run)
            runs[key] = (table, paired)
        return runs[key]

    def compute(
        game: str, field: str, values: str, agents: Any, metric: str, games: int
    ) -> tuple[pl.DataFrame, alt.TopLevelMixin]:
        agents = _chosen_lineup(game, agents)
        tried = tuple(parse_value(text) for text in split_values(values) if text)
        if not tried:
            raise ValueError("values: type one or more values, separated by commas")
        table, paired = simulated(game, field, tried, agents, games)
        charts = [] if paired is None else [compare_chart(paired, [metric])]
        charts.append(sweep_chart(table, metric))
        rows = table.filter(pl.col("metric") == metric).select("cell", "n", "value", "low", "high")
        return rows, alt.vconcat(*charts)

    switching = {"game": False}

    @contextmanager
    def quietly(*names: str) -> Iterator[None]:
        """Set these controls without the explorer recomputing on each change."""
        for name in names:
            controls[name].unobserve(dashboard._on_change, names="value")
        try:
            yield
        finally:
            for name in names:
                controls[name].observe(dashboard._on_change, names="value")

    def follow_game(change: dict) -> None:
        """A new game brings its own fields, line-ups and metrics (set quietly: the explorer
        recomputes once, on the game's change)."""
        chosen = change["new"]
        switching["game"] = True
        try:
            with quietly("field", "values", "agents", "metric", "games"):
                new_fields = scalar_fields(chosen)
                controls["field"].options = new_fields
                controls["field"].value = new_fields[0]
                controls["values"].value = suggested_values(chosen, new_fields[0])
                controls["agents"].options = _lineups(chosen)
                controls["agents"].value = DEFAULT_LINEUP
                controls["metric"].options = _metrics(chosen)
                controls["metric"].value = "win_rate_spread"
                if chosen_games:
                    controls["games"].value = games_for_a_quick_answer(chosen)
        finally:
            switching["game"] = False

    def follow_field(change: dict) -> None:
        """A new field starts from values around the rulebook's."""
        if switching["game"]:
            return
        with quietly("values"):
            controls["values"].value = suggested_values(controls["game"].value, change["new"])

    def follow_agents(change: dict) -> None:
        """Another line-up plays at another speed: choose the games again (unless given)."""
        if switching["game"] or not chosen_games:
            return
        agents = _chosen_lineup(controls["game"].value, change["new"])
        with quietly("games"):
            controls["games"].value = games_for_a_quick_answer(controls["game"].value, agents)

    # Registered before the explorer's own observers, so they run first.
    controls["game"].observe(follow_game, names="value")
    controls["agents"].observe(follow_agents, names="value")
    controls["field"].observe(follow_field, names="value")
    dashboard = Explorer(
        controls,
        compute,
        title="Designer's bench: what does a rule change do?",
        pick=("cell",),
    )
    return dashboard


__all__ = [
    "ANSWER_SECONDS",
    "designer_dashboard",
    "games_for_a_quick_answer",
    "scalar_fields",
    "suggested_values",
]
