"""The kit's information-set search (workbench.kit.search), on the example game: step playouts
against plain step play, the hidden-information sampler against exact enumeration, and the
search agent against hand-written agents."""

from __future__ import annotations

import itertools

import example_game.search
import numpy as np
import pytest

from workbench.kit.search import (
    halving_rounds,
    round_fillings,
    sequential_halving,
    split_wins,
    step_play_from,
    survivors,
    uniformity_p_value,
)
from workbench.kit.seeding import generator


def _position(example, rules, moves):
    """The position after ``moves`` actions of a seeded game with shading agents."""
    state = example.new_game(rules, seed=11)
    agent = example.ShadingAgent()
    for _ in range(moves):
        state = state.apply(agent(state.observation(state.to_play), state.legal_actions(), None))
    return state


def _fixed_means(means):
    """A play_round whose candidate i wins ``means[i]`` of each playout (known means)."""

    def play_round(alive, fillings):
        return [means[i] * fillings for i in alive], None

    return play_round


def test_sequential_halving_keeps_the_best_mean_and_the_first_of_equals():
    kept, values = sequential_halving(4, 16, _fixed_means([0.2, 0.5, 0.4, 0.5]))
    assert kept == 1
    np.testing.assert_allclose(values, [0.2, 0.5, 0.4, 0.5])


@pytest.mark.parametrize(
    ("candidates", "rounds"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (40, 6)]
)
def test_halving_takes_ceil_log2_rounds_compiled_or_not(candidates, rounds):
    assert halving_rounds(candidates) == halving_rounds.py_func(candidates) == rounds


@pytest.mark.parametrize(
    ("budget", "alive", "rounds_left", "fillings"), [(32, 5, 3, 2), (32, 3, 2, 5), (32, 2, 1, 16),
                                                     (4, 9, 4, 1), (256, 1, 1, 256)],
)  # fmt: skip
def test_a_round_shares_the_budget_left_among_the_candidates_alive(
    budget, alive, rounds_left, fillings
):
    assert round_fillings(budget, alive, rounds_left) == fillings
    assert round_fillings.py_func(budget, alive, rounds_left) == fillings


@pytest.mark.parametrize(("alive", "kept"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (9, 5)])
def test_a_round_keeps_the_better_half_rounded_up(alive, kept):
    assert survivors(alive) == survivors.py_func(alive) == kept


def test_a_prior_bonus_is_the_margin_another_candidate_must_beat():
    means = [0.3, 0.35, 0.1, 0.2]
    # Bonus 0.1 for candidate 0: 0.3 + 0.1 beats 0.35, so candidate 0 is kept.
    assert sequential_halving(4, 16, _fixed_means(means), prior=[0.1, 0, 0, 0])[0] == 0
    # Bonus 0.04: 0.34 < 0.35, the better candidate replaces it.
    assert sequential_halving(4, 16, _fixed_means(means), prior=[0.04, 0, 0, 0])[0] == 1
    # Equal after the bonus (0.25 + 0.25 = 0.5, exact in binary): the earlier candidate stays.
    tied = _fixed_means([0.25, 0.5, 0.5, 0.1])
    assert sequential_halving(4, 16, tied, prior=[0.25, 0, 0, 0])[0] == 0
    # The returned values are the playouts' means, without the bonus.
    _, values = sequential_halving(4, 16, _fixed_means(means), prior=[0.1, 0, 0, 0])
    assert values[0] == pytest.approx(0.3)
    with pytest.raises(ValueError, match="one bonus per candidate"):
        sequential_halving(4, 16, _fixed_means(means), prior=[0.1])


def test_split_wins_shares_the_top_score():
    scores = np.array([[3, 5, 5], [1, 0, 0], [2, 2, 2]])
    assert split_wins(scores).tolist() == [[0, 0.5, 0.5], [1, 0, 0], [1 / 3] * 3]


@pytest.mark.parametrize("moves", [0, 1, 4, 7, 13])
def test_step_playouts_continue_as_step_play_does(example, moves):
    rules = example.Rules(players=3, items=5)
    start = _position(example, rules, moves)
    agents = [example.ShadingAgent(), example.TruthfulAgent(), example.ShadingAgent(0.5)]
    scores = step_play_from([start, start], agents, playouts=2, seed=0)
    state = start
    while state.to_play is not None:
        state = state.apply(agents[state.to_play](state.observation(state.to_play),
                                                  state.legal_actions(), None))  # fmt: skip
    assert scores.shape == (2, 2, 3)
    assert (scores == np.array(state.result().scores)).all()


def test_random_playouts_are_reproducible_and_vary_by_seed(example):
    start = _position(example, example.Rules(), 2)
    agents = [example.RandomAgent()] * 3
    first = step_play_from(start, agents, playouts=8, seed=1)
    assert (first == step_play_from(start, agents, playouts=8, seed=1)).all()
    assert not (first == step_play_from(start, agents, playouts=8, seed=2)).all()
    # States given as a generator are every state, not one (a generator has no to_play)
    assert (step_play_from((s for s in [start]), agents, playouts=8, seed=1) == first).all()
    for bad in ([], 5, "state"):
        with pytest.raises(TypeError, match="states must be a State or a non-empty sequence"):
            step_play_from(bad, agents, playouts=1, seed=1)


def consistent_fillings(observation):
    """Every filling consistent with ``observation`` (exact enumeration, for small games): the
    other seats' values and sealed bids, as ``filling_of`` reads them off a State."""
    rules, me = observation.rules, observation.player
    others = [seat for seat in range(rules.players) if seat != me]
    value_rows = list(itertools.product(range(1, rules.max_value + 1), repeat=rules.items))
    bid_ranges = [range(observation.budgets[seat] + 1) if observation.has_bid[seat] else [None]
                  for seat in others]  # fmt: skip
    for rows in itertools.product(value_rows, repeat=len(others)):
        for bids in itertools.product(*bid_ranges):
            yield tuple(rows), tuple(bids)


def filling_of(state, me):
    """The hidden part of ``state`` for seat ``me``: the others' values and sealed bids."""
    others = [seat for seat in range(state.rules.players) if seat != me]
    return tuple(state.values[s] for s in others), tuple(state.sealed[s] for s in others)


@pytest.mark.parametrize("moves", [0, 1, 2, 3])
def test_the_sampler_is_uniform_over_every_consistent_filling(example, moves):
    rules = example.Rules(players=3, items=2, budget=2, max_value=2)
    state = _position(example, rules, moves)
    observation = state.observation(state.to_play)
    consistent = list(consistent_fillings(observation))
    assert filling_of(state, observation.player) in consistent  # the truth is possible
    draws = 40 * len(consistent)
    sampled = example_game.search.sample_states(observation, generator(moves), draws)
    fillings = [filling_of(s, observation.player) for s in sampled]
    assert uniformity_p_value(fillings, consistent) > 0.001
    for s in sampled:  # everything the seat sees is as it was
        assert s.observation(observation.player) == observation


def test_uniformity_check_catches_a_biased_sampler():
    support = ["a", "b", "c", "d"]
    biased = ["a"] * 400 + ["b"] * 300 + ["c"] * 300 + ["d"] * 200
    assert uniformity_p_value(biased, support) < 1e-6
    with pytest.raises(AssertionError, match="not consistent"):
        uniformity_p_value(["e"], support)


def test_uniformity_weighs_fillings_that_stand_for_several():
    # "a" stands for two equally likely fillings (say, either of two identical cards).
    weighted = {"a": 2, "b": 1, "c": 1}
    fair = ["a"] * 500 + ["b"] * 250 + ["c"] * 250
    assert uniformity_p_value(fair, weighted) > 0.5
    assert uniformity_p_value(fair, list(weighted)) < 1e-6  # unweighted, "a" looks favoured


def test_search_beats_truthful_bidders(example):
    rules = example.Rules(players=3, items=3, budget=6)
    games, _ = example.simulate(rules, ["search", "truthful", "truthful"], games=24, seed=5,
                                progress=False, rounds=False)  # fmt: skip
    share = games.filter(games["seat"] == 0)["win_share"].mean()
    assert share > 0.5  # fair share 1/3; truthful bidders never gain on what they win


def test_search_is_reproducible_and_takes_its_budget(example):
    agent = example.make_agent("search", budget=8)
    assert agent.budget == 8 and repr(agent) == "ExampleSearchAgent(budget=8)"
    state = _position(example, example.Rules(), 3)
    observation = state.observation(state.to_play)
    choices = {agent(observation, state.legal_actions(), generator(4)) for _ in range(3)}
    assert len(choices) == 1 and choices <= set(state.legal_actions())
    with pytest.raises(ValueError, match="search budget"):
        example.make_agent("search", budget=0)


def test_compiled_rollouts_are_made_once_per_rule_set(example):
    made = []

    class Counting(type(example.make_agent("search"))):
        def compile_rollouts(self, rules, agents):
            made.append(rules)
            return ("compiled", rules, len(agents))

    agent = Counting(model=example.make_agent("shading"))
    small, large = example.Rules(), example.Rules(players=3, items=3)
    first = agent.compiled_rollouts(small)
    assert agent.compiled_rollouts(small) is first and made == [small]
    assert agent.compiled_rollouts(large) == ("compiled", large, 3) and made == [small, large]
    with pytest.raises(NotImplementedError, match="has no compiled playouts"):
        example.make_agent("search").compiled_rollouts(small)


# -- the fitted agent (workbench.kit.fitting.FittedAgent) on the example game ----------------


def test_fits_differ_between_far_apart_rules_and_are_cached(example):
    agent = example.make_agent("fitted")
    few = example.Rules(players=2, items=3, budget=100)
    many = example.Rules(players=4, items=3, budget=100)
    fit_few, fit_many = agent.fit(few, progress=False), agent.fit(many, progress=False)
    assert fit_few.params != fit_many.params
    assert fit_few.details["games"] == 8 * 6 * 3 * 2 * 10  # generations x population x tables...
    assert agent.fit(few, progress=False) == fit_few  # read back from the cache
    assert example.make_agent("fitted").policy_for(few).factor == fit_few.params["factor"]


def test_the_fitted_agent_beats_truthful_bidders(example):
    rules = example.Rules(players=3, items=3, budget=6)
    games, _ = example.simulate(rules, ["fitted", "truthful", "truthful"], games=150, seed=2,
                                progress=False, rounds=False)  # fmt: skip
    assert games.filter(games["seat"] == 0)["win_share"].mean() > 0.45  # fair share 1/3


def test_seat_win_shares_of_a_step_only_game_are_the_frames(example):
    rules = example.Rules(players=3, items=3)
    lineup = ["shading", "truthful", "random"]
    games, _ = example.simulate(rules, lineup, games=30, seed=4, progress=False, rounds=False)
    agents = [example.make_agent(name) for name in lineup]
    shares = example.SELF_PLAY.seat_win_shares(rules, agents, games=30, seed=4)
    assert shares.shape == (30, 3)
    assert np.array_equal(shares.ravel(), games.sort("game", "seat")["win_share"].to_numpy())


def test_the_search_models_the_reference_agent_unless_told_otherwise(example):
    made = example.make_agent("search")
    assert type(made.model).__name__ == "ExampleFittedAgent"  # the record's reference agent
    shading = example.make_agent("search", model=example.ShadingAgent(0.5))
    assert shading.rollout_agents(example.Rules())[0].factor == 0.5
    with pytest.raises(TypeError, match="needs the model it plays the other seats by"):
        example_game.search.ExampleSearchAgent(None)
