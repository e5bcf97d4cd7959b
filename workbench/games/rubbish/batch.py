"""Many Rubbish Auction games advanced in lockstep with numpy: the engine behind fast self-play
and behind the sampling agent's rollouts.

This is the second implementation of the rules (the first is ``engine.State``). A test plays
seeded batches here, replays every recorded game through ``State.apply`` and checks that both
give the same rounds and results. Agents see a batch through a ``View``, which holds only what
the acting player may know (the public record and their own geek); the hidden geeks of the
others stay in ``BatchState``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

import numpy as np

from workbench.games.rubbish.cards import BidTable, bid_table
from workbench.games.rubbish.rules import Rules
from workbench.kit.batching import ask_each_agent, distinct_agents
from workbench.kit.state import fields_of

ROLE_WINNER, ROLE_CHEAPSKATE, ROLE_GAINER = 0, 1, 2
ROLES = ("winner", "cheapskate", "gainer")


def destined_matrix(rules: Rules) -> np.ndarray:
    """destined[geek, item]: is ``item`` destined to ``geek``."""
    matrix = np.zeros((len(rules.geeks), rules.rounds), dtype=bool)
    for geek, (_, items) in enumerate(rules.geeks):
        matrix[geek, list(items)] = True
    return matrix


@dataclass
class View:
    """What the acting player of every game in a batch may know when choosing.

    Arrays have one row per game; ``actor`` is the seat to act in each game. ``held_out[g, s]``
    is how many cards seat ``s`` holds out this round, -1 if it has not bid yet.
    """

    rules: Rules
    table: BidTable
    actor: np.ndarray
    rounds_done: int
    position: int  # bidding position being decided (-1 while the auctioneer chooses)
    fame: np.ndarray
    lock: np.ndarray  # lock option per seat (0: nothing locked), see BidTable
    remaining: np.ndarray
    cheapskates: np.ndarray
    auctioneer: np.ndarray
    item: np.ndarray
    first: np.ndarray
    order: np.ndarray
    held_out: np.ndarray
    destined: np.ndarray  # the actor's own geek: destined[g, item]
    _actor_lock: np.ndarray | None = field(default=None, init=False, repr=False)

    @property
    def games(self) -> int:
        return len(self.actor)

    @property
    def players(self) -> int:
        return self.fame.shape[1]

    @cached_property
    def rows(self) -> np.ndarray:
        return np.arange(len(self.actor))

    @property
    def is_last_round(self) -> bool:
        return self.rounds_done == self.rules.rounds - 1

    @property
    def min_cards(self) -> int:
        """Fewest cards the actors may hold out (the same for every game: all are at one
        bidding position); 0 while auctioneers choose."""
        return self.rules.min_cards_at(self.position) if self.position >= 0 else 0

    def actor_lock(self) -> np.ndarray:
        """The lock option of each game's acting seat (computed once per view)."""
        if self._actor_lock is None:
            self._actor_lock = self.lock[self.rows, self.actor]
        return self._actor_lock


class BatchAgent(Protocol):
    """An agent that can decide for a whole batch at once (uniforms ``u`` in [0, 1) per game)."""

    name: str

    def choose_auctions(self, view: View, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...

    def choose_bids(self, view: View, u: np.ndarray) -> np.ndarray: ...


@dataclass
class Recording:
    """Per-round facts of a batch, for the rounds frame and for replay through the engine."""

    starting_auctioneer: np.ndarray  # (G,)
    item: np.ndarray  # (G, R)
    first: np.ndarray  # (G, R)
    bid_index: np.ndarray  # (G, R, n) index into table.bids[lock option at that round]
    lock_before: np.ndarray  # (G, R, n) lock option each seat bid under
    total: np.ndarray  # (G, R, n)
    cards: np.ndarray  # (G, R, n)
    role: np.ndarray  # (G, R, n) ROLE_*
    fame_after: np.ndarray  # (G, R, n)
    score_after: np.ndarray  # (G, R, n) fame + destined bonus for destined items won so far
    kept: np.ndarray  # (G, R)

    @classmethod
    def empty(cls, games: int, rounds: int, players: int) -> Recording:
        return cls(
            starting_auctioneer=np.zeros(games, np.int8),
            item=np.full((games, rounds), -1, np.int8),
            first=np.full((games, rounds), -1, np.int8),
            bid_index=np.full((games, rounds, players), -1, np.int16),
            lock_before=np.zeros((games, rounds, players), np.int8),
            total=np.zeros((games, rounds, players), np.int16),
            cards=np.zeros((games, rounds, players), np.int8),
            role=np.zeros((games, rounds, players), np.int8),
            fame_after=np.zeros((games, rounds, players), np.int16),
            score_after=np.zeros((games, rounds, players), np.int16),
            kept=np.zeros((games, rounds), bool),
        )


@dataclass
class BatchState:
    """Games advanced in lockstep. Mutable: the functions below update it in place."""

    rules: Rules
    geek: np.ndarray  # (G, n) hidden
    fame: np.ndarray  # (G, n)
    lock: np.ndarray  # (G, n) lock option
    remaining: np.ndarray  # (G, I) bool
    auctioneer: np.ndarray  # (G,)
    cheapskates: np.ndarray  # (G, n)
    items_won: np.ndarray  # (G, n)
    destined_won: np.ndarray  # (G, n)
    rounds_done: int = 0
    item: np.ndarray | None = None  # (G,) while bidding
    first: np.ndarray | None = None
    order: np.ndarray | None = None  # (G, n) seat at each bidding position
    bid_index: np.ndarray | None = None  # (G, n) by seat, -1 = not yet
    position: int = -1  # next bidding position; -1 = auction phase
    table: BidTable = field(init=False)
    destined: np.ndarray = field(init=False)  # (G, n, I) from geek
    held: np.ndarray = field(init=False)  # (G, n) cards held out this round, -1 = not yet
    rows: np.ndarray = field(init=False)  # arange(G), for fancy indexing

    def __post_init__(self) -> None:
        self.table = bid_table(self.rules.money_cards)
        self.destined = destined_matrix(self.rules)[self.geek]
        self.rows = np.arange(self.games)
        self.held = np.full(self.fame.shape, -1, np.int64)
        if self.bid_index is not None:
            self.held = np.where(self.bid_index >= 0, self.lookup(self.table.counts), -1)

    def lookup(self, table_array: np.ndarray, bid_index: np.ndarray | None = None) -> np.ndarray:
        """``table_array[lock, bid]`` for every game and seat (a flat take: fast)."""
        bids = self.bid_index if bid_index is None else bid_index
        flat = self.lock * table_array.shape[1] + np.maximum(bids, 0)
        return table_array.ravel().take(flat)

    def place_bids(self, actor: np.ndarray, bid: np.ndarray) -> None:
        """Record the bid (index into ``table.bids`` of the actor's lock) of ``actor`` in every
        game."""
        rows = self.rows
        self.bid_index[rows, actor] = bid
        lock = self.lock[rows, actor]
        self.held[rows, actor] = self.table.counts.ravel().take(
            lock * self.table.counts.shape[1] + bid
        )
        self.position += 1

    @property
    def games(self) -> int:
        return self.fame.shape[0]

    @property
    def is_over(self) -> bool:
        return self.rounds_done >= self.rules.rounds

    def view(self, actor: np.ndarray) -> View:
        """What the acting seat of each game may know (never the other seats' geeks)."""
        empty = np.full(self.games, -1)
        return View(
            **fields_of(
                self,
                "rules", "table", "rounds_done", "position", "fame", "lock", "remaining",
                "cheapskates", "auctioneer",
            ),
            actor=actor,
            item=self.item if self.item is not None else empty,
            first=self.first if self.first is not None else empty,
            order=self.order if self.order is not None else np.zeros_like(self.fame),
            held_out=self.held,
            destined=self.destined[self.rows, actor],
        )


def new_batch(rules: Rules, games: int, rng: np.random.Generator) -> BatchState:
    """``games`` fresh games: geeks dealt at random, the starting auctioneer per the rules."""
    n = rules.players
    geek = np.argsort(rng.random((games, len(rules.geeks))), axis=1)[:, :n].astype(np.int16)
    if rules.starting_auctioneer == "random":
        auctioneer = rng.integers(n, size=games).astype(np.int64)
    else:
        auctioneer = np.full(games, rules.starting_auctioneer, dtype=np.int64)
    return BatchState(
        rules=rules,
        geek=geek,
        fame=np.full((games, n), rules.starting_fame, np.int32),
        lock=np.zeros((games, n), np.int64),
        remaining=np.ones((games, rules.rounds), bool),
        auctioneer=auctioneer,
        cheapskates=np.zeros((games, n), np.int16),
        items_won=np.zeros((games, n), np.int16),
        destined_won=np.zeros((games, n), np.int16),
    )


def _decide(
    agents: Sequence[BatchAgent],
    seat_agent: np.ndarray,
    view: View,
    u: np.ndarray,
    method: str,
    first_game: int = 0,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Ask each distinct agent (``method``: choose_auctions or choose_bids) for the games where
    one of its seats acts, check its answers there (``check_auctions``, ``check_bids``), and
    merge them."""
    check = check_auctions if method == "choose_auctions" else check_bids

    def ask(agent: BatchAgent, mask: np.ndarray | None) -> Any:
        return check(agent, view, getattr(agent, method)(view, u), mask, first_game)

    return ask_each_agent(agents, seat_agent, view.actor, ask)


def _choice_array(agent: BatchAgent, view: View, values: object, what: str) -> np.ndarray:
    """An agent's answer as a whole-number array with one entry per game, or a TypeError."""
    array = np.asarray(values)
    if array.shape != (view.games,) or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(
            f"agent {_agent_name(agent)} must answer {what} as a whole-number array with one "
            f"entry per game (shape ({view.games},)), got dtype {array.dtype} shape {array.shape}"
        )
    return array


def check_auctions(
    agent: BatchAgent, view: View, answer: object, mask: np.ndarray | None = None,
    first_game: int = 0,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``answer`` of ``agent.choose_auctions`` checked in the games ``mask`` selects (None:
    every game): a remaining item and a seat in each. Raises ValueError naming the agent, the
    game, the seat and what was legal."""
    if not (isinstance(answer, tuple) and len(answer) == 2):
        raise TypeError(
            f"agent {_agent_name(agent)} must answer choose_auctions with (items, first "
            f"bidders), got {type(answer).__name__}"
        )
    item = _choice_array(agent, view, answer[0], "items")
    first = _choice_array(agent, view, answer[1], "first bidders")
    items = view.remaining.shape[1]
    in_range = (item >= 0) & (item < items)
    up = in_range & view.remaining[view.rows, np.where(in_range, item, 0)]
    bad = ~(up & (first >= 0) & (first < view.players))
    if mask is not None:
        bad &= mask
    if bad.any():
        g = int(np.argmax(bad))
        seat = int(view.actor[g])
        remaining = np.flatnonzero(view.remaining[g]).tolist()
        raise ValueError(
            f"agent {_agent_name(agent)} chose Auction({int(item[g])}, {int(first[g])}) for "
            f"seat {seat} in game {first_game + g}, round {view.rounds_done + 1}: legal are the "
            f"items still up for auction {remaining} and First Bidders 0–{view.players - 1}"
        )
    return item, first


def check_bids(
    agent: BatchAgent, view: View, answer: object, mask: np.ndarray | None = None,
    first_game: int = 0,
) -> np.ndarray:  # fmt: skip
    """``answer`` of ``agent.choose_bids`` checked in the games ``mask`` selects (None: every
    game): an index into the bid table of the actor's lock, holding out at least the cards the
    bidding position needs. Raises ValueError naming the agent, the game, the seat and what was
    legal."""
    bid = _choice_array(agent, view, answer, "bids")
    lock = view.actor_lock()
    fewest = view.min_cards
    bad = (bid < fewest) | (bid >= view.table.n_bids.take(lock))
    if mask is not None:
        bad &= mask
    if bad.any():
        g = int(np.argmax(bad))
        option = int(lock[g])
        legal = view.table.legal(option, fewest)
        shown = ", ".join(str(list(b.cards)) for b in legal[:8])
        more = f", ... ({len(legal)} in all)" if len(legal) > 8 else ""
        raise ValueError(
            f"agent {_agent_name(agent)} chose bid index {int(bid[g])} for seat "
            f"{int(view.actor[g])} in game {first_game + g}, round {view.rounds_done + 1} "
            f"(bidding position {view.position}): legal are indices {fewest}–"
            f"{len(view.table.bids[option]) - 1} of its bid table, the bids {shown}{more}"
        )
    return bid


def _agent_name(agent: BatchAgent) -> str:
    name = getattr(agent, "name", None)
    return f"{name!r} ({agent!r})" if isinstance(name, str) else repr(agent)



def start_round(bs: BatchState, item: np.ndarray, first: np.ndarray) -> None:
    """Put ``item`` up in every game with ``first`` as First Bidder."""
    n = bs.rules.players
    bs.item = item.astype(np.int64)
    bs.first = first.astype(np.int64)
    bs.order = (bs.first[:, None] + np.arange(n)[None, :]) % n
    bs.bid_index = np.full((bs.games, n), -1, np.int64)
    bs.held = np.full((bs.games, n), -1, np.int64)
    bs.position = 0


def play(
    bs: BatchState,
    agents: Sequence[BatchAgent],
    rng: np.random.Generator,
    recording: Recording | None = None,
    *,
    first_game: int = 0,
) -> BatchState:
    """Play every game of the batch to the end (from wherever it stands). Every agent's choice
    is checked before it is played; ``first_game`` numbers the games in error messages."""
    distinct, seat_agent = distinct_agents(agents)
    while not bs.is_over:
        if bs.position < 0:
            view = bs.view(bs.auctioneer)
            u = rng.random(bs.games)
            item, first = _decide(distinct, seat_agent, view, u, "choose_auctions", first_game)
            if recording is not None:
                recording.item[:, bs.rounds_done] = item
                recording.first[:, bs.rounds_done] = first
            start_round(bs, item, first)
        while bs.position < bs.rules.players:
            view = bs.view(bs.order[:, bs.position])
            u = rng.random(bs.games)
            bids = _decide(distinct, seat_agent, view, u, "choose_bids", first_game)
            bs.place_bids(view.actor, bids)
        resolve(bs, recording)
    return bs


def resolve(bs: BatchState, recording: Recording | None = None) -> None:
    """Reveal every game's bids and apply the round's outcome (docs/rules.md, the reveal)."""
    table, rules = bs.table, bs.rules
    n = rules.players
    rows = bs.rows
    totals = bs.lookup(table.totals)  # by seat
    in_order = np.take_along_axis(totals, bs.order, axis=1)
    winner_position = np.argmax(in_order, axis=1)  # first of the highest: closest to First Bidder
    cheapskate_position = n - 1 - np.argmin(in_order[:, ::-1], axis=1)  # last of the lowest
    winner = bs.order[rows, winner_position]
    cheapskate = bs.order[rows, cheapskate_position]

    change = totals.copy()
    change[rows, winner] = -totals[rows, winner]
    change[rows, cheapskate] = 0
    fame = bs.fame + change
    overspent = fame[rows, winner] < 0
    fame[rows, winner] = np.maximum(fame[rows, winner], 0)
    kept = ~overspent if rules.overspend == "discard" else np.ones(bs.games, bool)

    new_lock = bs.lookup(table.lock_after).astype(np.int64)
    new_lock[rows, cheapskate] = 0

    item = bs.item
    bs.items_won[rows, winner] += kept
    bs.destined_won[rows, winner] += kept & bs.destined[rows, winner, item]
    bs.cheapskates[rows, cheapskate] += 1
    bs.remaining[rows, item] = False

    if recording is not None:
        r = bs.rounds_done
        role = np.full((bs.games, n), ROLE_GAINER, np.int8)
        role[rows, winner] = ROLE_WINNER
        role[rows, cheapskate] = ROLE_CHEAPSKATE
        recording.bid_index[:, r] = bs.bid_index
        recording.lock_before[:, r] = bs.lock
        recording.total[:, r] = totals
        recording.cards[:, r] = bs.held
        recording.role[:, r] = role
        recording.fame_after[:, r] = fame
        recording.score_after[:, r] = fame + rules.destined_bonus * bs.destined_won
        recording.kept[:, r] = kept

    bs.fame = fame
    bs.lock = new_lock
    bs.auctioneer = cheapskate
    bs.rounds_done += 1
    bs.item = bs.first = bs.order = bs.bid_index = None
    bs.position = -1


def final_scores(bs: BatchState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, ranks, win share) per game and seat; ranks 1 = best, ties share a rank and the
    win (ties on score broken by items won, as in ``engine.score``)."""
    scores = bs.fame + bs.rules.destined_bonus * bs.destined_won
    key = scores.astype(np.int64) * (bs.rules.rounds + 1) + bs.items_won
    ranks = 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)
    winners = ranks == 1
    share = winners / winners.sum(axis=1, keepdims=True)
    return scores, ranks, share
