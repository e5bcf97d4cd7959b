"""Sweeps: per-cell seeds (a cell alone or in another grid gives the same numbers), exact
batch-wise metrics, every bad cell listed before a run, the table's columns."""

from __future__ import annotations

from concurrent.futures import Executor

import numpy as np
import polars as pl
import pytest

from workbench import SerialExecutor, compare, sweep, tournament
from workbench.designer import InvalidCells, balance_metrics, plan_sweep
from workbench.games import rubbish, shared_budget

MIXED = ["heuristic", "random", "random", "random"]
NUMBERS = ["n", "value", "low", "high", "seed"]


def run(grid, agents=None, *, games=400, seed=5, base_rules=None, **options):
    return sweep(
        "rubbish",
        base_rules,
        grid=grid,
        agents=agents,
        games=games,
        seed=seed,
        executor=SerialExecutor(),
        progress=False,
        **options,
    )


def cell(frame: pl.DataFrame, **values) -> pl.DataFrame:
    for column, value in values.items():
        frame = frame.filter(pl.col(column) == value)
    return frame.select("metric", *NUMBERS)


def test_a_cell_gives_the_same_numbers_alone_and_in_other_grids():
    big = run({"destined_bonus": [10, 40], "agents": ["heuristic", MIXED]})
    alone = run({"destined_bonus": [40]}, MIXED)
    reordered = run({"agents": [MIXED], "destined_bonus": [20, 40]})
    expected = cell(big, destined_bonus=40, agents="heuristic,random,random,random")
    assert expected.height == 4 + 1 + 6 + len(rubbish.GAME_METRICS)
    assert cell(alone, destined_bonus=40).equals(expected)
    assert cell(reordered, destined_bonus=40).equals(expected)
    assert not cell(big, destined_bonus=10, agents="heuristic,random,random,random").equals(
        expected
    )


def test_batch_wise_metrics_equal_one_pass_over_a_simulate_run():
    # 9,000 games: two batches of the fast engine, combined; then all games in one frame.
    plan = plan_sweep("rubbish", grid={"bid_minimum": ["one"]}, agents=MIXED, games=9_000, seed=2)
    (only,) = plan.cells
    games, rounds = rubbish.simulate(only.rules, MIXED, games=9_000, seed=only.seed, progress=False)
    expected = balance_metrics(games, rounds, game="rubbish")
    got = run({"bid_minimum": ["one"]}, MIXED, games=9_000, seed=2)
    assert got["metric"].to_list() == expected["metric"].to_list()
    assert got["n"].to_list() == expected["n"].to_list()
    for column in ("value", "low", "high"):
        np.testing.assert_allclose(got[column].to_numpy(), expected[column].to_numpy(), rtol=1e-12)


def test_columns_types_and_labels():
    frame = sweep(
        "shared_budget",
        grid={"tie_priority": ["rotating", "fixed"], "budget": np.array([10, 20])},
        agents=["coverage", "random"],
        games=30,
        seed=1,
        executor=SerialExecutor(),
        progress=False,
    )
    assert frame.columns[:9] == [
        "game",
        "tie_priority",
        "budget",
        "agents",
        "cell",
        "seed",
        "games",
        "seats",
        "metric",
    ]
    assert frame.schema["budget"] == pl.Int64 and frame.schema["tie_priority"] == pl.String
    metrics = 2 + 1 + 6 + len(shared_budget.GAME_METRICS)
    assert frame.height == 4 * metrics
    assert frame["cell"].unique(maintain_order=True).to_list() == [
        "tie_priority=rotating, budget=10",
        "tie_priority=rotating, budget=20",
        "tie_priority=fixed, budget=10",
        "tie_priority=fixed, budget=20",
    ]
    assert set(frame["n"].unique()) <= {30, 0}


def test_tuple_values_become_labels_and_write_to_csv_and_parquet(tmp_path):
    frame = run({"money_cards": [(1, 2, 2, 5, 10), (1, 2, 5, 10)]}, "random", games=50)
    assert frame["money_cards"].unique(maintain_order=True).to_list() == [
        "(1, 2, 2, 5, 10)",
        "(1, 2, 5, 10)",
    ]  # as the grid gives them
    frame.write_parquet(tmp_path / "s.parquet")
    frame.write_csv(tmp_path / "s.csv")
    assert pl.read_parquet(tmp_path / "s.parquet").equals(frame)
    assert pl.read_csv(tmp_path / "s.csv").height == frame.height


class RefusingExecutor(Executor):
    """Fails the test if anything is submitted."""

    def submit(self, fn, /, *args, **kwargs):
        raise AssertionError("a cell was submitted although the sweep had problems")


@pytest.mark.parametrize(
    ("confidence", "error"),
    [(0, ValueError), (1.5, ValueError), (True, TypeError), ("95%", TypeError)],
)
def test_a_bad_confidence_is_refused_before_any_game_is_played(confidence, error):
    # It used to be found only when the intervals were drawn, after every game was played.
    refusing = {"executor": RefusingExecutor(), "confidence": confidence, "progress": False}
    with pytest.raises(error, match="confidence must be"):
        sweep("rubbish", grid={"destined_bonus": [30]}, games=10, seed=1, **refusing)
    with pytest.raises(error, match="confidence must be"):
        compare("rubbish", None, {"destined_bonus": 40}, games=10, seed=1, **refusing)
    with pytest.raises(error, match="confidence must be"):
        tournament("rubbish", None, ["random", "heuristic"], games=10, seed=1, **refusing)


def test_every_bad_cell_is_listed_and_nothing_runs():
    with pytest.raises(InvalidCells) as caught:
        sweep(
            "rubbish",
            grid={"destined_bonus": [-5, 30], "players": [4, 6], "mystery": [1]},
            agents=MIXED,
            games=10,
            seed=1,
            executor=RefusingExecutor(),
            progress=False,
        )
    problems = caught.value.problems
    assert problems[0].startswith("unknown rule field 'mystery' for rubbish; rule fields: players")
    assert problems[1:] == [
        "cell destined_bonus=-5, players=4: destined_bonus must be a whole number >= 0, got -5",
        "cell destined_bonus=-5, players=6: players must be 2–5 (the box holds five sets of "
        "money cards), got 6",
        "cell destined_bonus=30, players=6: players must be 2–5 (the box holds five sets of "
        "money cards), got 6",
    ]
    assert "4 problem(s), nothing was run" in str(caught.value)


@pytest.mark.parametrize(
    ("grid", "agents", "message"),
    [
        ({}, None, "grid is empty: .*rubbish's fields: players, money_cards, starting_fame,"),
        (None, None, "grid is empty"),
        ({"destined_bonus": []}, None, r"grid\['destined_bonus'\] is empty"),
        ({"destined_bonus": 30}, None, r"must be a list of values, got 30 \(did you mean \[30\]"),
        ({"overspend": "keep"}, None, "did you mean \\['keep'\\]"),
        ({"destined_bonus": [30, 30]}, None, "repeats 30"),
        ({"agents": ["random"]}, "heuristic", "not both"),
        ({"players": [3]}, MIXED, "agents must give one agent per seat: 3 for these rules, got 4"),
        ({"agents": ["genius"]}, None, "unknown agent 'genius'"),
    ],
)
def test_bad_grids(grid, agents, message):
    with pytest.raises(ValueError, match=message):
        sweep("rubbish", grid=grid, agents=agents, games=10, seed=1, executor=RefusingExecutor())


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"games": 0}, ValueError, "games must be a whole number >= 1"),
        ({"games": 10.0}, TypeError, "games must be a whole number"),
        ({"games": True}, TypeError, "games must be a whole number"),
        ({"seed": -1}, ValueError, "seed must be a non-negative int"),
        ({"seed": 1.5}, TypeError, "seed must be a non-negative int"),
        ({"seed": 2**63}, ValueError, r"seed must be at most 2\*\*63 - 1 .* 9223372036854775808"),
    ],
)
def test_bad_games_and_seeds(options, error, message):
    arguments = {"games": 10, "seed": 1, **options}
    with pytest.raises(error, match=message):
        sweep("rubbish", grid={"destined_bonus": [1]}, executor=RefusingExecutor(), **arguments)


def test_base_rules_may_be_changes_to_the_rulebook():
    by_changes = run({"destined_bonus": [20]}, "random", games=50, base_rules={"players": 3})
    by_rules = run(
        {"destined_bonus": [20]}, "random", games=50, base_rules=rubbish.Rules(players=3)
    )
    assert by_changes.equals(by_rules) and by_changes["seats"][0] == 3
    with pytest.raises(InvalidCells, match="base_rules: unknown rule field 'seats'"):
        run({"destined_bonus": [20]}, base_rules={"seats": 3})
    with pytest.raises(InvalidCells, match="base_rules: players must be 2–5"):
        run({"destined_bonus": [20]}, base_rules={"players": 9})


def test_unknown_games_and_foreign_rules_are_refused():
    with pytest.raises(ValueError, match=r"unknown game 'chess'; known games: .*rubbish"):
        sweep("chess", grid={"x": [1]}, games=1, seed=1)
    with pytest.raises(TypeError, match=r"base_rules must be rubbish\.Rules"):
        sweep("rubbish", shared_budget.Rules(), grid={"players": [2]}, games=1, seed=1)


def test_local_processes_give_the_serial_numbers():
    grid = {"destined_bonus": [0, 50]}
    parallel = sweep("rubbish", grid=grid, agents=MIXED, games=300, seed=9, progress=False)
    assert parallel.equals(run(grid, MIXED, games=300, seed=9))


def test_a_game_added_with_register_runs_in_local_processes_too(example):
    # Worker processes never registered it: its record reaches them by its module.
    grid = {"items": [4, 6]}
    parallel = sweep(example.GAME, grid=grid, agents="random", games=200, seed=3, progress=False)
    serial = sweep(example.GAME, grid=grid, agents="random", games=200, seed=3, progress=False,
                   executor=SerialExecutor())  # fmt: skip
    assert parallel.equals(serial) and set(parallel["items"]) == {4, 6}
