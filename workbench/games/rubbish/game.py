"""Rubbish Auction's record: what the registry returns (``workbench.games.get("rubbish")``)."""

from workbench.games.rubbish.agents import HeuristicAgent, RandomAgent, SamplingAgent
from workbench.games.rubbish.engine import new_game
from workbench.games.rubbish.fitted import RubbishFittedAgent
from workbench.games.rubbish.metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from workbench.games.rubbish.positions import play_from
from workbench.games.rubbish.rules import Rules
from workbench.games.rubbish.search import RubbishSearchAgent
from workbench.games.rubbish.simulate import SELF_PLAY
from workbench.kit.game import Game

GAME = Game(
    id="rubbish",
    summary="Rubbish Auction: 2–5 players bid money cards for 7 items.",
    Rules=Rules, new_game=new_game,
    # Weakest first, as measured at the rulebook's rules.
    agents={"random": RandomAgent, "heuristic": HeuristicAgent, "sampling": SamplingAgent,
            "fitted": RubbishFittedAgent, "search": RubbishSearchAgent},
    default_agent="heuristic", reference_agent="fitted",
    selfplay=SELF_PLAY, metrics=GAME_METRICS, game_metrics=game_metrics,
    common_randomness=COMMON_RANDOMNESS, play_from=play_from,
    panel="workbench.games.rubbish.panel:make_panel",
    docs="docs/rules.md#rubbish-auction-rubbish",
)  # fmt: skip
AGENTS, make_agent, simulate, simulate_batches, play_game = GAME.entry_points()

__all__ = ["AGENTS", "GAME", "make_agent", "play_game", "simulate", "simulate_batches"]
