"""Executors: results in task order whatever runs them; clear errors; a Dask cluster gives the
serial numbers."""

from __future__ import annotations

import pickle
import subprocess
import sys
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool

import polars as pl
import pytest

import workbench.kit.fitting as fitting
from workbench import SerialExecutor, sweep
from workbench.designer import cli
from workbench.designer.cells import resolve_agents
from workbench.designer.executors import WorkerDied, run_tasks
from workbench.games import rubbish


def square(x: int, report=None) -> int:
    return x * x


def fail_on_three(x: int, report=None) -> int:
    if x == 3:
        raise ValueError("three is not allowed")
    return x


def test_results_come_back_in_task_order():
    assert run_tasks(square, [3, 1, 2], executor=SerialExecutor(), progress=False) == [9, 1, 4]
    assert run_tasks(square, [5, 4], progress=False) == [25, 16]  # local processes


def test_a_failing_task_raises_its_own_error():
    with pytest.raises(ValueError, match="three is not allowed"):
        run_tasks(fail_on_three, [1, 3], executor=SerialExecutor(), progress=False)


def test_the_executor_must_be_an_executor():
    with pytest.raises(TypeError, match=r"executor must be a concurrent\.futures\.Executor"):
        run_tasks(square, [1], executor="dask", progress=False)


def test_agents_that_cannot_go_to_worker_processes_are_named_before_running():
    def lambda_agent(observation, legal, rng):
        return legal[0]

    with pytest.raises(TypeError, match=r"cannot be sent to worker processes.*SerialExecutor"):
        sweep("shared_budget", grid={"budget": [5, 6]}, agents=lambda_agent, games=2, seed=1)
    # In this process the same agent plays.
    frame = sweep(
        "shared_budget",
        grid={"budget": [5, 6]},
        agents=lambda_agent,
        games=2,
        seed=1,
        executor=SerialExecutor(),
        progress=False,
    )
    assert set(frame["n"].unique()) <= {0, 2}


@pytest.mark.slow
def test_a_dask_cluster_gives_the_serial_numbers(tmp_path):
    distributed = pytest.importorskip("distributed")
    # "fitted": each cell's agents fitted to its rules in this process (bonuses 30 and 45 ship
    # their fits) and sent with the cell; the workers play the same fit.
    grid = {"destined_bonus": [30, 45], "agents": ["heuristic", "random", "fitted"]}
    serial = sweep(
        "rubbish", grid=grid, games=500, seed=3, executor=SerialExecutor(), progress=False
    )
    out = tmp_path / "dask.parquet"
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = sweep(
            "rubbish",
            grid=grid,
            games=500,
            seed=3,
            executor=client.get_executor(),
            progress=False,
        )
        code = cli.main(
            [
                "sweep",
                "rubbish",
                "--grid",
                "destined_bonus=30,45",
                "--lineup",
                "heuristic",
                "--lineup",
                "random",
                "--lineup",
                "fitted",
                "--games",
                "500",
                "--seed",
                "3",
                "--quiet",
                "--scheduler",
                cluster.scheduler_address,
                "--out",
                str(out),
            ]
        )
        # The command line disconnects from the cluster; it does not shut the cluster down.
        assert client.submit(square, 7).result() == 49
    assert serial.filter(pl.col("agents") == "fitted").height > 0
    assert on_dask.equals(serial)
    assert code == 0 and pl.read_parquet(out).equals(serial)


class RecordingBar:
    def __init__(self) -> None:
        self.updates: list[int] = []

    def update(self, amount: int) -> None:
        self.updates.append(amount)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(("weights", "unit"), [(None, "unit"), ([5, 5], "game")])
def test_the_bar_counts_games_only_when_weighted_by_them(weights, unit, monkeypatch):
    """exploitability runs its families unweighted: its bar said 'game/s' of families."""
    from workbench.designer import executors

    made = []

    def bar(total, **options):
        made.append((total, options))
        return RecordingBar()

    monkeypatch.setattr(executors, "progress_bar", bar)
    run_tasks(square, [1, 2], executor=SerialExecutor(), weights=weights)
    options = {"enabled": True, "description": "cells", "unit": unit}
    assert made == [(2 if weights is None else 10, options)]


class DeadWorkers(Executor):
    """A pool whose worker died: every task ends in BrokenProcessPool."""

    def submit(self, fn, /, *args, **kwargs):
        future = Future()
        future.set_exception(BrokenProcessPool("a process terminated abruptly"))
        return future


def test_a_dead_worker_is_named_with_its_likely_causes():
    with pytest.raises(WorkerDied, match=r"killed \(out of memory, or by a signal\)"):
        run_tasks(square, [1, 2], executor=DeadWorkers(), progress=False)


def test_a_script_that_runs_the_bench_when_imported_is_told_to_guard_it(tmp_path):
    """The README's example pasted into a script without the main guard: each local process
    imports the script and would start the bench again. It fails with the advice, not EOFError."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from workbench.designer.executors import run_tasks\n"
        "def square(x, report=None):\n"
        "    return x * x\n"
        "print(run_tasks(square, [1, 2], progress=True))\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("workbench.designer.executors.WorkerDied: a helper process could not")
    assert "if __name__ == '__main__':" in last and "EOFError" not in last


def interrupt_on_three(x: int, report=None) -> int:
    if x == 3:
        raise KeyboardInterrupt
    return x


@pytest.mark.parametrize(
    ("tasks", "message"),
    [
        ([1, 2, 3], "stopped: 2 of 3 units are kept in {folder}; run the same command again"),
        # No folder is made before a unit finishes: it used to say "0 of 2 units are kept in" it.
        ([3, 1], "stopped: none of the 2 units had finished; nothing was kept"),
    ],
)
def test_a_stopped_run_says_what_it_kept(tasks, message, tmp_path, capsys):
    from workbench.kit.store import RunStore

    store = RunStore.open(tmp_path / "units", {"run": 1})
    with pytest.raises(KeyboardInterrupt):
        run_tasks(interrupt_on_three, tasks, executor=SerialExecutor(), store=store)
    lines = capsys.readouterr().err.replace("\r", "\n").splitlines()
    assert lines[-1].startswith(message.format(folder=store.folder))  # on a line of its own


@pytest.mark.parametrize("inline", [True, False], ids=["in this process", "local processes"])
def test_the_progress_bar_moves_batch_by_batch(inline, monkeypatch):
    from workbench.designer import executors

    bar = RecordingBar()
    monkeypatch.setattr(executors, "progress_bar", lambda total, enabled, description, unit: bar)
    sweep(
        "rubbish",
        grid={"destined_bonus": [10, 20]},
        agents="random",
        games=9_000,
        seed=1,
        executor=SerialExecutor() if inline else None,
    )
    # Two cells of two fast-engine batches each (8,192 games, then 808).
    assert sorted(bar.updates) == [808, 808, 8192, 8192]


def test_a_cells_fitted_agents_carry_their_fit_to_the_workers(monkeypatch):
    rules = rubbish.Rules(destined_bonus=45)  # its fit ships with the workbench
    made, problem = resolve_agents(rubbish.GAME, rules, ["fitted", "heuristic", "fitted", "random"])
    assert problem == ""
    expected = made[0].policy_for(rules)
    arrived = pickle.loads(pickle.dumps(made))  # what a worker process receives

    def no_fitting(*args, **kwargs):
        raise AssertionError("a worker looked for a fit: the cell should carry it")

    monkeypatch.setattr(fitting, "fitted_parameters", no_fitting)
    for seat in (0, 2):
        policy = arrived[seat].policy_for(rules)
        assert policy.vector == expected.vector
