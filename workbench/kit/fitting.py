"""Fitting a parametrised policy to a rule set by self-play: the ``fitted`` agents.

A game supplies a ``Fitting``: its policy's parameters (names, the hand-written values to start
from, bounds), how to build the agent from a parameter vector, and the hand-written agents the
fit must beat. ``fit_policy`` searches the parameters with CMA-ES (pycma). Each candidate sits
alone against n - 1 copies of each opponent table, in every seat in turn: each hand-written
agent and the current fit itself (the distribution's mean: an iterated best response). All
candidates of a generation play the same deals (common random numbers). The objective is the
candidate's mean win share, less an optional exploitation penalty: whatever a hand-written
agent alone against a table of the candidate wins above fair share counts against it (a fit
that only beats tables of others can leave its own table open).

A game may also name an ``exploiter`` (its search, modelling every other seat as the
candidate), since the hand-written agents rarely find what a best response finds. In the
second half of the generations it too sits alone against every candidate's table, penalised
alike; the fit is then the best, on fresh deals, of a few of that half's means.

A second stage, ``refine``, may fit further parameters (``refined``) from the CMA-ES fit by
other means (Auction House: card-play weights imitating its search, ``workbench.kit.imitation``);
CMA-ES plays them at their start values.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.checks import whole_number
from workbench.kit.equilibrium import Oracle, psro
from workbench.kit.fits import Fit, cached_fit
from workbench.kit.lineup import agent_label
from workbench.kit.policies import Mixture
from workbench.kit.progress import progress_bar
from workbench.kit.responses import (
    FINAL_GAMES,
    FINAL_STREAM,
    LONE_STREAM,
    Parameter,
    best_response,
    cma_strategy,
    hand_written,
    share_against,
)
from workbench.kit.seeding import seed_sequence

#: The fitter's own version: part of every fit's cache key (with the game's ``Fitting.version``),
#: so a change to how fits are made retires every fit made the old way.
FITTER = "cma-es-2"
@dataclass(frozen=True)
class Equilibrium:
    """Settings of the fit's equilibrium stage (``workbench.kit.equilibrium.psro``): grow a
    population of the family's best responses and play the meta-game's equilibrium mixture."""

    iterations: int = 6
    #: Stop once the oracle's best response gains at most this over fair share.
    tolerance: float = 0.01
    #: Games per multiset of members in the meta-game; per seat and candidate in the oracle.
    meta_games: int = 48
    search_games: int = 100
    #: Also search the families of the fitting's opponents that declare a parameter space
    #: (``SPACE``): the mixture may then hold hand-written members.
    rivals: bool = False

    @property
    def version(self) -> str:
        """Part of the cache key: a fit made with other settings is another fit."""
        return (f"psro-1:{self.iterations}:{self.tolerance}:{self.meta_games}:"
                f"{self.search_games}" + (":rivals" if self.rivals else ""))  # fmt: skip


@dataclass(frozen=True)
class Fitting:
    """What a game supplies to fit its parametrised policy (see the module docstring)."""

    #: Changes whenever the policy or the fitting changes: older cached fits are not reused.
    version: str
    parameters: tuple[Parameter, ...]
    #: ``policy(rules, vector)`` -> an agent playing the parametrised policy.
    policy: Callable[[Any, Sequence[float]], Any]
    #: The hand-written agents (classes, made with their defaults) whose tables a candidate
    #: plays against.
    opponents: tuple[Callable[[], Any], ...]
    #: Games per candidate, per seat and opponent table, in each generation.
    games: int = 100
    generations: int = 30
    population: int = 8
    #: CMA-ES's starting step, in units of each parameter's range.
    step: float = 0.25
    #: Exploitation penalty: with ``penalty`` > 0 each hand-written opponent also sits alone
    #: against n - 1 copies of the candidate, and every point of win share it gets above
    #: fair share minus ``slack`` costs the candidate ``penalty`` points (see ``fit_policy``).
    penalty: float = 0.0
    slack: float = 0.01
    #: ``exploiter(rules, policy)`` -> an agent best-responding to ``policy``, or None. With
    #: one, every candidate of the second half of the generations also faces it alone, for
    #: ``exploiter_games`` games per seat, penalised as the hand-written opponents; and the fit
    #: is the best of ``finalists`` generations' means of that half (see the module docstring).
    exploiter: Callable[[Any, Any], Any] | None = None
    finalists: int = 6
    exploiter_games: int = 4
    #: The second stage, or None: ``refine(selfplay, rules, params, *, seed, progress)`` ->
    #: (the ``refined`` parameters by name, details), ``params`` the CMA-ES fit's by name.
    refine: Callable[..., tuple[dict[str, float], dict[str, Any]]] | None = None
    #: The parameters ``refine`` fits (after ``parameters`` in the policy's vector); CMA-ES
    #: plays them at their start values.
    refined: tuple[Parameter, ...] = ()
    #: The equilibrium stage, or None (the fit is one policy, CMA-ES's).
    equilibrium: Equilibrium | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The parameters CMA-ES fits."""
        return tuple(p.name for p in self.parameters)

    @property
    def policy_names(self) -> tuple[str, ...]:
        """Every parameter of the policy's vector, in order: CMA-ES's, then ``refined``."""
        return self.names + tuple(p.name for p in self.refined)

    def make_policy(self, rules: Any, vector: Sequence[float]) -> Any:
        """The policy at CMA-ES's ``vector``, the refined parameters at their start values."""
        return self.policy(rules, [*vector, *(p.start for p in self.refined)])

    @property
    def cache_version(self) -> str:
        """The version a fit is cached under: this policy's, the fitter's, the equilibrium's."""
        stage = "" if self.equilibrium is None else "/" + self.equilibrium.version
        return f"{self.version}/{FITTER}{stage}"

    def start(self) -> dict[str, float]:
        """The hand-written parameters."""
        return {p.name: p.start for p in self.parameters}


def fit_policy(
    selfplay: Any, fitting: Fitting, rules: Any, *, seed: int = 0, progress: bool = True
) -> tuple[dict[str, float], dict[str, Any]]:
    """Fit ``fitting``'s policy to ``rules``: the parameters by name (``policy_names``), the
    fit's details, and with an equilibrium stage its mixture. Same arguments, same fit."""
    generations = fitting.generations
    names = fitting.names
    low = np.array([p.low for p in fitting.parameters], dtype=float)
    high = np.array([p.high for p in fitting.parameters], dtype=float)
    width = high - low
    opponents = [make() for make in fitting.opponents]

    def to_params(unit: np.ndarray) -> np.ndarray:
        return low + np.clip(unit, 0.0, 1.0) * width

    def current() -> np.ndarray:
        """The fit so far: the distribution's mean as pycma's boundary handling reads it (the
        raw mean may leave the cube, while every candidate is reflected back inside)."""
        return to_params(strategy.boundary_handler.transform(strategy.mean))

    strategy = cma_strategy(
        (np.array([p.start for p in fitting.parameters]) - low) / width,
        population=fitting.population,
        seed=seed,
        step=fitting.step,
    )
    history: list[float] = []
    means: list[np.ndarray] = []
    played, started = 0, time.perf_counter()
    bar = progress_bar(generations, enabled=progress, description=f"fitting {selfplay.game}",
                       unit="generation")  # fmt: skip
    try:
        for generation in range(generations):
            tables = [*opponents, fitting.make_policy(rules, current())]
            units = strategy.ask()
            exploiter_games = fitting.exploiter_games if generation >= generations // 2 else 0
            scored = [
                _objective(selfplay, fitting, rules, fitting.make_policy(rules, to_params(u)),
                           opponents, tables, seed_sequence(seed, generation), exploiter_games)
                for u in units
            ]  # fmt: skip
            shares = np.array([score for score, _ in scored])
            played += sum(games for _, games in scored)
            strategy.tell(units, list(-shares))  # pycma minimises
            history.append(float(shares.mean()))
            means.append(current())
            bar.update(1)
    finally:
        bar.close()
    vector, final = current(), {}
    if fitting.exploiter is not None and means:
        chosen, final = _final_choice(selfplay, fitting, rules, means, opponents, seed)
        vector = means[chosen]
        played += final.pop("games")
    params = {name: float(v) for name, v in zip(names, vector, strict=True)}
    second = {}
    if fitting.refine is not None:
        refined, second = fitting.refine(selfplay, rules, params, seed=seed, progress=progress)
        params |= {p.name: float(refined[p.name]) for p in fitting.refined}
        second = {"refine": second}
    details = {
        "games": played,
        "seconds": round(time.perf_counter() - started, 3),
        "generations": generations,
        "population": fitting.population,
        "games_per_table_and_seat": fitting.games,
        "opponents": [agent_label(opponent) for opponent in opponents],
        "penalty": fitting.penalty,
        "mean_objective_by_generation": [round(h, 4) for h in history],
        **final,
        **second,
    }
    if fitting.equilibrium is None:
        return params, details
    mixture, found = _equilibrium(selfplay, fitting, rules, params, seed=seed, progress=progress)
    details["equilibrium"] = found
    details["games"] += found.pop("games")
    details["seconds"] = round(time.perf_counter() - started, 3)
    if len(mixture) == 1 and "family" not in mixture[0]:  # pure: the member is the policy
        params |= mixture[0]["params"]
    return params, details, mixture


def _equilibrium(
    selfplay: Any, fitting: Fitting, rules: Any, params: dict[str, float], *, seed: int,
    progress: bool,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:  # fmt: skip
    """PSRO from the CMA-ES fit (the second stage's parameters kept): the Fit's ``mixture``
    entries and the stage's details."""
    settings = fitting.equilibrium
    rest = [params[p.name] for p in fitting.refined]
    oracles = [Oracle(lambda vector: fitting.policy(rules, [*vector, *rest]),
                      fitting.parameters)]  # fmt: skip
    if settings.rivals:
        oracles += [
            Oracle(functools.partial(hand_written, rival), tuple(rival.SPACE), rival.__name__)
            for rival in fitting.opponents if getattr(rival, "SPACE", ())
        ]  # fmt: skip
    start = [params[name] for name in fitting.names]
    play = functools.partial(selfplay.assigned_win_shares, rules)
    members, weights, details = psro(
        selfplay, rules, oracles, [start], play=play,
        iterations=settings.iterations, tolerance=settings.tolerance,
        meta_games=settings.meta_games, search_games=settings.search_games, seed=seed,
        progress=progress,
    )  # fmt: skip
    mixture = []
    for (family, vector), weight in zip(members, weights, strict=True):
        oracle = oracles[family]
        entry = {"weight": weight,
                 "params": {p.name: float(v) for p, v in zip(oracle.space, vector, strict=True)}}
        mixture.append({**entry, "family": oracle.name} if family else entry)
    return mixture, details


def fitted_parameters(
    selfplay: Any,
    fitting: Fitting,
    rules: Any,
    *,
    seed: int = 0,
    progress: bool = True,
    folders: Sequence[Any] | None = None,
) -> Fit:
    """The fit of ``fitting``'s policy to ``rules``: from the fit cache (``workbench.kit.fits``),
    or fitted now and cached."""
    seed = whole_number("seed", seed, low=0)
    return cached_fit(
        selfplay.game, rules, version=fitting.cache_version, seed=seed, folders=folders,
        fit=lambda: fit_policy(selfplay, fitting, rules, seed=seed, progress=progress),
    )  # fmt: skip


class FittedAgent:
    """Base of every game's ``fitted`` agent: the game's policy with parameters fitted to the
    rules being played (cached, or fitted on first use). A game sets ``selfplay`` and
    ``fitting``."""

    name = "fitted"
    selfplay: Any = None
    fitting: Fitting

    def __init__(self, seed: int = 0) -> None:
        self.seed = whole_number("fitted seed", seed, low=0)
        self._policies: dict[Any, Any] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"

    def fit(self, rules: Any = None, *, progress: bool = True) -> Fit:
        """The fit for ``rules`` (None: the rulebook's; cached, see ``fitted_parameters``)."""
        rules = self.selfplay.checked_rules(rules)
        return fitted_parameters(self.selfplay, self.fitting, rules, seed=self.seed,
                                 progress=progress)  # fmt: skip

    def policy_for(self, rules: Any, *, progress: bool = True) -> Any:
        """What plays a seat under ``rules``: the fitted policy, or the fit's equilibrium
        mixture where it found one (made once per rule set)."""
        if rules not in self._policies:
            fit = self.fit(rules, progress=progress)
            members = [self._member(rules, fit, member) for member in fit.mixture]
            if not members:
                policy = self.fitting.policy(rules, fit.vector(self.fitting.policy_names))
            elif len(members) == 1:  # a pure equilibrium: its member is the policy
                policy = members[0]
            else:
                weights = [member["weight"] for member in fit.mixture]
                policy = Mixture(members, weights, name=self.name)
            self._policies[rules] = policy
        return self._policies[rules]

    def _member(self, rules: Any, fit: Fit, member: dict[str, Any]) -> Any:
        """One member of a fit's mixture: the fitted policy at its parameters (the rest the
        fit's), or a hand-written rival named by ``family``."""
        family = member.get("family")
        if family is None:
            params = {**fit.params, **member["params"]}
            return self.fitting.policy(rules, [params[name] for name in self.fitting.policy_names])
        rivals = {rival.__name__: rival for rival in self.fitting.opponents}
        if family not in rivals:
            raise ValueError(f"this fit's mixture holds a member of {family!r}, which is not "
                             f"among the fitting's opponents {sorted(rivals)}")  # fmt: skip
        return hand_written(rivals[family], [member["params"][p.name]
                                              for p in rivals[family].SPACE])  # fmt: skip

    def __call__(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        policy = self.policy_for(observation.rules)
        if isinstance(policy, Mixture):
            raise TypeError(
                f"the {self.name} agent plays a mixture under these rules, one member per game: "
                "seat it in a line-up (simulate, the play-along table, a review), or play "
                "agent.policy_for(rules).for_game(rng) for one game"
            )
        return policy(observation, legal_actions, rng)


def fit_function(agent_class: type[FittedAgent]) -> Callable[..., Fit]:
    """A game's public ``fit``, for its fitted agent class."""

    def fit(rules: Any = None, *, seed: int = 0, progress: bool = True) -> Fit:
        """The ``fitted`` agent's fit to ``rules`` (None: the rulebook's): read from the
        shipped fits or the cache, else fitted now (with a progress bar when ``progress``) and
        cached. ``seed`` picks the fit."""
        return agent_class(seed=seed).fit(rules, progress=progress)

    fit.__module__ = agent_class.__module__
    return fit


def _objective(
    selfplay: Any,
    fitting: Fitting,
    rules: Any,
    candidate: Any,
    opponents: list[Any],
    tables: list[Any],
    seed: Any,
    exploiter_games: int = 0,
) -> tuple[float, int]:
    """A candidate's mean win share alone against each table, less the exploitation penalty
    (module docstring; the exploiter plays when ``exploiter_games`` > 0); and the games played."""
    score = share_against(selfplay, rules, candidate, tables, fitting.games, seed)
    played = rules.players * len(tables) * fitting.games
    if fitting.penalty > 0:
        fair = 1.0 / rules.players
        lones = [(lone, fitting.games) for lone in opponents]
        if fitting.exploiter is not None and exploiter_games > 0:
            lones.append((fitting.exploiter(rules, candidate), exploiter_games))
        for index, (lone, games) in enumerate(lones):
            share = share_against(selfplay, rules, lone, [candidate], games,
                                   seed_sequence(seed, LONE_STREAM, index))  # fmt: skip
            score -= fitting.penalty * max(0.0, share - fair + fitting.slack)
            played += rules.players * games
    return score, played


def _final_choice(
    selfplay: Any,
    fitting: Fitting,
    rules: Any,
    means: list[np.ndarray],
    opponents: list[Any],
    seed: int,
) -> tuple[int, dict[str, Any]]:
    """The generation whose mean the fit keeps (module docstring), the exploiter playing
    ``FINAL_GAMES`` times its games; and what it saw."""
    generations = len(means)
    count = max(1, min(fitting.finalists, generations - generations // 2))
    finalists = sorted({int(g) for g in np.linspace(generations // 2, generations - 1, count)})
    exploiter_games = fitting.exploiter_games * FINAL_GAMES
    stream = seed_sequence(seed, LONE_STREAM, FINAL_STREAM)
    scored = [
        _objective(selfplay, fitting, rules, fitting.make_policy(rules, means[generation]),
                   opponents, opponents, stream, exploiter_games)
        for generation in finalists
    ]  # fmt: skip
    objectives = [score for score, _ in scored]
    best = int(np.argmax(objectives))
    details = {
        "games": sum(games for _, games in scored),
        "chosen_generation": finalists[best],
        "finalists": {str(g): round(o, 4) for g, o in zip(finalists, objectives, strict=True)},
    }
    return finalists[best], details


__all__ = [
    "FittedAgent", "Fitting", "Parameter", "best_response", "fit_policy", "fitted_parameters",
]  # fmt: skip
