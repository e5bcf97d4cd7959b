"""Best responses: the parameters of a policy family that win most alone against a table, by
CMA-ES (pycma) on common random numbers, and the pieces the fitter shares with it."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.kit.progress import progress_bar
from workbench.kit.seeding import seed_sequence

#: The sub-stream the exploitation penalty's games draw from (apart from the tables' games).
LONE_STREAM = 99
#: The sub-stream (under LONE_STREAM) of the final choice's games, and how many times the
#: exploiter's games per seat it plays there.
FINAL_STREAM = 0xF1
FINAL_GAMES = 5



@dataclass(frozen=True)
class Parameter:
    """One policy parameter: its name, the hand-written value, and the range it may take."""

    name: str
    start: float
    low: float
    high: float

    def typed(self, value: float) -> Any:
        """``value`` as a constructor argument: whole numbers stay whole (a start given as an
        int), the rest floats."""
        return round(value) if isinstance(self.start, int) else float(value)

    def __post_init__(self) -> None:
        if not self.low <= self.start <= self.high:
            raise ValueError(
                f"parameter {self.name}: start {self.start} is outside [{self.low}, {self.high}]"
            )


def hand_written(agent_class: type, vector: Sequence[float]) -> Any:
    """A hand-written agent made with its ``SPACE``'s parameters at ``vector`` (in order)."""
    return agent_class(**{p.name: p.typed(v) for p, v in zip(agent_class.SPACE, vector,
                                                            strict=True)})  # fmt: skip


def best_response(
    selfplay: Any,
    rules: Any,
    make: Callable[[Sequence[float]], Any],
    space: Sequence[Parameter],
    table: Any,
    *,
    games: int = 100,
    probes: int = 64,
    generations: int = 15,
    population: int = 8,
    step: float = 0.15,
    seed: int = 0,
    progress: bool = False,
    description: str = "best response",
) -> tuple[dict[str, float], dict[str, Any]]:
    """The parameters of a policy family (``make(vector)`` -> agent over ``space``) that win
    most alone against n - 1 copies of ``table``, seats rotated. A best response's landscape
    has narrow ridges that a search from one start misses, so: the start and ``probes`` points
    (a power of 2) of a scrambled Sobol sequence, then CMA-ES from the best probe, every
    candidate of a round on the same deals; the answer is the best, on fresh deals, of the best
    probes and the last means. Returns the parameters by name and the search's details (games,
    the answer's share on those fresh deals, seconds)."""
    from scipy.stats import qmc

    started = time.perf_counter()
    low = np.array([p.low for p in space], dtype=float)
    width = np.array([p.high for p in space], dtype=float) - low
    start = (np.array([p.start for p in space]) - low) / width

    def share(unit: np.ndarray, stream: Any) -> float:
        vector = low + np.clip(unit, 0.0, 1.0) * width
        return share_against(selfplay, rules, make(vector), [table], games, stream)

    bar = progress_bar(probes + generations, enabled=progress, description=description,
                       unit="round")  # fmt: skip
    try:
        sampler = qmc.Sobol(len(space), scramble=True,
                            seed=np.random.default_rng(seed_sequence(seed, 0x5B)))  # fmt: skip
        units = [start, *sampler.random_base2(max(0, int(np.log2(max(probes, 1)))))]
        probe_shares = []
        for unit in units:
            probe_shares.append(share(unit, seed_sequence(seed, 0)))
            bar.update(1)
        order = np.argsort(probe_shares)[::-1]
        strategy = cma_strategy(units[order[0]], population=population, seed=seed, step=step)
        means = []
        for generation in range(generations):
            candidates = strategy.ask()
            shares = [share(u, seed_sequence(seed, 1 + generation)) for u in candidates]
            strategy.tell(candidates, [-x for x in shares])
            means.append(strategy.boundary_handler.transform(strategy.mean))
            bar.update(1)
    finally:
        bar.close()
    finalists = [units[i] for i in order[:FINAL_GAMES]] + means[-FINAL_GAMES:]
    fresh = seed_sequence(seed, LONE_STREAM, FINAL_STREAM)
    scores = [share(unit, fresh) for unit in finalists]
    best = np.clip(finalists[int(np.argmax(scores))], 0.0, 1.0)
    rounds = len(units) + generations * population + len(finalists)
    params = {p.name: float(v) for p, v in zip(space, low + best * width, strict=True)}
    return params, {"games": rounds * rules.players * games, "share": float(max(scores)),
                    "seconds": round(time.perf_counter() - started, 3)}  # fmt: skip


def share_against(
    selfplay: Any, rules: Any, candidate: Any, tables: list[Any], games: int, seed: Any
) -> float:
    """The candidate's mean win share alone against n - 1 copies of each table's agent, in
    every seat, on the deals of ``seed`` (the same for every candidate)."""
    total = 0.0
    for table_index, opponent in enumerate(tables):
        for seat in range(rules.players):
            lineup = [opponent] * rules.players
            lineup[seat] = candidate
            shares = selfplay.seat_win_shares(
                rules, lineup, games=games, seed=seed_sequence(seed, table_index, seat)
            )
            total += float(shares[:, seat].mean())
    return total / (len(tables) * rules.players)


def cma_strategy(start: np.ndarray, *, population: int, seed: int, step: float = 0.25) -> Any:
    """A pycma CMA-ES over the unit cube drawing from its own seeded generator (pycma would
    otherwise use numpy's global one)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pycma warns when matplotlib is missing
        import cma
    normal = np.random.default_rng(seed_sequence(seed, 0xC3A))
    return cma.CMAEvolutionStrategy(
        list(start), step,
        {"seed": np.nan, "randn": lambda *shape: normal.standard_normal(shape),
         "popsize": population, "bounds": [0.0, 1.0], "verbose": -9},
    )  # fmt: skip


__all__ = [
    "FINAL_GAMES", "FINAL_STREAM", "LONE_STREAM", "Parameter", "best_response",
    "cma_strategy", "hand_written", "share_against",
]  # fmt: skip
