"""Auction House's ``fitted`` agent: the heuristic's policy extended with named features
(``policies.FITTED_PARAMETERS``: the heuristic's three, plus how it weighs a card's use, what it
puts in the kitty, when it draws trumps, which suit it leads, when it covers and ruffs), with
the parameters fitted to the rules being played by the kit's fitter (``workbench.kit.fitting``:
CMA-ES, common random numbers, alone against the random and heuristic agents and the current
fit, every seat in turn). The hand-written values are the start, so the fit starts as the
heuristic.

The policy is compiled (``agents.FittedPolicy``), so the fitted agent plays in the compiled
engine. The rulebook's fit ships in ``data/fits/auction_house/``; other rules fit on first use
(under a minute on one core, with a progress bar) and are cached.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
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
    from workbench.games.auction_house.agents import FittedPolicy  # agents imports this module

    return FittedPolicy(vector)


FITTING = Fitting(
    version="auction_house-features-1",
    parameters=(
        Parameter("give_rank", 3.0, 1.0, 10.0),
        Parameter("long_suit", 4.0, 0.0, 10.0),
        Parameter("trade_rank", 7.0, 1.0, 11.0),
        Parameter("shed_length", 3.0, 0.0, 10.0),
        Parameter("shed_trump", 20.0, 0.0, 40.0),
        Parameter("kitty_rank", 0.0, -3.0, 3.0),
        Parameter("draw_trumps", 0.0, 0.0, 10.0),
        Parameter("lead_long", 1.0, -1.0, 1.0),
        Parameter("cover_from", 3.0, 1.0, 4.0),
        Parameter("ruff_from", 1.0, 1.0, 4.0),
    ),
    policy=_policy,
    opponents=("heuristic",),
    games=200,
    generations=25,
    population=10,
)


class SharesOnlySelfPlay:
    """The game's self-play as the fitter uses it, trimmed to what it reads: the compiled
    engine's new games (``fast.play_new_games``, batch b from stream (seed, b) as ``simulate``
    draws them), each batch's frame holding only ``seat`` and ``win_share``."""

    game = "auction_house"

    def __init__(self, selfplay: Any) -> None:
        self.selfplay = selfplay
        self.make_agent = selfplay.make_agent

    def frame_batches(
        self, rules: Any, agents: Sequence[Any], *, games: int, seed: SeedLike, **_ignored: Any
    ) -> Iterator[tuple[pl.DataFrame]]:
        """(frame of seat and win_share,) per batch of ``games`` compiled games."""
        from workbench.games.auction_house.fast import final_scores, play_new_games
        from workbench.games.auction_house.simulate import BATCH_SIZE

        playing = [playing_agent(agent, rules) for agent in agents]
        for start in range(0, games, BATCH_SIZE):
            size = min(BATCH_SIZE, games - start)
            rng = generator(seed, start // BATCH_SIZE)
            played, _recording = play_new_games(rules, playing, size, rng)
            shares = final_scores(played)[2]
            seats = np.tile(np.arange(rules.players, dtype=np.int8), size)
            yield (pl.DataFrame({"seat": seats, "win_share": shares.ravel()}),)


class AuctionHouseFittedAgent(FittedAgent):
    """The extended heuristic policy with parameters fitted to the rules being played (see
    the module docstring); ``seed`` picks the fit."""

    def _fitting(self) -> tuple[Any, Fitting]:
        from workbench.games.auction_house.simulate import SELF_PLAY  # simulate imports agents

        return SharesOnlySelfPlay(SELF_PLAY), FITTING

    def fit(self, rules: Any, *, progress: bool = True) -> Fit:
        """The fit for ``rules``: cached (shipped fits first), else fitted by ``fit_policy``."""
        selfplay, fitting = self._fitting()
        return cached_fit(
            selfplay.game, rules, version=fitting.version, seed=self.seed,
            fit=lambda: fit_policy(selfplay, fitting, rules, seed=self.seed, progress=progress),
        )  # fmt: skip


def fit_policy(
    selfplay: Any, fitting: Fitting, rules: Any, *, seed: int = 0, progress: bool = True
) -> tuple[dict[str, float], dict[str, Any]]:
    """The kit's ``fit_policy`` (same games, same CMA-ES draws) reading the current fit as the
    CMA mean *through pycma's boundary transform*: the kit clips the raw mean to the unit cube,
    and once the mean leaves the cube (pycma lets it, reflecting every candidate back inside)
    the kit's current fit and result jump to the cube's corner, away from every candidate
    played. To be lifted into the kit (the Rubbish agents make the same fix)."""
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
    bar = progress_bar(fitting.generations, enabled=progress,
                       description="fitting auction_house", unit="generation")  # fmt: skip
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
    from workbench.games.auction_house.simulate import SELF_PLAY

    rules = SELF_PLAY.checked_rules(rules)
    return AuctionHouseFittedAgent(seed=seed).fit(rules, progress=progress)


__all__ = ["FITTING", "AuctionHouseFittedAgent", "SharesOnlySelfPlay", "fit", "fit_policy"]
