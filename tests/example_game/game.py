"""The example game's record (agents weakest first; search is given the fitted one as model)."""

from workbench.kit.game import Game

from .agents import RandomAgent, ShadingAgent, TruthfulAgent
from .engine import new_game
from .fitted import ExampleFittedAgent
from .metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from .rules import Rules
from .search import ExampleSearchAgent
from .simulate import SELF_PLAY

GAME = Game(
    id="example", summary="Example: a first-price sealed-bid auction of items among 2-5 seats.",
    Rules=Rules, new_game=new_game, selfplay=SELF_PLAY, default_agent="shading",
    agents={"random": RandomAgent, "truthful": TruthfulAgent, "shading": ShadingAgent,
            "fitted": ExampleFittedAgent, "search": ExampleSearchAgent},
    reference_agent="fitted", metrics=GAME_METRICS, game_metrics=game_metrics,
    common_randomness=COMMON_RANDOMNESS)  # fmt: skip
AGENTS, make_agent, simulate, simulate_batches, play_game = GAME.entry_points()
