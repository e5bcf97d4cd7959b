"""A strength ladder: every agent alone against a table of every other, seats rotated; a rating
per agent with a 95% interval, and each agent's best-response gain.

A *match* (challenger A, table B) puts A in one seat and B in the other n - 1, in each of the n
seats in turn, ``games`` games per seat; A's *win rate* is its mean win share over those games
(Wilson interval) beside its fair share 1/n. Each seat is a seating as in ``tournament`` (its own
seed from the base seed, the rules and the line-up), so a match re-run alone gives the same
numbers.

*Ratings* fit the Luce choice model (Bradley–Terry for one winner among n): in a match, A wins a
game with probability e^a / (e^a + (n - 1) e^b), a and b the two ratings, fitted by maximum
likelihood to every match's win rate with ``scipy.optimize.minimize``; a rating difference of
d means A is e^d times as likely as one B to be the winner. Ratings are centred (mean 0), the
interval is Wald's from the likelihood's curvature, and a weak ridge (``RIDGE``) keeps the fit
finite when an agent wins or loses every game (then the data only say "far stronger": the
rating is set by the ridge and its interval is wide; read the matches' win rates).

*Best-response gain* of agent B: how far above fair share the best challenger in the ladder
gets against a table of B (the best single challenger found among the agents given, not the
best possible one).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any, NamedTuple

import numpy as np
import polars as pl
from scipy import optimize, stats

from workbench.designer.cells import check_base_rules, check_run, rules_label
from workbench.designer.exploitability import exploitability as measure_exploitability
from workbench.designer.moments import Moments
from workbench.designer.tournaments import check_entrants, play_seatings, seating_tasks
from workbench.kit.game import Game
from workbench.kit.store import StorePath

#: Strength of the Gaussian prior on ratings (a tiny ridge; see the module docstring).
RIDGE = 1e-3


class Ladder(NamedTuple):
    """The ladder's tables (module docstring): ``ratings`` (best first), ``matches``
    (challenger × table) and ``best_response`` (one row per table agent)."""

    ratings: pl.DataFrame
    matches: pl.DataFrame
    best_response: pl.DataFrame


def ladder(
    game: str | Game,
    rules: Any = None,
    agents: Sequence[Any] | None = None,
    *,
    games: int,
    seed: int,
    executor: Executor | None = None, progress: bool = True, confidence: float = 0.95,
    store: StorePath = None, resume: bool = False, overwrite: bool = False,
    exploitability: bool | Sequence[str] = False,
) -> Ladder:
    """Every agent of ``agents`` (names or agents; None: all of the game's, slow ones included)
    alone against a table of every other, ``games`` games in each seat (module docstring).
    ``store``/``resume``/``overwrite`` as for ``sweep``. ``exploitability``: the ratings gain
    each agent's exploitability (True: against every family of challengers; or the families
    named), measured by ``workbench.designer.exploitability`` at its default budget."""
    game, games, seed = check_run(game, games, seed, confidence)
    rules = check_base_rules(game, rules, "rules")
    everyone = list(game.agents) if agents is None else agents
    entrants, names = check_entrants(game, everyone, "agents")
    players = rules.players
    pairs = list(itertools.permutations(range(len(entrants)), 2))
    plan = [  # the challenger in seat s, the table's agent in every other seat
        tuple(challenger if other == seat else table for other in range(players))
        for challenger, table in pairs
        for seat in range(players)
    ]
    tasks = seating_tasks(game, rules, entrants, plan, games, seed)
    results = play_seatings(
        "ladder", game, rules, names, tasks, seed=seed, executor=executor, progress=progress,
        store=store, resume=resume, overwrite=overwrite,
    )  # fmt: skip
    match_moments = {}
    for index, (challenger, table) in enumerate(pairs):
        seats = results[index * players : (index + 1) * players]
        match_moments[challenger, table] = sum(
            (result.by_entrant[challenger] for result in seats), Moments()
        )
    result = _tables(game, rules, names, players, match_moments, confidence, seed)
    if not exploitability:
        return result
    worst = {
        name: float(measure_exploitability(
            game, rules, entrant, seed=seed, executor=executor, progress=progress,
            challengers=None if exploitability is True else list(exploitability),
        )["gain"].max())
        for name, entrant in zip(names, entrants, strict=True)
    }  # fmt: skip
    ratings = result.ratings.with_columns(
        exploitability=pl.col("agent").replace_strict(worst, return_dtype=pl.Float64))
    return result._replace(ratings=ratings)


def _tables(
    game: Any,
    rules: Any,
    names: list[str],
    players: int,
    matches: dict[tuple[int, int], Moments],
    confidence: float,
    seed: int,
) -> Ladder:
    fair = 1 / players
    match_rows = []
    for (challenger, table), moments in sorted(matches.items()):
        low, high = moments.wilson_interval(confidence)
        match_rows.append(
            {
                "challenger": names[challenger],
                "table": names[table],
                "games": moments.count,
                "win_rate": moments.mean,
                "low": low,
                "high": high,
                "fair_share": fair,
                "gain": moments.mean - fair,
            }
        )
    match_frame = pl.DataFrame(match_rows)
    best = (
        match_frame.sort("win_rate", descending=True)
        .group_by("table", maintain_order=True)
        .first()
        .select(
            agent="table",
            best_challenger="challenger",
            gain="gain",
            low=pl.col("low") - fair,
            high=pl.col("high") - fair,
            games="games",
        )
        .sort("agent")
    )
    ratings, low, high = fit_ratings(len(names), players, matches, confidence)
    games_played = [
        sum(m.count for (a, b), m in matches.items() if e in (a, b)) for e in range(len(names))
    ]
    rating_frame = pl.DataFrame(
        {
            "agent": names,
            "rating": ratings,
            "low": low,
            "high": high,
            "games": games_played,
        }
    ).sort("rating", descending=True)
    rating_frame = rating_frame.with_columns(rank=pl.int_range(1, len(names) + 1))
    context = {
        "game": pl.lit(game.id),
        "rules": pl.lit(rules_label(game, rules)),
        "seed": pl.lit(seed, pl.Int64),
    }
    return Ladder(*(frame.with_columns(**context) for frame in (rating_frame, match_frame, best)))


def fit_ratings(
    agents: int,
    players: int,
    matches: dict[tuple[int, int], Moments],
    confidence: float = 0.95,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ratings, low, high) of the Luce model (module docstring): centred maximum-likelihood
    ratings with Wald intervals."""
    offset = math.log(players - 1)
    pairs = list(matches)
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    n = np.array([matches[p].count for p in pairs], float)
    w = np.array([matches[p].mean for p in pairs], float)

    def negative_log_likelihood(r: np.ndarray) -> tuple[float, np.ndarray]:
        z = r[a] - r[b] - offset
        log_p, log_q = -np.logaddexp(0, -z), -np.logaddexp(0, z)
        value = -float(np.sum(n * (w * log_p + (1 - w) * log_q))) + RIDGE * float(r @ r) / 2
        residual = n * (w - np.exp(log_p))  # d(log-likelihood)/dz
        gradient = RIDGE * r
        np.add.at(gradient, a, -residual)
        np.add.at(gradient, b, residual)
        return value, gradient

    fit = optimize.minimize(
        negative_log_likelihood, np.zeros(agents), jac=True, method="BFGS",
        options={"gtol": 1e-10},
    )  # fmt: skip
    ratings = fit.x - fit.x.mean()
    p = 1 / (1 + np.exp(-(ratings[a] - ratings[b] - offset)))
    curvature = n * p * (1 - p)
    information = np.zeros((agents, agents))
    for i, j, c in zip(a, b, curvature, strict=True):
        information[i, i] += c
        information[j, j] += c
        information[i, j] -= c
        information[j, i] -= c
    # Ratings are only known up to a common shift: invert on the centred subspace.
    covariance = np.linalg.pinv(information + RIDGE * np.eye(agents))
    centre = np.eye(agents) - 1 / agents
    spread = np.sqrt(np.clip(np.diag(centre @ covariance @ centre), 0, None))
    z_value = stats.norm.ppf(0.5 + confidence / 2)
    return ratings, ratings - z_value * spread, ratings + z_value * spread


__all__ = ["RIDGE", "Ladder", "fit_ratings", "ladder"]
