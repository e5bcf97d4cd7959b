"""Do the balance figures hold under stronger play? Per game at the rulebook's rules (the shared
budget auction at 2, 3 and 4 teams), every balance metric of a table of ``fitted`` players
beside the same metric of a table of ``search`` players modelling them, each with its 95%
interval, and the difference with its own interval (independent runs: the standard errors
add in quadrature). A row whose difference interval excludes 0 is a disagreement.

    python bench/agreement.py                        # every game: 20,000 fitted, 1,000 search
    python bench/agreement.py rubbish --search-games 200   # a quick look

Many metrics are compared at once, so about one in twenty differences is expected to exclude 0
by chance: a disagreement far beyond its interval says more than one just past it. A metric
that is the same in every game of a table has an interval of zero width, and the difference
then rests on the other table's interval alone. The games are played in this process; the
figures are estimates, with their game counts.
"""

from __future__ import annotations

import argparse
import sys
import time

import polars as pl

#: (game, rule changes) compared, in order.
CASES = [
    ("rubbish", {}),
    ("going_gone", {}),
    ("auction_house", {}),
    ("shared_budget", {"teams": 2}),
    ("shared_budget", {"teams": 3}),
    ("shared_budget", {"teams": 4}),
]
#: A 95% interval's half-width in standard errors.
Z = 1.959964


def metrics_under(game, rules, agent: str, games: int, seed: int) -> pl.DataFrame:
    """Every balance metric of ``games`` games with ``agent`` in every seat."""
    from workbench.designer.balance import balance_metrics

    lineup = [game.make_agent("fitted", rules)] * rules.players
    if agent == "search":
        lineup = [game.make_agent("search", rules, model=lineup[0])] * rules.players
    played = game.simulate(rules, lineup, games=games, seed=seed, progress=False)
    frames = played if isinstance(played, tuple) else (played,)
    rounds = frames[1] if len(frames) > 1 else None
    return balance_metrics(frames[0], rounds, game=game)


def agreement(game, rules, fitted_games: int, search_games: int, seed: int) -> pl.DataFrame:
    """One row per metric: each table's value and interval, the difference and whether its
    interval excludes 0."""
    columns = ["metric", "n", "value", "low", "high"]
    fitted = metrics_under(game, rules, "fitted", fitted_games, seed).select(columns)
    search = metrics_under(game, rules, "search", search_games, seed + 1).select(columns)
    joined = fitted.join(search, on="metric", suffix="_search")
    standard_error = (
        ((pl.col("high") - pl.col("low")) / (2 * Z)) ** 2
        + ((pl.col("high_search") - pl.col("low_search")) / (2 * Z)) ** 2
    ).sqrt()
    difference = pl.col("value_search") - pl.col("value")
    return joined.with_columns(
        difference=difference,
        difference_low=difference - Z * standard_error,
        difference_high=difference + Z * standard_error,
    ).with_columns(
        disagree=(pl.col("difference_low") > 0) | (pl.col("difference_high") < 0),
    ).drop_nulls("value_search")


def shown(value: str, low: str, high: str) -> pl.Expr:
    """A value and its interval as one text column: "0.388 [0.381, 0.395]"."""
    return pl.format("{} [{}, {}]", *(pl.col(c).round(3) for c in (value, low, high)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every case)")
    parser.add_argument("--fitted-games", type=int, default=20_000)
    parser.add_argument("--search-games", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    from workbench import games as registry

    for game_id, changes in CASES:
        if options.games and game_id not in options.games:
            continue
        game = registry.get(game_id)
        rules = game.Rules(**changes)
        started = time.perf_counter()
        frame = agreement(game, rules, options.fitted_games, options.search_games, options.seed)
        label = game_id + "".join(f", {k}={v}" for k, v in changes.items())
        print(f"\n{label}: {options.fitted_games:,} fitted games, {options.search_games:,} "
              f"search games, {time.perf_counter() - started:.0f} s")  # fmt: skip
        with pl.Config(tbl_rows=60, tbl_width_chars=160, fmt_str_lengths=40,
                       tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
            print(frame.select(
                "metric", fitted=shown("value", "low", "high"),
                search=shown("value_search", "low_search", "high_search"),
                difference=shown("difference", "difference_low", "difference_high"),
                disagree="disagree",
            ))  # fmt: skip
        disagreeing = frame.filter(pl.col("disagree"))["metric"].to_list()
        print(f"disagree beyond their intervals: {len(disagreeing)} of {frame.height}: "
              f"{', '.join(disagreeing) or 'none'}")  # fmt: skip
    sys.stdout.flush()


if __name__ == "__main__":
    main()
