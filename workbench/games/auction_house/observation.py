"""What one Auction House seat may see: the ``Observation`` agents decide from, and
``observe``, which builds it from the full State without another seat's secrets; and
``knowledge_row``, the same knowledge as the compiled engine's row (what compiled agents read),
built straight from the State's integers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from workbench.games.auction_house.actions import PHASES
from workbench.games.auction_house.cards import DECK, SUITS
from workbench.games.auction_house.hands import card_names
from workbench.games.auction_house.records import DealRecord, Trick
from workbench.games.auction_house.rules import PLAYERS, Rules

if TYPE_CHECKING:
    from workbench.games.auction_house.engine import State


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


def observe(state: State, player: int) -> Observation:
    """What seat ``player`` (already checked) knows now: never another seat's hand, offer
    (before the reveal) or kitty card, nor trump before it is turned."""
    revealed = state.n_offers == PLAYERS - 1
    offers, kitty = state.offers, state.kitty
    return Observation(  # every field by name (the hot path of every step-engine decision)
        player=player,
        rules=state.rules,
        deal=state.deal,
        dealer=state.dealer,
        phase=state.phase,
        to_play=state.to_play,
        hand=card_names(state.hands[player]),
        scores=state.scores,
        carried_in=state.carried_in,
        trump_shown=state.trump_shown,
        trump_card=state.trump_card,
        trump=None if state.trump is None else SUITS[state.trump],
        revealed_trumps=state.revealed_trumps,
        passes=state.passes,
        starter=state.starter,
        face_up=None if state.face_up is None else DECK[state.face_up],
        called=None if state.called is None else SUITS[state.called],
        offered=tuple(card is not None for card in offers),
        offers=tuple(DECK[c] if c is not None and revealed else None for c in offers),
        own_offer=None if offers[player] is None else DECK[offers[player]],
        taken=None if state.taken is None else DECK[state.taken],
        taken_from=state.taken_from,
        kitty_placed=tuple(card is not None for card in kitty),
        own_kitty=None if kitty[player] is None else DECK[kitty[player]],
        leader=state.leader if state.phase == "play" else None,
        trick=tuple(DECK[c] for c in state.trick),
        tricks=state.public_tricks,
        tricks_won=state.tricks_won,
        history=state.history,
    )


#: A phase's code in the compiled engine's row (``layout``: the step engine's PHASES order).
PHASE_CODE = {name: code for code, name in enumerate(PHASES)}


def step_of(phase: str, passes: int, offered: int, placed: int, played: int) -> int:
    """The row's STEP: decisions already taken in the phase (plays: cards played this deal)."""
    return {"auction": passes, "offer": offered, "kitty": placed, "play": played}.get(phase, 0)


def knowledge_row(state: State, player: int) -> np.ndarray:
    """What seat ``player`` (already checked) knows, as the compiled engine's row (``layout``):
    equal to ``positions.observation_row(observe(state, player))`` (a test checks it on every
    seat of whole games), without the detour through card notation."""
    phase, trick = state.phase, state.trick
    offers = [-1] * PLAYERS
    if state.n_offers == PLAYERS - 1:  # revealed
        offers = [-1 if card is None else card for card in state.offers]
    if state.offers[player] is not None:
        offers[player] = state.offers[player]
    kitty, hands = [-1] * PLAYERS, [0] * PLAYERS
    if state.kitty[player] is not None:
        kitty[player] = state.kitty[player]
    hands[player] = state.hands[player]
    played = 0
    for _, cards, _ in state.tricks:
        for card in cards:
            played |= 1 << card
    for card in trick:
        played |= 1 << card
    step = step_of(phase, state.asked, state.n_offers, state.n_kitty,
                   PLAYERS * len(state.tricks) + len(trick))  # fmt: skip
    leader = state.leader if phase == "play" else (state.dealer + 1) % PLAYERS
    row = [
        state.deal, state.dealer, PHASE_CODE[phase], step, state.carried_in,
        _or_none(state.trump), int(state.trump_shown), _or_none(state.starter),
        _or_none(state.face_up), _or_none(state.called), _or_none(state.taken),
        _or_none(state.taken_from), int(state.taken is not None and state.forced), leader,
        played, *state.scores, *offers, *kitty, *trick, *[-1] * (PLAYERS - len(trick)),
        *state.tricks_won, *hands,
    ]  # fmt: skip
    return np.array(row, np.int64)


def _or_none(value: int | None) -> int:
    return -1 if value is None else value
