"""Sampled fillings written straight into compiled positions (``rollouts.Positions``), for the
``search`` agent: the draws of ``sampling.sample_states`` (one ``Sampler``, the same calls on
the generator), without building a ``State`` per filling.

A row holds what the State of the filling would give ``playouts.write_state`` wherever the
play reads it (the deck from this round on, Bucks, holdings, sold collections with open
collections, sealed bids, sales so far); what the play never reads (past deals, discards) is
left out. A test checks the rows equal the States' own.
"""

from __future__ import annotations

import numpy as np

from workbench.games.going_gone.bits import mask_of
from workbench.games.going_gone.engine import Observation
from workbench.games.going_gone.playouts import PHASES, collections_mask, write_sale
from workbench.games.going_gone.rollouts import Positions, empty_positions, repeat_positions
from workbench.games.going_gone.sampling import Sampler


class PositionSampler:
    """Positions of fillings of one observation, each consistent filling equally likely."""

    def __init__(self, observation: Observation) -> None:
        self.sampler = Sampler(observation)
        self.observation = observation
        self.template = _template(observation)
        self.future_start = observation.round * observation.rules.items_per_round

    def sample(self, rng: np.random.Generator, count: int, times: int = 1) -> Positions:
        """``count`` positions: the fillings ``sample_states(observation, rng, count)`` draws;
        ``times`` copies of them, block after block (row ``k * count + f`` is filling f), as
        ``repeat_positions`` would give."""
        draws = self.sampler.draw(rng, count)
        positions = repeat_positions(self.template, count * times)
        rules, me = self.observation.rules, self.observation.player
        n, start = rules.players, self.future_start
        others = [seat for seat in range(n) if seat != me]
        holdings = positions.holdings.reshape(times, count, n)
        holdings[:, :, others] = draws.masks[:, others]
        deck = positions.deck.reshape(times, count, -1)
        deck[:, :, start : start + draws.future.shape[1]] = draws.future
        bids = positions.bids.reshape(times, count, n, -1)
        for seat, sealed in draws.sealed.items():
            bids[:, :, seat] = sealed
        values = rules.sale_value
        sale_items = positions.sale_items.reshape(times, count, n)
        sale_count = positions.sale_count.reshape(times, count, n)
        sale_bucks = positions.sale_bucks.reshape(times, count, n)
        for seat, sales in draws.sales.items():
            for row, sale in enumerate(sales):
                sale_items[:, row, seat] = sum(sale)  # disjoint collections
                sale_count[:, row, seat] = len(sale)
                sale_bucks[:, row, seat] = sum(values(c.bit_count()) for c in sale)
        return positions


def _template(observation: Observation) -> Positions:
    """One position holding what the observation fixes (the hidden parts left empty)."""
    rules, me, phase = observation.rules, observation.player, observation.phase
    n = rules.players
    positions = empty_positions(rules, 1)
    positions.rounds_done[0] = observation.round - 1
    positions.phase[0] = PHASES[phase]
    positions.auctioneer[0] = observation.auctioneer
    positions.bucks[0] = observation.bucks
    positions.holdings[0, me] = mask_of(rules, observation.holding)
    for seat in range(n):
        if seat == me or rules.open_collections:
            positions.sold[0, seat] = collections_mask(rules, observation.sold[seat])
        if rules.open_collections:
            positions.holdings[0, seat] = mask_of(rules, observation.holdings[seat])
    if phase == "over":
        return positions
    start = (observation.round - 1) * rules.items_per_round
    lot_items = [i for lot in observation.lots for i in lot]
    positions.deck[0, start : start + len(lot_items)] = lot_items
    if phase == "bid" and observation.own_bids is not None:
        positions.bids[0, me] = observation.own_bids.bids
    if phase == "sell":
        write_sale(positions, 0, me, rules, observation.pending_sale)
        order = [(observation.auctioneer + k) % n for k in range(n)]
        sellers = [seat for seat in order if observation.item_counts[seat]]
        for seat in sellers[: sellers.index(observation.to_play)]:
            positions.done[0, seat] = True
        for seat in range(n):
            positions.done[0, seat] |= seat not in sellers
    return positions


__all__ = ["PositionSampler"]
