"""The step-by-step Auction House engine, the rules' readable reference: ``State`` (legal
actions, apply, observation, view, log, result) and ``new_game``; the actions, records and
Observation other modules import from here stay here."""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from workbench.checks import instance_or_default
from workbench.errors import IllegalAction
from workbench.games.auction_house.actions import (
    ACTION_OF_PHASE,
    Action,
    Pass,
    Play,
    Start,
    Take,
    card_of,
    quick_index,
)
from workbench.games.auction_house.actions import PHASES as PHASES  # re-exported, as are
from workbench.games.auction_house.actions import Kitty as Kitty  # the names used below
from workbench.games.auction_house.actions import Offer as Offer
from workbench.games.auction_house.cards import (
    DECK,
    POINTS,
    SUIT_NAMES,
    SUIT_SIZE,
    SUITS,
    TRUMP_DECK,
    card_bits,
    card_names,
    suit_index,
    winning_position,
)
from workbench.games.auction_house.chance import Deal, check_deal, dealt_hands, draw_deal
from workbench.games.auction_house.log import DealSoFar, lines_for, log_entries
from workbench.games.auction_house.observation import PHASE_CODE, Observation, step_of
from workbench.games.auction_house.records import AuctionRecord, DealRecord, LogEntry, Result, Trick
from workbench.games.auction_house.rules import PLAYERS, TRICKS, Rules
from workbench.kit.seeding import SeedLike
from workbench.kit.state import Evolving, standings


class State(Evolving):
    """An Auction House position; ``apply`` returns a new State, this one never changes. A
    deal: ten cards each; the auction (a start or a pass from each seat, three face-down offers
    revealed together, the forced or free take, the swap); a kitty card from every seat; trump
    turned (before the auction under the house rule); nine tricks; the kitty to the seat with
    most tricks, a tie carrying it over. Hands are 40-bit masks; actions name cards in notation."""

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
        self.hands = self.dealt = dealt_hands(self.chance.shuffles[deal - 1], dealer)
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
        return card_names(self.hands[self._seat(seat, "seat")])

    def _legal_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        follow = hand & (1023 << (SUIT_SIZE * (self.trick[0] // SUIT_SIZE))) if self.trick else 0
        return follow or hand

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take, in the order both engines share (cards by
        suit C, D, H, S then rank; a start's called suits in that order); empty once over."""
        phase = self.phase
        if phase == "over":
            return []
        seat = self.to_play
        if phase == "play":
            return [Play(card) for card in card_names(self._legal_mask(seat))]
        if phase == "auction":
            return [Pass()] + [
                Start(DECK[i], suit)
                for i in card_bits(self.hands[seat])
                for suit in SUITS
                if suit != SUITS[i // SUIT_SIZE]
            ]
        if phase == "take":
            offered = sorted(card for card in self.offers if card is not None)
            return [Take(DECK[i]) for i in offered]
        return [ACTION_OF_PHASE[phase](card) for card in card_names(self.hands[seat])]

    def observation(self, player: int) -> Observation:
        """What ``player`` knows now: never another seat's hand, offer (before the reveal) or
        kitty card, nor trump before it is turned."""
        player = self._seat(player, "player")
        revealed = self.n_offers == PLAYERS - 1
        offers, kitty = self.offers, self.kitty
        return Observation(  # every field by name (the hot path of every step-engine decision)
            player=player, rules=self.rules, deal=self.deal, dealer=self.dealer,
            phase=self.phase, to_play=self.to_play, hand=card_names(self.hands[player]),
            scores=self.scores, carried_in=self.carried_in, trump_shown=self.trump_shown,
            trump_card=self.trump_card, trump=_SUIT[self.trump],
            revealed_trumps=self.revealed_trumps, passes=self.passes, starter=self.starter,
            face_up=_CARD[self.face_up], called=_SUIT[self.called],
            offered=tuple(card is not None for card in offers),
            offers=tuple(_CARD[card if revealed else None] for card in offers),
            own_offer=_CARD[offers[player]], taken=_CARD[self.taken],
            taken_from=self.taken_from, kitty_placed=tuple(card is not None for card in kitty),
            own_kitty=_CARD[kitty[player]],
            leader=self.leader if self.phase == "play" else None,
            trick=tuple(DECK[c] for c in self.trick), tricks=self.public_tricks,
            tricks_won=self.tricks_won, history=self.history,
        )  # fmt: skip

    def view(self, player: int) -> np.ndarray:
        """What ``player`` knows now as the compiled engine's row (``layout``), what compiled
        agents decide from: ``positions.observation_row`` of the observation, built directly."""
        player = self._seat(player, "player")
        phase, trick = self.phase, self.trick
        offers = [-1] * PLAYERS
        if self.n_offers == PLAYERS - 1:  # revealed
            offers = [-1 if card is None else card for card in self.offers]
        if self.offers[player] is not None:
            offers[player] = self.offers[player]
        kitty, hands = [-1] * PLAYERS, [0] * PLAYERS
        if self.kitty[player] is not None:
            kitty[player] = self.kitty[player]
        hands[player] = self.hands[player]
        played = 0
        for _, cards, _ in self.tricks:
            for card in cards:
                played |= 1 << card
        for card in trick:
            played |= 1 << card
        step = step_of(phase, self.asked, self.n_offers, self.n_kitty,
                       PLAYERS * len(self.tricks) + len(trick))  # fmt: skip
        leader = self.leader if phase == "play" else (self.dealer + 1) % PLAYERS
        row = [
            self.deal, self.dealer, PHASE_CODE[phase], step, self.carried_in,
            _or_none(self.trump), int(self.trump_shown), _or_none(self.starter),
            _or_none(self.face_up), _or_none(self.called), _or_none(self.taken),
            _or_none(self.taken_from), int(self.taken is not None and self.forced), leader,
            played, *self.scores, *offers, *kitty, *trick, *[-1] * (PLAYERS - len(trick)),
            *self.tricks_won, *hands,
        ]  # fmt: skip
        return np.array(row, np.int64)

    @property
    def revealed_trumps(self) -> tuple[str, ...]:
        """Trump cards turned so far this game (this deal's once it is turned)."""
        shown = min(self.deal - (0 if self.trump_shown else 1), len(TRUMP_DECK))
        return self.chance.trump_cards[: max(shown, 0)]

    @property
    def public_tricks(self) -> tuple[Trick, ...]:
        """This deal's finished tricks in card notation, as the whole table saw them."""
        return _public_tricks(self.tricks)

    def result(self) -> Result:
        """Final standings (``ValueError`` before the end): highest score wins, ties share."""
        if not self.is_over:
            raise ValueError(
                f"the game is not over: deal {self.deal} of {self.rules.deals} is in progress"
            )
        scores = self.scores
        ranks, winners = standings(scores)
        winners_of = [record.kitty_winner for record in self.history]
        kitties = tuple(winners_of.count(seat) for seat in range(PLAYERS))
        return Result(scores, kitties, ranks, winners, self.history[-1].lost)

    def _seat(self, seat: object, name: str) -> int:
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < 4:
            raise ValueError(f"{name} must be a seat 0–{PLAYERS - 1}, got {seat!r}")
        return int(seat)

    # -- the log -----------------------------------------------------------------------------

    @property
    def log(self) -> list[LogEntry]:
        """The game so far as readable events (the full record; see ``log_for``)."""
        return list(self._log_entries())

    def log_for(self, player: int | None) -> list[str]:
        """The log as lines of text, only what ``player`` saw (its own hand, offer and kitty
        card; others' as face-down cards); ``None``: the full record."""
        if player is not None:
            player = self._seat(player, "player")
        return lines_for(self._log_entries(), player)

    def _log_entries(self) -> Iterator[LogEntry]:
        current, result = None, None
        if self.is_over:
            result = self.result()
        else:
            current = DealSoFar(
                self.deal, self.dealer, self.dealt, self.kitty, self.trump_card, self.trump_shown,
                self.passes, self.starter, _CARD[self.face_up], _SUIT[self.called],
                tuple(_CARD[card] for card in self.offers), self.n_offers,
                self._auction_record(), self.public_tricks, self.leader,
                tuple(DECK[c] for c in self.trick),
            )  # fmt: skip
        return log_entries(self.rules, self.history, self.hands_history, self.kitty_history,
                           current, result)  # fmt: skip

    def _auction_record(self) -> AuctionRecord | None:
        """The deal's auction as the table saw it once the starter took a card."""
        if self.taken is None:
            return None
        return AuctionRecord(
            starter=self.starter,
            face_up=DECK[self.face_up],
            called=SUITS[self.called],
            offers=tuple(_CARD[card] for card in self.offers),
            taken=DECK[self.taken],
            taken_from=self.taken_from,
            forced=self.forced,
        )

    # -- playing -----------------------------------------------------------------------------

    def apply(self, action: Action, *, player: int | None = None) -> State:
        """The state after ``action`` by the seat to act (``player``, when given, must be that
        seat); raises IllegalAction, leaving this state unchanged, if it is not allowed."""
        if self.phase == "over":
            raise IllegalAction(action, "the game is over")
        seat = self.to_play
        if player is not None and self._seat(player, "player") != seat:
            turn = f"it is seat {seat}'s turn ({self._situation()}), not seat {player}'s"
            raise IllegalAction(action, turn, self.legal_actions())
        phase = self.phase
        if phase == "play":
            return self._apply_play(action, seat)
        if phase == "auction":
            return self._apply_auction(action, seat)
        expected = ACTION_OF_PHASE[phase]
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
            must = f"{self._situation()}: seat {seat} must play {expected.__name__}(card)"
            raise IllegalAction(action, must, self.legal_actions())
        text = action.card
        card = quick_index(text)
        if card < 0 or not self._held(seat, card, phase):
            legal = self.legal_actions()
            card = card_of(action, text, self._situation(), legal)
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
        card = card_of(action, action.card, self._situation(), legal)
        try:
            called = suit_index(action.suit)
        except ValueError as exc:
            raise IllegalAction(action, str(exc), legal) from None
        if not self.hands[seat] >> card & 1:
            raise IllegalAction(action, f"seat {seat} does not hold {DECK[card]}", legal)
        if called == card // SUIT_SIZE:
            others = ", ".join(s for s in SUITS if s != SUITS[called])
            raise IllegalAction(action, "the called suit must differ from the face-up card's "
                                f"suit ({SUITS[called]}): call one of {others}", legal)  # fmt: skip
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
        card = quick_index(text)
        legal_mask = self._legal_mask(seat)
        if card < 0 or not legal_mask >> card & 1:
            legal = self.legal_actions()
            card = card_of(action, text, self._situation(), legal)
        if not legal_mask >> card & 1:
            if not self.hands[seat] >> card & 1:
                reason = f"seat {seat} does not hold {DECK[card]}"
            else:
                led = SUITS[self.trick[0] // SUIT_SIZE]
                reason = (
                    f"seat {seat} must follow {SUIT_NAMES[led]} (holds "
                    f"{', '.join(card_names(legal_mask))}): playing {DECK[card]} would be a revoke"
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
        record = DealRecord(
            deal=self.deal,
            dealer=self.dealer,
            trump_card=self.trump_card,
            trump=None if self.trump is None else SUITS[self.trump],
            passes=self.passes,
            auction=self._auction_record(),
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

    def __repr__(self) -> str:
        if self.is_over:
            return f"<auction_house State: over, scores {list(self.scores)}>"
        return (
            f"<auction_house State: deal {self.deal}/{self.rules.deals}, {self.phase}, "
            f"seat {self.to_play} to play, scores {list(self.scores)}>"
        )


def new_game(rules: Rules | None = None, *, seed: SeedLike, deal: Deal | None = None) -> State:
    """A new game. Same rules and seed -> same game; ``deal`` gives the chance explicitly (to
    replay a fast-engine game, or to set up a situation to study)."""
    rules = instance_or_default("rules", rules, Rules, Rules, "an auction_house Rules or None")
    chance = draw_deal(rules, seed) if deal is None else check_deal(rules, deal)
    return State(rules, chance)


@lru_cache(maxsize=1024)
def _public_tricks(tricks: tuple) -> tuple[Trick, ...]:
    """Tricks (leader, card indices, winner) in card notation; made once per tuple of tricks,
    as every seat's observation of a deal's play reads the same ones."""
    return tuple(
        Trick(leader, tuple(DECK[c] for c in cards), winner) for leader, cards, winner in tricks
    )


#: A card's or a suit's notation by index, None for None.
_CARD, _SUIT = {None: None, **dict(enumerate(DECK))}, {None: None, **dict(enumerate(SUITS))}


def _or_none(value: int | None) -> int:
    return -1 if value is None else value
