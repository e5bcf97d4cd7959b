"""Two-player zero-sum matrix games: value and optimal mixed strategies.

The row player maximises, the column player minimises ``payoffs[row, column]``. A pure saddle
point is looked for first (cheap); otherwise the row player's maximin linear programme is solved
with ``scipy.optimize.linprog`` (HiGHS), and the column player's strategy is read from its dual.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

#: Payoff differences below this are treated as equal (saddle checks, guarantees).
TOLERANCE = 1e-9


@dataclass(frozen=True)
class MatrixGameSolution:
    """Value of a zero-sum matrix game and one optimal strategy for each player.

    ``saddle_point`` is the (row, column) of the pure saddle point used, or None when the
    strategies came from the linear programme.
    """

    value: float
    row_strategy: np.ndarray
    column_strategy: np.ndarray
    saddle_point: tuple[int, int] | None

    @property
    def method(self) -> str:
        """'saddle' (a pure saddle point) or 'lp' (linear programme)."""
        return "lp" if self.saddle_point is None else "saddle"


def as_payoff_matrix(payoffs: object) -> np.ndarray:
    """``payoffs`` as a non-empty 2-D float array of finite numbers, or a clear ValueError."""
    try:
        matrix = np.asarray(payoffs, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"payoffs must be a 2-D array of numbers: {exc}") from None
    if matrix.ndim != 2 or matrix.size == 0:
        raise ValueError(
            f"payoffs must be a non-empty 2-D array (rows x columns), got shape {matrix.shape}"
        )
    if not np.all(np.isfinite(matrix)):
        raise ValueError("payoffs must be finite numbers (no NaN or infinity)")
    return matrix


def security_levels(payoffs: object) -> tuple[float, float]:
    """(maximin over pure rows, minimax over pure columns): equal iff a pure saddle point exists."""
    matrix = as_payoff_matrix(payoffs)
    return float(matrix.min(axis=1).max()), float(matrix.max(axis=0).min())


def pure_saddle_point(payoffs: object) -> tuple[int, int] | None:
    """(row, column) of a pure saddle point (lowest indices), or None when there is none."""
    matrix = as_payoff_matrix(payoffs)
    row_minima = matrix.min(axis=1)
    column_maxima = matrix.max(axis=0)
    lower, upper = row_minima.max(), column_maxima.min()
    if upper - lower > TOLERANCE:
        return None
    row = int(np.flatnonzero(row_minima >= lower - TOLERANCE)[0])
    column = int(np.flatnonzero(column_maxima <= upper + TOLERANCE)[0])
    return row, column


def solve_matrix_game(payoffs: object, *, check_saddle: bool = True) -> MatrixGameSolution:
    """Value and optimal strategies of the zero-sum game ``payoffs`` (row maximises).

    With ``check_saddle`` (default) a pure saddle point is returned when one exists; otherwise,
    or with ``check_saddle=False``, the maximin linear programme is solved.
    """
    matrix = as_payoff_matrix(payoffs)
    rows, columns = matrix.shape
    if check_saddle:
        saddle = pure_saddle_point(matrix)
        if saddle is not None:
            row_strategy = np.zeros(rows)
            column_strategy = np.zeros(columns)
            row_strategy[saddle[0]] = 1.0
            column_strategy[saddle[1]] = 1.0
            return MatrixGameSolution(float(matrix[saddle]), row_strategy, column_strategy, saddle)
    # Variables: x (row strategy, >= 0) and v (free). Maximise v subject to, for every column j,
    # v - sum_i x_i M[i, j] <= 0 and sum_i x_i = 1. The duals of the column constraints are the
    # column player's optimal strategy.
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    inequalities = np.hstack([-matrix.T, np.ones((columns, 1))])
    equality = np.ones((1, rows + 1))
    equality[0, -1] = 0.0
    result = linprog(
        objective,
        A_ub=inequalities,
        b_ub=np.zeros(columns),
        A_eq=equality,
        b_eq=[1.0],
        bounds=[(0, None)] * rows + [(None, None)],
        method="highs",
    )
    if result.status != 0:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"linprog failed on a {rows}x{columns} game: {result.message}")
    row_strategy = _normalised(result.x[:rows])
    column_strategy = _normalised(-np.asarray(result.ineqlin.marginals))
    value = float(-result.fun) + 0.0  # + 0.0 turns -0.0 into 0.0
    return MatrixGameSolution(value, row_strategy, column_strategy, None)


def strategy_guarantees(
    payoffs: object, row_strategy: object, column_strategy: object
) -> tuple[float, float]:
    """(least the row strategy secures, most the column strategy concedes): both equal the
    value exactly when the two strategies are optimal."""
    matrix = as_payoff_matrix(payoffs)
    rows = np.asarray(row_strategy, dtype=float)
    columns = np.asarray(column_strategy, dtype=float)
    if rows.shape != (matrix.shape[0],) or columns.shape != (matrix.shape[1],):
        raise ValueError(
            f"strategies must have lengths {matrix.shape}, got {rows.shape} and {columns.shape}"
        )
    return float((rows @ matrix).min()), float((matrix @ columns).max())


def _normalised(weights: np.ndarray) -> np.ndarray:
    """Clip the LP's round-off (tiny negatives) and rescale to a probability vector."""
    clipped = np.where(weights > TOLERANCE, weights, 0.0)
    return clipped / clipped.sum()
