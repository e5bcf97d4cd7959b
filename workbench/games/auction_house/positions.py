"""The compiled loop's Python side: positions as rows (``layout``) from an observation, from a
whole State, or dealt afresh (``play_new_games``), and ``play_from``, continuations of States.
New games draw from the batch's Generator: the first dealers, the trump deck orders, 13
shuffles a game (so rule variants share the deals), then a block of uniforms per deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.errors import IllegalAction
from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import DECK, SUITS, TRUMP_DECK, card_index
from workbench.games.auction_house.compiled import Recording, play_rows
from workbench.games.auction_house.engine import PHASES, State
from workbench.games.auction_house.observation import PHASE_CODE, Observation, step_of
from workbench.games.auction_house.policies import KIND_NAMES, lineup_table
from workbench.games.auction_house.rules import MAX_DEALS, PLAYERS, Rules
from workbench.kit.lineup import seated_agents
from workbench.kit.policies import PolicyTable, plays_compiled, split_seed
from workbench.kit.seeding import SeedLike, generator
from workbench.kit.state import checked_positions
from workbench.kit.streams import shuffle_rows

#: How a playout treats the chance still to come: "draw" deals the later deals and orders the
#: trump cards not yet turned afresh for every playout; "state" keeps the state's own.
FUTURES = ("draw", "state")


class _Cards(dict):
    """Card notation -> ``value(index)`` in one look-up (None -> -1); other notation through
    ``card_index``'s checks and clear errors (an observation holds the deck's own)."""

    def __init__(self, value: Any) -> None:
        super().__init__((name, value(index)) for index, name in enumerate(DECK))
        self.value, self[None] = value, -1

    def __missing__(self, card: Any) -> int:
        return self.value(card_index(card))


_INDEX, _BIT = _Cards(lambda index: index), _Cards(lambda index: 1 << index)


def card_mask(cards: Sequence[str]) -> int:
    """The 40-bit mask of cards given in notation."""
    mask = 0
    for card in cards:
        mask |= _BIT[card]
    return mask


def observation_row(obs: Observation) -> np.ndarray:
    """What seat ``obs.player`` knows, as a row: its own hand, offer and kitty card, the
    revealed offers, the trick, the cards played; every other hand empty (``State.view``)."""
    me, trick, tricks = obs.player, [_INDEX[card] for card in obs.trick], obs.tricks
    played = card_mask(obs.played)
    offers = [_INDEX[card] for card in obs.offers]
    if obs.own_offer is not None:
        offers[me] = _INDEX[obs.own_offer]
    kitty, hands = [-1] * PLAYERS, [0] * PLAYERS
    kitty[me], hands[me] = _INDEX[obs.own_kitty], card_mask(obs.hand)
    step = step_of(obs.phase, len(obs.passes), sum(obs.offered), sum(obs.kitty_placed),
                   PLAYERS * len(tricks) + len(trick))  # fmt: skip
    forced = obs.taken is not None and any(c is not None and c[-1] == obs.called
                                           for c in obs.offers)  # fmt: skip
    row = [
        obs.deal, obs.dealer, PHASE_CODE[obs.phase], step, obs.carried_in,
        -1 if obs.trump is None else SUITS.index(obs.trump), int(obs.trump_shown),
        -1 if obs.starter is None else obs.starter, _INDEX[obs.face_up],
        -1 if obs.called is None else SUITS.index(obs.called), _INDEX[obs.taken],
        -1 if obs.taken_from is None else obs.taken_from, int(forced),
        obs.leader if obs.leader is not None else (obs.dealer + 1) % PLAYERS, played,
        *obs.scores, *offers, *kitty, *trick, *[-1] * (PLAYERS - len(trick)), *obs.tricks_won,
        *hands,
    ]  # fmt: skip
    return np.array(row, np.int64)


def state_row(state: State) -> np.ndarray:
    """The whole position of a State (every hand, offer and kitty card) as a row."""
    if state.is_over:
        raise ValueError("the game is over: there is no position to play from")
    row = state.view(state.to_play)
    for column, values in ((layout.OFFERS, state.offers), (layout.KITTY_CARDS, state.kitty)):
        row[column : column + PLAYERS] = [-1 if x is None else x for x in values]
    row[layout.HANDS : layout.HANDS + PLAYERS] = state.hands
    return row


def state_chance(state: State) -> tuple[np.ndarray, np.ndarray]:
    """A State's trump deck order (indices into TRUMP_DECK) and its 13 shuffles (int8)."""
    trump = np.array([TRUMP_DECK.index(card) for card in state.chance.trump_cards], np.int8)
    shuffles = np.zeros((MAX_DEALS, len(DECK)), np.int8)
    given = np.array(state.chance.shuffles, np.int8)
    shuffles[: len(given)] = given
    return trump, shuffles


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


@dataclass
class PlayedBatch:
    """Played games: their chance (for replay) and final scores."""

    first_dealer: np.ndarray  # (G,)
    trump_cards: np.ndarray  # (G, 12) indices into TRUMP_DECK, top first
    shuffles: np.ndarray  # (G, 13, 40) card indices in dealing order
    scores: np.ndarray  # (G, 4)

    @property
    def games(self) -> int:
        return len(self.first_dealer)


def final_scores(batch: PlayedBatch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, ranks, win share) per game and seat; ties share a rank and the win."""
    scores = batch.scores
    ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    winners = ranks == 1
    share = winners / winners.sum(axis=1, keepdims=True)
    return scores, ranks, share


def raise_refused(error: np.ndarray, table: PolicyTable, assignment: np.ndarray,
                  deal: int) -> None:  # fmt: skip
    """Raise IllegalAction for a refused choice reported by ``compiled.play_rows``."""
    row, seat, phase, card, kind = (int(v) for v in error)
    if row < 0:
        return
    shown = DECK[card] if 0 <= card < len(DECK) else card
    kind_name = KIND_NAMES[kind] if 0 <= kind < len(KIND_NAMES) else f"unknown kind {kind}"
    agent = table.labels[assignment[row, seat]] if table.labels else f"seat {seat}"
    raise IllegalAction(shown, f"agent {agent!r} (policy {kind_name}) "
                        f"chose an illegal {PHASES[phase]} choice in game {row} (deal {deal}, "
                        f"seat {seat})", [])  # fmt: skip


def play_positions(
    rules: Rules, table: PolicyTable, assignment: np.ndarray, rows: np.ndarray,
    trump_cards: np.ndarray, shuffles: np.ndarray, u: np.ndarray, first_deal: int,
) -> Recording:  # fmt: skip
    """Play ``rows`` to the end of their games in place, row r's seat s playing row
    ``assignment[r, s]`` of ``table``; what they played (an IllegalAction naming the agent for
    a refused choice)."""
    recording = Recording.empty(len(rows), rules.deals)
    error = play_rows(
        rows, trump_cards, shuffles, u, first_deal, table.kinds, table.parameters, assignment,
        rules.deals, rules.trump_reveal == "before_auction", False, recording.block, True,
    )  # fmt: skip
    if error[0] >= 0:
        raise_refused(error, table, assignment, int(rows[error[0], layout.DEAL]))
    return recording


def play_new_games(
    rules: Rules, agents: Sequence[Any], games: int, rng: np.random.Generator
) -> tuple[PlayedBatch, Recording]:
    """Play ``games`` new games with one compiled agent per seat (a mixture's component drawn
    per game), drawing their chance and every decision's uniform from ``rng`` (in the module
    docstring's order)."""
    table = lineup_table(agents)
    run_seed, _ = split_seed(rng.bit_generator.seed_seq)
    return play_dealt(rules, table, table.assignment(games, run_seed), games, rng)


def play_dealt(
    rules: Rules, table: PolicyTable, assignment: np.ndarray, games: int,
    rng: np.random.Generator,
) -> tuple[PlayedBatch, Recording]:  # fmt: skip
    """``play_new_games`` with game g's seat s playing row ``assignment[g, s]`` of ``table``
    (the kit's ``FastEngine.play``)."""
    first = rng.integers(PLAYERS, size=games)
    if rules.first_dealer != "random":
        first = np.full(games, rules.first_dealer)
    trump_cards = np.empty((games, len(TRUMP_DECK)), np.int8)
    shuffle_rows(rng, trump_cards)
    shuffles = np.empty((games, MAX_DEALS, len(DECK)), np.int8)
    shuffle_rows(rng, shuffles.reshape(-1, len(DECK)))
    u = rng.random((rules.deals, games, layout.SLOTS))
    rows = np.zeros((games, layout.ROW), np.int64)
    rows[:, layout.DEALER] = first
    recording = play_positions(rules, table, assignment, rows, trump_cards, shuffles, u, 1)
    scores = rows[:, layout.SCORES : layout.SCORES + PLAYERS].copy()
    return PlayedBatch(first.astype(np.int64), trump_cards, shuffles, scores), recording


def play_from(
    states: State | Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike,
    future: str = "draw",
) -> np.ndarray:  # fmt: skip
    """Final scores of ``playouts`` continuations of each state to its game's end, one compiled
    agent per seat: float64 (states, playouts, 4); a finished game's are its final scores, as
    in every game. Hidden cards are the state's; ``future`` (``FUTURES``) draws the chance
    still to come afresh or keeps the state's. Seeded."""
    listed, playouts = checked_positions(states, State, "auction_house", playouts)
    _checked_agents(agents)
    scores = np.empty((len(listed), playouts, PLAYERS))
    live = [index for index, state in enumerate(listed) if not state.is_over]
    for index, state in enumerate(listed):
        if state.is_over:
            scores[index] = state.scores
    if live:
        played, _, _ = playout_details(
            [listed[index] for index in live], agents, playouts=playouts, seed=seed, future=future
        )
        scores[live] = played
    return scores


def _checked_agents(agents: Any) -> list[Any]:
    """One compiled-policy agent per seat (one agent given alone sits in every seat)."""
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        agents = seated_agents(agents, PLAYERS)
    agents = list(agents)
    if len(agents) != PLAYERS or not all(plays_compiled(c) for a in agents
                                         for c in getattr(a, "components", (a,))):  # fmt: skip
        raise ValueError(
            "agents must be one compiled-policy agent (random, heuristic, a fitted policy) per "
            f"seat: {PLAYERS}, got {agents!r}"
        )
    return agents


def playout_details(
    states: State | Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike,
    future: str = "draw",
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray], Recording]:  # fmt: skip
    """``play_from``'s scores, plus each playout's chance (trump cards, shuffles) and its
    recording (what a test replays through the step engine)."""
    states, playouts = checked_positions(states, State, "auction_house", playouts)
    rules = states[0].rules
    if future not in FUTURES:
        raise ValueError(f"future must be one of {FUTURES}, got {future!r}")
    agents = _checked_agents(agents)
    rng = generator(seed)
    rows = np.repeat(np.stack([state_row(s) for s in states]), playouts, axis=0)
    chances = [state_chance(s) for s in states]
    trump_cards = np.repeat(np.stack([t for t, _ in chances]), playouts, axis=0)
    shuffles = np.repeat(np.stack([s for _, s in chances]), playouts, axis=0)
    if future == "draw":
        turned = np.repeat([len(s.revealed_trumps) for s in states], playouts)
        draw_futures(trump_cards, shuffles, turned, rows[:, layout.DEAL], rng)
    first_deal = int(rows[:, layout.DEAL].min())
    u = rng.random((rules.deals - first_deal + 1, len(rows), layout.SLOTS))
    table = lineup_table(agents)
    assignment = table.playout_assignment(len(states), playouts, seed)
    recording = play_positions(rules, table, assignment, rows,
                               trump_cards, shuffles, u, first_deal)  # fmt: skip
    scores = rows[:, layout.SCORES : layout.SCORES + PLAYERS].astype(np.float64)
    return scores.reshape(len(states), playouts, PLAYERS), (trump_cards, shuffles), recording


__all__ = ["FUTURES", "PlayedBatch", "observation_row", "play_dealt", "play_from",
           "play_new_games", "state_row"]  # fmt: skip
