"""Example: a first-price sealed-bid auction of five items among three seats, written to show
the game contract (docs/adding-a-game.md) end to end.

Public API: ``Rules`` -> ``new_game`` -> ``State``; ``simulate`` / ``simulate_batches`` /
``play_game`` for self-play; ``AGENTS`` and ``make_agent``; ``GAME_METRICS``,
``game_metrics`` and ``COMMON_RANDOMNESS`` for the designer's bench.
"""

from .agents import RandomAgent, ShadingAgent, TruthfulAgent
from .engine import Observation, Result, RoundRecord, State, new_game
from .game import AGENTS, GAME, make_agent, play_game, simulate, simulate_batches
from .metrics import COMMON_RANDOMNESS, GAME_METRICS, game_metrics
from .rules import TIE_BREAKS, Rules, award
from .simulate import SELF_PLAY

__all__ = [
    "AGENTS", "COMMON_RANDOMNESS", "GAME", "GAME_METRICS", "SELF_PLAY", "TIE_BREAKS", "Observation",
    "RandomAgent", "Result", "RoundRecord", "Rules", "ShadingAgent", "State", "TruthfulAgent",
    "award", "game_metrics", "make_agent", "new_game", "play_game", "simulate",
    "simulate_batches",
]  # fmt: skip
