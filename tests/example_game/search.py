"""The example game's ``search`` agent: the kit's determinized search (``workbench.kit.search``)
with this game's sampler of hidden information and step-engine playouts of its model. Hidden
from a seat: the others' values and sealed bids; nothing it sees constrains them (values are
never revealed, a bid is any whole number up to the budget), so each is drawn uniformly."""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.kit.search import SearchAgent, Searching, step_play_from

from .engine import Observation, State


def sample_states(observation: Observation, rng: np.random.Generator, count: int) -> list[State]:
    """``count`` States consistent with ``observation``, every filling equally likely."""
    rules, me = observation.rules, observation.player
    states = []
    for _ in range(count):
        values = tuple(
            observation.my_values if seat == me
            else tuple(int(v) for v in rng.integers(1, rules.max_value + 1, size=rules.items))
            for seat in range(rules.players)
        )  # fmt: skip
        sealed = tuple(
            None if not has_bid else observation.my_bid if seat == me
            else int(rng.integers(0, observation.budgets[seat] + 1))
            for seat, has_bid in enumerate(observation.has_bid)
        )  # fmt: skip
        states.append(State(rules, values, observation.history, sealed))
    return states


SEARCHING = Searching(sample_states, step_play_from, rollout_agents=None, budget=24)


class ExampleSearchAgent(SearchAgent):
    """``budget`` playouts a decision, every seat played as ``model`` plays."""

    def __init__(self, model: Any, budget: int = SEARCHING.budget) -> None:
        super().__init__(SEARCHING, budget, model=model)
