"""The game review (``workbench.review``): seconds to review one game on one core at the default
budget, the interval widths that budget gives, and the table's hint per decision.

    python bench/review.py            # 5 games per game, hints at 12 decisions
    python bench/review.py --quick    # 2 games, 4 hints

Targets: one game reviewed on one core in at most 5 s (Rubbish, the shared budget auction),
15 s (Going, Going, GONE!) and 30 s (Auction House); a hint in under 2 s per decision. Each game
runs in its own process pinned to one thread. Its compiled kernels are loaded first (one small
review, timed apart as the first call), then seeded games of fitted players are reviewed at the
default budget, a different seat each game; the figures are medians (the slowest beside) of
CPU seconds, the time of one core however loaded the machine is, with the wall clock beside.
Widths: the 95% interval on the loss where the action taken was not the best found (``loss``),
and on the action taken's win chance (``win``), medians over the decisions reviewed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from harness import ONE_THREAD  # bench/ is the script's folder

#: Game -> (target seconds per game, line-up).
CASES = {
    "rubbish": (5.0, "fitted"),
    "shared_budget": (5.0, "fitted"),
    "going_gone": (15.0, "fitted"),
    "auction_house": (30.0, "fitted"),
}
HINT_TARGET = 2.0


def run_case(game: str, games: int, hints: int) -> dict:
    """One game's figures (in this process)."""
    import polars as pl

    from workbench import games as registry
    from workbench.reviews import default_budget, hint, played_game
    from workbench.reviews.core import review_played

    record = registry.get(game)
    _target, lineup = CASES[game]
    started = time.perf_counter()
    first = played_game(game, None, lineup, seed=10_000)
    review_played(first, seat=0, seed=10_000, budget=4)
    first_call = time.perf_counter() - started
    budget = default_budget(record)
    seconds, cpu, loss_widths, win_widths, decisions = [], [], [], [], []
    for g in range(games):
        played = played_game(game, None, lineup, seed=g)
        seat = g % played.rules.players
        started, started_cpu = time.perf_counter(), time.process_time()
        review = review_played(played, seat=seat, seed=g, budget=budget)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        frame = review.decisions.filter(pl.col("label").is_not_null())
        decisions.append(review.decisions.height)
        lost = frame.filter(pl.col("label") != "best")
        loss_widths += (lost["high"] - lost["low"]).to_list()
        win_widths += (frame["win_high"] - frame["win_low"]).to_list()
    hint_seconds, hint_cpu = [], []
    played = played_game(game, None, lineup, seed=games)
    steps = [s for s, p in enumerate(played.players)
             if len(played.states[s].legal_actions()) > 1][:hints]  # fmt: skip
    for step in steps:
        started, started_cpu = time.perf_counter(), time.process_time()
        hint(record, played.states[step], seed=games, step=step)
        hint_seconds.append(time.perf_counter() - started)
        hint_cpu.append(time.process_time() - started_cpu)
    return {
        "budget": budget, "first_call": first_call, "seconds": seconds, "cpu": cpu,
        "hint_cpu": hint_cpu,
        "decisions": statistics.median(decisions),
        "loss_width": statistics.median(loss_widths) if loss_widths else None,
        "win_width": statistics.median(win_widths), "hints": hint_seconds,
    }  # fmt: skip


def describe(game: str, figures: dict) -> str:
    target = CASES[game][0]
    cpu, wall = statistics.median(figures["cpu"]), statistics.median(figures["seconds"])
    hint_cpu = statistics.median(figures["hint_cpu"])
    verdict = "met" if cpu <= target else "MISSED"
    hint_verdict = "met" if max(figures["hint_cpu"]) <= HINT_TARGET else "MISSED"
    loss = "–" if figures["loss_width"] is None else f"{figures['loss_width']:.3f}"
    return (
        f"{game:14s} budget {figures['budget']:4d}: review {cpu:5.2f} s CPU median (slowest "
        f"{max(figures['cpu']):5.2f}; wall {wall:5.2f} s; {len(figures['cpu'])} games, "
        f"{figures['decisions']:.0f} decisions; target {target:g} s {verdict}); widths: loss "
        f"{loss}, win {figures['win_width']:.3f}; hint {hint_cpu:.2f} s CPU median (slowest "
        f"{max(figures['hint_cpu']):.2f}, wall {statistics.median(figures['hints']):.2f}; "
        f"target {HINT_TARGET:g} s {hint_verdict}); first call {figures['first_call']:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 games and 4 hints per game")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--hints", type=int, default=None)
    args = parser.parse_args()
    games = args.games or (2 if args.quick else 5)
    hints = args.hints or (4 if args.quick else 12)
    if args.case:
        print(json.dumps(run_case(args.case, games, hints)))
        return
    print(f"One game reviewed on one core at the default budget ({games} seeded games of fitted "
          f"players each, medians); the hint at {hints} decisions:")  # fmt: skip
    for game in CASES:
        out = subprocess.run(
            [sys.executable, __file__, "--case", game, "--games", str(games), "--hints",
             str(hints)],
            capture_output=True, text=True, env={**os.environ, **ONE_THREAD}, check=True,
        )  # fmt: skip
        print(describe(game, json.loads(out.stdout.strip().splitlines()[-1])), flush=True)


if __name__ == "__main__":
    main()
