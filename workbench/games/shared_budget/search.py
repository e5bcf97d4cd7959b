"""The shared budget auction's ``search`` agent: the kit's determinized search with compiled
playouts of its ``model`` at every seat, anchored on the model's own bid (another bid replaces
it only when the playouts give it ``margin`` more win share: unanchored searches at one table,
each assuming the others play the model, all deviate at once, which a lone team exploits)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.shared_budget.engine import Action, Observation, State
from workbench.games.shared_budget.positions import play_candidates, play_from
from workbench.games.shared_budget.sampling import sample_bids, sample_states
from workbench.kit.lineup import agent_repr
from workbench.kit.policies import PolicyTable, likeliest, plays_compiled, policy_table
from workbench.kit.search import SearchAgent, Searching, sequential_halving, split_wins
from workbench.kit.seeding import SeedLike
from workbench.kit.selfplay import playing_agent


def standing_play_from(
    states: Sequence[State], agents: Sequence[Any], *, playouts: int, seed: SeedLike
) -> np.ndarray:
    """Compiled playouts scored as the game ranks teams: functions covered plus the budget left
    as a fraction of one under the budget tie-break (classroom: 1 for every function, else 0)."""
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
    """The alternatives to the model's bid: passing, the smallest bid, the bids that surely beat
    each rival's budget, and the whole budget (those legal); the classroom: both actions."""
    if observation.rules.variant == "classroom" or observation.card is None:
        return list(legal_actions)
    me, budget = observation.player, observation.budget
    first = observation.priority[0] == me
    chosen = {0, 1, budget}
    chosen |= {b + (0 if first else 1) for s, b in enumerate(observation.budgets) if s != me}
    return sorted(bid for bid in chosen if 0 <= bid <= budget)


#: The win share another bid must gain over the model's own bid to replace it: a tenth of a win.
MARGIN = 0.1


class SharedBudgetSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision of ``model`` (a compiled or
    fitted agent) at every seat, anchored on the model's bid with ``margin`` (module docstring)."""

    def __init__(self, model: Any, budget: int = 16, margin: float = MARGIN) -> None:
        if not (plays_compiled(model) or hasattr(model, "policy_for")):
            raise TypeError(f"the search's model must be an agent that plays compiled (random, "
                            f"coverage, fitted), got {model!r}")  # fmt: skip
        searching = Searching(
            sample_states=sample_states, play_from=standing_play_from,
            rollout_agents=lambda rules: [playing_agent(model, rules)] * rules.players,
            candidates=candidates, win_shares=win_shares, budget=16, anchor_margin=MARGIN,
        )  # fmt: skip
        super().__init__(searching, budget, margin)
        self.model = model

    def __repr__(self) -> str:
        return agent_repr(self)

    def evaluate(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's ``SearchAgent.evaluate`` (the same draws, fillings, playouts and values),
        each candidate's playouts started straight in the compiled loop (classroom: the kit's)."""
        rules = observation.rules
        if rules.variant == "classroom" or observation.card is None:
            return super().evaluate(observation, actions, rng, prior)
        seat, players = observation.player, rules.players
        table = self.compiled_rollouts(rules)
        tiebreak = 1.0 / (rules.budget + 1) if rules.final_tiebreak == "budget" else 0.0

        def play_round(alive: list[int], fillings: int) -> tuple[list[float], None]:
            template, hidden, rows = sample_bids(observation, rng, fillings)
            earlier = np.zeros((fillings, players), dtype=np.int64)
            if hidden:
                earlier[:, list(hidden)] = rows
            scores, left = play_candidates(
                rules, table, int(rng.integers(2**63)), template, earlier,
                [actions[index] for index in alive],
            )  # fmt: skip
            shares = split_wins(scores + left * tiebreak)
            return shares[..., seat].sum(axis=1).tolist(), None

        return sequential_halving(len(actions), self.budget, play_round, prior=prior)

    def compile_rollouts(self, rules: Any, agents: Sequence[Any]) -> PolicyTable:
        """The playouts' policy table for ``rules``."""
        return policy_table(agents)

    def choices(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> tuple[list[Action], bool]:
        """The model's bid, drawn from ``rng`` (the anchor), then the alternatives to it; the
        classroom group (and a finished game): every legal action, unanchored."""
        if observation.rules.variant == "classroom" or observation.card is None:
            return list(legal_actions), False
        model = likeliest(self.rollout_agents(observation.rules)[observation.player])
        anchor = model(observation, legal_actions, rng)
        others = [bid for bid in candidates(observation, legal_actions) if bid != anchor]
        return [anchor, *others], True
