"""The shared budget auction's sampler of hidden information, for the ``search`` agent: step
engine States consistent with what one seat sees, every filling of what it cannot see equally
likely: each sealed bid another team wrote this round, from 0 to its public budget, drawn
independently (what the rules allow, not a prior over what teams bid), in the public record
replayed through the step engine."""

from __future__ import annotations

import ast
import itertools
import math
from collections.abc import Iterator, Sequence
from functools import lru_cache

import numpy as np

from workbench.checks import whole_number
from workbench.errors import IllegalAction
from workbench.games.shared_budget.engine import (
    Observation,
    RoundRecord,
    SealedBid,
    State,
    new_game,
)
from workbench.games.shared_budget.rules import Rules

#: One entry per seat other than the observer, in seat order: its hidden bid, or None.
Filling = tuple[int | None, ...]


def sample_states(observation: Observation, rng: np.random.Generator, count: int) -> list[State]:
    """``count`` States consistent with ``observation``, every filling equally likely: each
    hidden sealed bid uniform over 0..its team's budget, independently."""
    template, hidden, bids = sample_bids(observation, rng, count)
    if not hidden:
        return [template] * count  # States are immutable: nothing to fill, one position
    slips = [_slips(observation.budgets[seat]) for seat in hidden]
    sealed = list(template.sealed)
    states = []
    for row in bids:
        for seat, choices, bid in zip(hidden, slips, row, strict=True):
            sealed[seat] = choices[bid]
        states.append(template._evolve(sealed=tuple(sealed)))
    return states


def sample_bids(
    observation: Observation, rng: np.random.Generator, count: int
) -> tuple[State, tuple[int, ...], list[list[int]]]:
    """What ``sample_states`` draws, before any State is built (the compiled search reads it):
    the position (hidden bids written as 0), the hidden seats, ``count`` rows of their bids."""
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    count = whole_number("count", count, low=0, allowed="a non-negative whole number")
    template, hidden = _template(observation)
    if not hidden:
        return template, hidden, [[] for _ in range(count)]
    # A filling is one index, uniform over the product of the hidden seats' bid counts, read
    # in mixed radix: one generator call however many seats (numpy's size and array-bound
    # handling costs tens of microseconds a call, more than building the States).
    sizes = [observation.budgets[seat] + 1 for seat in hidden]
    total = math.prod(sizes)
    indices = [int(rng.integers(total))] if count == 1 else rng.integers(0, total, count).tolist()
    rows = []
    for index in indices:
        row = []
        for size in sizes:
            index, bid = divmod(index, size)
            row.append(bid)
        rows.append(row)
    return template, hidden, rows


def consistent_fillings(observation: Observation) -> Iterator[Filling]:
    """Every filling consistent with ``observation`` (exact enumeration, for small positions),
    as the tuple ``filling_of`` reads off a State."""
    _, hidden = _template(observation)
    choices = [
        range(observation.budgets[seat] + 1) if seat in hidden else (None,)
        for seat in _others(observation.rules.players, observation.player)
    ]
    return itertools.product(*choices)


def filling_of(state: State, player: int) -> Filling:
    """The hidden part of ``state`` for seat ``player``: each other seat's sealed bid this
    round (the amount it counts as), None where it has not written one."""
    if not isinstance(state, State):
        raise TypeError(f"state must be a shared_budget State, got {type(state).__name__}")
    last = state.rules.players - 1
    player = whole_number("player", player, low=0, high=last, allowed=f"a seat 0–{last}")
    return tuple(
        None if state.sealed[seat] is None else state.sealed[seat].bid
        for seat in _others(state.rules.players, player)
    )


def state_with_filling(observation: Observation, filling: Sequence[int | None]) -> State:
    """The State consistent with ``observation`` whose hidden part is ``filling`` (one entry
    per other seat, as ``filling_of`` gives): builds a chosen filling, e.g. the true one."""
    template, hidden = _template(observation)
    others = _others(observation.rules.players, observation.player)
    filling = tuple(filling)
    if len(filling) != len(others):
        raise ValueError(
            f"a filling has one entry per seat other than {observation.player} ({len(others)}), "
            f"got {filling!r}"
        )
    sealed = list(template.sealed)
    for seat, bid in zip(others, filling, strict=True):
        if seat not in hidden:
            if bid is not None:
                raise ValueError(
                    f"seat {seat} has not written a sealed bid this round: its entry must be "
                    f"None, got {bid!r}"
                )
            continue
        budget = observation.budgets[seat]
        bid = whole_number(f"seat {seat}'s hidden bid", bid, low=0, high=budget,
                           allowed=f"a bid 0–{budget} (its budget)")  # fmt: skip
        sealed[seat] = SealedBid(str(bid), int(bid))
    return template._evolve(sealed=tuple(sealed))


def hidden_seats(observation: Observation) -> tuple[int, ...]:
    """The seats whose sealed bid ``observation`` hides: the others that have written one."""
    return _template(observation)[1]


# -- building the public position ------------------------------------------------------------

def _others(players: int, player: int) -> tuple[int, ...]:
    return tuple(seat for seat in range(players) if seat != player)


@lru_cache(maxsize=64)
def _slips(budget: int) -> tuple[SealedBid, ...]:
    """Each legal bid 0..budget as the engine records a whole number written on the slip."""
    return tuple(SealedBid(str(bid), bid) for bid in range(budget + 1))


def _template(observation: Observation) -> tuple[State, tuple[int, ...]]:
    """The position ``observation`` sees, with every hidden bid written as 0, and the hidden
    seats. Raises TypeError or ValueError when no step-engine position gives that observation."""
    if not isinstance(observation, Observation):
        raise TypeError(
            f"observation must be a shared_budget Observation, got {type(observation).__name__}"
        )
    return _cached_template(observation)


@lru_cache(maxsize=512)
def _cached_template(observation: Observation) -> tuple[State, tuple[int, ...]]:
    """``_template`` for a checked Observation; the search agent samples several times per
    decision, so the position is built once per observation."""
    rules, has_bid, player = observation.rules, observation.has_bid, observation.player
    written = sum(has_bid)
    if tuple(has_bid) != (True,) * written + (False,) * (len(has_bid) - written):
        raise ValueError(
            f"teams write their sealed bids in seat order, so has_bid must be some True then "
            f"False; got {has_bid!r}"
        )
    if has_bid[player] and observation.my_bid is None:
        raise ValueError(f"seat {player} has written a bid (has_bid) but my_bid is None")
    state = _round_start(rules, observation.history)
    for seat in range(written):
        if state.is_over:
            break
        state = state.apply(observation.my_bid if seat == player else 0)
    seen = state.observation(player)
    if seen != observation:
        differing = [
            name for name in Observation.__slots__
            if getattr(seen, name) != getattr(observation, name)
        ]  # fmt: skip
        raise ValueError(
            f"no step-engine position gives this observation: replaying its history and "
            f"written bids gives different {', '.join(differing)}"
        )
    return state, tuple(seat for seat in range(written) if seat != player)


@lru_cache(maxsize=1024)
def _round_start(rules: Rules, history: tuple[RoundRecord, ...]) -> State:
    """The start of the round after ``history``: the revealed rounds replayed through the step
    engine from their written slips (cached by prefix: a game's later rounds replay one round)."""
    if not history:
        return new_game(rules, seed=0)
    state, record = _round_start(rules, history[:-1]), history[-1]
    if state.is_over or len(record.written) != rules.players:
        raise ValueError(
            f"the observation's history does not fit its rules: round {record.round} "
            f"({record.written!r}) cannot be replayed"
        )
    for written in record.written:
        action = written if rules.variant == "classroom" else _written_action(written)
        try:
            state = state.apply(action)
        except (IllegalAction, TypeError) as error:
            raise ValueError(
                f"the observation's history cannot be replayed: round {record.round}'s "
                f"slip {written!r} is refused ({error})"
            ) from None
    if state.history != history:
        raise ValueError(
            f"the observation's history cannot be replayed: its round {record.round} reads "
            f"{record!r}, the rules give {state.history[-1]!r}"
        )
    return state


def _written_action(written: str) -> int | str:
    """The action a recorded slip was written as: the engine records a whole number as its
    digits and text as its ``repr``."""
    if written[:1] in ("'", '"'):
        return ast.literal_eval(written)
    try:
        return int(written)
    except ValueError:
        raise ValueError(
            f"a recorded slip {written!r} is neither a whole number nor text"
        ) from None


__all__ = [
    "Filling", "consistent_fillings", "filling_of", "hidden_seats", "sample_bids", "sample_states",
    "state_with_filling",
]  # fmt: skip
