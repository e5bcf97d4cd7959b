"""The example game's record: what the registry returns once it is registered."""

from workbench.kit.game import Game

from .agents import RandomAgent, ShadingAgent, TruthfulAgent
from .engine import new_game
from .fitted import ExampleFittedAgent
from .metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from .rules import Rules
from .search import ExampleSearchAgent
from .simulate import SELF_PLAY

GAME = Game(
    id="example",
    summary="Example: a first-price sealed-bid auction of five items among three seats.",
    Rules=Rules,
    new_game=new_game,
    agents={
        "random": RandomAgent, "truthful": TruthfulAgent, "shading": ShadingAgent,
        "fitted": ExampleFittedAgent, "search": ExampleSearchAgent,
    },
    default_agent="shading",
    reference_agent="fitted",
    selfplay=SELF_PLAY,
    metrics=GAME_METRICS,
    game_metrics=game_metrics,
    common_randomness=COMMON_RANDOMNESS,
)
AGENTS = GAME.agents
make_agent, simulate, simulate_batches, play_game = (
    GAME.make_agent, GAME.simulate, GAME.simulate_batches, GAME.play_game,
)  # fmt: skip
