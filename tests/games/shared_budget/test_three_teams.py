"""Three teams' subgame-perfect equilibrium, checked against an independent brute force built
on the rules' own ``award`` and ``standings``: at every position any play reaches, no team
gains win share by any other bids of its own (its best response, by exhaustive search), and
the compiled table plays the solution's bids."""

from __future__ import annotations

import multiprocessing
from functools import cache, reduce
from operator import or_

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from workbench.games.shared_budget import (
    EquilibriumAgent,
    Rules,
    SharedBudgetFittedAgent,
    ThreeTeamSolution,
    award,
    estimate_three,
    priority_order,
    simulate,
    solve_three,
    standings,
    three_team_line,
)
from workbench.games.shared_budget.compiled import tables
from workbench.games.shared_budget.policies import SUBGAME_PERFECT, choose
from workbench.kit.streams import keyed_stream

Position = tuple[int, tuple[int, ...], tuple[int, ...]]  # round index, budgets, coverage masks


def after(rules: Rules, position: Position, bids: tuple[int, ...]) -> Position:
    """The position after a round with these bids: the winner pays and adds the card."""
    k, budgets, masks = position
    winner = award(bids, priority_order(rules, k))
    if winner is None:
        return k + 1, budgets, masks
    budgets = tuple(b - bids[winner] * (t == winner) for t, b in enumerate(budgets))
    masks = tuple(m | rules.card_masks()[k] * (t == winner) for t, m in enumerate(masks))
    return k + 1, budgets, masks


def brute_force(rules: Rules, solution: ThreeTeamSolution):
    """(on_table, best_response): each team's win shares when all follow the solution's bids,
    and team i's best win share when it alone picks any bids, by exhaustive search."""

    def end_shares(position: Position) -> tuple[float, ...]:
        _, budgets, masks = position
        scores = [bin(mask).count("1") for mask in masks]
        return standings(scores, budgets, rules.final_tiebreak)[2]

    @cache
    def on_table(position: Position) -> tuple[float, ...]:
        if position[0] == rules.rounds:
            return end_shares(position)
        return on_table(after(rules, position, solution.bids_at(*position)))

    @cache
    def best_response(team: int, position: Position) -> float:
        if position[0] == rules.rounds:
            return end_shares(position)[team]
        bids = list(solution.bids_at(*position))
        best = 0.0
        for bid in range(position[1][team] + 1):
            bids[team] = bid
            best = max(best, best_response(team, after(rules, position, tuple(bids))))
        return best

    return on_table, best_response


def reachable(rules: Rules) -> list[Position]:
    """Every position at the start of a round that some play reaches."""
    layer = {(0, (rules.budget,) * 3, (0, 0, 0))}
    found: list[Position] = []
    for _ in range(rules.rounds):
        found += sorted(layer)
        layer = {
            after(rules, position, bids)
            for position in layer
            for bids in np.ndindex(*(b + 1 for b in position[1]))
        }
    return found


@pytest.mark.parametrize("changes", [
    {"budget": 4},
    {"budget": 3, "tie_priority": "fixed", "final_tiebreak": "shared"},
    {"budget": 4, "first_priority": 2},
])  # fmt: skip
def test_no_team_gains_by_leaving_the_equilibrium_anywhere(changes):
    rules = Rules(teams=3, **changes)
    solution = solve_three(rules)
    on_table, best_response = brute_force(rules, solution)
    positions = reachable(rules)
    assert len(positions) > 500 and sorted(positions) == sorted(solution.reachable_positions())
    for position in positions:
        shares = on_table(position)
        assert solution.win_shares_at(*position) == pytest.approx(shares)
        for team in range(3):
            assert best_response(team, position) <= shares[team] + 1e-12, (position, team)
    assert solution.value == pytest.approx(on_table(positions[0]))


def test_the_rulebook_equilibrium_and_its_cost():
    """The rulebook's three teams (about 7 s on one core): A and C share the win and B loses
    (bids 14, 15, 15 for the Quiet corner)."""
    rules = Rules(teams=3)
    estimate = estimate_three(rules)
    assert estimate.layers == 492 and estimate.positions == 492 * 21**3
    solution = SharedBudgetFittedAgent().policy_for(rules).solution
    assert isinstance(solution, ThreeTeamSolution) and solution.rules == rules
    assert solution.value == (0.5, 0.0, 0.5)
    assert solution.bids_at(0, (20, 20, 20), (0, 0, 0)) == (14, 15, 15)


def test_the_compiled_table_plays_the_solution():
    """Every reachable position at budget 4, and 3,000 random ones of the rulebook's."""
    rng = np.random.default_rng(8)
    small = solve_three(Rules(teams=3, budget=4))
    rulebook = SharedBudgetFittedAgent().policy_for(Rules(teams=3)).solution
    random_positions = []
    for k in rng.integers(0, 6, 3000):
        owners = rng.integers(-1, 3, k)  # who took each earlier card (-1: nobody)
        taken = list(zip(rulebook.card_masks, owners, strict=False))
        masks = tuple(reduce(or_, [m for m, owner in taken if owner == t], 0) for t in range(3))
        random_positions.append((int(k), tuple(int(b) for b in rng.integers(0, 21, 3)), masks))
    for solution, positions in ((small, reachable(small.rules)), (rulebook, random_positions)):
        table, vector = tables(solution.rules), solution.policy_vector()
        for k, budgets, masks in positions:
            played = tuple(
                choose(SUBGAME_PERFECT, vector, seat, k, np.array(budgets), np.array(masks), 3,
                       table.priorities[k, 0], table.masks, table.later, table.prices,
                       table.full, False, keyed_stream(0, 1))
                for seat in range(3)
            )  # fmt: skip
            assert played == solution.bids_at(k, budgets, masks), (k, budgets, masks)


def test_both_engines_play_the_equilibrium_alike():
    rules = Rules(teams=3)
    equilibrium = SharedBudgetFittedAgent().policy_for(rules)
    lineup = [equilibrium, "coverage", equilibrium]
    fast = simulate(rules, lineup, games=60, seed=4, progress=False, engine="fast")
    step = simulate(rules, lineup, games=60, seed=4, progress=False, engine="step")
    for fast_frame, step_frame in zip(fast, step, strict=True):
        assert_frame_equal(fast_frame, step_frame)
    assert isinstance(equilibrium, EquilibriumAgent)


def test_bad_rules_are_refused_with_what_is_allowed():
    with pytest.raises(ValueError, match="exactly 3 teams, got teams=2"):
        solve_three(Rules())
    with pytest.raises(ValueError, match="variant='classroom'"):
        solve_three(Rules(teams=3, variant="classroom"))
    with pytest.raises(ValueError, match="above max_seconds=1"):
        solve_three(Rules(teams=3), max_seconds=1)


def test_the_line_of_play_follows_the_rules():
    """The rulebook's line (``three_team_line``): each round's winner pays its bid, and the
    budgets and coverage carried into the next round are what the engine leaves."""
    line = three_team_line(SharedBudgetFittedAgent().policy_for(Rules(teams=3)).solution)
    assert line["winner"].to_list() == ["B", "B", "C", "A", "C", "C"]
    assert line["price"].to_list() == [15, 1, 5, 15, 5, 5]
    assert line.select("bid_a", "bid_b", "bid_c").row(0) == (14, 15, 15)  # A, first, loses tie
    assert line.select("budget_a", "budget_b", "budget_c").row(-1) == (5, 4, 10)
    assert line["covers_b"][-1] == "welcome+rest" and line["covers_a"][-1] == "welcome+rest"
    with pytest.raises(TypeError, match="solve_three"):
        three_team_line(object())  # type: ignore[arg-type]


def _solved_value(budget: int) -> tuple[float, ...]:
    return solve_three(Rules(teams=3, budget=budget)).value


def test_a_forked_process_can_solve_after_its_parent_did():
    """The solve runs on one thread: a parallel one (GNU OpenMP) made every later fork() fatal,
    and fork is Linux's default start for ``multiprocessing``."""
    solve_three(Rules(teams=3, budget=3))
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_solved_value, (4,)).get(timeout=120) == _solved_value(4)
