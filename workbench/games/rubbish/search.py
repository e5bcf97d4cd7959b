"""Rubbish Auction's ``search`` agent: the kit's determinized search (``workbench.kit.search``:
sequential halving over candidate actions, common random numbers) with this game's uniform
sampler of hidden cards (``sampling.py``) and compiled playouts by the ``fitted`` policy fitted
to the rules being played, at every seat.

Candidates: an auctioneer weighs every remaining item with itself or the seat on its left as
First Bidder (the two choices the heuristic makes) and the fitted policy's own choice; a bidder
weighs the fitted policy's bid and the other totals nearest to it (one bid per total, the one
with the lowest top card, as the heuristic prefers), plus holding out the fewest and the most.

``evaluate`` is the kit's, run on arrays: each round's fillings are drawn straight into compiled
positions (``sampling.PositionSampler``: the same draws as ``sample_states``),
every surviving candidate is written into a copy, and one compiled call plays them all with the
same uniforms per filling (what the kit's per-candidate ``play_from`` calls with one seed give;
a test checks the values are the kit's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.games.rubbish import compiled
from workbench.games.rubbish.cards import Bid, bid_table
from workbench.games.rubbish.engine import Observation
from workbench.games.rubbish.fast import (
    NO_RECORDING,
    decisions_left,
    play_from,
    policies,
    tables_for,
)
from workbench.games.rubbish.fitted import RubbishFittedAgent
from workbench.games.rubbish.sampling import PositionSampler, sample_states
from workbench.kit.search import SearchAgent, Searching
from workbench.kit.seeding import generator

#: Bids weighed besides the fitted policy's: this many other totals nearest to its total.
NEAREST_TOTALS = 4

_FITTED = RubbishFittedAgent(seed=0)


def rollout_agents(rules: Any) -> list[Any]:
    """The playouts' agents: the fitted policy for ``rules`` (the shipped fit, or fitted and
    cached on first use) at every seat."""
    return [_FITTED.policy_for(rules)] * rules.players


def candidates(observation: Observation, legal_actions: Sequence[Any]) -> list[Any]:
    """The actions worth searching (module docstring), the fitted policy's choice first; in
    the order of ``legal_actions`` after it."""
    fitted = _FITTED.policy_for(observation.rules).choose(observation, 0.0)
    if observation.phase == "auction":
        me = observation.player
        left = (me + 1) % observation.rules.players
        kept = [a for a in legal_actions if a.first_bidder in (me, left)]
    else:
        kept = _bid_candidates(legal_actions, fitted.total)
    return [fitted, *(action for action in kept if action != fitted)]


def _bid_candidates(legal_actions: Sequence[Bid], around: int) -> list[Bid]:
    """One bid per total (the lowest top card, then fewest cards), for the totals nearest to
    ``around`` and the lowest and highest totals."""
    best: dict[int, Bid] = {}
    for bid in legal_actions:
        held = best.get(bid.total)
        if held is None or ((bid.highest or 0), bid.count) < ((held.highest or 0), held.count):
            best[bid.total] = bid
    totals = sorted(best)
    near = sorted(totals, key=lambda total: (abs(total - around), total))[: NEAREST_TOTALS + 1]
    chosen = {*near, totals[0], totals[-1]}
    return [bid for bid in legal_actions if bid.total in chosen and best[bid.total] == bid]


SEARCHING = Searching(
    sample_states=sample_states,
    play_from=play_from,
    rollout_agents=rollout_agents,
    candidates=candidates,
    # The playouts are a few percent of a decision's time, the rest is per round: 256 playouts
    # give the first halving round several fillings per candidate (32 gave most of them one,
    # and search lost to the fitted policy it rolls out: mean win share 0.19 against 3 fitted,
    # seats rotated, 1,000 games; 256: 0.29; 512: 0.31 at 10% fewer games/s).
    budget=256,
)


class RubbishSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision (module docstring)."""

    def __init__(self, budget: int = SEARCHING.budget) -> None:
        super().__init__(SEARCHING, budget)

    def evaluate(
        self, observation: Observation, actions: Sequence[Any], rng: np.random.Generator
    ) -> tuple[int, np.ndarray]:
        """The kit's sequential halving (``SearchAgent.evaluate``: the same draws from ``rng``,
        the same fillings and playouts), with every candidate of a round played in one compiled
        call and the win shares of the game's own rule (ties on fame broken by items won)."""
        rules, seat = observation.rules, observation.player
        kinds, parameters = policies(self.rollout_agents(rules))
        tables = tables_for(rules)
        sampler = PositionSampler(observation)
        # Every filling stands where the observation does: one more decision than after the
        # action (uniforms[d, f] does not depend on the number of rows drawn).
        decisions = decisions_left(rules, sampler.template)
        rounds = max(1, math.ceil(math.log2(len(actions))))
        total, count = np.zeros(len(actions)), np.zeros(len(actions))
        alive = list(range(len(actions)))
        for round_index in range(rounds):
            fillings = max(1, self.budget // (len(alive) * (rounds - round_index)))
            # what sample_states draws, as positions, once per surviving candidate
            positions = sampler.sample(rng, fillings, len(alive))
            seed = int(rng.integers(2**63))
            _write_actions(rules, observation, positions, [actions[i] for i in alive], fillings)
            drawn = generator(seed).random((decisions, 1, fillings))
            uniforms = np.broadcast_to(drawn, (decisions, len(alive), fillings)).reshape(
                decisions, -1
            )  # the same uniforms for every candidate: np.tile(drawn, (1, len(alive)))
            compiled.call_direct(
                compiled.play, kinds, parameters, tables, positions, uniforms, NO_RECORDING, False
            )
            standings = compiled.standings(tables, positions)
            shares = standings[2][:, seat].reshape(len(alive), -1)
            total[alive] += shares.sum(axis=1)
            count[alive] += fillings
            mean = total[alive] / count[alive]
            keep = max(1, math.ceil(len(alive) / 2))
            alive = [alive[i] for i in np.argsort(-mean, kind="stable")[:keep]]
            if len(alive) == 1:
                break
        return alive[0], total / np.maximum(count, 1)


def _write_actions(
    rules: Any, observation: Observation, positions: Any, actions: Sequence[Any], fillings: int
) -> None:
    """Make each block of ``fillings`` rows take its action (row = action * fillings + f), as
    ``State.apply`` would before the compiled engine plays on."""
    if observation.phase == "auction":
        positions.item[:] = np.repeat([a.item for a in actions], fillings)
        positions.first[:] = np.repeat([a.first_bidder for a in actions], fillings)
        positions.position[:] = 0
        return
    table = bid_table(rules.money_cards)
    me = observation.player
    option = table.lock_option(observation.locked[me])
    positions.bid_index[:, me] = np.repeat([table.index[option][a] for a in actions], fillings)
    positions.held[:, me] = np.repeat([len(a.cards) for a in actions], fillings)
    positions.position[:] += 1


__all__ = ["SEARCHING", "RubbishSearchAgent", "candidates", "rollout_agents"]
