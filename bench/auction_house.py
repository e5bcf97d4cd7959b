"""Auction House throughput: deals per second and peak memory for each engine path.

    python bench/auction_house.py            # every case, 5 repeats each, medians
    python bench/auction_house.py --quick    # fewer games and repeats

A game is 13 deals; figures are deals per second (games/s x 13). Each case runs in its own
process (pinned to one thread) so that its peak memory is its own. Targets (issue 10): fast
engine >= 30,000 deals/s on one core with random or heuristic agents; step engine >= 500
deals/s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

CASES = {
    # name: (engine, agents, games, rounds frame)
    "fast, random agents": ("fast", "random", 20_000, False),
    "fast, heuristic agents": ("fast", "heuristic", 20_000, False),
    "fast, heuristic agents, with rounds frame": ("fast", "heuristic", 20_000, True),
    "kitty_outcomes, heuristic agents": ("kitty", "heuristic", 20_000, False),
    "step engine alone (play_game), random agents": ("loop", "random", 400, False),
    "step, random agents (simulate, both frames)": ("step", "random", 400, True),
    "step, heuristic agents (simulate, both frames)": ("step", "heuristic", 100, True),
    "step, determinization (16 worlds) vs 3 heuristic": ("step", "determinization", 8, True),
}
STREAM_CASE = "fast, heuristic agents, 200,000 games streamed"


def run_case(name: str, scale: float) -> dict[str, float]:
    """Run one case in this process and report deals/s and peak RSS."""
    from workbench.games.auction_house import (
        DeterminizationAgent,
        HeuristicAgent,
        RandomAgent,
        Rules,
        kitty_outcomes,
        play_game,
        simulate_batches,
    )

    rules = Rules()
    if name == STREAM_CASE:
        engine, agents, games, rounds = "fast", "heuristic", int(200_000 * scale), True
    else:
        engine, agents, games, rounds = CASES[name]
        games = max(4, int(games * scale))
    if agents == "determinization":
        agents = [DeterminizationAgent()] + [HeuristicAgent()] * 3
    start = time.perf_counter()
    if engine == "loop":
        random_agents = [RandomAgent()] * 4
        for game in range(games):
            play_game(rules, random_agents, seed=game)
        return _figures(games, rules.deals, time.perf_counter() - start)
    if engine == "kitty":
        kitty_outcomes(rules, agents, deals=games * rules.deals, seed=1)
        return _figures(games, rules.deals, time.perf_counter() - start)
    total = 0  # aggregate as we go; keep no frames
    for games_frame, _rounds_frame in simulate_batches(
        rules, agents, games=games, seed=1, progress=False, engine=engine, rounds=rounds
    ):
        total += int(games_frame["score"].sum())
    return _figures(games, rules.deals, time.perf_counter() - start)


def _figures(games: int, deals: int, elapsed: float) -> dict[str, float]:
    """Games, deals, seconds, deals/s and this process's peak resident memory in MB."""
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "games": games,
        "deals": games * deals,
        "seconds": elapsed,
        "deals_per_s": games * deals / elapsed,
        "peak_mb": peak_kib / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games, 3 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--scale", type=float, default=1.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.scale)))
        return
    scale = 0.1 if args.quick else 1.0
    repeats = args.repeats or (3 if args.quick else 5)
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "POLARS_MAX_THREADS": "1",
    }
    print(
        f"Auction House, 13 deals a game, one thread; median of {repeats} runs (deals/s, peak RSS)"
    )
    for name in [*CASES, STREAM_CASE]:
        runs = []
        for _ in range(1 if name == STREAM_CASE else repeats):
            out = subprocess.run(
                [sys.executable, __file__, "--case", name, "--scale", str(scale)],
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            runs.append(json.loads(out.stdout))
        rate = statistics.median(r["deals_per_s"] for r in runs)
        peak = max(r["peak_mb"] for r in runs)
        print(
            f"  {name:<52} {runs[0]['deals']:>9,} deals  {rate:>10,.0f} deals/s  "
            f"peak {peak:>6,.0f} MB"
        )


if __name__ == "__main__":
    main()
