"""The example game's record: what the registry returns once it is registered. Agents weakest
first; a search agent takes the reference agent (fitted) as its model."""

from workbench.kit.game import Game

from .agents import RandomAgent, ShadingAgent, TruthfulAgent
from .engine import new_game
from .fitted import ExampleFittedAgent
from .metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from .rules import Rules
from .search import ExampleSearchAgent
from .simulate import SELF_PLAY

AGENTS = {"random": RandomAgent, "truthful": TruthfulAgent, "shading": ShadingAgent,
          "fitted": ExampleFittedAgent, "search": ExampleSearchAgent}  # fmt: skip
GAME = Game(
    id="example", summary="Example: a first-price sealed-bid auction of items among 2-5 seats.",
    Rules=Rules, new_game=new_game, selfplay=SELF_PLAY, agents=AGENTS, default_agent="shading",
    reference_agent="fitted", metrics=GAME_METRICS, game_metrics=game_metrics,
    common_randomness=COMMON_RANDOMNESS)  # fmt: skip
make_agent, simulate, play_game = GAME.make_agent, GAME.simulate, GAME.play_game
