"""The search agent's rounds, compiled: fill in what one seat cannot see and play every
surviving candidate on those fillings, drawing from the search's own Generator (``pcg``: its
PCG64 stepped in compiled code), with no Python per row or card. ``halve`` runs a decision's
whole sequential halving in one call; ``fill`` and ``play_round`` are its two steps a round,
which the kit's Python halving calls when rejection keeps too few fillings.

``SearchPosition`` holds what does not change between the rounds of one decision: the
observation's row, its hidden cards as flat arrays (``sampling.Hidden``) and the order of the
trump cards turned. ``fill`` draws the fillings by rejection, as ``fillings.fill_rows`` does,
but from a closer proposal: each card, the most restricted first, takes a uniformly random slot
among a fixed number, the places it may go (never a hand of a seat void in its suit; a card the
table saw a seat hold, only that seat's) and dead slots that drop the draw (``_reject_fill``:
every complete placement equally likely, so uniform over the consistent fillings); when too
few are kept within ``REJECTION_TRIES`` draws a filling (or the first ``REJECTION_PROBE`` a
filling keep too few to finish), ``sampling``'s exact sampler makes up the rest. A face-down
offer is a uniformly random card of its owner's hand. ``play_round`` draws each
filling's chance still to come, writes every candidate into a copy (common random numbers),
plays them all to the end of the deal and values each by the chance of winning the game its
scores then leave (``win_chance``). (numba's caches of ``play_round`` and ``halve`` follow this
file only: after a change to ``compiled``, ``policies`` or the kit's halving schedule they keep
the old code until this file changes or the cache is cleared.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import DECK_SIZE, POINTS, SUIT_SIZE, TRUMP_DECK
from workbench.games.auction_house.compiled import apply_choice, play_rows
from workbench.games.auction_house.observation import Observation
from workbench.games.auction_house.positions import observation_row
from workbench.games.auction_house.rules import PLAYERS
from workbench.games.auction_house.sampling import Hidden, _sampler
from workbench.kit.search import halving_rounds, round_fillings, survivors
from workbench.kit.streams import bounded, random, state_of, store

#: Rejection draws allowed per filling wanted before the exact sampler makes up the rest (a
#: draw dropped costs well under a microsecond, an exact draw 15-50 us).
REJECTION_TRIES = 512
#: Rejection draws per filling after which it stops when fewer than one in REJECTION_TRIES
#: was kept (it would not finish: the exact sampler makes up the rest at once).
REJECTION_PROBE = 32
#: The spread (standard deviation) of one deal's points between two seats: a kitty of mean
#: points (a card of the deck's mean from each seat) going to one seat in four.
#: Fitted self-play at the rulebook's rules measures 17.5, carry-overs included.
DEAL_SPREAD = PLAYERS * sum(POINTS) / len(POINTS) * math.sqrt(2 / PLAYERS)
_TRUMP_INDEX = {card: i for i, card in enumerate(TRUMP_DECK)}


@dataclass(frozen=True)
class SearchPosition:
    """One observation ready for rounds of search (module docstring); per-seat arrays follow
    ``hidden.seats``."""

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


def search_position(observation: Observation, hidden: Hidden, row: np.ndarray | None = None
                    ) -> SearchPosition:  # fmt: skip
    """What every round of one decision shares (``hidden`` is ``read_hidden(observation)``,
    ``row`` its ``observation_row`` when already built)."""
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
    return SearchPosition(
        hidden=hidden,
        row=observation_row(observation) if row is None else row,
        seats=seat_fields[0],
        room=seat_fields[1],
        has_kitty=seat_fields[2],
        voids=seat_fields[3],
        offer_hidden=np.array(hidden.offer_hidden, bool),
        known=cards[:known_count],
        known_ends=cards[known_count + len(hidden.unseen) :],
        unseen=cards[known_count : known_count + len(hidden.unseen)],
        trump_order=np.array(order, np.int8),
        turned=len(revealed),
    )


def fill(position: SearchPosition, count: int, state: np.ndarray, rng: np.random.Generator
         ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``count`` rows of the position with the other seats' hands and kitty cards filled in
    uniformly over the consistent fillings, and the PCG state to go on drawing from (the
    exact sampler, when needed, draws from ``rng`` at ``state``)."""
    p = position
    rows = np.empty((count, layout.ROW), np.int64)
    kept = _reject_fill(state, p.row, p.seats, p.room, p.has_kitty, p.voids, p.known,
                        p.known_ends, p.unseen, rows, count * REJECTION_TRIES,
                        count * REJECTION_PROBE, REJECTION_TRIES)  # fmt: skip
    if kept < count:
        store(rng, state)
        exact = _sampler(p.hidden)
        for n in range(kept, count):
            hand_cards, kitty_cards = exact.draw(rng)
            rows[n] = p.row
            for i, seat in enumerate(p.hidden.seats):
                rows[n, layout.HANDS + seat] = sum(1 << c for c in hand_cards[i])
                card = kitty_cards[i]
                rows[n, layout.KITTY_CARDS + seat] = -1 if card is None else card
        state = state_of(rng)
    if p.offer_hidden.any():
        _draw_offers(state, rows, p.seats, p.room, p.offer_hidden)
    return rows, state


@numba.njit(cache=True)
def _draw_offers(state: np.ndarray, rows: np.ndarray, seats: np.ndarray, room: np.ndarray,
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
def _reject_fill(state: np.ndarray, base: np.ndarray, seats: np.ndarray, room: np.ndarray,
                 has_kitty: np.ndarray, voids: np.ndarray, known: np.ndarray,
                 known_ends: np.ndarray, unseen: np.ndarray, rows: np.ndarray, tries: int,
                 probe: int, give_up: int) -> int:  # fmt: skip
    """Fill rows by rejection (module docstring) until all are kept or ``tries`` draws are
    spent, or after ``probe`` draws fewer than one in ``give_up`` was kept; how many were kept.
    (Each kept row is uniform whenever the drawing stops: when to stop depends on how many
    were kept, never on which.)

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


@numba.njit(cache=True)
def _shuffle(state: np.ndarray, values: np.ndarray) -> None:
    """Shuffle ``values`` in place, uniformly (Fisher-Yates from the last position)."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = bounded(state, i + 1)
        values[i], values[j] = values[j], values[i]


@numba.njit(cache=True)
def win_chance(row: np.ndarray, me: int, deals: int, spread: float) -> float:
    """Seat ``me``'s chance of winning the game from a deal's end: its share of the win once
    the game is over; before, its final lead over each other seat taken as normal, its mean
    the present lead and its spread ``spread`` x the square root of the deals still to play,
    independent across seats (a product over the other seats: an approximation, one that
    follows the scores and how many deals are left)."""
    mine, left = row[layout.SCORES + me], deals - row[layout.DEAL]
    if left == 0:
        best, tops = -(10**9), 0
        for seat in range(PLAYERS):
            score = row[layout.SCORES + seat]
            if score > best:
                best, tops = score, 1
            elif score == best:
                tops += 1
        return 1.0 / tops if mine == best else 0.0
    scale = spread * math.sqrt(2.0 * left)  # Phi(x / sd) = (1 + erf(x / (sd sqrt 2))) / 2
    chance = 1.0
    for seat in range(PLAYERS):
        if seat != me:
            chance *= 0.5 * (1.0 + math.erf((mine - row[layout.SCORES + seat]) / scale))
    return chance


@numba.njit(cache=True)
def play_round(state: np.ndarray, filled: np.ndarray, trump_order: np.ndarray, turned: int,
               me: int, start: np.ndarray, card: np.ndarray, suit: np.ndarray, kinds: np.ndarray,
               params: np.ndarray, may_start: np.ndarray, deals: int, reveal_first: bool,
               draw_uniforms: bool) -> tuple:  # fmt: skip
    """Play candidate ``w`` (``start[w], card[w], suit[w]`` by seat ``me``) on every filled row
    to the end of the deal, each filling with its chance still to come (the trump cards not
    turned) drawn once and shared by every candidate. Returns each candidate's summed
    ``win_chance`` for seat ``me`` (``DEAL_SPREAD`` per deal), its summed lead over the best other
    seat's score, and the first refused choice (``ERROR``). ``draw_uniforms``: draw the
    policies' uniforms (only the random one reads them)."""
    fillings, width = filled.shape[0], start.shape[0]
    deal = filled[0, layout.DEAL]
    trump_cards = np.empty((fillings * width, trump_order.shape[0]), np.int8)
    shuffles = np.zeros((1, 1, DECK_SIZE), np.int8)  # no deal begins before the playouts end
    # Only the random policy reads its uniforms: for the others they are left unwritten.
    u = np.empty((1, fillings * width, layout.SLOTS))
    for f in range(fillings):
        trump_cards[f] = trump_order
        _shuffle(state, trump_cards[f, turned:])
        if draw_uniforms:
            for slot in range(layout.SLOTS):
                u[0, f, slot] = random(state)
    rows = np.empty((fillings * width, filled.shape[1]), np.int64)
    no_record = np.zeros((1, 1, layout.RECORD), np.int16)
    for w in range(width):
        for f in range(fillings):
            r = w * fillings + f
            rows[r] = filled[f]
            if w > 0:
                trump_cards[r] = trump_cards[f]
                if draw_uniforms:
                    u[:, r] = u[:, f]
            apply_choice(rows[r], me, start[w], card[w], suit[w], trump_cards, r, deals,
                         no_record, False)  # fmt: skip
    error = play_rows(rows, trump_cards, shuffles, u, deal, kinds, params, may_start, deals,
                      reveal_first, True, no_record, False)  # fmt: skip
    shares, leads = np.zeros(width), np.zeros(width)
    for r in range(fillings * width):
        best_other = -(10**9)
        for seat in range(PLAYERS):
            if seat != me and rows[r, layout.SCORES + seat] > best_other:
                best_other = rows[r, layout.SCORES + seat]
        shares[r // fillings] += win_chance(rows[r], me, deals, DEAL_SPREAD)
        leads[r // fillings] += rows[r, layout.SCORES + me] - best_other
    return shares, leads, error


#: ``halve``'s outcomes: a candidate kept; a round's fillings not drawn by rejection (the
#: caller halves in Python, where the exact sampler makes up the rest); a refused choice.
HALVED, UNFILLED, REFUSED = 0, 1, 2


@numba.njit(cache=True)
def halve(state: np.ndarray, row: np.ndarray, seats: np.ndarray, room: np.ndarray,
          has_kitty: np.ndarray, voids: np.ndarray, known: np.ndarray, known_ends: np.ndarray,
          unseen: np.ndarray, offer_hidden: np.ndarray, trump_order: np.ndarray, turned: int,
          me: int, start: np.ndarray, card: np.ndarray, suit: np.ndarray, kinds: np.ndarray,
          params: np.ndarray, may_start: np.ndarray, deals: int, reveal_first: bool,
          draw_uniforms: bool, budget: int, tie_weight: float, bonus: np.ndarray,
          tries: int, probe: int) -> tuple:  # fmt: skip
    """The kit's ``sequential_halving`` of one decision in one compiled call: each round
    ``fill``s (by rejection only) and ``play_round``s the surviving candidates, drawing what
    ``fill`` and ``play_round`` would, in the same order, and ranking as the kit does (its
    schedule, ``halving_rounds``, ``round_fillings`` and ``survivors``; mean share plus
    ``tie_weight`` x mean lead plus ``bonus``; a stable sort). Returns (outcome: ``HALVED``,
    ``UNFILLED`` or ``REFUSED``; the kept candidate; every candidate's mean win chance; the
    refused choice). On ``UNFILLED`` the caller halves again from the state it started at.
    ``tries`` and ``probe``: ``fill``'s rejection limits per filling."""
    n = start.shape[0]
    rounds = halving_rounds(n)
    total, ties = np.zeros(n), np.zeros(n)
    count = np.zeros(n, np.int64)
    alive = np.arange(n)
    error = np.full(5, -1, np.int64)
    for round_index in range(rounds):
        fillings = round_fillings(budget, alive.shape[0], rounds - round_index)
        rows = np.empty((fillings, layout.ROW), np.int64)
        kept = _reject_fill(state, row, seats, room, has_kitty, voids, known, known_ends, unseen,
                            rows, fillings * tries, fillings * probe, tries)  # fmt: skip
        if kept < fillings:
            return UNFILLED, -1, total, error
        if offer_hidden.any():
            _draw_offers(state, rows, seats, room, offer_hidden)
        shares, leads, error = play_round(state, rows, trump_order, turned, me, start[alive],
                                          card[alive], suit[alive], kinds, params, may_start,
                                          deals, reveal_first, draw_uniforms)  # fmt: skip
        if error[0] >= 0:
            return REFUSED, -1, total, error
        mean = np.empty(alive.shape[0])
        for j in range(alive.shape[0]):
            i = alive[j]
            total[i] += shares[j]
            count[i] += fillings
            ties[i] += leads[j]
            mean[j] = (total[i] + ties[i] * tie_weight) / count[i] + bonus[i]
        order = np.argsort(-mean, kind="mergesort")  # stable, as the kit's sorted()
        alive = alive[order[: survivors(alive.shape[0])]]
        if alive.shape[0] == 1:
            break
    return HALVED, alive[0], total / np.maximum(count, 1), error


__all__ = [
    "DEAL_SPREAD", "HALVED", "REFUSED", "REJECTION_PROBE", "REJECTION_TRIES", "UNFILLED",
    "SearchPosition", "fill", "halve", "play_round", "search_position", "win_chance",
]  # fmt: skip
