"""Auction House throughput: deals per second and peak memory for each engine path.

    python bench/auction_house.py            # every case, 5 repeats each, medians
    python bench/auction_house.py --quick    # fewer games and repeats

A game is 13 deals; figures are deals per second (games/s x 13). Each case runs in its own
process (pinned to one thread) so that its peak memory is its own. Targets (issue 18): the
compiled engine >= 600,000 random deals/s through the public ``simulate`` on one core; first
call in a fresh process (compiling, or loading numba's cache) <= 10 s; 1,000,000 games streamed
in < 1 GB. Issue 19: the fitted agent >= 50% of the heuristic's deals/s in the compiled
engine; the search agent at its default budget, one seat against three fitted, >= 200 deals/s.
Measured ("step, search (default budget) vs 3 fitted", 16 games, runs interleaved one for one
with the commit before the work, b0e26b3, shared machine loaded: load average about 3.8 on two
cores): 208 deals/s median of 5 (199 to 214) against 181 for b0e26b3 (171 to 192), x1.15;
heavier loaded, 140 against 125, median of 7 (x1.11). Over half of it is the playouts
(compiled, about 2,500 playout-deals a deal played; 0.63 -> 0.53 s CPU on 3,367 recorded rounds
once the trick loop kept the trick's best card as it goes), the rest the step engine with the
fitted seats' decisions (about 1 ms a deal) and the search's own Python (about 1 ms).
With the stronger fit's three new features (quiet machine, 64 games, interleaved with the
commit before them, 9b61bcb): 196 deals/s (194, 196, 200) against 215 (209, 216, 218); the
fitted policy's compiled playouts are 8-14% slower with the new features' code. With the trick
loop keeping the tricks taken in a running count for the policy's trick race (instead of the
policy reading the row inside the loop), interleaved with the commit before: 212 deals/s
(202, 212, 213) against 195 (192, 195, 200). With the search's playouts stopping at the end of
the deal (valued by the win chance the scores leave), interleaved with the game-end search of
0d6057e, both at --scale 8 (64 games) on a machine running this script's compiled heuristic case
at about 210,000 deals/s (half its quiet speed): 175 deals/s (174, 175, 176) against 77 (68, 84,
77). With a decision's whole halving in one compiled call (``search.halve``), interleaved
one for one with the commit before it, 27a0569, ten runs each at --scale 8 with the compiled
heuristic case between them (171,000 to 232,000 deals/s, median 199,000: under half its quiet
speed, and noisy): 186 deals/s median (162 to 213) against 151 (135 to 198), x1.23; the same
games and choices, bit for bit. With the fitted seats deciding from ``State.view`` (the step
engine's loop skips their Observation), five runs interleaved with the commit before, e3133b0
(compiled heuristic 203,000 to 264,000, median 212,000): 245 deals/s (229 to 280) against 186
(176 to 249), x1.32; "step, fitted agents" 894 (856 to 1,094) against 455 (345 to 467) and
"step, heuristic agents" 736 against 310, medians of 3. With the fitted agent's card play
learnt from the search (a score over 30 features of each legal card, compiled; the search's
playouts play it too), five pairs of "compiled, heuristic agents" and "compiled, fitted
agents" run one after the other (the heuristic 300,000 to 356,000 deals/s, about 80% of its
quiet speed): fitted 191,000 deals/s against 332,000, medians, each pair's ratio 0.52 to 0.65
(median 0.62); the search case at --scale 4 (32 games), three runs: 280 deals/s (261, 280,
281).

Ratios: to the step engine measured in the same run, and to the numpy batch engine the compiled
engine replaced: NUMPY_DEALS_PER_S below, measured on this machine at commit 96fc6a1 with this
script's cases then ("fast, random agents", "fast, heuristic agents": 20,000 games,
rounds=False), medians of 5 runs interleaved one for one with the compiled engine's cases (the
machine was shared and heavily loaded: the compiled engine ran 122,000 random and 78,500
heuristic deals/s in those same minutes, x11.0 and x7.9).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import harness
from harness import peak_mb

#: The numpy batch engine's deals/s (commit 96fc6a1, this machine; see the docstring).
NUMPY_DEALS_PER_S = {"random": 11_100, "heuristic": 9_950}
CASES = {
    # name: (engine, agents, games, rounds frame)
    "step engine alone (play_game), random agents": ("loop", "random", 400, False),
    "step, random agents (simulate, both frames)": ("step", "random", 400, True),
    "step, heuristic agents (simulate, both frames)": ("step", "heuristic", 100, True),
    "compiled, random agents": ("fast", "random", 40_000, False),
    "compiled, heuristic agents": ("fast", "heuristic", 40_000, False),
    "compiled, heuristic agents, with rounds frame": ("fast", "heuristic", 20_000, True),
    "kitty_outcomes, heuristic agents": ("kitty", "heuristic", 20_000, False),
    "play_from, random agents (100 positions x 200 playouts)": ("playouts", "random", 100, False),
    "play_from, heuristic agents (100 positions x 200 playouts)": (
        "playouts", "heuristic", 100, False,
    ),
    "step, determinization (16 worlds) vs 3 heuristic": ("step", "determinization", 4, True),
    "compiled, fitted agents": ("fast", "fitted", 40_000, False),
    "step, fitted agents (simulate, both frames)": ("step", "fitted", 100, True),
    "step, search (default budget) vs 3 fitted": ("step", "search", 8, True),
}  # fmt: skip
FIRST_CALL = "first call in a fresh process (numba cache loaded)"
FIRST_COMPILE = "first call in a fresh process (empty numba cache: compiling)"
STREAM_CASE = "compiled, heuristic agents, 1,000,000 games streamed (both frames)"
_medians: dict[str, float] = {}


def run_case(name: str, scale: float) -> dict[str, float]:
    """Run one case in this process and report deals/s and peak RSS."""
    if name in (FIRST_CALL, FIRST_COMPILE):
        return _first_call(compile_afresh=name == FIRST_COMPILE)
    from workbench.games.auction_house import (
        DeterminizationAgent,
        HeuristicAgent,
        RandomAgent,
        Rules,
        kitty_outcomes,
        play_game,
        simulate,
        simulate_batches,
    )

    rules = Rules()
    if name == STREAM_CASE:
        engine, agents, games, rounds = "fast", "heuristic", int(1_000_000 * scale), True
    else:
        engine, agents, games, rounds = CASES[name]
        games = max(4, int(games * scale))
    if agents == "determinization":
        agents = [DeterminizationAgent()] + [HeuristicAgent()] * 3
    adaptive = agents in ("fitted", "search")  # their fit is read on first use: not timed
    if agents == "search":
        agents = ["search", "fitted", "fitted", "fitted"]
    if engine in ("fast", "kitty", "playouts") or adaptive:  # compile or load the cache first
        simulate(rules, agents, games=2, seed=0, progress=False)
    if engine == "playouts":
        return _playouts(rules, agents, games)
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


def _playouts(rules: object, agents: str, positions: int) -> dict[str, float]:
    """``play_from``: 200 playouts to the game's end from each of ``positions`` positions taken
    every sixth action along one seeded game of random agents (deals 1 to 13)."""
    from workbench.games.auction_house import HeuristicAgent, RandomAgent, new_game, play_from
    from workbench.kit.seeding import generator

    walker, rng = RandomAgent(), generator(7)
    state, states, step = new_game(rules, seed=7), [], 0
    while not state.is_over and len(states) < positions:
        if step % 6 == 0:
            states.append(state)
        seat = state.to_play
        state = state.apply(walker(state.observation(seat), state.legal_actions(), rng))
        step += 1
    agent = RandomAgent() if agents == "random" else HeuristicAgent()
    playouts = 200
    start = time.perf_counter()
    play_from(states, [agent] * 4, playouts=playouts, seed=1)
    elapsed = time.perf_counter() - start
    deals_left = sum(rules.deals - s.deal + 1 for s in states) * playouts
    return {
        "games": len(states) * playouts,
        "deals": deals_left,
        "seconds": elapsed,
        "deals_per_s": deals_left / elapsed,
        "playouts_per_s": len(states) * playouts / elapsed,
        "peak_mb": peak_mb(),
    }


def _first_call(compile_afresh: bool) -> dict[str, float]:
    """Seconds from a fresh interpreter to the end of a first 1-game ``simulate`` (import
    included), with numba's cache as it is, or in an empty cache directory."""
    code = (
        "from workbench.games.auction_house import simulate, play_from, new_game, RandomAgent; "
        "simulate(None, 'random', games=1, seed=0, progress=False); "
        "simulate(None, 'heuristic', games=1, seed=0, progress=False); "
        "play_from(new_game(seed=0), [RandomAgent()] * 4, playouts=1, seed=0)"
    )
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if compile_afresh:
            env["NUMBA_CACHE_DIR"] = cache
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        elapsed = time.perf_counter() - start
    return {"seconds": elapsed, "peak_mb": peak_mb()}


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
    if name in (FIRST_CALL, FIRST_COMPILE):
        seconds = statistics.median(r["seconds"] for r in runs)
        return f"  {name:<62} {seconds:>6.1f} s"
    rate = statistics.median(r["deals_per_s"] for r in runs)
    _medians[name] = rate
    peak = max(r["peak_mb"] for r in runs)
    line = (
        f"  {name:<62} {runs[0]['deals']:>10,} deals  {rate:>10,.0f} deals/s  peak {peak:>6,.0f} MB"
    )
    if "playouts_per_s" in runs[0]:
        line += f"  ({statistics.median(r['playouts_per_s'] for r in runs):,.0f} playouts/s)"
    for agents in NUMPY_DEALS_PER_S:
        if name == f"compiled, {agents} agents":
            step = _medians.get(f"step, {agents} agents (simulate, both frames)")
            line += f"\n  {'':<62} x{rate / NUMPY_DEALS_PER_S[agents]:.1f} the numpy engine"
            if step:
                line += f", x{rate / step:,.0f} the step engine (simulate)"
    return line


if __name__ == "__main__":
    harness.main(
        __doc__,
        __file__,
        lambda repeats: (
            f"Auction House, 13 deals a game, one thread; median of {repeats} runs "
            "(deals/s, peak RSS)"
        ),
        [*CASES, FIRST_CALL, FIRST_COMPILE, STREAM_CASE],
        run_case,
        _line,
        once=[FIRST_COMPILE, STREAM_CASE],
    )
