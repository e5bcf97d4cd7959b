"""Many Going, Going, GONE! games advanced in lockstep with numpy: the engine behind fast
self-play.

This is the second implementation of the rules (the first is ``engine.State``); a test replays
every recorded batch game through ``State.apply`` and demands identical frames. Holdings, lots
and collections are 64-bit masks (``bits``). Agents decide for many (game, seat) pairs at once
through a ``View`` holding only what those seats may know — the same facts ``Observation``
gives — and every answer is validated before it is played: an illegal one raises, naming the
agent, the game, the seat and what was allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from workbench.games.going_gone.arrangement import batch_values
from workbench.games.going_gone.bits import is_one_collection, item_bits, popcount
from workbench.games.going_gone.rules import Rules
from workbench.kit.batching import distinct_agents

Draw = Callable[[int], np.ndarray]


@dataclass
class View:
    """What each of ``N`` deciding seats may know (one row per (game, seat) pair).

    ``holdings`` and ``sold`` (masks by seat) are None unless ``rules.open_collections``;
    ``holding`` (own items) is always there. ``lots`` are the masks of this round's lots.
    """

    rules: Rules
    phase: str  # "bid" or "sell"
    rounds_done: int
    seat: np.ndarray  # (N,)
    auctioneer: np.ndarray  # (N,)
    lots: np.ndarray  # (N, cups) uint64
    bucks: np.ndarray  # (N, players)
    item_counts: np.ndarray  # (N, players)
    holding: np.ndarray  # (N,) uint64
    holdings: np.ndarray | None  # (N, players) uint64
    sold: np.ndarray | None  # (N, players) uint64: every item each seat has sold

    @property
    def size(self) -> int:
        return len(self.seat)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def rounds_left(self) -> int:
        """Rounds still to play after this one."""
        return self.rules.rounds - self.rounds_done - 1

    @property
    def own_bucks(self) -> np.ndarray:
        return self.bucks[np.arange(self.size), self.seat]

    @property
    def budget(self) -> np.ndarray:
        """Most Bucks each seat can put in the cups: min(Bucks, cube limit)."""
        bucks = self.own_bucks
        limit = self.rules.cube_limit
        return bucks if limit is None else np.minimum(bucks, limit)


class BatchAgent(Protocol):
    """An agent that decides for many seats at once (see ``View``)."""

    name: str

    def choose_allocations(self, view: View, draw: Draw) -> np.ndarray:
        """(N, cups) whole Bucks per cup; ``draw(k)``: (N, k) uniforms in [0, 1)."""
        ...

    def choose_sales(self, view: View, draw: Draw) -> np.ndarray:
        """(N, S) collection masks to sell, in order (0 = none); ``draw(k)``: (N, k) uniforms."""
        ...


@dataclass
class Recording:
    """Per-round facts of a batch: for the rounds and lots frames and for replay."""

    deck: np.ndarray  # (G, items)
    first_auctioneer: np.ndarray  # (G,)
    bids: np.ndarray  # (G, R, n, cups)
    winners: np.ndarray  # (G, R, cups), -1: discarded
    prices: np.ndarray  # (G, R, cups)
    sales: list[np.ndarray]  # per round: (G, n, S_r) collection masks in submission order
    bucks_after: np.ndarray  # (G, R, n)
    holdings_after: np.ndarray  # (G, R, n) uint64
    score_after: np.ndarray  # (G, R, n): Bucks + best arrangement if the game ended now
    spent: np.ndarray  # (G, R, n)
    lots_won: np.ndarray  # (G, R, n)
    items_won: np.ndarray  # (G, R, n)
    sales_made: np.ndarray  # (G, R, n): collections sold
    sale_bucks: np.ndarray  # (G, R, n)

    @classmethod
    def empty(cls, rules: Rules, games: int) -> Recording:
        shape = (games, rules.rounds, rules.players)
        return cls(
            deck=np.zeros((games, len(rules.items)), np.int16),
            first_auctioneer=np.zeros(games, np.int8),
            bids=np.zeros((*shape, rules.cups), np.int16),
            winners=np.full((games, rules.rounds, rules.cups), -1, np.int8),
            prices=np.zeros((games, rules.rounds, rules.cups), np.int16),
            sales=[],
            bucks_after=np.zeros(shape, np.int32),
            holdings_after=np.zeros(shape, np.uint64),
            score_after=np.zeros(shape, np.int32),
            spent=np.zeros(shape, np.int16),
            lots_won=np.zeros(shape, np.int8),
            items_won=np.zeros(shape, np.int8),
            sales_made=np.zeros(shape, np.int8),
            sale_bucks=np.zeros(shape, np.int16),
        )


@dataclass
class BatchState:
    """Games advanced in lockstep. Mutable: the functions below update it in place."""

    rules: Rules
    deck: np.ndarray  # (G, items) item ids, hidden
    first_auctioneer: np.ndarray  # (G,)
    auctioneer: np.ndarray  # (G,)
    bucks: np.ndarray  # (G, n)
    holdings: np.ndarray  # (G, n) uint64
    sold: np.ndarray  # (G, n) uint64
    box: np.ndarray  # (G,)
    items_won: np.ndarray  # (G, n)
    lots_won: np.ndarray  # (G, n)
    spent: np.ndarray  # (G, n)
    sales_made: np.ndarray  # (G, n)
    sale_bucks: np.ndarray  # (G, n)
    times_auctioneer: np.ndarray  # (G, n)
    rounds_done: int = 0
    lots: np.ndarray | None = None  # (G, cups) uint64 while a round is in progress

    @property
    def games(self) -> int:
        return self.bucks.shape[0]

    @property
    def is_over(self) -> bool:
        return self.rounds_done >= self.rules.rounds

    def deal(self) -> None:
        """Deal this round's lots from every game's deck."""
        rules = self.rules
        bits = item_bits(rules)
        start = self.rounds_done * rules.items_per_round
        lots = np.zeros((self.games, rules.cups), np.uint64)
        for cup, size in enumerate(rules.lot_sizes):
            for k in range(size):
                lots[:, cup] |= bits[self.deck[:, start + k]]
            start += size
        self.lots = lots
        self.times_auctioneer[np.arange(self.games), self.auctioneer] += 1

    def view(self, games: np.ndarray, seats: np.ndarray, phase: str) -> View:
        """What seat ``seats[i]`` of game ``games[i]`` may know."""
        open_ = self.rules.open_collections
        holdings = self.holdings[games]
        return View(
            rules=self.rules,
            phase=phase,
            rounds_done=self.rounds_done,
            seat=seats,
            auctioneer=self.auctioneer[games],
            lots=self.lots[games],
            bucks=self.bucks[games],
            item_counts=popcount(holdings),
            holding=holdings[np.arange(len(games)), seats],
            holdings=holdings if open_ else None,
            sold=self.sold[games] if open_ else None,
        )

    def budgets(self) -> np.ndarray:
        limit = self.rules.cube_limit
        return self.bucks if limit is None else np.minimum(self.bucks, limit)


def new_batch(rules: Rules, games: int, rng: np.random.Generator) -> BatchState:
    """``games`` fresh games: decks shuffled, the first Auctioneer per the rules."""
    n = rules.players
    deck = np.argsort(rng.random((games, len(rules.items))), axis=1).astype(np.int16)
    if rules.first_auctioneer == "random":
        first = rng.integers(n, size=games).astype(np.int64)
    else:
        first = np.full(games, rules.first_auctioneer, dtype=np.int64)
    zeros = np.zeros((games, n), np.int64)
    return BatchState(
        rules=rules,
        deck=deck,
        first_auctioneer=first,
        auctioneer=first.copy(),
        bucks=np.full((games, n), rules.starting_bucks, np.int64),
        holdings=np.zeros((games, n), np.uint64),
        sold=np.zeros((games, n), np.uint64),
        box=np.zeros(games, np.int64),
        items_won=zeros.copy(),
        lots_won=zeros.copy(),
        spent=zeros.copy(),
        sales_made=zeros.copy(),
        sale_bucks=zeros.copy(),
        times_auctioneer=zeros.copy(),
    )



def play(
    bs: BatchState,
    agents: Sequence[BatchAgent],
    rng: np.random.Generator,
    recording: Recording | None = None,
    *,
    first_game: int = 0,
) -> BatchState:
    """Play every game of the batch to the end. ``first_game`` numbers games in error messages."""
    distinct, seat_agent = distinct_agents(agents)
    groups = [np.flatnonzero(seat_agent == i) for i in range(len(distinct))]
    if recording is not None:
        recording.deck[:] = bs.deck
        recording.first_auctioneer[:] = bs.first_auctioneer
    rules = bs.rules
    n, cups = rules.players, rules.cups
    G = bs.games
    while not bs.is_over:
        bs.deal()
        bids = np.zeros((G, n, cups), np.int64)
        for agent, seats in zip(distinct, groups, strict=True):
            games, seat_of = _pairs(G, seats)
            view = bs.view(games, seat_of, "bid")
            size = len(games)
            answer = agent.choose_allocations(view, lambda k, size=size: rng.random((size, k)))
            answer = check_allocations(agent, view, answer, games + first_game)
            bids[games, seat_of] = answer
        resolve_cups(bs, bids, recording)
        sales = []
        for agent, seats in zip(distinct, groups, strict=True):
            games, seat_of = _pairs(G, seats)
            view = bs.view(games, seat_of, "sell")
            size = len(games)
            answer = agent.choose_sales(view, lambda k, size=size: rng.random((size, k)))
            sales.append((games, seat_of, check_sales(agent, view, answer, games + first_game)))
        apply_sales(bs, sales, recording)
    return bs


def _pairs(games: int, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(game, seat) rows for every game and the given seats, game-major."""
    return np.repeat(np.arange(games), len(seats)), np.tile(seats, games)


def check_allocations(
    agent: BatchAgent, view: View, answer: np.ndarray, game_numbers: np.ndarray
) -> np.ndarray:
    """The agent's bids as int64 if every one is legal; else a ValueError naming the first
    illegal one and what was allowed."""
    rules = view.rules
    answer = np.asarray(answer)
    expected = (view.size, rules.cups)
    if answer.shape != expected:
        raise ValueError(
            f"agent {agent.name!r} returned allocations of shape {answer.shape}; expected "
            f"{expected} (one row per deciding seat, one whole number of Bucks per cup)"
        )
    if answer.dtype.kind not in "iu":
        raise ValueError(
            f"agent {agent.name!r} returned {answer.dtype} allocations; bids must be whole "
            "numbers (an integer array)"
        )
    answer = answer.astype(np.int64)
    budget = view.budget
    bad = (answer < 0).any(axis=1) | (answer.sum(axis=1) > budget)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"agent {agent.name!r} bid {answer[row].tolist()} in game {int(game_numbers[row])}, "
            f"seat {int(view.seat[row])}: bids must be >= 0 Bucks and total at most "
            f"{int(budget[row])} (min(Bucks, cube limit))"
        )
    return answer


def check_sales(
    agent: BatchAgent, view: View, answer: np.ndarray, game_numbers: np.ndarray
) -> np.ndarray:
    """The agent's sales (N, S) if every collection is legal: held, one type or one country,
    disjoint; else a ValueError naming the first illegal one."""
    answer = np.asarray(answer)
    if answer.ndim != 2 or answer.shape[0] != view.size or answer.dtype != np.uint64:
        raise ValueError(
            f"agent {agent.name!r} returned sales of shape {answer.shape} and type {answer.dtype}; "
            f"expected ({view.size}, S) uint64 collection masks"
        )
    if answer.shape[1] == 0:
        return answer
    present = answer != 0
    held = ((answer & ~view.holding[:, None]) == 0).all(axis=1)
    lines = (is_one_collection(answer) | ~present).all(axis=1)
    union = np.bitwise_or.reduce(answer, axis=1)
    disjoint = popcount(union) == popcount(answer).sum(axis=1)
    bad = ~(held & lines & disjoint)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        what = (
            "sells items it does not hold"
            if not held[row]
            else "a collection mixes types and countries"
            if not lines[row]
            else "an item is in two collections"
        )
        raise ValueError(
            f"agent {agent.name!r} made an illegal sale in game {int(game_numbers[row])}, seat "
            f"{int(view.seat[row])}: {what}; a sale is disjoint collections of held items, each "
            "sharing one type or one country"
        )
    return answer


def resolve_cups(bs: BatchState, bids: np.ndarray, recording: Recording | None) -> None:
    """Every cup of every game: most Bucks wins and pays; ties to the Auctioneer, else the
    tied seat nearest clockwise; no bids discards the lot."""
    rules = bs.rules
    n = rules.players
    G = bs.games
    rows = np.arange(G)
    top = bids.max(axis=1)  # (G, cups)
    priority = (np.arange(n)[None, :] - bs.auctioneer[:, None]) % n  # (G, n)
    tied = bids == top[:, None, :]
    ranked = np.where(tied, priority[:, :, None], n)
    winner = np.argmin(ranked, axis=1)  # (G, cups)
    sold = top > 0
    pays = np.zeros((G, n), np.int64)
    lots_won = np.zeros((G, n), np.int64)
    items_won = np.zeros((G, n), np.int64)
    lot_sizes = np.array(rules.lot_sizes)
    for cup in range(rules.cups):
        w = winner[:, cup]
        s = sold[:, cup]
        price = np.where(s, top[:, cup], 0)
        pays[rows, w] += price
        lots_won[rows, w] += s
        items_won[rows, w] += s * lot_sizes[cup]
        bs.holdings[rows, w] |= np.where(s, bs.lots[:, cup], np.uint64(0))
    bs.bucks -= pays
    bs.box += pays.sum(axis=1)
    bs.spent += pays
    bs.lots_won += lots_won
    bs.items_won += items_won
    if recording is not None:
        r = bs.rounds_done
        recording.bids[:, r] = bids
        recording.winners[:, r] = np.where(sold, winner, -1)
        recording.prices[:, r] = np.where(sold, top, 0)
        recording.spent[:, r] = pays
        recording.lots_won[:, r] = lots_won
        recording.items_won[:, r] = items_won


def apply_sales(
    bs: BatchState,
    sales: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
    recording: Recording | None,
) -> None:
    """Reveal and pay every seat's sale at once, then pass the Auctioneer clockwise."""
    rules = bs.rules
    values = np.array((0, *rules.collection_values), np.int64)
    width = max((answer.shape[1] for _, _, answer in sales), default=0)
    table = np.zeros((bs.games, rules.players, width), np.uint64)
    for games, seats, answer in sales:
        table[games, seats, : answer.shape[1]] = answer
    paid = values[popcount(table)].sum(axis=-1)
    made = (table != 0).sum(axis=-1)
    gone = np.bitwise_or.reduce(table, axis=-1) if width else np.zeros_like(bs.holdings)
    bs.holdings &= ~gone
    bs.sold |= gone
    bs.bucks += paid
    bs.box -= paid.sum(axis=1)
    bs.sales_made += made
    bs.sale_bucks += paid
    if recording is not None:
        r = bs.rounds_done
        recording.sales.append(_packed(table))
        recording.sales_made[:, r] = made
        recording.sale_bucks[:, r] = paid
        recording.bucks_after[:, r] = bs.bucks
        recording.holdings_after[:, r] = bs.holdings
        recording.score_after[:, r] = bs.bucks + batch_values(bs.holdings, rules.best_line_values)
    bs.rounds_done += 1
    bs.lots = None
    if not bs.is_over:
        bs.auctioneer = (bs.auctioneer + 1) % rules.players


def _packed(table: np.ndarray) -> np.ndarray:
    """Sales with the empty slots moved to the end (submission order kept), trimmed."""
    present = table != 0
    order = np.argsort(~present, axis=-1, kind="stable")
    packed = np.take_along_axis(table, order, axis=-1)
    width = int(present.sum(axis=-1).max(initial=0))
    return packed[..., :width]


def final_scores(bs: BatchState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(collection values, scores, ranks, win share) per game and seat; ties share the win."""
    values = batch_values(bs.holdings, bs.rules.best_line_values)
    scores = bs.bucks + values
    ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    winners = ranks == 1
    share = winners / winners.sum(axis=1, keepdims=True)
    return values, scores, ranks, share
