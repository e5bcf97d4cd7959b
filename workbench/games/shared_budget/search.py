"""The shared budget auction's ``search`` agent: the kit's determinized search
(``workbench.kit.search``) with this game's sampler of hidden bids (``sampling``), compiled
playouts of the ``fitted`` policy at every seat (each candidate's started straight in the
compiled loop from the sampled bids, ``compiled.play_candidates``: the values of
``State.apply`` then ``compiled.play_from``, with games against fitted teams 1.5 to 1.8 times
as fast), and the game's own win rule (the best score, then the larger remaining budget; ties
shared).

Anchored on the fitted policy: the agent first draws the bid the fitted policy would write,
then compares it with a few alternatives (passing, the smallest bid, one more than each
rival's budget or equal to it with tie priority, the whole budget) and writes another only
when the playouts give it at least ``margin`` more win share. Why: the playouts assume every
other team plays the fitted policy, so an unanchored search (ties going to the smallest bid,
passing) made a table of searches all deviate the same way at once, which a lone fitted or
even a random team exploited; anchored, a table of searches stays on the fitted play unless
a deviation clearly pays. The classroom group compares buying and passing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from workbench.games.shared_budget.choices import Action
from workbench.games.shared_budget.compiled import play_candidates, play_from, policies
from workbench.games.shared_budget.engine import Observation, State
from workbench.games.shared_budget.fitted import SharedBudgetFittedAgent
from workbench.games.shared_budget.sampling import sample_bids, sample_states
from workbench.kit.search import SearchAgent, Searching, sequential_halving, split_wins
from workbench.kit.seeding import SeedLike
from workbench.kit.selfplay import playing_agent

_FITTED = SharedBudgetFittedAgent()


def standing_play_from(
    states: Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike
) -> np.ndarray:
    """Compiled playouts scored as the game ranks teams: functions covered, then (under
    ``final_tiebreak='budget'``) the budget left as a fraction below one function; the
    classroom group scores 1 when it covers every function, else 0."""
    scores, budgets = play_from(states, agents, playouts=playouts, seed=seed, budgets=True)
    rules = states[0].rules
    if rules.variant == "classroom":
        return (scores == len(rules.functions)).astype(np.float64)
    if rules.final_tiebreak == "budget":
        return scores + budgets / (rules.budget + 1)
    return scores


def win_shares(standings: np.ndarray) -> np.ndarray:
    """Each team's share of the win (ties split); the classroom group's single score is its
    win (1 or 0)."""
    if standings.shape[-1] == 1:
        return standings
    return split_wins(standings)


def candidates(observation: Observation, legal_actions: Sequence[Action]) -> list[Action]:
    """The alternatives to the fitted bid: passing, the smallest bid, the bids that surely beat
    each rival's budget, and the whole budget (those legal); the classroom: both actions."""
    if observation.rules.variant == "classroom" or observation.card is None:
        return list(legal_actions)
    me, budget = observation.player, observation.budget
    first = observation.priority[0] == me
    chosen = {0, 1, budget}
    chosen |= {b + (0 if first else 1) for s, b in enumerate(observation.budgets) if s != me}
    return sorted(bid for bid in chosen if 0 <= bid <= budget)


def rollout_agents(rules: Any) -> list[Any]:
    """The fitted policy for ``rules`` at every seat."""
    return [_FITTED.policy_for(rules)] * rules.players


#: The win share another bid must gain over the fitted policy's own bid to replace it: a
#: tenth of a win (measured on the 3 and 4 team ladders, 0 to 0.2 play alike; see the commit).
MARGIN = 0.1

SEARCHING = Searching(
    sample_states=sample_states,
    play_from=standing_play_from,
    rollout_agents=rollout_agents,
    candidates=candidates,
    win_shares=win_shares,
    budget=16,
    anchor_margin=MARGIN,
)


class SharedBudgetSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (fitted-policy playouts),
    anchored on the fitted policy's own bid: another bid replaces it only when its mean win
    share is at least ``margin`` higher (module docstring). ``searching``: what it plays out
    (``exploiter`` swaps the fitted policy for a candidate's)."""

    def __init__(
        self, budget: int = SEARCHING.budget, margin: float = MARGIN, *,
        searching: Searching = SEARCHING,
    ) -> None:  # fmt: skip
        super().__init__(searching, budget, margin)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(budget={self.budget}, margin={self.margin:g})"

    def evaluate(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's sequential halving (``SearchAgent.evaluate``: the same draws from ``rng``,
        fillings, playouts and values), with each candidate's playouts started straight in the
        compiled loop from the sampled bids and its own, not through ``State.apply`` and
        ``play_from``; the classroom group takes the kit's path."""
        rules = observation.rules
        if rules.variant == "classroom" or observation.card is None:
            return super().evaluate(observation, actions, rng, prior)
        seat, players = observation.player, rules.players
        kinds, parameters = self.compiled_rollouts(rules)
        tiebreak = 1.0 / (rules.budget + 1) if rules.final_tiebreak == "budget" else 0.0

        def play_round(alive: list[int], fillings: int) -> tuple[list[float], None]:
            template, hidden, rows = sample_bids(observation, rng, fillings)
            earlier = np.zeros((fillings, players), dtype=np.int64)
            if hidden:
                earlier[:, list(hidden)] = rows
            scores, left = play_candidates(
                rules, kinds, parameters, int(rng.integers(2**63)), template, earlier,
                [actions[index] for index in alive],
            )  # fmt: skip
            shares = split_wins(scores + left * tiebreak)
            return shares[..., seat].sum(axis=1).tolist(), None

        return sequential_halving(len(actions), self.budget, play_round, prior=prior)

    def compile_rollouts(self, rules: Any, agents: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """The playouts' compiled policies (kinds, parameters) for ``rules``."""
        return policies([playing_agent(agent, rules) for agent in agents])

    def choices(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> tuple[list[Action], bool]:
        """The fitted policy's bid, drawn from ``rng`` (the anchor), then the alternatives to
        it; the classroom group (and a finished game): every legal action, unanchored."""
        if observation.rules.variant == "classroom" or observation.card is None:
            return list(legal_actions), False
        fitted = self.rollout_agents(observation.rules)[observation.player]
        anchor = fitted(observation, legal_actions, rng)
        others = [bid for bid in candidates(observation, legal_actions) if bid != anchor]
        return [anchor, *others], True


def exploiter(_rules: Any, policy: Any) -> SharedBudgetSearchAgent:
    """A search agent modelling every other team as ``policy`` (its playouts and its anchor):
    the best response the fitter holds its candidates against (``FITTING.exploiter``)."""
    modelled = replace(SEARCHING, rollout_agents=lambda played: [policy] * played.players)
    return SharedBudgetSearchAgent(searching=modelled)
