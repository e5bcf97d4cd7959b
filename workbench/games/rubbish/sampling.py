"""The sampler of hidden information: States (or compiled positions, for the ``search`` agent)
drawn uniformly over every filling consistent with one seat's observation: the other seats'
geeks, this round's other bids (only their card counts are public) and peeks, past peeks and
future peeks' numbers. A filling is physical (the two 2s are different cards); all consistent
ones are equally likely, so the bid the seat peeked at is weighed by the peek's likelihood.
``filling_of`` and ``consistent_fillings`` (exact enumeration) are for tests."""

from __future__ import annotations

import bisect
import functools
import itertools
from collections import Counter
from itertools import accumulate

import numpy as np
from numba import njit

from workbench.checks import whole_number
from workbench.games.rubbish.cards import Bid, bid_table, peek_odds, physical_ways, sub_multisets
from workbench.games.rubbish.compiled import Positions, call_direct
from workbench.games.rubbish.engine import (
    Deal,
    Observation,
    Peek,
    State,
    check_observation,
    peek_sights,
)
from workbench.games.rubbish.positions import (
    decisions_left,
    empty_positions,
    positions_of_observation,
    tables_for,
)

#: (other seats' geeks by seat, hidden bids' cards by position, hidden peeks by position)
Filling = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[Peek, ...]]


def sample_states(observation: Observation, rng: np.random.Generator, count: int) -> list[State]:
    """``count`` States consistent with ``observation``, every physical filling of what the
    seat cannot see equally likely (module docstring); each plays on with the step engine."""
    plan = _Plan(observation)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator (np.random.default_rng), got {rng!r}")
    count = whole_number("count", count, low=0)
    rules = observation.rules
    uniforms = rng.random((count, plan.width)).tolist()
    futures = rng.random((count, rules.rounds, rules.players)).tolist()
    return [plan.state(u, future) for u, future in zip(uniforms, futures, strict=True)]


def filling_of(state: State, player: int) -> Filling:
    """The part of ``state`` hidden from ``player`` that play reads, at the level of card
    values: the other seats' geeks, this round's other seats' bids and peeks by position."""
    player = whole_number("player", player, low=0, high=state.rules.players - 1)
    geeks = tuple(geek for seat, geek in enumerate(state.deal.geeks) if seat != player)
    bids = [bid.cards for bid in state.bids]
    return geeks, *_hidden_round(state.order, bids, state.peeks, player)


def _hidden_round(order: tuple[int, ...], bids: list, peeks: tuple, player: int) -> tuple:
    """This round's bids (cards high to low) and peeks by the seats other than ``player``."""
    hidden_bids = tuple(
        tuple(sorted(cards, reverse=True))
        for seat, cards in zip(order, bids, strict=False) if seat != player
    )  # fmt: skip
    hidden_peeks = tuple(
        peek for position, peek in enumerate(peeks) if position > 0 and order[position] != player
    )
    return hidden_bids, hidden_peeks


def consistent_fillings(observation: Observation) -> dict[Filling, int]:
    """Every value-level filling consistent with ``observation`` and how many physical fillings
    make it: exact enumeration, for tests on small positions."""
    check_observation(observation)
    rules, me = observation.rules, observation.player
    others = [seat for seat in range(rules.players) if seat != me]
    pool = [geek for geek in range(len(rules.geeks)) if geek != observation.geek]
    deals = list(itertools.permutations(pool, len(others)))
    rounds = Counter(
        _hidden_round(observation.order, bids, peeks, me)
        for bids, peeks in _physical_rounds(observation)
    )
    return {(deal, *round_part): ways for deal in deals for round_part, ways in rounds.items()}


class _Plan:
    """What one observation fixes, worked out once: the template State, the hidden bid and peek
    positions with their tables, and how many uniform numbers one filling uses."""

    def __init__(self, observation: Observation) -> None:
        check_observation(observation)
        rules, me = observation.rules, observation.player
        self.rules = rules
        self.table = bid_table(rules.money_cards)
        history = observation.history
        start = history[0].auctioneer if history else observation.auctioneer
        self.start = start
        self.geek_pool = [g for g in range(len(rules.geeks)) if g != observation.geek]
        self.geek_seats = [seat for seat in range(rules.players) if seat != me]
        self.my_geek = observation.geek
        bidding = observation.phase == "bid"
        order = observation.order
        made = sum(count is not None for count in observation.held_out) if bidding else 0
        mine = order.index(me) if bidding else -1
        self.order, self.mine = order, mine
        self.peek_count = made + 1 if bidding else 0
        self.bid_sources: list[Bid | tuple[tuple[Bid, ...], list[float]]] = []  # by position
        for position in range(made):
            seat = order[position]
            if position == mine:
                if observation.own_bid is None:
                    raise ValueError(
                        f"the observation is inconsistent: seat {me} has bid this round "
                        "(held_out shows it) but own_bid is None"
                    )
                self.bid_sources.append(observation.own_bid)
                continue
            available = self.table.available[self.table.lock_option(observation.locked[seat])]
            seen = None
            if position == mine - 1 and observation.peek is not None:
                seen = (observation.peek.card, observation.peek.source)
            listed, cumulative = _draw_table(available, observation.held_out[seat], seen)
            if not listed:
                raise ValueError(
                    f"the observation is inconsistent: seat {seat} (bidding position "
                    f"{position}) held out {observation.held_out[seat]} card(s) from "
                    f"{list(available)}, and no such bid shows the peek {seen}"
                )
            self.bid_sources.append((listed, cumulative))
        self.options = [self.table.lock_option(observation.locked[seat]) for seat in order]
        self.money = rules.money_cards
        self.my_peek = observation.peek
        self.past_peeks = _past_peeks(rules.money_cards, history)
        self.width = (
            len(self.geek_seats)
            + sum(not isinstance(source, Bid) for source in self.bid_sources)
            + self.peek_count
            + len(history) * rules.players
        )
        self.observation = observation

    @functools.cached_property
    def template(self) -> State:
        """The observed position as a State, hidden facts still to fill (made on first use)."""
        observation, rules = self.observation, self.rules
        placeholder = Deal((0,) * rules.players, self.start, ())
        return State(rules, placeholder)._evolve(
            rounds_done=observation.round - 1, auctioneer=observation.auctioneer,
            item=observation.item, first_bidder=observation.first_bidder, order=observation.order,
            fame=observation.fame, locked=observation.locked, items_won=observation.items_won,
            discarded=observation.discarded, remaining=observation.remaining,
            cheapskate_counts=observation.cheapskate_counts, history=observation.history,
        )  # fmt: skip

    def state(self, u: list[float], future: list[list[float]]) -> State:
        """One filled-in State from ``width`` uniforms ``u`` and the deal's peek numbers."""
        k = 0
        pool = list(self.geek_pool)
        geeks = [self.my_geek] * self.rules.players
        for seat in self.geek_seats:  # a partial Fisher-Yates shuffle of the geeks left
            pick = int(u[k] * len(pool))
            k += 1
            geeks[seat] = pool[pick]
            pool[pick] = pool[-1]
            pool.pop()
        bids: list[Bid] = []
        for source in self.bid_sources:
            if isinstance(source, Bid):
                bids.append(source)
            else:
                listed, cumulative = source
                bids.append(listed[bisect.bisect_right(cumulative, u[k])])
                k += 1
        peeks: list[Peek | None] = [None] if self.peek_count else []
        for position in range(1, self.peek_count):
            if position == self.mine:
                peeks.append(self.my_peek)
            else:
                seen = peek_sights(self.money, self.options[position - 1],
                                   self.order[position - 1], bids[position - 1])  # fmt: skip
                peeks.append(seen[int(u[k] * len(seen))])
                k += 1
        history = []
        for candidates in self.past_peeks:  # per past round, per position after the first
            past: list[Peek | None] = [None]
            for seen in candidates:
                past.append(seen[int(u[k] * len(seen))])
                k += 1
            history.append(tuple(past))
        deal = Deal(tuple(geeks), self.start, tuple(map(tuple, future)))
        return self.template._evolve(
            deal=deal, bids=tuple(bids), peeks=tuple(peeks), peek_history=tuple(history)
        )


class PositionSampler:
    """``sample_states`` straight into compiled positions: ``sample(rng, count)`` draws what
    ``sample_states(observation, rng, count)`` draws and gives the positions of its States
    without building them (peeks, which no compiled agent reads, are drawn but not kept).
    The search draws the uniforms (``draw``) and fills them in (``fill_samples``) itself."""

    def __init__(self, observation: Observation) -> None:
        plan = self.plan = _Plan(observation)
        rules, table = plan.rules, plan.table
        self.template = positions_of_observation(observation)
        if observation.phase == "bid":  # the next bidder's position, whoever observes
            self.template.position[0] = len(plan.bid_sources)
        self.geek_pool = np.array(plan.geek_pool, np.int16)
        self.geek_seats = np.array(plan.geek_seats, np.int64)
        self.destined = destined_won_by_geek(observation)
        # per bid made: its seat, hidden or not, its candidates and cumulative weights
        seats, hidden, starts, indices, cumulative = [], [], [0], [], []
        for position, source in enumerate(plan.bid_sources):
            seats.append(plan.order[position])
            index = table.index[plan.options[position]]
            if isinstance(source, Bid):
                hidden.append(False)
                indices.append(index[source])
                cumulative.append(2.0)
            else:
                listed, weights = source
                hidden.append(True)
                indices.extend(index[bid] for bid in listed)
                cumulative.extend(weights)
            starts.append(len(indices))
        self.bid_seats = np.array(seats, np.int64)
        self.bid_hidden = np.array(hidden, np.bool_)
        self.bid_starts = np.array(starts, np.int64)
        self.bid_indices = np.array(indices, np.int16)
        self.bid_cumulative = np.array(cumulative, np.float64)
        self.decisions = decisions_left(rules, self.template)

    def draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """The uniforms of ``count`` fillings, (count, width), drawn as ``sample_states`` does."""
        rules, width = self.plan.rules, self.plan.width
        drawn = rng.random(count * (width + rules.rounds * rules.players))
        return drawn[: count * width].reshape(count, width)

    def sample(self, rng: np.random.Generator, count: int, copies: int = 1) -> Positions:
        """``count`` filled-in positions, the whole batch ``copies`` times over (row ``k *
        count + f``, as ``positions.repeat_positions(..., tile=True)`` would make it)."""
        positions = empty_positions(self.plan.rules, count * copies)
        u = self.draw(rng, count)
        call_direct(fill_samples, self.template, positions, u, count, copies, *self.tables())
        return positions

    def tables(self) -> tuple[np.ndarray, ...]:
        """The sampler's arrays in ``fill_samples``' argument order."""
        return (
            self.geek_pool, self.geek_seats, self.destined, self.bid_seats, self.bid_hidden,
            self.bid_starts, self.bid_indices, self.bid_cumulative,
        )  # fmt: skip


def destined_won_by_geek(observation: Observation) -> np.ndarray:
    """(seats, geeks) int16: how many of the items each seat has won are destined to each geek."""
    rules, destined = observation.rules, tables_for(observation.rules).destined
    won_by_geek = np.zeros((rules.players, len(rules.geeks)), np.int16)
    for seat, won in enumerate(observation.items_won):
        if won:
            won_by_geek[seat] = destined[:, list(won)].sum(axis=1)
    return won_by_geek


@njit(cache=True)
def fill_samples(  # type: ignore[no-untyped-def]
    template, pos, u, count, copies, geek_pool, geek_seats, destined,
    bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative,
):  # fmt: skip
    """Rows ``k * count + f`` (k < ``copies``) of ``pos``: game 0 of ``template`` with filling f
    drawn from ``u[f]`` as ``_Plan.state`` draws it (the geeks by a partial Fisher-Yates
    shuffle, each hidden bid by inverting its cumulative weights: bid b's candidates are
    ``bid_indices[bid_starts[b]:bid_starts[b + 1]]``)."""
    for row in range(count * copies):
        for seat in range(template.geek.shape[1]):
            pos.geek[row, seat] = template.geek[0, seat]
            pos.fame[row, seat] = template.fame[0, seat]
            pos.lock[row, seat] = template.lock[0, seat]
            pos.cheapskates[row, seat] = template.cheapskates[0, seat]
            pos.items_won[row, seat] = template.items_won[0, seat]
            pos.destined_won[row, seat] = template.destined_won[0, seat]
            pos.bid_index[row, seat] = template.bid_index[0, seat]
            pos.held[row, seat] = template.held[0, seat]
        for item in range(template.remaining.shape[1]):
            pos.remaining[row, item] = template.remaining[0, item]
        pos.auctioneer[row] = template.auctioneer[0]
        pos.rounds_done[row] = template.rounds_done[0]
        pos.item[row] = template.item[0]
        pos.first[row] = template.first[0]
        pos.position[row] = template.position[0]
    size = geek_pool.shape[0]
    pool = np.empty(size, geek_pool.dtype)
    for f in range(count):
        for slot in range(size):
            pool[slot] = geek_pool[slot]
        for k in range(geek_seats.shape[0]):
            pick = int(u[f, k] * (size - k))
            geek = pool[pick]
            pool[pick] = pool[size - 1 - k]
            for copy in range(copies):
                pos.geek[copy * count + f, geek_seats[k]] = geek
                pos.destined_won[copy * count + f, geek_seats[k]] = destined[geek_seats[k], geek]
        k = geek_seats.shape[0]
        for b in range(bid_seats.shape[0]):
            chosen, stop = bid_starts[b], bid_starts[b + 1]
            if bid_hidden[b]:  # bisect_right: the first cumulative weight above u
                while chosen < stop - 1 and bid_cumulative[chosen] <= u[f, k]:
                    chosen += 1
                k += 1
            for copy in range(copies):
                pos.bid_index[copy * count + f, bid_seats[b]] = bid_indices[chosen]


@functools.lru_cache(maxsize=256)
def _past_peeks(money: tuple[int, ...], history) -> tuple[tuple[tuple[Peek, ...], ...], ...]:
    """For each past round, what each peek (bidding positions 1 on) could have shown, given the
    revealed bids and each seat's lock during that round (its lock came from the round before)."""
    table = bid_table(money)
    rounds = []
    for index, record in enumerate(history):
        locked = history[index - 1].locked_next if index else (None,) * len(record.order)
        rounds.append(tuple(
            peek_sights(money, table.lock_option(locked[target]), target, record.bids[target])
            for target in record.order[:-1]
        ))  # fmt: skip
    return tuple(rounds)


@functools.lru_cache(maxsize=1024)
def _draw_table(
    available: tuple[int, ...], n_cards: int, seen: tuple[int | None, str] | None
) -> tuple[tuple[Bid, ...], list[float]]:
    """The bids a hidden bid of ``n_cards`` can be, with cumulative probabilities."""
    bids, weights = [], []
    for cards in sub_multisets(available):
        if len(cards) != n_cards:
            continue
        weight = physical_ways(available, cards)
        if seen is not None:  # the peek's chance times its pool's size, the same for every bid
            weight *= peek_odds(available, cards, *seen)[0]
        if weight:
            bids.append(Bid(cards))
            weights.append(weight)
    total = sum(weights)
    cumulative = [*[w / total for w in accumulate(weights)][:-1], 2.0] if weights else []
    return tuple(bids), cumulative


def _physical_rounds(observation: Observation):
    """Every physical filling of this round's bids and peeks that shows the seat what it saw:
    (bids as card tuples by position, peeks by position), one per physical filling."""
    if observation.phase != "bid":
        yield (), ()
        return
    me, order = observation.player, observation.order
    made = sum(count is not None for count in observation.held_out)
    mine = order.index(me)
    choices = []  # per position: every physical subset, as index tuples into the hand
    hands = [observation.available(seat) for seat in order]
    for position in range(made):
        hand = hands[position]
        if position == mine:
            choices.append([_one_subset(hand, observation.own_bid.cards)])
        else:
            size = observation.held_out[order[position]]
            choices.append(list(itertools.combinations(range(len(hand)), size)))
    for subsets in itertools.product(*choices):
        pools = []
        for position in range(1, made + 1):
            hand, chosen = hands[position - 1], subsets[position - 1]
            held = [i for i in range(len(hand)) if (i in chosen) == (len(chosen) >= 2)]
            source = "held_out" if len(chosen) >= 2 else "unused"
            pools.append([(order[position - 1], hand[i], source) for i in held] or
                         [(order[position - 1], None, source)])  # fmt: skip
        for picks in itertools.product(*pools):
            peeks = (None, *(Peek(*pick) for pick in picks))
            if 0 < mine <= made and peeks[mine] != observation.peek:
                continue
            bids = tuple(tuple(hands[p][i] for i in s) for p, s in enumerate(subsets))
            yield bids, peeks


def _one_subset(hand: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...]:
    """Indices of one physical subset of ``hand`` holding out ``cards``."""
    left = list(range(len(hand)))
    chosen = []
    for card in cards:
        index = next(i for i in left if hand[i] == card)
        left.remove(index)
        chosen.append(index)
    return tuple(sorted(chosen))


__all__: list[str] = [
    "Filling", "PositionSampler", "consistent_fillings", "filling_of", "sample_states",
]  # fmt: skip
