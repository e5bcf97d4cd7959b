"""The Python side of the compiled loop (``compiled``): positions from new deals, from States
with every card known and from what an observation fixes; a line-up's policy table; and
``play_from``, many continuations of given positions in one compiled call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.going_gone.compiled import (
    BID,
    OVER,
    SELL,
    Positions,
    empty_positions,
    play_positions,
    repeat_positions,
)
from workbench.games.going_gone.engine import Observation, State
from workbench.games.going_gone.holdings import mask_of, tables_of
from workbench.games.going_gone.policies import KINDS, PARAMETERS
from workbench.games.going_gone.rules import Rules
from workbench.kit.lineup import seated_agents
from workbench.kit.policies import PolicyTable, policy_table
from workbench.kit.seeding import SeedLike, seed_sequence
from workbench.kit.state import checked_positions

PHASES = {"bid": BID, "sell": SELL, "over": OVER}


def policy_table_of(agents: Sequence[Any], players: int) -> PolicyTable:
    """The policy table of one compiled agent per seat; a ValueError for the wrong number of
    agents or a policy this game does not have, the kit's TypeError for an agent without one."""
    agents = list(agents)
    if len(agents) != players:
        raise ValueError(f"agents must give one agent per seat ({players}), got {len(agents)}")
    return checked_table(policy_table(agents, width=PARAMETERS))


def checked_table(table: PolicyTable) -> PolicyTable:
    """``table``, or a ValueError naming an agent whose policy this game does not have."""
    for row, kind in enumerate(table.kinds):
        width = len(table.policies[row].parameters) if table.policies else table.parameters.shape[1]
        if kind not in KINDS or width != PARAMETERS:
            label = table.labels[row] if table.labels else f"row {row}"
            raise ValueError(
                f"agent {label!r} has policy kind {int(kind)} with {width} "
                f"parameters; this game's compiled policies are kinds {sorted(KINDS)} with "
                f"{PARAMETERS} parameters each"
            )
    return table


def new_positions(rules: Rules, games: int, rng: np.random.Generator) -> tuple[Positions, Any]:
    """``games`` new games dealt by ``rng`` as positions, and their first Auctioneers."""
    positions = empty_positions(rules, games)
    positions.deck[:] = np.argsort(rng.random((games, len(rules.items))), axis=1)
    start = rules.first_auctioneer
    start = rng.integers(rules.players, size=games) if start == "random" else start
    positions.auctioneer[:] = start
    positions.bucks[:] = rules.starting_bucks
    return positions, positions.auctioneer.copy()


def play_from(
    states: State | Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike
) -> np.ndarray:
    """Final scores of ``playouts`` continuations of each position, played to the end by
    ``agents`` (one compiled agent per seat): float64 (len(states), playouts, players).
    Continuation p of position i plays from key ``i * playouts + p`` of ``stream_keys(seed,
    ...)`` (its draws depend on that key alone)."""
    states, playouts = checked_positions(states, State, "going_gone", playouts)
    rules = states[0].rules
    if isinstance(agents, str) or not isinstance(agents, Sequence):  # one for every seat
        agents = seated_agents(agents, rules.players)
    table = policy_table_of(agents, rules.players)
    # row p * len(states) + i is continuation p of position i; its key is i * playouts + p
    positions = repeat_positions(positions_of_states(states), playouts)
    keys = stream_keys(seed, len(states) * playouts).reshape(len(states), playouts)
    positions.keys[:] = keys.T.ravel()
    n = table.playout_assignment(len(states), playouts, seed)  # row i * playouts + p
    assignment = np.ascontiguousarray(
        n.reshape(len(states), playouts, -1).transpose(1, 0, 2).reshape(len(positions.keys), -1))
    scores, _ = play_positions(rules, tables_of(rules), table, assignment, positions)
    return scores.reshape(playouts, len(states), -1).transpose(1, 0, 2).astype(np.float64)


def stream_keys(seed: SeedLike, count: int) -> np.ndarray:
    """``count`` random-stream keys (uint64) of ``seed``: the first ``count`` raw outputs of its
    generator, so key k does not depend on how many are drawn."""
    return np.random.PCG64(seed_sequence(seed)).random_raw(count).astype(np.uint64)


def positions_of_states(states: Sequence[State]) -> Positions:
    """The positions of fully known States, one row each (keys zero)."""
    positions = empty_positions(states[0].rules, len(states))
    for row, state in enumerate(states):
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
    return positions


def observed_position(observation: Observation) -> Positions:
    """One position holding what ``observation`` fixes; what it hides is left empty (other
    seats' items unless collections are open, sealed choices, the cards still to come)."""
    rules, me, phase = observation.rules, observation.player, observation.phase
    n = rules.players
    positions = empty_positions(rules, 1)
    positions.rounds_done[0] = observation.round - 1
    positions.phase[0] = PHASES[phase]
    positions.auctioneer[0] = observation.auctioneer
    positions.bucks[0] = observation.bucks
    positions.holdings[0, me] = mask_of(rules, observation.holding)
    for seat in range(n):
        if seat == me or rules.open_collections:
            positions.sold[0, seat] = collections_mask(rules, observation.sold[seat])
        if rules.open_collections:
            positions.holdings[0, seat] = mask_of(rules, observation.holdings[seat])
    if phase == "over":
        return positions
    start = (observation.round - 1) * rules.items_per_round
    lot_items = [i for lot in observation.lots for i in lot]
    positions.deck[0, start : start + len(lot_items)] = lot_items
    if phase == "bid" and observation.own_bids is not None:
        positions.bids[0, me] = observation.own_bids.bids
    if phase == "sell":
        write_sale(positions, 0, me, rules, observation.pending_sale)
        order = [(observation.auctioneer + k) % n for k in range(n)]
        sellers = [seat for seat in order if observation.item_counts[seat]]
        for seat in range(n):
            before = seat in sellers[: sellers.index(observation.to_play)]
            positions.done[0, seat] = before or seat not in sellers
    return positions


def collections_mask(rules: Rules, collections: Sequence[Sequence[int]]) -> int:
    """The item mask of disjoint collections together."""
    return mask_of(rules, [item for collection in collections for item in collection])


def write_sale(
    positions: Positions, row: int, seat: int, rules: Rules, sale: Sequence[Sequence[int]]
) -> None:
    """Write ``seat``'s sale so far (its collections) into row ``row``: items, count, Bucks."""
    positions.sale_items[row, seat] = collections_mask(rules, sale)
    positions.sale_count[row, seat] = len(sale)
    positions.sale_bucks[row, seat] = sum(rules.sale_value(len(c)) for c in sale)


__all__ = [
    "PHASES",
    "checked_table",
    "collections_mask",
    "new_positions",
    "observed_position",
    "play_from",
    "policy_table_of",
    "positions_of_states",
    "stream_keys",
    "write_sale",
]  # fmt: skip
