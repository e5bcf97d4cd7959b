"""The strength ladder of every game's agents at the rulebook's rules: ratings with 95%
intervals and each agent's best-response gain (``workbench.ladder``), and how long it took.

    python bench/ladder.py             # the fast agents, 500 games per seat of each match
    python bench/ladder.py --games 50  # quicker, wider intervals
    python bench/ladder.py --all       # every agent, the slow search-like ones included

Issue 19 asks for a ``fitted`` agent that beats every hand-written agent one against n - 1 and
that no hand-written agent exploits by more than 2 points; this prints where each game's
agents stand today, one against n - 1 with seats rotated, so the next ones are measured the
same way. Local processes on every core.
"""

from __future__ import annotations

import argparse
import time

import polars as pl

from workbench import games as registry
from workbench import ladder

#: Agents too slow for a default run (games per second in the tens).
SLOW = {"sampling", "determinization", "search"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per seat of each match")
    parser.add_argument("--all", action="store_true", help="the slow agents too")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pl.Config.set_tbl_width_chars(120)
    pl.Config.set_float_precision(3)
    for game in registry.available():
        agents = [a for a in registry.get(game).AGENTS if args.all or a not in SLOW]
        started = time.perf_counter()
        result = ladder(game, None, agents, games=args.games, seed=args.seed, progress=False)
        seconds = time.perf_counter() - started
        print(f"\n{game}: {len(agents)} agents, {args.games:,} games per seat of each match, "
              f"{seconds:.1f} s")  # fmt: skip
        print(result.ratings.select("rank", "agent", "rating", "low", "high", "games"))
        print(result.best_response.select("agent", "best_challenger", "gain", "low", "high"))


if __name__ == "__main__":
    main()
