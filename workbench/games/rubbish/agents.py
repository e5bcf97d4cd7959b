"""Reference agents for Rubbish Auction, weakest to strongest.

Every agent is called as ``agent(observation, legal_actions, rng) -> action``. The random and
heuristic agents are written once, over batches (``choose_auctions`` / ``choose_bids`` on a
``View``), and the step-by-step call runs the same code on a batch of one, so the fast engine
and ``State.apply`` play exactly the same policy. Agents that can also give their exact action
distribution (``action_probabilities``), which exact inference uses as a prior.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from workbench.checks import real_number, whole_number
from workbench.games.rubbish.batch import (
    BatchAgent,
    BatchState,
    View,
    final_scores,
    play,
    start_round,
)
from workbench.games.rubbish.cards import Bid, BidTable, bid_table, bid_weights
from workbench.games.rubbish.engine import Action, Auction, Observation
from workbench.games.rubbish.rules import Rules
from workbench.kit.batching import BatchWrittenAgent
from workbench.kit.lineup import agent_repr, make_named_agent


def view_of(observation: Observation) -> View:
    """A batch of one game seen by the observing player, for the batch-written agents."""
    rules = observation.rules
    table = bid_table(rules.money_cards)
    n = rules.players
    remaining = np.zeros((1, rules.rounds), bool)
    remaining[0, list(observation.remaining)] = True
    destined = np.zeros((1, rules.rounds), bool)
    destined[0, list(observation.destined)] = True
    bidding = observation.phase == "bid"
    return View(
        rules=rules,
        table=table,
        actor=np.array([observation.player]),
        rounds_done=observation.round - 1,
        position=observation.order.index(observation.player) if bidding else -1,
        fame=np.array([observation.fame], dtype=np.int64),
        lock=np.array([[table.lock_option(v) for v in observation.locked]], dtype=np.int64),
        remaining=remaining,
        cheapskates=np.array([observation.cheapskate_counts], dtype=np.int64),
        auctioneer=np.array([observation.auctioneer]),
        item=np.array([observation.item if bidding else -1]),
        first=np.array([observation.first_bidder if bidding else -1]),
        order=np.array([observation.order if bidding else (0,) * n]),
        held_out=np.array([[-1 if c is None else c for c in observation.held_out]]),
        destined=destined,
    )


class _BatchWrittenAgent(BatchWrittenAgent):
    """Rubbish Auction's batch methods (auctions, bids); the step call runs them on a batch of
    one."""

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        _require_choice(observation, legal_actions)
        view = view_of(observation)
        u = np.array([rng.random()])
        if observation.phase == "auction":
            item, first = self.choose_auctions(view, u)
            return Auction(int(item[0]), int(first[0]))
        return _table_bid(view, self.choose_bids(view, u))


class RandomAgent(_BatchWrittenAgent):
    """Uniformly random among the legal actions (the baseline every other agent must beat)."""

    name = "random"

    def choose_auctions(self, view: View, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = view.players
        count = view.remaining.sum(axis=1) * n
        pick = (u * count).astype(np.int64)  # index into [Auction(i, s) for i in rem for s]
        item = _nth_true(view.remaining, pick // n)
        return item, pick % n

    def choose_bids(self, view: View, u: np.ndarray) -> np.ndarray:
        fewest = view.min_cards  # the first `fewest` bids hold out too few cards
        return fewest + (u * (view.table.n_bids[view.actor_lock()] - fewest)).astype(np.int64)

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        # The batch formulas above reduce to this on one game (legal actions are listed in the
        # order both engines share); a test checks the two agree.
        _require_choice(observation, legal_actions)
        return legal_actions[int(rng.random() * len(legal_actions))]

    def action_probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """Exact: uniform over the legal actions."""
        return {action: 1 / len(legal_actions) for action in legal_actions}


class HeuristicAgent(_BatchWrittenAgent):
    """The rulebook's hints as a policy.

    - Auctioneer: put up an item destined to its geek (and name itself First Bidder, to win
      ties); otherwise a random item it does not want, naming the player on its left.
    - Wanted item: the cheapest bid that surely wins, reading every opponent's maximum from
      their locked card (and from how many cards they held out, once they have bid), if that
      costs at most ``max_wanted_bid``; else its best bid up to that cap.
    - Unwanted item: gain fame without winning: about ``gain_share`` of its usable money, kept
      below the most any opponent could bid; more when it was the cheapskate last round
      (``cheapskate_share``) and in the last round (``last_round_share``), where being lowest
      is worth nothing. Among equal totals it holds out the bid with the lowest top card, so
      the card it loses to the lock is small.
    """

    name = "heuristic"

    def __init__(
        self,
        max_wanted_bid: int = 15,
        gain_share: float = 0.5,
        cheapskate_share: float = 0.7,
        last_round_share: float = 0.9,
    ) -> None:
        self.max_wanted_bid = whole_number(
            "HeuristicAgent max_wanted_bid", max_wanted_bid, low=0, allowed="a whole number >= 0"
        )
        self.gain_share = real_number("HeuristicAgent gain_share", gain_share, low=0, high=1)
        self.cheapskate_share = real_number(
            "HeuristicAgent cheapskate_share", cheapskate_share, low=0, high=1
        )
        self.last_round_share = real_number(
            "HeuristicAgent last_round_share", last_round_share, low=0, high=1
        )


    def choose_auctions(self, view: View, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        wanted = view.remaining & view.destined
        has_wanted = wanted.any(axis=1)
        pool = view.remaining & ~view.destined
        pool = np.where(pool.any(axis=1, keepdims=True), pool, view.remaining)
        random_item = _nth_true(pool, (u * pool.sum(axis=1)).astype(np.int64))
        item = np.where(has_wanted, np.argmax(wanted, axis=1), random_item)
        first = np.where(has_wanted, view.actor, (view.actor + 1) % view.players)
        return item, first

    def choose_bids(self, view: View, u: np.ndarray) -> np.ndarray:
        table = view.table
        choices = _preferred_bids(table, view.min_cards)
        width = choices.best_at_most.shape[1]
        top = width - 2  # the largest total any bid can reach
        rows = np.arange(view.games)
        own_lock = view.actor_lock()
        sure_win, most_others = _opponent_reach(view)
        lowest = choices.cheapest_at_least[own_lock, 0]

        budget = np.minimum(np.minimum(self.max_wanted_bid, view.fame[rows, view.actor]), top)
        cheapest_win = choices.cheapest_at_least.ravel().take(
            own_lock * width + np.minimum(sure_win, top + 1)
        )
        affordable = (cheapest_win >= 0) & (
            table.totals.ravel().take(
                own_lock * table.totals.shape[1] + np.maximum(cheapest_win, 0)
            )
            <= budget
        )
        best_effort = choices.best_at_most.ravel().take(own_lock * width + budget + 1)
        wanted_bid = np.where(
            affordable, cheapest_win, np.where(best_effort >= 0, best_effort, lowest)
        )

        share = np.where(view.auctioneer == view.actor, self.cheapskate_share, self.gain_share)
        if view.rounds_done == 0:
            share = np.full(view.games, self.gain_share)
        if view.is_last_round:
            share = np.full(view.games, self.last_round_share)
        usable = table.available_totals.take(own_lock)
        target = np.minimum(np.floor(share * usable).astype(np.int64), most_others - 1)
        gaining = choices.best_at_most.ravel().take(
            own_lock * width + np.minimum(np.maximum(target, -1), top) + 1
        )
        unwanted_bid = np.where(gaining >= 0, gaining, lowest)

        wanted = view.destined[rows, np.maximum(view.item, 0)]
        return np.where(wanted, wanted_bid, unwanted_bid)

    def action_probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """Exact: bids are deterministic; an auctioneer with no wanted item picks uniformly."""
        view = view_of(observation)
        if observation.phase == "bid":
            return {_table_bid(view, self.choose_bids(view, np.zeros(1))): 1.0}
        wanted = view.remaining & view.destined
        if wanted.any():
            item, first = self.choose_auctions(view, np.zeros(1))
            return {Auction(int(item[0]), int(first[0])): 1.0}
        pool = view.remaining & ~view.destined
        pool = pool if pool.any() else view.remaining
        items = np.flatnonzero(pool[0])
        first = (observation.player + 1) % observation.rules.players
        return {Auction(int(item), first): 1 / len(items) for item in items}


class _PreferredBids(NamedTuple):
    """Lookup tables of the heuristic's preferred bid per lock option and threshold, among the
    bids holding out at least a given number of cards (indices into ``BidTable.bids``).

    ``best_at_most[option, t + 1]``: the bid with the largest total <= t; ``cheapest_at_least
    [option, t]``: the bid with the smallest total >= t. Among equal totals both prefer the bid
    with the lowest top card (the card the lock takes), then fewer cards. -1: no such bid.
    """

    best_at_most: np.ndarray
    cheapest_at_least: np.ndarray


_PREFERRED: dict[tuple[int, int], _PreferredBids] = {}


def _preferred_bids(table: BidTable, min_cards: int) -> _PreferredBids:
    key = (id(table), min_cards)
    if key not in _PREFERRED:
        top = int(table.totals.max())
        options = len(table.bids)
        best_at_most = np.full((options, top + 2), -1, np.int64)
        cheapest_at_least = np.full((options, top + 2), -1, np.int64)
        for option, bids in enumerate(table.bids):
            # The preferred bid of each total: lowest top card, then fewest cards, then first.
            best_of_total: dict[int, int] = {}
            for k, bid in enumerate(bids):
                if bid.count < min_cards:
                    continue
                held = best_of_total.get(bid.total)
                if held is None or (bid.highest or 0, bid.count) < (
                    bids[held].highest or 0,
                    bids[held].count,
                ):
                    best_of_total[bid.total] = k
            # Sweep the thresholds: the nearest total at or below t, at or above t.
            last = -1
            for threshold in range(-1, top + 1):
                last = best_of_total.get(threshold, last)
                best_at_most[option, threshold + 1] = last
            last = -1
            for threshold in range(top + 1, -1, -1):
                last = best_of_total.get(threshold, last)
                cheapest_at_least[option, threshold] = last
        _PREFERRED[key] = _PreferredBids(best_at_most, cheapest_at_least)
    return _PREFERRED[key]


def _require_choice(observation: object, legal_actions: Sequence[Action]) -> None:
    """Agents choose for the seat to play, among at least one legal action."""
    if not isinstance(observation, Observation):
        raise TypeError(f"observation must be an engine Observation, got {observation!r}")
    if observation.to_play != observation.player or not len(legal_actions):
        raise ValueError(
            f"seat {observation.player} has nothing to choose (phase {observation.phase!r}, seat "
            f"{observation.to_play} to play, {len(legal_actions)} legal actions)"
        )


def _table_bid(view: View, index: np.ndarray) -> Bid:
    """The Bid a one-game batch answer (an index into the bid table) stands for."""
    return view.table.bids[int(view.actor_lock()[0])][int(index[0])]


def _nth_true(mask: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Column of the n-th (0-based) True in each row of ``mask``."""
    return np.argmax(np.cumsum(mask, axis=1) > n[:, None], axis=1)


def _opponent_reach(view: View) -> tuple[np.ndarray, np.ndarray]:
    """(sure_win, most_others) per game, read from public facts only.

    Each opponent could be bidding at most all its usable money or, once it has held out c
    cards, its c largest usable cards. ``most_others`` is the largest such cap; ``sure_win`` is
    the smallest total that beats every cap (an equal total wins against seats that bid after
    the actor, since ties go to whoever is closest to the First Bidder).
    """
    table = view.table
    players = view.players
    # caps_by_held[lock, held + 1]: all usable money if not yet bid (held = -1), else the sum
    # of the `held` largest usable cards.
    caps_by_held = np.concatenate([table.available_totals[:, None], table.top_sums], axis=1)
    caps = caps_by_held.ravel().take(view.lock * caps_by_held.shape[1] + view.held_out + 1)
    caps[np.arange(view.games), view.actor] = -1
    position = (np.arange(players)[None, :] - view.first[:, None]) % players
    actor_position = (view.actor - view.first) % players
    ahead = position < actor_position[:, None]
    sure_win = (caps + ahead).max(axis=1)
    most_others = caps.max(axis=1)
    return sure_win, most_others


class SamplingAgent:
    """Chooses by rollouts over the hidden facts it cannot see.

    For each decision it draws ``samples`` worlds consistent with its observation — the other
    players' geeks (uniform over the geeks it does not hold) and, for opponents who already bid
    this round, bids with the public card counts, weighted by the number of physical card
    subsets and by the likelihood of its own peek — then plays every candidate action in every
    world to the end with ``rollout`` agents (the same worlds for every candidate) and takes the
    action with the best mean result: share of the win, then score margin over the best rival.
    """

    name = "sampling"
    __repr__ = agent_repr

    def __init__(self, samples: int = 24, rollout: BatchAgent | None = None) -> None:
        self.samples = whole_number("SamplingAgent samples", samples, low=1)
        if rollout is None:
            rollout = HeuristicAgent()
        elif isinstance(rollout, type) or not all(
            callable(getattr(rollout, method, None))
            for method in ("choose_auctions", "choose_bids")
        ):
            raise TypeError(
                "SamplingAgent rollout must be an agent written over batches (with "
                f"choose_auctions and choose_bids), e.g. HeuristicAgent(); got {rollout!r}"
            )
        self.rollout = rollout


    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        _require_choice(observation, legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        worlds = self.samples
        candidates = len(legal_actions)
        batch = sample_worlds(observation, worlds, rng)
        batch = _repeat(batch, candidates)  # row = candidate * worlds + world
        if observation.phase == "auction":
            items = np.repeat([a.item for a in legal_actions], worlds)
            firsts = np.repeat([a.first_bidder for a in legal_actions], worlds)
            start_round(batch, items, firsts)
        else:
            table = batch.table
            option = table.lock_option(observation.locked[observation.player])
            indices = [table.index[option][action] for action in legal_actions]
            batch.place_bids(np.full(batch.games, observation.player), np.repeat(indices, worlds))
        play(batch, [self.rollout] * observation.rules.players, rng)
        return legal_actions[_best_candidate(batch, observation.player, candidates, worlds)]


def _best_candidate(batch: BatchState, player: int, candidates: int, worlds: int) -> int:
    scores, _, share = final_scores(batch)
    rivals = np.delete(scores, player, axis=1).max(axis=1)
    margin = (scores[:, player] - rivals).reshape(candidates, worlds).mean(axis=1)
    wins = share[:, player].reshape(candidates, worlds).mean(axis=1)
    return int(np.argmax(wins * 1000 + margin))


def sample_worlds(observation: Observation, worlds: int, rng: np.random.Generator) -> BatchState:
    """``worlds`` copies of the observed game with the hidden facts drawn consistently."""
    rules = observation.rules
    n = rules.players
    me = observation.player
    others_geeks = [g for g in range(len(rules.geeks)) if g != observation.geek]
    geek = np.empty((worlds, n), np.int16)
    for w in range(worlds):
        drawn = rng.permutation(others_geeks)[: n - 1]
        geek[w] = np.insert(drawn, me, observation.geek)
    table = bid_table(rules.money_cards)
    lock = np.array([table.lock_option(v) for v in observation.locked], dtype=np.int64)
    remaining = np.zeros(rules.rounds, bool)
    remaining[list(observation.remaining)] = True
    batch = BatchState(
        rules=rules,
        geek=geek,
        fame=np.tile(np.array(observation.fame, np.int32), (worlds, 1)),
        lock=np.tile(lock, (worlds, 1)),
        remaining=np.tile(remaining, (worlds, 1)),
        auctioneer=np.full(worlds, observation.auctioneer, np.int64),
        cheapskates=np.tile(np.array(observation.cheapskate_counts, np.int16), (worlds, 1)),
        items_won=np.tile(np.array([len(w) for w in observation.items_won], np.int16), (worlds, 1)),
        destined_won=np.zeros((worlds, n), np.int16),
        rounds_done=observation.round - 1,
    )
    for seat, won in enumerate(observation.items_won):
        for item in won:
            batch.destined_won[:, seat] += batch.destined[:, seat, item]
    if observation.phase == "bid":
        start_round(
            batch, np.full(worlds, observation.item), np.full(worlds, observation.first_bidder)
        )
        position = observation.order.index(me)
        for earlier in observation.order[:position]:
            count = observation.held_out[earlier]
            peek = observation.peek
            evidence = (peek.card, peek.source) if peek and peek.target == earlier else None
            options = bid_weights(table.available[lock[earlier]], count, evidence)
            weights = np.array([w for _, w in options])
            drawn = rng.choice(len(options), size=worlds, p=weights / weights.sum())
            index = np.array([table.index[lock[earlier]][bid] for bid, _ in options])
            batch.place_bids(np.full(worlds, earlier), index[drawn])
    return batch


def _repeat(batch: BatchState, times: int) -> BatchState:
    """The batch repeated ``times`` over (copy ``c`` of world ``w`` at row ``c * worlds + w``)."""

    def tile(array: np.ndarray | None) -> np.ndarray | None:
        if array is None:
            return None
        return np.tile(array, (times,) + (1,) * (array.ndim - 1))

    repeated = BatchState(
        rules=batch.rules,
        geek=tile(batch.geek),
        fame=tile(batch.fame),
        lock=tile(batch.lock),
        remaining=tile(batch.remaining),
        auctioneer=tile(batch.auctioneer),
        cheapskates=tile(batch.cheapskates),
        items_won=tile(batch.items_won),
        destined_won=tile(batch.destined_won),
        rounds_done=batch.rounds_done,
        item=tile(batch.item),
        first=tile(batch.first),
        order=tile(batch.order),
        bid_index=tile(batch.bid_index),
        position=batch.position,
    )
    return repeated


AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "sampling": SamplingAgent}


def make_agent(name: str, rules: Rules | None = None, **options: object) -> object:
    """An agent by name: 'random', 'heuristic' or 'sampling', with its ``options`` (checked
    when it is made). ``rules`` is accepted for the common contract; these agents read the
    rules from each observation."""
    return make_named_agent(AGENTS, name, options, game="rubbish", rules=rules, rules_type=Rules)


__all__ = [
    "AGENTS",
    "HeuristicAgent",
    "RandomAgent",
    "SamplingAgent",
    "make_agent",
    "sample_worlds",
    "view_of",
]
