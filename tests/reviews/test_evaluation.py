"""The review's evaluation (workbench.kit.evaluation): every action on the same fillings and
seeds, the paired loss interval, and an exact check against enumeration on a small game."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.kit.evaluation import Evaluator, evaluate_actions, paired_loss, win_chance
from workbench.kit.search import Searching
from workbench.kit.seeding import generator
from workbench.stats import proportion_interval

Z = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The Wilson score interval written out (the textbook formula, z for 95%)."""
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def test_paired_loss_by_hand():
    # Differences 1, 0, 0, -1: the best gained in one playout of four and lost in one. Each
    # part is 1/4 with Wilson interval (0.0456, 0.6994); MOVER: 0 -+ hypot(0.25 - l, u - 0.25).
    loss = paired_loss(np.array([1, 1, 0, 0.0]), np.array([0, 1, 0, 1.0]))
    low, high = wilson(1, 4)
    half = math.hypot(0.25 - low, high - 0.25)
    assert (round(low, 4), round(high, 4)) == (0.0456, 0.6994)
    assert loss.value == 0.0 and loss.n == 4
    assert loss.low == pytest.approx(-half) and loss.high == pytest.approx(half)


def test_identical_playouts_still_leave_an_interval():
    # 32 pairs that never disagree: a disagreement share up to z^2 / (n + z^2) = 0.1072 would go
    # unseen (the Wilson upper end at 0 of 32), so the loss is 0 +- 0.1072, not 0 for certain.
    shares = np.tile([1.0, 0.0], 16)
    loss = paired_loss(shares, shares)
    assert loss.value == 0.0
    assert loss.high == pytest.approx(Z * Z / (32 + Z * Z)) == pytest.approx(0.10718, abs=1e-5)
    assert loss.low == pytest.approx(-loss.high)


def test_win_chance_is_the_wilson_interval_of_the_shares():
    shares = np.array([1, 0.5, 0, 0, 1, 1 / 3, 0, 0, 0, 1.0])
    estimate = win_chance(shares)
    assert estimate.value == pytest.approx(shares.mean()) and estimate.n == 10
    assert (estimate.low, estimate.high) == pytest.approx(proportion_interval(shares.sum(), 10))
    assert (estimate.low, estimate.high) == pytest.approx(wilson(shares.sum(), 10))


def test_paired_loss_covers_the_true_loss():
    # Pairs where the best wins alone 10% of the time and the taken 5%: a true loss of 0.05.
    rng = generator(11)
    covered, runs, n = 0, 2000, 64
    for _ in range(runs):
        u = rng.random(n)
        best = np.where(u < 0.10, 1.0, np.where(u < 0.15, 0.0, (u < 0.55).astype(float)))
        taken = np.where(u < 0.10, 0.0, np.where(u < 0.15, 1.0, best))
        loss = paired_loss(best, taken)
        covered += loss.low <= 0.05 <= loss.high
    assert covered / runs >= 0.94


@given(st.lists(st.tuples(st.sampled_from([0, 1 / 3, 0.5, 1]), st.sampled_from([0, 0.5, 1])),
                min_size=1, max_size=60))  # fmt: skip
def test_the_loss_lies_in_its_interval(pairs):
    best, taken = (np.array(column, dtype=float) for column in zip(*pairs, strict=True))
    loss = paired_loss(best, taken)
    assert -1 <= loss.low <= loss.value <= loss.high <= 1
    assert loss.value == pytest.approx(best.mean() - taken.mean())


def test_paired_loss_refuses_what_is_not_a_pair_of_win_shares():
    with pytest.raises(ValueError, match="same playouts"):
        paired_loss(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="between 0 and 1"):
        paired_loss(np.array([2.0, 0.0]), np.zeros(2))


# -- the example game: common random numbers, and the exact values by enumeration -----------


def _evaluator(example, rules):
    """The evaluation of a search whose playouts play the shading agent (value // 2 with two
    seats) at every seat."""
    search = example.make_agent("search", rules, model=example.ShadingAgent())
    return Evaluator.from_search(search, rules)


def test_evaluation_is_seeded_and_shares_fillings(example):
    rules = example.Rules(players=3, items=2)
    state = example.new_game(rules, seed=4)
    evaluator = _evaluator(example, rules)
    observation = state.observation(0)
    legal = list(state.legal_actions())
    first = evaluate_actions(evaluator, observation, [*legal, legal[3]], fillings=24,
                             rng=generator(1))  # fmt: skip
    again = evaluate_actions(evaluator, observation, [*legal, legal[3]], fillings=24,
                             rng=generator(1))  # fmt: skip
    assert first.shape == (len(legal) + 1, 24, 3)
    np.testing.assert_array_equal(first, again)
    # the same action twice: the same fillings and seeds give the very same playouts
    np.testing.assert_array_equal(first[3], first[-1])
    np.testing.assert_allclose(first.sum(axis=2), 1.0)  # win shares of a finished game


def test_evaluation_matches_exact_enumeration(example):
    # One item, two seats, budget 3, values 1..3: seat 0 bids first; seat 1's value is hidden
    # (three equally likely), and it plays the shading agent, bidding value // 2. By hand, seat
    # 0 (value v0) bidding b wins the item when b > bid1, or b == bid1 > 0 (the tie goes to seat
    # 0 in round 1): then it scores v0 + 3 - b against 3; else 3 against v1 + 3 - bid1 (no sale
    # when both bid 0: 3 each, a shared win).
    rules = example.Rules(players=2, items=1, budget=3, max_value=3)
    state = example.new_game(rules, seed=0)
    v0 = state.values[0][0]
    exact = {}
    for bid in range(4):
        shares = []
        for v1 in (1, 2, 3):
            bid1 = v1 // 2
            if bid > bid1 or (bid == bid1 > 0):
                mine, theirs = v0 + 3 - bid, 3
            elif bid1 > 0:
                mine, theirs = 3, v1 + 3 - bid1
            else:
                mine, theirs = 3, 3
            shares.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
        exact[bid] = sum(shares) / 3
    values = evaluate_actions(_evaluator(example, rules), state.observation(0), [0, 1, 2, 3],
                              fillings=3000, rng=generator(5))[:, :, 0]  # fmt: skip
    for bid, row in enumerate(values):
        estimate = win_chance(row)
        standard_error = max(math.sqrt(exact[bid] * (1 - exact[bid]) / row.size), 1e-9)
        assert abs(estimate.value - exact[bid]) < 4 * standard_error + 1e-12, (bid, exact)


def test_an_action_the_playouts_refuse_is_left_unvalued(example):
    rules = example.Rules(players=3, items=2)
    state = example.new_game(rules, seed=4)
    search = example.make_agent("search", rules)

    def refusing(states, agents, *, playouts, seed):
        if any(s.sealed[0] == 1 for s in states):
            raise ValueError("the playouts cannot go on from here")
        return search.searching.play_from(states, agents, playouts=playouts, seed=seed)

    searching = replace(search.searching, play_from=refusing)
    evaluator = Evaluator(searching, tuple(search.rollout_agents(rules)), search)
    values = evaluate_actions(evaluator, state.observation(0), [0, 1, 2], fillings=8,
                              rng=generator(2))  # fmt: skip
    assert np.isnan(values[1]).all() and not np.isnan(values[[0, 2]]).any()


def test_an_evaluator_needs_a_search_agent(example):
    rules = example.Rules()
    with pytest.raises(TypeError, match="search agent"):
        Evaluator.from_search(example.make_agent("shading", rules), rules)
    with pytest.raises(ValueError, match="at least one action"):
        evaluate_actions(_evaluator(example, rules), example.new_game(rules, seed=0)
                         .observation(0), [], fillings=4, rng=generator(0))  # fmt: skip


def test_the_example_searching_is_the_kit_contract(example):
    # The evaluation reads only the Searching fields: the example game's are the plain ones.
    searching = example.make_agent("search", example.Rules()).searching
    assert isinstance(searching, Searching) and searching.candidates is None
