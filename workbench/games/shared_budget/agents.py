"""Reference agents: uniformly random, a coverage heuristic and the exact equilibrium of two
teams, all three compiled. Each also gives its exact action probabilities
(``probabilities(observation, legal_actions)``, from the public position only), which
``expected_outcome`` scores matches with."""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence

import numpy as np

from workbench.checks import real_number, whole_number
from workbench.games.shared_budget.engine import PASS, Action, Observation
from workbench.games.shared_budget.policies import COVERAGE, EQUILIBRIUM, RANDOM, SUBGAME_PERFECT
from workbench.games.shared_budget.positions import bid_spread, decide
from workbench.games.shared_budget.solver import Solution
from workbench.games.shared_budget.three_teams import ThreeTeamSolution
from workbench.kit.policies import CompiledPolicy
from workbench.kit.responses import Parameter


def require_choice(legal_actions: Sequence[Action]) -> None:
    """A clear error when an agent is asked to act with nothing legal (the game is over)."""
    if not len(legal_actions):
        raise ValueError("no legal action to choose from: the game is over")


class CompiledAgent:
    """Base of the agents playing a compiled policy (``compiled_policy()``): the step call runs
    the loop's decision on the observed position, drawing from ``rng`` as the loop would."""

    def compiled_policy(self) -> CompiledPolicy:
        """This agent's policy in the compiled loop: its kind and parameter vector."""
        raise NotImplementedError

    def policy_at(self, observation: Observation) -> CompiledPolicy:
        """The compiled policy that decides at ``observation`` (a fitted policy checks rules)."""
        return self.compiled_policy()

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        require_choice(legal_actions)
        return decide(self.policy_at(observation), observation, rng)

    def probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """The bid's exact distribution: the target spread over target +/- jitter, each bid
        clipped to [1, the sure-win bid] (classroom: the group's choice, which is certain)."""
        policy = self.policy_at(observation)
        if observation.card is None:
            return {PASS if observation.rules.variant == "classroom" else 0: 1.0}
        if observation.rules.variant == "classroom":  # no draw: any generator gives it
            return {decide(policy, observation, np.random.default_rng(0)): 1.0}
        target, high, jitter = bid_spread(policy, observation)
        if target == 0:
            return {0: 1.0}
        result: dict[Action, float] = {}
        for offset in range(-jitter, jitter + 1):
            bid = min(max(target + offset, 1), high)
            result[bid] = result.get(bid, 0.0) + 1.0 / (2 * jitter + 1)
        return dict(sorted(result.items()))


class RandomAgent(CompiledAgent):
    """Picks uniformly among the legal actions: every bid from 0 to the budget alike."""

    name = "random"

    def compiled_policy(self) -> CompiledPolicy:
        """Uniform over the legal actions: no parameters."""
        return CompiledPolicy(RANDOM)

    def probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """Equal probability for every legal action."""
        return dict.fromkeys(legal_actions, 1.0 / len(legal_actions))


class CoverageHeuristic(CompiledAgent):
    """Bids for functions it still lacks and keeps budget for the tie-break.

    A card adding no missing function gets 0. Otherwise the target is ``share`` x the budget's
    share for the functions it adds (budget x added / missing, capped at the budget), or the
    whole budget when no later card supplies one of them; never more than surely wins (the
    richest rival's budget, + ``margin`` without priority), so spare credits stay for the
    tie-break. ``jitter`` spreads the bid uniformly over target +/- jitter (at least 1, at most
    the sure-win bid); 0 is deterministic. The classroom group buys a card when it adds a
    missing function and is affordable. The compiled policy's vector: (jitter, share, margin).
    """

    #: The constructor's parameters with their defaults and ranges (what a best response
    #: re-fits).
    SPACE = (Parameter("jitter", 2, 0, 8), Parameter("share", 1.0, 0.0, 2.0),
             Parameter("margin", 1, 0, 6))  # fmt: skip

    def __init__(self, jitter: int = 2, share: float = 1.0, margin: int = 1) -> None:
        allowed = "a non-negative int"
        self.jitter = whole_number("CoverageHeuristic jitter", jitter, low=0, allowed=allowed)
        self.share = real_number("CoverageHeuristic share", share, low=0.0, high=math.inf)
        self.margin = whole_number("CoverageHeuristic margin", margin, low=0, allowed=allowed)
        name = "coverage" if jitter == 0 else f"coverage(±{jitter})"
        tuned = [f"share={share:g}"] * (self.share != 1.0) + [f"margin={margin}"] * (margin != 1)
        self.name = f"{name}[{', '.join(tuned)}]" if tuned else name

    def compiled_policy(self) -> CompiledPolicy:
        """Its parameters (jitter, share, margin)."""
        return CompiledPolicy(COVERAGE, (float(self.jitter), self.share, float(self.margin)))

    def target(self, observation: Observation) -> int:
        """The bid before jitter (see the class docstring)."""
        if observation.card is None:
            return 0
        return bid_spread(self.compiled_policy(), observation)[0]


class EquilibriumAgent(CompiledAgent):
    """Plays a solved equilibrium (the solution must be for the same rules): two teams' exact
    one (``solve``), its bid drawn from the stage game's strategy where that is mixed, or three
    teams' pure subgame-perfect one (``solve_three``). It plays in the compiled loop too
    (``policies.EQUILIBRIUM`` or ``SUBGAME_PERFECT``, the solution's table)."""

    name = "equilibrium"

    def __init__(self, solution: Solution | ThreeTeamSolution) -> None:
        if not isinstance(solution, Solution | ThreeTeamSolution):
            raise TypeError(f"EquilibriumAgent needs a solution from solve() or solve_three(), "
                            f"got {solution!r}")  # fmt: skip
        self.solution = solution
        self._policy: CompiledPolicy | None = None

    def compiled_policy(self) -> CompiledPolicy:
        """The EQUILIBRIUM or SUBGAME_PERFECT kind with the solution's table, a read-only array
        made once."""
        if self._policy is None:
            table = self.solution.policy_vector()
            table.flags.writeable = False
            kind = EQUILIBRIUM if isinstance(self.solution, Solution) else SUBGAME_PERFECT
            self._policy = CompiledPolicy(kind, table)
        return self._policy

    def policy_at(self, observation: Observation) -> CompiledPolicy:
        """The table (what the step call reads), for the solution's rules only."""
        if observation.rules != self.solution.rules:
            raise ValueError(
                "EquilibriumAgent's solution was solved for other rules: "
                f"{self.solution.rules} vs the game's {observation.rules}"
            )
        return self.compiled_policy()

    def probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """The equilibrium bid distribution of this team at this position."""
        self.policy_at(observation)  # the rules' check
        both = self.solution.strategy(observation.round_index, observation.budgets,
                                      observation.coverage)  # type: ignore[arg-type]  # fmt: skip
        return both[observation.player]  # type: ignore[return-value]


def sample_choice(distribution: dict[Action, float], rng: np.random.Generator) -> Action:
    """One action from {action: probability} by one uniform draw (inverse CDF); a certain
    action uses no randomness."""
    if len(distribution) == 1:
        return next(iter(distribution))
    actions = list(distribution)
    cumulative = list(itertools.accumulate(distribution.values()))
    index = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
    return actions[min(index, len(actions) - 1)]
