"""Plumbing shared by the games' numpy batch engines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from workbench.checks import choice
from workbench.kit.lineup import agent_label, agent_repr

#: How ``simulate`` may play: the batch engine when every agent can ("auto"), always ("fast"),
#: or the step engine, one ``State.apply`` at a time ("step").
ENGINES = ("auto", "fast", "step")


def use_fast_engine(
    engine: str, agents: Sequence[Any], supports_fast: Callable[[Sequence[Any]], bool]
) -> bool:
    """Whether ``simulate`` runs the numpy batch engine for ``engine`` and these agents; asking
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


def ask_each_agent(
    agents: Sequence[Any], seat_agent: np.ndarray, actor: np.ndarray, ask: Callable[..., Any]
) -> Any:
    """Ask each distinct agent, ``ask(agent, mask)``, for the games where one of its seats acts
    (``mask``; None: every game, when one agent plays every seat) and merge the answers game by
    game (an answer is an array, or a tuple of arrays, with one entry per game)."""
    owner = seat_agent[actor]
    result = None
    for index, agent in enumerate(agents):
        mask = None if len(agents) == 1 else owner == index
        if mask is not None and not mask.any():
            continue
        answer = ask(agent, mask)
        if result is None or mask is None:
            result = answer
        elif isinstance(answer, tuple):
            result = tuple(np.where(mask, a, r) for a, r in zip(answer, result, strict=True))
        else:
            result = np.where(mask, answer, result)
    return result


class BatchWrittenAgent:
    """An agent written once over batches: the batch engine calls its game's batch methods (a
    game's ``FastEngine.agent_methods``); the step-by-step call ``agent(observation,
    legal_actions, rng)``, which each game's base class defines, runs the same code on a batch
    of one, so both engines play one policy."""

    name = "agent"

    def __call__(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} has no step-by-step call")

    def __repr__(self) -> str:
        return agent_repr(self)
