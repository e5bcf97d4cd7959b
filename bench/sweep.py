"""Designer's bench throughput: a 10-variant rule sweep per game, wall time on this machine.

    python bench/sweep.py            # every case, 3 repeats each, medians
    python bench/sweep.py --quick    # a tenth of the games, 1 repeat

Target (issue 12): 10 variants × 100,000 Rubbish Auction games with heuristic agents in under
10 s on 2 cores. A sweep runs its cells in local worker processes (one per core) and computes
every balance metric batch by batch inside them, so the figure is the whole job: starting the
workers, simulating, the metrics, and collecting the table. For each case the script also
times one cell in this process in CPU seconds (little affected by other jobs on a shared
machine), simulation alone and with the metrics: what the metrics cost, and what the sweep's
cells would take on free cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

# name: (game, grid over 10 values, line-up, games per cell)
CASES = {
    "rubbish, heuristic agents, destined_bonus 0-45": (
        "rubbish",
        {"destined_bonus": list(range(0, 50, 5))},
        "heuristic",
        100_000,
    ),
    "shared_budget, coverage agents, budget 11-20": (
        "shared_budget",
        {"budget": list(range(11, 21))},
        "coverage",
        2_000,
    ),
}


def time_sweep(game: str, grid: dict, agents: str, games: int) -> float:
    from workbench import sweep

    start = time.perf_counter()
    sweep(game, grid=grid, agents=agents, games=games, seed=1, progress=False)
    return time.perf_counter() - start


def time_one_cell(game: str, agents: str, games: int) -> tuple[float, float]:
    """CPU seconds of one cell in this process: (simulate alone, simulate + every metric).
    CPU time, unlike wall time, hardly depends on what else the machine is running."""
    from workbench.designer.balance import game_values
    from workbench.games import get

    module = get(game)
    start = time.process_time()
    for _ in module.simulate_batches(None, agents, games=games, seed=1, progress=False):
        pass
    alone = time.process_time() - start
    start = time.process_time()
    for games_frame, rounds_frame in module.simulate_batches(
        None, agents, games=games, seed=1, progress=False
    ):
        game_values(games_frame, rounds_frame, module).moments()
    return alone, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games, 1 repeat")
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    repeats = args.repeats or (1 if args.quick else 3)
    from workbench.designer.executors import default_workers

    print(
        f"Designer's bench: 10-cell sweeps on {default_workers()} worker processes "
        f"(os.cpu_count() = {os.cpu_count()}); median of {repeats} runs"
    )
    for name, (game, grid, agents, games) in CASES.items():
        games = max(100, int(games * scale))
        cells = len(next(iter(grid.values())))
        times = [time_sweep(game, grid, agents, games) for _ in range(repeats)]
        wall = statistics.median(times)
        alone, with_metrics = time_one_cell(game, agents, games)
        print(
            f"  {name:<48} {cells} × {games:,} games: {wall:6.2f} s "
            f"({cells * games / wall:,.0f} games/s; runs {', '.join(f'{t:.2f}' for t in times)})"
        )
        print(
            f"  {'':<48} one cell in this process, per CPU second: simulate "
            f"{games / alone:,.0f} games, with every metric {games / with_metrics:,.0f} games"
        )
        workers = min(cells, default_workers())
        print(
            f"  {'':<48} the cells' own work at that rate on {workers} free cores: "
            f"{cells * with_metrics / workers:.2f} s (plus worker start-up)"
        )


if __name__ == "__main__":
    main()
