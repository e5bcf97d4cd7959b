"""Hand-written agents for Auction House, weakest to strongest: uniformly random, a heuristic,
and a determinization agent (``fitted.py`` and ``search.py`` hold the adaptive ones). The random
and heuristic agents and the fitted agent's ``FittedPolicy`` are compiled policies
(``compiled_policy()``): their step call runs the compiled loop's decision on one position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from workbench.checks import real_number
from workbench.games.auction_house import compiled, layout
from workbench.games.auction_house.actions import Action, Kitty, Offer, Pass, Play, Start, Take
from workbench.games.auction_house.cards import DECK, SUITS, TRUMP_DECK, card_index
from workbench.games.auction_house.hidden import read_hidden
from workbench.games.auction_house.layout import AUCTION, KITTY, OFFER, PLAY, TAKE
from workbench.games.auction_house.observation import Observation
from workbench.games.auction_house.policies import (
    CARD_TEMPERATURE,
    FITTED,
    FITTED_PARAMETERS,
    HEURISTIC,
    HEURISTIC_DEFAULTS,
    HEURISTIC_PARAMETERS,
    RANDOM,
    WIDTH,
    lineup_table,
)
from workbench.games.auction_house.positions import observation_row, raise_refused
from workbench.games.auction_house.rules import PLAYERS
from workbench.games.auction_house.sampling import fill_rows
from workbench.kit.lineup import DecidesOnView, agent_repr
from workbench.kit.policies import CompiledPolicy, plays_compiled
from workbench.kit.responses import Parameter

_CARD_ACTION = {OFFER: Offer, TAKE: Take, KITTY: Kitty, PLAY: Play}


class CompiledAgent(DecidesOnView):
    """An agent whose policy is compiled (its ``kind`` and ``parameters``); its step call runs
    the same compiled decision on the observation, with one uniform from ``rng``."""

    name = "compiled"
    kind: int
    parameters: tuple[float, ...] = ()
    __repr__ = agent_repr

    def compiled_policy(self) -> CompiledPolicy:
        """The policy the compiled loops play (the kit's interface)."""
        return CompiledPolicy(self.kind, self.parameters)

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        return self.decide(observation, observation_row(observation), float(rng.random()))

    def act_on_view(self, player: int, view: np.ndarray, rng: np.random.Generator) -> Action:
        """The same decision from ``State.view(player)`` (the row the observation would give),
        drawing the same uniform: the step engine's loop calls it to skip the Observation."""
        return self.decide_for(player, view, float(rng.random()))

    def decide(self, observation: Observation, row: np.ndarray, u: float) -> Action:
        """The compiled decision on ``row`` (``observation_row(observation)``) with ``u``."""
        return self.decide_for(observation.player, row, u)

    def decide_for(self, player: int, row: np.ndarray, u: float) -> Action:
        """The compiled decision of seat ``player`` on ``row`` with uniform ``u``."""
        return decide(self.compiled_policy(), player, row, u)


def decide(policy: CompiledPolicy, player: int, row: np.ndarray, u: float) -> Action:
    """The decision of ``policy`` for seat ``player`` on ``row`` with uniform ``u``, as the
    compiled loop takes it."""
    phase = int(row[layout.PHASE])
    start, card, suit = compiled.decide_row(policy.kind, _table_row(policy), player, row, u)
    if phase == AUCTION:
        return Start(DECK[int(card)], SUITS[int(suit)]) if start else Pass()
    return _CARD_ACTION[phase](DECK[int(card)])


@lru_cache(maxsize=64)
def _table_row(policy: CompiledPolicy) -> np.ndarray:
    """A policy's parameters as the one-row table (``WIDTH`` wide) ``choose`` reads."""
    row = np.zeros((1, WIDTH), np.float64)
    row[0, : len(policy.parameters)] = policy.parameters
    return row


class RandomAgent(CompiledAgent):
    """Uniformly random among the legal actions (so it nearly always starts the auction): the
    baseline every other agent must beat."""

    name = "random"
    kind = RANDOM

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        # The compiled formulas reduce to this (a test checks that they agree).
        return legal_actions[int(rng.random() * len(legal_actions))]


class HeuristicAgent(CompiledAgent):
    """Sensible, deterministic play (the compiled ``policies.HEURISTIC``, its parameters
    ``policies.HEURISTIC_PARAMETERS``). Auction: start when its least useful card
    (``policies.shed``) ranks at most ``give_rank``, putting it up and calling trump when known,
    else its longest other suit if that holds ``long_suit`` cards; offer its least useful card
    outside the called suit, or its lowest of it when the face-up card ranks ``trade_rank`` or
    more; take the best offer. Kitty: its least useful card. Play: lead a master, else the
    master trump while trumps are out, else low from its longest side suit; follow with the
    cheapest sure winner (any winner in the last seat), else its lowest; void, ruff as cheaply
    as it can, else shed. Every card not seen and not in its hand may be out against it."""

    name = "heuristic"
    kind = HEURISTIC
    #: The constructor's parameters with their defaults and ranges (what a best response
    #: re-fits).
    SPACE = (
        Parameter("give_rank", int(HEURISTIC_DEFAULTS[0]), 1, 10),
        Parameter("long_suit", int(HEURISTIC_DEFAULTS[1]), 0, 10),
        Parameter("trade_rank", int(HEURISTIC_DEFAULTS[2]), 1, 11),
    )

    def __init__(self, give_rank: int = int(HEURISTIC_DEFAULTS[0]),
                 long_suit: int = int(HEURISTIC_DEFAULTS[1]),
                 trade_rank: int = int(HEURISTIC_DEFAULTS[2])) -> None:  # fmt: skip
        values = (give_rank, long_suit, trade_rank)
        for label, value in zip(HEURISTIC_PARAMETERS, values, strict=True):
            if isinstance(value, bool) or not isinstance(value, int | np.integer):
                raise ValueError(f"{label} must be a whole number, got {value!r}")
        if not 1 <= give_rank <= 10 or not 1 <= trade_rank <= 11 or not 0 <= long_suit <= 10:
            raise ValueError(
                "give_rank must be 1–10, trade_rank 1–11 (11: never trade), long_suit 0–10; "
                f"got {give_rank}, {trade_rank}, {long_suit}"
            )
        self.give_rank, self.long_suit, self.trade_rank = map(int, values)
        self.parameters = tuple(float(v) for v in values)


class FittedPolicy(CompiledAgent):
    """The heuristic's policy extended with named features (``policies.FITTED_PARAMETERS``),
    at the given parameter vector, its card play drawn at ``temperature`` (0: the highest
    weighted sum always): what the ``fitted`` agent plays, compiled. A search modelling a
    mixed table exactly (``exploitability``'s search family) exploits it less than one
    modelling it at temperature 0 (docs/reference/competent-play.md): measure both."""

    name = "fitted policy"
    kind = FITTED

    def __init__(self, params: Sequence[float], temperature: float = CARD_TEMPERATURE) -> None:
        values = tuple(float(v) for v in params)
        if len(values) != len(FITTED_PARAMETERS) or not all(np.isfinite(values)):
            raise ValueError(
                f"params must be {len(FITTED_PARAMETERS)} finite numbers "
                f"({', '.join(FITTED_PARAMETERS)}), got {params!r}"
            )
        self.params = values
        self.temperature = real_number("temperature", temperature, low=0.0, high=100.0,
                                       type_error=ValueError)  # fmt: skip
        self.parameters = (*values, 0.0, self.temperature)  # NO_AUCTION off, then TEMPERATURE


class DeterminizationAgent:
    """Chooses by playing every candidate action out in sampled worlds.

    For each decision it draws ``worlds`` deals consistent with its observation, uniformly
    (``sample_worlds``; a face-down trump card from the rest of the trump deck), plays each
    candidate to the end of the deal in every world with compiled ``rollout`` agents (the same
    worlds for every candidate) and takes the best mean of (its kitty points won - the others'
    mean) plus ``trick_weight`` x (its tricks - the most any other seat took), which steadies
    the choice between candidates the kitty alone scores alike. Step-only.
    """

    name = "determinization"
    __repr__ = agent_repr

    def __init__(self, worlds: int = 16, rollout: object | None = None,
                 trick_weight: float = 1.0) -> None:  # fmt: skip
        if isinstance(worlds, bool) or not isinstance(worlds, int | np.integer) or worlds < 1:
            raise ValueError(f"worlds must be a positive whole number, got {worlds!r}")
        if isinstance(trick_weight, bool) or not isinstance(trick_weight, int | float):
            raise ValueError(f"trick_weight must be a number, got {trick_weight!r}")
        self.worlds = int(worlds)
        self.trick_weight = float(trick_weight)
        self.rollout = rollout if rollout is not None else HeuristicAgent()
        if not plays_compiled(self.rollout):
            raise ValueError(f"rollout must be a compiled-policy agent (random or heuristic), "
                             f"got {self.rollout!r}")  # fmt: skip

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        worlds = self.worlds
        candidates = len(legal_actions)
        sampled = sample_worlds(observation, worlds, rng, repeat=candidates)
        rows, rules, me = sampled.rows, observation.rules, observation.player
        starts = np.repeat([isinstance(a, Start) for a in legal_actions], worlds)
        cards = np.repeat([card_index(getattr(a, "card", "AC")) for a in legal_actions], worlds)
        suits = np.repeat([SUITS.index(a.suit) if isinstance(a, Start) else 0
                           for a in legal_actions], worlds)  # fmt: skip
        compiled.apply_to_rows(rows, me, starts, cards, suits, sampled.trump_cards, rules.deals)
        before = rows[:, layout.SCORES : layout.SCORES + PLAYERS].copy()
        table = lineup_table([self.rollout] * PLAYERS)
        assignment = table.assignment(len(rows))
        error = compiled.play_rows(
            rows, sampled.trump_cards, np.zeros((len(rows), 1, len(DECK)), np.int8),
            sampled.u[None, :, :], observation.deal, table.kinds, table.parameters,
            assignment, rules.deals, rules.trump_reveal == "before_auction",
            True, np.zeros((1, 1, layout.RECORD), np.int16), False,
        )  # fmt: skip
        raise_refused(error, table, assignment, observation.deal)
        gain = (rows[:, layout.SCORES : layout.SCORES + PLAYERS] - before).astype(float)
        tricks = rows[:, layout.WON : layout.WON + PLAYERS].astype(float)
        others = (gain.sum(axis=1) - gain[:, me]) / (PLAYERS - 1)
        lead = tricks[:, me] - np.delete(tricks, me, axis=1).max(axis=1)
        value = gain[:, me] - others + self.trick_weight * lead
        value = value.reshape(candidates, worlds).mean(axis=1)
        return legal_actions[int(np.argmax(value))]


@dataclass
class Worlds:
    """Sampled worlds as rows, each world's trump deck order, and this deal's uniforms."""

    rows: np.ndarray
    trump_cards: np.ndarray
    u: np.ndarray


def sample_worlds(
    observation: Observation, worlds: int, rng: np.random.Generator, *, repeat: int = 1
) -> Worlds:
    """``worlds`` deals consistent with ``observation``, each repeated ``repeat`` times (row
    ``copy * worlds + world``), standing where the observer is to act."""
    obs = observation
    filled = fill_rows(obs, read_hidden(obs), worlds, rng)
    remaining_trumps = [card for card in TRUMP_DECK if card not in obs.revealed_trumps]
    trump_cards = np.zeros((worlds, len(TRUMP_DECK)), np.int8)
    for w in range(worlds):
        drawn = [remaining_trumps[i] for i in rng.permutation(len(remaining_trumps))]
        trump_cards[w] = [TRUMP_DECK.index(c) for c in (*obs.revealed_trumps, *drawn)]

    def tile(array: np.ndarray) -> np.ndarray:
        return np.tile(array, (repeat,) + (1,) * (array.ndim - 1))

    u = rng.random((worlds * repeat, layout.SLOTS))
    return Worlds(tile(filled), tile(trump_cards), u)


__all__ = ["DeterminizationAgent", "FittedPolicy", "HeuristicAgent", "RandomAgent",
           "sample_worlds"]  # fmt: skip
