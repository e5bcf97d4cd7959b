"""The step-by-step Auction House engine: State, legal actions, apply, observation, result, log.

A deal: ten cards each; the auction phase (each seat from the dealer's left may start the one
auction of the deal or pass; the starter's face-up card and called suit, three face-down
offers revealed together, the forced or free take, the swap); every seat puts one card face
down into the kitty; the trump card is turned (before the auction under the house rule); nine
tricks; the seat with most tricks scores the kitty, a tie carries it over (and loses it in the
last deal). Hands are 40-bit masks (see ``cards``); actions name cards in notation people read.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from workbench.errors import IllegalAction
from workbench.games.auction_house.cards import (
    DECK,
    POINTS,
    SUIT_NAMES,
    SUIT_SIZE,
    SUITS,
    TRUMP_DECK,
    card_index,
    suit_index,
    winning_position,
)
from workbench.games.auction_house.rules import PLAYERS, TRICKS, Rules
from workbench.kit.seeding import SeedLike, generator

# -- actions ------------------------------------------------------------------------------------


class Pass(NamedTuple):
    """Decline to start the auction."""


class Start(NamedTuple):
    """Start the auction: put ``card`` face up and call ``suit`` (not the card's own suit)."""

    card: str
    suit: str


class Offer(NamedTuple):
    """Put ``card`` face down as an offer to the auction's starter."""

    card: str


class Take(NamedTuple):
    """The starter's free choice among the offered cards (when none is of the called suit)."""

    card: str


class Kitty(NamedTuple):
    """Put ``card`` face down into the kitty."""

    card: str


class Play(NamedTuple):
    """Play ``card`` to the trick."""

    card: str


Action = Pass | Start | Offer | Take | Kitty | Play
PHASES = ("auction", "offer", "take", "kitty", "play", "over")
_ACTION_OF_PHASE = {"offer": Offer, "take": Take, "kitty": Kitty, "play": Play}


# -- records ------------------------------------------------------------------------------------


class Deal(NamedTuple):
    """A game's chance: the first dealer, the trump deck top first, and each deal's shuffle
    (the 40 card indices in dealing order: one at a time clockwise from the dealer's left)."""

    first_dealer: int
    trump_cards: tuple[str, ...]
    shuffles: tuple[tuple[int, ...], ...]


class AuctionRecord(NamedTuple):
    """A deal's auction as the table saw it once the offers were revealed."""

    starter: int
    face_up: str
    called: str
    offers: tuple[str | None, ...]  # by seat; None for the starter
    taken: str
    taken_from: int
    forced: bool  # True: the highest offered card of the called suit had to be taken


class Trick(NamedTuple):
    leader: int
    cards: tuple[str, ...]  # in play order
    winner: int


class DealRecord(NamedTuple):
    """A finished deal, as every player saw it (the kitty is revealed at scoring, as a pile)."""

    deal: int
    dealer: int
    trump_card: str | None
    trump: str | None
    passes: tuple[int, ...]
    auction: AuctionRecord | None
    kitty: tuple[str, ...]
    kitty_points: int  # this deal's four cards
    carried_in: int
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    kitty_winner: int | None
    carried_out: int
    lost: int
    scores_after: tuple[int, ...]

    @property
    def at_stake(self) -> int:
        """Points the deal's trick leader would score: its kitty plus what was carried in."""
        return self.kitty_points + self.carried_in

    def auction_role(self, seat: int) -> str:
        """'starter', 'seller' (the starter took this seat's offer), 'offerer', or 'none'."""
        if self.auction is None:
            return "none"
        if seat == self.auction.starter:
            return "starter"
        return "seller" if seat == self.auction.taken_from else "offerer"


class LogEntry(NamedTuple):
    """One line of the log: ``text`` is the full record; ``seat`` (when set) is the only seat
    that saw it so, others see ``hidden`` instead ("" = nothing)."""

    deal: int
    kind: str
    seat: int | None
    text: str
    hidden: str | None = None


class Result(NamedTuple):
    """Final standings. Ranks are 1 for the best; tied players share a rank and the win."""

    scores: tuple[int, ...]
    kitties_won: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    lost: int  # points lost to a tie in the last deal


@dataclass(slots=True)
class Observation:
    """Exactly what ``player`` may know: the public record, its own hand, its own offer until
    the reveal, its own kitty card, and trump once turned."""

    player: int
    rules: Rules
    deal: int  # 1-based deal in progress (rules.deals + 1 once over)
    dealer: int
    phase: str
    to_play: int | None
    hand: tuple[str, ...]
    scores: tuple[int, ...]
    carried_in: int
    trump_shown: bool
    trump_card: str | None  # None before it is turned, and in a deal with no trump
    trump: str | None
    revealed_trumps: tuple[str, ...]  # trump cards turned so far this game, this deal's included
    passes: tuple[int, ...]
    starter: int | None
    face_up: str | None
    called: str | None
    offered: tuple[bool, ...]  # by seat: has put an offer face down
    offers: tuple[str | None, ...]  # by seat, once revealed (all None before)
    own_offer: str | None
    taken: str | None
    taken_from: int | None
    kitty_placed: tuple[bool, ...]
    own_kitty: str | None
    leader: int | None
    trick: tuple[str, ...]  # the trick in progress, in play order
    tricks: tuple[Trick, ...]  # this deal's finished tricks
    tricks_won: tuple[int, ...]
    history: tuple[DealRecord, ...]

    @property
    def played(self) -> tuple[str, ...]:
        """Every card played this deal, finished tricks first."""
        return tuple(card for trick in self.tricks for card in trick.cards) + self.trick

    def voids(self) -> tuple[frozenset[str], ...]:
        """By seat: suits it has shown it no longer holds (it did not follow them)."""
        shown: list[set[str]] = [set() for _ in range(PLAYERS)]
        all_tricks = [*((t.leader, t.cards) for t in self.tricks)]
        if self.trick:
            all_tricks.append((self.leader, self.trick))
        for leader, cards in all_tricks:
            led = cards[0][-1]
            for position, card in enumerate(cards[1:], start=1):
                if card[-1] != led:
                    shown[(leader + position) % PLAYERS].add(led)
        return tuple(frozenset(s) for s in shown)

    def known_holdings(self) -> tuple[frozenset[str], ...]:
        """By seat: cards the whole table knows that seat holds (in hand, or put in the kitty)
        and has not played: the face-up card, revealed offers, the swapped cards."""
        known: list[set[str]] = [set() for _ in range(PLAYERS)]
        if self.starter is not None:
            if self.taken is None:
                known[self.starter].add(self.face_up)
            for seat, card in enumerate(self.offers):
                if card is not None:
                    known[seat].add(card)
            if self.taken is not None:
                known[self.taken_from].discard(self.taken)
                known[self.taken_from].add(self.face_up)
                known[self.starter].add(self.taken)
        played = set(self.played)
        return tuple(frozenset(cards - played) for cards in known)


# -- the state ----------------------------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _names(mask: int) -> tuple[str, ...]:
    return tuple(DECK[i] for i in _bits(mask))


def _hand_mask(shuffle: tuple[int, ...], dealer: int) -> tuple[int, ...]:
    hands = [0] * PLAYERS
    for position, card in enumerate(shuffle):
        hands[(dealer + 1 + position) % PLAYERS] |= 1 << card
    return tuple(hands)


def _parse(action: object, text: object, what: str, legal: list[Action]) -> int:
    try:
        return card_index(text)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise IllegalAction(action, f"{what}: {exc}", legal) from None


class State:
    """An Auction House position. ``apply`` returns a new State; this one never changes."""

    rules: Rules
    chance: Deal
    deal: int
    dealer: int
    phase: str
    hands: tuple[int, ...]
    dealt: tuple[int, ...]
    scores: tuple[int, ...]
    carried_in: int
    trump: int | None
    trump_card: str | None
    trump_shown: bool
    asked: int
    passes: tuple[int, ...]
    starter: int | None
    face_up: int | None
    called: int | None
    offers: tuple[int | None, ...]
    n_offers: int
    taken: int | None
    taken_from: int | None
    forced: bool
    kitty: tuple[int | None, ...]
    n_kitty: int
    leader: int
    trick: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    tricks_won: tuple[int, ...]
    history: tuple[DealRecord, ...]
    kitty_history: tuple[tuple[int, ...], ...]  # private: each deal's kitty card by seat
    hands_history: tuple[tuple[int, ...], ...]  # private: each deal's hands as dealt

    def __init__(self, rules: Rules, chance: Deal) -> None:
        self.rules = rules
        self.chance = chance
        self.scores = (0,) * PLAYERS
        self.carried_in = 0
        self.history = ()
        self.kitty_history = ()
        self.hands_history = ()
        self._begin_deal(1, chance.first_dealer)

    def _begin_deal(self, deal: int, dealer: int) -> None:
        self.deal = deal
        self.dealer = dealer
        self.hands = self.dealt = _hand_mask(self.chance.shuffles[deal - 1], dealer)
        self.phase = "auction"
        self.trump, self.trump_card, self.trump_shown = None, None, False
        self.asked, self.passes = 0, ()
        self.starter = self.face_up = self.called = None
        self.offers, self.n_offers = (None,) * PLAYERS, 0
        self.taken = self.taken_from = None
        self.forced = False
        self.kitty, self.n_kitty = (None,) * PLAYERS, 0
        self.leader = (dealer + 1) % PLAYERS
        self.trick, self.tricks = (), ()
        self.tricks_won = (0,) * PLAYERS
        if self.rules.trump_reveal == "before_auction":
            self._turn_trump()

    def _turn_trump(self) -> None:
        self.trump_shown = True
        if self.rules.has_trump(self.deal):
            self.trump_card = self.chance.trump_cards[self.deal - 1]
            self.trump = SUITS.index(self.trump_card[-1])

    # -- reading the state -------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def to_play(self) -> int | None:
        """The seat to act, or None once the game is over."""
        phase = self.phase
        if phase == "play":
            return (self.leader + len(self.trick)) % PLAYERS
        if phase == "auction":
            return (self.dealer + 1 + self.asked) % PLAYERS
        if phase == "offer":
            return (self.starter + 1 + self.n_offers) % PLAYERS
        if phase == "take":
            return self.starter
        if phase == "kitty":
            return (self.dealer + 1 + self.n_kitty) % PLAYERS
        return None

    def hand(self, seat: int) -> tuple[str, ...]:
        """The cards ``seat`` holds (the full record: not what another seat may see)."""
        return _names(self.hands[self._seat(seat, "seat")])

    def _legal_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        if self.trick:
            suit = self.trick[0] // SUIT_SIZE
            follow = hand & (((1 << SUIT_SIZE) - 1) << (SUIT_SIZE * suit))
            if follow:
                return follow
        return hand

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take, in the order both engines share (cards by
        suit C, D, H, S then rank; a start's called suits in that order); empty once over."""
        phase = self.phase
        if phase == "over":
            return []
        seat = self.to_play
        if phase == "play":
            return [Play(DECK[i]) for i in _bits(self._legal_mask(seat))]
        if phase == "auction":
            return [Pass()] + [
                Start(DECK[i], suit)
                for i in _bits(self.hands[seat])
                for suit in SUITS
                if suit != SUITS[i // SUIT_SIZE]
            ]
        if phase == "take":
            offered = sorted(card for card in self.offers if card is not None)
            return [Take(DECK[i]) for i in offered]
        return [_ACTION_OF_PHASE[phase](DECK[i]) for i in _bits(self.hands[seat])]

    def observation(self, player: int) -> Observation:
        """What ``player`` knows now: never another seat's hand, offer (before the reveal) or
        kitty card, nor trump before it is turned."""
        player = self._seat(player, "player")
        revealed = self.n_offers == PLAYERS - 1
        return Observation(
            player=player,
            rules=self.rules,
            deal=self.deal,
            dealer=self.dealer,
            phase=self.phase,
            to_play=self.to_play,
            hand=_names(self.hands[player]),
            scores=self.scores,
            carried_in=self.carried_in,
            trump_shown=self.trump_shown,
            trump_card=self.trump_card,
            trump=None if self.trump is None else SUITS[self.trump],
            revealed_trumps=self.revealed_trumps,
            passes=self.passes,
            starter=self.starter,
            face_up=None if self.face_up is None else DECK[self.face_up],
            called=None if self.called is None else SUITS[self.called],
            offered=tuple(card is not None for card in self.offers),
            offers=tuple(DECK[c] if c is not None and revealed else None for c in self.offers),
            own_offer=None if self.offers[player] is None else DECK[self.offers[player]],
            taken=None if self.taken is None else DECK[self.taken],
            taken_from=self.taken_from,
            kitty_placed=tuple(card is not None for card in self.kitty),
            own_kitty=None if self.kitty[player] is None else DECK[self.kitty[player]],
            leader=self.leader if self.phase == "play" else None,
            trick=tuple(DECK[c] for c in self.trick),
            tricks=self.public_tricks,
            tricks_won=self.tricks_won,
            history=self.history,
        )

    @property
    def revealed_trumps(self) -> tuple[str, ...]:
        """Trump cards turned so far this game (this deal's once it is turned)."""
        shown = min(self.deal - (0 if self.trump_shown else 1), len(TRUMP_DECK))
        return self.chance.trump_cards[: max(shown, 0)]

    @property
    def public_tricks(self) -> tuple[Trick, ...]:
        return tuple(
            Trick(leader, tuple(DECK[c] for c in cards), winner)
            for leader, cards, winner in self.tricks
        )

    def result(self) -> Result:
        """Final standings (``ValueError`` before the end): highest score wins, ties share."""
        if not self.is_over:
            raise ValueError(
                f"the game is not over: deal {self.deal} of {self.rules.deals} is in progress"
            )
        scores = self.scores
        ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        kitties = tuple(
            sum(record.kitty_winner == seat for record in self.history) for seat in range(PLAYERS)
        )
        lost = self.history[-1].lost
        return Result(
            scores, kitties, ranks, tuple(s for s in range(PLAYERS) if ranks[s] == 1), lost
        )

    def _seat(self, seat: object, name: str) -> int:
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < 4:
            raise ValueError(f"{name} must be a seat 0–{PLAYERS - 1}, got {seat!r}")
        return int(seat)

    # -- the log -----------------------------------------------------------------------------

    @property
    def log(self) -> list[LogEntry]:
        """The game so far as readable events (the full record; see ``log_for``)."""
        return list(_log_entries(self))

    def log_for(self, player: int | None) -> list[str]:
        """The log as lines of text, only what ``player`` saw (its own hand, offer and kitty
        card; others' as face-down cards); ``None``: the full record."""
        if player is not None:
            player = self._seat(player, "player")
        lines = []
        for entry in _log_entries(self):
            if player is None or entry.hidden is None or entry.seat == player:
                lines.append(entry.text)
            elif entry.hidden:
                lines.append(entry.hidden)
        return lines

    # -- playing -----------------------------------------------------------------------------

    def apply(self, action: Action, *, player: int | None = None) -> State:
        """The state after ``action`` by the seat to act (``player``, when given, must be that
        seat); raises IllegalAction, leaving this state unchanged, if it is not allowed."""
        if self.phase == "over":
            raise IllegalAction(action, "the game is over")
        seat = self.to_play
        if player is not None and self._seat(player, "player") != seat:
            raise IllegalAction(
                action,
                f"it is seat {seat}'s turn ({self._situation()}), not seat {player}'s",
                self.legal_actions(),
            )
        phase = self.phase
        if phase == "play":
            return self._apply_play(action, seat)
        if phase == "auction":
            return self._apply_auction(action, seat)
        expected = _ACTION_OF_PHASE[phase]
        if isinstance(action, Start | Pass):
            if self.starter is None:
                how = "the auction phase is over: everyone passed"
            elif phase in ("offer", "take"):
                how = f"seat {self.starter}'s auction is under way"
            else:
                how = f"the auction phase is over: seat {self.starter} held this deal's auction"
            raise IllegalAction(
                action, f"{how} (at most one auction per deal)", self.legal_actions()
            )
        if not isinstance(action, expected):
            legal = self.legal_actions()
            raise IllegalAction(
                action,
                f"{self._situation()}: seat {seat} must play {expected.__name__}(card)",
                legal,
            )
        text = action.card
        card = _INDEX_CACHE.get(text, -1) if isinstance(text, str) else -1
        if card < 0 or not self._held(seat, card, phase):
            legal = self.legal_actions()
            card = _parse(action, text, self._situation(), legal)
            if not self._held(seat, card, phase):
                raise IllegalAction(action, self._not_held(seat, card, phase), legal)
        if phase == "offer":
            return self._apply_offer(seat, card)
        if phase == "take":
            return self._swap(card, forced=False)
        return self._apply_kitty(seat, card)

    def _held(self, seat: int, card: int, phase: str) -> bool:
        if phase == "take":
            return card in self.offers
        return bool(self.hands[seat] >> card & 1)

    def _not_held(self, seat: int, card: int, phase: str) -> str:
        if phase == "take":
            return f"{DECK[card]} was not offered: seat {seat} takes one of the offered cards"
        return f"seat {seat} does not hold {DECK[card]}"

    def _situation(self) -> str:
        phase = self.phase
        if phase == "auction":
            return f"deal {self.deal}: seat {self.to_play} may start the auction or pass"
        if phase == "offer":
            return f"deal {self.deal}: seat {self.to_play} offers a card to seat {self.starter}"
        if phase == "take":
            return f"deal {self.deal}: seat {self.starter} chooses one of the offered cards"
        if phase == "kitty":
            return f"deal {self.deal}: seat {self.to_play} puts a card in the kitty"
        return f"deal {self.deal}, trick {len(self.tricks) + 1}: seat {self.to_play} plays"

    def _apply_auction(self, action: Action, seat: int) -> State:
        if isinstance(action, Pass):
            asked = self.asked + 1
            passes = (*self.passes, seat)
            if asked == PLAYERS:
                return self._evolve(asked=asked, passes=passes, phase="kitty")
            return self._evolve(asked=asked, passes=passes)
        if not isinstance(action, Start):
            raise IllegalAction(
                action, f"{self._situation()}: Pass() or Start(card, suit)", self.legal_actions()
            )
        legal = self.legal_actions()
        card = _parse(action, action.card, self._situation(), legal)
        try:
            called = suit_index(action.suit)
        except ValueError as exc:
            raise IllegalAction(action, str(exc), legal) from None
        if not self.hands[seat] >> card & 1:
            raise IllegalAction(action, f"seat {seat} does not hold {DECK[card]}", legal)
        if called == card // SUIT_SIZE:
            raise IllegalAction(
                action,
                f"the called suit must differ from the face-up card's suit "
                f"({SUITS[called]}): call one of "
                f"{', '.join(s for s in SUITS if s != SUITS[called])}",
                legal,
            )
        return self._evolve(
            asked=self.asked + 1, starter=seat, face_up=card, called=called, phase="offer"
        )

    def _apply_offer(self, seat: int, card: int) -> State:
        offers = list(self.offers)
        offers[seat] = card
        n_offers = self.n_offers + 1
        if n_offers < PLAYERS - 1:
            return self._evolve(offers=tuple(offers), n_offers=n_offers)
        called = [c for c in offers if c is not None and c // SUIT_SIZE == self.called]
        revealed = self._evolve(offers=tuple(offers), n_offers=n_offers)
        if called:
            return revealed._swap(max(called), forced=True)
        return revealed._evolve(phase="take")

    def _swap(self, card: int, *, forced: bool) -> State:
        giver = self.offers.index(card)
        hands = list(self.hands)
        hands[self.starter] = hands[self.starter] & ~(1 << self.face_up) | (1 << card)
        hands[giver] = hands[giver] & ~(1 << card) | (1 << self.face_up)
        return self._evolve(
            hands=tuple(hands), taken=card, taken_from=giver, forced=forced, phase="kitty"
        )

    def _apply_kitty(self, seat: int, card: int) -> State:
        kitty = list(self.kitty)
        kitty[seat] = card
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        new = self._evolve(kitty=tuple(kitty), n_kitty=self.n_kitty + 1, hands=tuple(hands))
        if new.n_kitty == PLAYERS:
            new.phase = "play"
            if not new.trump_shown:
                new._turn_trump()
        return new

    def _apply_play(self, action: Action, seat: int) -> State:
        if not isinstance(action, Play):
            raise IllegalAction(
                action, f"{self._situation()}: seat {seat} must Play(card)", self.legal_actions()
            )
        text = action.card
        card = _INDEX_CACHE.get(text, -1) if isinstance(text, str) else -1
        legal_mask = self._legal_mask(seat)
        if card < 0 or not legal_mask >> card & 1:
            legal = self.legal_actions()
            card = _parse(action, text, self._situation(), legal)
        if not legal_mask >> card & 1:
            if not self.hands[seat] >> card & 1:
                reason = f"seat {seat} does not hold {DECK[card]}"
            else:
                led = SUITS[self.trick[0] // SUIT_SIZE]
                reason = (
                    f"seat {seat} must follow {SUIT_NAMES[led]} (holds "
                    f"{', '.join(_names(legal_mask))}): playing {DECK[card]} would be a revoke"
                )
            raise IllegalAction(action, reason, legal)
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trick = (*self.trick, card)
        if len(trick) < PLAYERS:
            return self._evolve(hands=tuple(hands), trick=trick)
        winner = (self.leader + winning_position(trick, self.trump)) % PLAYERS
        won = list(self.tricks_won)
        won[winner] += 1
        new = self._evolve(
            hands=tuple(hands),
            trick=(),
            tricks=(*self.tricks, (self.leader, trick, winner)),
            tricks_won=tuple(won),
            leader=winner,
        )
        if len(new.tricks) == TRICKS:
            new._score_deal()
        return new

    def _score_deal(self) -> None:
        """End of the deal: the kitty to the single trick leader, or carried over / lost."""
        kitty_points = sum(POINTS[c] for c in self.kitty)
        stake = kitty_points + self.carried_in
        most = max(self.tricks_won)
        leaders = [s for s in range(PLAYERS) if self.tricks_won[s] == most]
        last = self.deal == self.rules.deals
        scores = list(self.scores)
        winner, carried_out, lost = None, 0, 0
        if len(leaders) == 1:
            winner = leaders[0]
            scores[winner] += stake
        elif last:
            lost = stake
        else:
            carried_out = stake
        auction = None
        if self.starter is not None:
            auction = AuctionRecord(
                starter=self.starter,
                face_up=DECK[self.face_up],
                called=SUITS[self.called],
                offers=tuple(None if c is None else DECK[c] for c in self.offers),
                taken=DECK[self.taken],
                taken_from=self.taken_from,
                forced=self.forced,
            )
        record = DealRecord(
            deal=self.deal,
            dealer=self.dealer,
            trump_card=self.trump_card,
            trump=None if self.trump is None else SUITS[self.trump],
            passes=self.passes,
            auction=auction,
            kitty=tuple(DECK[c] for c in sorted(self.kitty)),
            kitty_points=kitty_points,
            carried_in=self.carried_in,
            tricks=self.public_tricks,
            tricks_won=self.tricks_won,
            kitty_winner=winner,
            carried_out=carried_out,
            lost=lost,
            scores_after=tuple(scores),
        )
        self.scores = tuple(scores)
        self.history = (*self.history, record)
        self.kitty_history = (*self.kitty_history, tuple(self.kitty))
        self.hands_history = (*self.hands_history, self.dealt)
        self.carried_in = carried_out
        if last:
            self.phase = "over"
            self.deal += 1
        else:
            self._begin_deal(self.deal + 1, (self.dealer + 1) % PLAYERS)

    def _evolve(self, **changes: object) -> State:
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def __repr__(self) -> str:
        if self.is_over:
            return f"<auction_house State: over, scores {list(self.scores)}>"
        return (
            f"<auction_house State: deal {self.deal}/{self.rules.deals}, {self.phase}, "
            f"seat {self.to_play} to play, scores {list(self.scores)}>"
        )


_INDEX_CACHE = {name: index for index, name in enumerate(DECK)}


def draw_deal(rules: Rules, seed: SeedLike) -> Deal:
    """The chance of one game from ``seed``: always 13 shuffles and the whole trump deck, so
    the same seed deals the same cards whatever the rule options."""
    rng = generator(seed)
    first = int(rng.integers(PLAYERS))
    trump_cards = tuple(TRUMP_DECK[i] for i in rng.permutation(len(TRUMP_DECK)))
    shuffles = tuple(tuple(int(c) for c in rng.permutation(len(DECK))) for _ in range(13))
    if rules.first_dealer != "random":
        first = rules.first_dealer
    return Deal(first, trump_cards, shuffles)


def new_game(rules: Rules | None = None, *, seed: SeedLike, deal: Deal | None = None) -> State:
    """A new game. Same rules and seed -> same game; ``deal`` gives the chance explicitly (to
    replay a fast-engine game, or to set up a situation to study)."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be an auction_house Rules, got {type(rules).__name__}")
    chance = draw_deal(rules, seed) if deal is None else _check_deal(rules, deal)
    return State(rules, chance)


def _check_deal(rules: Rules, deal: Deal) -> Deal:
    if not isinstance(deal, Deal):
        raise TypeError(f"deal must be an auction_house Deal, got {type(deal).__name__}")
    if deal.first_dealer not in range(PLAYERS):
        raise ValueError(f"deal.first_dealer must be a seat 0–3, got {deal.first_dealer!r}")
    if sorted(deal.trump_cards) != sorted(TRUMP_DECK):
        raise ValueError(
            f"deal.trump_cards must be the 12 trump cards in some order, got {deal.trump_cards!r}"
        )
    if len(deal.shuffles) < rules.deals or any(
        sorted(s) != list(range(len(DECK))) for s in deal.shuffles[: rules.deals]
    ):
        raise ValueError(f"deal.shuffles must hold {rules.deals} orderings of the 40 card indices")
    return Deal(int(deal.first_dealer), tuple(deal.trump_cards), tuple(map(tuple, deal.shuffles)))


# -- the readable log ---------------------------------------------------------------------------


def _log_entries(state: State) -> Iterator[LogEntry]:
    for index, record in enumerate(state.history):
        yield from _deal_entries(
            state,
            record.deal,
            record.dealer,
            state.hands_history[index],
            record,
            state.kitty_history[index],
        )
    if not state.is_over:
        yield from _deal_entries(state, state.deal, state.dealer, state.dealt, None, state.kitty)
    else:
        result = state.result()
        names = ", ".join(f"seat {s}" for s in result.winners)
        shared = " (shared win)" if len(result.winners) > 1 else ""
        yield LogEntry(
            state.rules.deals,
            "end",
            None,
            f"game over: {names} wins{shared}; scores {list(result.scores)}",
        )


def _deal_entries(
    state: State,
    deal: int,
    dealer: int,
    dealt: tuple[int, ...],
    record: DealRecord | None,
    kitty: tuple[int | None, ...],
) -> Iterator[LogEntry]:
    rules = state.rules
    yield LogEntry(deal, "deal", None, f"deal {deal} of {rules.deals}: seat {dealer} deals")
    for seat in range(PLAYERS):
        yield LogEntry(
            deal, "hand", seat, f"seat {seat} is dealt {' '.join(_names(dealt[seat]))}", ""
        )
    if record is not None:
        trump_card, passes, auction = record.trump_card, record.passes, record.auction
        trump_shown, tricks = True, record.tricks
        offers = auction.offers if auction else (None,) * PLAYERS
        starter = auction.starter if auction else None
        offers_made = PLAYERS - 1 if auction else 0
    else:
        trump_card = state.trump_card
        trump_shown = state.trump_shown
        passes = state.passes
        auction = None
        starter = state.starter
        offers = tuple(None if c is None else DECK[c] for c in state.offers)
        offers_made = state.n_offers
        tricks = state.public_tricks
        if state.taken is not None:
            auction = AuctionRecord(
                starter,
                DECK[state.face_up],
                SUITS[state.called],
                offers,
                DECK[state.taken],
                state.taken_from,
                state.forced,
            )
    turned = _trump_line(deal, dealer, trump_card, rules)
    if rules.trump_reveal == "before_auction" and trump_shown:
        yield turned
    for seat in passes:
        yield LogEntry(deal, "pass", seat, f"seat {seat} passes")
    if starter is not None:
        face_up = auction.face_up if auction else DECK[state.face_up]
        called = auction.called if auction else SUITS[state.called]
        yield LogEntry(
            deal,
            "start",
            starter,
            f"seat {starter} starts the auction: puts {face_up} face up and calls "
            f"{SUIT_NAMES[called]}",
        )
        order = [(starter + k) % PLAYERS for k in range(1, PLAYERS)]
        for seat in order[:offers_made]:
            yield LogEntry(
                deal,
                "offer",
                seat,
                f"seat {seat} offers {offers[seat]} face down",
                f"seat {seat} puts an offer face down",
            )
        if offers_made == PLAYERS - 1:
            shown = ", ".join(f"seat {s} {offers[s]}" for s in order)
            yield LogEntry(deal, "reveal", None, f"offers revealed: {shown}")
        if auction is not None:
            if auction.forced:
                how = f"must take {auction.taken}, the highest {SUIT_NAMES[called][:-1]} offered"
            else:
                how = f"was offered no {SUIT_NAMES[called][:-1]} and chooses {auction.taken}"
            yield LogEntry(
                deal,
                "take",
                starter,
                f"seat {starter} {how}: seat {auction.taken_from} gets {face_up}",
            )
    for k in range(PLAYERS):
        seat = (dealer + 1 + k) % PLAYERS
        if kitty[seat] is not None:
            yield LogEntry(
                deal,
                "kitty",
                seat,
                f"seat {seat} puts {DECK[kitty[seat]]} in the kitty",
                f"seat {seat} puts a card in the kitty",
            )
    if rules.trump_reveal == "after_kitty" and trump_shown:
        yield turned
    for number, trick in enumerate(tricks, start=1):
        plays = "; ".join(
            f"seat {(trick.leader + p) % PLAYERS} {card}" for p, card in enumerate(trick.cards)
        )
        yield LogEntry(
            deal, "trick", trick.winner, f"trick {number}: {plays} -> seat {trick.winner} wins"
        )
    if record is None and state.trick:
        plays = "; ".join(
            f"seat {(state.leader + p) % PLAYERS} {DECK[c]}" for p, c in enumerate(state.trick)
        )
        yield LogEntry(deal, "trick", None, f"trick {len(tricks) + 1} so far: {plays}")
    if record is not None:
        counts = "-".join(str(t) for t in record.tricks_won)
        head = (
            f"kitty revealed: {' '.join(record.kitty)} ({record.kitty_points} points"
            + (f" + {record.carried_in} carried in" if record.carried_in else "")
            + f"); tricks by seat {counts}: "
        )
        if record.kitty_winner is not None:
            w = record.kitty_winner
            tail = (
                f"seat {w} took most tricks and scores {record.at_stake} "
                f"-> {record.scores_after[w]}"
            )
        elif record.lost:
            tail = f"tie for most tricks in the last deal: {record.lost} points are lost"
        else:
            tail = f"tie for most tricks: {record.carried_out} points carry over to the next kitty"
        yield LogEntry(deal, "score", record.kitty_winner, head + tail)


def _trump_line(deal: int, dealer: int, trump_card: str | None, rules: Rules) -> LogEntry:
    turner = (dealer + 1) % PLAYERS
    if trump_card is None:
        return LogEntry(deal, "trump", None, f"deal {deal}: the trump deck is empty, no trump")
    return LogEntry(
        deal,
        "trump",
        turner,
        f"seat {turner} turns up {trump_card}: {SUIT_NAMES[trump_card[-1]]} are trump",
    )
