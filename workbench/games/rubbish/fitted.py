"""Rubbish Auction's ``fitted`` agent: the heuristic's policy (``HeuristicAgent``: a cap on
wanted bids and three shares of money to bid on unwanted items) with its parameters fitted to
the rules being played by the kit's fitter (``workbench.kit.fitting``: CMA-ES, common random
numbers, against the random and heuristic agents and the current fit itself).

The policy is a compiled policy (``agents.FittedPolicy``), so the fitted agent plays in the
fast engine. The rulebook's fit ships in ``data/fits/rubbish/``; other rules fit on first use
(under a minute on one core) and are cached.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from workbench.checks import whole_number
from workbench.kit.fits import Fit, cached_fit
from workbench.kit.fitting import FittedAgent, Fitting, Parameter, _share_against, _strategy
from workbench.kit.progress import progress_bar
from workbench.kit.seeding import SeedLike, generator, seed_sequence
from workbench.kit.selfplay import playing_agent


def _policy(rules: Any, vector: Sequence[float]) -> Any:
    from workbench.games.rubbish.agents import FittedPolicy  # agents.py registers this module

    return FittedPolicy(vector)


FITTING = Fitting(
    version="rubbish-heuristic-1",
    parameters=(
        Parameter("max_wanted_bid", 15.0, 0.0, 40.0),
        Parameter("gain_share", 0.5, 0.0, 1.0),
        Parameter("cheapskate_share", 0.7, 0.0, 1.0),
        Parameter("last_round_share", 0.9, 0.0, 1.0),
    ),
    policy=_policy,
    opponents=("random", "heuristic"),
    games=400,
    generations=30,
    population=8,
)


class SharesOnlySelfPlay:
    """The game's self-play as the fitter uses it, trimmed to what it reads: the same fast
    games ``simulate`` plays for the same seed (``simulate.play_fast``, batch by batch), but
    each batch's frame holds only ``seat`` and ``win_share``. Building the full games frame
    cost several times more than playing the few hundred games of each fitting match."""

    game = "rubbish"

    def __init__(self, selfplay: Any) -> None:
        self.selfplay = selfplay
        self.make_agent = selfplay.make_agent

    def frame_batches(
        self, rules: Any, agents: Sequence[Any], *, games: int, seed: SeedLike, **_ignored: Any
    ) -> Any:
        """(frame of seat and win_share,) per batch of ``games`` fast games."""
        from workbench.games.rubbish.simulate import BATCH_SIZE, play_fast

        playing = [playing_agent(agent, rules) for agent in agents]
        for start in range(0, games, BATCH_SIZE):
            size = min(BATCH_SIZE, games - start)
            rng = generator(seed, start // BATCH_SIZE)
            played = play_fast(rules, playing, size, rng, start, {"rounds": False})
            shares = played.standings[2]
            seats = np.tile(np.arange(rules.players, dtype=np.int8), size)
            yield (pl.DataFrame({"seat": seats, "win_share": shares.ravel()}),)


class RubbishFittedAgent(FittedAgent):
    """The heuristic's policy with parameters fitted to the rules being played (see the
    module docstring); ``seed`` picks the fit."""

    def _fitting(self) -> tuple[Any, Fitting]:
        from workbench.games.rubbish.simulate import SELF_PLAY  # simulate imports agents

        return SharesOnlySelfPlay(SELF_PLAY), FITTING

    def fit(self, rules: Any, *, progress: bool = True) -> Fit:
        """The fit for ``rules``: cached (shipped fits first), else fitted by ``fit_policy``."""
        selfplay, fitting = self._fitting()
        return cached_fit(
            selfplay.game, rules, version=fitting.version, seed=self.seed,
            fit=lambda: fit_policy(selfplay, fitting, rules, seed=self.seed, progress=progress),
        )  # fmt: skip

    def action_probabilities(self, observation: Any, legal_actions: Sequence[Any]) -> dict:
        """Exact, as the heuristic's (the fitted policy is the heuristic's with other
        parameters): what inference uses when this agent is a prior."""
        policy = self.policy_for(observation.rules)
        return policy.action_probabilities(observation, legal_actions)


def fit_policy(
    selfplay: Any, fitting: Fitting, rules: Any, *, seed: int = 0, progress: bool = True
) -> tuple[dict[str, float], dict[str, Any]]:
    """The kit's ``fit_policy`` (same games, same CMA-ES draws) with one fix: the current fit is
    the CMA mean *through pycma's boundary transform*. The kit clips the untransformed mean to
    the unit cube, so once the mean leaves it (pycma lets it, and reflects every candidate back
    inside) the kit's current fit and its result jump to the cube's corner, far from every
    candidate it played: here all four parameters ended at their upper bounds while the
    candidates' shares were near 0.7-0.85. To be lifted into the kit."""
    seed = whole_number("seed", seed, low=0)
    names = fitting.names
    low = np.array([p.low for p in fitting.parameters], dtype=float)
    high = np.array([p.high for p in fitting.parameters], dtype=float)
    width = high - low
    opponents = [selfplay.make_agent(name, rules) for name in fitting.opponents]
    strategy = _strategy(
        (np.array([p.start for p in fitting.parameters]) - low) / width,
        population=fitting.population, seed=seed,
    )  # fmt: skip

    def current() -> np.ndarray:
        unit = strategy.boundary_handler.transform(strategy.mean)
        return low + np.clip(unit, 0.0, 1.0) * width

    history: list[float] = []
    played, started = 0, time.perf_counter()
    bar = progress_bar(fitting.generations, enabled=progress, description="fitting rubbish",
                       unit="generation")  # fmt: skip
    try:
        for generation in range(fitting.generations):
            tables = [*opponents, fitting.policy(rules, current())]
            units = strategy.ask()
            candidates = [low + np.clip(u, 0.0, 1.0) * width for u in units]
            shares = np.array([
                _share_against(selfplay, rules, fitting.policy(rules, vector), tables,
                               fitting.games, seed_sequence(seed, generation))
                for vector in candidates
            ])  # fmt: skip
            played += len(units) * len(tables) * rules.players * fitting.games
            strategy.tell(units, list(-shares))  # pycma minimises
            history.append(float(shares.mean()))
            bar.update(1)
    finally:
        bar.close()
    params = {name: float(v) for name, v in zip(names, current(), strict=True)}
    details = {
        "games": played,
        "seconds": round(time.perf_counter() - started, 3),
        "generations": fitting.generations,
        "population": fitting.population,
        "games_per_table_and_seat": fitting.games,
        "opponents": list(fitting.opponents),
        "mean_share_by_generation": [round(h, 4) for h in history],
    }
    return params, details


def fit(rules: Any = None, *, seed: int = 0, progress: bool = True) -> Fit:
    """The fitted agent's fit to ``rules`` (None: the rulebook's): read from the shipped fits
    or the cache, else fitted now (with a progress bar when ``progress``) and cached."""
    from workbench.games.rubbish.simulate import SELF_PLAY

    rules = SELF_PLAY.checked_rules(rules)
    return RubbishFittedAgent(seed=seed).fit(rules, progress=progress)


__all__ = ["FITTING", "RubbishFittedAgent", "fit"]
