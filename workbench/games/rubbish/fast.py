"""Rubbish Auction's fast engine: many games played by the compiled core (``compiled.py``),
from new deals (self-play) or from given positions (``play_from``, rollouts).

Only compiled agents play here (``RandomAgent``, ``HeuristicAgent``: a policy kind and a
parameter vector per seat, ``agent.compiled_policy()``); the step engine plays the rest.

Random streams: a batch of new games draws, from its generator and in this order, the geeks
(``rng.random((games, geeks))``, argsorted), the starting auctioneers if random, then one
uniform per game for every decision, round by round (the auction, then each bidding position),
as ``rng.random((decisions, games))``: the draws of the numpy lockstep engine this replaced, so
seeded results did not change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from workbench.checks import whole_number
from workbench.games.rubbish import compiled
from workbench.games.rubbish.cards import BidTable, bid_table
from workbench.games.rubbish.compiled import Positions, Recording, Tables
from workbench.games.rubbish.engine import Observation, State
from workbench.games.rubbish.rules import Rules
from workbench.kit.seeding import SeedLike, generator


@lru_cache(maxsize=64)
def tables_for(rules: Rules) -> Tables:
    """The compiled core's arrays for one rule set (cached)."""
    table = bid_table(rules.money_cards)
    destined = np.zeros((len(rules.geeks), rules.rounds), dtype=np.bool_)
    for geek, (_, items) in enumerate(rules.geeks):
        destined[geek, list(items)] = True
    best_at_most, cheapest_at_least = zip(*(preferred_bids(table, m) for m in (0, 1)), strict=True)
    return Tables(
        totals=table.totals,
        counts=table.counts,
        lock_after=table.lock_after,
        n_bids=table.n_bids,
        available_totals=table.available_totals,
        top_sums=table.top_sums,
        best_at_most=np.stack(best_at_most),
        cheapest_at_least=np.stack(cheapest_at_least),
        destined=destined,
        min_cards=np.array([rules.min_cards_at(p) for p in range(rules.players)], np.int64),
        players=rules.players,
        rounds=rules.rounds,
        destined_bonus=rules.destined_bonus,
        keep_overspent=rules.overspend == "keep",
    )


def preferred_bids(table: BidTable, min_cards: int) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic's preferred bid per lock option and threshold among the bids holding out
    at least ``min_cards`` (indices into ``BidTable.bids``; -1: no such bid).

    ``best_at_most[option, t + 1]``: the bid with the largest total <= t; ``cheapest_at_least
    [option, t]``: the bid with the smallest total >= t. Among equal totals both prefer the bid
    with the lowest top card (the card the lock takes), then fewer cards, then the first listed.
    """
    top = int(table.totals.max())
    best_at_most = np.full((len(table.bids), top + 2), -1, np.int64)
    cheapest_at_least = np.full((len(table.bids), top + 2), -1, np.int64)
    for option, bids in enumerate(table.bids):
        best_of_total: dict[int, int] = {}
        for k, bid in enumerate(bids):
            held = best_of_total.get(bid.total)
            if bid.count >= min_cards and (
                held is None
                or (bid.highest or 0, bid.count) < (bids[held].highest or 0, bids[held].count)
            ):
                best_of_total[bid.total] = k
        last = -1
        for threshold in range(-1, top + 1):
            last = best_of_total.get(threshold, last)
            best_at_most[option, threshold + 1] = last
        last = -1
        for threshold in range(top + 1, -1, -1):
            last = best_of_total.get(threshold, last)
            cheapest_at_least[option, threshold] = last
    return best_at_most, cheapest_at_least


def empty_positions(rules: Rules, games: int) -> Positions:
    """``games`` new games with no geeks dealt yet (all geek 0), seat 0 to start."""
    n = rules.players
    return Positions(
        geek=np.zeros((games, n), np.int16),
        fame=np.full((games, n), rules.starting_fame, np.int32),
        lock=np.zeros((games, n), np.int8),
        remaining=np.ones((games, rules.rounds), np.bool_),
        auctioneer=np.zeros(games, np.int8),
        cheapskates=np.zeros((games, n), np.int16),
        items_won=np.zeros((games, n), np.int16),
        destined_won=np.zeros((games, n), np.int16),
        rounds_done=np.zeros(games, np.int16),
        item=np.full(games, -1, np.int8),
        first=np.full(games, -1, np.int8),
        position=np.full(games, -1, np.int8),
        bid_index=np.full((games, n), -1, np.int16),
        held=np.full((games, n), -1, np.int8),
    )


def new_positions(rules: Rules, games: int, rng: np.random.Generator) -> Positions:
    """``games`` fresh games: geeks dealt at random, the starting auctioneer per the rules."""
    positions = empty_positions(rules, games)
    n = rules.players
    positions.geek[:] = np.argsort(rng.random((games, len(rules.geeks))), axis=1)[:, :n]
    if rules.starting_auctioneer == "random":
        positions.auctioneer[:] = rng.integers(n, size=games)
    else:
        positions.auctioneer[:] = rules.starting_auctioneer
    return positions


def play_new_games(
    rules: Rules,
    agents: Sequence[Any],
    games: int,
    rng: np.random.Generator,
    recording: Recording | None = None,
) -> tuple[Positions, tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """``games`` new games played to the end by ``agents``, drawing from ``rng`` what
    ``new_positions`` and then ``rules.rounds * (players + 1)`` uniforms per game draw (the
    module docstring's order), dealt by ``compiled.deal_new`` (not ``new_positions``' numpy
    calls): (the finished positions, their standings (scores, ranks, win shares), the starting
    auctioneers).
    Records each round in ``recording`` if given."""
    n = rules.players
    geek_draws = rng.random((games, len(rules.geeks)))
    if rules.starting_auctioneer == "random":
        auctioneers = rng.integers(n, size=games).astype(np.int8)
    else:
        auctioneers = np.full(games, rules.starting_auctioneer, np.int8)
    uniforms = rng.random((rules.rounds * (n + 1), games))
    positions = Positions(*(np.empty((games, *a.shape[1:]), a.dtype) for a in _NO_GAMES[rules]))
    compiled.deal_new(rules.starting_fame, geek_draws, auctioneers, positions)
    kinds, parameters = policies(agents)
    tables = tables_for(rules)
    record = recording is not None
    compiled.play(
        kinds, parameters, tables, positions, uniforms, recording if record else NO_RECORDING,
        record,
    )  # fmt: skip
    return positions, compiled.standings(tables, positions), auctioneers


class _NoGames(dict):
    """Positions of no games per rule set: the fields' dtypes and shapes, made once."""

    def __missing__(self, rules: Rules) -> Positions:
        self[rules] = positions = empty_positions(rules, 0)
        return positions


_NO_GAMES = _NoGames()


def empty_recording(games: int, rounds: int, players: int) -> Recording:
    """Recording arrays for ``games`` games (0 games: nothing is recorded)."""
    by_seat = (games, rounds, players)
    return Recording(
        item=np.full((games, rounds), -1, np.int8),
        first=np.full((games, rounds), -1, np.int8),
        bid_index=np.full(by_seat, -1, np.int16),
        lock_before=np.zeros(by_seat, np.int8),
        total=np.zeros(by_seat, np.int16),
        cards=np.zeros(by_seat, np.int8),
        role=np.zeros(by_seat, np.int8),
        fame_after=np.zeros(by_seat, np.int16),
        score_after=np.zeros(by_seat, np.int16),
        kept=np.zeros((games, rounds), np.bool_),
    )


def policies(agents: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """(kind per seat, parameter vectors per seat padded to one width) of compiled agents;
    a TypeError naming any agent that has no compiled policy."""
    chosen = []
    for seat, agent in enumerate(agents):
        policy = getattr(agent, "compiled_policy", None)
        if not callable(policy) or isinstance(agent, type):
            raise TypeError(
                f"the fast engine plays compiled agents only (RandomAgent, HeuristicAgent); seat "
                f"{seat} has {agent!r}"
            )
        kind, vector = policy()
        chosen.append((int(kind), np.asarray(vector, np.float64).ravel()))
    width = max(1, *(len(vector) for _, vector in chosen))
    parameters = np.zeros((len(chosen), width), np.float64)
    for seat, (_, vector) in enumerate(chosen):
        parameters[seat, : len(vector)] = vector
    return np.array([kind for kind, _ in chosen], np.int64), parameters


def decisions_left(rules: Rules, positions: Positions) -> int:
    """The most decisions any of the games has left to play (the uniforms each needs)."""
    if not len(positions.rounds_done):
        return 0
    n = rules.players
    position = positions.position.astype(np.int64)
    this_round = np.where(position < 0, n + 1, n - position)
    later = (rules.rounds - positions.rounds_done.astype(np.int64) - 1) * (n + 1)
    left = np.where(positions.rounds_done < rules.rounds, this_round + later, 0)
    return int(left.max())


def play_positions(
    rules: Rules,
    positions: Positions,
    agents: Sequence[Any],
    uniforms: np.ndarray,
    recording: Recording | None = None,
) -> Positions:
    """Play every game of ``positions`` to the end in place (decision d of game g reads
    ``uniforms[d, g]``); record each round in ``recording`` if given."""
    kinds, parameters = policies(agents)
    tables = tables_for(rules)
    record = recording is not None
    if recording is None:
        recording = NO_RECORDING
    compiled.play(kinds, parameters, tables, positions, uniforms, recording, record)
    return positions


#: What the compiled loop writes to when not recording.
NO_RECORDING = empty_recording(0, 0, 0)


def positions_of_states(states: Sequence[State]) -> Positions:
    """The positions of step-engine States of one rule set (every hidden fact is in a State)."""
    rules = states[0].rules
    table = bid_table(rules.money_cards)
    positions = empty_positions(rules, len(states))
    for g, state in enumerate(states):
        if state.rules != rules:
            raise ValueError(
                f"every state must follow the same rules; state {g} has other rules than state 0"
            )
        positions.geek[g] = state.deal.geeks
        positions.fame[g] = state.fame
        positions.lock[g] = [table.lock_option(card) for card in state.locked]
        positions.remaining[g] = False
        positions.remaining[g, list(state.remaining)] = True
        positions.auctioneer[g] = state.auctioneer
        positions.cheapskates[g] = state.cheapskate_counts
        positions.items_won[g] = [len(won) for won in state.items_won]
        positions.destined_won[g] = [
            sum(item in rules.destined_to(geek) for item in won)
            for geek, won in zip(state.deal.geeks, state.items_won, strict=True)
        ]
        positions.rounds_done[g] = state.rounds_done
        if state.item is not None:
            positions.item[g] = state.item
            positions.first[g] = state.first_bidder
            positions.position[g] = len(state.bids)
            for seat, bid in zip(state.order, state.bids, strict=False):
                option = positions.lock[g, seat]
                positions.bid_index[g, seat] = table.index[option][bid]
                positions.held[g, seat] = bid.count
    return positions


def positions_of_observation(observation: Observation) -> Positions:
    """One game as ``observation``'s player sees it: the public record, its own geek at its
    seat (the other seats' geeks, unknown, are 0) and the number of cards each earlier bidder
    holds out (their bids unknown, -1). What a compiled agent's step call decides from."""
    table = bid_table(observation.rules.money_cards)
    positions = empty_positions(observation.rules, 1)
    _write_observation(positions, observation, table.lock_option)
    return positions


def _write_observation(
    positions: Positions, observation: Observation, lock_option: Callable[[Any], int]
) -> None:
    """Write game 0 of ``positions`` as ``positions_of_observation`` describes it, every
    field set (a buffer used before holds nothing of the last observation)."""
    me = observation.player
    positions.geek[0] = 0
    positions.geek[0, me] = observation.geek
    positions.fame[0] = observation.fame
    positions.lock[0] = [lock_option(card) for card in observation.locked]
    positions.remaining[0] = False
    positions.remaining[0, list(observation.remaining)] = True
    positions.auctioneer[0] = observation.auctioneer
    positions.cheapskates[0] = observation.cheapskate_counts
    positions.items_won[0] = [len(won) for won in observation.items_won]
    positions.destined_won[0] = 0
    positions.destined_won[0, me] = sum(
        item in observation.destined for item in observation.items_won[me]
    )
    positions.rounds_done[0] = observation.round - 1
    if observation.phase == "bid":
        positions.item[0] = observation.item
        positions.first[0] = observation.first_bidder
        positions.position[0] = observation.order.index(me)
        positions.held[0] = [-1 if count is None else count for count in observation.held_out]
    else:
        positions.item[0] = positions.first[0] = positions.position[0] = -1
        positions.held[0] = -1


class _ObservedBuffer(NamedTuple):
    """A one-game Positions reused by every step call under one rule set, and the lock option
    of each card value."""

    positions: Positions
    lock_option: dict[int | None, int]


_OBSERVED: dict[Rules, _ObservedBuffer] = {}


def observed_position(observation: Observation) -> Positions:
    """What ``positions_of_observation`` gives, written into one buffer per rule set that the
    next call overwrites: the cheap one-game position a compiled agent's step call reads."""
    rules = observation.rules
    buffer = _OBSERVED.get(rules)
    if buffer is None:
        table = bid_table(rules.money_cards)
        options = {card: table.lock_option(card) for card in (None, *table.values)}
        buffer = _OBSERVED.setdefault(rules, _ObservedBuffer(empty_positions(rules, 1), options))
    _write_observation(buffer.positions, observation, buffer.lock_option.__getitem__)
    return buffer.positions


def repeat_positions(positions: Positions, times: int, *, tile: bool = False) -> Positions:
    """Every game ``times`` over: copies side by side (row ``g * times + k``), or with ``tile``
    the whole batch again and again (row ``k * games + g``)."""
    if tile:
        return Positions(*(np.tile(a, (times,) + (1,) * (a.ndim - 1)) for a in positions))
    return Positions(*(np.repeat(a, times, axis=0) for a in positions))


def play_from(
    states: State | Sequence[State],
    agents: Sequence[Any],
    *,
    playouts: int,
    seed: SeedLike,
) -> np.ndarray:
    """Final scores of ``playouts`` continuations of each position played to the end by
    ``agents`` (one compiled agent per seat), shape (positions, playouts, players), float64.

    A position is a step-engine ``State`` with every hidden card filled in (e.g. an observation
    plus a sampled filling). Seeded: the same arguments give the same scores.
    """
    if isinstance(states, State):
        states = [states]
    states = list(states)
    if not states or not all(isinstance(state, State) for state in states):
        raise TypeError("states must be a rubbish State or a non-empty sequence of States")
    playouts = whole_number("playouts", playouts, low=1, allowed="a positive whole number")
    rules = states[0].rules
    if len(agents) != rules.players:
        raise ValueError(
            f"agents must give one agent per seat ({rules.players}), got {len(agents)}"
        )
    positions = repeat_positions(positions_of_states(states), playouts)
    games = len(states) * playouts
    uniforms = generator(seed).random((decisions_left(rules, positions), games))
    play_positions(rules, positions, agents, uniforms)
    scores, _, _ = compiled.standings(tables_for(rules), positions)
    return scores.astype(np.float64).reshape(len(states), playouts, rules.players)
