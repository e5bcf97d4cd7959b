"""Auction House's ``fitted`` agent: the heuristic's policy extended with named constants
(``policies.CONSTANTS``: the heuristic's three, plus how it weighs a card's use, what it puts
in the kitty and how that follows its high cards and the scores, when it draws or leads trumps,
which suit it leads, when it covers, ruffs and stops the seat ahead), and a card scorer
(``policies.CARD_WEIGHTS`` over ``card_features``) that plays its cards, fitted to the rules
being played in two stages:

1. the constants by the kit's CMA-ES (``workbench.kit.fitting``: common random numbers, alone
   against the heuristic and against the current fit, every seat in turn), starting from the
   hand-written values, with the heuristic's card play;
2. the card scorer's weights by imitation (``imitation.imitate``): a search modelling every
   seat as stage 1's policy labels card plays, and a conditional logit is fitted to its
   choices, three rounds of DAgger.

A policy of constants alone had no lookahead in card play, and lookahead exploited it nearly as
much as the hand-written heuristic (``docs/design.md``); the scorer learns part of it.

The policy is compiled (``agents.FittedPolicy``), so the fitted agent plays in the compiled
engine. The rulebook's fit ships in ``data/fits/auction_house/``; other rules fit on first use
(with a progress bar for each stage; a new rule set of 4 to 12 deals in 20 to 36 s on one
core, the card play 12 to 15 s of it) and are cached.
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
    parameters=(
        Parameter("give_rank", 3.0, 1.0, 10.0),
        Parameter("long_suit", 4.0, 0.0, 10.0),
        Parameter("trade_rank", 7.0, 1.0, 11.0),
        Parameter("shed_length", 3.0, 0.0, 10.0),
        Parameter("shed_trump", 20.0, 0.0, 40.0),
        Parameter("kitty_rank", 0.0, -3.0, 3.0),
        Parameter("draw_trumps", 0.0, 0.0, 10.0),
        Parameter("lead_long", 1.0, -1.0, 1.0),
        Parameter("cover_from", 3.0, 1.0, 4.0),
        Parameter("ruff_from", 1.0, 1.0, 4.0),
        Parameter("block_weight", 0.0, 0.0, 1.0),
        Parameter("kitty_strength", 0.0, -2.0, 2.0),
        Parameter("lead_trumps", 10.0, 1.0, 10.0),
        Parameter("kitty_standing", 0.0, -3.0, 3.0),
        Parameter("block_standing", 0.0, -1.0, 1.0),
    ),
    policy=lambda rules, vector: FittedPolicy(vector),
    opponents=(HeuristicAgent,),
    games=200,
    generations=30,
    population=10,
    refine=imitate,
    refined=tuple(Parameter(name, 0.0, -math.inf, math.inf) for name in CARD_WEIGHTS),
)


class AuctionHouseFittedAgent(FittedAgent):
    """The extended heuristic policy with parameters fitted to the rules being played (see
    the module docstring); ``seed`` picks the fit."""

    selfplay, fitting = SELF_PLAY, FITTING


fit = fit_function(AuctionHouseFittedAgent)


__all__ = ["FITTING", "AuctionHouseFittedAgent", "fit"]
