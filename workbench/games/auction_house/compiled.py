"""The compiled (numba) engine: the one loop that plays given positions to the end, the
compiled policies deciding, and the ``Recording`` of what it played; the rules' second
implementation (tests replay its games through ``engine.State`` and demand identical frames).
A position is one int64 row (``layout``); a new game is a row at deal 0 whose DEALER is the
first dealer. A game's chance: its trump deck order and a shuffle per deal. Each decision reads
its uniform from ``u[deal - first_deal, row, slot]``, so variants given the same numbers see
them at the same decisions. Seat s of row r plays ``PolicyTable`` row ``assignment[r, s]``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numba
import numpy as np

from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import POINTS, SUIT_SIZE
from workbench.games.auction_house.layout import PLAYERS, TRICKS
from workbench.games.auction_house.policies import FITTED, choose, choose_play, standing
from workbench.games.auction_house.tricks import SUIT_OF, trick_best, trick_key

#: Error codes of a refused choice (``play_rows`` returns the first, else all -1).
ERROR = ("row", "seat", "phase", "card", "kind")

_POINTS = np.array([*POINTS, 0], np.int64)  # index -1 (no card) scores 0


@numba.njit(cache=True, inline="always")
def _bit(card: int) -> int:
    return np.int64(1) << card


@numba.njit(cache=True, inline="always")
def turn_trump(row: np.ndarray, trump_cards: np.ndarray, r: int) -> None:
    """Turn this deal's trump card, ``trump_cards[r]``'s (none once the deck has run out)."""
    row[layout.SHOWN] = 1
    deal = row[layout.DEAL]
    turned = trump_cards[r, deal - 1] // layout.FACES if deal <= trump_cards.shape[1] else -1
    row[layout.TRUMP] = turned


@numba.njit(cache=True, inline="always")
def begin_deal(row: np.ndarray, deal: int, dealer: int, shuffle: np.ndarray,
               trump_cards: np.ndarray, r: int, reveal_first: bool) -> None:  # fmt: skip
    """Deal ``shuffle`` one card at a time clockwise from the dealer's left and clear the
    deal's record (scores and the carry-in stay); under the house rule, turn trump."""
    row[layout.DEAL], row[layout.DEALER] = deal, dealer
    row[layout.PHASE], row[layout.STEP] = layout.AUCTION, 0
    row[layout.TRUMP], row[layout.SHOWN] = -1, 0
    for column in (layout.STARTER, layout.FACE_UP, layout.CALLED, layout.TAKEN, layout.TAKEN_FROM):
        row[column] = -1
    row[layout.FORCED], row[layout.PLAYED] = 0, 0
    row[layout.LEADER] = (dealer + 1) % PLAYERS
    for seat in range(PLAYERS):
        row[layout.OFFERS + seat] = row[layout.KITTY_CARDS + seat] = row[layout.TRICK + seat] = -1
        row[layout.WON + seat] = 0
        row[layout.HANDS + seat] = 0
    for position in range(shuffle.shape[0]):
        seat = (dealer + 1 + position) % PLAYERS
        row[layout.HANDS + seat] |= _bit(shuffle[position])
    if reveal_first:
        turn_trump(row, trump_cards, r)


@numba.njit(cache=True, inline="always")
def actor_of(row: np.ndarray) -> int:
    """The seat to act (meaningless once the deal is over)."""
    phase, step = row[layout.PHASE], row[layout.STEP]
    if phase == layout.PLAY:
        return (row[layout.LEADER] + step % PLAYERS) % PLAYERS
    if phase == layout.OFFER:
        return (row[layout.STARTER] + 1 + step) % PLAYERS
    if phase == layout.TAKE:
        return row[layout.STARTER]
    return (row[layout.DEALER] + 1 + step) % PLAYERS


@numba.njit(cache=True, inline="always")
def legal_of(row: np.ndarray, actor: int) -> int:
    """The cards the actor may choose now: the offers for a take; else its hand, within the
    suit led when it can follow."""
    hand = row[layout.HANDS + actor]
    if row[layout.PHASE] == layout.TAKE:
        offered = 0
        for seat in range(PLAYERS):
            if row[layout.OFFERS + seat] >= 0:
                offered |= _bit(row[layout.OFFERS + seat])
        return offered
    if row[layout.PHASE] != layout.PLAY or row[layout.STEP] % PLAYERS == 0:
        return hand
    led = row[layout.TRICK] // SUIT_SIZE
    follow = hand & (np.int64(1023) << (SUIT_SIZE * led))
    return follow if follow != 0 else hand


@numba.njit(cache=True, inline="always")
def _swap(row: np.ndarray, card: int, forced: bool) -> None:
    giver = 0
    for seat in range(PLAYERS):
        if row[layout.OFFERS + seat] == card:
            giver = seat
    starter, face = row[layout.STARTER], row[layout.FACE_UP]
    row[layout.HANDS + starter] = row[layout.HANDS + starter] & ~_bit(face) | _bit(card)
    row[layout.HANDS + giver] = row[layout.HANDS + giver] & ~_bit(card) | _bit(face)
    row[layout.TAKEN], row[layout.TAKEN_FROM], row[layout.FORCED] = card, giver, 1 if forced else 0
    row[layout.PHASE], row[layout.STEP] = layout.KITTY, 0


@numba.njit(cache=True, inline="always")
def _score_deal(row: np.ndarray, deals: int, records: np.ndarray, r: int,
                recording: bool) -> None:  # fmt: skip
    """The kitty to the single seat with most tricks; a tie carries it over (lost in the last
    deal). The deal ends (phase OVER)."""
    kitty_points = 0
    most, leaders, winner = -1, 0, -1
    for seat in range(PLAYERS):
        kitty_points += _POINTS[row[layout.KITTY_CARDS + seat]]
        won = row[layout.WON + seat]
        if won > most:
            most, leaders, winner = won, 1, seat
        elif won == most:
            leaders += 1
    stake = kitty_points + row[layout.CARRIED]
    last = row[layout.DEAL] == deals
    carried_out = lost = 0
    if leaders == 1:
        row[layout.SCORES + winner] += stake
    else:
        winner = -1
        if last:
            lost = stake
        else:
            carried_out = stake
    if recording:
        record = records[r, row[layout.DEAL] - 1]
        record[layout.R_DEALER], record[layout.R_TRUMP] = row[layout.DEALER], row[layout.TRUMP]
        record[layout.R_STARTER], record[layout.R_CALLED] = row[layout.STARTER], row[layout.CALLED]
        record[layout.R_FACE_UP], record[layout.R_TAKEN] = row[layout.FACE_UP], row[layout.TAKEN]
        record[layout.R_TAKEN_FROM], record[layout.R_LOST] = row[layout.TAKEN_FROM], lost
        record[layout.R_FORCED], record[layout.R_KITTY_WINNER] = row[layout.FORCED], winner
        record[layout.R_KITTY_POINTS], record[layout.R_CARRIED_OUT] = kitty_points, carried_out
        record[layout.R_CARRIED_IN] = row[layout.CARRIED]
        for seat in range(PLAYERS):
            record[layout.R_OFFERS + seat] = row[layout.OFFERS + seat]
            record[layout.R_KITTY + seat] = row[layout.KITTY_CARDS + seat]
            record[layout.R_WON + seat] = row[layout.WON + seat]
            record[layout.R_SCORES_AFTER + seat] = row[layout.SCORES + seat]
    row[layout.CARRIED] = carried_out
    row[layout.PHASE], row[layout.STEP] = layout.OVER, 0


@numba.njit(cache=True, inline="always")
def apply_choice(row: np.ndarray, actor: int, start: bool, card: int, suit: int,
                 trump_cards: np.ndarray, r: int, deals: int, records: np.ndarray,
                 recording: bool) -> None:  # fmt: skip
    """Apply the actor's (already checked) choice and move to the next decision."""
    phase, step = row[layout.PHASE], row[layout.STEP]
    if phase == layout.PLAY:
        position = step % PLAYERS
        row[layout.HANDS + actor] &= ~_bit(card)
        row[layout.PLAYED] |= _bit(card)
        row[layout.TRICK + position] = card
        if recording:
            records[r, row[layout.DEAL] - 1, layout.R_PLAYS + step] = card
        row[layout.STEP] = step + 1
        if position < PLAYERS - 1:
            return
        winner = (row[layout.LEADER] + trick_best(row, row[layout.TRUMP], PLAYERS)[2]) % PLAYERS
        row[layout.WON + winner] += 1
        row[layout.LEADER] = winner
        for seat in range(PLAYERS):
            row[layout.TRICK + seat] = -1
        if step + 1 == PLAYERS * TRICKS:
            _score_deal(row, deals, records, r, recording)
    elif phase == layout.AUCTION:
        if start:
            row[layout.STARTER], row[layout.FACE_UP], row[layout.CALLED] = actor, card, suit
            row[layout.PHASE], row[layout.STEP] = layout.OFFER, 0
        elif step + 1 == PLAYERS:
            row[layout.PHASE], row[layout.STEP] = layout.KITTY, 0
        else:
            row[layout.STEP] = step + 1
    elif phase == layout.OFFER:
        row[layout.OFFERS + actor] = card
        row[layout.STEP] = step + 1
        if step + 1 < PLAYERS - 1:
            return
        best = -1
        for seat in range(PLAYERS):
            offer = row[layout.OFFERS + seat]
            if offer >= 0 and offer // SUIT_SIZE == row[layout.CALLED] and offer > best:
                best = offer
        if best >= 0:
            _swap(row, best, True)
        else:
            row[layout.PHASE], row[layout.STEP] = layout.TAKE, 0
    elif phase == layout.TAKE:
        _swap(row, card, False)
    elif phase == layout.KITTY:
        row[layout.KITTY_CARDS + actor] = card
        row[layout.HANDS + actor] &= ~_bit(card)
        row[layout.STEP] = step + 1
        if step + 1 == PLAYERS:
            row[layout.PHASE], row[layout.STEP] = layout.PLAY, 0
            if row[layout.SHOWN] == 0:
                turn_trump(row, trump_cards, r)


@numba.njit(cache=True, inline="always")
def _is_legal(row: np.ndarray, actor: int, legal: int, start: bool, card: int, suit: int) -> bool:
    if card < 0 or card >= 40:
        return row[layout.PHASE] == layout.AUCTION and not start
    if row[layout.PHASE] == layout.AUCTION:
        if not start:
            return True
        return (legal >> card) & 1 == 1 and 0 <= suit < 4 and suit != card // SUIT_SIZE
    return (legal >> card) & 1 == 1


@numba.njit(cache=True)
def _play_tricks(row: np.ndarray, r: int, kinds: np.ndarray, params: np.ndarray,
                 assignment: np.ndarray, u: np.ndarray, u_deal: int, deals: int,
                 records: np.ndarray, recording: bool) -> tuple[int, int]:  # fmt: skip
    """Play the deal's remaining cards as ``apply_choice`` would, keeping the trick's suit led and
    best card as it goes; (-1, -1), or the seat and card of a refused play."""
    trump, leader, played = row[layout.TRUMP], row[layout.LEADER], row[layout.PLAYED]
    first = row[layout.STEP]
    # Tricks taken this deal, seat s in bits 4s to 4s + 3 (at most 13 each): read by the
    # fitted policy's trick race without reading the row back inside the loop.
    won = np.int64(0)
    for seat in range(PLAYERS):
        won |= row[layout.WON + seat] << (4 * seat)
    led, best, best_key, best_position = -1, -1, -2, 0
    if first % PLAYERS > 0:  # resumed inside a trick
        led, best, best_position = trick_best(row, trump, first % PLAYERS)
        best_key = trick_key(best, trump, led)
    for step in range(first, PLAYERS * TRICKS):
        position = step % PLAYERS
        actor = (leader + position) % PLAYERS
        hand = row[layout.HANDS + actor]
        legal = hand
        if position > 0:
            follow = hand & (np.int64(1023) << (SUIT_SIZE * led))
            if follow != 0:
                legal = follow
        policy = assignment[r, actor]
        kind = kinds[policy]
        uniform = u[u_deal, r, layout.SLOT_PLAY + step]
        best_seat = (leader + best_position) % PLAYERS
        race = ((won >> (4 * best_seat)) & 15) - ((won >> (4 * actor)) & 15)
        winner = 0.0  # the trick winner's standing: only the fitted policy reads it
        if kind == FITTED and position > 0:
            winner = standing(row, best_seat, actor)
        card = choose_play(kind, params, policy, position, hand, legal, trump, played, led, best,
                           uniform, race, winner, row, actor)  # fmt: skip
        if card < 0 or card >= 40 or (legal >> card) & 1 == 0:
            row[layout.STEP], row[layout.LEADER], row[layout.PLAYED] = step, leader, played
            return actor, card
        card_bit = _bit(card)
        row[layout.HANDS + actor] = hand & ~card_bit
        played |= card_bit
        row[layout.TRICK + position] = card
        if recording:
            records[r, row[layout.DEAL] - 1, layout.R_PLAYS + step] = card
        if position == 0:
            led, best, best_position = SUIT_OF[card], card, 0
            best_key = trick_key(card, trump, led)
        else:
            key = trick_key(card, trump, led)
            if key > best_key:
                best, best_key, best_position = card, key, position
        if position == PLAYERS - 1:
            leader = (leader + best_position) % PLAYERS
            row[layout.WON + leader] += 1
            won += np.int64(1) << (4 * leader)
            for seat in range(PLAYERS):
                row[layout.TRICK + seat] = -1
    row[layout.STEP], row[layout.LEADER], row[layout.PLAYED] = PLAYERS * TRICKS, leader, played
    _score_deal(row, deals, records, r, recording)
    return -1, -1


@numba.njit(cache=True)
def play_rows(rows: np.ndarray, trump_cards: np.ndarray, shuffles: np.ndarray, u: np.ndarray,
              first_deal: int, kinds: np.ndarray, params: np.ndarray, assignment: np.ndarray,
              deals: int, reveal_first: bool, to_deal_end: bool, records: np.ndarray,
              recording: bool) -> np.ndarray:  # fmt: skip
    """Play every row from where it stands to the end of the game (or, ``to_deal_end``, of
    the deal in progress), in place (module docstring), recording each finished deal in
    ``records`` when ``recording``. Returns the first refused choice (``ERROR``), else -1s."""
    error = np.full(len(ERROR), -1, np.int64)
    for r in range(rows.shape[0]):
        row = rows[r]
        while True:
            if row[layout.DEAL] == 0 or row[layout.PHASE] == layout.OVER:
                if row[layout.DEAL] == deals or (to_deal_end and row[layout.DEAL] > 0):
                    break
                deal = row[layout.DEAL] + 1
                dealer = row[layout.DEALER]
                dealer = (dealer + 1) % PLAYERS if row[layout.DEAL] > 0 else dealer
                begin_deal(row, deal, dealer, shuffles[r, deal - 1], trump_cards, r, reveal_first)
            deal, phase, step = row[layout.DEAL], row[layout.PHASE], row[layout.STEP]
            if phase == layout.PLAY:  # the tricks, in a loop of their own (most decisions)
                actor, card = _play_tricks(row, r, kinds, params, assignment, u, deal - first_deal,
                                           deals, records, recording)  # fmt: skip
                if actor >= 0:
                    error[0], error[1], error[2] = r, actor, layout.PLAY
                    error[3], error[4] = card, kinds[assignment[r, actor]]
                    return error
                continue
            actor = actor_of(row)
            legal = legal_of(row, actor)
            if phase == layout.AUCTION:
                slot = layout.SLOT_AUCTION + step
            elif phase == layout.OFFER:
                slot = layout.SLOT_OFFER + step
            elif phase == layout.TAKE:
                slot = layout.SLOT_TAKE
            elif phase == layout.KITTY:
                slot = layout.SLOT_KITTY + step
            else:
                slot = layout.SLOT_PLAY + step
            policy = assignment[r, actor]
            start, card, suit = choose(
                kinds[policy], params, policy, phase, step % PLAYERS, row[layout.HANDS + actor],
                legal, row[layout.TRUMP], row[layout.FACE_UP], row[layout.CALLED], row,
                row[layout.PLAYED], u[deal - first_deal, r, slot],
            )  # fmt: skip
            if not _is_legal(row, actor, legal, start, card, suit):
                error[0], error[1], error[2] = r, actor, phase
                error[3], error[4] = card, kinds[policy]
                return error
            apply_choice(row, actor, start, card, suit, trump_cards, r, deals, records, recording)
    return error


@numba.njit(cache=True)
def apply_to_rows(rows: np.ndarray, actor: int, start: np.ndarray, card: np.ndarray,
                  suit: np.ndarray, trump_cards: np.ndarray, deals: int) -> None:  # fmt: skip
    """Apply one (legal) choice per row by ``actor``: the candidates a search compares."""
    unused = np.zeros((1, 1, layout.RECORD), np.int16)
    for r in range(rows.shape[0]):
        apply_choice(rows[r], actor, start[r], card[r], suit[r], trump_cards, r, deals, unused,
                     False)  # fmt: skip


@numba.njit(cache=True)
def decide_row(kind: int, params: np.ndarray, seat: int, row: np.ndarray, u: float) -> tuple:
    """One decision of seat ``seat`` on ``row`` by policy ``kind`` (``params`` row 0), as the
    loop takes it: the step engine's compiled agents, in one compiled call."""
    return choose(kind, params, 0, row[layout.PHASE], row[layout.STEP] % PLAYERS,
                  row[layout.HANDS + seat], legal_of(row, seat), row[layout.TRUMP],
                  row[layout.FACE_UP], row[layout.CALLED], row, row[layout.PLAYED], u)  # fmt: skip


@dataclass
class Recording:
    """What ``play_rows`` recorded of played games, for the frames, the kitty analyses and
    replay: arrays shaped (games, deals, ...), views of one int16 block (``layout.RECORD``
    wide); -1: none (no auction, a tie)."""

    dealer: np.ndarray
    trump: np.ndarray
    starter: np.ndarray
    face_up: np.ndarray
    called: np.ndarray
    offers: np.ndarray  # (G, D, 4) by seat
    taken: np.ndarray
    taken_from: np.ndarray
    forced: np.ndarray
    kitty: np.ndarray  # (G, D, 4) by seat
    plays: np.ndarray  # (G, D, 36) card by play step
    tricks_won: np.ndarray  # (G, D, 4)
    kitty_winner: np.ndarray
    kitty_points: np.ndarray  # this deal's four cards
    carried_in: np.ndarray
    carried_out: np.ndarray
    lost: np.ndarray
    scores_after: np.ndarray  # (G, D, 4)

    @classmethod
    def of_block(cls, block: np.ndarray) -> Recording:
        """The named views of a (games, deals, ``layout.RECORD``) block."""
        views = {name: block[:, :, at] for at, name in enumerate(layout.RECORDED)}
        for k, name in enumerate(layout.RECORDED_BY_SEAT):
            first = layout.R_BY_SEAT + PLAYERS * k
            views[name] = block[:, :, first : first + PLAYERS]
        views["plays"] = block[:, :, layout.R_PLAYS:layout.RECORD]
        return cls(**{f.name: views[f.name] for f in fields(cls)})

    @classmethod
    def empty(cls, games: int, deals: int) -> Recording:
        """A block of ``games`` x ``deals`` deals, every entry -1 until played."""
        return cls.of_block(np.full((games, deals, layout.RECORD), -1, np.int16))

    @property
    def block(self) -> np.ndarray:
        """The int16 block every field is a view of."""
        return self.dealer.base
