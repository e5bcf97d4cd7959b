"""Going, Going, GONE!'s ``search`` agent: the kit's determinized search
(``workbench.kit.search``: sequential halving over candidate actions, common random numbers)
with this game's uniform sampler of hidden information (``sampling.py``) and compiled playouts
(``play_from``) by the ``fitted`` policy fitted to the rules being played, at every seat.

Candidates (an allocation has up to C(budget + cups, cups) choices, far too many to weigh):
while bidding, the fitted policy's allocation (its bids rounded to nearest), the same bids
halved and raised by half (scaled back within the budget), and bidding nothing; while selling,
the fitted policy's next step and stopping (``DoneSelling()``). When they coincide there is
nothing to search and the agent plays at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.going_gone.actions import Action, Allocation, DoneSelling
from workbench.games.going_gone.engine import Observation
from workbench.games.going_gone.fitted import GoingGoneFittedAgent
from workbench.games.going_gone.playouts import play_from
from workbench.games.going_gone.sampling import sample_states
from workbench.kit.search import SearchAgent, Searching

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
)


class GoingGoneSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (fitted-policy playouts)."""

    def __init__(self, budget: int = SEARCHING.budget) -> None:
        super().__init__(SEARCHING, budget)


__all__ = ["SEARCHING", "GoingGoneSearchAgent", "candidates", "rollout_agents"]
