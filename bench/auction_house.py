"""Auction House throughput: deals per second and peak memory for each engine path.

    python bench/auction_house.py            # every case, 5 repeats each, medians
    python bench/auction_house.py --quick    # fewer games and repeats

A game is 13 deals; figures are deals per second (games/s x 13). Each case runs in its own
process (pinned to one thread) so that its peak memory is its own. Targets (issue 10): fast
engine >= 30,000 deals/s on one core with random or heuristic agents; step engine >= 500
deals/s.
"""

from __future__ import annotations

import statistics
import time

import harness
from harness import peak_mb

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
    return {
        "games": games,
        "deals": games * deals,
        "seconds": elapsed,
        "deals_per_s": games * deals / elapsed,
        "peak_mb": peak_mb(),
    }


def _line(name: str, runs: list[dict[str, float]]) -> str:
    rate = statistics.median(r["deals_per_s"] for r in runs)
    peak = max(r["peak_mb"] for r in runs)
    return (
        f"  {name:<52} {runs[0]['deals']:>9,} deals  {rate:>10,.0f} deals/s  peak {peak:>6,.0f} MB"
    )


if __name__ == "__main__":
    harness.main(
        __doc__,
        __file__,
        lambda repeats: (
            f"Auction House, 13 deals a game, one thread; median of {repeats} runs "
            "(deals/s, peak RSS)"
        ),
        [*CASES, STREAM_CASE],
        run_case,
        _line,
        once=[STREAM_CASE],
    )
