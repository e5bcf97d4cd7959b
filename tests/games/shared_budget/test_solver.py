"""The exact solver against an independent brute force on tiny rules.

The brute force shares nothing with the solver but the engine: it plays every bid pair through
``State.apply``, scores the end with ``State.result``, and solves each stage game exactly in
rational arithmetic by enumerating supports (every square subsystem of the row player's
indifference equations), so it checks the solver's canonical keys, vectorised stage games,
saddle-point shortcut and LP fallback at once.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games.shared_budget import (
    Rules,
    estimate_solve,
    expected_outcome,
    new_game,
    solve,
)
from workbench.games.shared_budget.agents import EquilibriumAgent
from workbench.matrix_games import solve_matrix_game, strategy_guarantees


def _solve_linear(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gaussian elimination over the rationals; None when the system is singular."""
    n = len(matrix)
    rows = [[*row, value] for row, value in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def exact_value(payoffs: list[list[Fraction]]) -> Fraction:
    """Value of a zero-sum matrix game by support enumeration: the best guarantee over every
    row strategy that makes the column player indifferent on some equal-size support (the
    vertices of the maximin polytope)."""
    m, n = len(payoffs), len(payoffs[0])
    best = max(min(row) for row in payoffs)  # pure rows
    for size in range(2, min(m, n) + 1):
        for rows in itertools.combinations(range(m), size):
            for cols in itertools.combinations(range(n), size):
                # unknowns x_rows and v: sum_i x_i M[i][j] - v = 0 (j in cols), sum x_i = 1
                system = [[payoffs[i][j] for i in rows] + [Fraction(-1)] for j in cols]
                system.append([Fraction(1)] * size + [Fraction(0)])
                solution = _solve_linear(system, [Fraction(0)] * size + [Fraction(1)])
                if solution is None or any(x < 0 for x in solution[:size]):
                    continue
                guarantee = min(
                    sum(x * payoffs[i][j] for x, i in zip(solution[:size], rows, strict=True))
                    for j in range(n)
                )
                best = max(best, guarantee)
    return best


def brute_force(rules: Rules, objective: str = "win"):
    """Exact value (Fraction) and stage matrix of every position reached from the opening,
    keyed by (round index, budgets, coverage masks), computed through the engine."""
    values: dict[tuple, Fraction] = {}
    matrices: dict[tuple, list[list[Fraction]]] = {}

    def value(state) -> Fraction:
        if state.is_over:
            result = state.result()
            if objective == "win":
                return Fraction(result.shares[0])
            return Fraction(result.scores[0] - result.scores[1])
        key = (state.round_index, state.budgets, state.coverage)
        if key not in values:
            matrix = []
            for x in state.legal_actions():
                after_a = state.apply(x)
                matrix.append([value(after_a.apply(y)) for y in after_a.legal_actions()])
            matrices[key] = matrix
            values[key] = exact_value(matrix)
        return values[key]

    root = value(new_game(rules, seed=0))
    return root, values, matrices


def tiny(budget: int, functions: list[str], **options) -> Rules:
    cards = [(f"card {i + 1}", f) for i, f in enumerate(functions)]
    return Rules(budget=budget, cards=cards, **options)


# Tiny rules, table-driven: (rules, objective).
TINY_CASES = [
    (tiny(3, ["rest", "welcome"]), "win"),
    (tiny(3, ["rest+welcome", "welcome+explore"]), "win"),
    (tiny(3, ["rest", "rest"]), "win"),
    (tiny(3, ["rest", "welcome"]), "score"),
    (tiny(3, ["rest", "welcome"], first_priority=1), "win"),
    (tiny(3, ["rest", "welcome"], tie_priority="fixed"), "win"),
    (tiny(3, ["rest", "welcome"], final_tiebreak="shared"), "win"),
    (tiny(2, ["rest", "welcome", "rest+explore"]), "win"),
    (tiny(2, ["rest", "welcome", "rest+explore"]), "score"),
    (tiny(4, ["explore", "welcome+rest"]), "win"),
]


@pytest.mark.parametrize(("rules", "objective"), TINY_CASES)
def test_solver_matches_brute_force_at_every_reached_position(rules, objective):
    root, values, matrices = brute_force(rules, objective)
    solution = solve(rules, objective)
    assert solution.value == pytest.approx(float(root), abs=1e-9)
    for (k, budgets, coverage), exact in values.items():
        assert solution.position_value(k, budgets, coverage) == pytest.approx(
            float(exact), abs=1e-9
        )
        # the solution's strategies are optimal in the brute force's own stage game
        stage = solution.stage(k + 1, budgets, tuple(rules.names(m) for m in coverage))
        payoffs = np.array(matrices[(k, budgets, coverage)], dtype=float)
        np.testing.assert_allclose(stage.payoffs, payoffs, atol=1e-9)
        secured, conceded = strategy_guarantees(payoffs, *stage.strategies)
        assert secured == pytest.approx(float(exact), abs=1e-9)
        assert conceded == pytest.approx(float(exact), abs=1e-9)


@pytest.mark.parametrize(("rules", "objective"), TINY_CASES[:4])
def test_lp_for_every_stage_game_agrees(rules, objective):
    auto = solve(rules, objective)
    lp = solve(rules, objective, method="lp")
    assert lp.stage_games_saddle == 0 and lp.stage_games_lp > 0
    for position in auto.reachable_positions():
        k, a, b, mask_a, mask_b = position
        assert lp.position_value(k, (a, b), (mask_a, mask_b)) == pytest.approx(
            auto.position_value(k, (a, b), (mask_a, mask_b)), abs=1e-7
        )


def test_reachable_positions_are_exactly_the_brute_force_ones():
    rules = tiny(3, ["rest", "welcome", "explore"])
    _, values, _ = brute_force(rules)
    reached = {(k, (a, b), (ma, mb)) for k, a, b, ma, mb in solve(rules).reachable_positions()}
    assert reached == set(values)


card_functions = st.sampled_from(
    ["rest", "welcome", "explore", "rest+welcome", "welcome+explore", "rest+explore", ""]
)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    budget=st.integers(1, 3),
    functions=st.lists(card_functions, min_size=1, max_size=3),
    objective=st.sampled_from(["win", "score"]),
    first=st.integers(0, 1),
)
def test_random_tiny_rules_match_brute_force(budget, functions, objective, first):
    rules = tiny(budget, functions, first_priority=first)
    root, _, _ = brute_force(rules, objective)
    solution = solve(rules, objective)
    assert solution.value == pytest.approx(float(root), abs=1e-9)
    for k, a, b, mask_a, mask_b in solution.reachable_positions():
        bids_a, bids_b = solution.strategy(k, (a, b), (mask_a, mask_b))
        for distribution, budget_left in ((bids_a, a), (bids_b, b)):
            assert sum(distribution.values()) == pytest.approx(1.0)
            assert all(0 <= bid <= budget_left and p > 0 for bid, p in distribution.items())
        value = solution.position_value(k, (a, b), (mask_a, mask_b))
        if objective == "win":
            assert 0.0 <= value <= 1.0
        else:
            assert -3.0 <= value <= 3.0


def test_default_game_value_and_stage_game():
    solution = solve()
    assert solution.value == 0.5  # a shared result under best play (values are exact halves)
    assert solve(objective="score").value == 0.0
    stage = solution.stage()
    assert stage.payoffs.shape == (21, 21)
    assert stage.card == "Quiet corner" and stage.priority == (0, 1)
    # the stage game, re-solved from its payoffs alone, has the same value
    assert solve_matrix_game(stage.payoffs).value == stage.value == 0.5
    assert stage.bid_distribution(0) == {6: 1.0}
    assert 6 in stage.optimal_bids[0]


def test_values_embed_every_smaller_budget():
    # A game with budget b is the budget-20 game started from budgets (b, b): solving the
    # small game separately must give the big solution's value there.
    big = solve().values(1)
    for budget in (1, 2, 3, 5, 8, 13):
        small = solve(dataclasses.replace(Rules(), budget=budget))
        assert small.value == big[budget, budget]


def test_equilibrium_play_realises_the_value_exactly():
    for budget in (4, 7, 20):
        rules = Rules(budget=budget)
        solution = solve(rules)
        agent = EquilibriumAgent(solution)
        outcome = expected_outcome(rules, [agent, agent])
        assert outcome["win_share"][0] == pytest.approx(solution.value, abs=1e-12)


@pytest.mark.parametrize(
    ("budget", "cards"),
    [(3, ["rest", "welcome", "explore"]), (4, ["rest+welcome", "explore", "welcome"])],
)
def test_no_pure_reply_beats_the_equilibrium(budget, cards):
    """Best responses against each equilibrium strategy, by an independent backward
    induction through the engine, reach exactly the game's value: nobody can do better."""
    rules = tiny(budget, cards)
    solution = solve(rules)

    def best_reply(state, seat):  # the replying seat's best expected share vs equilibrium
        if state.is_over:
            return state.result().shares[seat]
        k, budgets, coverage = state.round_index, state.budgets, state.coverage
        fixed = solution.strategy(k, budgets, coverage)[1 - seat]
        best = 0.0
        for reply in range(budgets[seat] + 1):
            total = 0.0
            for bid, p in fixed.items():
                bids = (reply, bid) if seat == 0 else (bid, reply)
                total += p * best_reply(state.apply(bids[0]).apply(bids[1]), seat)
            best = max(best, total)
        return best

    start = new_game(rules, seed=0)
    assert best_reply(start, 0) == pytest.approx(solution.value, abs=1e-12)
    assert best_reply(start, 1) == pytest.approx(1 - solution.value, abs=1e-12)


@pytest.mark.parametrize(
    ("rules", "objective", "message"),
    [
        (Rules(teams=3), "win", "general-sum"),
        (Rules(teams=4), "win", "simulate"),
        (Rules(variant="classroom"), "win", "classroom_plans"),
        (Rules(), "money", "objective"),
    ],
)
def test_solve_rejects_what_it_cannot_solve(rules, objective, message):
    with pytest.raises(ValueError, match=message):
        solve(rules, objective)


REPEATED = [("x", "rest"), ("y", "rest+welcome"), ("z", "explore")]


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(budget=7, tie_priority="fixed"),
        Rules(budget=5, cards=[(f"{n}{i}", f) for i in (1, 2) for n, f in REPEATED]),
        Rules(budget=4, functions=("a", "b", "c", "d", "e"), cards=[("p", "a+b"), ("q", "c")]),
    ],
    ids=["rulebook", "fixed priority", "repeated cards", "five functions"],
)
def test_the_estimate_counts_exactly_the_layers_the_solve_visits(rules):
    estimate = estimate_solve(rules)
    solution = solve(rules)
    assert estimate.layers == solution.stage_layers
    assert estimate.stage_games == estimate.layers * (rules.budget + 1) ** 2
    assert solution.stage_games_saddle + solution.stage_games_lp == estimate.stage_games


def test_the_rulebook_game_has_124_stage_layers():
    # Six cards, three functions. Rounds 1-4: each card goes to A, B or nobody and every
    # function is still on offer later, so 1, 3, 9, 27 coverage keys (by hand); rounds 5 and
    # 6, with "rest" settled into the lead, 36 and 48 (the solver's count): 124 layers of
    # 21 x 21 budget pairs.
    estimate = estimate_solve()
    assert (estimate.layers, estimate.stage_games) == (124, 124 * 441)
    assert estimate.fits and estimate.seconds < estimate.max_seconds


def test_solve_refuses_long_solves_with_the_estimate_and_what_fits():
    rules = Rules(budget=400)
    estimate = estimate_solve(rules)
    assert not estimate.fits and 1 <= estimate.largest_budget < 400
    fitting = estimate_solve(dataclasses.replace(rules, budget=estimate.largest_budget))
    beyond = estimate_solve(dataclasses.replace(rules, budget=estimate.largest_budget + 1))
    assert fitting.fits and not beyond.fits
    with pytest.raises(ValueError) as error:
        solve(rules)
    message = str(error.value)
    assert "solve would take too long: 124 (round, coverage) layers x 160,801 budget" in message
    assert f"budget={estimate.largest_budget} or less fits for these cards" in message
    assert "max_seconds=60" in message and "simulate" in message


def test_a_tiny_time_limit_refuses_even_the_smallest_budget():
    with pytest.raises(ValueError, match=r"more than 1 \(round, coverage\) layers.*no budget fits"):
        solve(Rules(budget=1), max_seconds=1e-9)
    with pytest.raises(TypeError, match="max_seconds must be a positive number"):
        solve(max_seconds="60")
    with pytest.raises(ValueError, match="max_seconds must be a positive number"):
        solve(max_seconds=0)


def test_progress_bar_when_asked_and_the_same_solution(capsys):
    quiet = solve(Rules(budget=6), progress=False)
    shown = solve(Rules(budget=6), progress=True)
    assert shown.value == quiet.value and shown.layers == quiet.layers
    assert "shared_budget solve" in capsys.readouterr().err
    with pytest.raises(TypeError, match="progress must be True, False or None"):
        solve(progress="yes")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"round": 0}, "round must be an int from 1 to 6"),
        ({"budgets": (21, 3)}, "budgets must be two ints"),
        ({"coverage": (("sleep",), ())}, "unknown functions"),
    ],
)
def test_stage_queries_reject_bad_positions(kwargs, message):
    with pytest.raises(ValueError, match=message):
        solve(Rules(budget=20)).stage(**kwargs)


def test_brute_force_matrix_solver_on_hand_solved_games():
    # the brute force's own check: matching pennies 0, diag(1, 2, 3) 6/11 (see test_matrix_games)
    half = [[Fraction(1), Fraction(-1)], [Fraction(-1), Fraction(1)]]
    assert exact_value(half) == 0
    diagonal = [[Fraction(int(i == j) * (i + 1)) for j in range(3)] for i in range(3)]
    assert exact_value(diagonal) == Fraction(6, 11)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(
    budget=st.integers(1, 8),
    functions=st.lists(card_functions, min_size=1, max_size=4),
    objective=st.sampled_from(["win", "score"]),
)
def test_more_budget_never_hurts(budget, functions, objective):
    """A credit more can only help its holder: every value array rises with A's budget and
    falls with B's (A can always bid as if it had less)."""
    rules = tiny(budget, functions)
    solution = solve(rules, objective)
    subsets = [(), ("rest",), ("welcome", "explore"), ("welcome", "rest", "explore")]
    for round_number in range(1, rules.rounds + 2):
        for coverage in itertools.product(subsets, repeat=2):
            values = solution.values(round_number, coverage)
            assert (np.diff(values, axis=0) >= -1e-12).all()
            assert (np.diff(values, axis=1) <= 1e-12).all()
