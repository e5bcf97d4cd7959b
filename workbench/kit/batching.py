"""Plumbing shared by the games' fast engines: which engine ``simulate`` runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

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


