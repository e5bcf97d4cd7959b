"""Going, Going, GONE!: exact collection values and self-play throughput.

    python bench/going_gone.py            # every case, 5 repeats each, medians
    python bench/going_gone.py --quick    # fewer games and repeats

Each case runs in its own process (pinned to one thread), so caches start cold and every peak
memory figure is the case's own. Besides wall-clock figures each line gives the same figure per
CPU-second of the case's process: on a shared machine the wall clock also counts time other
processes had the core, the CPU figure does not (on a quiet machine the two agree).

Targets (issue 9): any 20-item holding valued in under 5 ms (median); the end scoring of
10,000 four-player games under 1 s. Issue 18 (the compiled engine): at least 80,000
four-player valuation games per second through ``simulate`` (default frames) on one core;
the first call in a fresh process (compile or cache load) within 10 s; 1,000,000 games
streamed in under 1 GB.

The numpy batch engine this replaced (commit 96fc6a1), measured on the same loaded machine in
one run beside the compiled engine, per CPU-second: valuation 3,160 games/s with the default
frames (4,610 games frame only); the compiled engine played 11,900 (16,400) in that run, 3.7x
(3.6x). Random 21,400 and collector 4,300 (default frames) compiled.

Issue 18 work (branch ``speed``), measured under load (other jobs running on the 2 cores), CPU
time, medians of 3 at ``--quick`` scale, each run interleaved with the branch point (a3f5967):
valuation with the default frames 11,900 -> 22,600 games per CPU-s (in a later session 16,700
-> 23,700, four runs each, interleaved); valuation, games frame
only (the streamed case, 100,000 games) 18,500 -> 27,900; end scoring of 10,000 games 0.085 ->
0.046 CPU-s. The 80,000 target is not met. First call compiling into an empty numba cache:
25.8 s at the branch point, 28.9 s now (not within 10 s, before or after); from the cache 0.45 s.

Issue 18 again (branch ``gg-engine``): the kernels that never allocate run without numba's
reference counting (perf had a third of the CPU in NRT_incref/decref), components of 11-12 free
items go to the DP, the sales table is 3 wide. Medians of 3 runs at scale 1, each interleaved with
the branch point (b0e26b3), per CPU-s (another job on the other core): valuation with the default
frames 24,100 -> 64,500 games (2.7x; wall 24,000 -> 63,900); games frame only 31,500 -> 87,600
(2.8x); play_from 39,400 -> 128,900 playouts (3.3x); the search against 3 fitted (200 games)
42.1 -> 66.5 (1.6x). The 80,000 with the default frames is still not met. Where the time goes
now (100,000 games, default frames, about 1.55 CPU-s): exact values of the holdings after each
round about 0.55 (holdings whose largest undecided component has 13 or more items, under 1% of
them, a third of that), the bids 0.30, the rest of the sales pass 0.2, the sale plans 0.11, the
frames in Python about 0.3.

The search agent (issue target: at its default budget, one seat against three fitted, >= 100
games/s in the step engine on one core): "step, search (default budget) vs 3 fitted", 200 games
a run, 45.4 games per CPU-s (median of 3; wall 42.1) on a loaded machine, each run interleaved
with the branch point a64fd87 at 14.2 per CPU-s (3.2x); the target is not met. Of a game's 24
CPU-ms (one profile), the playouts' compiled fitted-policy work takes 11, the search's Python
(sampling, positions, halving) about 8 and the step engine with the fitted seats about 5.

Issue 19 (branch ``wave-gg``): ``fitted`` at >= 50% of ``valuation``'s games/s in the compiled
engine, and the search case >= 100 games/s. Medians of 3 runs at scale 1, each interleaved with
the branch point (9b61bcb), per CPU-s (other jobs on the machine; wall within 1%): "fast,
fitted agents" 36,600 -> 55,900 games (valuation 86,300 -> 88,500: 0.42x -> 0.63x; collector
24,300 -> 37,000); the search case 54.5 -> 102.8 games (wall 54.3 -> 102.8; runs 95-106). The
decisions did not change: every fast-engine frame and the search's step-engine frames equal the
branch point's. Where the fitted policy's time went (a game of four fitted seats, about 25 us):
bids 13 (exact values of the holding and the holding plus each lot: most holdings have none or
one item free to join either line, now valued bit-parallel without the cache, whose lookups
missed the processor's caches), sales 9 (every line's exact loss: now only lines whose lower
bound, best[size], can still beat the pick). Of a search game's 9.6 CPU-ms now (one profile):
the search's Python (the sampler's set-up and draws, positions, halving) about 4.5, the step
engine with the fitted seats and the frames 3.4, the compiled playouts 1.7.

With compiled seats deciding from ``State.view`` (e51be9b; no Observation or legal actions for
them), "step engine (simulate), fitted agents" at --scale 0.3, five runs interleaved with the
commit before (40bf2e8): 198 games/s median (126 to 218) against 159 (102 to 172), x1.25, each
pair x1.13 to x1.33; the search case, three runs each, 40 to 70 games/s both ways (too noisy a
machine to tell).
"""

from __future__ import annotations

import statistics
import time

import harness
from harness import peak_mb

# name: (kind, agents, games or holdings, frames)
CASES = {
    "best_collections, 20-item holdings (ms each)": ("holdings", None, 400, None),
    "best value only, 20-item holdings (ms each)": ("values", None, 400, None),
    "end scoring of 10,000 four-player games (s)": ("scoring", None, 10_000, None),
    "fast, valuation agents": ("fast", "valuation", 100_000, "games"),
    "fast, valuation agents, all three frames": ("fast", "valuation", 100_000, "all"),
    "fast, collector agents": ("fast", "collector", 20_000, "games"),
    "fast, fitted agents": ("fast", "fitted", 50_000, "games"),
    "fast, collector vs 3 valuation, all three frames": ("fast", "mixed", 20_000, "all"),
    "fast, random agents": ("fast", "random", 40_000, "games"),
    "fast, valuation agents, default frames (simulate)": ("fast", "valuation", 100_000, "default"),
    "fast, random agents, default frames (simulate)": ("fast", "random", 100_000, "default"),
    "fast, collector agents, default frames (simulate)": ("fast", "collector", 20_000, "default"),
    "fast, valuation agents, 1,000,000 games streamed": ("fast", "valuation", 1_000_000, "games"),
    "first call in a fresh process (compile or cache load), s": ("first", "valuation", 64, None),
    "play_from, valuation agents (playouts/s)": ("playouts", "valuation", 20_000, None),
    "step engine (simulate), random agents": ("step", "random", 1_000, "all"),
    "step engine (simulate), valuation agents": ("step", "valuation", 1_000, "all"),
    "step engine (simulate), fitted agents": ("step", "fitted", 1_000, "all"),
    "step, search (default budget) vs 3 fitted": ("step", "search", 400, "all"),
}


def run_case(name: str, scale: float) -> dict[str, float]:
    """Run one case in this process: its figure (games/s, ms or s) and peak RSS."""
    import numpy as np

    from workbench.games.going_gone import Rules, best_collections, simulate_batches
    from workbench.games.going_gone.arrangement import best_value
    from workbench.games.going_gone.holdings import exact_values

    rules = Rules()
    kind, agents, count, frames = CASES[name]
    count = max(10, int(count * scale))
    if kind in ("holdings", "values"):
        rng = np.random.default_rng(1)
        holdings = [rng.choice(49, size=20, replace=False).tolist() for _ in range(count)]
        times, cpu = [], []
        for items in holdings:
            start, start_cpu = time.perf_counter(), time.process_time()
            if kind == "holdings":
                best_collections(items, rules=rules)
            else:
                mask = sum(1 << (8 * (i // 7) + i % 7) for i in items)
                best_value(mask, rules.best_line_values)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        return _figures(
            count,
            1000 * statistics.median(times),
            "ms",
            1000 * statistics.median(cpu),
            worst=1000 * max(times),
        )
    if kind == "scoring":
        # the holdings left at the end of `count` valuation games, valued from a cold cache
        from workbench.games.going_gone.simulate import FAST_ENGINE

        holdings = []
        wanted = {"rounds": False, "lots": False}
        for start in range(0, count, 8192):
            rng = np.random.default_rng(start)
            played = FAST_ENGINE.play_lineup(rules, _agents("valuation", rules),
                                             min(8192, count - start), rng, start, wanted)
            holdings.append(played.holdings)
        holdings = np.concatenate(holdings)
        start, start_cpu = time.perf_counter(), time.process_time()
        exact_values(holdings, rules)
        return _figures(count, time.perf_counter() - start, "s", time.process_time() - start_cpu)
    if kind == "first":
        start, start_cpu = time.perf_counter(), time.process_time()
        simulate_batches_first = simulate_batches(rules, _agents(agents, rules), games=count,
                                                  seed=1, progress=False)  # fmt: skip
        for _ in simulate_batches_first:
            pass
        return _figures(count, time.perf_counter() - start, "s", time.process_time() - start_cpu)
    if kind == "playouts":
        from workbench.games.going_gone import new_game, play_from

        states = [new_game(rules, seed=s) for s in range(4)]
        play_from(states[0], _agents(agents, rules), playouts=16, seed=0)  # compile or load
        start, start_cpu = time.perf_counter(), time.process_time()
        play_from(states, _agents(agents, rules), playouts=count // 4, seed=1)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        return _figures(count, count / elapsed, "games/s", count / cpu)
    lineup = _agents(agents, rules)
    if agents == "search":  # compile or load the cache, read the fit: not timed
        for _ in simulate_batches(rules, lineup, games=2, seed=0, engine="step", progress=False):
            pass
    if frames == "default":  # compile or load the cache outside the timing
        for _ in simulate_batches(rules, lineup, games=64, seed=0, progress=False):
            pass
    start, start_cpu = time.perf_counter(), time.process_time()
    for _ in simulate_batches(
        rules,
        lineup,
        games=count,
        seed=1,
        progress=False,
        engine="step" if kind == "step" else "fast",
        rounds=frames in ("all", "default"),
        lots=frames == "all",
    ):
        pass
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return _figures(count, count / elapsed, "games/s", count / cpu)


def _agents(name: str, rules: object) -> list:
    from workbench.games.going_gone import make_agent

    if name == "mixed":
        return [make_agent("collector")] + [make_agent("valuation")] * 3
    if name == "search":
        return [make_agent("search")] + [make_agent("fitted")] * 3
    return [make_agent(name)] * 4


def _figures(
    count: int, figure: float, unit: str, cpu_figure: float, **extra: float
) -> dict[str, float]:
    """The case's figure by the wall clock and by this process's CPU time, and its peak RSS."""
    return {
        "count": count,
        "figure": figure,
        "cpu_figure": cpu_figure,
        "unit": unit,
        "peak_mb": peak_mb(),
        **extra,
    }


def _line(name: str, runs: list[dict[str, float]]) -> str:
    figure = statistics.median(r["figure"] for r in runs)
    cpu_figure = statistics.median(r["cpu_figure"] for r in runs)
    peak = max(r["peak_mb"] for r in runs)
    unit = runs[0]["unit"]
    if unit == "games/s":
        shown = f"{figure:>8,.0f} {unit} ({cpu_figure:,.0f} per CPU-s)"
    else:
        shown = f"{figure:>8.3f} {unit} ({cpu_figure:.3f} CPU)"
    worst = (
        f"  (slowest holding {max(r['worst'] for r in runs):.1f} ms)" if "worst" in runs[0] else ""
    )
    what = "holdings" if CASES[name][0] in ("holdings", "values") else "games"
    return f"  {name:<58} {runs[0]['count']:>8,} {what}  {shown}  peak {peak:>5,.0f} MB{worst}"


if __name__ == "__main__":
    harness.main(
        __doc__,
        __file__,
        lambda repeats: f"Going, Going, GONE!, 4 players, one thread; median of {repeats} runs",
        list(CASES),
        run_case,
        _line,
    )
