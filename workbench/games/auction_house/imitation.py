"""The fitted agent's card play, learnt from the search (the fit's second stage): a policy of
constants has no lookahead in card play, where a lone search finds most of its edge. A search
modelling every seat as the CMA-ES fit labels card plays, and the card scorer's weights are
fitted to its choices as a conditional logit (``workbench.kit.imitation``), round by round in
the positions the policy so far reaches (DAgger), all four seats asking at each card play.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from workbench.checks import whole_number
from workbench.games.auction_house.agents import FittedPolicy
from workbench.games.auction_house.card_features import FEATURES, feature_table
from workbench.games.auction_house.cards import DECK
from workbench.games.auction_house.compiled import legal_of
from workbench.games.auction_house.layout import PHASE, PLAY
from workbench.games.auction_house.policies import CARD_WEIGHTS, CONSTANTS
from workbench.games.auction_house.search import BUDGET, AuctionHouseSearchAgent
from workbench.kit.imitation import dagger
from workbench.kit.progress import progress_bar
from workbench.kit.seeding import seed_sequence

#: The labelling search's playouts per decision.
LABEL_BUDGET = BUDGET
#: Labelling rounds, and deals each round (four labelling seats a deal; whole games of the
#: rules' deals, as many as make at least this many deals).
ROUNDS = 3
DEALS = 650
#: The logit's L2 penalty (on weights of features mostly in [0, 1]).
PENALTY = 1.0
#: The labelling games' sub-stream of the fit's seed.
STREAM = 0x1A


def label_game(selfplay: Any, rules: Any, player: Any, labeller: Any, seed: Any,
               tables: list[np.ndarray], choices: list[int]) -> None:  # fmt: skip
    """Play one game of ``player`` at every seat (deciding from the State's views), and at
    each card play with two or more legal cards append the legal cards' features to ``tables``
    and the index of the card ``labeller`` (the search) would play to ``choices``."""
    deal_seed, rngs = selfplay.streams(seed_sequence(seed), rules.players)
    state = selfplay.new_game(rules, seed=deal_seed)
    while (seat := state.to_play) is not None:
        view = state.view(seat)
        legal = int(legal_of(view, seat))
        if view[PHASE] == PLAY and legal & (legal - 1):
            cards, table = feature_table(view, seat, legal)
            chosen = labeller.choose_with_row(state.observation(seat), state.legal_actions(),
                                              view, rngs[seat])  # fmt: skip
            tables.append(table)
            choices.append(int(np.flatnonzero(cards == DECK.index(chosen.card))[0]))
        state = state.apply(player.act_on_view(seat, view, rngs[seat]))


def imitate(
    selfplay: Any, rules: Any, constants: dict[str, float], *, seed: int, progress: bool = True,
    rounds: int = ROUNDS, deals: int = DEALS, budget: int = LABEL_BUDGET,
) -> tuple[dict[str, float], dict[str, Any]]:  # fmt: skip
    """The card weights (by name, ``policies.CARD_WEIGHTS``) imitating a search that models
    the fitted ``constants``, and how the labelling went. Seeded."""
    base = [constants[name] for name in CONSTANTS]
    games = -(-whole_number("deals", deals, low=1) // rules.deals)
    labeller = AuctionHouseSearchAgent(budget, model=FittedPolicy([*base, *[0.0] * FEATURES]))
    bar = progress_bar(rounds * games, enabled=progress, description="labelling card plays",
                       unit="game")  # fmt: skip

    def label_round(round_: int, weights: np.ndarray | None) -> tuple[list, list]:
        player = FittedPolicy([*base, *(np.zeros(FEATURES) if weights is None else weights)])
        tables, choices = [], []
        for game in range(games):
            label_game(selfplay, rules, player, labeller, seed_sequence(seed, STREAM, round_,
                                                                        game), tables, choices)
            bar.update(1)
        return tables, choices

    started = time.perf_counter()
    try:
        weights, history = dagger(label_round, rounds, penalty=PENALTY)
    finally:
        bar.close()
    details = {"rounds": history, "games_per_round": games, "label_budget": budget,
               "penalty": PENALTY, "seconds": round(time.perf_counter() - started, 3)}  # fmt: skip
    return dict(zip(CARD_WEIGHTS, map(float, weights), strict=True)), details


__all__ = ["DEALS", "LABEL_BUDGET", "ROUNDS", "imitate", "label_game"]
