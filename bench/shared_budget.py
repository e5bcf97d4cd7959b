"""Shared budget auction figures: exact solve time, simulate throughput, peak memory.

    python bench/shared_budget.py            # 7 solves, 2,000 games per agent mix
    python bench/shared_budget.py --quick    # 3 solves, 300 games per mix

Target (issue): the default game (20 credits, 6 cards) solved in under 1 s on one core.
``solve`` refuses rule sets estimated beyond a minute; the estimate's work model is printed
beside measured solve times here, to check it (and recalibrate it) on the machine at hand.
Solve time is the median of several runs in this process (numpy pinned to one thread before
it loads); peak memory of one solve is measured with tracemalloc, and the process's peak
resident size is reported at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import tracemalloc

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")


def solve_figures(runs: int) -> None:
    """Median solve time of the default game for each objective, and one solve's peak."""
    from workbench.games.shared_budget import Rules, solve

    solve()  # warm-up: imports, scipy, the card table cache
    for objective in ("win", "score"):
        times = [solve(Rules(), objective).seconds for _ in range(runs)]
        solution = solve(Rules(), objective)
        print(
            f"solve(objective={objective!r}): median {statistics.median(times):.3f} s over "
            f"{runs} runs (min {min(times):.3f}, max {max(times):.3f}); value "
            f"{solution.value:g}; {solution.layers} layers, {solution.stage_games_saddle} "
            f"saddle + {solution.stage_games_lp} LP stage games"
        )
    tracemalloc.start()
    solve()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"solve peak traced memory: {peak / 2**20:.1f} MiB")
    started = time.perf_counter()
    big = solve(Rules(budget=40))
    print(f"solve(budget=40): {time.perf_counter() - started:.2f} s; value {big.value:g}")


def estimate_figures(quick: bool) -> None:
    """estimate_solve's estimate beside the measured time, to check and recalibrate its work
    model (solver._LAYER_SECONDS and friends) on this machine."""
    from workbench.games.shared_budget import Rules, estimate_solve, solve

    functions = tuple("abcdefgh")
    twelve = [
        (f"card {i}", "+".join(f for j, f in enumerate(functions) if (i * 37 + j * 11) % 5 < 2))
        for i in range(12)
    ]
    cases = {
        "rulebook, budget 10": (Rules(budget=10), "auto"),
        "rulebook, budget 20": (Rules(), "auto"),
        "rulebook, budget 30": (Rules(budget=30), "auto"),
        "rulebook, budget 8, method lp": (Rules(budget=8), "lp"),
        "12 cards, 8 functions, budget 8": (
            Rules(budget=8, functions=functions, cards=twelve),
            "auto",
        ),
    }
    if not quick:
        cases["rulebook, budget 45"] = (Rules(budget=45), "auto")
        cases["12 cards, 8 functions, budget 16"] = (
            Rules(budget=16, functions=functions, cards=twelve),
            "auto",
        )
    print("estimate_solve vs measured (one core):")
    for name, (rules, method) in cases.items():
        estimate = estimate_solve(rules, method=method)
        started = time.perf_counter()
        solve(rules, method=method, progress=False)
        elapsed = time.perf_counter() - started
        print(
            f"  {name:<34} {estimate.layers:>5} layers  estimate {estimate.seconds:7.2f} s  "
            f"measured {elapsed:7.2f} s  (ratio {elapsed / estimate.seconds:.2f})"
        )


def simulate_figures(games: int) -> None:
    """games/s of simulate for each agent mix (frames included)."""
    from workbench.games.shared_budget import (
        CoverageHeuristic,
        EquilibriumAgent,
        RandomAgent,
        Rules,
        simulate,
        solve,
    )

    equilibrium = EquilibriumAgent(solve())
    mixes = {
        "random vs random": (Rules(), [RandomAgent(), RandomAgent()]),
        "coverage vs coverage": (Rules(), [CoverageHeuristic(), CoverageHeuristic()]),
        "equilibrium vs coverage": (Rules(), [equilibrium, CoverageHeuristic()]),
        "equilibrium vs random": (Rules(), [equilibrium, RandomAgent()]),
        "equilibrium vs equilibrium": (Rules(), [equilibrium, equilibrium]),
        "3 x coverage": (Rules(teams=3), [CoverageHeuristic()] * 3),
        "4 x coverage": (Rules(teams=4), [CoverageHeuristic()] * 4),
        "classroom, coverage": (Rules(variant="classroom"), [CoverageHeuristic()]),
    }
    for name, (rules, agents) in mixes.items():
        started = time.perf_counter()
        simulate(rules, agents, games=games, seed=1, progress=False)
        elapsed = time.perf_counter() - started
        print(f"simulate {name:<28} {games / elapsed:8.0f} games/s ({games} games)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and games")
    args = parser.parse_args()
    runs, games = (3, 300) if args.quick else (7, 2000)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs visible")
    solve_figures(runs)
    estimate_figures(args.quick)
    simulate_figures(games)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"process peak resident memory: {peak_kib / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
