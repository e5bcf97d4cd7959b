"""The shared budget auction's compiled loop: plays given positions to the end with the compiled
policies (``policies.choose``) deciding, recording what the frames need; a new game is a
position too (``positions.deal``). A seat draws from the kit's compiled copy of the numpy stream
the step engine hands its agent, whose step call runs the same ``choose``: same seed, same games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numba
import numpy as np

from workbench.games.shared_budget.policies import choose
from workbench.games.shared_budget.rules import Rules
from workbench.kit.streams import STREAM_WORDS, absorb_key, seed_keyed, start_pool


class Tables(NamedTuple):
    """The rules as arrays for the compiled loop."""

    masks: np.ndarray  # int64[rounds]: functions each card supplies
    later: np.ndarray  # int64[rounds]: functions supplied by the cards after this one
    priorities: np.ndarray  # int64[rounds, players]: tie priority, earliest first
    prices: np.ndarray  # int64[rounds]: classroom prices (0 when unpriced)
    full: int  # every function's bit
    classroom: bool


def tables(rules: Rules) -> Tables:
    """The compiled loop's view of ``rules``, kept per Rules object by identity (hashing Rules
    costs more than a search's playouts); the entry holds the Rules, so the id stays theirs."""
    found = _TABLES.get(id(rules))
    if found is not None:
        return found[1]
    masks = np.array(rules.card_masks(), dtype=np.int64)
    later = np.array(rules.remaining_masks()[1:], dtype=np.int64)
    classroom = rules.variant == "classroom"
    if classroom:
        priorities = np.zeros((rules.rounds, 1), dtype=np.int64)
    else:
        priorities = np.array([rules.priority_order(r) for r in range(rules.rounds)], np.int64)
    prices = np.array([p.price or 0 for p in rules.projects], dtype=np.int64)
    table = Tables(masks, later, priorities, prices, (1 << len(rules.functions)) - 1, classroom)
    if len(_TABLES) >= 64:
        _TABLES.clear()
    _TABLES[id(rules)] = (rules, table)
    return table


_TABLES: dict[int, tuple[Rules, Tables]] = {}


@dataclass
class Positions:
    """Positions as the loop plays them (each row to its end, in place): round ``round_starts``,
    the seats before ``first_seats`` having sealed ``bids`` (classroom: 1 buy / 0 pass)."""

    round_starts: np.ndarray  # int64[rows]
    first_seats: np.ndarray  # int64[rows]
    bids: np.ndarray  # int64[rows, players]
    budgets: np.ndarray  # int64[rows, players]
    coverage: np.ndarray  # int64[rows, players]: functions covered
    held: np.ndarray  # int64[rows, players]: cards held (bit r: the card of round r)


@dataclass(frozen=True)
class PlayedBatch:
    """Finished games as the frames read them (a recording); step-engine games also keep the
    ``written`` text and whether it was ``invalid`` (read as a pass)."""

    rules: Rules
    bids: np.ndarray  # int16[games, rounds, players]
    winners: np.ndarray  # int8[games, rounds]
    budgets: np.ndarray  # int64[games, players]
    coverage: np.ndarray  # int64[games, players]
    held: np.ndarray  # int64[games, players]
    written: np.ndarray | None = None  # object (str)[games, rounds, players]
    invalid: np.ndarray | None = None  # bool[games, rounds, players]


def keyed_streams(words: np.ndarray, count: int, seats: int = 0, first_key: int = 0) -> np.ndarray:
    """The compiled streams of ``generator(seed, first_key + i)`` for i < count, or with ``seats``
    of ``generator(seed, first_key + i, s)`` in the order (i, s); ``words``: the seed's."""
    streams = np.zeros((count * max(seats, 1), STREAM_WORDS), dtype=np.uint64)
    _seed_streams(words, len(words), first_key, count, seats, streams)
    return streams


@numba.njit(cache=True)
def _seed_streams(
    words: np.ndarray, length: int, first_key: int, count: int, seats: int, streams: np.ndarray
) -> None:
    """``keyed_streams`` into ``streams``; ``words[:length]`` are the seed's words."""
    pool, scratch = np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64)
    keyed = np.zeros(4, dtype=np.uint64)
    run_hash = start_pool(words, length, pool)
    for i in range(count):
        if seats == 0:
            seed_keyed(pool, run_hash, first_key + i, scratch, streams[i])
            continue
        for word in range(4):  # loops, not slice assignment: that costs seconds of compiling
            keyed[word] = pool[word]
        key_hash = absorb_key(keyed, run_hash, first_key + i)
        for seat in range(seats):
            seed_keyed(keyed, key_hash, seat, scratch, streams[i * seats + seat])


@numba.njit(cache=True)
def play_positions(
    masks: np.ndarray, later: np.ndarray, priorities: np.ndarray, prices: np.ndarray,
    full: int, classroom: bool, kinds: np.ndarray, parameters: np.ndarray,
    assignment: np.ndarray, streams: np.ndarray, stream_of: np.ndarray,
    round_starts: np.ndarray, first_seats: np.ndarray, bids: np.ndarray, budgets: np.ndarray,
    coverage: np.ndarray, held: np.ndarray, bids_out: np.ndarray, winners_out: np.ndarray,
) -> None:  # fmt: skip
    """Play every row of ``Positions``' arrays to the end, in order: seat s of row r plays policy
    ``assignment[r, s]``, draws from ``streams[stream_of[r, s]]``, records unless outs are empty."""
    (rows, players), rounds, record = budgets.shape, masks.shape[0], bids_out.shape[0] > 0
    for row in range(rows):
        row_bids, row_budgets, row_coverage = bids[row], budgets[row], coverage[row]
        row_policies, row_streams, start = assignment[row], stream_of[row], round_starts[row]
        for round_index in range(start, rounds):
            first = priorities[round_index, 0]
            for seat in range(first_seats[row] if round_index == start else 0, players):
                policy = row_policies[seat]
                row_bids[seat] = choose(
                    kinds[policy], parameters[policy], seat, round_index, row_budgets,
                    row_coverage, players, first, masks, later, prices, full, classroom,
                    streams[row_streams[seat]],
                )  # fmt: skip
            winner = -1
            if classroom:
                if row_bids[0] == 1:
                    winner = 0
                    row_budgets[0] -= prices[round_index]
            else:
                top = 0
                for seat in range(players):
                    top = max(top, row_bids[seat])
                if top > 0:
                    for place in range(players):
                        seat = priorities[round_index, place]
                        if row_bids[seat] == top:
                            winner = seat
                            break
                    row_budgets[winner] -= top
            if winner >= 0:
                row_coverage[winner] |= masks[round_index]
                held[row, winner] |= 1 << round_index
            if record:
                for seat in range(players):
                    bids_out[row, round_index, seat] = row_bids[seat]
                winners_out[row, round_index] = winner


def play(
    rules: Rules, table: Any, assignment: np.ndarray, positions: Positions,
    streams: np.ndarray, stream_of: np.ndarray, *, record: bool = False,
) -> PlayedBatch:  # fmt: skip
    """``play_positions`` for ``rules`` with a ``workbench.kit.policies.PolicyTable``: the rows
    played to the end, their rounds recorded when ``record`` (else empty)."""
    tabled = tables(rules)
    rows, players = positions.budgets.shape
    shape = (rows, rules.rounds) if record else (0, 0)
    bids = np.zeros((*shape, players if record else 0), dtype=np.int16)
    winners = np.zeros(shape, dtype=np.int8)
    play_positions(
        tabled.masks, tabled.later, tabled.priorities, tabled.prices, tabled.full,
        tabled.classroom, table.kinds, table.parameters, assignment, streams, stream_of,
        positions.round_starts, positions.first_seats, positions.bids, positions.budgets,
        positions.coverage, positions.held, bids, winners,
    )  # fmt: skip
    return PlayedBatch(rules, bids, winners, positions.budgets, positions.coverage,
                       positions.held)  # fmt: skip


__all__ = ["PlayedBatch", "Positions", "Tables", "keyed_streams", "play", "play_positions",
           "tables"]  # fmt: skip
