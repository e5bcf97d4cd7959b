"""Example: a first-price sealed-bid auction of five items among three seats, written to show
the game contract (docs/adding-a-game.md) end to end.

Public API: ``Rules`` -> ``new_game`` -> ``State``; ``simulate`` / ``simulate_batches`` /
``play_game`` for self-play; ``AGENTS`` and ``make_agent``; ``GAME_METRICS``,
``game_metrics`` and ``COMMON_RANDOMNESS`` for the designer's bench.
"""

from .agents import AGENTS, RandomAgent, ShadingAgent, TruthfulAgent, make_agent
from .engine import Observation, Result, RoundRecord, State, new_game
from .metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from .rules import TIE_BREAKS, Rules, award
from .simulate import SELF_PLAY, play_game, simulate, simulate_batches

__all__ = [
    "AGENTS", "COMMON_RANDOMNESS", "GAME_METRICS", "SELF_PLAY", "TIE_BREAKS", "Observation",
    "RandomAgent", "Result", "RoundRecord", "Rules", "ShadingAgent", "State", "TruthfulAgent",
    "award", "game_metrics", "make_agent", "new_game", "play_game", "simulate",
    "simulate_batches",
]  # fmt: skip
