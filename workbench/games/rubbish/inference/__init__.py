"""Hidden-bid inference for Rubbish Auction: exact Bayes over money-card subsets and geek deals.

Before the reveal a player sees of each bid only how many cards it holds out, which card its
bidder has locked (public), and — for the next bidder — one blind peek. ``possible_bids`` lists
what such a bid can be; ``bid_posterior`` weighs it with a prior and a peek; ``max_bid`` and
``max_bid_table`` give the most anyone can bid; ``infer`` works from a real engine observation,
for an opponent's bid total and for every opponent's geek; ``game_inference`` runs ``infer``
round by round through a finished game.

The package is split by question: ``enumeration`` (what a bid can be, max bids), ``peeks``
(what a blind peek shows), ``priors`` (models of play), ``posterior`` (one bid's posterior),
``situation`` (a scripted decision to study), ``evidence``, ``deals`` and ``observation``
(``infer``), ``game`` (``game_inference``); ``arguments`` holds the shared checks.

Choices made here (the rulebook is silent):

- ``available`` is a sequence of card values such as ``(5, 2, 2, 1)``: part of the rules' money
  cards (the rulebook's 10, 5, 2, 2, 1 unless ``rules`` is given). Cards of equal value are
  distinct physical cards, so ``ways`` counts physical card subsets (1+2+5 arises two ways).
- The default prior is uniform over physical card subsets of the public size: every set of
  held-out cards equally likely. It is exact: the ``exact`` column holds the probability as a
  fraction ("2/3"), ``probability`` the same as a float.
- A peek is evidence weighed by its true likelihood, never a filter: with 2+ cards held out the
  peeker sees each of them with equal chance, otherwise each of the bidder's unused available
  cards (docs/rules.md, the peek). Seeing a 2 among three held-out cards is twice as likely from
  1+2+2 as from one particular 1+2+5.
- A policy prior (any agent) models the bidder's choice in its situation. Agents that give
  ``action_probabilities`` are used exactly (floating-point arithmetic); others are estimated by
  seeded sampling, and the output says so with the sample size and a bootstrap interval.
  ``epsilon`` mixes in that share of uniform play (uniform over legal actions); with
  ``epsilon=0`` evidence a policy cannot produce raises ValueError rather than dividing by zero.
- Combinations are written low to high as the rulebook does ("1+2+5").
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
