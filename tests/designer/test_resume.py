"""Long runs that survive interruption: finished units kept in a store, runs resumed from it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from workbench import SerialExecutor, sweep, tournament
from workbench.designer import cli, sweeps, tournaments
from workbench.kit.store import RunStore, StoreMismatch

GRID = {"destined_bonus": [10, 20, 30, 40]}
RUN = {"grid": GRID, "games": 300, "seed": 4, "executor": SerialExecutor(), "progress": False}


def _interrupt_after(monkeypatch, module, name, calls=None):
    """Count the calls of ``module.name`` and, unless ``calls`` is None, make call number
    ``calls + 1`` raise KeyboardInterrupt (a Ctrl-C in the middle of the run)."""
    real = getattr(module, name)
    count = {"calls": 0}

    def counted(task, report=None):
        count["calls"] += 1
        if calls is not None and count["calls"] > calls:
            raise KeyboardInterrupt
        return real(task, report)

    monkeypatch.setattr(module, name, counted)
    return count


def test_an_interrupted_sweep_resumes_to_the_same_table(tmp_path, monkeypatch, capsys):
    whole = sweep("rubbish", **RUN)
    store = tmp_path / "units"
    count = _interrupt_after(monkeypatch, sweeps, "summarise_cell", 2)
    with pytest.raises(KeyboardInterrupt):
        sweep("rubbish", **RUN, store=store)
    assert sorted(p.name for p in store.glob("unit-*")) == ["unit-00000.json", "unit-00001.json"]
    assert "2 of 4 units are kept" in capsys.readouterr().err
    monkeypatch.undo()
    count = _interrupt_after(monkeypatch, sweeps, "summarise_cell")
    resumed = sweep("rubbish", **RUN, store=store, resume=True)
    assert count["calls"] == 2  # only the two cells not kept ran
    assert resumed.equals(whole)


def test_a_store_is_refused_unless_resumed_or_overwritten(tmp_path):
    store = tmp_path / "units"
    sweep("rubbish", **RUN, store=store)
    with pytest.raises(FileExistsError, match=r"resume=True .* overwrite=True"):
        sweep("rubbish", **RUN, store=store)
    assert sweep("rubbish", **RUN, store=store, overwrite=True).height > 0
    changed = {**RUN, "games": 200}
    with pytest.raises(StoreMismatch, match=r"made by another run \(games: stored 300, now 200"):
        sweep("rubbish", **changed, store=store, resume=True)
    with pytest.raises(StoreMismatch, match="units"):
        sweep("rubbish", **{**RUN, "seed": 5}, store=store, resume=True)


def test_a_damaged_unit_is_run_again_never_read(tmp_path):
    whole = sweep("rubbish", **RUN)
    store = tmp_path / "units"
    sweep("rubbish", **RUN, store=store)
    truncated = store / "unit-00001.json"
    truncated.write_bytes(truncated.read_bytes()[:-20])
    flipped = store / "unit-00002.json"
    data = bytearray(flipped.read_bytes())
    data[-1] ^= 0xFF
    flipped.write_bytes(bytes(data))
    (store / "unit-00003.json").write_bytes(b"not a unit")
    loaded = RunStore(store, json.loads((store / "run.json").read_text()))
    assert [loaded.load(i)[0] for i in range(4)] == [True, False, False, False]
    assert loaded.recomputed == [1, 2, 3] and not truncated.exists()
    sweep("rubbish", **RUN, store=store, overwrite=True)  # put them back, then damage again
    truncated.write_bytes(truncated.read_bytes()[:10])
    assert sweep("rubbish", **RUN, store=store, resume=True).equals(whole)


def test_an_interrupted_tournament_resumes_to_the_same_tables(tmp_path, monkeypatch):
    entrants = ["random", "valuation", "collector"]
    options = {"games": 30, "seed": 2, "executor": SerialExecutor(), "progress": False}
    whole = tournament("going_gone", None, entrants, **options)
    store = tmp_path / "units"
    _interrupt_after(monkeypatch, tournaments, "play_seating", 5)
    with pytest.raises(KeyboardInterrupt):
        tournament("going_gone", None, entrants, **options, store=store)
    assert len(list(store.glob("unit-*"))) == 5
    monkeypatch.undo()
    resumed = tournament("going_gone", None, entrants, **options, store=store, resume=True)
    for name in ("standings", "pairwise", "by_seat", "seatings"):
        assert getattr(resumed, name).equals(getattr(whole, name)), name


@pytest.mark.slow
def test_a_killed_command_line_sweep_resumes_to_the_same_table(tmp_path):
    """SIGKILL part-way (no chance to clean up), then --resume: the uninterrupted table."""
    values = ",".join(str(v) for v in range(0, 120, 10))
    command = [
        "sweep", "rubbish", "--grid", f"destined_bonus={values}", "--games", "40000",
        "--seed", "9", "--workers", "1", "--quiet",
    ]  # fmt: skip
    out = tmp_path / "killed.parquet"
    units = Path(f"{out}.units")
    process = subprocess.Popen(
        [sys.executable, "-m", "workbench", *command, "--out", str(out)],
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while len(list(units.glob("unit-*.json"))) < 2 and time.monotonic() < deadline:
        assert process.poll() is None, "the sweep ended before it could be killed"
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    kept = len(list(units.glob("unit-*.json")))
    assert 2 <= kept < 12 and not out.exists()
    assert cli.main([*command, "--out", str(out)]) == 2  # the store is there: refused
    assert cli.main([*command, "--out", str(out), "--resume"]) == 0
    assert not units.exists()  # the output written, the store is removed
    whole = tmp_path / "whole.parquet"
    assert cli.main([*command, "--out", str(whole)]) == 0
    assert pl.read_parquet(out).equals(pl.read_parquet(whole))


@pytest.mark.slow
def test_a_dask_worker_killed_mid_run_changes_nothing(tmp_path):
    distributed = pytest.importorskip("distributed")
    grid = {"destined_bonus": [10, 20, 30, 40, 50, 60]}
    options = {"grid": grid, "games": 20000, "seed": 6, "progress": False}
    serial = sweep("rubbish", **options, executor=SerialExecutor())
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
            host="127.0.0.1",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):  # fmt: skip
        store = tmp_path / "units"
        pids = list(client.run(os.getpid).values())

        def kill_one_worker() -> None:
            deadline = time.monotonic() + 60
            while not list(store.glob("unit-*.json")) and time.monotonic() < deadline:
                time.sleep(0.01)
            os.kill(pids[0], signal.SIGKILL)

        killer = threading.Thread(target=kill_one_worker)
        killer.start()
        on_dask = sweep("rubbish", **options, executor=client.get_executor(), store=store)
        killer.join()
        assert pids[0] not in client.run(os.getpid).values()  # that worker is gone
    assert on_dask.equals(serial)
