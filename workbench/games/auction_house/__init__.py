"""Auction House (docs/rules.md): a four-player trick-taking game with a card-trade auction and
a kitty won by the seat with most tricks; its record is ``GAME`` (``game.py``).

Public API: ``Rules``, ``new_game`` -> ``State`` and the actions; card notation; the agents
(``fit`` gives the fitted agent's parameters for a rule set); ``simulate`` /
``simulate_batches``; ``play_from``; ``GAME_METRICS`` / ``game_metrics``; the kitty analyses
(``kitty_outcomes`` and its summaries, ``auction_value``, ``trump_reveal_comparison``,
``trump_odds``) with their charts and explorer.
"""

from workbench.games.auction_house.agents import (
    DeterminizationAgent,
    FittedPolicy,
    HeuristicAgent,
    RandomAgent,
)
from workbench.games.auction_house.cards import (
    DECK,
    SUITS,
    TRUMP_DECK,
    parse_cards,
    points_of,
    rank_of,
    suit_of,
    trick_winner,
)
from workbench.games.auction_house.engine import (
    AuctionRecord,
    Deal,
    DealRecord,
    Kitty,
    LogEntry,
    Observation,
    Offer,
    Pass,
    Play,
    Result,
    Start,
    State,
    Take,
    Trick,
    draw_deal,
    new_game,
)
from workbench.games.auction_house.fitted import AuctionHouseFittedAgent, fit
from workbench.games.auction_house.game import (
    AGENTS,
    GAME,
    make_agent,
    play_game,
    simulate,
    simulate_batches,
)
from workbench.games.auction_house.kitty import (
    auction_value,
    carry_chains,
    carry_over_rate,
    kitty_outcomes,
    kitty_summary,
    kitty_value_distribution,
    seat_deals,
    trump_odds,
    trump_odds_brute_force,
    trump_odds_table,
    trump_odds_through,
    trump_reveal_comparison,
    win_by_tricks,
)
from workbench.games.auction_house.metrics import GAME_METRICS, game_metrics
from workbench.games.auction_house.positions import play_from
from workbench.games.auction_house.rules import TRUMP_REVEALS, Rules
from workbench.games.auction_house.search import AuctionHouseSearchAgent
from workbench.lazy import lazy_exports

# Charts and explorers import altair and ipywidgets: loaded on first use.
__getattr__ = lazy_exports(
    globals(),
    {
        "workbench.games.auction_house.charts": (
            "auction_value_chart", "carry_chain_chart", "kitty_value_chart", "trump_odds_chart",
            "trump_reveal_chart", "win_by_tricks_chart",
        ),
        "workbench.games.auction_house.widgets": ("kitty_explorer",),
    },
)

__all__ = [
    "AGENTS", "DECK", "GAME", "GAME_METRICS", "SUITS", "TRUMP_DECK", "TRUMP_REVEALS",
    "AuctionHouseFittedAgent", "AuctionHouseSearchAgent", "AuctionRecord", "Deal", "DealRecord",
    "DeterminizationAgent", "FittedPolicy", "HeuristicAgent", "Kitty", "LogEntry", "Observation",
    "Offer", "Pass", "Play", "RandomAgent", "Result", "Rules", "Start", "State", "Take", "Trick",
    "auction_value", "auction_value_chart", "carry_chain_chart", "carry_chains",
    "carry_over_rate", "draw_deal", "fit", "game_metrics", "kitty_explorer", "kitty_outcomes",
    "kitty_summary", "kitty_value_chart", "kitty_value_distribution", "make_agent", "new_game",
    "parse_cards", "play_from", "play_game", "points_of", "rank_of", "seat_deals", "simulate",
    "simulate_batches", "suit_of", "trick_winner", "trump_odds", "trump_odds_brute_force",
    "trump_odds_chart", "trump_odds_table", "trump_odds_through", "trump_reveal_chart",
    "trump_reveal_comparison", "win_by_tricks", "win_by_tricks_chart",
]  # fmt: skip
