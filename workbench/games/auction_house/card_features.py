"""The fitted policy's card scorer: 30 features of each legal card, compiled, and a card drawn
by its weighted sum (the highest at temperature 0; ``scored_card``). One implementation serves
the policy (inside the compiled loops) and the fit's labels (``feature_table``), so what is
learnt is what is played.

A card's features (``FEATURE_NAMES``): whether it ``wins`` the trick so far and is ``sure`` to
(the last seat, or a master; leading, a master, a side suit's counting ``RUFFABLE_MASTER``
while trump is out), is a ``trump``, its ``rank`` / 9, whether it is a ``master`` (no unseen
card of its suit above it), its suit's ``length`` / 9, and products of these with the lead, the
trick number (``progress``: / 8), the ``race`` (its tricks this deal less the best other
seat's), the ``block`` (the trick winner's tricks less its own), the last seat, a ``discard``,
a ``ruff``, a losing card, a singleton side card (``makes_void``), the unseen cards of the
suit led (``suit_out``) and the deal without trump. Unseen: not played this deal, not in the
hand, not the seat's own kitty card.
"""

from __future__ import annotations

import numba
import numpy as np

from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import (
    FIELD_COUNT,
    FIELD_HIGH,
    FIELD_LOW,
    FULL_MASK,
    SUIT_SIZE,
)
from workbench.games.auction_house.tricks import trick_best, trick_key, trick_race, trick_winner

FEATURE_NAMES = (
    "wins", "sure", "trump", "rank", "master", "length",
    "lead*master", "lead*trump", "lead*length", "lead*rank",
    "wins*trick", "wins*race", "wins*block", "wins*last_seat", "discard*rank",
    "discard*length", "ruff", "wins*rank", "sure*trick", "lead*master*trick",
    "loses*rank", "makes_void", "wins*catch_up", "lead*suit_out",
    "no_trump*wins", "no_trump*lead*master", "lead*rank*trick", "wins*race*trick",
    "sure*no_trump*trick", "lead*trump*trick",
)  # fmt: skip
FEATURES = len(FEATURE_NAMES)
#: How sure a side suit's master looks when led while trump is out (it may be ruffed).
RUFFABLE_MASTER = 0.7
_FIELD = (1 << SUIT_SIZE) - 1
_FULL = np.int64(FULL_MASK)
#: rank / 9 by rank (0-9): a card's scaled rank feature.
RANK_SCALE = np.arange(SUIT_SIZE) / 9.0


@numba.njit(cache=True, inline="always")
def _unseen_trick_race(row: np.ndarray, me: int, hand: int, played: int) -> tuple:
    """The unseen cards, the trick number and the race (module docstring)."""
    out = _FULL & ~played & ~hand
    if row[layout.KITTY_CARDS + me] >= 0:
        out &= ~(np.int64(1) << row[layout.KITTY_CARDS + me])
    best_other = -1
    for seat in range(4):
        if seat != me and row[layout.WON + seat] > best_other:
            best_other = row[layout.WON + seat]
    trick = 0
    for suit in range(4):
        trick += FIELD_COUNT[(played >> (SUIT_SIZE * suit)) & _FIELD]
    return out, trick // 4, row[layout.WON + me] - best_other


@numba.njit(cache=True, inline="always")
def trick_context(row: np.ndarray, me: int, position: int, hand: int, trump: int,
                  played: int) -> tuple:  # fmt: skip
    """What every card's features share: the unseen cards, the suit led and the best key so far
    (-1 and -2 when leading), the trick number, the race and the block (module docstring)."""
    out, trick, race = _unseen_trick_race(row, me, hand, played)
    led, best_key, winner = -1, -2, me
    if position > 0:
        led, best, best_position = trick_best(row, trump, position)
        best_key = trick_key(best, trump, led)
        winner = trick_winner(me, position, best_position)
    return out, led, best_key, trick, race, trick_race(row, winner, me)


@numba.njit(cache=True, inline="always")
def card_features(card: int, position: int, hand: int, trump: int, out: int, led: int,
                  best_key: int, trick: int, race: int, block: int) -> tuple:  # fmt: skip
    """The card's ``FEATURE_NAMES`` values, given its ``trick_context``."""
    suit, rank = card // SUIT_SIZE, card % SUIT_SIZE
    suit_out = (out >> (SUIT_SIZE * suit)) & _FIELD
    count = FIELD_COUNT[(hand >> (SUIT_SIZE * suit)) & _FIELD]
    master = 1.0 if suit_out >> (rank + 1) == 0 else 0.0
    trump_card = 1.0 if suit == trump else 0.0
    no_trump = 1.0 if trump < 0 else 0.0
    lead = 1.0 if position == 0 else 0.0
    progress = trick / 8.0
    wins, discard, ruff, blocking = 0.0, 0.0, 0.0, 0.0
    if position > 0:
        wins = 1.0 if trick_key(card, trump, led) > best_key else 0.0
        sure = wins if position == 3 else wins * master
        discard = 1.0 if suit != led and suit != trump else 0.0
        ruff = 1.0 if suit == trump and led != trump else 0.0
        blocking = float(block)
    else:
        sure = master * (1.0 if suit == trump or trump < 0 else RUFFABLE_MASTER)
    scaled, length = RANK_SCALE[rank], count / 9.0
    last = 1.0 if position == 3 else 0.0
    return (
        wins, sure, trump_card, scaled, master, length,
        lead * master, lead * trump_card, lead * length, lead * scaled,
        wins * progress, wins * race, wins * blocking, wins * last, discard * scaled,
        discard * length, ruff, wins * scaled, sure * progress, lead * master * progress,
        (1.0 - wins) * scaled * (1.0 - lead), 1.0 if count == 1 and suit != trump else 0.0,
        wins * (9 - trick + race) / 9.0, lead * FIELD_COUNT[suit_out] / 10.0,
        no_trump * wins, no_trump * lead * master, lead * scaled * progress,
        wins * race * progress, sure * no_trump * progress, lead * trump_card * progress,
    )  # fmt: skip


@numba.njit(cache=True, inline="always")
def scored_card(params: np.ndarray, seat: int, first: int, row: np.ndarray, me: int,
                position: int, hand: int, legal: int, trump: int, played: int, led: int,
                best_key: int, block: int, temperature: float = 0.0, u: float = 0.0
                ) -> int:  # fmt: skip
    """A legal card by its weighted feature sum (weights from ``params[seat, first]`` on): at
    ``temperature`` 0 the highest, the lowest card on a tie; above 0 drawn with chance
    proportional to exp(sum / temperature) by the uniform ``u`` (``_draw``). The trick so far
    comes as its suit ``led``, its best ``trick_key`` and the ``block``, as the compiled loop
    keeps them. The plain sum regrouped for speed: each feature is a card's quantity times the
    decision's (lead, trick, race, ...), so those fold into one coefficient per card quantity
    first (a test checks the sums agree)."""
    out, trick, race = _unseen_trick_race(row, me, hand, played)
    w, f = params, first  # indexed in place: a slice would cost a reference count
    lead = 1.0 if position == 0 else 0.0
    progress = trick / 8.0
    last = 1.0 if position == 3 else 0.0
    no_trump = 1.0 if trump < 0 else 0.0
    catch_up = (9 - trick + race) / 9.0
    on_wins = (w[seat, f + 0] + w[seat, f + 10] * progress + w[seat, f + 11] * race
               + w[seat, f + 12] * block * (1.0 - lead) + w[seat, f + 13] * last
               + w[seat, f + 22] * catch_up + w[seat, f + 24] * no_trump
               + w[seat, f + 27] * race * progress)  # fmt: skip
    on_sure = w[seat, f + 1] + w[seat, f + 18] * progress + w[seat, f + 28] * no_trump * progress
    on_trump = w[seat, f + 2] + lead * (w[seat, f + 7] + w[seat, f + 29] * progress)
    on_rank = (w[seat, f + 3] + lead * (w[seat, f + 9] + w[seat, f + 26] * progress)
               + w[seat, f + 20] * (1.0 - lead))  # fmt: skip
    on_wins_rank = w[seat, f + 17] - w[seat, f + 20] * (1.0 - lead)
    on_master = w[seat, f + 4] + lead * (w[seat, f + 6] + w[seat, f + 19] * progress
                                         + w[seat, f + 25] * no_trump)  # fmt: skip
    on_length = w[seat, f + 5] + w[seat, f + 8] * lead
    on_suit_out = w[seat, f + 23] * lead / 10.0
    best, best_score = -1, -np.inf
    total, draw = 0.0, u  # the draw's weights so far (relative to best_score) and uniform
    for suit in range(4):
        field = (legal >> (SUIT_SIZE * suit)) & _FIELD
        if field == 0:
            continue
        suit_out = (out >> (SUIT_SIZE * suit)) & _FIELD
        count = FIELD_COUNT[(hand >> (SUIT_SIZE * suit)) & _FIELD]
        length = count / 9.0
        is_trump = suit == trump
        discard = position > 0 and suit != led and not is_trump
        base = on_length * length + on_suit_out * FIELD_COUNT[suit_out]
        if is_trump:
            base += on_trump
            if position > 0 and led != trump:
                base += w[seat, f + 16]  # a ruff
        elif count == 1:
            base += w[seat, f + 21]  # leaves the suit void
        if discard:
            base += w[seat, f + 15] * length
        top_out = FIELD_HIGH[suit_out]  # -1: no unseen card of the suit
        while field != 0:
            rank = FIELD_LOW[field]
            field &= field - 1
            card = suit * SUIT_SIZE + rank
            scaled = RANK_SCALE[rank]
            master = 1.0 if rank > top_out else 0.0
            score = base + on_rank * scaled + on_master * master
            if discard:
                score += w[seat, f + 14] * scaled
            if position > 0:
                if trick_key(card, trump, led) > best_key:  # wins the trick so far
                    sure = 1.0 if position == 3 else master
                    score += on_wins + on_sure * sure + on_wins_rank * scaled
            else:
                ruffable = 1.0 if is_trump or trump < 0 else RUFFABLE_MASTER
                score += on_sure * master * ruffable
            if temperature > 0.0:
                best, best_score, total, draw = _draw(card, score, temperature, best, best_score,
                                                      total, draw)  # fmt: skip
            elif score > best_score:
                best, best_score = card, score
    return best


@numba.njit(cache=True, inline="always")
def _draw(card: int, score: float, temperature: float, chosen: int, top: float, total: float,
          u: float) -> tuple[int, float, float, float]:  # fmt: skip
    """One step of drawing a card with chance proportional to exp(score / temperature) in a
    single pass from one uniform: ``card`` replaces ``chosen`` with chance its weight over the
    total so far, and ``u`` is rescaled to stay uniform given that outcome. Weights are kept
    relative to the highest score so far (``top``), so none overflows."""
    if score > top:
        total = total * np.exp((top - score) / temperature) if total > 0.0 else 0.0
        top = score
    weight = np.exp((score - top) / temperature)
    total += weight
    keep = weight / total
    if u < keep or keep >= 1.0:
        return card, top, total, u / keep
    return chosen, top, total, (u - keep) / (1.0 - keep)


@numba.njit(cache=True)
def feature_table(row: np.ndarray, me: int, legal: int) -> tuple[np.ndarray, np.ndarray]:
    """Seat ``me``'s ``legal`` cards (ascending) on its view ``row`` in the play phase and one
    row of ``FEATURE_NAMES`` values per card: what the fit learns from."""
    hand, trump, played = row[layout.HANDS + me], row[layout.TRUMP], row[layout.PLAYED]
    count = 0
    for suit in range(4):
        count += FIELD_COUNT[(legal >> (SUIT_SIZE * suit)) & _FIELD]
    cards = np.empty(count, np.int64)
    table = np.empty((count, FEATURES))
    if row[layout.PHASE] != layout.PLAY:
        return cards[:0], table[:0]
    position = row[layout.STEP] % 4
    out, led, best_key, trick, race, block = trick_context(row, me, position, hand, trump,
                                                           played)  # fmt: skip
    i = 0
    for card in range(4 * SUIT_SIZE):
        if (legal >> card) & 1:
            values = card_features(card, position, hand, trump, out, led, best_key, trick,
                                   race, block)  # fmt: skip
            for j in range(FEATURES):
                table[i, j] = values[j]
            cards[i] = card
            i += 1
    return cards, table


__all__ = ["FEATURES", "FEATURE_NAMES", "card_features", "feature_table", "scored_card",
           "trick_context"]  # fmt: skip
