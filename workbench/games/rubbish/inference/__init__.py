"""Hidden-bid inference for Rubbish Auction: exact Bayes over money-card subsets and geek deals.

``possible_bids`` lists what a hidden bid can be (only its card count and its bidder's locked
card are public); ``bid_posterior`` weighs it with a prior and a blind peek; ``max_bid`` and
``max_bid_table`` give the most anyone can bid; ``infer`` works from a real observation (an
opponent's bid total, every opponent's geek); ``game_inference`` runs it through a game.

Choices made here (the rulebook is silent): cards of equal value are distinct physical cards,
so ``ways`` counts physical subsets; the default prior is uniform over them and exact; a peek
is evidence weighed by its likelihood, never a filter; an agent prior is exact when it gives
``action_probabilities``, else estimated by seeded sampling with its sample size and interval;
``epsilon`` mixes in uniform play; combinations are written low to high ("1+2+5").
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
