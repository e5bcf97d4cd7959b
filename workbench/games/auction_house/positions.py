"""Positions in the compiled engine's row form (``compiled``'s columns): from an observation
(what one seat knows; the compiled agents' step call and the determinization agent's worlds)
or from a whole step-engine State, and ``play_from``: many playouts from given positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.auction_house import compiled as c
from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import DECK, SUITS, TRUMP_DECK, card_index
from workbench.games.auction_house.engine import State
from workbench.games.auction_house.fast import Recording, lineup_policies, raise_refused
from workbench.games.auction_house.observation import PHASE_CODE, Observation, step_of
from workbench.games.auction_house.rules import MAX_DEALS, PLAYERS
from workbench.kit.seeding import SeedLike, generator

#: How a playout treats the chance still to come: "draw" deals the later deals and orders the
#: trump cards not yet turned afresh for every playout; "state" keeps the state's own.
FUTURES = ("draw", "state")


def card_mask(cards: Sequence[str]) -> int:
    """The 40-bit mask of cards given in notation."""
    mask = 0
    for card in cards:
        mask |= _BIT[card]
    return mask


class _Checked(dict):
    """Card notation to a value: one dict look-up for the canonical notation an observation
    holds; anything else goes through ``card_index``'s checks (and its clear errors)."""

    def __init__(self, value_of_index: Any) -> None:
        super().__init__((name, value_of_index(index)) for index, name in enumerate(DECK))
        self.value_of_index = value_of_index

    def __missing__(self, card: Any) -> int:
        return self.value_of_index(card_index(card))


_INDEX = _Checked(lambda index: index)
_BIT = _Checked(lambda index: 1 << index)

def _index(card: str | None) -> int:
    """A card's index, -1 for None."""
    return -1 if card is None else _INDEX[card]


def _put(row: np.ndarray, column: int, values: Sequence[int]) -> None:
    """Set the four columns from ``column`` (one per seat, or per trick position)."""
    row[column : column + PLAYERS] = values


def observation_row(obs: Observation) -> np.ndarray:
    """What seat ``obs.player`` knows, as a row: its own hand, offer and kitty card, the
    revealed offers, the trick, the cards played; every other hand empty."""
    me = obs.player
    trick = [_INDEX[card] for card in obs.trick]
    tricks = obs.tricks
    played = 0
    for card in obs.trick:
        played |= _BIT[card]
    for finished in tricks:
        for card in finished.cards:
            played |= _BIT[card]
    offers = [-1 if card is None else _INDEX[card] for card in obs.offers]
    if obs.own_offer is not None:
        offers[me] = _index(obs.own_offer)
    kitty = [-1] * PLAYERS
    if obs.own_kitty is not None:
        kitty[me] = _index(obs.own_kitty)
    hands = [0] * PLAYERS
    hands[me] = card_mask(obs.hand)
    step = step_of(
        obs.phase, len(obs.passes), sum(obs.offered), sum(obs.kitty_placed),
        PLAYERS * len(tricks) + len(trick),
    )  # fmt: skip
    row = [
        obs.deal, obs.dealer, PHASE_CODE[obs.phase], step, obs.carried_in,
        -1 if obs.trump is None else SUITS.index(obs.trump), int(obs.trump_shown),
        -1 if obs.starter is None else obs.starter, _index(obs.face_up),
        -1 if obs.called is None else SUITS.index(obs.called), _index(obs.taken),
        -1 if obs.taken_from is None else obs.taken_from,
        int(obs.taken is not None and _was_forced(obs)),
        obs.leader if obs.leader is not None else (obs.dealer + 1) % PLAYERS, played,
        *obs.scores, *offers, *kitty, *trick, *[-1] * (PLAYERS - len(trick)), *obs.tricks_won,
        *hands,
    ]  # fmt: skip
    return np.array(row, np.int64)


def _was_forced(obs: Observation) -> bool:
    """Was the take forced (a card of the called suit offered)? Known once offers are shown."""
    return any(card is not None and card[-1] == obs.called for card in obs.offers)


def state_row(state: State) -> np.ndarray:
    """The whole position of a step-engine State (every hand, offer and kitty card) as a row:
    a seat's ``State.view`` with every seat's secrets written in."""
    if state.is_over:
        raise ValueError("the game is over: there is no position to play from")
    row = state.view(state.to_play)
    _put(row, layout.OFFERS, [-1 if x is None else x for x in state.offers])
    _put(row, layout.KITTY_CARDS, [-1 if x is None else x for x in state.kitty])
    _put(row, layout.HANDS, state.hands)
    return row


def _state_chance(state: State) -> tuple[np.ndarray, np.ndarray]:
    """A State's trump deck order (indices into TRUMP_DECK) and its 13 shuffles (int8)."""
    trump = np.array([TRUMP_DECK.index(card) for card in state.chance.trump_cards], np.int8)
    shuffles = np.zeros((MAX_DEALS, len(DECK)), np.int8)
    given = np.array(state.chance.shuffles, np.int8)
    shuffles[: len(given)] = given
    return trump, shuffles


def turned_trumps(state: State) -> int:
    """How many trump cards the table has seen turned (this deal's, once it is turned)."""
    return len(state.revealed_trumps)


def draw_futures(
    trump_cards: np.ndarray, shuffles: np.ndarray, turned: np.ndarray, deal: np.ndarray,
    rng: np.random.Generator,
) -> None:  # fmt: skip
    """In place, per row: shuffle the trump cards not yet turned, and deal every later deal
    afresh (the chance no one at the table has seen)."""
    rows = len(trump_cards)
    keys = rng.random((rows, trump_cards.shape[1]))
    keys[np.arange(trump_cards.shape[1]) < turned[:, None]] = -1.0  # turned cards stay first
    order = np.argsort(keys, axis=1, kind="stable")
    trump_cards[:] = np.take_along_axis(trump_cards, order, axis=1)
    fresh = rng.permuted(
        np.tile(np.arange(len(DECK), dtype=np.int8), (rows, MAX_DEALS, 1)), axis=2
    )
    later = np.arange(1, MAX_DEALS + 1)[None, :] > deal[:, None]
    shuffles[later] = fresh[later]


def play_from(
    states: State | Sequence[State],
    agents: Sequence[Any],
    *,
    playouts: int,
    seed: SeedLike,
    future: str = "draw",
) -> np.ndarray:
    """Final scores of ``playouts`` continuations of each state to the end of its game, with
    one compiled-policy agent per seat (random, heuristic): float64, shape (states, playouts,
    4). Every hidden card of a state is as the state holds it; ``future`` "draw" (default)
    deals the later deals and orders the unturned trump cards afresh for each playout, "state"
    keeps the state's own chance. Same arguments, same scores."""
    scores, _, _ = playout_details(states, agents, playouts=playouts, seed=seed, future=future)
    return scores


def playout_details(
    states: State | Sequence[State],
    agents: Sequence[Any],
    *,
    playouts: int,
    seed: SeedLike,
    future: str = "draw",
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray], np.ndarray]:
    """``play_from``'s scores, plus each playout's chance (trump cards, shuffles) and its
    recording block (what a test replays through the step engine)."""
    states = [states] if isinstance(states, State) else list(states)
    if not states or not all(isinstance(s, State) for s in states):
        raise TypeError("states must be an auction_house State or a non-empty sequence of them")
    rules = states[0].rules
    if any(s.rules != rules for s in states):
        raise ValueError("every state must be under the same rules")
    if isinstance(playouts, bool) or not isinstance(playouts, int | np.integer) or playouts < 1:
        raise ValueError(f"playouts must be a positive whole number, got {playouts!r}")
    if future not in FUTURES:
        raise ValueError(f"future must be one of {FUTURES}, got {future!r}")
    agents = list(agents)
    if len(agents) != PLAYERS or not all(hasattr(a, "policy") for a in agents):
        raise ValueError(
            "agents must be one compiled-policy agent (random, heuristic) per seat: "
            f"{PLAYERS}, got {agents!r}"
        )
    rng = generator(seed)
    base = np.stack([state_row(s) for s in states])
    chances = [_state_chance(s) for s in states]
    rows = np.repeat(base, playouts, axis=0)
    trump_cards = np.repeat(np.stack([t for t, _ in chances]), playouts, axis=0)
    shuffles = np.repeat(np.stack([s for _, s in chances]), playouts, axis=0)
    if future == "draw":
        turned = np.repeat([turned_trumps(s) for s in states], playouts)
        draw_futures(trump_cards, shuffles, turned, rows[:, layout.DEAL], rng)
    first_deal = int(rows[:, layout.DEAL].min())
    u = rng.random((rules.deals - first_deal + 1, len(rows), layout.SLOTS))
    recording = Recording.empty(len(rows), rules.deals)
    kinds, params, starts = lineup_policies(agents)
    error = c.play_rows(
        rows, trump_cards, shuffles, u, first_deal, kinds, params, starts, rules.deals,
        rules.trump_reveal == "before_auction", False, recording.block, True,
    )  # fmt: skip
    if error[0] >= 0:
        raise_refused(error, agents, int(rows[error[0], layout.DEAL]))
    scores = rows[:, layout.SCORES : layout.SCORES + PLAYERS].astype(np.float64)
    return scores.reshape(len(states), playouts, PLAYERS), (trump_cards, shuffles), recording


__all__ = ["FUTURES", "observation_row", "play_from", "state_row"]

