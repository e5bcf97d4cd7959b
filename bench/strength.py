"""Issue 19's strength targets at the rulebook's rules (the shared budget auction at 3 and 4
teams), one verdict per target, from ladders (``workbench.ladder``: one against n - 1, seats
rotated, Wilson intervals, Luce ratings):

1. ``fitted`` beats every hand-written agent alone against n - 1 (the interval's low end above
   the fair share), and no hand-written agent alone against n - 1 ``fitted`` wins more than
   2 points above the fair share;
2. ``search`` is not weaker than ``fitted`` (its rating is not below fitted's), and the
   best-response gain against a ``fitted`` table is at most half of that against a table of
   the game's default (hand-written) agent.

    python bench/strength.py                      # 500 games per seat; search 100 per seat
    python bench/strength.py --games 100 --search-games 25   # a quick look
    python bench/strength.py shared_budget                   # one game

Target 1 uses a ladder of the hand-written agents and ``fitted`` (fast); target 2 a ladder of
the default agent, ``fitted`` and ``search``. A best-response gain here is the best challenger
among the agents of that ladder, not the best possible one. Local processes on every core.
"""

from __future__ import annotations

import argparse
import importlib
import time
from typing import Any

import polars as pl

from workbench import games as registry
from workbench import ladder

#: Agents that are not hand-written policies: fitted, the search-like ones, and the shared budget
#: auction's exact two-team equilibrium (the reference at 2 teams, not defined for more).
NOT_HAND_WRITTEN = {"fitted", "search", "sampling", "determinization", "equilibrium"}
#: Two points above the fair share.
EXPLOIT_MARGIN = 0.02


def settings() -> list[tuple[str, str, Any]]:
    """(label, game, rules) for every game at the rulebook's rules; shared budget at 3 and 4."""
    rows = []
    for game in registry.available():
        if game == "shared_budget":
            rules_type = registry.get(game).Rules
            rows += [(f"{game}, {n} teams", game, rules_type(teams=n)) for n in (3, 4)]
        else:
            rows.append((game, game, None))
    return rows


def match(matches: pl.DataFrame, challenger: str, table: str) -> dict[str, Any]:
    """One match's row (challenger alone against a table of ``table``)."""
    found = matches.filter(challenger=challenger, table=table)
    return found.row(0, named=True)


def show(row: dict[str, Any]) -> str:
    """A win rate with its interval and games."""
    return f"{row['win_rate']:.3f} [{row['low']:.3f}, {row['high']:.3f}] over {row['games']:,}"


def fitted_targets(game: str, rules: Any, games: int, seed: int) -> list[str]:
    """Target 1's lines: fitted against each hand-written agent, both ways."""
    hand_written = [a for a in registry.get(game).AGENTS if a not in NOT_HAND_WRITTEN]
    result = ladder(game, rules, [*hand_written, "fitted"], games=games, seed=seed, progress=False)
    lines = []
    for agent in hand_written:
        beats = match(result.matches, "fitted", agent)
        exploits = match(result.matches, agent, "fitted")
        fair = beats["fair_share"]
        lines.append(
            f"  fitted alone vs {agent}: {show(beats)} "
            f"[{'met' if beats['low'] > fair else 'NOT met'}]; "
            f"{agent} alone vs fitted: {show(exploits)} "
            f"[{'met' if exploits['win_rate'] <= fair + EXPLOIT_MARGIN else 'NOT met'}]"
        )
    return lines


def search_targets(game: str, rules: Any, games: int, seed: int) -> list[str]:
    """Target 2's lines: search's rating against fitted's, and the best-response gains."""
    module = registry.get(game)
    default = importlib.import_module(module.__name__ + ".simulate").SELF_PLAY.default_agent
    result = ladder(game, rules, [default, "fitted", "search"], games=games, seed=seed,
                    progress=False)  # fmt: skip
    rating = dict(zip(*result.ratings.select("agent", "rating"), strict=True))
    best = {row["agent"]: row for row in result.best_response.iter_rows(named=True)}
    against_fitted, against_default = best["fitted"]["gain"], best[default]["gain"]
    ratings = ", ".join(
        f"{row['agent']} {row['rating']:+.2f} [{row['low']:+.2f}, {row['high']:+.2f}]"
        for row in result.ratings.iter_rows(named=True)
    )
    half = against_fitted <= against_default / 2
    return [
        f"  ratings: {ratings} "
        f"[{'met' if rating['search'] >= rating['fitted'] else 'NOT met'}: search not weaker]",
        f"  search alone vs fitted: {show(match(result.matches, 'search', 'fitted'))}; "
        f"fitted alone vs search: {show(match(result.matches, 'fitted', 'search'))}",
        f"  best-response gain vs a fitted table {against_fitted:+.3f} "
        f"({best['fitted']['best_challenger']}), vs a {default} table {against_default:+.3f} "
        f"({best[default]['best_challenger']}) [{'met' if half else 'NOT met'}: at most half]",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per seat, target 1")
    parser.add_argument("--search-games", type=int, default=100, help="games per seat, target 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("only", nargs="*", metavar="game", help="only these games (default: all)")
    args = parser.parse_args()
    for label, game, rules in settings():
        if args.only and game not in args.only:
            continue
        started = time.perf_counter()
        lines = fitted_targets(game, rules, args.games, args.seed)
        lines += search_targets(game, rules, args.search_games, args.seed)
        print(f"\n{label} ({time.perf_counter() - started:.0f} s)")
        print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
