"""Where the bench's cells run: local processes by default, or any ``concurrent.futures.Executor``
(a Dask cluster's ``client.get_executor()`` included), or inline with ``SerialExecutor``.

A cell is one rule set and line-up simulated in one process from its own seed, so its numbers
do not depend on where or in which order it runs: every executor gives identical results.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from queue import Empty
from typing import Any, TypeVar

from workbench.kit.progress import progress_bar
from workbench.kit.store import RunStore

Result = TypeVar("Result")


#: Why a local process may fail to start, and what to do.
_MAIN_GUARD = (
    "Local processes start by importing the main script, so a script that runs the bench when "
    "imported starts it again in each of them: in a script, call the bench under `if __name__ "
    "== '__main__':`; or run in this process with executor=SerialExecutor()"
)


class WorkerDied(RuntimeError):
    """A local worker process ended before it finished its task."""


class SerialExecutor(Executor):
    """Runs each task at once, in this process (no pickling, easiest to debug)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future, as executors do
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            future.set_exception(exc)
        return future


def default_workers() -> int:
    """Worker processes of the default executor: every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _local_context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # The server imports the bench once; every worker then starts as a copy of it (a
        # fraction of a second instead of importing numpy, polars and the games anew).
        context.set_forkserver_preload(["workbench.designer.cells"])
        return context
    return multiprocessing.get_context("spawn")


def local_processes(workers: int | None = None) -> ProcessPoolExecutor:
    """A pool of local worker processes (``workers`` default: all cores), started by a fork
    server so that no thread state of this process (polars', Jupyter's) is copied."""
    return ProcessPoolExecutor(
        max_workers=workers or default_workers(), mp_context=_local_context()
    )


def run_tasks(
    function: Callable[[Any, Any], Result],
    tasks: Sequence[Any],
    *,
    executor: Executor | None = None,
    weights: Sequence[int] | None = None,
    progress: bool = True,
    description: str = "cells",
    store: RunStore | None = None,
    first_unit: int = 0,
) -> list[Result]:
    """``[function(task, report) for task in tasks]``, run on ``executor``; results in task
    order.

    ``executor`` None: one task runs inline, more in local processes (at most one per task).
    ``weights`` (e.g. games per task) size the progress bar. A task moves the bar batch by
    batch through ``report`` (``report_progress``), inline or in our own processes; on another
    executor ``report`` is None and the bar moves as each task finishes. On an error or Ctrl-C
    the tasks not yet started are cancelled, our workers stopped, and the error raised.

    ``store``: each finished task's result is kept there as it completes (task i as unit
    ``first_unit`` + i), and tasks already kept (by an earlier, interrupted run) are read back
    instead of run again; the progress bar counts them as done from the start.
    """
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be a concurrent.futures.Executor (or None for local processes), "
            f"got {type(executor).__name__}"
        )
    unit = "game" if weights is not None else "unit"  # without weights the bar counts tasks
    weights = list(weights) if weights is not None else [1] * len(tasks)
    results: list[Any] = [None] * len(tasks)
    to_run = list(range(len(tasks)))
    if store is not None:
        to_run = []
        for index in range(len(tasks)):
            found, results[index] = store.load(first_unit + index)
            if not found:
                to_run.append(index)
        kept = len(tasks) - len(to_run)
        description += f" ({kept} of {len(tasks)} units from the store)" if kept else ""
        damaged = sum(unit >= first_unit for unit in store.recomputed)
        if damaged:
            description += f" ({damaged} damaged units run again)"
    owned = None
    if executor is None:
        if len(to_run) <= 1:
            executor = SerialExecutor()
        else:
            _check_picklable(function, tasks)
            executor = owned = local_processes(min(len(to_run), default_workers()))
    bar = progress_bar(sum(weights), enabled=progress, description=description, unit=unit)
    if len(to_run) < len(tasks):  # the units read back from the store
        bar.update(sum(weights) - sum(weights[index] for index in to_run))
    units_done = [len(tasks) - len(to_run)]

    def show_units() -> None:
        if hasattr(bar, "set_postfix_str"):  # finished / all units, kept ones included
            bar.set_postfix_str(f"{units_done[0]}/{len(tasks)} units", refresh=False)

    show_units()
    manager = queue = report = None
    if progress and isinstance(executor, SerialExecutor):
        report = bar.update
    elif progress and owned is not None:
        try:
            manager = _local_context().Manager()
        except EOFError as exc:  # the manager's process died while it started
            owned.shutdown(wait=False, cancel_futures=True)
            raise WorkerDied(f"a helper process could not start. {_MAIN_GUARD}") from exc
        report = queue = manager.Queue()
    futures: dict[Future, int] = {}

    def finish(future: Future) -> None:
        index = futures[future]
        try:
            results[index] = future.result()
        except BrokenProcessPool as exc:
            raise WorkerDied(
                "a worker process died before finishing its cell: it was killed (out of memory, "
                f"or by a signal), or it could not start. {_MAIN_GUARD}"
            ) from exc
        if store is not None:
            store.save(first_unit + index, results[index])
        if report is None:
            bar.update(weights[index])
        units_done[0] += 1
        show_units()

    try:
        pending = set()
        for index in to_run:
            future = executor.submit(function, tasks[index], report)
            futures[future] = index
            if future.done():  # run inline (SerialExecutor): keep it before the next starts
                finish(future)
            else:
                pending.add(future)
        while pending:
            done, pending = wait(
                pending, timeout=0.2 if queue is not None else None, return_when=FIRST_COMPLETED
            )
            _drain(queue, bar)
            for future in done:
                finish(future)
        _drain(queue, bar)
    except BaseException:
        for future in futures:
            future.cancel()
        if owned is not None:
            stop_processes(owned)
            owned = None
        if store is not None:
            bar.close()  # the message on a line of its own, not after the bar
            print(store.stopped(len(tasks)), file=sys.stderr)
        raise
    finally:
        bar.close()
        if owned is not None:
            owned.shutdown(wait=True)
        if manager is not None:
            manager.shutdown()
    return results


def report_progress(report: Any, amount: int) -> None:
    """Tell ``run_tasks``' progress bar, from inside a task, that ``amount`` more games are
    done."""
    if report is None:
        return
    if callable(report):
        report(amount)
    else:
        report.put(amount)


def _drain(queue: Any, bar: Any) -> None:
    """Move the bar by everything the workers reported so far."""
    if queue is None:
        return
    while True:
        try:
            bar.update(queue.get_nowait())
        except Empty:
            return


def stop_processes(pool: ProcessPoolExecutor) -> None:
    """Stop a pool of local processes at once: cancel what has not started and end the workers
    (they ignore Ctrl-C and would otherwise finish their cells before the program could exit)."""
    workers = list(getattr(pool, "_processes", {}).values())  # no public handle before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join(timeout=10)


def _check_picklable(function: Callable[..., Any], tasks: Sequence[Any]) -> None:
    """Worker processes receive the tasks pickled: say so clearly before anything starts."""
    try:
        pickle.dumps((function, list(tasks)))
    except Exception as exc:
        raise TypeError(
            "the cells cannot be sent to worker processes (an agent or rule value that cannot "
            f"be pickled, such as a lambda: {exc}); pass agents by name, define agents at "
            "game level, or run in this process with executor=SerialExecutor()"
        ) from None


__all__ = [
    "SerialExecutor",
    "WorkerDied",
    "default_workers",
    "local_processes",
    "report_progress",
    "run_tasks",
    "stop_processes",
]
