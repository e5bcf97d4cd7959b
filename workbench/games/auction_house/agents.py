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

from workbench.games.auction_house.batch import AUCTION, KITTY, OFFER, OVER, PLAY, TAKE, View
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
from workbench.kit.batching import BatchWrittenAgent
from workbench.kit.lineup import agent_repr, make_named_agent

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


class _BatchWrittenAgent(BatchWrittenAgent):
    """Auction House's batch methods (start, offer, take, kitty, play); the step call runs them
    on a batch of one."""

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
    return make_named_agent(
        AGENTS, name, options, game="auction_house", rules=rules, rules_type=Rules
    )


class DeterminizationAgent:
    """Chooses by playing every candidate action out in sampled worlds.

    For each decision it draws ``worlds`` deals consistent with its observation (``sample_
    worlds``: the unseen cards dealt to the other seats' hands and kitty cards, respecting
    the suits each has shown void in, the cards the table saw it holds after the auction, and
    hand sizes; the trump card, while still face down, from the rest of the trump deck), then
    plays each candidate to the end of the deal in every world with ``rollout`` agents in the
    batch engine (the same worlds for every candidate) and takes the candidate with the best
    mean of (its kitty points won - the others' mean) this deal plus ``trick_weight`` x (its
    tricks - the most any other seat took), which steadies the choice between candidates the
    kitty alone scores alike. Step-only (it reads a whole observation); slow: about 0.6 s a
    game with 16 worlds.
    """

    name = "determinization"
    __repr__ = agent_repr

    def __init__(
        self, worlds: int = 16, rollout: object | None = None, trick_weight: float = 1.0
    ) -> None:
        if isinstance(worlds, bool) or not isinstance(worlds, int | np.integer) or worlds < 1:
            raise ValueError(f"worlds must be a positive whole number, got {worlds!r}")
        if isinstance(trick_weight, bool) or not isinstance(trick_weight, int | float):
            raise ValueError(f"trick_weight must be a number, got {trick_weight!r}")
        self.worlds = int(worlds)
        self.trick_weight = float(trick_weight)
        self.rollout = rollout if rollout is not None else HeuristicAgent()
        for method in ("choose_start", "choose_play"):
            if not hasattr(self.rollout, method):
                raise ValueError(
                    f"rollout must be a batch agent (random or heuristic), got {self.rollout!r}"
                )


    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        from workbench.games.auction_house.batch import (
            apply_kitty,
            apply_offer,
            apply_play,
            apply_start,
            apply_take,
            play,
        )

        worlds = self.worlds
        candidates = len(legal_actions)
        batch = sample_worlds(observation, worlds, rng, repeat=candidates)
        me = observation.player
        actor = np.full(batch.games, me)
        phase = batch.phase
        if phase == AUCTION:
            start = np.repeat([isinstance(a, Start) for a in legal_actions], worlds)
            card = np.repeat(
                [card_index(a.card) if isinstance(a, Start) else 0 for a in legal_actions], worlds
            )
            suit = np.repeat(
                [SUITS.index(a.suit) if isinstance(a, Start) else 0 for a in legal_actions], worlds
            )
            apply_start(batch, actor, start, card, suit)
        else:
            card = np.repeat([card_index(a.card) for a in legal_actions], worlds)
            if phase == OFFER:
                apply_offer(batch, actor, card)
            elif phase == TAKE:
                apply_take(batch, card)
            elif phase == KITTY:
                apply_kitty(batch, actor, card)
            else:
                apply_play(batch, actor, card)
        before = batch.scores.copy()
        if batch.phase != OVER:  # the candidate may itself end the deal (the last card)
            play(batch, [self.rollout] * PLAYERS, None, to_deal_end=True)
        gain = (batch.scores - before).astype(float)
        tricks = batch.tricks_won.astype(float)
        others = (gain.sum(axis=1) - gain[:, me]) / (PLAYERS - 1)
        lead = tricks[:, me] - np.delete(tricks, me, axis=1).max(axis=1)
        value = gain[:, me] - others + self.trick_weight * lead
        value = value.reshape(candidates, worlds).mean(axis=1)
        return legal_actions[int(np.argmax(value))]


def _seat_hand_sizes(observation: Observation) -> list[int]:
    """How many cards each seat holds now."""
    obs = observation
    if obs.phase in ("auction", "offer", "take"):
        return [10] * PLAYERS
    if obs.phase == "kitty":
        return [10 - int(placed) for placed in obs.kitty_placed]
    played = [0] * PLAYERS
    for trick in obs.tricks:
        for position in range(PLAYERS):
            played[(trick.leader + position) % PLAYERS] += 1
    for position in range(len(obs.trick)):
        played[(obs.leader + position) % PLAYERS] += 1
    return [9 - n for n in played]


def _deal_unseen(observation: Observation, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """One world consistent with ``observation``: (hand mask, kitty card or -1) for every seat
    (the observer's own as observed).

    Each other seat has a hand of its current size and, once placed, one face-down kitty card.
    A card of a suit the seat has shown void in can only be its kitty card; the cards the table
    knows it holds stay with it. Unseen cards are placed one at a time, in random order, into
    a slot chosen with weight proportional to the room left, among the slots that keep the rest
    placeable (checked exactly: Hall's condition over the sets of suits), so no world is ever
    rejected."""
    obs = observation
    me = obs.player
    sizes = _seat_hand_sizes(obs)
    known = [sorted(card_index(c) for c in cards) for cards in obs.known_holdings()]
    void_bits = [sum(1 << SUITS.index(s) for s in seat) for seat in obs.voids()]
    seen = _mask(obs.hand) | _mask(obs.played)
    if obs.own_kitty is not None:
        seen |= 1 << card_index(obs.own_kitty)
    others = [s for s in range(PLAYERS) if s != me]
    # Slots: per other seat, its hand (suits it is not void in) and its kitty card (any suit).
    accepts: list[int] = []
    room: list[int] = []
    placed: list[list[int]] = []
    owner: list[int] = []
    for seat in others:
        hand_room, kitty_room = sizes[seat], int(obs.kitty_placed[seat])
        hand_cards, kitty_cards = [], []
        for card in known[seat]:
            seen |= 1 << card
            if void_bits[seat] >> (card // SUIT_SIZE) & 1 or hand_room == 0:
                kitty_cards.append(card)
                kitty_room -= 1
            else:
                hand_cards.append(card)
                hand_room -= 1
        if kitty_room < 0 or hand_room < 0:
            raise ValueError(
                f"seat {me}'s observation is inconsistent: seat {seat} cannot hold {known[seat]}"
            )
        accepts += [15 & ~void_bits[seat], 15]
        room += [hand_room, kitty_room]
        placed += [hand_cards, kitty_cards]
        owner += [seat, seat]
    unseen = [c for c in range(len(DECK)) if not seen >> c & 1]
    left = [0] * len(SUITS)
    for card in unseen:
        left[card // SUIT_SIZE] += 1
    if not _placeable(left, accepts, room):
        raise ValueError(f"no deal is consistent with seat {me}'s observation")
    if all(accept == 15 for accept in accepts):  # no voids shown: every placement is fine
        order = rng.permutation(len(unseen))
        slots = np.repeat(np.arange(len(room)), room)
        for card_at, slot in zip(order, rng.permutation(slots), strict=True):
            placed[int(slot)].append(unseen[int(card_at)])
        return _finish_world(obs, others, placed, void_bits, rng)
    # Hall's condition, kept up to date: for every set of suits T, the cards of those suits
    # still to place (need) must fit the room of the slots taking any of them (cap).
    subsets = range(1, 16)
    hits = [[1 if accept & t else 0 for t in range(16)] for accept in accepts]
    cap = [sum(r * hit[t] for r, hit in zip(room, hits, strict=True)) for t in range(16)]
    need = [sum(left[s] for s in range(len(SUITS)) if t >> s & 1) for t in range(16)]
    for index in rng.permutation(len(unseen)):
        card = unseen[index]
        suit_bit = 1 << (card // SUIT_SIZE)
        for t in subsets:
            if t & suit_bit:
                need[t] -= 1
        options = [slot for slot in range(len(room)) if room[slot] and accepts[slot] & suit_bit]
        while True:
            weights = np.array([room[slot] for slot in options], float)
            slot = options[int(rng.choice(len(options), p=weights / weights.sum()))]
            hit = hits[slot]
            if all(need[t] <= cap[t] - hit[t] for t in subsets):
                break
            options.remove(slot)  # the rest could not be placed: another slot
        for t in subsets:
            cap[t] -= hit[t]
        room[slot] -= 1
        placed[slot].append(card)
    return _finish_world(obs, others, placed, void_bits, rng)


def _finish_world(
    obs: Observation,
    others: list[int],
    placed: list[list[int]],
    void_bits: list[int],
    rng: np.random.Generator,
) -> tuple[list[int], list[int]]:
    """Hand masks and kitty cards from the placed slots (see ``_deal_unseen``)."""
    me = obs.player
    masks, kitty = [0] * PLAYERS, [-1] * PLAYERS
    for position, seat in enumerate(others):
        hand_cards, kitty_cards = placed[2 * position], placed[2 * position + 1]
        if kitty_cards and not void_bits[seat] >> (kitty_cards[0] // SUIT_SIZE) & 1:
            # Any of its cards could be the kitty card: draw it from them all.
            pool = hand_cards + kitty_cards
            pick = int(rng.integers(len(pool)))
            kitty_cards = [pool[pick]]
            hand_cards = pool[:pick] + pool[pick + 1 :]
        masks[seat] = sum(1 << c for c in hand_cards)
        kitty[seat] = kitty_cards[0] if kitty_cards else -1
    masks[me] = _mask(obs.hand)
    kitty[me] = -1 if obs.own_kitty is None else card_index(obs.own_kitty)
    return masks, kitty


def _placeable(left: list[int], accepts: list[int], room: list[int]) -> bool:
    """Can ``left[suit]`` cards of each suit fill slots with ``room`` that take the suits in
    ``accepts`` (bit masks)? Hall's condition: every set of suits fits in the room of the
    slots taking any of them."""
    for suits in range(1, 16):
        need = sum(left[s] for s in range(len(SUITS)) if suits >> s & 1)
        if need and need > sum(r for a, r in zip(accepts, room, strict=True) if a & suits):
            return False
    return True


def sample_worlds(
    observation: Observation, worlds: int, rng: np.random.Generator, *, repeat: int = 1
) -> object:
    """A batch of ``worlds`` deals consistent with ``observation``, each repeated ``repeat``
    times (row ``copy * worlds + world``), standing where the observer is to act."""
    from workbench.games.auction_house.batch import SLOTS, BatchState

    obs = observation
    rules = obs.rules
    me = obs.player
    hands = np.zeros((worlds, PLAYERS), np.uint64)
    kitty = np.full((worlds, PLAYERS), -1, np.int64)
    offers = np.full((worlds, PLAYERS), -1, np.int64)
    revealed_offers = [-1 if c is None else card_index(c) for c in obs.offers]
    for w in range(worlds):
        masks, kitty_cards = _deal_unseen(obs, rng)
        hands[w] = masks
        kitty[w] = kitty_cards
        offers[w] = revealed_offers
        if obs.phase == "offer":  # offers already face down: drawn from each offerer's hand
            for seat in range(PLAYERS):
                if obs.offered[seat] and seat != me:
                    cards = [c for c in range(len(DECK)) if masks[seat] >> c & 1]
                    offers[w, seat] = cards[int(rng.integers(len(cards)))]
    if obs.own_offer is not None:
        offers[:, me] = card_index(obs.own_offer)
    remaining_trumps = _remaining_trump_deck(obs)
    trump_cards = np.zeros((worlds, len(TRUMP_DECK_ALL)), np.int8)
    for w in range(worlds):
        drawn = [remaining_trumps[i] for i in rng.permutation(len(remaining_trumps))]
        trump_cards[w] = [TRUMP_DECK_ALL.index(c) for c in (*obs.revealed_trumps, *drawn)]

    def tile(array: np.ndarray) -> np.ndarray:
        return np.tile(array, (repeat,) + (1,) * (array.ndim - 1))

    total = worlds * repeat
    batch = BatchState(
        rules,
        np.full(total, obs.dealer),
        tile(trump_cards),
        np.zeros((total, 1, len(DECK)), np.int8),
    )
    batch.deal = obs.deal
    batch.dealer = np.full(total, obs.dealer)
    batch._clear_deal()
    batch.phase = _PHASE_CODE[obs.phase]
    batch.step = view_of(obs).step
    batch.u = rng.random((total, SLOTS))
    batch.hands = tile(hands)
    batch.kitty = tile(kitty)
    batch.offers = tile(offers)
    batch.scores = np.tile(np.array(obs.scores, np.int64), (total, 1))
    batch.carried_in = np.full(total, obs.carried_in)
    batch.trump_shown = obs.trump_shown
    batch.trump = np.full(total, SUITS.index(obs.trump) if obs.trump is not None else -1)
    if obs.starter is not None:
        batch.starter[:] = obs.starter
        batch.face_up[:] = card_index(obs.face_up)
        batch.called[:] = SUITS.index(obs.called)
    if obs.taken is not None:
        batch.taken[:] = card_index(obs.taken)
        batch.taken_from[:] = obs.taken_from
        batch.forced[:] = obs.phase != "take" and _was_forced(obs)
    view = view_of(obs)
    batch.leader[:] = view.leader[0]
    batch.trick[:] = view.trick[0]
    batch.tricks_won[:] = obs.tricks_won
    batch.played[:] = view.played[0]
    batch.voids[:] = view.voids[0]
    return batch


def _was_forced(observation: Observation) -> bool:
    called = observation.called
    return any(c is not None and c[-1] == called for c in observation.offers)


TRUMP_DECK_ALL = tuple(f"{face}{suit}" for suit in SUITS for face in ("J", "Q", "K"))


def _remaining_trump_deck(observation: Observation) -> list[str]:
    shown = set(observation.revealed_trumps)
    return [c for c in TRUMP_DECK_ALL if c not in shown]


AGENTS["determinization"] = DeterminizationAgent

__all__ = [
    "AGENTS",
    "DeterminizationAgent",
    "HeuristicAgent",
    "RandomAgent",
    "make_agent",
    "sample_worlds",
    "view_of",
]
