"""Every action of one decision evaluated on the same fillings and playout seeds, for a review.

The search (``workbench.kit.search``) drops candidates early and reports no interval; a review
needs how much win chance an action gave up against the best one, with an interval. So every
action is played on the SAME fillings of what the seat cannot see and with the SAME playout
seed per filling (common random numbers), through the game's ``Searching`` (its sampler and
playouts) and the search's model of every seat: two actions' win shares differ only through
the actions, a paired difference.

``evaluate_actions`` returns the win shares (actions x fillings x seats); ``paired_loss`` turns
two rows of it into a loss with its interval, ``win_chance`` a row into an estimate with its
interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.checks import whole_number
from workbench.kit.search import SearchAgent, Searching, split_wins
from workbench.stats import proportion_interval

#: Confidence of every interval here.
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Evaluator:
    """What a review plays with: the game's ``Searching`` and the playouts' agents for one rule
    set (the search's model of every seat)."""

    searching: Searching
    rollout_agents: tuple[Any, ...]
    #: The search agent the evaluator was made from (its ``choices`` give the candidates).
    search: SearchAgent

    @classmethod
    def from_search(cls, search: Any, rules: Any) -> Evaluator:
        """The evaluator of a ``SearchAgent`` (a game's ``make_agent("search", rules)``) for
        ``rules``; a TypeError for any other agent."""
        if not isinstance(search, SearchAgent):
            raise TypeError(
                f"a review evaluates with the game's search agent (a kit SearchAgent), got "
                f"{type(search).__name__}"
            )
        return cls(search.searching, tuple(search.rollout_agents(rules)), search)

    def candidates(self, observation: Any, legal: Sequence[Any], rng: np.random.Generator) -> list:
        """The actions the search would weigh at this decision (its ``choices``)."""
        actions, _anchored = self.search.choices(observation, legal, rng)
        return list(actions)

    def win_shares(self, scores: np.ndarray) -> np.ndarray:
        """Each seat's share of the win from ``play_from``'s final scores (the game's rule, else
        a top score wins and ties split)."""
        rule = self.searching.win_shares or split_wins
        return np.asarray(rule(scores), dtype=np.float64)


def evaluate_actions(
    evaluator: Evaluator,
    observation: Any,
    actions: Sequence[Any],
    *,
    fillings: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Every action played from the same ``fillings`` sampled States with the same playout
    seed (both drawn from ``rng``): each seat's win share, (actions, fillings, seats).

    An action after which the game's playouts cannot go on (they refuse the position with a
    ValueError: Going, Going, GONE!'s continue a seat's sale only along its policy's plan)
    gets NaN: it cannot be valued this way."""
    fillings = whole_number("fillings", fillings, low=1, high=10**6)
    if not actions:
        raise ValueError("evaluate_actions needs at least one action")
    searching = evaluator.searching
    states = searching.sample_states(observation, rng, fillings)
    seed = int(rng.integers(2**63))
    out = np.full((len(actions), fillings, observation.rules.players), np.nan)
    for index, action in enumerate(actions):
        after = [state.apply(action) for state in states]
        try:
            scores = searching.play_from(after, list(evaluator.rollout_agents), playouts=1,
                                         seed=seed)  # fmt: skip
        except ValueError:
            continue
        out[index] = evaluator.win_shares(np.asarray(scores))[:, 0, :]
    return out


@dataclass(frozen=True)
class Estimate:
    """A mean over ``n`` playouts and its 95% interval."""

    value: float
    low: float
    high: float
    n: int


def win_chance(shares: np.ndarray) -> Estimate:
    """The mean of one action's win shares (a row of ``evaluate_actions`` for one seat) with
    its Wilson interval (ties count as fractions of a win)."""
    shares = np.asarray(shares, dtype=np.float64)
    n = int(shares.size)
    total = float(min(max(shares.sum(), 0.0), n))
    low, high = proportion_interval(total, n, CONFIDENCE)
    return Estimate(total / n, low, high, n)


def paired_loss(best: np.ndarray, taken: np.ndarray) -> Estimate:
    """What ``taken`` gave up against ``best``, playout by playout on shared fillings and seeds
    (win shares in [0, 1]): the mean paired difference and its 95% interval.

    The difference is split into what ``best`` gained where it did better (each playout's
    positive part) and what it lost where it did worse; each part is a mean of values in
    [0, 1] with its Wilson interval, and the two are combined by the method of variance
    estimates recovery (MOVER, the Wilson-based interval for a difference of proportions,
    the parts taken as independent). Unlike a t interval it stays honest when the playouts
    rarely disagree: 32 identical pairs still leave about +-0.11, since a 5% share of
    disagreements would go unseen that often."""
    best, taken = np.asarray(best, dtype=np.float64), np.asarray(taken, dtype=np.float64)
    if best.shape != taken.shape or best.ndim != 1 or best.size < 1:
        raise ValueError(
            f"paired_loss needs two rows of the same playouts, got {best.shape} and "
            f"{taken.shape}"
        )
    if (best < 0).any() or (best > 1).any() or (taken < 0).any() or (taken > 1).any():
        raise ValueError("paired_loss takes win shares, each between 0 and 1")
    differences = best - taken
    n = int(differences.size)
    gained = win_chance(np.maximum(differences, 0.0))
    lost = win_chance(np.maximum(-differences, 0.0))
    mean = gained.value - lost.value
    low = mean - math.hypot(gained.value - gained.low, lost.high - lost.value)
    high = mean + math.hypot(gained.high - gained.value, lost.value - lost.low)
    return Estimate(mean, max(low, -1.0), min(high, 1.0), n)


__all__ = [
    "CONFIDENCE", "Estimate", "Evaluator", "evaluate_actions", "paired_loss", "win_chance",
]  # fmt: skip
