"""Rubbish Auction's ``search`` agent: the kit's determinized search (``workbench.kit.search``:
sequential halving over candidate actions, common random numbers) with this game's uniform
sampler of hidden cards (``sampling.py``) and compiled playouts by the ``fitted`` policy fitted
to the rules being played, at every seat.

Candidates: an auctioneer weighs every remaining item with itself or the seat on its left as
First Bidder (the two choices the heuristic makes) and the fitted policy's own choice; a bidder
weighs the fitted policy's bid and the other totals nearest to it (one bid per total, the one
with the lowest top card, as the heuristic prefers), plus holding out the fewest and the most.

``evaluate`` is the kit's, run on arrays, one compiled call per round
(``compiled.play_round``): the round's fillings (drawn as ``sample_states`` draws them,
``sampling.PositionSampler``) are written into compiled positions, once per surviving
candidate with its action, and played out with the same uniforms per filling (what the kit's
per-candidate ``play_from`` calls with one seed give; a test checks the values are the kit's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from workbench.games.rubbish import compiled
from workbench.games.rubbish.cards import Bid, bid_table
from workbench.games.rubbish.engine import Observation
from workbench.games.rubbish.fast import (
    NO_RECORDING,
    empty_positions,
    play_from,
    policies,
    tables_for,
)
from workbench.games.rubbish.fitted import RubbishFittedAgent
from workbench.games.rubbish.sampling import PositionSampler, sample_states
from workbench.kit.search import SearchAgent, Searching, sequential_halving

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
        self._buffers: dict[Any, _Buffers] = {}

    def evaluate(
        self, observation: Observation, actions: Sequence[Any], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's sequential halving (``SearchAgent.evaluate``: the same draws from ``rng``,
        the same fillings and playouts), each round one compiled call
        (``compiled.play_round``) playing every candidate, with the win shares of the
        game's own rule (ties on fame broken by items won)."""
        rules, seat = observation.rules, observation.player
        buffers = self._buffers_for(rules, max(self.budget, len(actions)))
        sampler = PositionSampler(observation)
        # Every filling stands where the observation does: one more decision than after the
        # action (uniforms[d, f] does not depend on the number of rows drawn).
        decisions = sampler.decisions
        auction, action_a, action_b = _action_arrays(rules, observation, actions)
        fixed = (buffers.kinds, buffers.parameters, buffers.tables, sampler.template,
                 buffers.positions, NO_RECORDING)  # fmt: skip
        sampler_tables = sampler.tables()

        def play_round(alive: list[int], fillings: int) -> tuple[list[float], None]:
            # what sample_states draws, then the playouts' seed and uniforms
            u = sampler.draw(rng, fillings)
            seed = int(rng.integers(2**63))
            # generator(seed)'s stream (PCG64 seeded by SeedSequence(seed)), without its checks;
            # the same uniforms for every candidate
            drawn = np.random.Generator(np.random.PCG64(seed)).random((decisions, fillings))
            compiled.call_direct(
                compiled.play_round, *fixed, u, fillings, *sampler_tables,
                seat, auction, action_a, action_b, np.array(alive, np.int64), drawn,
                buffers.uniforms, *buffers.standings,
            )  # fmt: skip
            shares = buffers.standings[2][: fillings * len(alive), seat].reshape(len(alive), -1)
            return shares.sum(axis=1).tolist(), None

        return sequential_halving(len(actions), self.budget, play_round, prior=prior)

    def _buffers_for(self, rules: Any, rows: int) -> _Buffers:
        """This agent's arrays for ``rules`` with room for ``rows`` playouts (made once, and
        again only for more rows)."""
        buffers = self._buffers.get(rules)
        if buffers is None or buffers.positions.fame.shape[0] < rows:
            kinds, parameters = policies(self.rollout_agents(rules))
            n = rules.players
            buffers = self._buffers[rules] = _Buffers(
                kinds, parameters, tables_for(rules), empty_positions(rules, rows),
                np.zeros((rules.rounds * (n + 1), rows)),
                (np.zeros((rows, n), np.int32), np.zeros((rows, n), np.int8),
                 np.zeros((rows, n), np.float64)),
            )  # fmt: skip
        return buffers


class _Buffers(NamedTuple):
    """What every decision under one rule set reuses: the playout policies, the rule tables,
    the positions played, their uniforms and standings (scores, ranks, win shares)."""

    kinds: np.ndarray
    parameters: np.ndarray
    tables: Any
    positions: Any
    uniforms: np.ndarray
    standings: tuple[np.ndarray, np.ndarray, np.ndarray]


def _action_arrays(
    rules: Any, observation: Observation, actions: Sequence[Any]
) -> tuple[bool, np.ndarray, np.ndarray]:
    """(auction?, a, b) per action, as ``compiled.play_round`` writes them: the item
    and First Bidder of an auction, or the bid table index and cards held out of a bid (what
    ``State.apply`` does before the compiled engine plays on)."""
    if observation.phase == "auction":
        a = [action.item for action in actions]
        b = [action.first_bidder for action in actions]
        return True, np.array(a, np.int64), np.array(b, np.int64)
    table = bid_table(rules.money_cards)
    index = table.index[table.lock_option(observation.locked[observation.player])]
    a = [index[action] for action in actions]
    b = [len(action.cards) for action in actions]
    return False, np.array(a, np.int64), np.array(b, np.int64)


__all__ = ["SEARCHING", "RubbishSearchAgent", "candidates", "rollout_agents"]
