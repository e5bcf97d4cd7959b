"""The play-along table: seconds per decision (the seat's move, the agents' moves up to its next
decision, the panel and the redraw), over seeded games driven like a reader's clicks.

    python bench/table.py            # 6 games per case
    python bench/table.py --quick    # 2 games per case

Target (issue 13): a decision answers in under 1 s. The seat is played by the heuristic (its
own choice takes well under a millisecond); each decision is timed from the choice to the
redrawn table with the panel updated. Prints, per case, the median, the 90th percentile and
the slowest decision, and the end of the game (the panel's after-game analyses) apart.
Numpy is pinned to one thread.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
os.environ.setdefault("POLARS_MAX_THREADS", "1")

CASES = {
    # name: (game, rules options, opponents, panel options)
    "rubbish, 4 players, heuristic opponents, uniform model": (
        "rubbish",
        {},
        "heuristic",
        {"model": "uniform"},
    ),
    "rubbish, 4 players, heuristic opponents, heuristic model": (
        "rubbish",
        {},
        "heuristic",
        {"model": "heuristic"},
    ),
    "rubbish, 5 players, heuristic opponents, heuristic model": (
        "rubbish",
        {"players": 5},
        "heuristic",
        {"model": "heuristic"},
    ),
    "rubbish, 4 players, sampling opponents (the default), uniform model": (
        "rubbish",
        {},
        None,
        {"model": "uniform"},
    ),
    "shared budget, 2 teams, equilibrium opponent": ("shared_budget", {}, None, {}),
}


def run_case(name: str, games: int) -> tuple[list[float], list[float]]:
    """Seconds per decision during play, and for the decision that ends each game."""
    from workbench import games as registry
    from workbench.play.table import table

    game, options, opponents, panel_options = CASES[name]
    rules = registry.get(game).Rules(**options)
    during, ending = [], []
    for seed in range(games):
        t = table(game, rules, seed=seed, opponents=opponents, **panel_options)
        session = t.session
        agent = session.game.make_agent("heuristic" if game == "rubbish" else "coverage", rules)
        while not session.is_over:
            started = time.perf_counter()
            session.autoplay(agent, 1, after_each=t.refresh)
            (ending if session.is_over else during).append(time.perf_counter() - started)
    return during, ending


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 games per case")
    args = parser.parse_args()
    games = 2 if args.quick else 6
    run_case(next(iter(CASES)), 1)  # warm-up: imports, card tables, the solver's caches
    print(f"seconds per decision, {games} seeded games per case (median / 90% / max)")
    for name in CASES:
        during, ending = run_case(name, games)
        during.sort()
        p90 = during[int(0.9 * (len(during) - 1))]
        print(
            f"  {name}: {statistics.median(during):.3f} / {p90:.3f} / {max(during):.3f} over "
            f"{len(during)} decisions; the last decision (after-game analyses) median "
            f"{statistics.median(ending):.3f}, max {max(ending):.3f}"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
