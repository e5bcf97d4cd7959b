"""Where the bench's cells run: local processes by default, or any ``concurrent.futures.Executor``
(a Dask cluster's ``client.get_executor()`` included), or inline with ``SerialExecutor``.

A cell is one rule set and line-up simulated in one process from its own seed, so its numbers
do not depend on where or in which order it runs: every executor gives identical results.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

Result = TypeVar("Result")


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


def local_processes(workers: int | None = None) -> ProcessPoolExecutor:
    """A pool of local worker processes (``workers`` default: all cores), started by a fork
    server so that no thread state of this process (polars', Jupyter's) is copied."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # The server imports the bench once; every worker then starts as a copy of it (a
        # fraction of a second instead of importing numpy, polars and the games anew).
        context.set_forkserver_preload(["workbench.designer.cells"])
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers or default_workers(), mp_context=context)


def run_tasks(
    function: Callable[[Any], Result],
    tasks: Sequence[Any],
    *,
    executor: Executor | None = None,
    weights: Sequence[int] | None = None,
    progress: bool = True,
    description: str = "cells",
) -> list[Result]:
    """``[function(task) for task in tasks]``, run on ``executor``; results in task order.

    ``executor`` None: one task runs inline, more run in local processes (all cores, at most
    one per task). ``weights`` (e.g. games per task) drive the progress bar, shown on stderr.
    On an error or Ctrl-C the tasks not yet started are cancelled and the error is raised.
    """
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be a concurrent.futures.Executor (or None for local processes), "
            f"got {type(executor).__name__}"
        )
    weights = list(weights) if weights is not None else [1] * len(tasks)
    owned = None
    if executor is None:
        if len(tasks) <= 1:
            executor = SerialExecutor()
        else:
            _check_picklable(function, tasks)
            executor = owned = local_processes(min(len(tasks), default_workers()))
    bar = _progress_bar(sum(weights), progress, description)
    futures: dict[Future, int] = {}
    results: list[Any] = [None] * len(tasks)
    try:
        for index, task in enumerate(tasks):
            futures[executor.submit(function, task)] = index
        for future in as_completed(futures):
            index = futures[future]
            try:
                results[index] = future.result()
            except BrokenProcessPool as exc:
                raise RuntimeError(
                    "a worker process died before finishing its cell. Worker processes start "
                    "by importing the main script: in a script, call the bench under "
                    "`if __name__ == '__main__':`; or run in this process with "
                    "executor=SerialExecutor()"
                ) from exc
            bar.update(weights[index])
    except BaseException:
        for future in futures:
            future.cancel()
        if owned is not None:
            _stop_now(owned)
            owned = None
        raise
    finally:
        bar.close()
        if owned is not None:
            owned.shutdown(wait=True)
    return results


def _stop_now(pool: ProcessPoolExecutor) -> None:
    """Stop a pool of ours at once: cancel what has not started and end the workers (they
    ignore Ctrl-C and would otherwise finish their cells before the program could exit)."""
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
            "module level, or run in this process with executor=SerialExecutor()"
        ) from None


class _NoProgress:
    def update(self, _n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool, description: str) -> Any:
    if not enabled:
        return _NoProgress()
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", desc=description, leave=False)


__all__ = ["SerialExecutor", "default_workers", "local_processes", "run_tasks"]
