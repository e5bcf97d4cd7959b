"""The ``search`` agent: legal, seeded choices in the step engine; its candidate pruning; and
its array-based sequential halving against the kit's generic one (same draws, same values).
The sampler it draws from is tested against exact enumeration in test_sampling.py."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.rubbish import (
    AGENTS,
    Bid,
    HeuristicAgent,
    Rules,
    compiled,
    make_agent,
    new_game,
    simulate,
)
from workbench.games.rubbish.fitted import FITTING
from workbench.games.rubbish.positions import play_positions, positions_of_states, tables_for
from workbench.games.rubbish.search import BUDGET, RubbishSearchAgent, candidates, searching
from workbench.kit.fits import cache_folder, cached_fit
from workbench.kit.search import SearchAgent, Searching
from workbench.kit.seeding import generator

SMALL = Rules(players=3, money_cards=(1, 1, 3, 4, 4, 9), destined_bonus=12)
TWO = Rules(players=2, bid_minimum="one")


@pytest.fixture(autouse=True)
def cached_fits(tmp_path, monkeypatch):
    """A fresh fit cache holding given parameters for the small rule sets, so the fitted
    policy the playouts use is never fitted here (fitting has its own tests)."""
    monkeypatch.setenv("WORKBENCH_FIT_CACHE", str(tmp_path))
    params = {"max_wanted_bid": 11.5, "gain_share": 0.62, "cheapskate_share": 0.81,
              "last_round_share": 0.95}  # fmt: skip
    for rules in (SMALL, TWO):
        cached_fit("rubbish", rules, version=FITTING.cache_version, seed=0,
                   fit=lambda: (params, {}),
                   folders=[cache_folder("rubbish")])  # fmt: skip


def positions_along(rules: Rules, seed: int, every: int = 3) -> list:
    """Step-engine States of one seeded game (heuristic play), every ``every``-th decision."""
    heuristic, rng = make_agent("heuristic"), generator(seed)
    state, states = new_game(rules, seed=seed), []
    while (seat := state.to_play) is not None:
        states.append(state)
        state = state.apply(heuristic(state.observation(seat), state.legal_actions(), rng))
    return states[::every]


def tie_aware_play_from(states, agents, *, playouts, seed):
    """``positions.play_from`` returning fame x (rounds + 1) + items won, so that the kit's
    top-score-wins rule applies the game's tie-break (most items won)."""
    rules = states[0].rules
    positions = positions_of_states(states)
    uniforms = generator(seed).random((rules.rounds * (rules.players + 1), len(states)))
    play_positions(rules, positions, agents, uniforms)
    scores = compiled.standings(tables_for(rules), positions)[0].astype(np.float64)
    keys = scores * (rules.rounds + 1) + positions.items_won
    return keys.reshape(len(states), playouts, rules.players)


def test_registered_with_a_budget_option_and_the_fitted_agent_as_its_model():
    assert list(AGENTS)[-1] == "search"
    assert make_agent("search").budget == BUDGET
    assert type(make_agent("search").model).__name__ == "RubbishFittedAgent"
    assert make_agent("search", budget=8).budget == 8
    with pytest.raises(ValueError, match="search budget"):
        make_agent("search", budget=0)
    with pytest.raises(TypeError, match="model must be a compiled agent"):
        RubbishSearchAgent(model=lambda observation, legal, rng: legal[0])
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'model'"):
        RubbishSearchAgent()


@pytest.mark.parametrize(("rules", "model"), [(Rules(), "fitted"), (SMALL, "fitted"),
                                               (Rules(), "heuristic")])  # fmt: skip
def test_array_search_gives_the_kits_values(rules, model):
    """Same rng, same fillings and playouts: the kit's per-candidate sequential halving (with
    the game's tie-break) keeps the same action with the same mean win shares, whatever the
    model the playouts play."""
    model = make_agent(model)
    kit = searching(model)
    generic = SearchAgent(Searching(
        kit.sample_states, tie_aware_play_from, kit.rollout_agents, kit.candidates,
    ), budget=24)  # fmt: skip
    fast = RubbishSearchAgent(model, budget=24)
    for state in positions_along(rules, seed=2):
        observation = state.observation(state.to_play)
        actions = candidates(observation, state.legal_actions(), model)
        if len(actions) < 2:
            continue
        kept, values = fast.evaluate(observation, actions, generator(8))
        kit_kept, kit_values = generic.evaluate(observation, actions, generator(8))
        assert kept == kit_kept
        np.testing.assert_allclose(values, kit_values)


@pytest.mark.parametrize("rules", [Rules(), SMALL, TWO])
def test_candidates_are_legal_and_lead_with_the_fitted_choice(rules):
    fitted = make_agent("fitted")
    for state in positions_along(rules, seed=5, every=1):
        observation = state.observation(state.to_play)
        legal = state.legal_actions()
        chosen = candidates(observation, legal, fitted)
        assert chosen[0] == fitted.policy_for(rules).choose(observation, 0.0)
        assert len(set(chosen)) == len(chosen) and set(chosen) <= set(legal)
        if isinstance(legal[0], Bid):
            totals = {bid.total for bid in legal}
            assert len(chosen) <= 8
            assert min(totals) in {b.total for b in chosen}
            assert max(totals) in {b.total for b in chosen}


def test_a_search_plays_out_and_anchors_on_the_model_it_is_given():
    heuristic = HeuristicAgent(gain_share=0.3)
    agent = RubbishSearchAgent(heuristic, budget=8)
    assert agent.rollout_agents(SMALL) == [heuristic] * SMALL.players
    for state in positions_along(SMALL, seed=3, every=1):
        observation = state.observation(state.to_play)
        chosen = candidates(observation, state.legal_actions(), heuristic)
        assert chosen[0] == heuristic.choose(observation, 0.0)


def test_search_plays_legal_seeded_games():
    """Whole games in the step engine (State.apply refuses an illegal action), twice alike."""
    lineup = [make_agent("search", budget=8), "fitted", "heuristic"]
    first = simulate(SMALL, lineup, games=3, seed=6, progress=False)
    again = simulate(SMALL, lineup, games=3, seed=6, progress=False)
    assert first[0].equals(again[0]) and first[1].equals(again[1])
    assert first[0]["agent"].to_list()[:3] == ["search", "fitted", "heuristic"]
    other = simulate(SMALL, lineup, games=3, seed=7, progress=False)
    assert not other[1].equals(first[1])
