"""Auction House's ``search`` agent: the kit's determinized search (sequential halving, common
random numbers) over uniform fillings of the hidden cards, with compiled playouts to the end of
the deal by its ``model`` at every seat (given: ``Game.make_agent`` gives the fitted agent),
score-blind, each valued by the chance of winning the game the scores then leave
(``win_chance``) and, between equal chances, by the lead over the best other seat.

A decision's whole halving runs in one compiled call (``halve``); when rejection keeps too few
fillings the kit's own halving takes over (``halve_by_rounds``, the same draws and ranks).
Candidates: in play, one card per run of cards equal for the tricks; elsewhere the model's
choice and a few others (pass, and the model's face-up card with each suit it may call; the
lowest and highest card of each suit to offer or put in the kitty; every offer to take).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache, partial
from typing import Any

import numba
import numpy as np

from workbench.games.auction_house import layout, sampling
from workbench.games.auction_house.actions import Action, Pass, Start
from workbench.games.auction_house.agents import FittedPolicy, decide
from workbench.games.auction_house.cards import DECK_SIZE, INDEX, POINTS, SUIT_SIZE, SUITS
from workbench.games.auction_house.compiled import apply_choice, play_rows
from workbench.games.auction_house.hidden import read_hidden
from workbench.games.auction_house.observation import Observation
from workbench.games.auction_house.policies import (
    FITTED,
    FITTED_PARAMETERS,
    PARAMETERS,
    RANDOM,
    SCORE_FEATURES,
    TEMPERATURE,
    lineup_table,
)
from workbench.games.auction_house.positions import observation_row, play_from, raise_refused
from workbench.games.auction_house.rules import PLAYERS
from workbench.games.auction_house.sampling import (
    draw_offers,
    fill,
    reject_fill,
    row_filling,
    sample_states,
)
from workbench.kit.policies import CompiledPolicy, plays_compiled
from workbench.kit.search import (
    SearchAgent,
    Searching,
    halving_rounds,
    prior_bonuses,
    round_fillings,
    sequential_halving,
    survivors,
)
from workbench.kit.selfplay import playing_agent
from workbench.kit.streams import bounded, random, state_of, store

#: Playouts per decision by default.
BUDGET = 32
#: The spread (standard deviation) of one deal's points between two seats: a kitty of mean
#: points (a card of the deck's mean from each seat) going to one seat in four.
DEAL_SPREAD = PLAYERS * sum(POINTS) / len(POINTS) * math.sqrt(2 / PLAYERS)
#: Weight of a point of score lead in the search's ranking (ties of win chance only: even all
#: 220 points weigh less than one playout's share).
TIE_BREAK = 1e-6


def model_playouts(model: Any, rules: Any) -> list[Any]:
    """The playouts' agents: ``model``'s policy for ``rules`` at every seat, score-blind."""
    return [score_blind(playing_agent(model, rules))] * PLAYERS


@lru_cache(maxsize=16)
def score_blind(agent: Any) -> Any:
    """``agent`` (a compiled policy) with the features that read the game's scores
    (``SCORE_FEATURES``, the fitted policy's) at 0: the search's playouts."""
    policy = agent.compiled_policy()
    if policy.kind != FITTED:
        return agent
    values = list(policy.parameters[:PARAMETERS])
    for name in SCORE_FEATURES:
        values[FITTED_PARAMETERS.index(name)] = 0.0
    return FittedPolicy(values, temperature=policy.parameters[TEMPERATURE])


def candidates(
    observation: Observation, legal_actions: Sequence[Action], model: Any
) -> list[Action]:
    """The actions worth searching (module docstring), ``model``'s choice first."""
    row = _row_of(observation)
    chosen = model.decide(observation, row, 0.0)
    if observation.phase == "auction":
        starts = [a for a in legal_actions if isinstance(a, Start)]
        if isinstance(chosen, Start):
            face = chosen.card
        else:  # the card it would put up, its start decision made willing
            willing = decide(_willing(model.compiled_policy()), observation.player, row, 0.0)
            face = willing.card if isinstance(willing, Start) else None
        kept = [Pass(), *(a for a in starts if a.card == face)]
    elif observation.phase == "play":
        kept = _distinct_plays(observation, legal_actions)
    elif observation.phase in ("offer", "kitty"):
        kept = _suit_ends(legal_actions)
    else:
        kept = list(legal_actions)
    return [chosen, *(action for action in kept if action != chosen)]


_last_row: tuple[Observation | None, np.ndarray] = (None, np.empty(0, np.int64))


def _row_of(observation: Observation) -> np.ndarray:
    """``observation_row(observation)``, built once a decision (the last one is held, so its
    identity cannot be reused)."""
    global _last_row
    if _last_row[0] is not observation:
        _last_row = (observation, observation_row(observation))
    return _last_row[1]


@lru_cache(maxsize=16)
def _willing(policy: CompiledPolicy) -> CompiledPolicy:
    """``policy`` with its start decision made willing (``give_rank`` 10, ``long_suit`` 0)."""
    parameters = [*policy.parameters, *[0.0] * (2 - len(policy.parameters))]
    parameters[0], parameters[1] = 10.0, 0.0
    return CompiledPolicy(policy.kind, tuple(parameters))


def _distinct_plays(observation: Observation, legal_actions: Sequence[Action]) -> list[Action]:
    """The lowest card of each run of legal cards adjacent in their suit once the cards played
    are set aside: they win and lose the same tricks."""
    gone = {INDEX[c] for c in observation.played}
    kept, previous = [], None
    for action in sorted(legal_actions, key=lambda a: INDEX[a.card]):
        card = INDEX[action.card]
        if previous is None or previous // SUIT_SIZE != card // SUIT_SIZE or any(
                between not in gone for between in range(previous + 1, card)):
            kept.append(action)
        previous = card
    return kept


def _suit_ends(legal_actions: Sequence[Action]) -> list[Action]:
    """The lowest and the highest legal card of each suit."""
    by_suit: dict[str, list[Action]] = {}
    for action in sorted(legal_actions, key=lambda a: INDEX[a.card]):
        by_suit.setdefault(action.card[-1], []).append(action)
    kept = []
    for actions in by_suit.values():
        kept += [actions[0]] if len(actions) == 1 else [actions[0], actions[-1]]
    return kept


class AuctionHouseSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (module docstring), modelling
    every seat as ``model``: a fitted agent or a compiled policy (the fit's labelling search)."""

    def __init__(self, budget: int = BUDGET, *, model: Any) -> None:
        if not (hasattr(model, "policy_for") or plays_compiled(model)):
            raise ValueError(
                f"model must be a fitted agent or a compiled-policy agent, got {model!r}"
            )
        searching = Searching(sample_states=sample_states, play_from=play_from,
                              rollout_agents=partial(model_playouts, model), budget=BUDGET)
        super().__init__(searching, budget)
        self.model = model

    def model_policy(self, rules: Any) -> Any:
        """The compiled policy the search models every seat as under ``rules``."""
        return playing_agent(self.model, rules)

    def choose_with_row(
        self, observation: Observation, legal_actions: Sequence[Action], row: np.ndarray,
        rng: np.random.Generator,
    ) -> Action:  # fmt: skip
        """``self(observation, legal_actions, rng)`` given its row (or the State's ``view``)."""
        global _last_row
        _last_row = (observation, row)
        return self(observation, legal_actions, rng)

    def choices(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> tuple[list[Action], bool]:
        """The candidates (``candidates``, from the model's choice); not anchored."""
        model = self.model_policy(observation.rules)
        return candidates(observation, legal_actions, model), False

    def compile_rollouts(self, rules: Any, agents: Sequence[Any]) -> tuple:
        """The playouts' policy table (kinds, parameters, a row of seats per filling) and whether
        they read uniforms (the random policy does, and a fitted one drawing its cards)."""
        table = lineup_table(agents)
        mixed = (table.kinds == FITTED) & (table.parameters[:, TEMPERATURE] > 0)
        draw_uniforms = bool(((table.kinds == RANDOM) | mixed).any())
        return table.kinds, table.parameters, table.assignment(self.budget), draw_uniforms

    def evaluate(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's sequential halving on compiled rows, in one compiled call (``halve``), or a
        call a round (``halve_by_rounds``) when a round's fillings need the exact sampler."""
        rules, me = observation.rules, observation.player
        kinds, params, assignment, draw_uniforms = self.compiled_rollouts(rules)
        p, starts, cards, suits = _encoded(observation, actions)
        bonus = np.array(prior_bonuses(prior, len(actions)), np.float64)
        stream = state_of(rng)  # the search's PCG64 state, stepped in compiled code
        outcome, kept, means, error = halve(
            stream, p.row, p.seats, p.room, p.has_kitty, p.voids, p.known, p.known_ends,
            p.unseen, p.offer_hidden, p.trump_order, p.turned, me, starts, cards, suits, kinds,
            params, assignment, rules.deals, rules.trump_reveal == "before_auction",
            draw_uniforms, self.budget, TIE_BREAK, bonus, sampling.REJECTION_TRIES,
            sampling.REJECTION_PROBE,
        )  # fmt: skip
        if outcome == UNFILLED:  # rng is untouched: halve again from where it started
            return self.halve_by_rounds(observation, actions, rng, prior)
        store(rng, stream)
        if outcome == REFUSED:
            raise_refused(error, lineup_table(self.rollout_agents(rules)), assignment,
                          observation.deal)  # fmt: skip
        return int(kept), means

    def halve_by_rounds(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """``evaluate`` through the kit's ``sequential_halving``, a ``fill`` and a ``play_round``
        a round: the reference ``halve`` is tested against."""
        rules, me = observation.rules, observation.player
        kinds, params, assignment, draw_uniforms = self.compiled_rollouts(rules)
        position, starts, cards, suits = _encoded(observation, actions)
        stream = [state_of(rng)]

        def round_of_playouts(alive: list[int], fillings: int) -> tuple[Any, Any]:
            rows, stream[0] = fill(position, fillings, stream[0], rng)
            pick = np.array(alive)
            shares, leads, error = play_round(
                stream[0], rows, position.trump_order, position.turned, me, starts[pick],
                cards[pick], suits[pick], kinds, params, assignment, rules.deals,
                rules.trump_reveal == "before_auction", draw_uniforms,
            )  # fmt: skip
            if error[0] >= 0:
                store(rng, stream[0])
                raise_refused(error, lineup_table(self.rollout_agents(rules)), assignment,
                          observation.deal)  # fmt: skip
            return shares, leads

        kept = sequential_halving(len(actions), self.budget, round_of_playouts, TIE_BREAK,
                                  prior=prior)  # fmt: skip
        store(rng, stream[0])
        return kept


def _encoded(observation: Observation, actions: Sequence[Action]) -> tuple:
    """The decision's ``RowFilling`` and its candidates as arrays (start, card, suit)."""
    position = row_filling(observation, read_hidden(observation), _row_of(observation))
    starts = np.array([isinstance(a, Start) for a in actions])
    cards = np.array([INDEX[a.card] if hasattr(a, "card") else -1 for a in actions])
    suits = np.array([SUITS.index(a.suit) if isinstance(a, Start) else -1 for a in actions])
    return position, starts, cards, suits


# -- the compiled rounds -----------------------------------------------------------------------


@numba.njit(cache=True)
def _shuffle(state: np.ndarray, values: np.ndarray) -> None:
    """Shuffle ``values`` in place, uniformly (Fisher-Yates from the last position)."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = bounded(state, i + 1)
        values[i], values[j] = values[j], values[i]


@numba.njit(cache=True)
def win_chance(row: np.ndarray, me: int, deals: int, spread: float) -> float:
    """Seat ``me``'s chance of winning the game from a deal's end: its share of the win once
    the game is over; before, a product over the other seats of P(its final lead > 0), the
    lead normal with the present lead as mean and ``spread`` x sqrt(deals left) as spread."""
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
               params: np.ndarray, assignment: np.ndarray, deals: int, reveal_first: bool,
               draw_uniforms: bool) -> tuple:  # fmt: skip
    """Play candidate ``w`` (``start[w], card[w], suit[w]`` by seat ``me``) on every filled row
    to the deal's end, filling ``f`` with seats ``assignment[f]`` and one draw of the unturned
    trump cards for every candidate. Each candidate's summed ``win_chance`` and lead over the
    best other seat, and the first refused choice; uniforms drawn only if ``draw_uniforms``
    (else every decision reads 0)."""
    fillings, width = filled.shape[0], start.shape[0]
    deal = filled[0, layout.DEAL]
    trump_cards = np.empty((fillings * width, trump_order.shape[0]), np.int8)
    shuffles = np.zeros((1, 1, DECK_SIZE), np.int8)  # no deal begins before the playouts end
    u = np.zeros((1, fillings * width, layout.SLOTS))  # 0 wherever none is drawn
    for f in range(fillings):
        trump_cards[f] = trump_order
        _shuffle(state, trump_cards[f, turned:])
        if draw_uniforms:
            for slot in range(layout.SLOTS):
                u[0, f, slot] = random(state)
    rows = np.empty((fillings * width, filled.shape[1]), np.int64)
    seats = np.empty((fillings * width, assignment.shape[1]), np.int64)
    no_record = np.zeros((1, 1, layout.RECORD), np.int16)
    for w in range(width):
        for f in range(fillings):
            r = w * fillings + f
            rows[r], seats[r] = filled[f], assignment[f]
            if w > 0:
                trump_cards[r] = trump_cards[f]
                if draw_uniforms:
                    u[:, r] = u[:, f]
            apply_choice(rows[r], me, start[w], card[w], suit[w], trump_cards, r, deals,
                         no_record, False)  # fmt: skip
    error = play_rows(rows, trump_cards, shuffles, u, deal, kinds, params, seats, deals,
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
          params: np.ndarray, assignment: np.ndarray, deals: int, reveal_first: bool,
          draw_uniforms: bool, budget: int, tie_weight: float, bonus: np.ndarray,
          tries: int, probe: int) -> tuple:  # fmt: skip
    """The kit's ``sequential_halving`` of one decision in one call: each round fills rows by
    rejection only and ``play_round``s the surviving candidates, drawing and ranking as
    ``fill``, ``play_round`` and the kit would. (outcome, the kept candidate, every candidate's
    mean win chance, the refused choice); on ``UNFILLED`` the caller starts again in Python."""
    n = start.shape[0]
    rounds = halving_rounds(n)
    total, ties = np.zeros(n), np.zeros(n)
    count = np.zeros(n, np.int64)
    alive = np.arange(n)
    error = np.full(5, -1, np.int64)
    for round_index in range(rounds):
        fillings = round_fillings(budget, alive.shape[0], rounds - round_index)
        rows = np.empty((fillings, layout.ROW), np.int64)
        kept = reject_fill(state, row, seats, room, has_kitty, voids, known, known_ends, unseen,
                           rows, fillings * tries, fillings * probe, tries)  # fmt: skip
        if kept < fillings:
            return UNFILLED, -1, total, error
        if offer_hidden.any():
            draw_offers(state, rows, seats, room, offer_hidden)
        shares, leads, error = play_round(state, rows, trump_order, turned, me, start[alive],
                                          card[alive], suit[alive], kinds, params, assignment,
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


__all__ = ["BUDGET", "DEAL_SPREAD", "AuctionHouseSearchAgent", "candidates", "halve",
           "play_round", "score_blind", "win_chance"]  # fmt: skip
