"""Many Auction House games advanced in lockstep with numpy: the engine behind fast self-play,
the kitty analyses and the determinization agent's rollouts.

This is the second implementation of the rules (the first is ``engine.State``); a test replays
every recorded game through ``State.apply`` and demands identical frames. Hands are 40-bit
masks (``cards``), so following suit, the trick and the agents' card choices are a few
vectorised bit operations per step. Every game of a batch stands at the same step (phase and
position); games where a step does not apply (no auction this deal) are masked. Agents see a
``View``: only what the acting seat may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from workbench.errors import IllegalAction
from workbench.games.auction_house.cards import (
    DECK,
    FACE_RANKS,
    POINTS,
    SUIT_MASKS,
    SUIT_SIZE,
    TRUMP_DECK,
    bit,
    cards_of,
)
from workbench.games.auction_house.rules import MAX_DEALS, PLAYERS, TRICKS, Rules
from workbench.kit.batching import ask_each_agent, distinct_agents
from workbench.kit.state import fields_of

AUCTION, OFFER, TAKE, KITTY, PLAY, OVER = range(6)
PHASE_NAMES = ("auction", "offer", "take", "kitty", "play", "over")
#: Uniform numbers drawn per game and deal, one slot per decision: 4 start-or-pass, 3 offers,
#: 1 take, 4 kitty cards, 36 plays. A fixed layout, so two rule variants or line-ups played
#: from the same seed see the same deals and the same numbers at the same decisions.
SLOT_AUCTION, SLOT_OFFER, SLOT_TAKE, SLOT_KITTY, SLOT_PLAY = 0, 4, 7, 8, 12
SLOTS = SLOT_PLAY + PLAYERS * TRICKS
POINTS_ARRAY = np.array([*POINTS, 0], np.int64)  # index -1 (no card) scores 0
_ONE = np.uint64(1)


@dataclass
class View:
    """What the acting seat of every game may know when choosing (one row per game)."""

    rules: Rules
    phase: int
    step: int
    deal: int
    actor: np.ndarray
    hand: np.ndarray  # (G,) the actor's cards
    legal: np.ndarray  # (G,) cards it may choose now (offer, take, kitty, play)
    dealer: np.ndarray
    trump: np.ndarray  # (G,) suit, -1 when not yet turned or none
    trump_shown: bool
    starter: np.ndarray
    face_up: np.ndarray
    called: np.ndarray
    offers: np.ndarray  # (G, 4), -1 until revealed
    played: np.ndarray  # (G,) cards played this deal
    trick: np.ndarray  # (G, 4) the trick in progress by position, -1 = not yet
    leader: np.ndarray
    tricks_won: np.ndarray
    scores: np.ndarray
    carried_in: np.ndarray
    voids: np.ndarray  # (G, 4) by seat: bit s set when the seat has not followed suit s

    @property
    def games(self) -> int:
        return len(self.actor)

    @property
    def position(self) -> int:
        """Position in the trick being decided (0 = leading); meaningful in the play phase."""
        return self.step % PLAYERS


class BatchAgent(Protocol):
    """An agent deciding for a whole batch at once (``u``: a uniform in [0, 1) per game)."""

    name: str

    def choose_start(
        self, view: View, u: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...

    def choose_offer(self, view: View, u: np.ndarray) -> np.ndarray: ...

    def choose_take(self, view: View, u: np.ndarray) -> np.ndarray: ...

    def choose_kitty(self, view: View, u: np.ndarray) -> np.ndarray: ...

    def choose_play(self, view: View, u: np.ndarray) -> np.ndarray: ...


@dataclass
class Recording:
    """Per-deal facts of a batch: for the frames, the kitty analyses and replay."""

    dealer: np.ndarray  # (G, D)
    trump: np.ndarray  # (G, D) suit, -1 none
    starter: np.ndarray  # (G, D) -1: no auction
    face_up: np.ndarray
    called: np.ndarray
    offers: np.ndarray  # (G, D, 4)
    taken: np.ndarray
    taken_from: np.ndarray
    forced: np.ndarray
    kitty: np.ndarray  # (G, D, 4) by seat
    plays: np.ndarray  # (G, D, 36) card by play step
    tricks_won: np.ndarray  # (G, D, 4)
    kitty_winner: np.ndarray  # (G, D) -1: tie
    kitty_points: np.ndarray  # (G, D) this deal's four cards
    carried_in: np.ndarray
    carried_out: np.ndarray
    lost: np.ndarray
    scores_after: np.ndarray  # (G, D, 4)

    @classmethod
    def empty(cls, games: int, deals: int) -> Recording:
        def full(*shape: int, value: int = -1, dtype: type = np.int8) -> np.ndarray:
            return np.full((games, deals, *shape), value, dtype)

        return cls(
            dealer=full(),
            trump=full(),
            starter=full(),
            face_up=full(),
            called=full(),
            offers=full(PLAYERS),
            taken=full(),
            taken_from=full(),
            forced=full(value=0, dtype=bool),
            kitty=full(PLAYERS),
            plays=full(PLAYERS * TRICKS),
            tricks_won=full(PLAYERS, value=0),
            kitty_winner=full(),
            kitty_points=full(value=0, dtype=np.int16),
            carried_in=full(value=0, dtype=np.int16),
            carried_out=full(value=0, dtype=np.int16),
            lost=full(value=0, dtype=np.int16),
            scores_after=full(PLAYERS, value=0, dtype=np.int16),
        )


@dataclass
class BatchState:
    """Games advanced in lockstep; mutable (the functions below update it in place)."""

    rules: Rules
    first_dealer: np.ndarray  # (G,)
    trump_cards: np.ndarray  # (G, 12) indices into TRUMP_DECK, top first
    shuffles: np.ndarray  # (G, 13, 40) card indices in dealing order
    deal: int = 0  # 1-based deal in progress; 0 before the first
    phase: int = AUCTION
    step: int = 0
    u: np.ndarray | None = None  # (G, SLOTS) this deal's uniforms
    hands: np.ndarray = field(init=False)
    dealer: np.ndarray = field(init=False)
    scores: np.ndarray = field(init=False)
    carried_in: np.ndarray = field(init=False)
    trump: np.ndarray = field(init=False)
    trump_shown: bool = False
    starter: np.ndarray = field(init=False)
    face_up: np.ndarray = field(init=False)
    called: np.ndarray = field(init=False)
    offers: np.ndarray = field(init=False)
    taken: np.ndarray = field(init=False)
    taken_from: np.ndarray = field(init=False)
    forced: np.ndarray = field(init=False)
    kitty: np.ndarray = field(init=False)
    leader: np.ndarray = field(init=False)
    trick: np.ndarray = field(init=False)
    tricks_won: np.ndarray = field(init=False)
    played: np.ndarray = field(init=False)
    voids: np.ndarray = field(init=False)
    rows: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        g = len(self.first_dealer)
        self.rows = np.arange(g)
        self.hands = np.zeros((g, PLAYERS), np.uint64)
        self.dealer = (self.first_dealer.astype(np.int64) - 1) % PLAYERS  # advanced at deal 1
        self.scores = np.zeros((g, PLAYERS), np.int64)
        self.carried_in = np.zeros(g, np.int64)
        self._clear_deal()

    def _clear_deal(self) -> None:
        g = self.games
        self.trump = np.full(g, -1, np.int64)
        self.trump_shown = False
        self.starter = np.full(g, -1, np.int64)
        self.face_up = np.full(g, -1, np.int64)
        self.called = np.full(g, -1, np.int64)
        self.offers = np.full((g, PLAYERS), -1, np.int64)
        self.taken = np.full(g, -1, np.int64)
        self.taken_from = np.full(g, -1, np.int64)
        self.forced = np.zeros(g, bool)
        self.kitty = np.full((g, PLAYERS), -1, np.int64)
        self.leader = (self.dealer + 1) % PLAYERS
        self.trick = np.full((g, PLAYERS), -1, np.int64)
        self.tricks_won = np.zeros((g, PLAYERS), np.int64)
        self.played = np.zeros(g, np.uint64)
        self.voids = np.zeros((g, PLAYERS), np.int64)

    @property
    def games(self) -> int:
        return len(self.first_dealer)

    @property
    def is_over(self) -> bool:
        """Has the last deal been scored?"""
        return self.phase == OVER and self.deal == self.rules.deals

    def actor(self) -> np.ndarray:
        """The seat to act in every game (meaningless where the step is masked)."""
        phase, step = self.phase, self.step
        if phase == AUCTION:
            return (self.dealer + 1 + step) % PLAYERS
        if phase == OFFER:
            return (np.maximum(self.starter, 0) + 1 + step) % PLAYERS
        if phase == TAKE:
            return np.maximum(self.starter, 0)
        if phase == KITTY:
            return (self.dealer + 1 + step) % PLAYERS
        return (self.leader + step % PLAYERS) % PLAYERS

    def legal(self, actor: np.ndarray, hand: np.ndarray) -> np.ndarray:
        """Cards the actor may choose now (offers for a take; the hand otherwise, within the
        suit led when it can follow)."""
        if self.phase == TAKE:
            return np.bitwise_or.reduce(bit(self.offers), axis=1)
        if self.phase != PLAY or self.step % PLAYERS == 0:
            return hand
        follow = hand & SUIT_MASKS[self.trick[:, 0] // SUIT_SIZE]
        return np.where(follow != 0, follow, hand)

    def view(self, actor: np.ndarray) -> View:
        """What ``actor`` of each game may know: never another seat's hand or kitty card, nor
        an offer before the reveal."""
        hand = self.hands[self.rows, actor]
        hidden_offers = self.phase == OFFER
        return View(
            **fields_of(
                self,
                "rules", "phase", "step", "deal", "dealer", "trump", "trump_shown", "starter",
                "face_up", "called", "played", "trick", "leader", "tricks_won", "scores",
                "carried_in", "voids",
            ),
            actor=actor,
            hand=hand,
            legal=self.legal(actor, hand),
            offers=np.full_like(self.offers, -1) if hidden_offers else self.offers,
        )


def new_batch(rules: Rules, games: int, rng: np.random.Generator) -> BatchState:
    """``games`` fresh games with their chance drawn from ``rng``: the first dealer, the trump
    deck order and 13 shuffles each (always 13, so rule variants share the deals)."""
    first = rng.integers(PLAYERS, size=games)
    if rules.first_dealer != "random":
        first = np.full(games, rules.first_dealer)
    trump_cards = rng.permuted(
        np.tile(np.arange(len(TRUMP_DECK), dtype=np.int8), (games, 1)), axis=1
    )
    shuffles = rng.permuted(
        np.tile(np.arange(len(DECK), dtype=np.int8), (games, MAX_DEALS, 1)), axis=2
    )
    return BatchState(rules, first.astype(np.int64), trump_cards, shuffles)


def begin_deal(bs: BatchState, rng: np.random.Generator | None) -> None:
    """Deal the next deal's cards (one at a time clockwise from the dealer's left), draw its
    uniforms and, under the house rule, turn the trump card."""
    bs.deal += 1
    bs.dealer = (bs.dealer + 1) % PLAYERS
    bs._clear_deal()
    cards = bs.shuffles[:, bs.deal - 1, :].astype(np.uint64)
    bits = _ONE << cards
    for offset in range(PLAYERS):
        seat = (bs.dealer + 1 + offset) % PLAYERS
        bs.hands[bs.rows, seat] = np.bitwise_or.reduce(bits[:, offset::PLAYERS], axis=1)
    if rng is not None:
        bs.u = rng.random((bs.games, SLOTS))
    bs.phase, bs.step = AUCTION, 0
    if bs.rules.trump_reveal == "before_auction":
        turn_trump(bs)


def turn_trump(bs: BatchState) -> None:
    """Turn this deal's trump card (no trump once the 12-card deck has run out)."""
    bs.trump_shown = True
    if bs.rules.has_trump(bs.deal):
        bs.trump = bs.trump_cards[:, bs.deal - 1].astype(np.int64) // len(FACE_RANKS)
    else:
        bs.trump = np.full(bs.games, -1, np.int64)


# -- applying choices ---------------------------------------------------------------------------


def apply_start(
    bs: BatchState, actor: np.ndarray, start: np.ndarray, card: np.ndarray, suit: np.ndarray
) -> None:
    """Games where ``start`` is set (and no one has started yet) start the auction."""
    start = start & (bs.starter < 0)
    bs.starter = np.where(start, actor, bs.starter)
    bs.face_up = np.where(start, card, bs.face_up)
    bs.called = np.where(start, suit, bs.called)
    bs.step += 1
    if bs.step == PLAYERS or (bs.starter >= 0).all():
        bs.step = 0
        bs.phase = OFFER if (bs.starter >= 0).any() else KITTY


def apply_offer(bs: BatchState, actor: np.ndarray, card: np.ndarray) -> None:
    held = bs.starter >= 0
    bs.offers[bs.rows, actor] = np.where(held, card, bs.offers[bs.rows, actor])
    bs.step += 1
    if bs.step < PLAYERS - 1:
        return
    offers = bs.offers
    of_called = (offers >= 0) & (offers // SUIT_SIZE == bs.called[:, None])
    best = np.where(of_called, offers, -1).max(axis=1)
    forced = held & (best >= 0)
    bs.forced = forced
    _swap(bs, forced, best)
    bs.step = 0
    bs.phase = TAKE if (held & ~forced).any() else KITTY


def apply_take(bs: BatchState, card: np.ndarray) -> None:
    free = (bs.starter >= 0) & ~bs.forced
    _swap(bs, free, card)
    bs.step, bs.phase = 0, KITTY


def _swap(bs: BatchState, mask: np.ndarray, card: np.ndarray) -> None:
    if not mask.any():
        return
    rows = bs.rows[mask]
    card = card[mask]
    giver = np.argmax(bs.offers[rows] == card[:, None], axis=1)
    starter = bs.starter[rows]
    face = bs.face_up[rows]
    card_bit, face_bit = _ONE << card.astype(np.uint64), _ONE << face.astype(np.uint64)
    bs.hands[rows, starter] = bs.hands[rows, starter] & ~face_bit | card_bit
    bs.hands[rows, giver] = bs.hands[rows, giver] & ~card_bit | face_bit
    bs.taken[rows] = card
    bs.taken_from[rows] = giver


def apply_kitty(bs: BatchState, actor: np.ndarray, card: np.ndarray) -> None:
    bs.kitty[bs.rows, actor] = card
    bs.hands[bs.rows, actor] &= ~bit(card)
    bs.step += 1
    if bs.step == PLAYERS:
        bs.step, bs.phase = 0, PLAY
        if not bs.trump_shown:
            turn_trump(bs)


def apply_play(
    bs: BatchState, actor: np.ndarray, card: np.ndarray, recording: Recording | None = None
) -> None:
    position = bs.step % PLAYERS
    rows = bs.rows
    card_bit = bit(card)
    bs.hands[rows, actor] &= ~card_bit
    bs.played |= card_bit
    bs.trick[:, position] = card
    if position:
        led = bs.trick[:, 0] // SUIT_SIZE
        bs.voids[rows, actor] |= np.where(card // SUIT_SIZE != led, 1 << led, 0)
    if recording is not None:
        recording.plays[:, bs.deal - 1, bs.step] = card
    bs.step += 1
    if position < PLAYERS - 1:
        return
    winner = (bs.leader + trick_winners(bs.trick, bs.trump)) % PLAYERS
    bs.tricks_won[rows, winner] += 1
    bs.leader = winner
    bs.trick[:] = -1
    if bs.step == PLAYERS * TRICKS:
        score_deal(bs, recording)


def trick_winners(trick: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """Position of each trick's winner (cards by play order): highest trump, else highest of
    the suit led."""
    suit = trick // SUIT_SIZE
    rank = trick % SUIT_SIZE
    led = suit[:, :1]
    key = np.where(suit == trump[:, None], 100 + rank, np.where(suit == led, rank, -1))
    return np.argmax(key, axis=1)


def score_deal(bs: BatchState, recording: Recording | None = None) -> None:
    """The kitty to the single seat with most tricks; a tie carries it over (lost in the
    last deal). Then the next deal, or the end."""
    rows = bs.rows
    kitty_points = POINTS_ARRAY[bs.kitty].sum(axis=1)
    stake = kitty_points + bs.carried_in
    most = bs.tricks_won.max(axis=1)
    leaders = bs.tricks_won == most[:, None]
    single = leaders.sum(axis=1) == 1
    winner = np.where(single, np.argmax(leaders, axis=1), -1)
    bs.scores[rows[single], winner[single]] += stake[single]
    last = bs.deal == bs.rules.deals
    lost = np.where(~single & last, stake, 0)
    carried_out = np.where(~single & (not last), stake, 0)
    if recording is not None:
        d = bs.deal - 1
        recording.dealer[:, d] = bs.dealer
        recording.trump[:, d] = bs.trump
        recording.starter[:, d] = bs.starter
        recording.face_up[:, d] = bs.face_up
        recording.called[:, d] = bs.called
        recording.offers[:, d] = bs.offers
        recording.taken[:, d] = bs.taken
        recording.taken_from[:, d] = bs.taken_from
        recording.forced[:, d] = bs.forced
        recording.kitty[:, d] = bs.kitty
        recording.tricks_won[:, d] = bs.tricks_won
        recording.kitty_winner[:, d] = winner
        recording.kitty_points[:, d] = kitty_points
        recording.carried_in[:, d] = bs.carried_in
        recording.carried_out[:, d] = carried_out
        recording.lost[:, d] = lost
        recording.scores_after[:, d] = bs.scores
    bs.carried_in = carried_out
    bs.phase, bs.step = OVER, 0  # play() begins the next deal unless this was the last


# -- the loop -----------------------------------------------------------------------------------



def _decide(
    distinct: list[BatchAgent], seat_agent: np.ndarray, view: View, u: np.ndarray, method: str
) -> tuple[np.ndarray, ...] | np.ndarray:
    """Ask each distinct agent (``method``) for the games where one of its seats acts."""
    return ask_each_agent(
        distinct, seat_agent, view.actor, lambda agent, mask: getattr(agent, method)(view, u)
    )


def _check(
    bs: BatchState,
    bad: np.ndarray,
    choice: np.ndarray,
    legal: np.ndarray,
    actor: np.ndarray,
    distinct: list[BatchAgent],
    seat_agent: np.ndarray,
    what: str,
) -> None:
    """Raise, naming the agent, game, seat and the legal choices, if any choice is illegal."""
    if not bad.any():
        return
    g = int(np.flatnonzero(bad)[0])
    seat = int(actor[g])
    agent = distinct[int(seat_agent[seat])]
    card = int(choice[g])
    shown = DECK[card] if 0 <= card < len(DECK) else card
    raise IllegalAction(
        shown,
        f"agent {getattr(agent, 'name', agent)!r} chose an illegal {what} in game {g} "
        f"(deal {bs.deal}, {PHASE_NAMES[bs.phase]}, seat {seat})",
        [DECK[c] for c in cards_of(int(legal[g]))],
    )


def _holds(mask: np.ndarray, card: np.ndarray) -> np.ndarray:
    ok = (card >= 0) & (card < len(DECK))
    return ok & ((mask >> np.where(ok, card, 0).astype(np.uint64)) & _ONE).astype(bool)


def step(
    bs: BatchState,
    distinct: list[BatchAgent],
    seat_agent: np.ndarray,
    recording: Recording | None = None,
) -> None:
    """Ask the agents for the current step's choice in every game, check it, apply it."""
    phase, s = bs.phase, bs.step
    actor = bs.actor()
    view = bs.view(actor)
    if phase == PLAY:
        card = _decide(distinct, seat_agent, view, bs.u[:, SLOT_PLAY + s], "choose_play")
        bad = ~_holds(view.legal, card)
        _check(bs, bad, card, view.legal, actor, distinct, seat_agent, "card to play")
        apply_play(bs, actor, card, recording)
    elif phase == AUCTION:
        start, card, suit = _decide(
            distinct, seat_agent, view, bs.u[:, SLOT_AUCTION + s], "choose_start"
        )
        start = np.asarray(start, bool) & (bs.starter < 0)
        bad = start & (~_holds(view.hand, card) | (suit < 0) | (suit > 3) | (suit == card // 10))
        _check(bs, bad, card, view.hand, actor, distinct, seat_agent, "auction start")
        apply_start(bs, actor, start, card, suit)
    elif phase == OFFER:
        card = _decide(distinct, seat_agent, view, bs.u[:, SLOT_OFFER + s], "choose_offer")
        bad = (bs.starter >= 0) & ~_holds(view.legal, card)
        _check(bs, bad, card, view.legal, actor, distinct, seat_agent, "offer")
        apply_offer(bs, actor, card)
    elif phase == TAKE:
        card = _decide(distinct, seat_agent, view, bs.u[:, SLOT_TAKE], "choose_take")
        bad = (bs.starter >= 0) & ~bs.forced & ~_holds(view.legal, card)
        _check(bs, bad, card, view.legal, actor, distinct, seat_agent, "take")
        apply_take(bs, card)
    elif phase == KITTY:
        card = _decide(distinct, seat_agent, view, bs.u[:, SLOT_KITTY + s], "choose_kitty")
        bad = ~_holds(view.legal, card)
        _check(bs, bad, card, view.legal, actor, distinct, seat_agent, "kitty card")
        apply_kitty(bs, actor, card)


def play(
    bs: BatchState,
    agents: Sequence[BatchAgent],
    rng: np.random.Generator | None,
    recording: Recording | None = None,
    *,
    to_deal_end: bool = False,
) -> BatchState:
    """Play every game of the batch from where it stands: to the end of the game, or with
    ``to_deal_end`` to the end of the deal in progress (the rollouts' horizon)."""
    distinct, seat_agent = distinct_agents(agents)
    if bs.deal == 0:
        begin_deal(bs, rng)
    while True:
        while bs.phase != OVER:
            step(bs, distinct, seat_agent, recording)
        if to_deal_end or bs.deal == bs.rules.deals:
            return bs
        begin_deal(bs, rng)


def final_scores(bs: BatchState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, ranks, win share) per game and seat; ties share a rank and the win."""
    scores = bs.scores
    ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    winners = ranks == 1
    share = winners / winners.sum(axis=1, keepdims=True)
    return scores, ranks, share


__all__ = [
    "AUCTION",
    "KITTY",
    "OFFER",
    "OVER",
    "PLAY",
    "TAKE",
    "BatchAgent",
    "BatchState",
    "Recording",
    "View",
    "begin_deal",
    "final_scores",
    "new_batch",
    "play",
]
