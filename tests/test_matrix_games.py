"""workbench.matrix_games against hand-solved games, and its invariants on random games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.matrix_games import (
    pure_saddle_point,
    security_levels,
    solve_matrix_game,
    strategy_guarantees,
)

# (payoffs, value, row strategy, column strategy, method): solved by hand.
HAND_SOLVED = [
    # Matching pennies: value 0, both mix 1/2-1/2.
    ([[1, -1], [-1, 1]], 0.0, [0.5, 0.5], [0.5, 0.5], "lp"),
    # 2x2 with no saddle: value (ad - bc)/(a + d - b - c) = (3 - 2)/7; row plays
    # (d - c)/7 = 3/7 on its first row, column (d - b)/7 = 2/7 on its first column.
    ([[3, -1], [-2, 1]], 1 / 7, [3 / 7, 4 / 7], [2 / 7, 5 / 7], "lp"),
    # Diagonal game diag(1, 2, 3): value 1/(1 + 1/2 + 1/3) = 6/11; both play in proportion
    # to 1/d_i: (6, 3, 2)/11 (Ferguson, Game Theory, part II, section 3.5).
    (
        [[1, 0, 0], [0, 2, 0], [0, 0, 3]],
        6 / 11,
        [6 / 11, 3 / 11, 2 / 11],
        [6 / 11, 3 / 11, 2 / 11],
        "lp",
    ),
    # Rock-paper-scissors: value 0, uniform play.
    ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], 0.0, [1 / 3] * 3, [1 / 3] * 3, "lp"),
    # Saddle point at (0, 0): row minima (1, 0), column maxima (1, 3).
    ([[1, 2], [0, 3]], 1.0, [1, 0], [1, 0], "saddle"),
    # 3x3 saddle in the middle: row 1's minimum 4 equals column 1's maximum 4.
    ([[1, 2, 9], [5, 4, 6], [7, 3, 0]], 4.0, [0, 1, 0], [0, 1, 0], "saddle"),
]


@pytest.mark.parametrize(("payoffs", "value", "rows", "columns", "method"), HAND_SOLVED)
def test_hand_solved_games(payoffs, value, rows, columns, method):
    solution = solve_matrix_game(payoffs)
    assert solution.value == pytest.approx(value, abs=1e-9)
    np.testing.assert_allclose(solution.row_strategy, rows, atol=1e-9)
    np.testing.assert_allclose(solution.column_strategy, columns, atol=1e-9)
    assert solution.method == method


@pytest.mark.parametrize(("payoffs", "value", "rows", "columns", "method"), HAND_SOLVED)
def test_lp_agrees_on_saddle_games(payoffs, value, rows, columns, method):
    solution = solve_matrix_game(payoffs, check_saddle=False)
    assert solution.value == pytest.approx(value, abs=1e-9)
    assert solution.method == "lp"


def test_pure_saddle_point_and_security_levels():
    assert pure_saddle_point([[1, -1], [-1, 1]]) is None
    assert security_levels([[1, -1], [-1, 1]]) == (-1.0, 1.0)
    assert pure_saddle_point([[1, 2, 9], [5, 4, 6], [7, 3, 0]]) == (1, 1)


def test_lp_value_is_not_negative_zero():
    solution = solve_matrix_game([[1, -1], [-1, 1]])
    assert str(solution.value) == "0.0"


@pytest.mark.parametrize(
    ("payoffs", "message"),
    [
        ([], "non-empty 2-D"),
        ([1, 2], "non-empty 2-D"),
        ([[1, float("nan")]], "finite"),
        ([["a", "b"]], "numbers"),
    ],
)
def test_bad_payoffs_raise_value_error(payoffs, message):
    with pytest.raises(ValueError, match=message):
        solve_matrix_game(payoffs)


def test_strategy_guarantees_checks_lengths():
    with pytest.raises(ValueError, match="lengths"):
        strategy_guarantees([[1, 0], [0, 1]], [1.0], [0.5, 0.5])


matrices = st.integers(1, 5).flatmap(
    lambda rows: st.integers(1, 5).flatmap(
        lambda cols: st.lists(
            st.lists(st.integers(-5, 5), min_size=cols, max_size=cols),
            min_size=rows,
            max_size=rows,
        )
    )
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(matrices)
def test_solutions_are_optimal_distributions(payoffs):
    solution = solve_matrix_game(payoffs)
    for strategy in (solution.row_strategy, solution.column_strategy):
        assert np.all(strategy >= 0)
        assert strategy.sum() == pytest.approx(1.0)
    lower, upper = security_levels(payoffs)
    assert lower - 1e-9 <= solution.value <= upper + 1e-9
    secured, conceded = strategy_guarantees(
        payoffs, solution.row_strategy, solution.column_strategy
    )
    assert secured == pytest.approx(solution.value, abs=1e-7)
    assert conceded == pytest.approx(solution.value, abs=1e-7)
    assert solve_matrix_game(payoffs, check_saddle=False).value == pytest.approx(
        solution.value, abs=1e-7
    )
