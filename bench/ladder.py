"""The strength ladder of every game's agents at the rulebook's rules, and at the rule sets
issue 19 names beside them (Shared budget at 3 and 4 teams): ratings with 95% intervals and
each agent's best-response gain (``workbench.ladder``), and how long it took.

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
from typing import Any

import polars as pl

from workbench import games as registry
from workbench import ladder

#: Agents too slow for a default run (games per second in the tens).
SLOW = {"sampling", "determinization", "search"}
#: Rule sets laddered after a game's rulebook rules: its ``Rules`` options.
EXTRA_RULES = {"shared_budget": ({"teams": 3}, {"teams": 4})}


def playable(module: Any, rules: Any, agents: list[str], label: str) -> list[str]:
    """The agents that can be made for ``rules``; the others are named with the reason (the
    Shared budget equilibrium is solved for two teams only)."""
    kept = []
    for name in agents:
        try:
            module.make_agent(name, rules)
        except ValueError as error:
            print(f"{name} left out at {label}: {error}")
        else:
            kept.append(name)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per seat of each match")
    parser.add_argument("--all", action="store_true", help="the slow agents too")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pl.Config.set_tbl_width_chars(120)
    pl.Config.set_float_precision(3)
    for game in registry.available():
        module = registry.get(game)
        agents = [a for a in module.agents if args.all or a not in SLOW]
        for options in ({}, *EXTRA_RULES.get(game, ())):
            rules = module.Rules(**options) if options else None
            label = ", ".join(f"{key}={value}" for key, value in options.items())
            entrants = agents if rules is None else playable(module, rules, agents, label)
            started = time.perf_counter()
            result = ladder(game, rules, entrants, games=args.games, seed=args.seed, progress=False)
            seconds = time.perf_counter() - started
            print(f"\n{game}{f' ({label})' if label else ''}: {len(entrants)} agents, "
                  f"{args.games:,} games per seat of each match, {seconds:.1f} s")  # fmt: skip
            print(result.ratings.select("rank", "agent", "rating", "low", "high", "games"))
            print(result.best_response.select("agent", "best_challenger", "gain", "low", "high"))


if __name__ == "__main__":
    main()
