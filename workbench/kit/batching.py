"""Plumbing shared by the games' fast engines: which engine ``simulate`` runs, and the
distinct agents of a line-up."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from workbench.checks import choice
from workbench.kit.lineup import agent_label

#: How ``simulate`` may play: the batch engine when every agent can ("auto"), always ("fast"),
#: or the step engine, one ``State.apply`` at a time ("step").
ENGINES = ("auto", "fast", "step")


def use_fast_engine(
    engine: str, agents: Sequence[Any], supports_fast: Callable[[Sequence[Any]], bool]
) -> bool:
    """Whether ``simulate`` runs the fast engine for ``engine`` and these agents; asking
    for "fast" with agents that only play step by step is an error naming them."""
    choice("engine", engine, ENGINES)
    fast = supports_fast(agents)
    if engine == "fast" and not fast:
        slow = sorted({agent_label(a) for a in agents if not supports_fast([a])})
        raise ValueError(f"engine='fast' needs batch agents; these are step-only: {slow}")
    return fast and engine != "step"


def distinct_agents(agents: Sequence[Any]) -> tuple[list[Any], np.ndarray]:
    """The distinct agent objects (by identity) and, per seat, the index of its agent: a batch
    engine asks each policy once per decision for every game where one of its seats acts."""
    distinct: list[Any] = []
    seat_agent = []
    for agent in agents:
        for index, seen in enumerate(distinct):
            if seen is agent:
                seat_agent.append(index)
                break
        else:
            distinct.append(agent)
            seat_agent.append(len(distinct) - 1)
    return distinct, np.array(seat_agent)
