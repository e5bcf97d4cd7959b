"""The Python side of the shared budget auction's compiled loop (``compiled.play``): positions
from an observation, from States and from new deals; the fast engine's batches of new games,
``play_from`` (continuations of given positions) and the search's candidate playouts."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from workbench.games.shared_budget.compiled import (
    PlayedBatch,
    Positions,
    keyed_streams,
    play,
    tables,
)
from workbench.games.shared_budget.engine import BUY, PASS, Action, Observation, State
from workbench.games.shared_budget.policies import bid_target, choose
from workbench.games.shared_budget.rules import Rules
from workbench.kit.lineup import seated_agents
from workbench.kit.policies import CompiledPolicy, PolicyTable, policy_table
from workbench.kit.seeding import SeedLike, seed_sequence
from workbench.kit.selfplay import playing_agent
from workbench.kit.state import checked_positions
from workbench.kit.streams import STREAM_WORDS, absorb_key, seed_words, start_pool, state_of, store


def _observed(policy: CompiledPolicy, observation: Observation) -> tuple[Any, ...]:
    """``choose``'s arguments from the kind to the tie priority, at the observed position (the
    parameters never empty: numba is slow to take an empty array; an array is taken as it is)."""
    parameters = policy.parameters
    if not isinstance(parameters, np.ndarray):
        parameters = np.array(parameters or (0.0,), np.float64)
    return (policy.kind, parameters, observation.player,
            observation.round_index, np.array(observation.budgets, np.int64),
            np.array(observation.coverage, np.int64), observation.rules.players,
            observation.priority[0])  # fmt: skip


def decide(policy: CompiledPolicy, observation: Observation, rng: np.random.Generator) -> Action:
    """The compiled ``choose`` of ``policy`` at the observed position, drawing from ``rng`` (a
    PCG64 Generator) exactly as the compiled loop draws from its stream."""
    table = tables(observation.rules)
    stream = state_of(rng)
    before = stream.tolist()
    action = choose(*_observed(policy, observation), table.masks, table.later, table.prices,
                    table.full, table.classroom, stream)  # fmt: skip
    if stream.tolist() != before:  # handing the state back costs more than comparing
        store(rng, stream)
    return (BUY if action else PASS) if table.classroom else action


def bid_spread(policy: CompiledPolicy, observation: Observation) -> tuple[int, int, int]:
    """(target, highest bid, jitter) of a coverage or fitted ``policy`` at the observed auction
    position (``policies.bid_target``)."""
    table = tables(observation.rules)
    return bid_target(*_observed(policy, observation), table.masks, table.later, table.full)


def from_states(states: Sequence[State]) -> Positions:
    """The loop's rows for ``states`` (of one rule set), the round's sealed bids included."""
    shape = (len(states), states[0].rules.players)
    bids, held = np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    for index, state in enumerate(states):
        for seat, sealed in enumerate(state.sealed):
            bids[index, seat] = 0 if sealed is None else sealed.bid
        for seat, cards in enumerate(state.holdings):
            held[index, seat] = sum(1 << card for card in cards)
    return Positions(
        np.array([s.round_index for s in states], np.int64),
        np.array([s.to_play or 0 for s in states], np.int64), bids,
        np.array([s.budgets for s in states], np.int64),
        np.array([s.coverage for s in states], np.int64), held,
    )  # fmt: skip


def deal(rules: Rules, games: int) -> Positions:
    """``games`` new games: every team at the full budget, before round 1's first bid."""
    shape = (games, rules.players)
    return Positions(np.zeros(games, np.int64), np.zeros(games, np.int64),
                     np.zeros(shape, np.int64), np.full(shape, rules.budget, np.int64),
                     np.zeros(shape, np.int64), np.zeros(shape, np.int64))  # fmt: skip


@lru_cache(maxsize=256)
def _own_streams(rows: int, players: int, per_row: int = 1) -> np.ndarray:
    """``stream_of`` for rows drawing, every seat alike, from stream row // per_row (the loop
    only reads it: cached)."""
    return (np.arange(rows, dtype=np.int64) // per_row).repeat(players).reshape(rows, players)


def _finals(start: Positions, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The functions each seat covers and its budget left once ``start`` is played, float64."""
    scores = np.bitwise_count(start.coverage).astype(np.float64).reshape(shape)
    return scores, start.budgets.astype(np.float64).reshape(shape)


def play_batch(
    rules: Rules, table: PolicyTable, assignment: np.ndarray, size: int,
    rng: np.random.Generator, first_game: int, wanted: Any = None,
) -> PlayedBatch:  # fmt: skip
    """``size`` new games from game ``first_game`` on, seat s of game g playing row
    ``assignment[g, s]`` of ``table`` and drawing from the stream (seed, g, s) as in the step
    engine; rounds recorded unless ``wanted`` has no rounds frame (the kit's
    ``FastEngine.play``)."""
    batch_seed = rng.bit_generator.seed_seq
    if not isinstance(batch_seed, np.random.SeedSequence) or not batch_seed.spawn_key:
        raise TypeError(f"the fast engine needs a generator(seed, batch), got {rng!r}")
    # rng is generator(seed, batch): the run's seed is its seed sequence without the last key,
    # checked by rebuilding the batch's entropy pool as the compiled seeding does.
    words = seed_words(np.random.SeedSequence(batch_seed.entropy,
                                              spawn_key=batch_seed.spawn_key[:-1]))  # fmt: skip
    pool = np.zeros(4, dtype=np.uint64)
    absorb_key(pool, start_pool(words, len(words), pool), int(batch_seed.spawn_key[-1]))
    if not np.array_equal(pool, batch_seed.pool.astype(np.uint64)):
        raise RuntimeError("the compiled seeding disagrees with numpy's SeedSequence")
    players, positions = rules.players, deal(rules, size)
    streams = keyed_streams(words, size, players, first_game)
    stream_of = np.arange(size * players, dtype=np.int64).reshape(size, players)
    record = wanted is None or wanted.get("rounds", True)
    return play(rules, table, assignment, positions, streams, stream_of,
                record=record)  # fmt: skip


def play_from(
    states: State | Sequence[State], agents: Any, *, playouts: int, seed: SeedLike,
    budgets: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Functions each seat covers (and with ``budgets`` its budget left) at the end of
    ``playouts`` continuations of each position by compiled agents, float64 (positions,
    playouts, seats); position i's playouts draw in turn from ``generator(seed, i)``."""
    positions, playouts = checked_positions(states, State, "shared_budget", playouts)
    rules = positions[0].rules
    if any(s.rules.projects != rules.projects for s in positions):  # not part of Rules' ==
        raise ValueError("every state must be played under the same rules")
    streams = keyed_streams(seed_words(seed_sequence(seed)), len(positions))
    table = policy_table([playing_agent(a, rules) for a in seated_agents(agents, rules.players)])
    rows, players = len(positions) * playouts, rules.players
    start = Positions(*(np.repeat(rows_of, playouts, axis=0)  # each position's rows in turn
                        for rows_of in vars(from_states(positions)).values()))  # fmt: skip
    play(rules, table, table.playout_assignment(len(positions), playouts, seed), start, streams,
         _own_streams(rows, players, playouts))  # fmt: skip
    scores, left = _finals(start, (len(positions), playouts, players))
    return (scores, left) if budgets else scores


def play_candidates(
    rules: Rules, table: PolicyTable, seed: SeedLike, state: State, earlier_bids: np.ndarray,
    bids: Sequence[int],
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``play_from``'s (scores, budgets left) for ``state`` with each filling of the round's
    earlier bids then each of ``bids``, one playout each: (bids, fillings, seats). Filling i
    draws from the stream (seed, i) whatever the bid (common random numbers)."""
    fillings, players = earlier_bids.shape
    rows, seat, shape = len(bids) * fillings, state.to_play, (len(bids), fillings, players)
    start = Positions(np.full(rows, state.round_index, np.int64), np.full(rows, seat + 1, np.int64),
                      *(np.empty((rows, players), np.int64) for _ in range(3)),
                      np.zeros((rows, players), np.int64))  # fmt: skip
    start.bids.reshape(shape)[:] = earlier_bids
    start.bids.reshape(shape)[:, :, seat] = np.asarray(bids, dtype=np.int64)[:, None]
    start.budgets[:], start.coverage[:] = state.budgets, state.coverage
    streams = np.empty((len(bids), fillings, STREAM_WORDS), np.uint64)
    streams[:] = keyed_streams(seed_words(seed_sequence(seed)), fillings)
    # filling i is playout 0 of the run (seed, i), as the kit's play_from plays it
    assignment = np.tile(table.playout_assignment(fillings, 1, seed), (len(bids), 1))
    play(rules, table, assignment, start, streams.reshape(rows, STREAM_WORDS),
         _own_streams(rows, players))  # fmt: skip
    return _finals(start, shape)


__all__ = ["bid_spread", "deal", "decide", "from_states", "play_batch", "play_candidates",
           "play_from"]  # fmt: skip
