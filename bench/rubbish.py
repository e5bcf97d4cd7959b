"""Rubbish Auction throughput: games per second and peak memory for each engine path.

    python bench/rubbish.py            # every case, 5 repeats each, medians
    python bench/rubbish.py --quick    # fewer games and repeats

Each case runs in its own process (pinned to one thread) so that its peak memory is its own.
Targets (issue 3): fast engine >= 100,000 games/s with random or heuristic agents, 4 players;
step engine >= 2,000 games/s; 1,000,000 games in under 2 GB peak.
"""

from __future__ import annotations

import statistics
import time

import harness
from harness import peak_mb

CASES = {
    # name: (engine, agents, games, rounds frame)
    "fast, random agents": ("fast", "random", 200_000, False),
    "fast, heuristic agents": ("fast", "heuristic", 200_000, False),
    "fast, heuristic agents, with rounds frame": ("fast", "heuristic", 200_000, True),
    "step engine alone (play_game), random agents": ("loop", "random", 4_000, False),
    "step, random agents": ("step", "random", 4_000, True),
    "step, heuristic agents": ("step", "heuristic", 2_000, True),
    "step, sampling agent (samples=16) vs 3 heuristic": ("step", "sampling", 40, True),
}
STREAM_CASE = "fast, heuristic agents, 1,000,000 games streamed"


def run_case(name: str, scale: float) -> dict[str, float]:
    """Run one case in this process and report games/s and peak RSS."""
    from workbench.games.rubbish import (
        HeuristicAgent,
        RandomAgent,
        Rules,
        SamplingAgent,
        play_game,
        simulate_batches,
    )

    rules = Rules()
    if name == STREAM_CASE:
        engine, agents, games, rounds = "fast", "heuristic", int(1_000_000 * scale), True
    else:
        engine, agents, games, rounds = CASES[name]
        games = max(10, int(games * scale))
    if agents == "sampling":
        agents = [SamplingAgent(samples=16)] + [HeuristicAgent()] * 3
    if engine == "loop":
        random_agents = [RandomAgent()] * rules.players
        start = time.perf_counter()
        for game in range(games):
            play_game(rules, random_agents, seed=game)
        return _figures(games, time.perf_counter() - start)
    win_share_by_seat = [0.0] * rules.players  # aggregate as we go; keep no frames
    start = time.perf_counter()
    for games_frame, _rounds_frame in simulate_batches(
        rules, agents, games=games, seed=1, progress=False, engine=engine, rounds=rounds
    ):
        for seat, share in enumerate(games_frame["win_share"].to_numpy().reshape(-1, 4).sum(0)):
            win_share_by_seat[seat] += float(share)
    return _figures(games, time.perf_counter() - start)


def _figures(games: int, elapsed: float) -> dict[str, float]:
    """Games, seconds, games/s and this process's peak resident memory in MB."""
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "peak_mb": peak_mb(),
    }


def _line(name: str, runs: list[dict[str, float]]) -> str:
    rate = statistics.median(r["games_per_s"] for r in runs)
    peak = max(r["peak_mb"] for r in runs)
    return (
        f"  {name:<52} {runs[0]['games']:>9,} games  {rate:>10,.0f} games/s  peak {peak:>6,.0f} MB"
    )


if __name__ == "__main__":
    harness.main(
        __doc__,
        __file__,
        lambda repeats: (
            f"Rubbish Auction, 4 players, one thread; median of {repeats} runs (games/s, peak RSS)"
        ),
        [*CASES, STREAM_CASE],
        run_case,
        _line,
        once=[STREAM_CASE],
    )
