"""Example: a first-price sealed-bid auction of items among 2-5 seats, written to show the game
contract (docs/adding-a-game.md) end to end; ``GAME`` is its record."""

from .agents import RandomAgent, ShadingAgent, TruthfulAgent  # noqa: F401
from .engine import Observation, RoundRecord, State, new_game  # noqa: F401
from .game import AGENTS, GAME, make_agent, play_game, simulate  # noqa: F401
from .metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics  # noqa: F401
from .rules import TIE_BREAKS, Rules, award  # noqa: F401
from .simulate import SELF_PLAY  # noqa: F401
