"""A hint at a decision: the search's evaluation of each action the seat may take now.

Every evaluated action (all legal actions when there are at most ``ALL_LEGAL``, else the
search's candidates) is played from the same fillings of what the seat cannot see, with the
same playout seeds, as the review's first stage does: its win chance with a Wilson interval,
and what it gives up against the best of them with a paired interval. The best is picked on
these same playouts, so when actions are close it is flattered by noise; the intervals say how
close. Only what the seat may see is used (its observation), so a hint never leaks hidden cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from workbench.checks import whole_number
from workbench.kit.evaluation import evaluate_actions, paired_loss
from workbench.kit.seeding import generator
from workbench.reviews.core import (
    CHANCE_SCHEMA,
    action_text,
    chance_columns,
    checked_budget,
    evaluated_actions,
    evaluator_for,
)

#: Seeding label of a hint's draws: the decision after ``step`` actions of a game seeded
#: ``seed`` uses ``(seed, 101, step)`` (the review's is 100).
HINT_STREAM = 101

#: The hint frame's columns and types.
HINT_SCHEMA = {
    "action": pl.String,
    **CHANCE_SCHEMA,
    "loss": pl.Float64,
    "loss_low": pl.Float64,
    "loss_high": pl.Float64,
    "best": pl.Boolean,
    "n": pl.Int64,
}


def hint(
    game: Any, state: Any, *, budget: int | None = None, seed: int = 0, step: int = 0
) -> pl.DataFrame:
    """Each action of the seat to play at ``state``: ``win_chance`` (low, high) and ``loss``
    against the best evaluated (``loss_low``, ``loss_high``), best first; ``n`` playouts
    each. Draws from ``(seed, HINT_STREAM, step)``: the same arguments give the same hint. An
    action the playouts cannot continue after (``evaluate_actions``) is left out."""
    from workbench import games

    record = games.get(game)
    if not (isinstance(getattr(state, "rules", None), record.Rules) and hasattr(state, "to_play")):
        raise TypeError(f"state must be a {record.id} State (from new_game, then apply), got "
                        f"{type(state).__name__}")  # fmt: skip
    seat = state.to_play
    if seat is None:
        raise ValueError("the game is over: there is no decision to hint at")
    budget = checked_budget(record, budget)
    step = whole_number("step", step, low=0)
    evaluator = evaluator_for(record, state.rules)
    observation = state.observation(seat)
    legal = state.legal_actions()
    rng = generator(seed, HINT_STREAM, step)
    actions = evaluated_actions(evaluator, observation, legal, None, rng)
    shares = evaluate_actions(evaluator, observation, actions, fillings=budget, rng=rng)[..., seat]
    valued = ~np.isnan(shares).any(axis=1)
    if not valued.any():
        raise ValueError(
            f"the playouts cannot go on after any of the {len(actions)} actions evaluated here: "
            "there is no hint at this decision"
        )
    actions = [action for action, kept in zip(actions, valued, strict=True) if kept]
    shares = shares[valued]
    best = int(np.argmax(shares.mean(axis=1)))
    rows = []
    for index, action in enumerate(actions):
        loss = paired_loss(shares[best], shares[index])
        rows.append({
            "action": action_text(action), **chance_columns(shares[index]), "loss": loss.value,
            "loss_low": loss.low, "loss_high": loss.high, "best": index == best,
        })  # fmt: skip
    return pl.DataFrame(rows, schema=HINT_SCHEMA).sort("win_chance", descending=True)


__all__ = ["HINT_SCHEMA", "HINT_STREAM", "evaluator_for", "hint"]
