"""How the shared budget auction's agents turn a bid distribution into one action: one uniform
draw by inverse CDF, the same draw the compiled policies make (``features.jittered``)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence

import numpy as np

Action = int | str


def require_choice(legal_actions: Sequence[Action]) -> None:
    """A clear error when an agent is asked to act with nothing legal (the game is over)."""
    if not len(legal_actions):
        raise ValueError("no legal action to choose from: the game is over")


def sample_choice(distribution: dict[Action, float], rng: np.random.Generator) -> Action:
    """One action from {action: probability} by one uniform draw (inverse CDF); a certain
    action uses no randomness."""
    if len(distribution) == 1:
        return next(iter(distribution))
    actions = list(distribution)
    cumulative = list(itertools.accumulate(distribution.values()))
    index = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
    return actions[min(index, len(actions) - 1)]
