"""Playouts: many continuations of given positions to the end, in one compiled call.

A position is a step-engine ``State`` with every card known (its deck is the whole deal; a
search agent builds one from an observation plus a sampled filling-in of the hidden cards).
Each position is written ``playouts`` times into one batch of ``rollouts.Positions``, the round
under way resumes where the State stands (sealed bids and sales stay), and compiled-policy
agents play on (``rollouts.play_positions``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.going_gone.bits import mask_of
from workbench.games.going_gone.compiled import tables_of
from workbench.games.going_gone.engine import State
from workbench.games.going_gone.fast import policy_of
from workbench.games.going_gone.rollouts import (
    BID,
    OVER,
    SELL,
    Positions,
    empty_positions,
    play_positions,
    repeat_positions,
)
from workbench.kit.seeding import SeedLike, seed_sequence

PHASES = {"bid": BID, "sell": SELL, "over": OVER}


def play_from(
    states: State | Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike
) -> np.ndarray:
    """Final scores of ``playouts`` continuations of each position, played to the end by
    ``agents`` (one compiled-policy agent per seat): float64 (len(states), playouts, players).
    Seeded: continuation p of position i plays from key ``i * playouts + p`` of
    ``stream_keys(seed, ...)`` (``rollouts``: its draws depend on that key alone)."""
    if isinstance(states, State):
        states = [states]
    states = list(states)
    if isinstance(playouts, bool) or not isinstance(playouts, int | np.integer) or playouts < 1:
        raise ValueError(f"playouts must be a whole number >= 1, got {playouts!r}")
    if not states:
        raise ValueError("states must hold at least one going_gone State")
    rules = None
    for state in states:
        if not isinstance(state, State):
            raise TypeError(f"states must be going_gone States, got {type(state).__name__}")
        if rules is not None and state.rules != rules:
            raise ValueError("every state must be played under the same rules")
        rules = state.rules
    assert rules is not None
    kinds, params = compiled_policies(agents, rules.players)
    positions = positions_of_states(states)
    # row p * len(states) + i is continuation p of position i; its key is i * playouts + p
    positions = repeat_positions(positions, int(playouts))
    keys = stream_keys(seed, len(states) * int(playouts)).reshape(len(states), int(playouts))
    positions.keys[:] = keys.T.ravel()
    scores = play_positions(rules, tables_of(rules), kinds, params, positions)
    return scores.reshape(int(playouts), len(states), -1).transpose(1, 0, 2).astype(np.float64)


def stream_keys(seed: SeedLike, count: int) -> np.ndarray:
    """``count`` random-stream keys (uint64) of ``seed``: the first ``count`` raw outputs of its
    generator, so key k does not depend on how many are drawn."""
    return np.random.PCG64(seed_sequence(seed)).random_raw(count).astype(np.uint64)


def compiled_policies(agents: Sequence[Any], players: int) -> tuple[np.ndarray, np.ndarray]:
    """The agents' compiled policies: kinds (n,) int64 and parameters (n, PARAMETERS);
    refuses anything but one compiled-policy agent per seat."""
    agents = list(agents)
    if len(agents) != players:
        raise ValueError(f"agents must give one agent per seat ({players}), got {len(agents)}")
    for agent in agents:
        if not (hasattr(agent, "policy_kind") and hasattr(agent, "policy_params")):
            raise ValueError(
                f"agent {agent!r} has no compiled policy; play_from takes the game's compiled "
                "agents (random, valuation, collector)"
            )
    policies = [policy_of(agent) for agent in agents]
    return np.array([k for k, _ in policies], np.int64), np.stack([p for _, p in policies])


def positions_of_states(states: Sequence[State]) -> Positions:
    """The positions of fully known States, one row each (keys zero)."""
    positions = empty_positions(states[0].rules, len(states))
    for row, state in enumerate(states):
        write_state(positions, row, state)
    return positions


def write_state(positions: Positions, row: int, state: State) -> None:
    """Write a fully known State into row ``row`` of ``positions``."""
    rules = state.rules
    positions.deck[row] = state.deal.deck
    positions.rounds_done[row] = state.rounds_done
    positions.phase[row] = PHASES[state.phase]
    positions.auctioneer[row] = state.auctioneer
    positions.bucks[row] = state.bucks
    for seat in range(rules.players):
        positions.holdings[row, seat] = mask_of(rules, state.holdings[seat])
        positions.sold[row, seat] = collections_mask(rules, state.sold[seat])
        if state.phase == "bid" and state.bids[seat] is not None:
            positions.bids[row, seat] = state.bids[seat].bids
        if state.phase == "sell":
            write_sale(positions, row, seat, rules, state.pending[seat])
            positions.done[row, seat] = state.done[seat] or seat not in state.sellers


def collections_mask(rules: Any, collections: Sequence[Sequence[int]]) -> int:
    """The item mask of disjoint collections together."""
    return mask_of(rules, [item for collection in collections for item in collection])


def write_sale(
    positions: Positions, row: int, seat: int, rules: Any, sale: Sequence[Sequence[int]]
) -> None:
    """Write ``seat``'s sale so far (its collections) into row ``row``: items, count, Bucks."""
    positions.sale_items[row, seat] = collections_mask(rules, sale)
    positions.sale_count[row, seat] = len(sale)
    positions.sale_bucks[row, seat] = sum(rules.sale_value(len(c)) for c in sale)


__all__ = [
    "collections_mask", "compiled_policies", "play_from", "positions_of_states", "stream_keys",
    "write_sale", "write_state",
]  # fmt: skip
