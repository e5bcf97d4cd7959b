"""The step-by-step Going, Going, GONE! engine: State, legal actions, apply, observation, result.

A round: the lots are dealt face up; every player, clockwise from the Auctioneer, submits a
sealed ``Allocation`` and the cups resolve once all are in; then every player holding items, in
the same order, puts collections into a sealed sale (``Sell``, then ``DoneSelling()``); the
sales are revealed and paid together, and the Auctioneer passes clockwise.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from workbench.checks import instance_or_default, whole_entries
from workbench.errors import IllegalAction
from workbench.games.going_gone.actions import (
    Action,
    Allocation,
    Allocations,
    DoneSelling,
    Sell,
    allocation_problem,
    budget_of,
    collection_problem,
    line_collections,
)
from workbench.games.going_gone.arrangement import best_value
from workbench.games.going_gone.holdings import mask_of
from workbench.games.going_gone.rules import Rules, is_whole_number
from workbench.kit.seeding import SeedLike, generator
from workbench.kit.state import Evolving, fields_of, standings


class Deal(NamedTuple):
    """The game's chance: the order of the deck and the first Auctioneer."""

    deck: tuple[int, ...]
    first_auctioneer: int


class RoundRecord(NamedTuple):
    """A finished round: the full record (what a finished table shows)."""

    round: int
    auctioneer: int
    lots: tuple[tuple[int, ...], ...]
    bids: tuple[Allocation, ...]  # by seat
    winners: tuple[int | None, ...]  # by cup; None: nobody bid, the lot is discarded
    prices: tuple[int, ...]  # by cup; 0 when discarded
    sales: tuple[tuple[tuple[int, ...], ...], ...]  # by seat: the collections sold
    bucks_after: tuple[int, ...]  # after the sales
    holdings_after: tuple[tuple[int, ...], ...]


class Result(NamedTuple):
    """Final standings. Ranks are 1 for the best; tied players share a rank and the win."""

    scores: tuple[int, ...]
    bucks: tuple[int, ...]
    collection_values: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


class SeatView(NamedTuple):
    """What a seat's compiled policy reads (``State.view``, ``Observation.view``): its items
    and, while bidding, the lots and (open collections) every item held or sold, as masks; its
    budget and Bucks, the rounds after this one, the collections in its sealed sale."""

    rules: Rules
    phase: str
    holding: int
    lots: tuple[int, ...]
    seen: int
    budget: int
    bucks: int
    rounds_left: int
    pending: int


def seat_view(
    rules: Rules, phase: str, round_: int, lots: Sequence[Sequence[int]], bucks: int,
    holding: Sequence[int], pending: Sequence[Sequence[int]],
    holdings: Sequence[Sequence[int] | None], sold: Sequence[Sequence[Sequence[int]] | None],
) -> SeatView:  # fmt: skip
    """A seat's ``SeatView`` from what it knows (``holdings`` and ``sold`` are read only with
    open collections, where the seat sees every seat's)."""
    seen, lot_masks = 0, ()
    if phase == "bid":
        lot_masks = tuple(mask_of(rules, lot) for lot in lots)
        if rules.open_collections:
            for held, sales in zip(holdings, sold, strict=True):
                seen |= mask_of(rules, held) | mask_of(rules, [i for c in sales for i in c])
    budget = budget_of(rules, bucks)
    return SeatView(rules, phase, mask_of(rules, holding), lot_masks, seen, budget, bucks,
                    rules.rounds - round_, len(pending))  # fmt: skip


@dataclass(slots=True)
class Observation:
    """Exactly what ``player`` may know (docs/rules.md, "what a player sees"): other seats'
    ``holdings`` and ``sold`` are None unless collections are open."""

    player: int
    rules: Rules
    round: int  # 1-based round in progress (rounds + 1 once over)
    phase: str  # "bid", "sell" or "over"
    to_play: int | None
    auctioneer: int
    lots: tuple[tuple[int, ...], ...]
    bucks: tuple[int, ...]
    item_counts: tuple[int, ...]
    holding: tuple[int, ...]
    own_bids: Allocation | None
    pending_sale: tuple[tuple[int, ...], ...]
    holdings: tuple[tuple[int, ...] | None, ...]
    sold: tuple[tuple[tuple[int, ...], ...] | None, ...]

    @property
    def budget(self) -> int:
        """Most Bucks this player can put in the cups now."""
        return budget_of(self.rules, self.bucks[self.player])

    @property
    def unsold(self) -> tuple[int, ...]:
        """Own items not yet put in this round's sale."""
        pending = {item for collection in self.pending_sale for item in collection}
        return tuple(item for item in self.holding if item not in pending)

    def view(self) -> SeatView:
        """What this player's compiled policy reads (``SeatView``)."""
        return seat_view(self.rules, self.phase, self.round, self.lots, self.bucks[self.player],
                         self.holding, self.pending_sale, self.holdings, self.sold)  # fmt: skip


class State(Evolving):
    """A Going, Going, GONE! position. ``apply`` returns a new State; this one never changes."""

    rules: Rules
    deal: Deal
    rounds_done: int
    auctioneer: int
    phase: str
    lots: tuple[tuple[int, ...], ...]
    bucks: tuple[int, ...]
    holdings: tuple[tuple[int, ...], ...]
    box: int  # Bucks paid into the box minus Bucks the box paid for sales
    bids: tuple[Allocation | None, ...]  # this round, by seat (sealed until all are in)
    sellers: tuple[int, ...]  # this round's sale phase: seats holding items, in turn order
    pending: tuple[tuple[tuple[int, ...], ...], ...]  # sealed sales so far, by seat
    done: tuple[bool, ...]
    discarded: tuple[int, ...]
    sold: tuple[tuple[tuple[int, ...], ...], ...]  # every collection each seat has sold
    history: tuple[RoundRecord, ...]
    _cup_results: tuple[tuple[int | None, ...], tuple[int, ...]] | None

    def __init__(self, rules: Rules, deal: Deal) -> None:
        players = rules.players
        self.rules, self.deal = rules, deal
        self.rounds_done = self.box = 0
        self.auctioneer = deal.first_auctioneer
        self.phase = "bid"
        self.lots = _lots(rules, deal.deck, 0)
        self.bucks = (rules.starting_bucks,) * players
        self.holdings = self.pending = self.sold = ((),) * players
        self.bids = (None,) * players
        self.done = (False,) * players
        self.sellers = self.discarded = self.history = ()
        self._cup_results = None

    @property
    def round(self) -> int:
        """1-based number of the round in progress (``rules.rounds + 1`` once the game is over)."""
        return self.rounds_done + 1

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def turn_order(self) -> tuple[int, ...]:
        """Seats clockwise from the Auctioneer (who submits first; who wins ties first)."""
        return _order(self.rules, self.auctioneer)

    @property
    def to_play(self) -> int | None:
        """The seat to act, or None once the game is over."""
        if self.phase == "bid":
            return next(seat for seat in self.turn_order if self.bids[seat] is None)
        if self.phase == "sell":
            return next(seat for seat in self.sellers if not self.done[seat])
        return None

    def budget(self, seat: int) -> int:
        """Most Bucks ``seat`` can put in the cups now: min(Bucks, cube limit)."""
        return budget_of(self.rules, self.bucks[self._seat(seat)])

    def unsold(self, seat: int) -> tuple[int, ...]:
        """Items ``seat`` holds that are not in its sealed sale of this round."""
        seat = self._seat(seat)
        pending = {item for collection in self.pending[seat] for item in collection}
        return tuple(item for item in self.holdings[seat] if item not in pending)

    def legal_actions(self) -> Sequence[Action]:
        """The actions the player to act may take: a lazy ``Allocations`` sequence while
        bidding; ``DoneSelling()`` then every collection it could still sell while selling;
        empty once the game is over."""
        if self.phase == "bid":
            return Allocations(self.budget(self.to_play), self.rules.cups)
        if self.phase == "sell":
            seat = self.to_play
            return [DoneSelling()] + [
                Sell(c) for c in line_collections(self.rules, self.unsold(seat))
            ]
        return []

    def observation(self, player: int) -> Observation:
        """What ``player`` knows now; never another seat's sealed bids or sales, nor (unless
        collections are open) another seat's items."""
        player = self._seat(player, name="player")
        open_ = self.rules.open_collections
        return Observation(
            **fields_of(self, "rules", "round", "phase", "to_play", "auctioneer", "lots", "bucks"),
            player=player,
            item_counts=tuple(len(h) for h in self.holdings),
            holding=self.holdings[player],
            own_bids=self.bids[player] if self.phase != "over" else None,
            pending_sale=self.pending[player],
            holdings=tuple(
                h if open_ or seat == player else None for seat, h in enumerate(self.holdings)
            ),
            sold=tuple(s if open_ or seat == player else None for seat, s in enumerate(self.sold)),
        )

    def view(self, player: int) -> SeatView:
        """What ``player``'s compiled policy reads (``SeatView``), built without the
        Observation: ``observation(player).view()``, cheaper."""
        player = self._seat(player, name="player")
        return seat_view(self.rules, self.phase, self.round, self.lots, self.bucks[player],
                         self.holdings[player], self.pending[player], self.holdings,
                         self.sold)  # fmt: skip

    def result(self) -> Result:
        """Final standings: Bucks plus the best arrangement of the items held; ties share."""
        if self.phase != "over":
            raise ValueError(
                f"the game is not over: round {self.round} of {self.rules.rounds} is in progress"
            )
        return score(self.rules, self.bucks, self.holdings)

    @property
    def log(self) -> list[str]:
        """The full record as lines of text (``log_for(None)``)."""
        return self.log_for(None)

    def log_for(self, player: int | None) -> list[str]:
        """The game so far as lines of text, only what ``player`` saw (own bids, own wins, own
        sales; other seats' Bucks and item counts; with open collections also who won what and
        who sold what); ``None``: the full record, every bid included."""
        if player is not None:
            player = self._seat(player, name="player")
        return list(_log_lines(self, player))

    def apply(self, action: Action) -> State:
        """The state after ``action``; raises IllegalAction (state unchanged) if not allowed."""
        if self.phase == "over":
            raise IllegalAction(action, "the game is over")
        if self.phase == "bid":
            return self._apply_allocation(action)
        return self._apply_sale(action)

    def _apply_allocation(self, action: Action) -> State:
        seat = self.to_play
        budget = self.budget(seat)
        problem = allocation_problem(action, budget, self.rules.cups)
        if problem is not None:
            limit = "" if self.rules.cube_limit is None else f", cube limit {self.rules.cube_limit}"
            raise IllegalAction(
                action,
                f"seat {seat} must submit an Allocation of whole Bucks over {self.rules.cups} "
                f"cups totalling at most {budget} (Bucks {self.bucks[seat]}{limit}): {problem}",
                Allocations(budget, self.rules.cups)[:3],
            )
        bids = list(self.bids)
        bids[seat] = Allocation(tuple(int(b) for b in action.bids))
        if any(b is None for b in bids):
            return self._evolve(bids=tuple(bids))
        return self._resolve_cups(tuple(bids))

    def _resolve_cups(self, bids: tuple[Allocation, ...]) -> State:
        order = self.turn_order
        bucks = list(self.bucks)
        holdings = [list(h) for h in self.holdings]
        winners: list[int | None] = []
        prices: list[int] = []
        discarded = list(self.discarded)
        box = self.box
        for cup, lot in enumerate(self.lots):
            top = max(bids[seat].bids[cup] for seat in order)
            if top == 0:
                winners.append(None)
                prices.append(0)
                discarded.extend(lot)
                continue
            winner = next(seat for seat in order if bids[seat].bids[cup] == top)
            winners.append(winner)
            prices.append(top)
            bucks[winner] -= top
            box += top
            holdings[winner].extend(lot)
        holdings_sorted = tuple(tuple(sorted(h)) for h in holdings)
        state = self._evolve(
            bids=bids,
            bucks=tuple(bucks),
            holdings=holdings_sorted,
            box=box,
            discarded=tuple(discarded),
            _cup_results=(tuple(winners), tuple(prices)),
        )
        sellers = tuple(seat for seat in order if holdings_sorted[seat])
        if not sellers:
            return state._finish_round()
        n = self.rules.players
        return state._evolve(phase="sell", sellers=sellers, pending=((),) * n, done=(False,) * n)

    def _apply_sale(self, action: Action) -> State:
        seat = self.to_play
        if isinstance(action, DoneSelling):
            done = list(self.done)
            done[seat] = True
            state = self._evolve(done=tuple(done))
            if all(done[s] for s in self.sellers):
                return state._reveal_sales()
            return state
        if not isinstance(action, Sell):
            raise IllegalAction(
                action,
                f"seat {seat} is selling: play Sell(collection) with item ids sharing a type or a "
                "country, or DoneSelling()",
                self.legal_actions()[:12],
            )
        problem = collection_problem(self.rules, action.collection, self.unsold(seat))
        if problem is not None:
            raise IllegalAction(
                action, f"seat {seat} cannot sell that: {problem}", self.legal_actions()[:12]
            )
        collection = tuple(sorted(int(i) for i in action.collection))
        pending = list(self.pending)
        pending[seat] = (*pending[seat], collection)
        return self._evolve(pending=tuple(pending))

    def _reveal_sales(self) -> State:
        bucks = list(self.bucks)
        holdings = list(self.holdings)
        sold = list(self.sold)
        box = self.box
        for seat, collections in enumerate(self.pending):
            if not collections:
                continue
            paid = sum(self.rules.sale_value(len(c)) for c in collections)
            bucks[seat] += paid
            box -= paid
            gone = {item for c in collections for item in c}
            holdings[seat] = tuple(item for item in holdings[seat] if item not in gone)
            sold[seat] = (*sold[seat], *collections)
        return self._evolve(
            bucks=tuple(bucks), holdings=tuple(holdings), sold=tuple(sold), box=box
        )._finish_round()

    def _finish_round(self) -> State:
        winners, prices = self._cup_results
        record = RoundRecord(
            round=self.round,
            auctioneer=self.auctioneer,
            lots=self.lots,
            bids=self.bids,
            winners=winners,
            prices=prices,
            sales=self.pending,
            bucks_after=self.bucks,
            holdings_after=self.holdings,
        )
        rounds_done = self.rounds_done + 1
        n = self.rules.players
        over = rounds_done >= self.rules.rounds
        return self._evolve(
            rounds_done=rounds_done,
            auctioneer=self.auctioneer if over else (self.auctioneer + 1) % n,
            phase="over" if over else "bid",
            lots=() if over else _lots(self.rules, self.deal.deck, rounds_done),
            bids=(None,) * n,
            sellers=(),
            pending=((),) * n,
            done=(False,) * n,
            history=(*self.history, record),
            _cup_results=None,
        )

    def _seat(self, seat: object, name: str = "seat") -> int:
        if not (is_whole_number(seat) and 0 <= seat < self.rules.players):
            raise ValueError(f"{name} must be a seat 0–{self.rules.players - 1}, got {seat!r}")
        return int(seat)

    def __repr__(self) -> str:
        if self.is_over:
            return f"<going_gone State: over, Bucks {list(self.bucks)}>"
        return (
            f"<going_gone State: round {self.round}/{self.rules.rounds}, {self.phase}, "
            f"seat {self.to_play} to play, Bucks {list(self.bucks)}>"
        )


def _lots(rules: Rules, deck: tuple[int, ...], round_index: int) -> tuple[tuple[int, ...], ...]:
    """The lots of round ``round_index`` (0-based): the next cards of the deck, in cup order."""
    start = round_index * rules.items_per_round
    lots = []
    for size in rules.lot_sizes:
        lots.append(tuple(sorted(deck[start : start + size])))
        start += size
    return tuple(lots)


def score(rules: Rules, bucks: Sequence[int], holdings: Sequence[Sequence[int]]) -> Result:
    """Final standings: Bucks plus the exact best arrangement of each holding; ties share."""
    values = tuple(best_value(mask_of(rules, h), rules.best_line_values) for h in holdings)
    scores = tuple(b + v for b, v in zip(bucks, values, strict=True))
    ranks, winners = standings(scores)
    return Result(scores, tuple(bucks), values, ranks, winners)


def new_game(
    rules: Rules | None = None, *, seed: SeedLike, deck: Sequence[int] | None = None,
    first_auctioneer: int | None = None,
) -> State:  # fmt: skip
    """A new game. Same rules and seed -> same game; ``deck`` (an order of all item ids) and
    ``first_auctioneer`` override the seeded deal, e.g. to replay or set up a situation."""
    rules = instance_or_default("rules", rules, Rules, Rules, "a going_gone Rules or None")
    rng = generator(seed)
    shuffled = tuple(int(i) for i in rng.permutation(len(rules.items)))
    random_start = int(rng.integers(rules.players))
    deck = shuffled if deck is None else _dealt_deck(deck, len(rules.items))
    if first_auctioneer is None:
        start = random_start if rules.first_auctioneer == "random" else rules.first_auctioneer
    elif is_whole_number(first_auctioneer) and 0 <= first_auctioneer < rules.players:
        start = int(first_auctioneer)
    else:
        raise ValueError(
            f"first_auctioneer must be a seat 0–{rules.players - 1}, got {first_auctioneer!r}"
        )
    return State(rules, Deal(deck, start))


def _dealt_deck(deck: object, items: int) -> tuple[int, ...]:
    """``deck`` as plain ints if it orders every item id once; a TypeError or ValueError saying
    what is wrong otherwise."""
    allowed = f"deck must order every item id 0–{items - 1} exactly once"

    def error(given: object, bad: list[object] | None) -> str:
        shown = given if bad is None else bad[0]
        return f"{allowed}; got {shown!r} ({type(shown).__name__})"

    given = tuple(int(i) for i in whole_entries(deck, error))
    if sorted(given) != list(range(items)):
        raise ValueError(f"{allowed}; got {len(given)} entries")
    return given


def _names(rules: Rules, items: Sequence[int]) -> str:
    return ", ".join(rules.item_name(i) for i in items) or "nothing"


def _log_lines(state: State, player: int | None) -> Iterator[str]:
    rules = state.rules
    full = player is None
    sees_all = full or rules.open_collections
    for record in state.history:
        yield _round_line(rules, record.round, record.auctioneer, record.lots)
        for seat in _order(rules, record.auctioneer):
            if full or seat == player:
                yield f"seat {seat} bids {list(record.bids[seat].bids)}"
        for cup, (lot, winner, price) in enumerate(
            zip(record.lots, record.winners, record.prices, strict=True), start=1
        ):
            if winner is None:
                if full:
                    yield f"cup {cup} ({_names(rules, lot)}): no bids, discarded"
                continue
            if full:
                yield f"cup {cup} ({_names(rules, lot)}): seat {winner} wins for {price}"
            elif winner == player:
                yield f"cup {cup} ({_names(rules, lot)}): you win for {price}"
            elif sees_all:
                yield f"cup {cup} ({_names(rules, lot)}): seat {winner} wins"
        for seat, collections in enumerate(record.sales):
            if collections and (sees_all or seat == player):
                shown = "; ".join(_names(rules, c) for c in collections)
                paid = sum(rules.sale_value(len(c)) for c in collections)
                yield f"seat {seat} sells {shown} for {paid}"
        counts = [len(h) for h in record.holdings_after]
        yield (f"after round {record.round}: Bucks {list(record.bucks_after)}, items held {counts}")
    if state.phase != "over":
        yield _round_line(rules, state.round, state.auctioneer, state.lots)
        for seat in _order(rules, state.auctioneer):
            if state.bids[seat] is not None and (full or seat == player):
                yield f"seat {seat} bids {list(state.bids[seat].bids)} (sealed)"
        for seat, collections in enumerate(state.pending):
            if collections and (full or seat == player):
                shown = "; ".join(_names(rules, c) for c in collections)
                yield f"seat {seat} puts {shown} in its sale (sealed)"
        return
    result = state.result()
    for seat in range(rules.players):
        if sees_all or seat == player:
            yield (
                f"seat {seat} holds {_names(rules, state.holdings[seat])}: collections worth "
                f"{result.collection_values[seat]}, score {result.scores[seat]}"
            )
        else:
            yield f"seat {seat}: score {result.scores[seat]}"
    names = ", ".join(f"seat {seat}" for seat in result.winners)
    shared = " (shared win)" if len(result.winners) > 1 else ""
    yield f"winner: {names}{shared}; scores {list(result.scores)}"


def _order(rules: Rules, auctioneer: int) -> tuple[int, ...]:
    return tuple((auctioneer + k) % rules.players for k in range(rules.players))


def _round_line(rules: Rules, number: int, auctioneer: int, lots: tuple) -> str:
    shown = "; ".join(f"cup {cup}: {_names(rules, lot)}" for cup, lot in enumerate(lots, start=1))
    return f"round {number}: seat {auctioneer} is the Auctioneer and deals {shown}"
