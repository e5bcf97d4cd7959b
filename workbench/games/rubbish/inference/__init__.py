"""Hidden-bid inference for Rubbish Auction: exact Bayes over money-card subsets and geek deals.

Before the reveal a player sees of each bid only how many cards it holds out, its bidder's
locked card and, for the next bidder, one blind peek. ``possible_bids`` lists what such a bid
can be; ``bid_posterior`` weighs it with a prior and a peek; ``max_bid``/``max_bid_table`` give
the most anyone can bid; ``infer`` works from a real observation (an opponent's bid total and
every opponent's geek); ``game_inference`` runs ``infer`` round by round through a game. The
modules answer one question each; ``arguments`` holds the shared checks.

Choices made here (the rulebook is silent): cards of equal value are distinct physical cards,
so ``ways`` counts physical subsets (1+2+5 arises two ways from 5, 2, 2, 1); the default prior
is uniform over those subsets and exact (``exact`` holds the fraction); a peek is evidence
weighed by its likelihood, never a filter; an agent prior is exact when it gives
``action_probabilities`` (floating point), else estimated by seeded sampling with its sample
size and a bootstrap interval, and ``epsilon`` mixes in uniform play (with 0, evidence a policy
cannot produce is a ValueError); combinations are written low to high ("1+2+5").
"""

from workbench.games.rubbish.inference.arguments import Number as Number
from workbench.games.rubbish.inference.enumeration import (
    max_bid,
    max_bid_table,
    peek_distribution,
    possible_bids,
)
from workbench.games.rubbish.inference.game import (
    GameInference,
    game_inference,
    observations_before_last_bid,
)
from workbench.games.rubbish.inference.observation import Inference, infer
from workbench.games.rubbish.inference.peeks import SOURCES as SOURCES
from workbench.games.rubbish.inference.peeks import PeekLike as PeekLike
from workbench.games.rubbish.inference.peeks import likelihood, peek_source
from workbench.games.rubbish.inference.posterior import bid_posterior
from workbench.games.rubbish.inference.priors import CONFIDENCE as CONFIDENCE
from workbench.games.rubbish.inference.priors import UNIFORM as UNIFORM
from workbench.games.rubbish.inference.situation import bidding_situation

__all__ = [
    "GameInference", "Inference", "bid_posterior", "bidding_situation", "game_inference", "infer",
    "likelihood", "max_bid", "max_bid_table", "observations_before_last_bid", "peek_distribution",
    "peek_source", "possible_bids"
]  # fmt: skip
