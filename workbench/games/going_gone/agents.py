"""Reference agents for Going, Going, GONE!, weakest to strongest, each a compiled policy
(``CompiledAgent``). A policy plans its whole sale at once; the step call returns the plan's
next collection (the plan's facts do not change while the sale is sealed).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from workbench.checks import flag
from workbench.games.going_gone.actions import Action, Allocation, DoneSelling, Sell
from workbench.games.going_gone.engine import Observation, SeatView
from workbench.games.going_gone.holdings import items_of, tables_of
from workbench.games.going_gone.policies import (
    COLLECTOR,
    MAX_SALES,
    PARAMETERS,
    RANDOM,
    VALUATION,
    choose_bids,
    plan_sales,
    scratch,
)
from workbench.games.going_gone.rules import Rules
from workbench.kit.lineup import DecidesOnView, agent_repr
from workbench.kit.policies import CompiledPolicy
from workbench.kit.responses import Parameter


class CompiledAgent(DecidesOnView):
    """An agent playing a compiled policy: ``kind`` (of ``policies``) with the parameters
    ``_vector``. The compiled loop plays it over many games, this step call on one seat with the
    same uniforms; the step engine's loop hands it ``State.view`` through ``act_on_view``."""

    name = "agent"
    kind: int = RANDOM
    _vector: np.ndarray = np.zeros(PARAMETERS)

    def compiled_policy(self) -> CompiledPolicy:
        """This agent's policy as the compiled loop plays it."""
        return CompiledPolicy(self.kind, tuple(float(v) for v in self._vector))

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        return compiled_step(self.kind, self._vector, observation.view(), rng)

    def act_on_view(self, player: int, view: SeatView, rng: np.random.Generator) -> Action:
        """The same decision from ``State.view(player)``, drawing the same uniforms."""
        return compiled_step(self.kind, self._vector, view, rng)

    def __repr__(self) -> str:
        return agent_repr(self)


def compiled_step(
    kind: int, params: np.ndarray, view: SeatView, rng: np.random.Generator
) -> Action:
    """The action the compiled policy ``(kind, params)`` takes for ``view``'s seat: an
    allocation (drawing the uniforms the compiled loop draws per seat) or the next collection of
    its sale plan. Not for the random kind's sales (its step call picks a legal action)."""
    rules = view.rules
    tb, bid_space, sale_space, out, plan = _step_context(rules)
    if view.phase == "bid":
        lots = np.array(view.lots, np.uint64)
        u = rng.random((1, 1 if kind == RANDOM else rules.cups))[0]
        choose_bids(kind, params, u, lots, np.uint64(view.holding), view.budget,
                    np.uint64(view.seen), view.rounds_left, tb, bid_space, out)  # fmt: skip
        return Allocation(tuple(out.tolist()))
    made = plan_sales(kind, params, np.uint64(view.holding), view.bucks, view.rounds_left, tb,
                      sale_space, plan)  # fmt: skip
    if view.pending < made:
        return Sell(items_of(rules, int(plan[view.pending])))
    return DoneSelling()


@cache
def _step_context(rules: Rules) -> tuple:
    """A step call's tables and work arrays for ``rules``, made once (the policies write every
    entry before reading it): tables, bid and sale scratch, the allocation and the plan."""
    return (tables_of(rules), scratch(rules.cups), scratch(1), np.zeros(rules.cups, np.int64),
            np.zeros(MAX_SALES, np.uint64))  # fmt: skip


class RandomAgent(CompiledAgent):
    """Uniformly random among the legal actions (the baseline every other agent must beat):
    any allocation within its budget; at each sale step ``DoneSelling()`` or any collection it
    could still sell."""

    name = "random"

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        # the compiled formulas reduce to this on one seat (a test checks the two agree)
        return legal_actions[int(rng.random() * len(legal_actions))]


class ValuationAgent(CompiledAgent):
    """Bids by the marginal value of each lot, spreads its Bucks, sells for Bucks.

    - Bidding: ``bid_share`` (``last_share`` in the last round) of what each lot adds to its
      quick arrangement (``holdings.greedy``: every item in the longer of its lines; exact for
      most holdings, a lower bound in general), at least 1 Buck on a lot worth anything, all
      scaled down in proportion to fit its budget.
    - Selling: a sale never beats holding at the end, so before the last round, while it has
      fewer than ``reserve`` Bucks, it sells the collection of its arrangement paying most per
      Buck of value given up, then the most Bucks.
    """

    name = "valuation"
    #: The constructor's parameters with their defaults and ranges (what a best response re-fits).
    SPACE = (Parameter("bid_share", 0.6, 0.01, 1.0), Parameter("last_share", 0.85, 0.01, 1.0),
             Parameter("reserve", 8, 0, 40))  # fmt: skip

    def __init__(self, bid_share: float = 0.6, last_share: float = 0.85, reserve: int = 8) -> None:
        self.bid_share = _fraction("bid_share", bid_share)
        self.last_share = _fraction("last_share", last_share)
        self.reserve = _whole("reserve", reserve)
        self.kind = VALUATION
        self._vector = np.array([self.bid_share, self.last_share, self.reserve, 0, 0, 0.0])


class CollectorAgent(CompiledAgent):
    """Values lots by the collections they can grow into, and keeps Bucks to bid with.

    - Lot value: ``1 - projection`` parts its exact marginal value now, ``projection`` parts
      its projected one (before the last round): each line's count raised by ``capture`` times
      the items of it still to be dealt as it expects them (its unseen items times the share of
      unseen cards to come), each item of the lot joining the line where it adds most.
    - Bidding: ``bid_share`` of that value (``last_share`` in the last round), at least 1 Buck
      on a lot worth anything, scaled down in proportion to fit its budget.
    - Selling: before the last round, while it has fewer than ``reserve`` Bucks, the whole line
      giving up least value per Buck received.

    ``exact_values=False`` values by the quick arrangement instead (faster, a little weaker).
    """

    name = "collector"
    #: The constructor's parameters with their defaults and ranges (what a best response
    #: re-fits; the exact values stay on).
    SPACE = (
        Parameter("bid_share", 0.6, 0.01, 1.0), Parameter("last_share", 0.85, 0.01, 1.0),
        Parameter("reserve", 15, 0, 40), Parameter("projection", 0.5, 0.0, 1.0),
        Parameter("capture", 0.5, 0.0, 1.0),
    )  # fmt: skip

    def __init__(
        self, bid_share: float = 0.6, last_share: float = 0.85, reserve: int = 15,
        projection: float = 0.5, capture: float = 0.5, exact_values: bool = True,
    ) -> None:  # fmt: skip
        self.bid_share = _fraction("bid_share", bid_share)
        self.last_share = _fraction("last_share", last_share)
        self.reserve = _whole("reserve", reserve)
        self.projection = _fraction("projection", projection, zero=True)
        self.capture = _fraction("capture", capture, zero=True)
        self.exact_values = flag("exact_values", exact_values, type_error=ValueError)
        self.kind = COLLECTOR
        self._vector = np.array([
            self.bid_share, self.last_share, self.reserve, self.projection, self.capture,
            float(exact_values),
        ])  # fmt: skip


class FittedPolicy(CompiledAgent):
    """The collector's policy (exact values) with any finite ``vector`` (bid_share, last_share,
    reserve, projection, capture): what the ``fitted`` agent plays, fitted to the rules."""

    name = "fitted policy"
    kind = COLLECTOR

    def __init__(self, vector: Sequence[float]) -> None:
        values = np.asarray(vector, dtype=np.float64)
        if values.shape != (5,) or not np.isfinite(values).all():
            raise ValueError(
                "FittedPolicy vector must hold 5 finite numbers (bid_share, last_share, "
                f"reserve, projection, capture), got {vector!r}"
            )
        self.vector = tuple(float(v) for v in values)
        self._vector = np.array([*values, 1.0])


def _fraction(name: str, value: object, *, zero: bool = False) -> float:
    low = "[0, 1]" if zero else "(0, 1]"
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | np.integer | np.floating)
        or not (0 <= value <= 1 if zero else 0 < value <= 1)
    ):
        raise ValueError(f"{name} must be a number in {low}, got {value!r}")
    return float(value)


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    return int(value)
