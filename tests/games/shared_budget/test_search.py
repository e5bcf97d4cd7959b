"""The ``search`` agent: playouts scored by the game's own ranking (checked against the step
engine), candidate bids, legal and reproducible play, its budget option."""

from __future__ import annotations

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from workbench.games.shared_budget import Rules, make_agent, new_game, simulate
from workbench.games.shared_budget.search import (
    SharedBudgetSearchAgent,
    candidates,
    rollout_agents,
    standing_play_from,
    win_shares,
)
from workbench.kit.seeding import generator


def _position(rules, bids):
    state = new_game(rules, seed=0)
    for bid in bids:
        state = state.apply(bid)
    return state


@pytest.mark.parametrize(("teams", "bids"), [(3, [5, 7, 0, 3]), (4, [2, 9, 1, 0, 12])])
def test_standings_match_the_step_engine(teams, bids):
    """Compiled playouts' standings (score + budget / (budget + 1)) equal the step engine's
    from the same streams, and their split wins equal the game's own shares."""
    rules = Rules(teams=teams)
    state = _position(rules, bids)
    agents = rollout_agents(rules)
    standing = standing_play_from([state], agents, playouts=6, seed=5)

    rng = generator(5, 0)  # play_from: position i's playouts all draw from (seed, i)
    for playout in range(6):
        final = state
        while (seat := final.to_play) is not None:
            final = final.apply(agents[seat](final.observation(seat), final.legal_actions(), rng))
        result = final.result()
        expected = [s + b / (rules.budget + 1) for s, b in zip(result.scores, result.budgets,
                                                               strict=True)]  # fmt: skip
        np.testing.assert_allclose(standing[0, playout], expected)
        np.testing.assert_allclose(win_shares(standing)[0, playout], result.shares)


def test_candidates_hold_the_fitted_bid_and_the_sure_wins():
    rules = Rules(teams=3)
    state = _position(rules, [4, 6, 2])  # round 2, seat 0 to bid
    observation = state.observation(0)
    legal = state.legal_actions()
    chosen = candidates(observation, legal)
    assert all(bid in legal for bid in chosen)
    assert {0, 1, observation.budget} <= set(chosen)
    fitted = make_agent("fitted").policy_for(rules).probabilities(observation, legal)
    assert set(fitted) <= set(chosen)
    assert len(chosen) < len(legal)


def test_search_plays_legally_and_reproducibly():
    rules = Rules(teams=3)
    lineup = [make_agent("search", budget=8), "fitted", "coverage"]
    first = simulate(rules, lineup, games=6, seed=3, progress=False)
    again = simulate(rules, [SharedBudgetSearchAgent(budget=8), "fitted", "coverage"],
                     games=6, seed=3, progress=False)  # fmt: skip
    for a, b in zip(first, again, strict=True):
        assert_frame_equal(a, b)
    rounds = first[1]
    assert not rounds["invalid"].any()
    assert (rounds["bid"] <= rounds["budget_before"]).all()


def test_search_budget_is_checked():
    assert make_agent("search").budget == SharedBudgetSearchAgent().budget
    with pytest.raises(ValueError, match="search budget"):
        make_agent("search", budget=0)
