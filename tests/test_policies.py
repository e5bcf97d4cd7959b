"""The kit's compiled-policy interface: policy tables, and mixed strategies drawn per game."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy.stats import binomtest

from workbench.kit.policies import CompiledPolicy, Mixture, policy_table, resolve_mixtures
from workbench.kit.seeding import seed_sequence


class _Compiled:
    def __init__(self, kind, *parameters):
        self.policy = CompiledPolicy(kind, parameters)
        self.name = f"kind {kind}"

    def compiled_policy(self):
        return self.policy


def test_a_table_has_one_row_per_distinct_policy_and_a_fixed_seat_plays_its_own():
    a, b = _Compiled(1, 0.5), _Compiled(2, 1.0, 2.0)
    table = policy_table([a, b, a, _Compiled(1, 0.5)])
    assert table.kinds.tolist() == [1, 2] and table.parameters.tolist() == [[0.5, 0], [1, 2]]
    assert table.seats.tolist() == [0, 1, 0, 0] and not table.mixed
    assert table.assignment(3).tolist() == [[0, 1, 0, 0]] * 3  # no rng needed, none drawn
    with pytest.raises(TypeError, match="step by step only"):
        policy_table([a, object()])
    with pytest.raises(TypeError, match=r"plays agent objects, got the names \['random'\]"):
        policy_table([a, "random"])


def test_a_large_table_given_as_an_array_is_one_row_however_often_seated():
    """A solved equilibrium's table comes as an array: equal arrays (the same one, or a copy)
    are one row, a tuple of the same values too, and the row holds the array's values."""
    table = np.arange(5.0)
    a, copy = _Compiled(3), _Compiled(3)
    a.policy, copy.policy = CompiledPolicy(3, table), CompiledPolicy(3, table.copy())
    same_values = _Compiled(3, 0.0, 1.0, 2.0, 3.0, 4.0)
    built = policy_table([a, copy, same_values, _Compiled(1, 0.5)])
    assert built.seats.tolist() == [0, 0, 0, 1]
    assert built.parameters.tolist() == [[0, 1, 2, 3, 4], [0.5, 0, 0, 0, 0]]
    assert not CompiledPolicy(3, table).same_as(CompiledPolicy(3, table[:4]))
    assert not CompiledPolicy(3, table).same_as(CompiledPolicy(4, table))


def test_a_mixed_seat_draws_its_row_per_game_as_the_step_engine_draws_its_component():
    a, b, c = _Compiled(1), _Compiled(2), _Compiled(3)
    mixed = Mixture([a, b], [1, 3])
    table = policy_table([mixed, c])
    assert table.mixed and table.choices == (((0, 1), (0.25, 0.75)), ((2,), (1.0,)))
    run = seed_sequence(7)
    rows = table.assignment(4000, run)
    assert (rows[:, 1] == 2).all() and set(rows[:, 0]) == {0, 1}
    assert binomtest(int((rows[:, 0] == 1).sum()), 4000, 0.75).pvalue > 0.001
    assert (table.assignment(10, run, first=100) == rows[100:110]).all()  # a later batch
    for game in range(40):  # the step engine's game (run, g) seats the same component
        seated = resolve_mixtures([mixed, c], seed_sequence(7, game))
        assert seated == [(a, b)[rows[game, 0]], c]
    playouts = table.playout_assignment(3, 5, 11)  # row i * 5 + p: game p of the run (11, i)
    assert (playouts[5:10] == table.assignment(5, seed_sequence(11, 1))).all()
    with pytest.raises(ValueError, match="pass the run's seed"):
        table.assignment(2)


def test_a_mixture_is_checked_and_draws_by_its_weights_cdf():
    mixed = Mixture(["x", "y", "z"], [2, 0, 2])
    assert mixed.weights == (0.5, 0.0, 0.5)
    assert [mixed.draw(u) for u in (0.0, 0.49, 0.5, 0.999)] == [0, 0, 2, 2]
    for components, weights in (([], []), (["x"], [1, 2]), (["x", "y"], [-1, 2]),
                                (["x"], [0]), (["x"], [np.nan])):  # fmt: skip
        with pytest.raises(ValueError, match="mixture"):
            Mixture(components, weights)
    with pytest.raises(TypeError, match="plays one component per game"):
        mixed(None, [], None)


def test_self_play_seats_a_mixed_agents_component_afresh_each_game(example):
    # Component 0 bids nothing (factor 0), component 1 its value: a game's bids tell which.
    never, always = example.ShadingAgent(0.0), example.ShadingAgent(1.0)
    lineup = [Mixture([never, always], [0.3, 0.7]), "truthful", "truthful"]
    games, rounds = example.simulate(example.Rules(budget=100), lineup, games=400, seed=3,
                                     progress=False)  # fmt: skip
    bids = rounds.filter(pl.col("seat") == 0).group_by("game").agg(pl.col("bid").sum())
    silent = int((bids["bid"] == 0).sum())
    assert binomtest(silent, 400, 0.3).pvalue > 0.001
    again, _ = example.simulate(example.Rules(budget=100), lineup, games=400, seed=3,
                                progress=False)  # fmt: skip
    assert again.equals(games) and set(games["agent"]) == {"mixture", "truthful"}
    # one component, weight 1: the same games as that agent seated directly
    alone, _ = example.simulate(None, [Mixture([always], [1]), "random", "random"], games=20,
                                seed=4, progress=False)  # fmt: skip
    direct, _ = example.simulate(None, [always, "random", "random"], games=20, seed=4,
                                 progress=False)  # fmt: skip
    assert alone.drop("agent").equals(direct.drop("agent"))


def test_a_mixtures_exact_distribution_is_its_components_weighted():
    class Exact:
        def __init__(self, probabilities):
            self.probabilities = probabilities

        def action_probabilities(self, observation, legal_actions):
            return self.probabilities

    mixed = Mixture([Exact({"a": 1.0}), Exact({"a": 0.5, "b": 0.5})], [0.25, 0.75])
    assert mixed.action_probabilities(None, ["a", "b"]) == {"a": 0.625, "b": 0.375}
