"""The shared budget auction's fast engine: whole games, and playouts from any position, in
compiled (numba) loops, with the compiled agents.

Same seed, same games: game g's seat s draws from ``generator(seed, g, s)`` exactly as in the
step engine (``streams`` reproduces numpy's streams bit for bit), and the compiled policies make
the same choices from the same draws as the agents' step-by-step calls. So ``engine='fast'``
and ``engine='step'`` give identical frames.

A compiled policy is an integer kind and a float64 parameter vector per seat
(``CompiledPolicy``): ``RANDOM`` (no parameters), ``COVERAGE`` (``COVERAGE_PARAMETERS``, the
coverage heuristic's constants; see ``CoverageHeuristic``) or ``FITTED`` (the ``fitted``
agent's policy, ``features.FITTED_PARAMETERS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import numba
import numpy as np

from workbench.games.shared_budget.engine import State
from workbench.games.shared_budget.features import bit_count, fitted_target, jittered
from workbench.games.shared_budget.rules import Rules
from workbench.kit.lineup import seated_agents
from workbench.kit.seeding import SeedLike, seed_sequence
from workbench.kit.selfplay import playing_agent
from workbench.kit.streams import (
    MAX_WORDS,
    STREAM_WORDS,
    absorb_key,
    integers,
    seed_keyed,
    seed_words,
    start_pool,
)

#: Policy kinds.
RANDOM, COVERAGE, FITTED = 0, 1, 2
#: The coverage heuristic's parameters, in vector order.
COVERAGE_PARAMETERS = ("jitter", "share", "margin")


class CompiledPolicy(NamedTuple):
    """A policy the compiled loops play: its kind and its parameter vector."""

    kind: int
    parameters: tuple[float, ...]


class Tables(NamedTuple):
    """The rules as arrays for the compiled loops."""

    masks: np.ndarray  # int64[rounds]: functions each card supplies
    later: np.ndarray  # int64[rounds]: functions supplied by the cards after this one
    priorities: np.ndarray  # int64[rounds, players]: tie priority, earliest first
    prices: np.ndarray  # int64[rounds]: classroom prices (0 when unpriced)
    full: int  # every function's bit
    classroom: bool
    budget_tiebreak: bool


def tables(rules: Rules) -> Tables:
    """The compiled loops' view of ``rules`` (made once per rule set and card list: the search
    plays from positions thousands of times a second; the loops only read these arrays)."""
    return _tables(rules, rules.projects)


@lru_cache(maxsize=64)
def _tables(rules: Rules, projects: tuple[Any, ...]) -> Tables:
    """``tables``, keyed by the card list too: Rules compare without it."""
    masks = np.array(rules.card_masks(), dtype=np.int64)
    later = np.zeros_like(masks)
    for index in range(len(masks) - 2, -1, -1):
        later[index] = later[index + 1] | masks[index + 1]
    classroom = rules.variant == "classroom"
    if classroom:
        priorities = np.zeros((rules.rounds, 1), dtype=np.int64)
    else:
        priorities = np.array([rules.priority_order(r) for r in range(rules.rounds)], np.int64)
    prices = np.array([p.price or 0 for p in rules.projects], dtype=np.int64)
    full = (1 << len(rules.functions)) - 1
    return Tables(
        masks, later, priorities, prices, full, classroom, rules.final_tiebreak == "budget"
    )


def policies(agents: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Per seat, the policy kind (int64) and parameters (float64, padded) of compiled agents;
    a ValueError naming any agent that plays step by step only."""
    step_only = sorted({str(getattr(a, "name", a)) for a in agents
                        if not hasattr(a, "compiled_policy")})  # fmt: skip
    if step_only:
        raise ValueError(
            "the fast engine plays agents with a compiled policy (random, coverage, fitted); "
            f"these play step by step only: {step_only}"
        )
    chosen = [agent.compiled_policy() for agent in agents]
    width = max(1, *(len(p.parameters) for p in chosen))
    kinds = np.array([p.kind for p in chosen], dtype=np.int64)
    parameters = np.zeros((len(chosen), width), dtype=np.float64)
    for seat, policy in enumerate(chosen):
        parameters[seat, : len(policy.parameters)] = policy.parameters
    return kinds, parameters


@dataclass(frozen=True)
class PlayedBatch:
    """A batch of finished games as the frames need them: every written bid (classroom: 1 for
    buy), every round's winner (-1: nobody), and the final budgets, coverage and cards held
    (bit r: the card of round r)."""

    rules: Rules
    bids: np.ndarray  # int16[games, rounds, players]
    winners: np.ndarray  # int8[games, rounds]
    budgets: np.ndarray  # int64[games, players]
    coverage: np.ndarray  # int64[games, players]
    held: np.ndarray  # int64[games, players]


# -- the compiled policies ---------------------------------------------------------------


@numba.njit(cache=True)
def _sure_win(seat: int, first: int, budgets: np.ndarray, players: int, margin: int) -> int:
    """The bid that surely wins: the richest rival's budget, + margin without priority."""
    richest = -1
    for other in range(players):
        if other != seat and budgets[other] > richest:
            richest = budgets[other]
    if richest < 0:
        return budgets[seat]
    return max(1, richest + (0 if first == seat else margin))


@numba.njit(cache=True)
def _coverage_bid(
    parameters: np.ndarray, seat: int, round_index: int, budgets: np.ndarray,
    coverage: np.ndarray, players: int, first: int, masks: np.ndarray, later: np.ndarray,
    full: int, stream: np.ndarray,
) -> int:  # fmt: skip
    """CoverageHeuristic's bid: the target, jittered by one uniform draw over the merged
    distribution (no draw when the distribution is one bid)."""
    jitter, share, margin = int(parameters[0]), parameters[1], int(parameters[2])
    missing = full & ~coverage[seat]
    adds = masks[round_index] & missing
    if adds == 0:
        return 0
    budget = budgets[seat]
    if adds & ~later[round_index]:
        want = budget
    else:
        want = min(budget, int(np.ceil(share * budget * bit_count(adds) / bit_count(missing))))
    sure = _sure_win(seat, first, budgets, players, margin)
    return jittered(min(want, sure), jitter, min(budget, sure), stream)


@numba.njit(cache=True)
def _choose(
    kind: int, parameters: np.ndarray, seat: int, round_index: int, budgets: np.ndarray,
    coverage: np.ndarray, players: int, first: int, masks: np.ndarray, later: np.ndarray,
    prices: np.ndarray, full: int, classroom: bool, stream: np.ndarray,
) -> int:  # fmt: skip
    """One seat's action: the bid, or in the classroom 1 (buy) / 0 (pass)."""
    if classroom:
        affordable = prices[round_index] <= budgets[0]
        if kind == RANDOM:
            return integers(stream, 2 if affordable else 1)
        return 1 if affordable and masks[round_index] & ~coverage[0] else 0
    if kind == RANDOM:
        return integers(stream, budgets[seat] + 1)
    if kind == FITTED:
        target, high, jitter = fitted_target(
            parameters, seat, round_index, budgets, coverage, players, first, masks, full
        )
        return jittered(target, jitter, high, stream)
    return _coverage_bid(
        parameters, seat, round_index, budgets, coverage, players, first, masks, later, full,
        stream,
    )


# -- the compiled game loop --------------------------------------------------------------


@numba.njit(cache=True)
def _play_on(
    masks: np.ndarray, later: np.ndarray, priorities: np.ndarray, prices: np.ndarray,
    full: int, classroom: bool, kinds: np.ndarray, parameters: np.ndarray,
    streams: np.ndarray, shared_stream: bool, budgets: np.ndarray, coverage: np.ndarray,
    held: np.ndarray, round_start: int, bids: np.ndarray, first_seat: int,
    record: bool, bids_out: np.ndarray, winners_out: np.ndarray,
) -> None:  # fmt: skip
    """Play from round ``round_start`` (seats before ``first_seat`` have written ``bids``) to
    the end, updating budgets, coverage and held cards; record bids and winners if asked.
    Seat s draws from ``streams[s]``, or every seat from ``streams[0]`` when shared."""
    players = budgets.shape[0]
    for round_index in range(round_start, masks.shape[0]):
        first = priorities[round_index, 0]
        for seat in range(first_seat if round_index == round_start else 0, players):
            stream = streams[0] if shared_stream else streams[seat]
            bids[seat] = _choose(
                kinds[seat], parameters[seat], seat, round_index, budgets, coverage, players,
                first, masks, later, prices, full, classroom, stream,
            )
        winner = -1
        if classroom:
            if bids[0] == 1:
                winner = 0
                budgets[0] -= prices[round_index]
        else:
            top = 0
            for seat in range(players):
                top = max(top, bids[seat])
            if top > 0:
                for place in range(players):
                    seat = priorities[round_index, place]
                    if bids[seat] == top:
                        winner = seat
                        break
                budgets[winner] -= top
        if winner >= 0:
            coverage[winner] |= masks[round_index]
            held[winner] |= 1 << round_index
        if record:
            for seat in range(players):
                bids_out[round_index, seat] = bids[seat]
            winners_out[round_index] = winner


@numba.njit(cache=True)
def _play_games(
    masks: np.ndarray, later: np.ndarray, priorities: np.ndarray, prices: np.ndarray,
    full: int, classroom: bool, kinds: np.ndarray, parameters: np.ndarray,
    words: np.ndarray, length: int, check_key: int, check_pool: np.ndarray, first_game: int,
    start_budget: int, bids_out: np.ndarray, winners_out: np.ndarray,
    budgets_out: np.ndarray, coverage_out: np.ndarray, held_out: np.ndarray,
) -> bool:  # fmt: skip
    """Play new games first_game, first_game + 1, ...: game g's seat s from the stream
    (seed, g, s), where ``words[:length]`` are the seed's words. First checks the compiled
    seeding against numpy's: False (nothing played) unless the pool of (seed, check_key) is
    ``check_pool``."""
    games, players = budgets_out.shape
    streams = np.zeros((players, STREAM_WORDS), dtype=np.uint64)
    run_pool, game_pool = np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64)
    scratch = np.zeros(4, dtype=np.uint64)
    run_hash = start_pool(words, length, run_pool)
    for i in range(4):
        game_pool[i] = run_pool[i]
    absorb_key(game_pool, run_hash, check_key)
    for i in range(4):
        if game_pool[i] != check_pool[i]:
            return False
    bids = np.zeros(players, dtype=np.int64)
    for game in range(games):
        for i in range(4):  # loops, not slice assignment: that costs seconds of compiling
            game_pool[i] = run_pool[i]
        game_hash = absorb_key(game_pool, run_hash, first_game + game)
        for seat in range(players):
            seed_keyed(game_pool, game_hash, seat, scratch, streams[seat])
        budgets, coverage, held = budgets_out[game], coverage_out[game], held_out[game]
        for seat in range(players):
            budgets[seat], coverage[seat], held[seat] = start_budget, 0, 0
        _play_on(
            masks, later, priorities, prices, full, classroom, kinds, parameters, streams,
            False, budgets, coverage, held, 0, bids, 0, True, bids_out[game],
            winners_out[game],
        )
    return True


@numba.njit(cache=True)
def _play_from(
    masks: np.ndarray, later: np.ndarray, priorities: np.ndarray, prices: np.ndarray,
    full: int, classroom: bool, kinds: np.ndarray, parameters: np.ndarray,
    words: np.ndarray, length: int, round_starts: np.ndarray, first_seats: np.ndarray,
    start_bids: np.ndarray, start_budgets: np.ndarray, start_coverage: np.ndarray,
    scores_out: np.ndarray, budgets_out: np.ndarray,
) -> None:  # fmt: skip
    """Playouts of each position i from the one stream (seed, i), one after another; the
    functions each seat covers at the end into ``scores_out[i, playout, seat]``."""
    positions, playouts, players = scores_out.shape
    streams = np.zeros((1, STREAM_WORDS), dtype=np.uint64)
    run_pool, scratch = np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64)
    run_hash = start_pool(words, length, run_pool)
    budgets = np.zeros(players, dtype=np.int64)
    coverage = np.zeros(players, dtype=np.int64)
    held = np.zeros(players, dtype=np.int64)
    bids = np.zeros(players, dtype=np.int64)
    no_bids = np.zeros((0, 0), dtype=np.int16)
    no_winners = np.zeros(0, dtype=np.int8)
    for position in range(positions):
        seed_keyed(run_pool, run_hash, position, scratch, streams[0])
        for playout in range(playouts):
            for seat in range(players):
                budgets[seat] = start_budgets[position, seat]
                coverage[seat] = start_coverage[position, seat]
                bids[seat] = start_bids[position, seat]
            _play_on(
                masks, later, priorities, prices, full, classroom, kinds, parameters,
                streams, True, budgets, coverage, held, round_starts[position], bids,
                first_seats[position], False, no_bids, no_winners,
            )
            for seat in range(players):
                scores_out[position, playout, seat] = bit_count(coverage[seat])
                budgets_out[position, playout, seat] = budgets[seat]


# -- the Python entries ------------------------------------------------------------------


def _stream_words(seed: np.random.SeedSequence) -> tuple[np.ndarray, int]:
    """A words buffer holding ``seed``'s words (with room for keys) and their count."""
    base = seed_words(seed)
    words = np.zeros(MAX_WORDS, dtype=np.uint64)
    words[: len(base)] = base
    return words, len(base)


def _run_seed(rng: np.random.Generator) -> tuple[np.random.SeedSequence, int, np.ndarray]:
    """The run's seed from the batch generator self-play hands the fast engine, which is
    ``generator(seed, batch)``: its seed sequence without the last spawn key; with that key
    and the batch's entropy pool, which the compiled seeding must rebuild (checked)."""
    batch_seed = rng.bit_generator.seed_seq
    if not isinstance(batch_seed, np.random.SeedSequence) or not batch_seed.spawn_key:
        raise TypeError(f"the fast engine needs a generator(seed, batch), got {rng!r}")
    run = np.random.SeedSequence(batch_seed.entropy, spawn_key=batch_seed.spawn_key[:-1])
    return run, int(batch_seed.spawn_key[-1]), batch_seed.pool.astype(np.uint64)


def play_batch(
    rules: Rules, agents: Sequence[Any], size: int, rng: np.random.Generator, first_game: int,
    wanted: Any = None,
) -> PlayedBatch:
    """``size`` new games from game ``first_game`` on (self-play's fast-engine ``play``): the
    same games the step engine plays for the run's seed."""
    run, check_key, check_pool = _run_seed(rng)
    words, length = _stream_words(run)
    kinds, parameters = policies(agents)
    table = tables(rules)
    players, rounds = rules.players, rules.rounds
    played = PlayedBatch(
        rules,
        bids=np.zeros((size, rounds, players), dtype=np.int16),
        winners=np.zeros((size, rounds), dtype=np.int8),
        budgets=np.zeros((size, players), dtype=np.int64),
        coverage=np.zeros((size, players), dtype=np.int64),
        held=np.zeros((size, players), dtype=np.int64),
    )
    seeded = _play_games(
        table.masks, table.later, table.priorities, table.prices, table.full, table.classroom,
        kinds, parameters, words, length, check_key, check_pool, first_game, rules.budget,
        played.bids, played.winners, played.budgets, played.coverage, played.held,
    )  # fmt: skip
    if not seeded:
        raise RuntimeError("the compiled seeding disagrees with numpy's SeedSequence")
    return played


def play_from(
    states: State | Sequence[State], agents: Any, *, playouts: int, seed: SeedLike,
    budgets: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Play ``playouts`` continuations of each position to the end with one compiled agent per
    seat (one agent for every seat, or one per seat); the functions each seat covers at the
    end, float64 of shape (positions, playouts, seats); with ``budgets=True`` also each seat's
    budget left at the end (the final tie-break), the same shape.

    Position i's playouts draw, one after another and every seat alike, from the one stream
    ``generator(seed, i)``: the same as continuing that state step by step with that generator
    handed to every seat's agent, playout after playout.
    """
    from workbench.checks import whole_number

    positions = [states] if isinstance(states, State) else list(states)
    if not positions or not all(isinstance(s, State) for s in positions):
        raise TypeError(
            f"states must be a shared_budget State or a non-empty sequence of them, got {states!r}"
        )
    rules = positions[0].rules
    if any(s.rules != rules or s.rules.projects != rules.projects for s in positions):
        raise ValueError("play_from's states must all be played under the same rules")
    playouts = whole_number("playouts", playouts, low=1, allowed="a positive whole number")
    words, length = _stream_words(seed_sequence(seed))
    lineup = seated_agents(agents, rules.players)
    kinds, parameters = policies([playing_agent(agent, rules) for agent in lineup])
    count, players = len(positions), rules.players
    round_starts = np.array([s.round_index for s in positions], dtype=np.int64)
    first_seats = np.array([s.to_play or 0 for s in positions], dtype=np.int64)
    start_bids = np.zeros((count, players), dtype=np.int64)
    for index, state in enumerate(positions):
        for seat, sealed in enumerate(state.sealed):
            if sealed is not None:
                start_bids[index, seat] = _action_index(rules, sealed.bid, sealed.written)
    start_budgets = np.array([s.budgets for s in positions], dtype=np.int64)
    start_coverage = np.array([s.coverage for s in positions], dtype=np.int64)
    scores = np.zeros((count, playouts, players), dtype=np.float64)
    budgets_left = np.zeros((count, playouts, players), dtype=np.float64)
    table = tables(rules)
    _play_from(
        table.masks, table.later, table.priorities, table.prices, table.full, table.classroom,
        kinds, parameters, words, length, round_starts, first_seats, start_bids,
        start_budgets, start_coverage, scores, budgets_left,
    )  # fmt: skip
    return (scores, budgets_left) if budgets else scores


def play_candidates(
    rules: Rules, kinds: np.ndarray, parameters: np.ndarray, seed: SeedLike, state: State,
    earlier_bids: np.ndarray, bids: Sequence[int],
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """What ``play_from`` gives for ``state`` with each row of ``earlier_bids`` (the round's
    sealed bids so far, a filling) and then each of ``bids`` written by the seat to play, one
    playout each: functions covered and budgets left, shape (bids, fillings, seats). Filling i
    draws from the stream (seed, i) whatever the bid (common random numbers). For the search:
    no State is built and the policies (``policies``) are made once by the caller."""
    fillings, players = earlier_bids.shape
    seat = state.to_play
    words, length = _stream_words(seed_sequence(seed))
    table = tables(rules)
    starts = np.array(earlier_bids, dtype=np.int64)
    budgets = np.empty((fillings, players), dtype=np.int64)
    budgets[:] = state.budgets
    coverage = np.empty((fillings, players), dtype=np.int64)
    coverage[:] = state.coverage
    round_starts = np.full(fillings, state.round_index, dtype=np.int64)
    next_seats = np.full(fillings, seat + 1, dtype=np.int64)
    scores = np.zeros((len(bids), fillings, 1, players))
    budgets_left = np.zeros((len(bids), fillings, 1, players))
    for index, bid in enumerate(bids):
        starts[:, seat] = bid
        _play_from(
            table.masks, table.later, table.priorities, table.prices, table.full,
            table.classroom, kinds, parameters, words, length, round_starts, next_seats,
            starts, budgets, coverage, scores[index], budgets_left[index],
        )  # fmt: skip
    return scores[:, :, 0], budgets_left[:, :, 0]


def _action_index(rules: Rules, bid: int, written: str) -> int:
    """A sealed bid as the compiled loop holds it (the classroom never seals: 1 for buy)."""
    if rules.variant == "classroom":
        return 1 if written == "buy" else 0
    return bid
