"""Going, Going, GONE! (docs/rules.md): 2–6 players bid Bucks in five cups at once for lots of
collectible items, and score Bucks plus the best arrangement of what they hold into collections.
Public API: rules, engine, actions, agents (``fit``), ``simulate``, exact collection values,
``play_from``, the metrics, charts and explorers.
"""

from workbench.games.going_gone.actions import (
    Allocation,
    Allocations,
    DoneSelling,
    Sell,
    allocation_count,
)
from workbench.games.going_gone.agents import CollectorAgent, RandomAgent, ValuationAgent
from workbench.games.going_gone.analysis import (
    auctioneer_turn_win_rates,
    prices,
    seat_win_rates,
    simulate_lineups,
    tie_summary,
)
from workbench.games.going_gone.collection_values import (
    Arrangement,
    Collection,
    arrival_path,
    best_collections,
    holding_value,
    lot_value,
    lot_values,
    parse_items,
    random_holding_values,
    sale_options,
    sale_value,
    value_table,
)
from workbench.games.going_gone.engine import (
    Deal,
    Observation,
    Result,
    RoundRecord,
    State,
    new_game,
)
from workbench.games.going_gone.fitted import fit
from workbench.games.going_gone.game import (
    AGENTS,
    GAME,
    make_agent,
    play_game,
    simulate,
    simulate_batches,
)
from workbench.games.going_gone.metrics import GAME_METRICS, game_metrics
from workbench.games.going_gone.positions import play_from
from workbench.games.going_gone.rules import Item, Rules, load_items
from workbench.games.going_gone.simulate import replay_recorded_game
from workbench.lazy import lazy_exports

# Charts and explorers import altair and ipywidgets: loaded on first use.
__getattr__ = lazy_exports(
    globals(),
    {
        "workbench.games.going_gone.charts": (
            "arrangement_chart",
            "arrival_chart",
            "holding_values_chart",
            "price_chart",
            "value_chart",
            "win_rate_chart",
        ),
        "workbench.games.going_gone.widgets": ("collection_explorer",),
    },
)

__all__ = [
    "AGENTS", "GAME", "GAME_METRICS", "Allocation", "Allocations", "Arrangement", "Collection",
    "CollectorAgent", "Deal", "DoneSelling", "Item", "Observation", "RandomAgent", "Result",
    "RoundRecord", "Rules", "Sell", "State", "ValuationAgent", "allocation_count",
    "arrangement_chart", "arrival_chart", "arrival_path", "auctioneer_turn_win_rates",
    "best_collections", "collection_explorer", "fit", "game_metrics", "holding_value",
    "holding_values_chart", "load_items", "lot_value", "lot_values", "make_agent", "new_game",
    "parse_items", "play_from", "play_game", "price_chart", "prices", "random_holding_values",
    "replay_recorded_game", "sale_options", "sale_value", "seat_win_rates", "simulate",
    "simulate_batches", "simulate_lineups", "tie_summary", "value_chart", "value_table",
    "win_rate_chart"
]  # fmt: skip
