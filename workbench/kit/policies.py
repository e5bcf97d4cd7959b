"""Compiled policies behind one interface: what an agent must offer to play inside a game's
compiled loop, and the table of policies a loop reads.

An agent plays compiled when it has ``compiled_policy() -> CompiledPolicy``: an integer kind
(which of the game's policy functions decides) and a float64 parameter vector (its constants,
named by the agent). A game's compiled loop reads a ``PolicyTable``: every distinct policy of a
line-up as a row (``kinds[k]``, ``parameters[k]``), and per game and seat the row that seat
plays (``assignment[g, s]``), so one loop serves fixed line-ups and seats whose policy is drawn
per game alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from workbench.kit.lineup import agent_label


class CompiledPolicy(NamedTuple):
    """A policy as a compiled loop plays it: the game's policy ``kind`` and its parameters."""

    kind: int
    parameters: tuple[float, ...] = ()


def plays_compiled(agent: Any) -> bool:
    """Can ``agent`` play inside a compiled loop (has it ``compiled_policy()``)?"""
    return callable(getattr(agent, "compiled_policy", None)) and not isinstance(agent, type)


@dataclass(frozen=True)
class PolicyTable:
    """The policies of a line-up as a compiled loop reads them: ``kinds`` (K,) int64,
    ``parameters`` (K, W) float64 (padded with zeros), and ``seats`` (n,) int64, the row
    each seat plays."""

    kinds: np.ndarray
    parameters: np.ndarray
    seats: np.ndarray

    def assignment(self, games: int) -> np.ndarray:
        """The row each seat plays in each of ``games`` games: (games, n) int64."""
        return np.ascontiguousarray(np.tile(self.seats, (games, 1)))


def policy_table(agents: Sequence[Any], *, width: int = 1) -> PolicyTable:
    """The table of ``agents`` (one per seat; an agent seated twice is one row); a TypeError
    naming every agent that has no compiled policy. ``width``: at least this many parameters."""
    step_only = sorted({agent_label(agent) for agent in agents if not plays_compiled(agent)})
    if step_only:
        raise TypeError(
            f"a compiled loop plays agents with a compiled policy; these play step by step "
            f"only: {step_only}"
        )
    rows: list[CompiledPolicy] = []
    seats = []
    for agent in agents:
        policy = agent.compiled_policy()
        policy = CompiledPolicy(int(policy[0]), tuple(float(v) for v in policy[1]))
        if policy not in rows:
            rows.append(policy)
        seats.append(rows.index(policy))
    width = max(width, *(len(policy.parameters) for policy in rows))
    parameters = np.zeros((len(rows), width), np.float64)
    for row, policy in enumerate(rows):
        parameters[row, : len(policy.parameters)] = policy.parameters
    kinds = np.array([policy.kind for policy in rows], np.int64)
    return PolicyTable(kinds, parameters, np.array(seats, np.int64))


__all__ = ["CompiledPolicy", "PolicyTable", "plays_compiled", "policy_table"]
