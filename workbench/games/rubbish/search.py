"""Rubbish Auction's ``search`` agent: the kit's determinized search with this game's sampler
and compiled playouts in which every seat plays the agent's ``model`` (by name, the fitted
agent). Candidates: the model's choice; an auctioneer's items with itself or its left-hand
seat as First Bidder; a bidder's totals nearest the model's, and the fewest and most cards.
Anchored: another candidate replaces the model's choice only with ``ANCHOR_MARGIN`` more mean
win share. Each halving round is one compiled call, giving the kit's per-candidate values (a
test checks)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from workbench.games.rubbish.cards import Bid
from workbench.games.rubbish.compiled import call_direct, play, write_standings
from workbench.games.rubbish.engine import Action, Observation
from workbench.games.rubbish.positions import (
    NO_RECORDING,
    action_arrays,
    empty_positions,
    play_from,
    tables_for,
)
from workbench.games.rubbish.sampling import PositionSampler, fill_samples, sample_states
from workbench.kit.policies import PolicyTable, likeliest, plays_compiled, policy_table
from workbench.kit.search import SearchAgent, Searching, sequential_halving
from workbench.kit.selfplay import playing_agent

#: Bids weighed besides the model's: this many other totals nearest to its total.
NEAREST_TOTALS = 4
#: Playouts per decision: several fillings per candidate in the first halving round.
BUDGET = 256
#: The win share another candidate must gain over the model's choice to replace it: with
#: less, the playouts (which fill hidden cards uniformly, not as the bids so far suggest) lead
#: it to deviations that lose (alone against three fitted players: 0.19 of the wins at 0.05,
#: 0.26 at 0.3).
ANCHOR_MARGIN = 0.3


def rollout_agents(rules: Any, model: Any) -> list[Any]:
    """The playouts' agents: ``model`` as it plays ``rules``, at every seat."""
    return [playing_agent(model, rules)] * rules.players


def candidates(
    observation: Observation, legal_actions: Sequence[Action], model: Any
) -> list[Action]:
    """The actions worth searching (module docstring), the model's choice first."""
    chosen = likeliest(playing_agent(model, observation.rules)).choose(observation, 0.0)
    if observation.phase == "auction":
        me = observation.player
        left = (me + 1) % observation.rules.players
        kept = [a for a in legal_actions if a.first_bidder in (me, left)]  # type: ignore[union-attr]
    else:
        kept = _bid_candidates(legal_actions, chosen.total)  # type: ignore[arg-type]
    return [chosen, *(action for action in kept if action != chosen)]


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


def searching(model: Any) -> Searching:
    """The kit's ``Searching`` with ``model`` at every other seat of the playouts."""
    return Searching(
        sample_states=sample_states, play_from=play_from,
        rollout_agents=functools.partial(rollout_agents, model=model),
        candidates=functools.partial(candidates, model=model), budget=BUDGET,
        anchor_margin=ANCHOR_MARGIN,
    )  # fmt: skip


class RubbishSearchAgent(SearchAgent):
    """Determinized search with ``budget`` playouts per decision, the playouts played by
    ``model`` (a compiled agent, or a fitted agent) at every seat (module docstring)."""

    def __init__(self, model: Any, budget: int = BUDGET, margin: float | None = None) -> None:
        if not (plays_compiled(model) or hasattr(model, "policy_for")):
            raise TypeError(
                "the search's model must be a compiled agent (random, heuristic) or a fitted "
                f"agent, whose policy its playouts play; got {model!r}"
            )
        super().__init__(searching(model), budget, margin)
        self.model = model
        self._buffers: dict[Any, _Buffers] = {}

    def evaluate(
        self, observation: Observation, actions: Sequence[Any], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The kit's sequential halving (the same draws), each round one compiled call."""
        rules, seat = observation.rules, observation.player
        buffers = self._buffers_for(rules, max(self.budget, len(actions)))
        sampler = PositionSampler(observation)
        decisions = sampler.decisions  # the same in every filling
        auction, action_a, action_b = action_arrays(observation, actions)
        fixed = (*buffers.policies, buffers.tables, sampler.template, buffers.positions,
                 NO_RECORDING)  # fmt: skip
        sampler_tables = sampler.tables()

        def play_round(alive: list[int], fillings: int) -> tuple[list[float], None]:
            u = sampler.draw(rng, fillings)  # what sample_states draws, then the playouts' seed
            seed = int(rng.integers(2**63))
            if buffers.table.mixed:  # each filling's policies drawn, the same for every copy
                drawn_rows = buffers.table.playout_assignment(fillings, 1, seed)
                buffers.policies[2][: fillings * len(alive)] = np.tile(drawn_rows, (len(alive), 1))
            # generator(seed)'s stream without its checks: the same uniforms for every candidate
            drawn = np.random.Generator(np.random.PCG64(seed)).random((decisions, fillings))
            call_direct(
                _play_round, *fixed, u, fillings, *sampler_tables, seat, auction, action_a,
                action_b, np.array(alive, np.int64), drawn, buffers.uniforms, *buffers.standings,
            )  # fmt: skip
            shares = buffers.standings[2][: fillings * len(alive), seat].reshape(len(alive), -1)
            return shares.sum(axis=1).tolist(), None

        return sequential_halving(len(actions), self.budget, play_round, prior=prior)

    def _buffers_for(self, rules: Any, rows: int) -> _Buffers:
        """This agent's arrays for ``rules`` with room for ``rows`` playouts (made once)."""
        buffers = self._buffers.get(rules)
        if buffers is None or buffers.positions.fame.shape[0] < rows:
            table = policy_table(self.rollout_agents(rules))
            n = rules.players
            assignment = np.ascontiguousarray(np.tile(table.seats, (rows, 1)))
            buffers = self._buffers[rules] = _Buffers(
                table, (table.kinds, table.parameters, assignment), tables_for(rules),
                empty_positions(rules, rows), np.zeros((rules.rounds * (n + 1), rows)),
                (np.zeros((rows, n), np.int32), np.zeros((rows, n), np.int8),
                 np.zeros((rows, n), np.float64)),
            )  # fmt: skip
        return buffers


class _Buffers(NamedTuple):
    """What every decision under one rule set reuses (policy table, positions, uniforms)."""

    table: PolicyTable
    policies: tuple[np.ndarray, np.ndarray, np.ndarray]
    tables: Any
    positions: Any
    uniforms: np.ndarray
    standings: tuple[np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True)
def _play_round(  # type: ignore[no-untyped-def]
    kinds, parameters, assignment, tables, template, pos, rec, u, count, geek_pool, geek_seats,
    destined, bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative,
    me, auction, action_a, action_b, alive, drawn, uniforms, scores, ranks, shares,
):  # fmt: skip
    """One round of sequential halving: ``count`` fillings once per surviving candidate
    ``alive[k]`` (rows ``k * count + f``), each taking its candidate's action (``action_a``,
    ``action_b`` as ``positions.action_arrays`` gives them), played to the end with ``drawn[d,
    f]`` as decision d's uniform in every copy of filling f; standings into the first rows."""
    copies = alive.shape[0]
    games = count * copies
    fill_samples(template, pos, u, count, copies, geek_pool, geek_seats, destined,
                 bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative)  # fmt: skip
    for copy in range(copies):
        action = alive[copy]
        for f in range(count):
            row = copy * count + f
            if auction:  # as State.apply: the item is up, bidding starts at position 0
                pos.item[row] = action_a[action]
                pos.first[row] = action_b[action]
                pos.position[row] = 0
            else:
                pos.bid_index[row, me] = action_a[action]
                pos.held[row, me] = action_b[action]
                pos.position[row] += 1
            for d in range(drawn.shape[0]):
                uniforms[d, row] = drawn[d, f]
    play(kinds, parameters, assignment, tables, pos, uniforms, rec, False, games)
    write_standings(games, pos.fame, pos.destined_won, pos.items_won, tables.destined_bonus,
                    tables.rounds, scores, ranks, shares, np.empty(tables.players, np.int64))


__all__ = ["BUDGET", "RubbishSearchAgent", "candidates", "rollout_agents", "searching"]
