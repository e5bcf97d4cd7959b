"""The step-by-step Rubbish Auction engine (the readable reference): State, legal actions,
apply, observation, result, log. A round: the auctioneer plays ``Auction(item, first_bidder)``,
then each player in bidding order, having peeked at a card of the previous bidder, plays a
``Bid``; after the last bid the round resolves.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from workbench.checks import instance_or_default, is_whole_number, whole_entries, whole_number
from workbench.errors import IllegalAction
from workbench.games.rubbish.cards import Bid, BidTable, bid_table, peek_source, without
from workbench.games.rubbish.rules import Rules
from workbench.kit.seeding import SeedLike, generator
from workbench.kit.state import Evolving, standings


class _AuctionFields(NamedTuple):
    item: int
    first_bidder: int


class Auction(_AuctionFields):
    """The auctioneer's move: put ``item`` up and hand the First Bidder card to a seat (whole
    numbers, else a TypeError; whether they are legal is for ``State.apply``)."""

    __slots__ = ()

    def __new__(cls, item: int, first_bidder: int) -> Auction:
        return super().__new__(
            cls, whole_number("Auction item", item, allowed="a whole number (an item's number)"),
            whole_number("Auction first_bidder", first_bidder, allowed="a whole number (a seat)"),
        )  # fmt: skip


Action = Auction | Bid


class Peek(NamedTuple):
    """What a bidder saw of the previous bidder's cards before choosing: a blind pick among
    the ``"held_out"`` cards (2+ held out) or the ``"unused"`` ones; ``card`` None: nothing."""

    target: int
    card: int | None
    source: str


class Deal(NamedTuple):
    """The game's chance: who holds which geek, who starts, and the numbers behind the peeks."""

    geeks: tuple[int, ...]
    starting_auctioneer: int
    #: uniform [0, 1) numbers, [round][bidding position]; the peek at position j of round r is
    #: candidates[floor(u * len(candidates))]
    peek_uniforms: tuple[tuple[float, ...], ...]


class RoundRecord(NamedTuple):
    """A finished round, as every player saw it revealed."""

    round: int
    auctioneer: int
    item: int
    first_bidder: int
    order: tuple[int, ...]
    bids: tuple[Bid, ...]  # by seat
    winner: int
    cheapskate: int
    kept: bool  # False: the item was discarded (overspend)
    fame_before: tuple[int, ...]
    fame_after: tuple[int, ...]
    locked_next: tuple[int | None, ...]  # by seat: the card each cannot use next round

    def role(self, seat: int) -> str:
        """'winner', 'cheapskate' or 'gainer' (everyone else)."""
        if seat == self.winner:
            return "winner"
        return "cheapskate" if seat == self.cheapskate else "gainer"


class LogEntry(NamedTuple):
    """One line of the game log; ``text`` reads as a sentence."""

    round: int
    kind: str
    player: int | None
    text: str


class Result(NamedTuple):
    """Final standings. Ranks are 1 for the best; tied players share a rank."""

    scores: tuple[int, ...]
    fame: tuple[int, ...]
    items_won: tuple[int, ...]
    destined_won: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(slots=True)
class Observation:
    """Exactly what ``player`` may know: the public record plus their own geek and peek."""

    player: int
    rules: Rules
    round: int  # 1-based number of the round in progress (rounds + 1 once over)
    phase: str  # "auction", "bid" or "over"
    to_play: int | None
    auctioneer: int
    item: int | None
    first_bidder: int | None
    order: tuple[int, ...]
    held_out: tuple[int | None, ...]  # by seat: cards held out this round, None = not yet bid
    own_bid: Bid | None
    locked: tuple[int | None, ...]  # by seat: the card each cannot use this round
    fame: tuple[int, ...]
    items_won: tuple[tuple[int, ...], ...]
    discarded: tuple[int, ...]
    remaining: tuple[int, ...]
    cheapskate_counts: tuple[int, ...]
    history: tuple[RoundRecord, ...]
    geek: int
    peek: Peek | None

    @property
    def destined(self) -> tuple[int, ...]:
        """Items destined to this player's geek."""
        return self.rules.geeks[self.geek].destined

    def available(self, seat: int) -> tuple[int, ...]:
        """Money cards ``seat`` may use this round (public: everything but the locked card)."""
        locked = self.locked[_seat("seat", seat, self.rules.players)]
        cards = self.rules.money_cards
        return cards if locked is None else without(cards, (locked,))


class State(Evolving):
    """A Rubbish Auction position. ``apply`` returns a new State; this one never changes."""

    rules: Rules
    deal: Deal
    rounds_done: int
    auctioneer: int
    item: int | None
    first_bidder: int | None
    order: tuple[int, ...]
    bids: tuple[Bid, ...]  # this round, by bidding position
    peeks: tuple[Peek | None, ...]  # this round, by bidding position
    fame: tuple[int, ...]
    locked: tuple[int | None, ...]
    items_won: tuple[tuple[int, ...], ...]
    discarded: tuple[int, ...]
    remaining: tuple[int, ...]
    cheapskate_counts: tuple[int, ...]
    history: tuple[RoundRecord, ...]
    peek_history: tuple[tuple[Peek | None, ...], ...]  # private: each round's peeks, for the log
    _table: BidTable

    def __init__(self, rules: Rules, deal: Deal) -> None:
        players = rules.players
        self.rules, self.deal, self._table = rules, deal, bid_table(rules.money_cards)
        self.rounds_done, self.auctioneer = 0, deal.starting_auctioneer
        self.item = self.first_bidder = None
        self.order = self.bids = self.peeks = self.discarded = self.history = self.peek_history = ()
        self.fame = (rules.starting_fame,) * players
        self.locked = (None,) * players
        self.items_won = ((),) * players
        self.remaining = tuple(range(rules.rounds))
        self.cheapskate_counts = (0,) * players

    @property
    def round(self) -> int:
        """1-based number of the round in progress (``rules.rounds + 1`` once the game is over)."""
        return self.rounds_done + 1

    @property
    def is_over(self) -> bool:
        return not self.remaining

    @property
    def phase(self) -> str:
        if not self.remaining:
            return "over"
        return "auction" if self.item is None else "bid"

    @property
    def to_play(self) -> int | None:
        """The seat to act, or None once the game is over."""
        if not self.remaining:
            return None
        if self.item is None:
            return self.auctioneer
        return self.order[len(self.bids)]

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take (empty once the game is over)."""
        if not self.remaining:
            return []
        if self.item is None:
            return list(_auction_actions(self.remaining, len(self.fame)))
        position = len(self.bids)
        option = self._table.lock_option(self.locked[self.order[position]])
        return list(self._table.legal(option, self.rules.min_cards_at(position)))

    def available(self, seat: int) -> tuple[int, ...]:
        """Money cards ``seat`` may use this round."""
        seat = _seat("seat", seat, self.rules.players)
        return self._table.available[self._table.lock_option(self.locked[seat])]

    def observation(self, player: int) -> Observation:
        """What ``player`` knows now; never another player's geek or unrevealed cards."""
        player = _seat("player", player, self.rules.players)
        players = len(self.fame)
        own_bid = peek = None
        if self.item is None:
            phase, to_play = ("auction", self.auctioneer) if self.remaining else ("over", None)
            held_out: tuple[int | None, ...] = (None,) * players
        else:
            bids = self.bids
            phase, to_play = "bid", self.order[len(bids)]
            counts: list[int | None] = [None] * players
            for bidder, bid in zip(self.order, bids, strict=False):
                counts[bidder] = len(bid.cards)
            held_out = tuple(counts)
            position = (player - self.first_bidder) % players
            if position < len(bids):
                own_bid = bids[position]
            if position < len(self.peeks):
                peek = self.peeks[position]
        return Observation(
            player, self.rules, self.rounds_done + 1, phase, to_play, self.auctioneer, self.item,
            self.first_bidder, self.order, held_out, own_bid, self.locked, self.fame,
            self.items_won, self.discarded, self.remaining, self.cheapskate_counts, self.history,
            self.deal.geeks[player], peek,
        )  # fmt: skip

    def result(self) -> Result:
        """Final scores: fame plus the destined bonus; ties broken by items won, then shared."""
        if self.remaining:
            raise ValueError(
                f"the game is not over: round {self.round} of {self.rules.rounds} is in progress"
            )
        return score(self.rules, self.deal.geeks, self.fame, self.items_won)

    @property
    def log(self) -> list[LogEntry]:
        """The game so far as readable events: choices, peeks, reveals, fame changes, scoring.
        The full record, every seat's peeks included; ``log_for(seat)`` is one seat's view."""
        return list(_log_entries(self))

    def log_for(self, player: int | None) -> list[str]:
        """The log as lines of text, only what ``player`` saw (None: the full record)."""
        if player is not None:
            player = _seat("player", player, self.rules.players, none_too=True)
        return [
            entry.text
            for entry in _log_entries(self)
            if player is None or entry.kind != "peek" or entry.player == player
        ]

    def apply(self, action: Action) -> State:
        """The state after ``action``; raises IllegalAction (state unchanged) if not allowed."""
        if not self.remaining:
            raise IllegalAction(action, "the game is over")
        if self.item is None:
            return self._apply_auction(action)
        return self._apply_bid(action)

    def _apply_auction(self, action: Action) -> State:
        if not isinstance(action, Auction):
            raise IllegalAction(
                action,
                f"seat {self.auctioneer} must choose an Auction(item, first_bidder) to start "
                f"round {self.round}",
                self.legal_actions(),
            )
        item, first = action
        if not is_whole_number(item) or int(item) not in self.remaining:
            reason = f"item {item!r} is not up for auction (remaining: {list(self.remaining)})"
            raise IllegalAction(action, reason, self.legal_actions())
        if not (is_whole_number(first) and 0 <= first < len(self.fame)):
            reason = f"first_bidder must be a seat 0–{len(self.fame) - 1}"
            raise IllegalAction(action, reason, self.legal_actions())
        item, first = int(item), int(first)
        players = len(self.fame)
        order = tuple((first + offset) % players for offset in range(players))
        return self._evolve(item=item, first_bidder=first, order=order, bids=(), peeks=(None,))

    def _apply_bid(self, action: Action) -> State:
        position = len(self.bids)
        player = self.order[position]
        option = self._table.lock_option(self.locked[player])
        fewest = self.rules.min_cards_at(position)
        if not isinstance(action, Bid):
            raise IllegalAction(
                action, f"seat {player} must play a Bid(cards) for item {self.item}",
                self._table.legal(option, fewest),
            )  # fmt: skip
        index = self._table.index[option].get(action)
        if index is None or index < fewest:
            raise IllegalAction(
                action, self._bid_problem(player, position, action),
                self._table.legal(option, fewest),
            )  # fmt: skip
        action = self._table.bids[option][index]  # the canonical Bid, plain ints
        bids = (*self.bids, action)
        if len(bids) < len(self.order):
            peek = self._peek(position + 1, player, action)
            return self._evolve(bids=bids, peeks=(*self.peeks, peek))
        return self._resolve(bids)

    def _bid_problem(self, player: int, position: int, bid: Bid) -> str:
        available = self.available(player)
        try:
            without(available, bid.cards)
        except ValueError:
            locked = self.locked[player]
            lock_note = f" ({locked} is locked this round)" if locked is not None else ""
            return (
                f"seat {player} cannot hold out {list(bid.cards)} from {list(available)}{lock_note}"
            )
        role = "the First Bidder" if position == 0 else "a later bidder"
        return (
            f"seat {player} bids as {role} and must hold out at least "
            f"{self.rules.min_cards_at(position)} card(s) (bid_minimum "
            f"{self.rules.bid_minimum!r})"
        )

    def _peek(self, position: int, target: int, bid: Bid) -> Peek:
        option = self._table.lock_option(self.locked[target])
        sights = peek_sights(self.rules.money_cards, option, target, bid)
        return sights[int(self.deal.peek_uniforms[self.rounds_done][position] * len(sights))]

    def _resolve(self, bids: tuple[Bid, ...]) -> State:
        rules = self.rules
        order = self.order
        totals = [bid.total for bid in bids]
        best, worst = max(totals), min(totals)
        winner_position = totals.index(best)  # ties: closest to the First Bidder
        cheapskate_position = len(totals) - 1 - totals[::-1].index(worst)  # ties: farthest
        winner, cheapskate = order[winner_position], order[cheapskate_position]
        fame = list(self.fame)
        locked: list[int | None] = [None] * len(fame)
        kept = True
        for position, (seat, bid) in enumerate(zip(order, bids, strict=True)):
            if position == cheapskate_position:
                continue
            locked[seat] = bid.highest
            if position == winner_position:
                fame[seat] -= bid.total
                if fame[seat] < 0:
                    fame[seat] = 0
                    kept = rules.overspend == "keep"
            else:
                fame[seat] += bid.total
        by_seat: list[Bid] = [bids[0]] * len(fame)
        for seat, bid in zip(order, bids, strict=True):
            by_seat[seat] = bid
        record = RoundRecord(
            round=self.round, auctioneer=self.auctioneer, item=self.item,
            first_bidder=self.first_bidder, order=order, bids=tuple(by_seat), winner=winner,
            cheapskate=cheapskate, kept=kept, fame_before=self.fame, fame_after=tuple(fame),
            locked_next=tuple(locked),
        )  # fmt: skip
        items_won = self.items_won
        discarded = self.discarded
        if kept:
            items_won = tuple(
                (*won, self.item) if seat == winner else won for seat, won in enumerate(items_won)
            )
        else:
            discarded = (*discarded, self.item)
        counts = list(self.cheapskate_counts)
        counts[cheapskate] += 1
        return self._evolve(
            rounds_done=self.rounds_done + 1, auctioneer=cheapskate, item=None,
            first_bidder=None, order=(), bids=(), peeks=(), fame=tuple(fame),
            locked=tuple(locked), items_won=items_won, discarded=discarded,
            remaining=tuple(item for item in self.remaining if item != self.item),
            cheapskate_counts=tuple(counts), history=(*self.history, record),
            peek_history=(*self.peek_history, self.peeks),
        )  # fmt: skip

    def __repr__(self) -> str:
        if self.is_over:
            return f"<rubbish State: over, fame {list(self.fame)}>"
        return (
            f"<rubbish State: round {self.round}/{self.rules.rounds}, {self.phase}, "
            f"seat {self.to_play} to play, fame {list(self.fame)}>"
        )


def check_observation(observation: object, name: str = "observation") -> None:
    """A rubbish Observation whose seat, geek and rules are consistent (an edited one may not
    be: ``dataclasses.replace(observation, geek=99)``); a TypeError or ValueError otherwise."""
    if not isinstance(observation, Observation):
        raise TypeError(
            f"{name} must be a rubbish Observation (state.observation(seat)), got "
            f"{type(observation).__name__}"
        )
    if not isinstance(observation.rules, Rules):
        raise TypeError(
            f"{name}.rules must be a rubbish Rules, got {type(observation.rules).__name__}"
        )
    players, geeks = observation.rules.players, len(observation.rules.geeks)
    whole_number(f"{name}.player", observation.player, low=0, high=players - 1)
    whole_number(f"{name}.geek", observation.geek, low=0, high=geeks - 1)
    if observation.phase not in ("auction", "bid", "over"):
        raise ValueError(
            f"{name}.phase must be 'auction', 'bid' or 'over', got {observation.phase!r}"
        )


def _seat(name: str, value: object, players: int, *, none_too: bool = False) -> int:
    """``value`` as a seat number 0..players-1, else a TypeError or ValueError."""
    allowed = f"a seat 0–{players - 1}" + (" or None" if none_too else "")
    return whole_number(name, value, low=0, high=players - 1, allowed=allowed)


@functools.lru_cache(maxsize=4096)
def peek_sights(money: tuple[int, ...], option: int, target: int, bid: Bid) -> tuple[Peek, ...]:
    """What the blind peek at ``target``'s ``bid`` (under lock ``option``) can show, one entry
    per physical card it may fall on, all equally likely (``cards.peek_pool``)."""
    pool = bid_table(money).unused[option][bid] if len(bid.cards) < 2 else bid.cards
    source = peek_source(len(bid.cards))
    return tuple(Peek(target, card, source) for card in pool) or (Peek(target, None, source),)


@functools.lru_cache(maxsize=4096)
def _auction_actions(remaining: tuple[int, ...], players: int) -> tuple[Auction, ...]:
    """Every Auction(item, first_bidder), items in order, then seats (the order agents share)."""
    return tuple(Auction(item, seat) for item in remaining for seat in range(players))


def score(
    rules: Rules, geeks: tuple[int, ...], fame: tuple[int, ...],
    items_won: tuple[tuple[int, ...], ...],
) -> Result:  # fmt: skip
    """Final standings from end-of-play fame and items: the rulebook's scoring and tie-breaks."""
    destined_won = tuple(
        sum(item in rules.geeks[geek].destined for item in won)
        for geek, won in zip(geeks, items_won, strict=True)
    )
    scores = tuple(f + rules.destined_bonus * d for f, d in zip(fame, destined_won, strict=True))
    counts = tuple(len(won) for won in items_won)
    keys = list(zip(scores, counts, strict=True))
    ranks, winners = standings(keys)
    return Result(scores, tuple(fame), counts, destined_won, ranks, winners)


def new_game(
    rules: Rules | None = None, *, seed: SeedLike, geeks: Sequence[int] | None = None,
    starting_auctioneer: int | str | None = None,
) -> State:  # fmt: skip
    """A new game. Same rules and seed -> same game; ``geeks`` (a geek index per seat) and
    ``starting_auctioneer`` (a seat, or "random": drawn from the seed) override the seeded
    deal and the rules' start, e.g. to set up a situation to study."""
    rules = instance_or_default("rules", rules, Rules, Rules, "a rubbish Rules or None")
    rng = generator(seed)
    dealt = tuple(int(g) for g in rng.permutation(len(rules.geeks))[: rules.players])
    random_start = int(rng.integers(rules.players))
    uniforms = tuple(map(tuple, rng.random((rules.rounds, rules.players)).tolist()))
    geeks = dealt if geeks is None else _dealt_geeks(geeks, rules)
    if starting_auctioneer is None:
        starting_auctioneer = rules.starting_auctioneer
    if isinstance(starting_auctioneer, str) and starting_auctioneer == "random":
        start = random_start
    else:
        start = whole_number(
            "starting_auctioneer", starting_auctioneer, low=0, high=rules.players - 1,
            allowed=f"a seat 0–{rules.players - 1}, 'random' or None (the rules' choice)",
        )  # fmt: skip
    return State(rules, Deal(geeks, start, uniforms))


def _dealt_geeks(geeks: object, rules: Rules) -> tuple[int, ...]:
    """``geeks`` checked: one distinct geek number per seat."""
    allowed = f"{rules.players} distinct geek numbers from 0–{len(rules.geeks) - 1}, one per seat"

    def error(given: object, bad: list[object] | None) -> str:
        shown = given if bad is None else bad[0]
        return f"geeks must give {allowed}; got {shown!r} ({type(shown).__name__})"

    given = whole_entries(geeks, error)
    if (
        len(given) != rules.players
        or len(set(given)) != len(given)
        or not all(0 <= g < len(rules.geeks) for g in given)
    ):
        raise ValueError(f"geeks must give {allowed}; got {given!r}")
    return tuple(int(g) for g in given)


def _log_entries(state: State) -> Iterator[LogEntry]:
    rules = state.rules
    for record, peeks in zip(state.history, state.peek_history, strict=True):
        yield _auction_entry(rules, record)
        bids_in_order = [record.bids[seat] for seat in record.order]
        yield from _bidding(record.round, record.order, bids_in_order, peeks)
        yield from _reveal(rules, record)
    if state.item is not None:
        yield _auction_entry(rules, state)
        yield from _bidding(state.round, state.order, state.bids, state.peeks)
    if state.is_over:
        result = state.result()
        for seat, geek in enumerate(state.deal.geeks):
            destined = rules.geeks[geek].destined
            won = [rules.items[item] for item in state.items_won[seat] if item in destined]
            text = (
                f"seat {seat} reveals geek {rules.geeks[geek].name}: destined items won "
                f"{won or 'none'}, +{rules.destined_bonus * len(won)} fame -> {result.scores[seat]}"
            )
            yield LogEntry(rules.rounds, "geek", seat, text)
        names = ", ".join(f"seat {seat}" for seat in result.winners)
        shared = " (shared victory)" if len(result.winners) > 1 else ""
        yield LogEntry(
            rules.rounds, "end", None, f"winner: {names}{shared}; scores {list(result.scores)}"
        )


def _auction_entry(rules: Rules, at: RoundRecord | State) -> LogEntry:
    """The auctioneer's choice ``at`` a round's record or a State in the round."""
    text = (
        f"round {at.round}: seat {at.auctioneer} auctions {rules.items[at.item]} (item "
        f"{at.item}) and names seat {at.first_bidder} First Bidder"
    )
    return LogEntry(at.round, "auction", at.auctioneer, text)


def _bidding(
    round_number: int, order: tuple[int, ...], bids: tuple[Bid, ...] | list[Bid],
    peeks: tuple[Peek | None, ...],
) -> Iterator[LogEntry]:  # fmt: skip
    # The bidder to play has already peeked: its peek is shown before its bid is made.
    for position in range(max(len(bids), len(peeks))):
        seat = order[position]
        peek = peeks[position] if position < len(peeks) else None
        if peek is not None:
            where = "held-out cards" if peek.source == "held_out" else "unused cards"
            seen = "nothing to see" if peek.card is None else f"a {peek.card}"
            text = f"seat {seat} peeks blind at one of seat {peek.target}'s {where}: {seen}"
            yield LogEntry(round_number, "peek", seat, text)
        if position < len(bids):
            count = bids[position].count
            noun = "card" if count == 1 else "cards"
            yield LogEntry(round_number, "bid", seat, f"seat {seat} holds out {count} {noun}")


def _reveal(rules: Rules, record: RoundRecord) -> Iterator[LogEntry]:
    r = record.round
    shown = ", ".join(f"seat {seat} {record.bids[seat]}" for seat in record.order)
    yield LogEntry(r, "reveal", None, f"reveal: {shown}")
    item = rules.items[record.item]
    w, c = record.winner, record.cheapskate
    before, after = record.fame_before, record.fame_after
    if record.kept:
        text = f"seat {w} wins {item} for {record.bids[w].total}: fame {before[w]} -> {after[w]}"
        yield LogEntry(r, "win", w, text)
    else:
        text = (
            f"seat {w} bids highest ({record.bids[w].total}) but fame cannot go below 0: "
            f"fame {before[w]} -> 0 and {item} is discarded"
        )
        yield LogEntry(r, "discard", w, text)
    text = f"seat {c} is the cheapskate ({record.bids[c].total}): no fame change, takes the "
    yield LogEntry(r, "cheapskate", c, text + "Next Auctioneer card")
    for seat in record.order:
        if seat not in (w, c):
            text = f"seat {seat} gains {record.bids[seat].total}: fame {before[seat]} -> "
            yield LogEntry(r, "gain", seat, text + str(after[seat]))
    for seat in record.order:
        if record.locked_next[seat] is not None:
            text = f"seat {seat} locks their {record.locked_next[seat]} for round {r + 1}"
            yield LogEntry(r, "lock", seat, text)
