"""Playouts: many continuations of given positions to the end, in the fast engine.

A position is a step-engine ``State`` with every card known (its deck is the whole deal; a
search agent builds one from an observation plus a sampled filling-in of the hidden cards).
Each position is copied ``playouts`` times into one fast batch, the round under way is resumed
where the State stands (sealed bids and sales stay), and compiled-policy agents play on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.going_gone.bits import mask_of
from workbench.games.going_gone.engine import State
from workbench.games.going_gone.fast import (
    FastBatch,
    Recording,
    Resume,
    final_scores,
    play,
    policy_of,
)
from workbench.kit.seeding import SeedLike, generator


def play_from(
    states: State | Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike
) -> np.ndarray:
    """Final scores of ``playouts`` continuations of each position, played to the end by
    ``agents`` (one compiled-policy agent per seat): float64 (len(states), playouts, players).
    Seeded: position i's continuations draw from the stream ``(seed, i)``."""
    if isinstance(states, State):
        states = [states]
    states = list(states)
    if isinstance(playouts, bool) or not isinstance(playouts, int | np.integer) or playouts < 1:
        raise ValueError(f"playouts must be a whole number >= 1, got {playouts!r}")
    if not states:
        raise ValueError("states must hold at least one going_gone State")
    players = None
    for state in states:
        if not isinstance(state, State):
            raise TypeError(f"states must be going_gone States, got {type(state).__name__}")
        if players is not None and state.rules.players != players:
            raise ValueError("every state must have the same number of players")
        players = state.rules.players
    agents = list(agents)
    if len(agents) != players:
        raise ValueError(f"agents must give one agent per seat ({players}), got {len(agents)}")
    for agent in agents:
        if not (hasattr(agent, "policy_kind") and hasattr(agent, "policy_params")):
            raise ValueError(
                f"agent {agent!r} has no compiled policy; play_from takes the game's compiled "
                "agents (random, valuation, collector)"
            )
    scores = np.zeros((len(states), int(playouts), players))
    for index, state in enumerate(states):
        scores[index] = continue_batch(state, agents, int(playouts), generator(seed, index))[1]
    return scores


def continue_batch(
    state: State,
    agents: Sequence[Any],
    playouts: int,
    rng: np.random.Generator,
    recording: Recording | None = None,
) -> tuple[FastBatch, np.ndarray]:
    """``playouts`` continuations of one position: (the played batch, final scores (P, n))."""
    for agent in agents:
        policy_of(agent)
    batch = batch_at(state, playouts)
    if state.is_over:
        return batch, final_scores(batch)[1].astype(np.float64)
    if recording is not None:
        recording.deck[:] = batch.deck
        recording.first_auctioneer[:] = batch.first_auctioneer
    play(batch, agents, rng, recording, resume=resume_of(state))
    return batch, final_scores(batch)[1].astype(np.float64)


def batch_at(state: State, playouts: int) -> FastBatch:
    """A fast batch of ``playouts`` copies of the position (its counters start at zero)."""
    rules = state.rules
    n = rules.players
    deck = np.tile(np.asarray(state.deal.deck, np.int16), (playouts, 1))
    holdings = np.array([mask_of(rules, h) for h in state.holdings], np.uint64)
    sold = np.array([mask_of(rules, [i for c in s for i in c]) for s in state.sold], np.uint64)
    zeros = np.zeros((playouts, n), np.int64)
    return FastBatch(
        rules=rules,
        deck=deck,
        first_auctioneer=np.full(playouts, state.deal.first_auctioneer, np.int64),
        auctioneer=np.full(playouts, state.auctioneer, np.int64),
        bucks=np.tile(np.asarray(state.bucks, np.int64), (playouts, 1)),
        holdings=np.tile(holdings, (playouts, 1)),
        sold=np.tile(sold, (playouts, 1)),
        items_won=zeros.copy(),
        lots_won=zeros.copy(),
        spent=zeros.copy(),
        sales_made=zeros.copy(),
        sale_bucks=zeros.copy(),
        times_auctioneer=zeros.copy(),
        rounds_done=state.rounds_done,
    )


def resume_of(state: State) -> Resume:
    """Where the round under way stands: sealed bids, or sales sealed and under way."""
    rules = state.rules
    n = rules.players
    bids = np.full((n, rules.cups), -1, np.int64)
    for seat, allocation in enumerate(state.bids):
        if allocation is not None and state.phase == "bid":
            bids[seat] = allocation.bids
    width = max([len(p) for p in state.pending] + [1])
    pending = np.zeros((n, width), np.uint64)
    done = np.zeros(n, bool)
    if state.phase == "sell":
        for seat in range(n):
            for k, collection in enumerate(state.pending[seat]):
                pending[seat, k] = mask_of(rules, collection)
            done[seat] = state.done[seat] or seat not in state.sellers
    return Resume(state.phase, bids, pending, done)
