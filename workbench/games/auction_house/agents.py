"""Reference agents for Auction House, weakest to strongest: uniformly random, a heuristic, and
a determinization agent.

Every agent is called as ``agent(observation, legal_actions, rng) -> action``. The random and
heuristic agents are written once, over batches (``choose_start``, ``choose_offer``,
``choose_take``, ``choose_kitty``, ``choose_play`` on a ``batch.View``); the step-by-step call
runs the same code on a batch of one, so both engines play exactly the same policy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.games.auction_house.batch import AUCTION, KITTY, OFFER, PLAY, TAKE, View
from workbench.games.auction_house.cards import (
    ABOVE,
    DECK,
    FIELD_COUNT,
    FIELD_HIGH,
    FIELD_LOW,
    FULL_MASK,
    SUIT_SIZE,
    SUITS,
    card_index,
    count_cards,
    fields,
    select_card,
)
from workbench.games.auction_house.engine import (
    PHASES,
    Action,
    Kitty,
    Observation,
    Offer,
    Pass,
    Play,
    Start,
    Take,
)
from workbench.games.auction_house.rules import PLAYERS, Rules

_PHASE_CODE = {name: code for code, name in enumerate(PHASES)}
_CARD_ACTION = {OFFER: Offer, TAKE: Take, KITTY: Kitty, PLAY: Play}
_CARD_METHOD = {
    OFFER: "choose_offer",
    TAKE: "choose_take",
    KITTY: "choose_kitty",
    PLAY: "choose_play",
}
_SUIT_IDS = np.arange(len(SUITS))
_BIG = 10**6


def _mask(cards: Sequence[str]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card_index(card)
    return mask


def view_of(observation: Observation) -> View:
    """A batch of one game seen by the observing seat, for the batch-written agents."""
    obs = observation
    phase = _PHASE_CODE[obs.phase]
    hand = _mask(obs.hand)
    trick = [card_index(c) for c in obs.trick]
    if phase == AUCTION:
        step = len(obs.passes)
    elif phase == OFFER:
        step = sum(obs.offered)
    elif phase == KITTY:
        step = sum(obs.kitty_placed)
    elif phase == PLAY:
        step = PLAYERS * len(obs.tricks) + len(trick)
    else:
        step = 0
    offers = [-1 if c is None else card_index(c) for c in obs.offers]
    legal = hand
    if phase == TAKE:
        legal = _mask([c for c in obs.offers if c is not None])
    elif phase == PLAY and trick:
        led = trick[0] // SUIT_SIZE
        follow = hand & (((1 << SUIT_SIZE) - 1) << (SUIT_SIZE * led))
        legal = follow or hand
    voids = [sum(1 << SUITS.index(s) for s in seat) for seat in obs.voids()]
    leader = obs.leader if obs.leader is not None else (obs.dealer + 1) % PLAYERS

    def one(value: object, dtype: type = np.int64) -> np.ndarray:
        return np.array([value], dtype)

    return View(
        rules=obs.rules,
        phase=phase,
        step=step,
        deal=obs.deal,
        actor=one(obs.player),
        hand=one(hand, np.uint64),
        legal=one(legal, np.uint64),
        dealer=one(obs.dealer),
        trump=one(SUITS.index(obs.trump) if obs.trump is not None else -1),
        trump_shown=obs.trump_shown,
        starter=one(-1 if obs.starter is None else obs.starter),
        face_up=one(-1 if obs.face_up is None else card_index(obs.face_up)),
        called=one(-1 if obs.called is None else SUITS.index(obs.called)),
        offers=np.array([offers], np.int64),
        played=one(_mask(obs.played), np.uint64),
        trick=np.array([trick + [-1] * (PLAYERS - len(trick))], np.int64),
        leader=one(leader),
        tricks_won=np.array([obs.tricks_won], np.int64),
        scores=np.array([obs.scores], np.int64),
        carried_in=one(obs.carried_in),
        voids=np.array([voids], np.int64),
    )


class _BatchWrittenAgent:
    """Step-by-step calls run the batch code on a batch of one."""

    name = "agent"

    def choose_start(self, view: View, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError

    def choose_offer(self, view: View, u: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def choose_take(self, view: View, u: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def choose_kitty(self, view: View, u: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def choose_play(self, view: View, u: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        view = view_of(observation)
        u = np.array([rng.random()])
        if view.phase == AUCTION:
            start, card, suit = self.choose_start(view, u)
            if not start[0]:
                return Pass()
            return Start(DECK[int(card[0])], SUITS[int(suit[0])])
        card = int(getattr(self, _CARD_METHOD[view.phase])(view, u)[0])
        return _CARD_ACTION[view.phase](DECK[card])

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(_BatchWrittenAgent):
    """Uniformly random among the legal actions (the baseline every other agent must beat).

    A start-or-pass decision is uniform over Pass and every (face-up card, called suit), as
    ``legal_actions`` lists them, so a random seat nearly always starts the auction."""

    name = "random"

    def choose_start(self, view: View, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        options = 1 + (len(SUITS) - 1) * count_cards(view.hand)
        pick = (u * options).astype(np.int64) - 1  # -1: Pass
        card = select_card(view.hand, np.maximum(pick, 0) // 3)
        other = np.maximum(pick, 0) % 3
        suit = other + (other >= card // SUIT_SIZE)
        return pick >= 0, card, suit

    def _uniform(self, view: View, u: np.ndarray) -> np.ndarray:
        return select_card(view.legal, (u * count_cards(view.legal)).astype(np.int64))

    choose_offer = choose_take = choose_kitty = choose_play = _uniform

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        # The batch formulas reduce to this on one game (both list legal actions in the same
        # order); a test checks that they agree.
        return legal_actions[int(rng.random() * len(legal_actions))]


def _shed(hand_fields: np.ndarray, trump: np.ndarray, penalty: np.ndarray | int = 0) -> np.ndarray:
    """The card least useful for tricks: the lowest card of a short suit, trumps kept
    (value = rank + 3 x suit length + 20 for a trump + ``penalty`` per suit; lowest wins)."""
    counts = FIELD_COUNT[hand_fields]
    low = FIELD_LOW[hand_fields]
    value = low + 3 * counts + 20 * (trump[:, None] == _SUIT_IDS) + penalty
    value = np.where(counts > 0, value, _BIG)
    suit = np.argmin(value, axis=1)
    return suit * SUIT_SIZE + np.take_along_axis(low, suit[:, None], axis=1)[:, 0]


class HeuristicAgent(_BatchWrittenAgent):
    """Sensible, deterministic play.

    - Auction: start when its least useful card (see ``_shed``) is low (rank <= ``give_rank``),
      putting that card up and calling trump when trump is known, else its longest other suit
      if that holds >= ``long_suit`` cards. Offer its least useful card, avoiding the called
      suit, unless the face-up card is worth having (rank >= ``trade_rank``): then its lowest
      card of the called suit, to be the one taken. Free choice: the best offered card (trumps
      first, then rank).
    - Kitty: its least useful card.
    - Play: lead a side-suit card no one can beat (a master), else the master trump while
      trumps are out, else low from its longest side suit. Following: the cheapest card sure
      to win, the cheapest winner in the last seat, else its lowest. Void: ruff (or over-ruff)
      as cheaply as possible, else shed its least useful card. Cards counted: every card not
      seen played and not in its hand may be out against it.
    """

    name = "heuristic"

    def __init__(self, give_rank: int = 3, long_suit: int = 4, trade_rank: int = 7) -> None:
        for label, value in (
            ("give_rank", give_rank),
            ("long_suit", long_suit),
            ("trade_rank", trade_rank),
        ):
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"{label} must be a whole number, got {value!r}")
        if not 1 <= give_rank <= 10 or not 1 <= trade_rank <= 11 or not 0 <= long_suit <= 10:
            raise ValueError(
                "give_rank must be 1–10, trade_rank 1–11 (11: never trade), long_suit 0–10; "
                f"got {give_rank}, {trade_rank}, {long_suit}"
            )
        self.give_rank = int(give_rank)
        self.long_suit = int(long_suit)
        self.trade_rank = int(trade_rank)

    def __repr__(self) -> str:
        return (
            f"HeuristicAgent(give_rank={self.give_rank}, long_suit={self.long_suit}, "
            f"trade_rank={self.trade_rank})"
        )

    def choose_start(self, view: View, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows = np.arange(view.games)
        hand = fields(view.hand)
        counts = FIELD_COUNT[hand]
        trump = view.trump
        face = _shed(hand, trump)
        face_suit = face // SUIT_SIZE
        strength = counts * 16 + FIELD_HIGH[hand]
        strength = np.where(face_suit[:, None] == _SUIT_IDS, -_BIG, strength)
        longest = np.argmax(strength, axis=1)
        known = trump >= 0
        called = np.where(known & (trump != face_suit), trump, longest)
        worth = np.where(known, called == trump, counts[rows, called] >= self.long_suit)
        start = (face % SUIT_SIZE + 1 <= self.give_rank) & worth
        return start, face, called

    def choose_offer(self, view: View, u: np.ndarray) -> np.ndarray:
        hand = fields(view.hand)
        wanted = (view.face_up % SUIT_SIZE + 1) >= self.trade_rank
        called = view.called[:, None] == _SUIT_IDS
        penalty = np.where(called, np.where(wanted[:, None], -_BIG // 10, 40), 0)
        return _shed(hand, view.trump, penalty)

    def choose_take(self, view: View, u: np.ndarray) -> np.ndarray:
        offers = view.offers
        value = offers % SUIT_SIZE + 20 * (offers // SUIT_SIZE == view.trump[:, None])
        value = np.where(offers >= 0, value, -1)
        return np.take_along_axis(offers, np.argmax(value, axis=1)[:, None], axis=1)[:, 0]

    def choose_kitty(self, view: View, u: np.ndarray) -> np.ndarray:
        return _shed(fields(view.hand), view.trump)

    def choose_play(self, view: View, u: np.ndarray) -> np.ndarray:
        rows = np.arange(view.games)
        trump = view.trump
        trump0 = np.maximum(trump, 0)
        has_trump_suit = trump >= 0
        out = np.uint64(FULL_MASK) & ~view.played & ~view.hand
        mine, theirs = fields(view.hand), fields(out)
        high_mine, high_out = FIELD_HIGH[mine], FIELD_HIGH[theirs]
        low_mine, count_mine = FIELD_LOW[mine], FIELD_COUNT[mine]
        is_trump = trump[:, None] == _SUIT_IDS
        position = view.position
        if position == 0:
            master = (high_mine >= 0) & (high_mine > high_out)
            side_master = master & ~is_trump
            master_suit = np.argmax(side_master, axis=1)
            lead_master = master_suit * SUIT_SIZE + high_mine[rows, master_suit]
            draw = has_trump_suit & master[rows, trump0] & (theirs[rows, trump0] != 0)
            lead_trump = trump0 * SUIT_SIZE + high_mine[rows, trump0]
            length = np.where(is_trump | (count_mine == 0), -1, count_mine)
            longest = np.argmax(length, axis=1)
            lead_low = longest * SUIT_SIZE + low_mine[rows, longest]
            low_trump = trump0 * SUIT_SIZE + low_mine[rows, trump0]
            lead_low = np.where(length.max(axis=1) >= 0, lead_low, low_trump)
            return np.where(
                side_master.any(axis=1), lead_master, np.where(draw, lead_trump, lead_low)
            )
        trick = view.trick[:, :position]
        led = trick[:, 0] // SUIT_SIZE
        suit, rank = trick // SUIT_SIZE, trick % SUIT_SIZE
        key = np.where(suit == trump[:, None], 100 + rank, np.where(suit == led[:, None], rank, -1))
        best = trick[rows, np.argmax(key, axis=1)]
        best_suit, best_rank = best // SUIT_SIZE, best % SUIT_SIZE
        ruffed = (best_suit == trump) & (led != trump)
        led_field = fields(view.legal)[rows, led]
        winners = np.where(ruffed, 0, led_field & ABOVE[best_rank + 1])
        sure = winners & ABOVE[high_out[rows, led] + 1]
        last = position == PLAYERS - 1
        follow = np.where(
            sure != 0,
            FIELD_LOW[sure],
            np.where((winners != 0) & last, FIELD_LOW[winners], FIELD_LOW[led_field]),
        )
        follow = led * SUIT_SIZE + follow
        trumps = np.where(has_trump_suit, mine[rows, trump0], 0)
        beat = np.where(
            best_suit == trump, ABOVE[np.where(best_suit == trump, best_rank, -1) + 1], 1023
        )
        ruff_field = trumps & beat
        ruff = trump0 * SUIT_SIZE + FIELD_LOW[ruff_field]
        void = np.where(ruff_field != 0, ruff, _shed(mine, trump))
        return np.where(led_field != 0, follow, void)


AGENTS: dict[str, type] = {"random": RandomAgent, "heuristic": HeuristicAgent}


def make_agent(name: str, rules: Rules | None = None, **options: object) -> object:
    """An agent by name (see ``AGENTS``); ``rules`` is accepted for the common contract (these
    agents read the rules from each observation)."""
    if not isinstance(name, str) or name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(AGENTS)}")
    return AGENTS[name](**options)
