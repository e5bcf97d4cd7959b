"""Auction House's record: what the registry returns (``workbench.games.get("auction_house")``)."""

from workbench.games.auction_house.agents import DeterminizationAgent, HeuristicAgent, RandomAgent
from workbench.games.auction_house.engine import new_game
from workbench.games.auction_house.fitted import AuctionHouseFittedAgent
from workbench.games.auction_house.metrics import GAME_METRICS, game_metrics
from workbench.games.auction_house.positions import play_from
from workbench.games.auction_house.rules import Rules
from workbench.games.auction_house.search import AuctionHouseSearchAgent
from workbench.games.auction_house.simulate import SELF_PLAY
from workbench.kit.game import Game

GAME = Game(
    id="auction_house",
    summary=(
        "Auction House: a four-player trick-taking game with a card-trade auction and a kitty "
        "won by the seat with most tricks."
    ),
    Rules=Rules, new_game=new_game,
    # Weakest first, as measured at the rulebook's rules (seats rotated, bench/strength.py;
    # docs/reference/agents.md).
    agents={"random": RandomAgent, "heuristic": HeuristicAgent,
            "fitted": AuctionHouseFittedAgent, "search": AuctionHouseSearchAgent,
            "determinization": DeterminizationAgent},
    default_agent="heuristic", reference_agent="fitted",
    selfplay=SELF_PLAY, metrics=GAME_METRICS, game_metrics=game_metrics, play_from=play_from,
    panel="workbench.games.auction_house.panel:make_panel",
    docs="docs/rules.md#auction-house-auction_house",
)  # fmt: skip
AGENTS, make_agent, simulate, simulate_batches, play_game = GAME.entry_points()

__all__ = ["AGENTS", "GAME", "make_agent", "play_game", "simulate", "simulate_batches"]
