"""Auction House's ``fitted`` agent: the heuristic's policy extended with named constants and
a card scorer (``policies``), fitted to the rules being played: the constants by the kit's
CMA-ES, then the card weights by imitating a search that models that policy (``imitation``).
The rulebook's fit ships in ``data/fits/auction_house/``; other rules fit on first use.
"""

from __future__ import annotations

import math

from workbench.games.auction_house.agents import FittedPolicy, HeuristicAgent
from workbench.games.auction_house.imitation import imitate
from workbench.games.auction_house.policies import CARD_WEIGHTS
from workbench.games.auction_house.simulate import SELF_PLAY
from workbench.kit.fitting import FittedAgent, Fitting, Parameter, fit_function

FITTING = Fitting(
    version="auction_house-imitation-2",
    # name: (hand-written start, low, high), in the policy's order
    parameters=tuple(Parameter(name, *map(float, values)) for name, values in {
        "give_rank": (3, 1, 10), "long_suit": (4, 0, 10), "trade_rank": (7, 1, 11),
        "shed_length": (3, 0, 10), "shed_trump": (20, 0, 40), "kitty_rank": (0, -3, 3),
        "draw_trumps": (0, 0, 10), "lead_long": (1, -1, 1), "cover_from": (3, 1, 4),
        "ruff_from": (1, 1, 4), "block_weight": (0, 0, 1), "kitty_strength": (0, -2, 2),
        "lead_trumps": (10, 1, 10), "kitty_standing": (0, -3, 3), "block_standing": (0, -1, 1),
    }.items()),
    policy=lambda rules, vector: FittedPolicy(vector),
    opponents=(HeuristicAgent,),
    games=200,
    generations=30,
    population=10,
    refine=imitate,
    refined=tuple(Parameter(name, 0.0, -math.inf, math.inf) for name in CARD_WEIGHTS),
)


class AuctionHouseFittedAgent(FittedAgent):
    """The extended heuristic policy with parameters fitted to the rules being played (module
    docstring); ``seed`` picks the fit."""

    selfplay, fitting = SELF_PLAY, FITTING


fit = fit_function(AuctionHouseFittedAgent)


__all__ = ["FITTING", "AuctionHouseFittedAgent", "fit"]
