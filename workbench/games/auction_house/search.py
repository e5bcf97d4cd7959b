"""Auction House's ``search`` agent: the kit's determinized search (``workbench.kit.search``:
sequential halving over candidate actions, common random numbers) with this game's uniform
sampler of hidden cards (``sampling.py``) and compiled playouts (``positions.play_from``) by
the ``fitted`` policy fitted to the rules being played, at every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.games.auction_house.fitted import AuctionHouseFittedAgent
from workbench.games.auction_house.positions import play_from
from workbench.games.auction_house.sampling import sample_states
from workbench.kit.search import SearchAgent, Searching

_FITTED = AuctionHouseFittedAgent(seed=0)


def rollout_agents(rules: Any) -> list[Any]:
    """The playouts' agents: the fitted policy for ``rules`` at every seat."""
    return [_FITTED.policy_for(rules)] * 4


SEARCHING = Searching(
    sample_states=sample_states,
    play_from=play_from,
    rollout_agents=rollout_agents,
    budget=32,
)


class AuctionHouseSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (module docstring)."""

    def __init__(self, budget: int = SEARCHING.budget) -> None:
        super().__init__(SEARCHING, budget)

    def __call__(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        return super().__call__(observation, legal_actions, rng)


__all__ = ["SEARCHING", "AuctionHouseSearchAgent", "rollout_agents"]
