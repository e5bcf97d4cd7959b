"""What the per-game bench scripts share: each case runs in its own process pinned to one
thread (so figures are per core and every peak memory figure is the case's own), a few times,
and the script prints medians.

A script defines ``run_case(name, scale) -> dict`` (its figures, with ``peak_mb`` from
``peak_mb()``) and calls ``main(describe, cases, run_case)``; ``describe(runs)`` turns one
case's runs into its printed line.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

Figures = dict[str, Any]

#: Every thread pool the engines could use, held to one thread.
ONE_THREAD = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "POLARS_MAX_THREADS": "1",
}


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_isolated(script: str, case: str, scale: float) -> Figures:
    """Run ``case`` of ``script`` in a fresh one-thread process; its figures."""
    out = subprocess.run(
        [sys.executable, script, "--case", case, "--scale", str(scale)],
        capture_output=True,
        text=True,
        env={**os.environ, **ONE_THREAD},
        check=True,
    )
    return json.loads(out.stdout)


def main(
    doc: str,
    script: str,
    title: Callable[[int], str],
    cases: Sequence[str],
    run_case: Callable[[str, float], Figures],
    describe: Callable[[str, list[Figures]], str],
    *,
    once: Sequence[str] = (),
) -> None:
    """The command line: every case ``repeats`` times (``once``: a single run), one line each;
    ``--case`` (internal) runs one case in this process and prints its figures as JSON."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games, 3 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=float, default=1.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.scale)))
        return
    scale = 0.1 if args.quick else 1.0
    repeats = args.repeats or (3 if args.quick else 5)
    print(title(repeats))
    for name in cases:
        runs = [run_isolated(script, name, scale) for _ in range(1 if name in once else repeats)]
        print(describe(name, runs))
