"""Hidden-bid inference for Rubbish Auction: exact Bayes over money-card subsets and geek deals.

``possible_bids``, ``bid_posterior`` (with a prior and a blind peek), ``max_bid``/``max_bid_table``,
``infer`` (from a real observation) and ``game_inference`` (through a game). Choices made here
(the rulebook is silent): equal cards are distinct physical cards (``ways`` counts subsets); the
default prior is uniform over them and exact; a peek is weighed by its likelihood, never a
filter; an agent prior without ``action_probabilities`` is estimated by seeded sampling, with
its sample size and interval; combinations are written low to high ("1+2+5").
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
