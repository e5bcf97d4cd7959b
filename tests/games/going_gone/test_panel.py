"""The Going, Going, GONE! panel: the holding's best arrangement, what each lot adds (exact with
open collections, sampled and recomputed with secret ones), every seat's Bucks and the most it
can bid, and the panel driven through a table game."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from workbench.games.going_gone import Rules, new_game
from workbench.games.going_gone.collection_values import holding_value, lot_values
from workbench.games.going_gone.holdings import items_of
from workbench.games.going_gone.panel import bucks_frame, knowledge, lot_gains
from workbench.games.going_gone.sampling import Sampler
from workbench.kit.seeding import generator
from workbench.play.table import table

#: Tests under rules the workbench ships no fit for seat collectors: fitted players would be fitted
#: first (half a minute), and these tests need only some state of the game.
NO_SHIPPED_FIT = "collector"


def _bidding_state(rules: Rules, seed: int, rounds: int, agent: str = "fitted"):
    """A state at the start of round ``rounds + 1``'s bidding after ``agent``'s play."""
    from workbench import games

    record = games.get("going_gone")
    agents = record.resolve_agents(rules, agent)
    state = new_game(rules, seed=seed)
    rng = generator(seed)
    while state.to_play is not None and not (state.rounds_done == rounds and state.phase == "bid"
                                              and not any(state.bids)):  # fmt: skip
        seat = state.to_play
        state = state.apply(agents[seat](state.observation(seat), state.legal_actions(), rng))
    return state


def test_with_open_collections_every_seat_is_exact():
    rules = dataclasses.replace(Rules(), open_collections=True)
    state = _bidding_state(rules, seed=2, rounds=3, agent=NO_SHIPPED_FIT)
    observation = state.observation(state.to_play)
    gains = lot_gains(observation)
    assert gains["exact"].all() and (gains["n"] == 0).all()
    for seat in range(rules.players):
        expected = lot_values(state.holdings[seat], state.lots, rules=rules)["marginal"]
        assert gains.filter(gains["seat"] == seat)["gain"].to_list() == [float(v) for v in expected]


def test_with_secret_collections_opponents_are_sampled_and_recomputed():
    rules = Rules()
    state = _bidding_state(rules, seed=5, rounds=3)
    me = state.to_play
    observation = state.observation(me)
    gains = lot_gains(observation, samples=40, seed=9)
    mine = gains.filter(gains["seat"] == me)
    exact = lot_values(state.holdings[me], state.lots, rules=rules)["marginal"].to_list()
    assert mine["gain"].to_list() == [float(v) for v in exact] and mine["exact"].all()
    # The opponents' figures: the same draws, valued one by one by the exact arrangement solver.
    masks = Sampler(observation).draw(generator(9), 40).masks
    for seat in (s for s in range(rules.players) if s != me):
        rows = gains.filter(gains["seat"] == seat)
        assert (rows["n"] == 40).all() and not rows["exact"].any()
        held = [items_of(rules, int(mask)) for mask in masks[:, seat]]
        for lot, row in zip(state.lots, rows.iter_rows(named=True), strict=True):
            values = [holding_value([*h, *lot], rules=rules) - holding_value(h, rules=rules)
                      for h in held]  # fmt: skip
            assert row["gain"] == pytest.approx(np.mean(values))
            assert row["low"] <= row["gain"] <= row["high"]
        # every drawn holding has the seat's public item count
        assert {len(h) for h in held} == {observation.item_counts[seat]}


def test_bucks_and_the_most_a_seat_can_bid():
    rules = dataclasses.replace(Rules(), cube_limit=20)
    observation = _bidding_state(rules, seed=1, rounds=2, agent=NO_SHIPPED_FIT).observation(0)
    frame = bucks_frame(observation)
    assert frame["bucks"].to_list() == list(observation.bucks)
    assert frame["most_bid"].to_list() == [min(b, 20) for b in observation.bucks]
    assert "most each can bid: seat 0 " in knowledge(observation)


def test_the_panel_follows_a_table_game():
    t = table("going_gone", seed=3, opponents="fitted", samples=50)
    panel = t.panel
    assert panel.gains is not None and panel.gains.height == 5 * 4  # five lots, four seats
    assert "wb-panel-gains" in panel.view.value and "wb-panel-bucks" in panel.view.value
    assert "50 holdings drawn uniformly" in panel.view.value
    t.autoplay("fitted", 4)
    assert panel.arrangement.value == holding_value(t.session.observation().holding)
    with pytest.raises(ValueError, match="samples"):
        table("going_gone", seed=3, opponents="fitted", samples=1)
