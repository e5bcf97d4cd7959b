"""Going, Going, GONE!'s ``search`` agent: the kit's determinized search
(``workbench.kit.search``: sequential halving over candidate actions, common random numbers)
with this game's uniform sampler of hidden information (``sampling.py``) and compiled playouts
(``play_from``) by the ``fitted`` policy fitted to the rules being played, at every seat.

Candidates (an allocation has up to C(budget + cups, cups) choices, far too many to weigh):
while bidding, the fitted policy's allocation (its bids rounded to nearest), the same bids
halved and raised by half (scaled back within the budget), and bidding nothing; while selling,
the fitted policy's next step and stopping (``DoneSelling()``). When they coincide there is
nothing to search and the agent plays at once. Another candidate replaces the fitted policy's
choice only when its playouts give it 0.3 more mean win share (``Searching.anchor_margin``).

``evaluate`` is the kit's, run on arrays: each round's fillings are drawn straight into compiled
positions (``sampled.PositionSampler``: the draws of ``sample_states``), every surviving
candidate is written into its copy of them, and one compiled call plays them all, each filling
with the same random stream for every candidate (what the kit's per-candidate ``play_from``
calls with one seed give; a test checks the values are the kit's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.going_gone.actions import Action, Allocation, DoneSelling, Sell
from workbench.games.going_gone.bits import mask_of
from workbench.games.going_gone.compiled import tables_of
from workbench.games.going_gone.engine import Observation
from workbench.games.going_gone.fitted import GoingGoneFittedAgent
from workbench.games.going_gone.playouts import compiled_policies, play_from, stream_keys
from workbench.games.going_gone.rollouts import Positions, play_positions
from workbench.games.going_gone.sampled import PositionSampler
from workbench.games.going_gone.sampling import sample_states
from workbench.kit.search import SearchAgent, Searching, sequential_halving, split_wins

#: Factors the fitted policy's bids are scaled by to make the other bidding candidates.
BID_SCALES = (0.5, 1.5)

_FITTED = GoingGoneFittedAgent(seed=0)


class _Midpoint:
    """A stand-in generator whose every uniform is 0.5: the fitted policy's bids rounded to
    nearest, so the candidates do not depend on the search's random stream."""

    def random(self, size: Any = None) -> Any:
        return 0.5 if size is None else np.full(size, 0.5)


def rollout_agents(rules: Any) -> list[Any]:
    """The playouts' agents: the fitted policy for ``rules`` (the shipped fit, or fitted and
    cached on first use) at every seat."""
    return [_FITTED.policy_for(rules)] * rules.players


def candidates(observation: Observation, legal_actions: Sequence[Action]) -> list[Action]:
    """The actions worth searching (module docstring), the fitted policy's choice first."""
    policy = _FITTED.policy_for(observation.rules)
    chosen = policy(observation, legal_actions, _Midpoint())
    if observation.phase == "sell":
        return list(dict.fromkeys([chosen, DoneSelling()]))
    budget = observation.budget
    bids = np.array(chosen.bids, dtype=np.int64)
    options = [chosen]
    for scale in BID_SCALES:
        scaled = np.floor(bids * scale).astype(np.int64)
        if scaled.sum() > budget:
            scaled = scaled * budget // scaled.sum()
        options.append(Allocation(tuple(int(b) for b in scaled)))
    options.append(Allocation((0,) * len(bids)))
    return list(dict.fromkeys(options))


SEARCHING = Searching(
    sample_states=sample_states,
    play_from=play_from,
    rollout_agents=rollout_agents,
    candidates=candidates,
    budget=16,
    # Anchored on the fitted policy's choice (listed first). A budget of 16 gives a candidate
    # at most about a dozen playouts, whose mean win share has a standard error near 0.13, so
    # smaller gaps are mostly noise. Tried on the ladder of valuation, fitted and search (100
    # games per seat): at 0.05 a lone search took 0.76 against three valuation agents where
    # fitted takes 0.98 and rated below fitted (0.84 against 1.16); at 0.3, 0.92 and 1.38
    # against 1.33 (0.1 and 0.2 lay between).
    anchor_margin=0.3,
)


class GoingGoneSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (fitted-policy playouts)."""

    def __init__(self, budget: int = SEARCHING.budget) -> None:
        super().__init__(SEARCHING, budget)

    def compile_rollouts(self, rules: Any, agents: Sequence[Any]) -> tuple:
        """The playouts' compiled policies (kinds, parameters) and tables for ``rules``."""
        kinds, params = compiled_policies(agents, rules.players)
        return kinds, params, tables_of(rules)

    def evaluate(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's sequential halving (``SearchAgent.evaluate``: the same draws from ``rng``,
        the same fillings and playouts), with every candidate of a round played in one
        compiled call."""
        rules, seat = observation.rules, observation.player
        kinds, params, tables = self.compiled_rollouts(rules)
        sampler = PositionSampler(observation)

        def play_round(alive: list[int], fillings: int) -> tuple[np.ndarray, None]:
            # row: candidate * fillings + f
            positions = sampler.sample(rng, fillings, times=len(alive))
            keys = stream_keys(int(rng.integers(2**63)), fillings)
            positions.keys.reshape(len(alive), fillings)[:] = keys
            _write_actions(observation, positions, [actions[i] for i in alive], fillings)
            scores = play_positions(rules, tables, kinds, params, positions)
            return split_wins(scores)[:, seat].reshape(len(alive), fillings).sum(axis=1), None

        return sequential_halving(len(actions), self.budget, play_round, prior=prior)


def _write_actions(
    observation: Observation, positions: Positions, actions: Sequence[Action], fillings: int
) -> None:
    """Make each block of ``fillings`` rows take its action (row = action * fillings + f), as
    ``State.apply`` would before the compiled play goes on."""
    rules, me = observation.rules, observation.player
    blocks = [slice(k * fillings, (k + 1) * fillings) for k in range(len(actions))]
    for rows, action in zip(blocks, actions, strict=True):
        if isinstance(action, Allocation):
            positions.bids[rows, me] = action.bids
        elif isinstance(action, Sell):
            positions.sale_items[rows, me] |= np.uint64(mask_of(rules, action.collection))
            positions.sale_count[rows, me] += 1
            positions.sale_bucks[rows, me] += rules.sale_value(len(action.collection))
        else:
            positions.done[rows, me] = True


__all__ = ["SEARCHING", "GoingGoneSearchAgent", "candidates", "rollout_agents"]
