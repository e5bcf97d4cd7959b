"""The ``search`` agent: its candidates are legal actions led by its model's choice, its games
are legal (``State.apply`` refuses anything else) and reproducible by seed, and its array-based
sequential halving gives the kit's generic one's values (same draws)."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.going_gone import (
    DoneSelling,
    Rules,
    ValuationAgent,
    make_agent,
    new_game,
    simulate,
)
from workbench.games.going_gone.compiled import Positions, repeat_positions
from workbench.games.going_gone.positions import positions_of_states
from workbench.games.going_gone.sampling import Sampler, sample_states
from workbench.games.going_gone.search import ANCHOR_MARGIN, GoingGoneSearchAgent, candidates
from workbench.kit.search import SearchAgent
from workbench.kit.seeding import generator

#: The rulebook's fit (shipped: nothing is fitted here), which the search models by default.
FITTED = make_agent("fitted")


def fitted_candidates(observation, legal):
    return candidates(FITTED.policy_for(observation.rules), observation, legal)


def test_candidates_are_legal_and_lead_with_the_models_choice():
    rules, fitted = Rules(), FITTED
    rng = generator(3)
    seen = {"bid": 0, "sell": 0}
    for game in range(3):
        state = new_game(rules, seed=game)
        while not state.is_over:
            seat = state.to_play
            observation, legal = state.observation(seat), state.legal_actions()
            options = fitted_candidates(observation, legal)
            assert options and all(option in legal for option in options)
            assert options == make_agent("search").choices(observation, legal, rng)[0]
            assert len(set(options)) == len(options)
            if state.phase == "sell":
                assert DoneSelling() in options and len(options) <= 2
            else:
                assert (0,) * rules.cups in [o.bids for o in options] and len(options) <= 4
            seen[state.phase] += 1
            state = state.apply(fitted(observation, legal, rng))
    assert seen["bid"] > 40 and seen["sell"] > 5


def test_search_games_are_legal_and_reproducible():
    lineup = ["fitted", GoingGoneSearchAgent(budget=4, model=FITTED), "fitted", "fitted"]
    first = simulate(Rules(), lineup, games=2, seed=8, progress=False)[0]
    again = simulate(Rules(), lineup, games=2, seed=8, progress=False)[0]
    assert first.equals(again)
    assert first["agent"].to_list()[:4] == ["fitted", "search", "fitted", "fitted"]


def test_search_is_made_by_name_with_a_budget_and_models_the_fitted_agent():
    agent = make_agent("search", budget=7)
    assert isinstance(agent, GoingGoneSearchAgent) and agent.budget == 7
    assert repr(agent) == "GoingGoneSearchAgent(budget=7)"
    assert agent.model.name == "fitted"
    with pytest.raises(TypeError, match="model"):
        GoingGoneSearchAgent(budget=7)


def test_the_search_plays_out_and_anchors_on_its_model():
    valuation = ValuationAgent(bid_share=0.9)
    agent = GoingGoneSearchAgent(model=valuation)
    assert agent.rollout_agents(Rules()) == [valuation] * 4
    state = new_game(Rules(), seed=1)
    observation, legal = state.observation(0), state.legal_actions()
    assert agent.choices(observation, legal, generator(0)) == (
        candidates(valuation, observation, legal), True
    )


def decisions_along(rules: Rules, seed: int, games: int = 2) -> list:
    """States where a seat has more than one candidate, along seeded fitted-policy games."""
    fitted, rng, found = make_agent("fitted"), generator(seed), []
    for game in range(games):
        state = new_game(rules, seed=100 * seed + game)
        while not state.is_over:
            observation, legal = state.observation(state.to_play), state.legal_actions()
            if len(fitted_candidates(observation, legal)) > 1:
                found.append(state)
            state = state.apply(fitted(observation, legal, rng))
    return found


def test_the_search_is_anchored_on_the_fitted_choice():
    """No candidate gains more than one whole win over another, so with an anchor margin
    above one the search plays the fitted policy's choice (listed first) at every decision;
    at the default margin it still plays something else at some decisions."""
    states = decisions_along(Rules(), seed=5)[:40]
    anchored = GoingGoneSearchAgent(budget=8, margin=1.01, model=FITTED)
    default = GoingGoneSearchAgent(budget=8, model=FITTED)
    deviations = 0
    for index, state in enumerate(states):
        observation, legal = state.observation(state.to_play), state.legal_actions()
        first = fitted_candidates(observation, legal)[0]
        assert anchored(observation, legal, generator(6, index)) == first
        deviations += default(observation, legal, generator(6, index)) != first
    assert default.margin == ANCHOR_MARGIN == 0.3 and deviations > 0


RULE_SETS = {
    "default": Rules(),
    "open collections": Rules(open_collections=True),
}


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_array_search_gives_the_kits_values(variant):
    """Same rng, same fillings and playouts: the kit's per-candidate sequential halving
    (sample_states, State.apply, play_from) keeps the same action with the same values."""
    rules = RULE_SETS[variant]
    fast = GoingGoneSearchAgent(budget=16, model=FITTED)
    generic = SearchAgent(fast.searching, budget=16, model=FITTED)
    phases = set()
    for index, state in enumerate(decisions_along(rules, seed=4)[::3]):
        observation = state.observation(state.to_play)
        actions = fitted_candidates(observation, state.legal_actions())
        kept, values = fast.evaluate(observation, actions, generator(8, index))
        kit_kept, kit_values = generic.evaluate(observation, actions, generator(8, index))
        assert kept == kit_kept
        np.testing.assert_array_equal(values, kit_values)
        phases.add(state.phase)
    assert phases == {"bid", "sell"}


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_sampled_positions_are_the_sampled_states(variant):
    """The positions drawn straight from an observation are those of ``sample_states``' States
    (same rng) wherever the compiled play reads them; drawn in several copies, they are the
    copies ``repeat_positions`` makes."""
    rules = RULE_SETS[variant]
    per_round = rules.items_per_round
    for index, state in enumerate(decisions_along(rules, seed=6)[::4]):
        observation = state.observation(state.to_play)
        drawn = Sampler(observation).positions(generator(index), 5)
        states = positions_of_states(sample_states(observation, generator(index), 5))
        start = state.rounds_done * per_round
        assert np.array_equal(drawn.deck[:, start:], states.deck[:, start:])
        for name in Positions._fields:
            if name != "deck":
                assert np.array_equal(getattr(drawn, name), getattr(states, name)), name
        copies = Sampler(observation).positions(generator(index), 5, times=3)
        for name, repeated in zip(Positions._fields, repeat_positions(drawn, 3), strict=True):
            assert np.array_equal(getattr(copies, name), repeated), name
