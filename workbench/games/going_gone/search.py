"""Going, Going, GONE!'s ``search`` agent: the kit's determinized search (sequential halving,
common random numbers) with this game's sampler (``sampling``) and compiled playouts of its
``model`` (a compiled or fitted agent) at every seat.

Candidates: while bidding, the model's allocation (bids rounded to nearest), the same bids
halved and raised by half (within the budget) and bidding nothing; while selling, the model's
next step and stopping. Another replaces the model's choice only with ``ANCHOR_MARGIN`` more mean
win share (a budget of 16 gives a candidate about a dozen playouts, a standard error near 0.13).
``evaluate`` is the kit's on arrays: each round's fillings are drawn straight into positions and
every surviving candidate plays them in one compiled call (a test checks the kit's values).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.going_gone.actions import Action, Allocation, DoneSelling, Sell
from workbench.games.going_gone.compiled import Positions, play_positions
from workbench.games.going_gone.engine import Observation
from workbench.games.going_gone.holdings import mask_of, tables_of
from workbench.games.going_gone.positions import play_from, policy_table_of, stream_keys
from workbench.games.going_gone.sampling import Sampler, sample_states
from workbench.kit.policies import likeliest
from workbench.kit.search import SearchAgent, Searching, sequential_halving, split_wins

#: Factors the model's bids are scaled by to make the other bidding candidates.
BID_SCALES = (0.5, 1.5)

#: Playouts per decision by default, and the win share another candidate must gain over the
#: model's choice to replace it.
BUDGET, ANCHOR_MARGIN = 16, 0.3


class _Midpoint:
    """A stand-in generator whose every uniform is 0.5: the model's bids rounded to nearest,
    so the candidates do not depend on the search's random stream."""

    def random(self, size: Any = None) -> Any:
        return 0.5 if size is None else np.full(size, 0.5)


def candidates(
    policy: Any, observation: Observation, legal_actions: Sequence[Action]
) -> list[Action]:
    """The actions worth searching (module docstring), ``policy``'s own choice first."""
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


class GoingGoneSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision, modelling every seat as
    ``model`` (its playouts and its anchor)."""

    def __init__(self, budget: int = BUDGET, margin: float | None = None, *, model: Any) -> None:
        searching = Searching(sample_states, play_from, None, budget=BUDGET,
                              anchor_margin=ANCHOR_MARGIN)  # fmt: skip
        super().__init__(searching, budget, margin, model=model)

    def choices(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> tuple[list[Action], bool]:
        """The candidates, led by the model's own choice (the anchor)."""
        policy = likeliest(self.rollout_agents(observation.rules)[0])
        return candidates(policy, observation, legal_actions), self.margin > 0

    def compile_rollouts(self, rules: Any, agents: Sequence[Any]) -> tuple:
        """The playouts' policy table and the rules' tables."""
        return policy_table_of(agents, rules.players), tables_of(rules)

    def evaluate(
        self, observation: Observation, actions: Sequence[Action], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's sequential halving (``SearchAgent.evaluate``: the same draws from ``rng``,
        the same fillings and playouts), with every candidate of a round played in one
        compiled call."""
        rules, seat = observation.rules, observation.player
        table, tables = self.compiled_rollouts(rules)
        sampler = Sampler(observation)

        def play_round(alive: list[int], fillings: int) -> tuple[np.ndarray, None]:
            # row: candidate * fillings + f
            positions = sampler.positions(rng, fillings, times=len(alive))
            seed = int(rng.integers(2**63))
            positions.keys.reshape(len(alive), fillings)[:] = stream_keys(seed, fillings)
            _write_actions(observation, positions, [actions[i] for i in alive], fillings)
            # each filling's policies (drawn where a seat is mixed), the same for every copy
            assignment = np.tile(table.playout_assignment(fillings, 1, seed), (len(alive), 1))
            scores, _ = play_positions(rules, tables, table, assignment, positions)
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


__all__ = ["ANCHOR_MARGIN", "BUDGET", "GoingGoneSearchAgent", "candidates"]
