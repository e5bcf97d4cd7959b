"""Plumbing shared by the games' numpy batch engines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


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
