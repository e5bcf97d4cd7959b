"""The shared budget auction's fitter: the kit's CMA-ES self-play fit (``workbench.kit.fitting``)
with an exploitation penalty, playing the compiled engine directly (no frames).

Fitting only the candidate's win share alone against tables of the hand-written agents and of
the current fit finds bids that beat those tables but that a table of them loses to a lone
coverage heuristic (measured at 3 teams: the heuristic alone against two such fits won every
game). So each candidate is also the table: every hand-written agent sits alone against n - 1
copies of it, in every seat, and the objective is

    mean win share of the candidate alone against each table
    - penalty x sum over those lone agents of max(0, their win share - 1/n + slack)

(Seating the current fit alone against each candidate's table too was tried: at 4 teams the
search then wandered and ended exploitable by the coverage heuristic.)

All candidates of a generation play the same deals and draws (common random numbers).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.shared_budget.compiled import play_batch
from workbench.games.shared_budget.rules import Rules
from workbench.kit.fitting import Fitting
from workbench.kit.progress import progress_bar
from workbench.kit.seeding import generator, seed_sequence

#: Weight of a lone agent's win share above fair share (minus ``SLACK``) in the objective.
PENALTY = 3.0
#: CMA-ES's initial step, in the unit cube: small, as most of the cube is easily exploited.
STEP = 0.1
#: How far below fair share the fit keeps every lone agent's win share against its table.
SLACK = 0.01


def lone_share(
    rules: Rules, lone: Any, table: Any, games: int, seed: np.random.SeedSequence
) -> float:
    """``lone``'s mean win share alone against n - 1 copies of ``table`` (compiled agents),
    ``games`` games in each seat, seat s on the deals of (seed, s)."""
    from workbench.games.shared_budget.simulate import standings_arrays

    total = 0.0
    for seat in range(rules.players):
        lineup = [table] * rules.players
        lineup[seat] = lone
        played = play_batch(rules, lineup, games, generator(seed_sequence(seed, seat), 0), 0)
        scores = np.bitwise_count(played.coverage).astype(np.int64)
        _ranks, shares = standings_arrays(rules, scores, played.budgets)
        total += float(shares[:, seat].mean())
    return total / rules.players


def robust_fit(
    fitting: Fitting,
    rules: Rules,
    opponents: Sequence[Any],
    *,
    seed: int = 0,
    progress: bool = True,
) -> tuple[dict[str, float], dict[str, Any]]:
    """Fit ``fitting``'s policy to ``rules`` against ``opponents`` (compiled agents) with the
    exploitation penalty (module docstring); the parameters by name and the fit's details.
    Same arguments -> same parameters."""
    low = np.array([p.low for p in fitting.parameters], dtype=float)
    high = np.array([p.high for p in fitting.parameters], dtype=float)
    width = high - low

    def to_params(unit: np.ndarray) -> np.ndarray:
        return low + np.clip(unit, 0.0, 1.0) * width

    strategy = _strategy(
        (np.array([p.start for p in fitting.parameters]) - low) / width,
        population=fitting.population, seed=seed,
    )  # fmt: skip
    fair, games = 1.0 / rules.players, fitting.games
    history: list[float] = []
    started = time.perf_counter()
    bar = progress_bar(fitting.generations, enabled=progress, description="fitting shared_budget",
                       unit="generation")  # fmt: skip
    try:
        for generation in range(fitting.generations):
            tables = [*opponents, fitting.policy(rules, to_params(strategy.mean))]
            units = strategy.ask()
            values = []
            for unit in units:
                candidate = fitting.policy(rules, to_params(unit))
                wins = np.mean([
                    lone_share(rules, candidate, table, games,
                               seed_sequence(seed, generation, 0, index))
                    for index, table in enumerate(tables)
                ])  # fmt: skip
                exploited = sum(
                    max(0.0, lone_share(rules, lone, candidate, games,
                                        seed_sequence(seed, generation, 1, index))
                        - fair + SLACK)
                    for index, lone in enumerate(opponents)
                )  # fmt: skip
                values.append(wins - PENALTY * exploited)
            strategy.tell(units, [-v for v in values])  # pycma minimises
            history.append(float(np.mean(values)))
            bar.update(1)
    finally:
        bar.close()
    names = fitting.names
    params = {name: float(v) for name, v in zip(names, to_params(strategy.mean), strict=True)}
    details = {
        "seconds": round(time.perf_counter() - started, 3),
        "generations": fitting.generations,
        "population": fitting.population,
        "games_per_table_and_seat": games,
        "opponents": list(fitting.opponents),
        "penalty": PENALTY,
        "slack": SLACK,
        "mean_objective_by_generation": [round(h, 4) for h in history],
    }
    return params, details


def _strategy(start: np.ndarray, *, population: int, seed: int) -> Any:
    """A pycma CMA-ES over the unit cube drawing from its own seeded generator (as the kit's)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycma warns when matplotlib is missing
        import cma
    normal = np.random.default_rng(seed_sequence(seed, 0xC3A))
    return cma.CMAEvolutionStrategy(
        list(start), STEP,
        {"seed": np.nan, "randn": lambda *shape: normal.standard_normal(shape),
         "popsize": population, "bounds": [0.0, 1.0], "verbose": -9},
    )  # fmt: skip
