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
    python bench/strength.py auction_house --gain-games 1000
        # also re-plays the matches the gain target compares, 1,000 games per seat each

Target 1 uses a ladder of the hand-written agents and ``fitted`` (fast); target 2 a ladder of
the default agent, ``fitted`` and ``search``. A best-response gain here is the best challenger
among the agents of that ladder, not the best possible one. Local processes on every core.
At 100 games per seat a gain's interval is about +/- 0.045 wide, so where the verdict is close
``--gain-games`` plays the matches it compares again, with every agent of the game as a
challenger (bar random play and the two-team equilibrium; the ladder's three and the others,
such as Auction House's ``determinization`` or Rubbish's ``sampling``), each alone against the
fitted table and against the default table, seat s from ``--gain-seed`` + s, on every core, and
gives a verdict of its own on each table's best challenger there: the best challenger of the
100-game ladder may only have been the luckiest, or not among the ladder's three.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import polars as pl

from workbench import games as registry
from workbench import ladder
from workbench.designer.executors import local_processes
from workbench.stats import proportion_interval

#: Agents that are not hand-written policies: fitted, the search-like ones, and the shared budget
#: auction's exact two-team equilibrium (the reference at 2 teams, not defined for more).
NOT_HAND_WRITTEN = {"fitted", "search", "sampling", "determinization", "equilibrium"}
#: Agents the gain replay does not try as challengers: random play never gains, and the
#: exact equilibrium is defined for two teams only.
NOT_CHALLENGERS = ("random", "equilibrium")
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
    hand_written = [a for a in registry.get(game).agents if a not in NOT_HAND_WRITTEN]
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


def search_targets(
    game: str, rules: Any, games: int, seed: int
) -> tuple[list[str], dict[str, list[str]]]:
    """Target 2's lines: search's rating against fitted's, and the best-response gains; and
    the challengers the gain target compares, by table (fitted first, then the default)."""
    module = registry.get(game)
    default = module.default_agent
    agents = [default, "fitted", "search"]
    result = ladder(game, rules, agents, games=games, seed=seed, progress=False)
    rating = dict(zip(*result.ratings.select("agent", "rating"), strict=True))
    best = {row["agent"]: row for row in result.best_response.iter_rows(named=True)}
    against_fitted, against_default = best["fitted"]["gain"], best[default]["gain"]
    ratings = ", ".join(
        f"{row['agent']} {row['rating']:+.2f} [{row['low']:+.2f}, {row['high']:+.2f}]"
        for row in result.ratings.iter_rows(named=True)
    )
    half = against_fitted <= against_default / 2
    lines = [
        f"  ratings: {ratings} "
        f"[{'met' if rating['search'] >= rating['fitted'] else 'NOT met'}: search not weaker]",
        f"  search alone vs fitted: {show(match(result.matches, 'search', 'fitted'))}; "
        f"fitted alone vs search: {show(match(result.matches, 'fitted', 'search'))}",
        f"  best-response gain vs a fitted table {against_fitted:+.3f} "
        f"({best['fitted']['best_challenger']}), vs a {default} table {against_default:+.3f} "
        f"({best[default]['best_challenger']}) [{'met' if half else 'NOT met'}: at most half]",
    ]
    others = [a for a in module.agents if a not in (*agents, *NOT_CHALLENGERS)]
    challengers = {
        table: [a for a in (*agents, *others) if a != table] for table in ("fitted", default)
    }
    return lines, challengers


def lone_share(game: str, rules: Any, challenger: str, table: str, seat: int, games: int,
               seed: int) -> float:  # fmt: skip
    """The challenger's summed win share alone in ``seat`` against ``table``, ``games`` games."""
    module = registry.get(game)
    rules = module.Rules() if rules is None else rules
    lineup = [table] * rules.players
    lineup[seat] = challenger
    played, *_ = module.simulate(rules, lineup, games=games, seed=seed, progress=False)
    return float(played.filter(pl.col("seat") == seat)["win_share"].sum())


def gain_matches(game: str, rules: Any, challengers: dict[str, list[str]], games: int,
                 seed: int) -> list[str]:  # fmt: skip
    """The gain target's matches (each challenger alone against each table) re-played with
    more games, seat s from seed ``seed`` + s; per table the best challenger's gain, and the
    target's verdict on them."""
    players = (registry.get(game).Rules() if rules is None else rules).players
    matches = [(c, table) for table, names in challengers.items() for c in names]
    with local_processes() as pool:
        futures = {
            (challenger, table): [
                pool.submit(lone_share, game, rules, challenger, table, seat, games, seed + seat)
                for seat in range(players)
            ]
            for challenger, table in matches
        }
        shares = {key: sum(f.result() for f in seats) for key, seats in futures.items()}
    total = games * players
    lines, best = [], {}
    for (challenger, table), share in shares.items():
        low, high = proportion_interval(share, total)
        gain = share / total - 1 / players
        lines.append(f"  {challenger} alone vs {table}: {share / total:.3f} [{low:.3f}, "
                     f"{high:.3f}] over {total:,}, gain {gain:+.3f}")  # fmt: skip
        if table not in best or gain > best[table][1]:
            best[table] = (challenger, gain)
    default = next(table for table in challengers if table != "fitted")
    (fitted_best, against_fitted), (default_best, against_default) = best["fitted"], best[default]
    verdict = "met" if against_fitted <= against_default / 2 else "NOT met"
    if against_default <= 0:
        verdict = "no gain against the default table to halve"
    lines.append(f"  re-played: gain vs a fitted table {against_fitted:+.3f} ({fitted_best}), "
                 f"vs a {default} table {against_default:+.3f} ({default_best}) "
                 f"[{verdict}: at most half]")  # fmt: skip
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per seat, target 1")
    parser.add_argument("--search-games", type=int, default=100, help="games per seat, target 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--gain-games",
        type=int,
        default=0,
        help="re-play the gain target's matches with this many games per seat",
    )
    parser.add_argument("--gain-seed", type=int, default=500, help="their first seat's seed")
    parser.add_argument("only", nargs="*", metavar="game", help="only these games (default: all)")
    args = parser.parse_args()
    for label, game, rules in settings():
        if args.only and game not in args.only:
            continue
        started = time.perf_counter()
        lines = fitted_targets(game, rules, args.games, args.seed)
        search_lines, challengers = search_targets(game, rules, args.search_games, args.seed)
        lines += search_lines
        if args.gain_games:
            lines += gain_matches(game, rules, challengers, args.gain_games, args.gain_seed)
        print(f"\n{label} ({time.perf_counter() - started:.0f} s)")
        print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
