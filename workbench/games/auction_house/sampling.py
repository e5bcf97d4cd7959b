"""Drawing what one seat cannot see, uniformly over the consistent fillings (``hidden``): as
step-engine States (``sample_states``) or straight into compiled rows by rejection
(``fill_rows`` for the determinization agent, ``fill`` compiled for the search), ``hidden``'s
exact sampler making up what rejection does not keep. A sampled State draws the chance still
to come afresh, and holds one reconstruction of past deals' private record consistent with the
public one (it cannot change anything still to come).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

from workbench.checks import whole_number
from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import (
    DECK_SIZE,
    INDEX,
    SUIT_SIZE,
    SUITS,
    TRUMP_DECK,
    card_bits,
)
from workbench.games.auction_house.chance import Deal
from workbench.games.auction_house.engine import State
from workbench.games.auction_house.hidden import (
    Hidden,
    exact_sampler,
    hidden_trump_options,
    read_hidden,
)
from workbench.games.auction_house.observation import Observation
from workbench.games.auction_house.positions import observation_row
from workbench.games.auction_house.rules import PLAYERS
from workbench.kit.streams import bounded, state_of, store

_SUIT = {suit: index for index, suit in enumerate(SUITS)}
_BIT = [1 << card for card in range(DECK_SIZE)]
#: Rejection draws per filling wanted by ``fill_rows`` (when some seat has shown a void).
FILL_ROWS_TRIES = 4
#: ``fill``'s rejection draws allowed per filling wanted before the exact sampler makes up
#: the rest, and the draws per filling after which it stops when fewer than one in
#: ``REJECTION_TRIES`` was kept (it would not finish).
REJECTION_TRIES = 512
REJECTION_PROBE = 32
_TRUMP_INDEX = {card: i for i, card in enumerate(TRUMP_DECK)}


@lru_cache(maxsize=64)
def _past_records(history: tuple) -> tuple[tuple, tuple, tuple]:
    """Each finished deal's dealt hands, kitty card by seat and a shuffle dealing them, one
    reconstruction consistent with the public record."""
    hands_history, kitty_history, shuffles = [], [], []
    for record in history:
        held = [set() for _ in range(PLAYERS)]
        for trick in record.tricks:
            for position, card in enumerate(trick.cards):
                held[(trick.leader + position) % PLAYERS].add(INDEX[card])
        seen_with: dict[int, int] = {}
        auction = record.auction
        if auction is not None:
            seen_with[INDEX[auction.taken]] = auction.starter
            seen_with[INDEX[auction.face_up]] = auction.taken_from
            for seat, card in enumerate(auction.offers):
                if card is not None and seat != auction.taken_from:
                    seen_with[INDEX[card]] = seat
        kitty: list[int | None] = [None] * PLAYERS
        left = []
        for card in (INDEX[c] for c in record.kitty):
            seat = seen_with.get(card)
            if seat is not None and kitty[seat] is None:
                kitty[seat] = card
            else:
                left.append(card)
        for seat in range(PLAYERS):
            if kitty[seat] is None:
                kitty[seat] = left.pop(0)
        dealt = [held[s] | {kitty[s]} for s in range(PLAYERS)]
        if auction is not None:
            taken, face_up = INDEX[auction.taken], INDEX[auction.face_up]
            dealt[auction.starter] = dealt[auction.starter] - {taken} | {face_up}
            dealt[auction.taken_from] = dealt[auction.taken_from] - {face_up} | {taken}
        hands_history.append(tuple(sum(1 << c for c in cards) for cards in dealt))
        kitty_history.append(tuple(kitty))
        shuffles.append(_shuffle_dealing([sorted(cards) for cards in dealt], record.dealer))
    return tuple(hands_history), tuple(kitty_history), tuple(shuffles)


def _shuffle_dealing(hands: Sequence[Sequence[int]], dealer: int) -> tuple[int, ...]:
    """The shuffle that deals ``hands`` (ten cards each) one at a time from the dealer's left."""
    order = [hands[(dealer + 1 + k) % PLAYERS] for k in range(PLAYERS)]
    return tuple(itertools.chain.from_iterable(zip(*order, strict=True)))


class _Frame:
    """What every State sampled from one observation shares, and how to finish one from a
    filling and the chance still to come."""

    def __init__(self, observation: Observation, hidden: Hidden) -> None:
        obs = observation
        self.seats = hidden.seats
        self.me = hidden.me
        self.dealer = obs.dealer
        self.first_dealer = (obs.dealer - (obs.deal - 1)) % PLAYERS
        hands_history, kitty_history, self.past_shuffles = _past_records(obs.history)
        forced = obs.taken is not None and any(c is not None and c[-1] == obs.called
                                               for c in obs.offers)  # fmt: skip
        self.fields = {
            "rules": obs.rules, "deal": obs.deal, "dealer": obs.dealer, "phase": obs.phase,
            "scores": obs.scores, "carried_in": obs.carried_in, "trump_shown": obs.trump_shown,
            "trump": _SUIT.get(obs.trump), "trump_card": obs.trump_card,
            "asked": len(obs.passes) + (obs.starter is not None), "passes": obs.passes,
            "starter": obs.starter, "face_up": INDEX.get(obs.face_up),
            "called": _SUIT.get(obs.called), "n_offers": sum(obs.offered),
            "taken": INDEX.get(obs.taken), "taken_from": obs.taken_from, "forced": forced,
            "n_kitty": sum(obs.kitty_placed),
            "leader": obs.leader if obs.phase == "play" else (obs.dealer + 1) % PLAYERS,
            "trick": tuple(INDEX[c] for c in obs.trick),
            "tricks": tuple((t.leader, tuple(INDEX[c] for c in t.cards), t.winner)
                            for t in obs.tricks),
            "tricks_won": obs.tricks_won, "history": obs.history,
            "kitty_history": kitty_history, "hands_history": hands_history,
        }  # fmt: skip
        self.played: list[list[int]] = [[] for _ in range(PLAYERS)]
        for seat, card, _ in obs.plays():
            self.played[seat].append(INDEX[card])
        self.my_hand = [INDEX[c] for c in obs.hand]
        self.my_kitty = INDEX.get(obs.own_kitty)
        self.offers = [INDEX.get(c) for c in obs.offers]
        if obs.own_offer is not None:
            self.offers[self.me] = INDEX[obs.own_offer]
        self.swap = None
        if obs.taken is not None:
            self.swap = (obs.starter, obs.taken_from, INDEX[obs.taken], INDEX[obs.face_up])
        self.revealed = obs.revealed_trumps
        self.unturned = [c for c in TRUMP_DECK if c not in obs.revealed_trumps]
        self.future = 13 - obs.deal

    def state(self, hand_cards: list[list[int]], kitty_cards: list[int | None],
              hidden_offers: list[int | None], trump_card: str | None, trump_order: list[int],
              future: list[tuple[int, ...]]) -> State:  # fmt: skip
        """The State of one filling; ``trump_order`` orders the trump cards still face down
        (after ``trump_card``), ``future`` holds the later deals' shuffles."""
        hands, kitty, offers = [0] * PLAYERS, [None] * PLAYERS, list(self.offers)
        dealt_cards: list[list[int]] = [[] for _ in range(PLAYERS)]
        held = [[] for _ in range(PLAYERS)]
        held[self.me] = self.my_hand
        kitty[self.me] = self.my_kitty
        for i, seat in enumerate(self.seats):
            held[seat], kitty[seat] = hand_cards[i], kitty_cards[i]
            if hidden_offers[i] is not None:
                offers[seat] = hidden_offers[i]
        for seat in range(PLAYERS):
            hands[seat] = sum(map(_BIT.__getitem__, held[seat]))
            cards = held[seat] + self.played[seat]
            if kitty[seat] is not None:
                cards.append(kitty[seat])
            dealt_cards[seat] = cards
        if self.swap is not None:  # undo the swap
            starter, giver, taken, face_up = self.swap
            dealt_cards[starter][dealt_cards[starter].index(taken)] = face_up
            dealt_cards[giver][dealt_cards[giver].index(face_up)] = taken
        unturned = self.unturned
        head = self.revealed
        if trump_card is not None:
            unturned = [c for c in unturned if c != trump_card]
            head = (*head, trump_card)
        trump_cards = head + tuple(unturned[k] for k in trump_order)
        shuffles = (*self.past_shuffles, _shuffle_dealing(dealt_cards, self.dealer), *future)
        state = State.__new__(State)
        fields = state.__dict__
        fields.update(self.fields)
        fields.update(
            chance=Deal(self.first_dealer, trump_cards, shuffles), hands=tuple(hands),
            dealt=tuple(sum(map(_BIT.__getitem__, cards)) for cards in dealt_cards),
            offers=tuple(offers), kitty=tuple(kitty),
        )  # fmt: skip
        return state


def _permutations(rng: np.random.Generator, rows: int, size: int) -> list[list[int]]:
    """``rows`` independent uniformly random orders of range(size)."""
    if rows == 0:
        return []
    return rng.permuted(np.tile(np.arange(size), (rows, 1)), axis=1).tolist()


def sample_states(observation: Observation, rng: np.random.Generator, count: int) -> list[State]:
    """``count`` step-engine States consistent with ``observation``, each filling of the hidden
    information equally likely, the chance still to come drawn afresh for each."""
    count = whole_number("count", count, low=0)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, got {type(rng).__name__}")
    hidden = read_hidden(observation)
    sampler = exact_sampler(hidden)
    trumps = hidden_trump_options(observation)
    frame = _Frame(observation, hidden)
    unturned = len(frame.unturned) - (trumps[0] is not None)
    trump_orders = _permutations(rng, count, unturned)
    future = [tuple(row) for row in _permutations(rng, count * frame.future, DECK_SIZE)]
    states = []
    for k in range(count):
        hand_cards, kitty = sampler.draw(rng)
        offers = [cards[int(rng.integers(len(cards)))] if hidden.offer_hidden[i] else None
                  for i, cards in enumerate(hand_cards)]  # fmt: skip
        trump = trumps[int(rng.integers(len(trumps)))] if len(trumps) > 1 else trumps[0]
        later = future[k * frame.future : (k + 1) * frame.future]
        states.append(frame.state(hand_cards, kitty, offers, trump, trump_orders[k], later))
    return states


# -- rows --------------------------------------------------------------------------------------


def fill_rows(
    observation: Observation, hidden: Hidden, count: int, rng: np.random.Generator
) -> np.ndarray:
    """``count`` rows of the position, every other seat's hand, kitty card and face-down offer
    filled in uniformly over the consistent fillings (by ``_rejection_fillings``, the exact
    sampler making up the rest; a face-down offer a uniformly random card of its hand)."""
    rows = np.tile(observation_row(observation), (count, 1))
    room, has_kitty = np.array(hidden.room), np.array(hidden.has_kitty, bool)
    ends = np.cumsum(room + has_kitty)
    starts = ends - room - has_kitty
    places = _rejection_fillings(hidden, count, rng)
    drawn = len(places)
    bits = np.int64(1) << places
    for i, seat in enumerate(hidden.seats):
        rows[:drawn, layout.HANDS + seat] = bits[:, starts[i] : starts[i] + room[i]].sum(axis=1)
        rows[:drawn, layout.KITTY_CARDS + seat] = places[:, ends[i] - 1] if has_kitty[i] else -1
    _exact_rows(hidden, rows, drawn, rng)
    for i, seat in enumerate(hidden.seats):
        if hidden.offer_hidden[i]:  # a uniformly random card of the hand
            picks = (rng.random(count) * room[i]).astype(np.int64)
            hands = zip(rows[:, layout.HANDS + seat].tolist(), picks.tolist(), strict=True)
            rows[:, layout.OFFERS + seat] = [card_bits(hand)[k] for hand, k in hands]
    return rows


def _exact_rows(hidden: Hidden, rows: np.ndarray, first: int, rng: np.random.Generator) -> None:
    """Rows ``first``.. of ``rows`` (the observation's) filled by the exact sampler."""
    if first == len(rows):
        return
    exact = exact_sampler(hidden)
    for n in range(first, len(rows)):
        hand_cards, kitty_cards = exact.draw(rng)
        for i, seat in enumerate(hidden.seats):
            rows[n, layout.HANDS + seat] = sum(1 << c for c in hand_cards[i])
            rows[n, layout.KITTY_CARDS + seat] = -1 if kitty_cards[i] is None else kitty_cards[i]


def _rejection_fillings(hidden: Hidden, count: int, rng: np.random.Generator) -> np.ndarray:
    """Up to ``count`` uniform fillings, cards by place (each other seat's hand, then its kitty
    card): known cards at random places of their seat's, the unseen in random order over the
    rest (each filling equally often), kept when no hand holds a suit its seat is void in."""
    room, has_kitty = np.array(hidden.room), np.array(hidden.has_kitty, bool)
    ends = np.cumsum(room + has_kitty)
    starts = ends - room - has_kitty
    total = int(ends[-1])
    voided = any(hidden.voids)
    tries = count * (FILL_ROWS_TRIES if voided else 1)
    drawn = np.full((tries, total), -1, np.int64)
    every = np.arange(tries)[:, None]
    for i, known in enumerate(hidden.known):
        if known:
            keys = rng.random((tries, int(ends[i] - starts[i])))
            chosen = np.argsort(keys, axis=1)[:, : len(known)] + starts[i]
            drawn[every, chosen] = np.array(known, np.int64)[None, :]
    if hidden.unseen:
        order = rng.permuted(np.tile(np.array(hidden.unseen), (tries, 1)), axis=1)
        drawn[drawn < 0] = order.ravel()
    if voided:
        owner = np.repeat(np.arange(3), room + has_kitty)
        in_hand = np.concatenate([
            [True] * int(r) + [False] * int(k) for r, k in zip(room, has_kitty, strict=True)
        ])  # fmt: skip
        void_of_place = np.array([hidden.voids[o] for o in owner], np.int64)[None, :]
        clash = (void_of_place >> (drawn // SUIT_SIZE)) & 1 & in_hand[None, :]
        drawn = drawn[~clash.astype(bool).any(axis=1)]
    return drawn[:count]


@dataclass(frozen=True)
class RowFilling:
    """An observation ready to fill into rows again and again: its row, its hidden cards as
    flat arrays (per seat of ``hidden.seats``) and its trump cards, the turned ones first."""

    hidden: Hidden
    row: np.ndarray  # int64 (ROW,): what the seat knows
    seats: np.ndarray  # int64 (3,)
    room: np.ndarray  # int64 (3,): cards in the hand
    has_kitty: np.ndarray  # int64 (3,): 1 once the seat's kitty card is down
    voids: np.ndarray  # int64 (3,): bit per suit the hand cannot hold
    offer_hidden: np.ndarray  # bool (3,)
    known: np.ndarray  # int64: every seat's known cards, one after the other
    known_ends: np.ndarray  # int64 (4,): seat i's known cards are known[ends[i]:ends[i + 1]]
    unseen: np.ndarray  # int64
    trump_order: np.ndarray  # int8 (12,): the turned trump cards first, the rest in order
    turned: int


def row_filling(observation: Observation, hidden: Hidden, row: np.ndarray | None = None
                    ) -> RowFilling:  # fmt: skip
    """``observation`` ready to fill (``hidden`` is ``read_hidden(observation)``, ``row`` its
    ``observation_row`` when already built)."""
    revealed = [_TRUMP_INDEX[c] for c in observation.revealed_trumps]
    order = [*revealed, *(i for i in range(len(TRUMP_DECK)) if i not in revealed)]
    ends = [0]
    for cards in hidden.known:
        ends.append(ends[-1] + len(cards))
    # One array per kind of value, its rows the per-seat fields (one conversion, not six).
    seat_fields = np.array([hidden.seats, hidden.room, hidden.has_kitty, hidden.voids], np.int64)
    cards = np.array([*(c for known in hidden.known for c in known), *hidden.unseen, *ends],
                     np.int64)  # fmt: skip
    known_count = ends[-1]
    return RowFilling(
        hidden, observation_row(observation) if row is None else row, *seat_fields,
        np.array(hidden.offer_hidden, bool), cards[:known_count],
        cards[known_count + len(hidden.unseen) :],
        cards[known_count : known_count + len(hidden.unseen)], np.array(order, np.int8),
        len(revealed),
    )  # fmt: skip


def fill(position: RowFilling, count: int, state: np.ndarray, rng: np.random.Generator
         ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``count`` rows of the position filled uniformly, and the PCG ``state`` to go on from
    (the exact sampler, when needed, draws from ``rng`` at ``state``)."""
    p = position
    rows = np.empty((count, layout.ROW), np.int64)
    kept = reject_fill(state, p.row, p.seats, p.room, p.has_kitty, p.voids, p.known,
                        p.known_ends, p.unseen, rows, count * REJECTION_TRIES,
                        count * REJECTION_PROBE, REJECTION_TRIES)  # fmt: skip
    if kept < count:
        store(rng, state)
        rows[kept:] = p.row
        _exact_rows(p.hidden, rows, kept, rng)
        state = state_of(rng)
    if p.offer_hidden.any():
        draw_offers(state, rows, p.seats, p.room, p.offer_hidden)
    return rows, state


@numba.njit(cache=True)
def draw_offers(state: np.ndarray, rows: np.ndarray, seats: np.ndarray, room: np.ndarray,
                 offer_hidden: np.ndarray) -> None:  # fmt: skip
    """Each face-down offer: a uniformly random card of its owner's filled-in hand."""
    for r in range(rows.shape[0]):
        for i in range(seats.shape[0]):
            if offer_hidden[i]:  # the k-th lowest card of the hand
                k, hand = bounded(state, room[i]), rows[r, layout.HANDS + seats[i]]
                for _ in range(k):
                    hand &= hand - 1
                lowest = 0
                while not (hand >> lowest) & 1:
                    lowest += 1
                rows[r, layout.OFFERS + seats[i]] = lowest


@numba.njit(cache=True)
def reject_fill(state: np.ndarray, base: np.ndarray, seats: np.ndarray, room: np.ndarray,
                 has_kitty: np.ndarray, voids: np.ndarray, known: np.ndarray,
                 known_ends: np.ndarray, unseen: np.ndarray, rows: np.ndarray, tries: int,
                 probe: int, give_up: int) -> int:  # fmt: skip
    """Fill rows by rejection until all are kept or ``tries`` draws are spent, or after
    ``probe`` draws fewer than one in ``give_up`` was kept; how many were kept. (Each kept row
    is uniform whenever the drawing stops: when to stop depends on how many were kept, never
    on which.)

    A draw places the cards one by one, the most restricted first, each in one of ``bound[t]``
    slots: the free places it may take (a hand of a seat not void in its suit, or a kitty
    card; a known card only its seat's), then dead slots that drop the draw. ``bound[t]`` is
    fixed beforehand at no fewer than such places can ever be free, so every complete
    placement keeps the same probability, the product of 1 / bound: uniform over the places
    that break no rule, hence over the consistent fillings."""
    seats_n = seats.shape[0]
    kinds = 2 * seats_n  # where a card may go: seat i's hand (i) or its kitty card (3 + i)
    cap = np.zeros(kinds, np.int64)
    for i in range(seats_n):
        cap[i], cap[seats_n + i] = room[i], has_kitty[i]
    count = known.shape[0] + unseen.shape[0]
    cards, allowed = np.empty(count, np.int64), np.empty(count, np.int64)
    for i in range(seats_n):
        for k in range(known_ends[i], known_ends[i + 1]):
            cards[k] = known[k]
            suit_free = not (voids[i] >> (known[k] // SUIT_SIZE)) & 1
            allowed[k] = (np.int64(1) << i if suit_free else 0) | np.int64(1) << (seats_n + i)
    for k in range(unseen.shape[0]):
        t = known.shape[0] + k
        cards[t] = unseen[k]
        mask = np.int64(0)
        for i in range(seats_n):
            if not (voids[i] >> (unseen[k] // SUIT_SIZE)) & 1:
                mask |= np.int64(1) << i
            mask |= np.int64(1) << (seats_n + i)
        allowed[t] = mask
    room_of = np.zeros(count, np.int64)
    for t in range(count):
        for kind in range(kinds):
            if (allowed[t] >> kind) & 1:
                room_of[t] += cap[kind]
    order = np.argsort(room_of * 64 + allowed, kind="mergesort")  # most restricted first
    cards, allowed, room_of = cards[order], allowed[order], room_of[order]
    bound = np.empty(count, np.int64)
    for t in range(count):
        inside = 0  # earlier cards that can only sit inside this card's places
        for e in range(t):
            if allowed[e] & ~allowed[t] == 0:
                inside += 1
        bound[t] = min(room_of[t] - inside, count - t)
        if bound[t] < 1:
            return 0  # no placement in this order: the exact sampler does it all
    free = np.empty(kinds, np.int64)
    hands = np.empty(seats_n, np.int64)
    kitty = np.empty(seats_n, np.int64)
    kept = 0
    for spent in range(tries):
        if kept == rows.shape[0]:
            break
        if spent == probe and kept * give_up < spent:
            break  # too rare a keep: the exact sampler is cheaper for the rest
        free[:] = cap
        hands[:] = 0
        kitty[:] = -1
        dropped = False
        for t in range(count):
            slot = bounded(state, bound[t])
            kind = -1
            for candidate in range(kinds):
                if (allowed[t] >> candidate) & 1:
                    if slot < free[candidate]:
                        kind = candidate
                        break
                    slot -= free[candidate]
            if kind < 0:  # a dead slot
                dropped = True
                break
            free[kind] -= 1
            if kind < seats_n:
                hands[kind] |= np.int64(1) << cards[t]
            else:
                kitty[kind - seats_n] = cards[t]
        if dropped:
            continue
        rows[kept] = base
        for i in range(seats_n):
            rows[kept, layout.HANDS + seats[i]] = hands[i]
            rows[kept, layout.KITTY_CARDS + seats[i]] = kitty[i]
        kept += 1
    return kept


__all__ = ["RowFilling", "draw_offers", "fill", "fill_rows", "reject_fill", "row_filling",
           "sample_states"]  # fmt: skip
