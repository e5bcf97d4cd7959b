"""Rubbish Auction (docs/rules.md): 2–5 players bid money cards for 7 items. Public API: the
rules, engine and agents, ``simulate``, ``play_from``, ``fit``, and the analyses (hidden-bid
inference, cheapskate frequency) with their charts and explorers."""

from workbench.games.rubbish.agents import HeuristicAgent, RandomAgent, SamplingAgent
from workbench.games.rubbish.cards import Bid
from workbench.games.rubbish.cheapskate import (
    CheapskateReport,
    cheapskate_by_player_count,
    cheapskate_facts,
    cheapskate_frequency,
)
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
from workbench.games.rubbish.fitted import RubbishFittedAgent, fit
from workbench.games.rubbish.game import (
    AGENTS,
    GAME,
    make_agent,
    play_game,
    simulate,
    simulate_batches,
)
from workbench.games.rubbish.inference import (
    GameInference,
    Inference,
    bid_posterior,
    bidding_situation,
    game_inference,
    infer,
    max_bid,
    max_bid_table,
    observations_before_last_bid,
    peek_distribution,
    possible_bids,
)
from workbench.games.rubbish.metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from workbench.games.rubbish.positions import play_from
from workbench.games.rubbish.rules import BID_MINIMUMS, Geek, Rules, load_geeks, load_items
from workbench.games.rubbish.search import RubbishSearchAgent
from workbench.lazy import lazy_exports

# Charts, explorers and the table's panel import altair and ipywidgets: loaded on first use.
__getattr__ = lazy_exports(
    globals(),
    {
        "workbench.games.rubbish.charts": (
            "bid_posterior_chart", "cheapskate_chart", "cheapskate_distribution_chart",
            "cheapskate_win_rate_chart", "cheapskate_winning_chart", "game_inference_chart",
            "geek_posterior_chart",
        ),
        "workbench.games.rubbish.panel": ("make_panel",),
        "workbench.games.rubbish.widgets": ("bid_inference_explorer", "cheapskate_explorer"),
    },
)  # fmt: skip

__all__ = [
    "AGENTS", "BID_MINIMUMS", "COMMON_RANDOMNESS", "GAME", "GAME_METRICS", "Auction", "Bid",
    "CheapskateReport", "Deal", "GameInference", "Geek", "HeuristicAgent", "Inference", "LogEntry",
    "Observation", "Peek", "RandomAgent", "Result", "RoundRecord", "RubbishFittedAgent",
    "RubbishSearchAgent", "Rules", "SamplingAgent", "State", "bid_inference_explorer",
    "bid_posterior", "bid_posterior_chart", "bidding_situation", "cheapskate_by_player_count",
    "cheapskate_chart", "cheapskate_distribution_chart", "cheapskate_explorer", "cheapskate_facts",
    "cheapskate_frequency", "cheapskate_win_rate_chart", "cheapskate_winning_chart", "fit",
    "game_inference", "game_inference_chart", "game_metrics", "geek_posterior_chart", "infer",
    "load_geeks", "load_items", "make_agent", "make_panel", "max_bid", "max_bid_table", "new_game",
    "observations_before_last_bid", "peek_distribution", "play_from", "play_game", "possible_bids",
    "simulate", "simulate_batches"
]  # fmt: skip
