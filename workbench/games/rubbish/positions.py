"""The Python side of the compiled loop: rule tables, positions from new deals, States and
one seat's observation, and ``play_from``. New games draw the geeks (``rng.random((games,
geeks))``), the starting auctioneers if random, then ``rng.random((decisions, games))``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from workbench.games.rubbish import compiled
from workbench.games.rubbish.cards import bid_table
from workbench.games.rubbish.compiled import Positions, Recording, Tables
from workbench.games.rubbish.engine import Action, Observation, State
from workbench.games.rubbish.policies import preferred_bids
from workbench.games.rubbish.rules import Rules
from workbench.kit.lineup import seated_agents
from workbench.kit.policies import PolicyTable, policy_table, split_seed
from workbench.kit.seeding import SeedLike, generator, seed_sequence
from workbench.kit.state import checked_positions


@lru_cache(maxsize=64)
def tables_for(rules: Rules) -> Tables:
    """The compiled loop's arrays for one rule set (cached)."""
    table = bid_table(rules.money_cards)
    destined = np.zeros((len(rules.geeks), rules.rounds), dtype=np.bool_)
    for geek, (_, items) in enumerate(rules.geeks):
        destined[geek, list(items)] = True
    best_at_most, cheapest_at_least = zip(*(preferred_bids(table, m) for m in (0, 1)), strict=True)
    return Tables(
        table.totals, table.counts, table.lock_after, table.n_bids, table.available_totals,
        table.top_sums, np.stack(best_at_most), np.stack(cheapest_at_least), destined,
        np.array([rules.min_cards_at(p) for p in range(rules.players)], np.int64),
        rules.players, rules.rounds, rules.destined_bonus, rules.overspend == "keep",
    )  # fmt: skip


def empty_positions(rules: Rules, games: int) -> Positions:
    """``games`` new games with no geeks dealt yet (all geek 0), seat 0 to start."""
    n, by_seat = rules.players, (games, rules.players)
    return Positions(
        geek=np.zeros(by_seat, np.int16), fame=np.full(by_seat, rules.starting_fame, np.int32),
        lock=np.zeros(by_seat, np.int8), remaining=np.ones((games, rules.rounds), np.bool_),
        auctioneer=np.zeros(games, np.int8), cheapskates=np.zeros(by_seat, np.int16),
        items_won=np.zeros(by_seat, np.int16), destined_won=np.zeros(by_seat, np.int16),
        rounds_done=np.zeros(games, np.int16), item=np.full(games, -1, np.int8),
        first=np.full(games, -1, np.int8), position=np.full(games, -1, np.int8),
        bid_index=np.full((games, n), -1, np.int16), held=np.full((games, n), -1, np.int8),
    )  # fmt: skip


def empty_recording(games: int, rounds: int, players: int) -> Recording:
    """Recording arrays for ``games`` games (0 games: nothing is recorded)."""
    by_seat = (games, rounds, players)
    return Recording(
        item=np.full((games, rounds), -1, np.int8), first=np.full((games, rounds), -1, np.int8),
        bid_index=np.full(by_seat, -1, np.int16), lock_before=np.zeros(by_seat, np.int8),
        total=np.zeros(by_seat, np.int16), cards=np.zeros(by_seat, np.int8),
        role=np.zeros(by_seat, np.int8), fame_after=np.zeros(by_seat, np.int16),
        score_after=np.zeros(by_seat, np.int16), kept=np.zeros((games, rounds), np.bool_),
    )  # fmt: skip


#: What the compiled loop writes to when not recording.
NO_RECORDING = empty_recording(0, 0, 0)


def play_positions(
    rules: Rules, positions: Positions, agents: Sequence[Any], uniforms: np.ndarray,
    recording: Recording | None = None, seed: SeedLike | None = None,
) -> Positions:  # fmt: skip
    """Play every game of ``positions`` to the end in place, one compiled agent per seat (a
    mixture's component drawn for game g of the run ``seed``)."""
    table = policy_table(agents)
    assignment = table.assignment(len(positions.fame), None if seed is None else
                                  seed_sequence(seed))  # fmt: skip
    return play_table(rules, positions, table, assignment, uniforms, recording)


def play_table(
    rules: Rules, positions: Positions, table: PolicyTable, assignment: np.ndarray,
    uniforms: np.ndarray, recording: Recording | None = None,
) -> Positions:  # fmt: skip
    """Play every game of ``positions`` to the end in place, game g's seat s playing row
    ``assignment[g, s]`` of ``table``; decision d of game g reads ``uniforms[d, g]``."""
    games = len(positions.fame)
    compiled.play(
        table.kinds, table.parameters, assignment, tables_for(rules), positions, uniforms,
        NO_RECORDING if recording is None else recording, recording is not None, games,
    )  # fmt: skip
    return positions


def play_new_games(
    rules: Rules, agents: Sequence[Any], games: int, rng: np.random.Generator,
    recording: Recording | None = None,
) -> tuple[Positions, tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:  # fmt: skip
    """``games`` new games dealt and played by ``agents``, drawing from ``rng`` as the module
    says: (the finished positions, their standings, the starting auctioneers)."""
    table = policy_table(agents)
    run_seed, _ = split_seed(rng.bit_generator.seed_seq)
    return deal_and_play(rules, table, table.assignment(games, run_seed), games, rng, recording)


def deal_and_play(
    rules: Rules, table: PolicyTable, assignment: np.ndarray, games: int,
    rng: np.random.Generator, recording: Recording | None = None,
) -> tuple[Positions, tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:  # fmt: skip
    """``play_new_games`` with game g's seat s playing row ``assignment[g, s]`` of ``table``."""
    n = rules.players
    geek_draws = rng.random((games, len(rules.geeks)))
    if rules.starting_auctioneer == "random":
        auctioneers = rng.integers(n, size=games).astype(np.int8)
    else:
        auctioneers = np.full(games, rules.starting_auctioneer, np.int8)
    uniforms = rng.random((rules.rounds * (n + 1), games))
    positions = empty_positions(rules, games)
    compiled.deal_new(geek_draws, auctioneers, positions)
    play_table(rules, positions, table, assignment, uniforms, recording)
    return positions, compiled.standings(tables_for(rules), positions), auctioneers


def decisions_left(rules: Rules, positions: Positions) -> int:
    """The most decisions any of the games has left to play (the uniforms each needs)."""
    if not len(positions.rounds_done):
        return 0
    n = rules.players
    position = positions.position.astype(np.int64)
    this_round = np.where(position < 0, n + 1, n - position)
    later = (rules.rounds - positions.rounds_done.astype(np.int64) - 1) * (n + 1)
    return int(np.where(positions.rounds_done < rules.rounds, this_round + later, 0).max())


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
        _write_public(positions, g, state, table.lock_option)
        positions.geek[g] = state.deal.geeks
        positions.destined_won[g] = [
            sum(item in rules.destined_to(geek) for item in won)
            for geek, won in zip(state.deal.geeks, state.items_won, strict=True)
        ]
        if state.item is not None:
            positions.position[g] = len(state.bids)
        for seat, bid in zip(state.order, state.bids, strict=False):
            positions.bid_index[g, seat] = table.index[positions.lock[g, seat]][bid]
            positions.held[g, seat] = bid.count
    return positions


def positions_of_observation(observation: Observation) -> Positions:
    """One game as ``observation``'s player sees it: the other seats' geeks 0, the bids made
    this round unknown (-1) but their card counts known. What a compiled agent decides from."""
    return Positions(*(field.copy() for field in observed_position(observation)))


def _write_public(
    positions: Positions, g: int, seen: State | Observation, lock_option: Callable[[Any], int]
) -> None:
    """Write the public record ``seen`` (a State or an Observation) into a fresh row ``g``."""
    positions.fame[g] = seen.fame
    positions.lock[g] = [lock_option(card) for card in seen.locked]
    positions.remaining[g] = False
    positions.remaining[g, list(seen.remaining)] = True
    positions.auctioneer[g] = seen.auctioneer
    positions.cheapskates[g] = seen.cheapskate_counts
    positions.items_won[g] = [len(won) for won in seen.items_won]
    positions.rounds_done[g] = seen.round - 1
    if seen.item is not None:
        positions.item[g], positions.first[g] = seen.item, seen.first_bidder


def _write_observation(
    positions: Positions, g: int, observation: Observation, lock_option: Callable[[Any], int]
) -> None:
    """Write row ``g`` (fresh, or written by this before) as ``positions_of_observation`` says."""
    _write_public(positions, g, observation, lock_option)
    me = observation.player
    positions.geek[g] = positions.destined_won[g] = 0
    positions.geek[g, me] = observation.geek
    positions.destined_won[g, me] = sum(
        item in observation.destined for item in observation.items_won[me]
    )
    if observation.phase == "bid":
        positions.position[g] = observation.order.index(me)
        positions.held[g] = [-1 if count is None else count for count in observation.held_out]
    else:
        positions.item[g] = positions.first[g] = positions.position[g] = positions.held[g] = -1


_OBSERVED: dict[Rules, tuple[Positions, dict[int | None, int]]] = {}


def observed_position(observation: Observation) -> Positions:
    """``positions_of_observation`` in one buffer per rule set, what a step call reads."""
    rules = observation.rules
    buffer = _OBSERVED.get(rules)
    if buffer is None:
        table = bid_table(rules.money_cards)
        options = {card: table.lock_option(card) for card in (None, *table.values)}
        buffer = _OBSERVED.setdefault(rules, (empty_positions(rules, 1), options))
    _write_observation(buffer[0], 0, observation, buffer[1].__getitem__)
    return buffer[0]


def repeat_positions(positions: Positions, times: int, *, tile: bool = False) -> Positions:
    """Every game ``times`` over: side by side (row ``g * times + k``), or ``tile``d."""
    if tile:
        return Positions(*(np.tile(a, (times,) + (1,) * (a.ndim - 1)) for a in positions))
    return Positions(*(np.repeat(a, times, axis=0) for a in positions))


def action_arrays(
    observation: Observation, actions: Sequence[Action]
) -> tuple[bool, np.ndarray, np.ndarray]:
    """(auction?, a, b): each action's item and First Bidder, or bid index and card count."""
    auction = observation.phase == "auction"
    if auction:
        a = [action.item for action in actions]  # type: ignore[union-attr]
        b = [action.first_bidder for action in actions]  # type: ignore[union-attr]
    else:
        table = bid_table(observation.rules.money_cards)
        index = table.index[table.lock_option(observation.locked[observation.player])]
        a = [index[bid] for bid in actions]  # type: ignore[index]
        b = [bid.count for bid in actions]  # type: ignore[union-attr]
    return auction, np.array(a, np.int64), np.array(b, np.int64)


def play_from(
    states: State | Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike
) -> np.ndarray:
    """Final scores of ``playouts`` continuations of each State (every hidden card filled in)
    played to the end by ``agents`` (one compiled agent per seat): (positions, playouts,
    players), float64. The same arguments give the same scores."""
    states, playouts = checked_positions(states, State, "rubbish", playouts)
    rules = states[0].rules
    if isinstance(agents, str) or not isinstance(agents, Sequence):  # one for every seat
        agents = seated_agents(agents, rules.players)
    if len(agents) != rules.players:
        raise ValueError(
            f"agents must give one agent per seat ({rules.players}), got {len(agents)}"
        )
    positions = repeat_positions(positions_of_states(states), playouts)
    uniforms = generator(seed).random((decisions_left(rules, positions), len(positions.fame)))
    table = policy_table(agents)  # row i * playouts + p: continuation p of state i
    play_table(rules, positions, table, table.playout_assignment(len(states), playouts, seed),
               uniforms)  # fmt: skip
    scores, _, _ = compiled.standings(tables_for(rules), positions)
    return scores.astype(np.float64).reshape(len(states), playouts, rules.players)


__all__ = [
    "NO_RECORDING", "action_arrays", "deal_and_play", "decisions_left", "empty_positions",
    "empty_recording", "observed_position", "play_from", "play_new_games", "play_positions",
    "play_table", "positions_of_observation", "positions_of_states", "repeat_positions",
    "tables_for",
]  # fmt: skip
