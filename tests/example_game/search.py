"""The example game's ``search`` agent: the kit's determinized search (workbench.kit.search)
with this game's sampler of hidden information and step-engine playouts.

Hidden from a seat: the other seats' values and the sealed bids written before its own this
round. Nothing it sees constrains them (values are never revealed, a sealed bid is any whole
number up to the bidder's budget), so a uniform filling draws each independently.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np

from workbench.kit.search import SearchAgent, Searching, step_play_from

from .agents import ShadingAgent
from .engine import Observation, State


def sample_states(observation: Observation, rng: np.random.Generator, count: int) -> list[State]:
    """``count`` States consistent with ``observation``, every filling equally likely."""
    rules, me = observation.rules, observation.player
    states = []
    for _ in range(count):
        values = [
            observation.my_values if seat == me
            else tuple(int(v) for v in rng.integers(1, rules.max_value + 1, size=rules.items))
            for seat in range(rules.players)
        ]  # fmt: skip
        sealed = [
            None if not has_bid else observation.my_bid if seat == me
            else int(rng.integers(0, observation.budgets[seat] + 1))
            for seat, has_bid in enumerate(observation.has_bid)
        ]  # fmt: skip
        states.append(_state(observation, values, sealed))
    return states


def consistent_fillings(observation: Observation) -> Iterator[tuple]:
    """Every filling consistent with ``observation`` (exact enumeration, for small games), as
    the (values, sealed) pair ``filling_of`` reads off a State."""
    rules, me = observation.rules, observation.player
    others = [seat for seat in range(rules.players) if seat != me]
    value_rows = list(itertools.product(range(1, rules.max_value + 1), repeat=rules.items))
    bid_ranges = [
        range(observation.budgets[seat] + 1) if observation.has_bid[seat] else [None]
        for seat in others
    ]
    for rows in itertools.product(value_rows, repeat=len(others)):
        for bids in itertools.product(*bid_ranges):
            yield tuple(rows), tuple(bids)


def filling_of(state: State, me: int) -> tuple:
    """The hidden part of ``state`` for seat ``me``: the others' values and sealed bids."""
    others = [seat for seat in range(state.rules.players) if seat != me]
    return tuple(state.values[s] for s in others), tuple(state.sealed[s] for s in others)


def _state(observation: Observation, values: list, sealed: list) -> State:
    won: list[tuple[int, ...]] = [() for _ in range(observation.rules.players)]
    for record in observation.history:
        if record.winner is not None:
            won[record.winner] = (*won[record.winner], record.item)
    return State(
        observation.rules, tuple(values), observation.round - 1, observation.budgets,
        tuple(won), tuple(sealed), observation.history, (),
    )  # fmt: skip


def _shading_table(rules) -> list:
    return [ShadingAgent()] * rules.players


SEARCHING = Searching(
    sample_states=sample_states,
    play_from=step_play_from,
    rollout_agents=_shading_table,
    budget=24,
)


class ExampleSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (shading-agent playouts)."""

    def __init__(self, budget: int = SEARCHING.budget) -> None:
        super().__init__(SEARCHING, budget)
