"""Going, Going, GONE! (docs/rules.md): 2–6 players bid Bucks in five cups at once for lots of
collectible items, and score Bucks plus the best arrangement of what they hold into collections.

Public API: ``Rules``, ``new_game`` -> ``State``, the actions ``Allocation``, ``Sell`` and
``DoneSelling``, the agents, ``simulate``; exact collection values (``best_collections``,
``lot_value``, ``sale_value``, ...), the game's metrics, charts and explorers.
"""

from workbench.games.going_gone.actions import (
    Allocation,
    Allocations,
    DoneSelling,
    Sell,
    allocation_count,
)
from workbench.games.going_gone.agents import (
    AGENTS,
    CollectorAgent,
    RandomAgent,
    ValuationAgent,
    make_agent,
)
from workbench.games.going_gone.engine import (
    Deal,
    Observation,
    Result,
    RoundRecord,
    State,
    new_game,
)
from workbench.games.going_gone.metrics import GAME_METRICS, game_metrics
from workbench.games.going_gone.rules import Item, Rules, load_items
from workbench.games.going_gone.simulate import (
    play_game,
    replay_recorded_game,
    simulate,
    simulate_batches,
)

__all__ = [
    "AGENTS",
    "GAME_METRICS",
    "Allocation",
    "Allocations",
    "CollectorAgent",
    "Deal",
    "DoneSelling",
    "Item",
    "Observation",
    "RandomAgent",
    "Result",
    "RoundRecord",
    "Rules",
    "Sell",
    "State",
    "ValuationAgent",
    "allocation_count",
    "game_metrics",
    "load_items",
    "make_agent",
    "new_game",
    "play_game",
    "replay_recorded_game",
    "simulate",
    "simulate_batches",
]
