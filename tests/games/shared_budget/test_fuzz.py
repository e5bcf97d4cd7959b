"""Arbitrary Python values thrown at the public API: every call works or raises ValueError,
TypeError or IllegalAction with a message (never another exception), and a refused move
leaves the state unchanged."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games.shared_budget import (
    CoverageHeuristic,
    EquilibriumAgent,
    RandomAgent,
    Rules,
    award,
    classroom_plans,
    equilibrium_bids,
    equilibrium_path,
    estimate_solve,
    expected_outcome,
    make_agent,
    new_game,
    priority_order,
    purchase_effects,
    read_bid,
    resolve_round,
    seat_results,
    simulate,
    solve,
    standings,
    value_by_budget,
)

ALLOWED = (ValueError, TypeError)  # IllegalAction is a ValueError

scalars = st.one_of(
    st.integers(-3, 25),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 25).map(np.int64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 5.0, np.float64(5.0)]),
    st.booleans(),
    st.text(max_size=4),
    st.sampled_from(["rest", "welcome+explore", "+7", "\u0665", " 6 ", "buy", "pass", "win"]),
    st.none(),
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=3), inner, max_size=2),
    ),
    max_leaves=6,
)
RULE_FIELDS = (
    "teams",
    "budget",
    "card_table",
    "cards",
    "functions",
    "tie_priority",
    "first_priority",
    "final_tiebreak",
    "variant",
    "strict_bids",
)
SMALL = Rules(budget=4)
SMALL_SOLUTION = solve(SMALL)


def attempt(call, *args, **kwargs) -> object:
    """Run one call; an allowed error must carry a message, any other exception fails."""
    try:
        return call(*args, **kwargs)
    except ALLOWED as error:
        assert str(error).strip(), f"{type(error).__name__} without a message"
        return error


def junk_action(data, state):
    """A legal move, a legal move bent out of shape, or junk."""
    legal = state.legal_actions()
    kind = data.draw(st.sampled_from(["legal", "bent", "raw"]))
    if kind == "legal":
        return data.draw(st.sampled_from(legal))
    if kind == "bent":
        action = data.draw(st.sampled_from(legal))
        bend = data.draw(st.sampled_from([str, repr, lambda a: (a,), lambda a: [a]]))
        return (
            bend(action)
            if isinstance(action, str)
            else data.draw(
                st.sampled_from(
                    [bend(action), float(action), np.float64(action), action + 1_000, -action - 1]
                )
            )
        )
    return data.draw(junk)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_arbitrary_values_through_the_public_api(data):
    field = data.draw(st.sampled_from(RULE_FIELDS))
    rules = attempt(Rules, **{field: data.draw(junk)})
    if not isinstance(rules, Rules) or (rules.variant == "auction" and rules.budget > 30):
        rules = data.draw(st.sampled_from([Rules(), SMALL, Rules(variant="classroom")]))
    attempt(new_game, data.draw(st.one_of(junk, st.just(rules))), seed=data.draw(junk))
    state = new_game(rules, seed=data.draw(st.integers(0, 2**32)))
    rng = np.random.default_rng(0)
    while not state.is_over:
        action = junk_action(data, state)
        before = state
        result = attempt(state.apply, action)
        if isinstance(result, Exception):
            assert state == before and state.log == before.log
        else:
            state = result
        attempt(state.observation, data.draw(junk))
        attempt(state.log_for, data.draw(junk))
        if data.draw(st.booleans()) and not state.is_over:
            seat = state.to_play
            state = state.apply(RandomAgent()(state.observation(seat), state.legal_actions(), rng))
    drive_rule_functions(data, rules)
    drive_solver_and_analyses(data)


def drive_rule_functions(data, rules: Rules) -> None:
    attempt(read_bid, data.draw(junk), data.draw(st.one_of(junk, st.integers(0, 20))))
    attempt(award, data.draw(junk), data.draw(junk))
    attempt(standings, data.draw(junk), data.draw(junk), data.draw(junk))
    attempt(priority_order, data.draw(st.one_of(junk, st.just(rules))), data.draw(junk))
    attempt(
        resolve_round,
        data.draw(st.one_of(junk, st.just(rules))),
        data.draw(junk),
        data.draw(junk),
        data.draw(junk),
        data.draw(junk),
    )
    attempt(make_agent, data.draw(junk), data.draw(st.one_of(st.none(), junk)))
    attempt(make_agent, "coverage", **{data.draw(st.text(max_size=4)): data.draw(junk)})
    attempt(CoverageHeuristic, data.draw(junk))
    attempt(EquilibriumAgent, data.draw(junk))
    games = data.draw(st.one_of(junk, st.integers(1, 3)))
    if not (isinstance(games, int | np.integer) and games > 3):  # keep the run short
        attempt(
            simulate,
            data.draw(st.one_of(st.none(), junk, st.just(SMALL))),
            data.draw(st.one_of(st.none(), junk, st.sampled_from(["random", RandomAgent]))),
            games=games,
            seed=data.draw(junk),
            progress=data.draw(st.one_of(junk, st.just(False))),
        )


def drive_solver_and_analyses(data) -> None:
    limit = data.draw(st.one_of(junk, st.just(5.0)))
    if isinstance(limit, int | float | np.integer) and not isinstance(limit, bool):
        limit = min(limit, 5.0)  # nothing long: a tiny budget, or a refusal
    target = data.draw(st.one_of(junk, st.sampled_from([SMALL, Rules(budget=2, teams=3)])))
    attempt(estimate_solve, target, method=data.draw(junk), max_seconds=limit)
    attempt(
        solve,
        target,
        data.draw(st.one_of(junk, st.just("win"))),
        method=data.draw(st.one_of(junk, st.just("auto"))),
        max_seconds=limit,
        progress=data.draw(st.one_of(junk, st.just(False))),
    )
    for query in (SMALL_SOLUTION.value_at, SMALL_SOLUTION.stage):
        attempt(
            query, data.draw(junk), data.draw(junk), data.draw(st.one_of(junk, st.just(((), ()))))
        )
    attempt(SMALL_SOLUTION.values, data.draw(junk), data.draw(junk))
    attempt(equilibrium_path, data.draw(st.one_of(junk, st.just(SMALL_SOLUTION))))
    attempt(equilibrium_bids, SMALL_SOLUTION, data.draw(junk), data.draw(junk))
    budgets = data.draw(st.one_of(junk, st.lists(st.integers(1, 4), max_size=3)))
    if not (
        isinstance(budgets, list | tuple) and any(isinstance(b, int) and b > 8 for b in budgets)
    ):
        attempt(value_by_budget, data.draw(st.one_of(st.none(), junk)), budgets)
    attempt(classroom_plans, data.draw(st.one_of(junk, st.just(SMALL))))
    attempt(expected_outcome, data.draw(st.one_of(junk, st.just(SMALL))), data.draw(junk))
    frame = data.draw(st.one_of(junk, st.just(pl.DataFrame({"seat": [0]}))))
    attempt(seat_results, frame)
    attempt(purchase_effects, frame, early_rounds=data.draw(junk))


def test_the_named_troublemakers():
    """The issue's cases: each is now clear."""
    state = new_game(seed=0)
    for value in (5.0, np.float64(5.0), (6, 4), True):
        assert isinstance(attempt(state.apply, value), TypeError)
    for text in ("+7", "\u0665"):
        assert state.apply(text).apply(0).history[-1].invalid[0].startswith("unreadable")
    assert Rules(teams=np.int64(3)).teams == 3
    assert isinstance(attempt(Rules, functions=("rest", " rest")), ValueError)
    assert isinstance(attempt(Rules, variant="classroom", teams=3), ValueError)
