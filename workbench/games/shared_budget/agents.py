"""Reference agents: uniformly random, a coverage heuristic, and the exact equilibrium.

Every agent is ``agent(observation, legal_actions, rng) -> action`` (deterministic given the
rng) and also reports its exact action probabilities with ``agent.probabilities(observation,
legal_actions)``, which ``expected_outcome`` uses to score matches without sampling. All three
choose from the public position only (round, budgets, coverage), never from the history.
The random agent and the coverage heuristic also play compiled in the fast engine
(``compiled_policy()``: the same policy, the same draws); the equilibrium agent plays step by
step only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from workbench.checks import whole_number
from workbench.games.shared_budget.choices import require_choice, sample_choice
from workbench.games.shared_budget.compiled import COVERAGE, RANDOM, CompiledPolicy
from workbench.games.shared_budget.engine import BUY, PASS, Observation
from workbench.games.shared_budget.solver import Solution

Action = int | str


class RandomAgent:
    """Picks uniformly among the legal actions: every bid from 0 to the budget alike."""

    name = "random"

    def compiled_policy(self) -> CompiledPolicy:
        """This policy in the fast engine: uniform over the legal actions."""
        return CompiledPolicy(RANDOM, ())

    def probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """Equal probability for every legal action."""
        return dict.fromkeys(legal_actions, 1.0 / len(legal_actions))

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        require_choice(legal_actions)
        return legal_actions[int(rng.integers(len(legal_actions)))]


class CoverageHeuristic:
    """Bids for functions it still lacks and keeps budget for the tie-break.

    A card adding no missing function gets 0. Otherwise the target is the budget's share for
    the functions it adds (budget x added / missing), or the whole budget when no later card
    supplies one of them; never more than surely wins (the richest rival's budget, +1 without
    priority), so spare credits stay for the remaining-budget tie-break. ``jitter`` spreads the
    bid uniformly over target +/- jitter (at least 1, at most the sure-win bid), as teams
    haggling over a number do; ``jitter=0`` is deterministic. In the classroom variant the
    group buys a card when it adds a missing function and is affordable.

    Parameters (the compiled policy's vector, in this order; defaults are the hand-set ones):
    ``jitter`` (2) the spread of the bid around the target; ``share`` (1.0) scales the
    budget's share for the added functions (capped at the budget); ``margin`` (1) what the
    sure-win bid adds to the richest rival's budget without priority.
    """

    def __init__(self, jitter: int = 2, share: float = 1.0, margin: int = 1) -> None:
        self.jitter = whole_number(
            "CoverageHeuristic jitter", jitter, low=0, allowed="a non-negative int"
        )
        number = isinstance(share, int | float) and not isinstance(share, bool)
        if not number or not 0 <= share < math.inf:
            raise ValueError(f"CoverageHeuristic share must be a number >= 0, got {share!r}")
        self.share = float(share)
        self.margin = whole_number(
            "CoverageHeuristic margin", margin, low=0, allowed="a non-negative int"
        )
        name = "coverage" if jitter == 0 else f"coverage(±{jitter})"
        tuned = [f"share={share:g}"] * (self.share != 1.0) + [f"margin={margin}"] * (margin != 1)
        self.name = f"{name}[{', '.join(tuned)}]" if tuned else name

    def compiled_policy(self) -> CompiledPolicy:
        """This policy in the fast engine: its parameters (jitter, share, margin)."""
        return CompiledPolicy(COVERAGE, (float(self.jitter), self.share, float(self.margin)))

    def target(self, observation: Observation) -> int:
        """The bid before jitter (see the class docstring)."""
        rules, me = observation.rules, observation.player
        card = observation.card
        if card is None:
            return 0
        masks = rules.card_masks()
        missing = ((1 << len(rules.functions)) - 1) & ~observation.coverage[me]
        adds = masks[observation.round_index] & missing
        if not adds:
            return 0
        budget = observation.budget
        later = 0
        for mask in masks[observation.round_index + 1 :]:
            later |= mask
        if adds & ~later:
            want = budget
        else:
            want = min(
                budget, math.ceil(self.share * budget * adds.bit_count() / missing.bit_count())
            )
        return min(want, self._sure_win(observation, self.margin))

    def probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """The jittered bid's distribution (classroom: buy or pass with certainty)."""
        if observation.rules.variant == "classroom":
            return {self._classroom_choice(observation, legal_actions): 1.0}
        target = self.target(observation)
        if target == 0:
            return {0: 1.0}
        high = min(observation.budget, self._sure_win(observation, self.margin))
        weight = 1.0 / (2 * self.jitter + 1)
        result: dict[Action, float] = {}
        for offset in range(-self.jitter, self.jitter + 1):
            bid = min(max(target + offset, 1), high)
            result[bid] = result.get(bid, 0.0) + weight
        return dict(sorted(result.items()))

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        require_choice(legal_actions)
        distribution = self.probabilities(observation, legal_actions)
        return sample_choice(distribution, rng)

    @staticmethod
    def _sure_win(observation: Observation, margin: int) -> int:
        me = observation.player
        rivals = [b for seat, b in enumerate(observation.budgets) if seat != me]
        if not rivals:
            return observation.budget
        first = observation.priority[0] == me
        return max(1, max(rivals) + (0 if first else margin))

    @staticmethod
    def _classroom_choice(observation: Observation, legal_actions: Sequence[Action]) -> Action:
        rules, card = observation.rules, observation.card
        if card is None or BUY not in legal_actions:
            return PASS
        adds = rules.card_masks()[observation.round_index] & ~observation.coverage[0]
        return BUY if adds else PASS


class EquilibriumAgent:
    """Plays the solved equilibrium: samples its bid from the solution's strategy for this
    position (two teams; the solution must be for the same rules)."""

    name = "equilibrium"

    def __init__(self, solution: Solution) -> None:
        if not isinstance(solution, Solution):
            raise TypeError(f"EquilibriumAgent needs a Solution from solve(), got {solution!r}")
        self.solution = solution

    def probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """The equilibrium bid distribution of this team at this position."""
        if observation.rules != self.solution.rules:
            raise ValueError(
                "EquilibriumAgent's solution was solved for other rules: "
                f"{self.solution.rules} vs the game's {observation.rules}"
            )
        both = self.solution.strategy(
            observation.round_index,
            observation.budgets,
            observation.coverage,  # type: ignore[arg-type]
        )
        return both[observation.player]  # type: ignore[return-value]

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        require_choice(legal_actions)
        return sample_choice(self.probabilities(observation, legal_actions), rng)


