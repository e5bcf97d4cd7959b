"""Auction House's ``search`` agent: the kit's determinized search (``workbench.kit.search``:
sequential halving over candidate actions, common random numbers) with this game's uniform
sampling of hidden cards and compiled playouts to the end of the deal by the ``fitted`` policy
fitted to the rules being played, at every seat, with its score-reading features off
(``score_blind``), each valued by the chance of winning the game that the scores then leave.

``evaluate`` is the kit's sequential halving, run on the compiled engine's rows in one compiled
call a decision (``search_rows.halve``, drawing from the agent's Generator; two calls a round
through the kit's own loop, ``halve_by_rounds``, when a round's fillings need the exact
sampler, with the same draws and ranks): each round draws its fillings straight into
rows (``sampling``'s uniform distribution, drawn by rejection from a close proposal), writes
every surviving candidate into a copy and plays them all in one compiled call with the same
chance per filling (common random numbers). The chance still to come in the deal (the trump
cards not turned, the face-down trump among them) is drawn afresh per filling. What does not
change between rounds (the observation's row, its hidden cards) is built once a decision, the
row shared with the candidates' fitted choice. Actions are ranked by mean win chance
(``search_rows.win_chance``: the share of the win in the last deal, top score wins and ties
split as the rulebook has it; before it a normal approximation of the deals still to play),
and between equal chances by the mean lead over the best other seat's score.

Why the deal's end and not the game's: one card changes who wins a game of 13 deals far less
than the deals still to come do, so 32 playouts to the game's end mostly measured those. Played
to the deal's end and valued by the scores, a lone search won 0.374 [0.359, 0.389] of 4,000
games against three fitted players (0.291 to the game's end) and 0.391 [0.376, 0.406] against
three heuristic ones (0.322), at over twice the speed (``docs/design.md``; the fitted agent of
its constants only, before it learnt its card play from this search).

Candidates: in play, one card per run of cards equal for the tricks (adjacent in their suit
once the cards played are set aside); elsewhere the fitted policy's choice and a few others:
starting an auction: pass, and the fitted policy's face-up card with each suit it may call;
an offer or kitty card: the lowest and highest card of each suit; a free take: every offer.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from workbench.games.auction_house import search_rows
from workbench.games.auction_house.cards import DECK, SUIT_SIZE, SUITS
from workbench.games.auction_house.engine import Action, Observation, Pass, Start
from workbench.games.auction_house.fast import lineup_policies, raise_refused
from workbench.games.auction_house.fitted import AuctionHouseFittedAgent
from workbench.games.auction_house.policies import FITTED_PARAMETERS, RANDOM, SCORE_FEATURES
from workbench.games.auction_house.positions import observation_row, play_from
from workbench.games.auction_house.rules import PLAYERS
from workbench.games.auction_house.sampling import read_hidden, sample_states
from workbench.games.auction_house.search_rows import (
    REFUSED,
    UNFILLED,
    fill,
    halve,
    play_round,
    search_position,
)
from workbench.kit.search import SearchAgent, Searching, prior_bonuses, sequential_halving
from workbench.kit.streams import state_of, store

_FITTED = AuctionHouseFittedAgent(seed=0)


def rollout_agents(rules: Any) -> list[Any]:
    """The playouts' agents: the fitted policy for ``rules`` (shipped, or fitted and cached on
    first use) at every seat, its score-reading features off (``score_blind``)."""
    return [score_blind(_FITTED.policy_for(rules))] * PLAYERS


@lru_cache(maxsize=16)
def score_blind(policy: Any) -> Any:
    """``policy`` with the features that read the game's scores (``SCORE_FEATURES``) at 0.
    Playouts to the game's end that read the scores made a weaker search, weaker than the
    fitted policy itself (alone against three heuristic players 0.242 [0.222, 0.264] of 1,600
    games with them, 0.322 [0.308, 0.337] of 4,000 without). Played to the deal's end they
    make no clear difference (1,000 games each, the same deals: against three fitted players
    0.395 with them, 0.378 without; against three heuristic ones 0.371 and 0.394)."""
    return _with_params(policy, **dict.fromkeys(SCORE_FEATURES, 0.0))


def _with_params(policy: Any, **changes: float) -> Any:
    """The fitted ``policy`` with the named parameters (``FITTED_PARAMETERS``) changed."""
    values = dict(zip(FITTED_PARAMETERS, policy.params, strict=True)) | changes
    return type(policy)(tuple(values[name] for name in FITTED_PARAMETERS))


def candidates(
    observation: Observation, legal_actions: Sequence[Action], policy: Any = None
) -> list[Action]:
    """The actions worth searching (module docstring), the choice of ``policy`` (None: the
    fitted policy for the observation's rules) first."""
    policy = _FITTED.policy_for(observation.rules) if policy is None else policy
    fitted = policy.decide(observation, _row_of(observation), 0.0)
    if observation.phase == "auction":
        starts = [a for a in legal_actions if isinstance(a, Start)]
        face = fitted.card if isinstance(fitted, Start) else _would_put_up(observation, policy)
        kept = [Pass(), *(a for a in starts if a.card == face)]
    elif observation.phase == "play":
        kept = _distinct_plays(observation, legal_actions)
    elif observation.phase in ("offer", "kitty"):
        kept = _suit_ends(legal_actions)
    else:
        kept = list(legal_actions)
    return [fitted, *(action for action in kept if action != fitted)]


_last_row: tuple[Observation | None, np.ndarray] = (None, np.empty(0, np.int64))


def _row_of(observation: Observation) -> np.ndarray:
    """``observation_row(observation)``, built once for the candidates and the search of one
    decision (the last observation is held, so its identity cannot be reused)."""
    global _last_row
    if _last_row[0] is not observation:
        _last_row = (observation, observation_row(observation))
    return _last_row[1]


def _would_put_up(observation: Observation, policy: Any) -> str | None:
    """The card ``policy`` (fitted) puts up when it starts (its start decision made willing:
    any card may go up, any suit length is worth calling)."""
    choice = _willing(policy).decide(observation, _row_of(observation), 0.0)
    return choice.card if isinstance(choice, Start) else None


@lru_cache(maxsize=16)
def _willing(policy: Any) -> Any:
    """The fitted ``policy`` with its start decision made willing (made once per policy)."""
    return _with_params(policy, give_rank=10.0, long_suit=0.0)


def _distinct_plays(observation: Observation, legal_actions: Sequence[Action]) -> list[Action]:
    """One card (the lowest) per run of legal cards adjacent in their suit once the cards
    already played are set aside: such cards win and lose the same tricks."""
    gone = {_INDEX[c] for c in observation.played}
    kept, previous = [], None
    for action in sorted(legal_actions, key=lambda a: _INDEX[a.card]):
        card = _INDEX[action.card]
        if (
            previous is not None
            and previous // SUIT_SIZE == card // SUIT_SIZE
            and all(between in gone for between in range(previous + 1, card))
        ):
            previous = card
            continue
        kept.append(action)
        previous = card
    return kept


def _suit_ends(legal_actions: Sequence[Action]) -> list[Action]:
    """The lowest and the highest legal card of each suit."""
    by_suit: dict[str, list[Action]] = {}
    for action in sorted(legal_actions, key=lambda a: _INDEX[a.card]):
        by_suit.setdefault(action.card[-1], []).append(action)
    kept = []
    for actions in by_suit.values():
        kept += [actions[0]] if len(actions) == 1 else [actions[0], actions[-1]]
    return kept


class AuctionHouseSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (module docstring).
    ``model``: a ``FittedPolicy`` the search models every seat with (its candidates, and its
    playouts score-blind) in place of the fitted agent's fit to the rules being played (the
    fit's own labelling search, which must not ask for the fit it is making). (Not named
    ``policy``: the fast engine takes an agent with a ``policy`` for a compiled one.)"""

    def __init__(self, budget: int = 32, *, model: Any = None) -> None:
        super().__init__(SEARCHING, budget)
        if model is not None and not isinstance(getattr(model, "params", None), tuple):
            raise ValueError(f"model must be a FittedPolicy, got {model!r}")
        self.model = model

    def rollout_agents(self, rules: Any) -> list[Any]:
        """The playouts' agents (``rollout_agents``, or ``model`` score-blind at every seat)."""
        if self.model is None:
            return super().rollout_agents(rules)
        return [score_blind(self.model)] * PLAYERS

    def choose_with_row(
        self, observation: Observation, legal_actions: Sequence[Action], row: np.ndarray,
        rng: np.random.Generator,
    ) -> Action:  # fmt: skip
        """``self(observation, legal_actions, rng)``, given the observation's row
        (``observation_row``, or the State's ``view``) already built."""
        global _last_row
        _last_row = (observation, row)
        return self(observation, legal_actions, rng)

    def choices(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> tuple[list[Action], bool]:
        """The candidates (``candidates``, from ``model`` when given); not anchored."""
        return candidates(observation, legal_actions, self.model), False

    def compile_rollouts(
        self, rules: Any, agents: Sequence[Any]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """The playouts' policies as the compiled engine reads them (kinds, parameters, may
        start) and whether they read uniforms (only the random policy does)."""
        kinds, params, may_start = lineup_policies(agents)
        return kinds, params, may_start, bool((kinds == RANDOM).any())

    def evaluate(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's sequential halving (``SearchAgent.evaluate``) on compiled rows, every
        candidate of a round played on the same fillings and chance: the whole halving in one
        compiled call (``search_rows.halve``), or a call a round (``halve_by_rounds``) when a
        round's fillings need the exact sampler. Both draw and rank alike."""
        rules, me = observation.rules, observation.player
        kinds, params, may_start, draw_uniforms = self.compiled_rollouts(rules)
        p, starts, cards, suits = _encoded(observation, actions)
        bonus = np.array(prior_bonuses(prior, len(actions)), np.float64)
        stream = state_of(rng)  # the search's PCG64 state, stepped in compiled code
        outcome, kept, means, error = halve(
            stream, p.row, p.seats, p.room, p.has_kitty, p.voids, p.known, p.known_ends,
            p.unseen, p.offer_hidden, p.trump_order, p.turned, me, starts, cards, suits, kinds,
            params, may_start, rules.deals, rules.trump_reveal == "before_auction",
            draw_uniforms, self.budget, _TIE_BREAK, bonus, search_rows.REJECTION_TRIES,
            search_rows.REJECTION_PROBE,
        )  # fmt: skip
        if outcome == UNFILLED:  # rng is untouched: halve again from where it started
            return self.halve_by_rounds(observation, actions, rng, prior)
        store(rng, stream)
        if outcome == REFUSED:
            raise_refused(error, self.rollout_agents(rules), observation.deal)
        return int(kept), means

    def halve_by_rounds(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """``evaluate`` through the kit's ``sequential_halving``, two compiled calls a round
        (``fill``, which the exact sampler completes when rejection keeps too few, and
        ``play_round``): the reference ``halve`` is tested against."""
        rules, me = observation.rules, observation.player
        kinds, params, may_start, draw_uniforms = self.compiled_rollouts(rules)
        position, starts, cards, suits = _encoded(observation, actions)
        stream = [state_of(rng)]

        def round_of_playouts(alive: list[int], fillings: int) -> tuple[Any, Any]:
            rows, stream[0] = fill(position, fillings, stream[0], rng)
            pick = np.array(alive)
            shares, leads, error = play_round(
                stream[0], rows, position.trump_order, position.turned, me, starts[pick],
                cards[pick], suits[pick], kinds, params, may_start, rules.deals,
                rules.trump_reveal == "before_auction", draw_uniforms,
            )  # fmt: skip
            if error[0] >= 0:
                store(rng, stream[0])
                raise_refused(error, self.rollout_agents(rules), observation.deal)
            return shares, leads

        # Win chance first; between equal chances, the larger lead over the best other seat
        # (1e-6 a point: even all 220 points weigh less than one playout's share).
        kept = sequential_halving(
            len(actions), self.budget, round_of_playouts, _TIE_BREAK, prior=prior
        )
        store(rng, stream[0])
        return kept


def _encoded(observation: Observation, actions: Sequence[Action]) -> tuple:
    """The decision's ``SearchPosition`` and its candidates as arrays (start, card, suit)."""
    position = search_position(observation, read_hidden(observation), _row_of(observation))
    starts = np.array([isinstance(a, Start) for a in actions])
    cards = np.array([_INDEX[a.card] if hasattr(a, "card") else -1 for a in actions])
    suits = np.array([SUITS.index(a.suit) if isinstance(a, Start) else -1 for a in actions])
    return position, starts, cards, suits


_INDEX = {card: i for i, card in enumerate(DECK)}
#: Weight of a point of score lead in the search's ranking (ties of win chance only).
_TIE_BREAK = 1e-6

SEARCHING = Searching(
    sample_states=sample_states,
    play_from=play_from,
    rollout_agents=rollout_agents,
    candidates=candidates,
    budget=32,
)


__all__ = ["SEARCHING", "AuctionHouseSearchAgent", "candidates", "rollout_agents", "score_blind"]
