"""Rubbish Auction (RULES.md section 1): 2–5 players bid money cards for 7 items.

Public API: ``Rules``, ``new_game`` -> ``State``, the actions ``Auction`` and ``Bid``, the
agents, and ``simulate``.
"""

from workbench.games.rubbish.agents import (
    AGENTS,
    HeuristicAgent,
    RandomAgent,
    SamplingAgent,
    make_agent,
)
from workbench.games.rubbish.cards import Bid
from workbench.games.rubbish.engine import (
    Auction,
    Deal,
    LogEntry,
    Observation,
    Peek,
    Result,
    RoundRecord,
    State,
    new_game,
)
from workbench.games.rubbish.rules import Geek, Rules, load_geeks, load_items
from workbench.games.rubbish.simulate import play_game, simulate, simulate_batches

__all__ = [
    "AGENTS",
    "Auction",
    "Bid",
    "Deal",
    "Geek",
    "HeuristicAgent",
    "LogEntry",
    "Observation",
    "Peek",
    "RandomAgent",
    "Result",
    "RoundRecord",
    "Rules",
    "SamplingAgent",
    "State",
    "load_geeks",
    "load_items",
    "make_agent",
    "new_game",
    "play_game",
    "simulate",
    "simulate_batches",
]
