"""Competent play on the designer's bench, timed: fitting a new rule set, ``tune`` over 12 rule
sets with cached fits, and ``robust_compare`` at 2,000 games per strength (search on a
subsample), for every game that has a ``fitted`` agent.

    python bench/designer_play.py            # every game, every case
    python bench/designer_play.py rubbish    # one game

Targets (issues 19 and 20): a new rule set fits in <= 60 s on one core; ``tune`` over 12 rule
sets in < 60 s with cached fits; ``robust_compare`` at 2,000 games per strength in < 20 s.
New fits go to a temporary folder (``WORKBENCH_FIT_CACHE``), so the first fit of each rule set
is timed from nothing (the first value of each game's list ships no fit); the tune case fits
its 12 rule sets first, untimed, then tunes. ``robust_compare`` runs twice: on one core
(``SerialExecutor``) and with its default executor (local processes on every core). Search
plays its default subsample, 2.5% of the games per strength and at least 50 (here 50 per
side), then twice that, 100 games per side, on one core.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from dataclasses import replace

from workbench import games as registry
from workbench.designer import fit, robust_compare, tune
from workbench.designer.executors import SerialExecutor
from workbench.kit.fits import CACHE_ENV

#: Per game: the rule field the bench varies and 12 values for it (the first is the one fitted
#: from nothing), and a metric with a band for tune.
CASES = {
    "rubbish": ("destined_bonus", [10, 15, 20, 25, 35, 40, 45, 50, 55, 60, 65, 70],
                ("winner_cheapskate_rate", (0.02, 0.08))),
    "going_gone": ("starting_bucks", [16, 17, 19, 21, 23, 27, 29, 31, 33, 35, 37, 40],
                   ("shared_win_rate", (None, 0.05))),
    "auction_house": ("deals", [4, 5, 6, 7, 8, 10, 11, 12, 1, 2, 3, 9],
                      ("shared_win_rate", (None, 0.1))),
    "shared_budget": ("budget", [8, 10, 12, 14, 16, 18, 22, 24, 26, 28, 30, 32],
                      ("first_seat_advantage", (-0.02, 0.02))),
}  # fmt: skip


def bench_game(game: str) -> None:
    module = registry.get(game)
    field, values, (metric, band) = CASES[game]
    rules = [replace(module.Rules(), **{field: value}) for value in values]
    started = time.perf_counter()
    fitted = fit(game, rules[0], progress=False)
    print(f"{game}: fit {field}={values[0]} from nothing: {time.perf_counter() - started:.1f} s "
          f"({fitted.details.get('games', 0):,} games)")  # fmt: skip
    for each in rules[1:]:
        fit(game, each, progress=False)
    started = time.perf_counter()
    ranked = tune(game, {field: values}, {metric: band}, budget=12 * 1_000, seed=1,
                  first_games=300, progress=False)  # fmt: skip
    print(f"{game}: tune over {len(values)} rule sets (cached fits), {ranked['games'].sum():,} "
          f"games: {time.perf_counter() - started:.1f} s")  # fmt: skip
    runs = [(SerialExecutor(), "one core", None), (None, "local processes", None),
            (SerialExecutor(), "one core, search on 100 games", {"search": 100})]  # fmt: skip
    for executor, where, subsample in runs:
        started = time.perf_counter()
        frame = robust_compare(game, None, {field: values[-1]}, games=2_000, seed=1,
                               executor=executor, progress=False,
                               games_by_strength=subsample)  # fmt: skip
        counts = dict(frame.select("strength", "n").unique(maintain_order=True).iter_rows())
        print(f"{game}: robust_compare ({where}), games per strength {counts}: "
              f"{time.perf_counter() - started:.1f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(CASES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ[CACHE_ENV] = folder
        for game in args.games:
            if "fitted" not in registry.get(game).agents:
                print(f"{game}: no fitted agent yet")
                continue
            bench_game(game)


if __name__ == "__main__":
    main()
