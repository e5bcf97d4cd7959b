"""The compiled loop: numpy's streams reproduced bit for bit, fast frames identical to the step
engine's, the replay tie, compiled agents' step calls choosing as the loop and as their exact
distributions say, play_from."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from workbench.games.shared_budget import (
    CoverageHeuristic,
    EquilibriumAgent,
    FittedPolicy,
    RandomAgent,
    Rules,
    new_game,
    play_from,
    simulate,
    solve,
)
from workbench.games.shared_budget.agents import sample_choice
from workbench.games.shared_budget.compiled import tables
from workbench.games.shared_budget.policies import COVERAGE, EQUILIBRIUM, RANDOM, choose
from workbench.games.shared_budget.simulate import batch_games_frame, batch_rounds_frame, recorded
from workbench.kit.seeding import generator
from workbench.kit.streams import keyed_stream

# (rules, agents): every variant and option the compiled loop branches on.
ENGINE_CASES = [
    (Rules(), "random"),
    (Rules(), "coverage"),
    (Rules(teams=4), "random"),
    (Rules(teams=3), ["random", "coverage", CoverageHeuristic(jitter=0)]),
    (
        Rules(teams=4, final_tiebreak="shared", tie_priority="fixed", first_priority=2),
        [CoverageHeuristic(5), RandomAgent(), CoverageHeuristic(0), CoverageHeuristic(3, 0.7, 0)],
    ),
    (Rules(variant="classroom"), "random"),
    (Rules(variant="classroom"), "coverage"),
    (Rules(teams=4, budget=3), "coverage"),
    (Rules(budget=300), ["coverage", "random"]),
    (Rules(teams=3, budget=9), CoverageHeuristic(jitter=4, share=1.6, margin=3)),
    (Rules(budget=7), [EquilibriumAgent(solve(Rules(budget=7))), "random"]),
    # every stage game's strategy as a distribution: the table's mixed entries, drawn
    (Rules(budget=4), ["coverage", EquilibriumAgent(solve(Rules(budget=4), method="lp"))]),
]


@pytest.mark.parametrize(("rules", "agents"), ENGINE_CASES)
def test_fast_frames_equal_the_step_engines(rules, agents):
    fast = simulate(rules, agents, games=120, seed=7, progress=False, engine="fast")
    step = simulate(rules, agents, games=120, seed=7, progress=False, engine="step")
    for fast_frame, step_frame in zip(fast, step, strict=True):
        assert_frame_equal(fast_frame, step_frame)


def test_seed_sequences_give_the_same_games_in_both_engines():
    seed = np.random.SeedSequence([3, 2**50], spawn_key=(2,))
    fast = simulate(Rules(teams=3), "random", games=40, seed=seed, progress=False, engine="fast")
    step = simulate(Rules(teams=3), "random", games=40, seed=seed, progress=False, engine="step")
    assert_frame_equal(fast[1], step[1])


@pytest.mark.parametrize(("budget", "method"), [(6, "auto"), (20, "auto"), (3, "lp")])
def test_the_equilibrium_table_plays_the_solution_at_every_reachable_position(budget, method):
    """The compiled EQUILIBRIUM kind reads each team's bid from the solver's table: the pure
    bid where the stage game has one, else a draw among the bids the strategy plays, as often
    as it plays them (200 streams a position)."""
    rules = Rules(budget=budget)
    solution = solve(rules, method=method)
    agent, table = EquilibriumAgent(solution), tables(rules)
    vector = agent.policy_at(new_game(rules, seed=0).observation(0)).parameters
    for k, a, b, mask_a, mask_b in solution.reachable_positions():
        strategies = solution.strategy(k, (a, b), (mask_a, mask_b))
        for seat in (0, 1):
            draws = [choose(EQUILIBRIUM, vector, seat, k, np.array([a, b]), np.array([mask_a,
                            mask_b]), 2, table.priorities[k, 0], table.masks, table.later,
                            table.prices, table.full, False, keyed_stream(seed, 1))
                     for seed in range(1 if len(strategies[seat]) == 1 else 200)]  # fmt: skip
            frequencies = {bid: draws.count(bid) / len(draws) for bid in set(draws)}
            assert set(frequencies) <= set(strategies[seat])
            for bid, probability in strategies[seat].items():
                assert abs(frequencies.get(bid, 0.0) - probability) < 0.12, (k, a, b, seat)


def test_fast_games_replay_through_the_step_engine():
    # the replay tie: each recorded fast game, its bids applied one by one, gives the same frames
    rules = Rules(teams=4)
    agents = ["coverage", "random", "coverage", "random"]
    games, rounds = simulate(rules, agents, games=60, seed=11, progress=False, engine="fast")
    states = []
    for game in range(60):
        state = new_game(rules, seed=0)
        for bid in rounds.filter(pl.col("game") == game).sort("round", "seat")["bid"]:
            state = state.apply(bid)
        states.append(state)
    labels = games.filter(pl.col("game") == 0).sort("seat")["agent"].to_list()
    replayed = recorded(rules, states)
    assert_frame_equal(batch_games_frame(replayed, labels, 0), games)
    assert_frame_equal(batch_rounds_frame(replayed, labels, 0), rounds)


def test_batch_size_and_position_in_the_run_never_change_a_game():
    whole = simulate(Rules(teams=3), "coverage", games=9000, seed=5, progress=False)[0]
    assert whole["game"].n_unique() == 9000  # two fast batches
    one = simulate(Rules(teams=3), "coverage", games=8200, seed=5, progress=False)[0]
    assert_frame_equal(whole.filter(pl.col("game") < 8200), one)


def random_position(rules, rng, steps):
    state = new_game(rules, seed=0)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.integers(len(legal)))])
    return state


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    teams=st.integers(2, 4),
    budget=st.integers(1, 40),
    steps=st.integers(0, 23),
    jitter=st.integers(0, 6),
    seed=st.integers(0, 10**6),
)
def test_step_calls_choose_as_the_loop_and_their_distributions(teams, budget, steps, jitter, seed):
    """A compiled agent's step call is the loop's ``choose`` at the State's arrays on the same
    stream, and draws its exact distribution by inverse CDF (the random agent: integers)."""
    rules = Rules(teams=teams, budget=budget)
    state = random_position(rules, generator(seed), steps)
    if state.is_over:
        return
    seat, table = state.to_play, tables(rules)
    observation, legal = state.observation(seat), state.legal_actions()
    fitted = FittedPolicy(rules, [jitter, 1.3, 2, 0.9, 0.4, 0.2, 0.3, 1.0, 0.7, 0.5])
    agents = (RandomAgent(), CoverageHeuristic(jitter), CoverageHeuristic(jitter, 0.5, 2), fitted)
    for agent in agents:
        policy = agent.compiled_policy()
        looped = choose(
            policy.kind, np.array(policy.parameters, dtype=float), seat, state.round_index,
            np.array(state.budgets), np.array(state.coverage), teams,
            table.priorities[state.round_index, 0], table.masks, table.later, table.prices,
            table.full, False, keyed_stream(seed, 1),
        )  # fmt: skip
        step = agent(observation, legal, generator(seed, 1))
        if agent.name == "random":
            drawn = legal[int(generator(seed, 1).integers(len(legal)))]
        else:
            drawn = sample_choice(agent.probabilities(observation, legal), generator(seed, 1))
        assert looped == step == drawn


def step_playouts(state, agents, playouts, rng):
    """Continue ``state`` step by step ``playouts`` times, every seat drawing from ``rng``."""
    scores = []
    for _ in range(playouts):
        position = state
        while (seat := position.to_play) is not None:
            legal = position.legal_actions()
            position = position.apply(agents[seat](position.observation(seat), legal, rng))
        scores.append(position.result().scores)
    return np.array(scores, dtype=np.float64)


@pytest.mark.parametrize(
    ("rules", "agents"),
    [
        (Rules(), [RandomAgent(), CoverageHeuristic()]),
        (Rules(teams=4), [RandomAgent(), CoverageHeuristic(), RandomAgent(), RandomAgent()]),
        (Rules(teams=3, tie_priority="fixed"), [CoverageHeuristic(4)] * 3),
        (Rules(variant="classroom"), [RandomAgent()]),
    ],
)
def test_play_from_continues_as_the_step_engine(rules, agents):
    # positions from seeded random games at every depth, mid-round ones included
    rng = generator(99)
    depth = rules.rounds * rules.players
    positions = [random_position(rules, rng, step % (depth + 1)) for step in range(40)]
    scores = play_from(positions, agents, playouts=6, seed=21)
    assert scores.shape == (40, 6, rules.players) and scores.dtype == np.float64
    for index, state in enumerate(positions):
        expected = step_playouts(state, agents, 6, generator(21, index))
        np.testing.assert_array_equal(scores[index], expected)


def test_play_from_one_state_and_names():
    state = new_game(Rules(teams=3), seed=0).apply(4)
    scores = play_from(state, "random", playouts=500, seed=1)
    assert scores.shape == (1, 500, 3)
    assert set(np.unique(scores)) <= {0.0, 1.0, 2.0, 3.0}
    again = play_from([state], ["random"] * 3, playouts=500, seed=1)
    np.testing.assert_array_equal(scores, again)
    assert not np.array_equal(scores, play_from(state, "random", playouts=500, seed=2))


def test_play_from_reads_states_given_as_an_iterator_once():
    states = [new_game(seed=seed).apply(5) for seed in range(3)]
    scores = play_from(states, "random", playouts=2, seed=1)
    assert scores.shape == (3, 2, 2)
    # was: the first state was read to resolve the agents' names, then lost (2 rows)
    np.testing.assert_array_equal(play_from(iter(states), "random", playouts=2, seed=1), scores)
    with pytest.raises(TypeError, match=r"states must be a shared_budget State .*, got int"):
        play_from(5, "random", playouts=2, seed=1)  # was: 'int' object is not iterable


def test_play_from_a_finished_game_gives_its_scores():
    state = new_game(seed=0)
    for bid in [6, 6, 1, 1, 3, 3, 11, 11, 2, 3, 6, 5]:
        state = state.apply(bid)
    assert state.result().scores == (3, 3)  # the equilibrium line: both cover all three
    scores = play_from(state, "coverage", playouts=3, seed=0)
    assert scores.tolist() == [[[3.0, 3.0]] * 3]


def passing(observation, legal_actions, rng):
    """A step-only agent: always bids 0."""
    return 0


def test_play_from_refuses_bad_input():
    state = new_game(seed=0)
    with pytest.raises(TypeError, match="step by step only"):
        play_from(state, [passing, RandomAgent()], playouts=2, seed=0)
    with pytest.raises(TypeError, match="State"):
        play_from([], "random", playouts=2, seed=0)
    with pytest.raises(TypeError, match="State"):
        play_from("not a state", "random", playouts=2, seed=0)
    with pytest.raises(ValueError, match="playouts"):
        play_from(state, "random", playouts=0, seed=0)
    with pytest.raises(ValueError, match="same rules"):
        play_from([state, new_game(Rules(budget=5), seed=0)], "random", playouts=2, seed=0)


def test_fast_engine_refuses_step_only_agents_and_auto_falls_back():
    agents = [passing, RandomAgent()]
    with pytest.raises(ValueError, match="step-only"):
        simulate(None, agents, games=2, seed=0, progress=False, engine="fast")
    games, _ = simulate(None, agents, games=2, seed=0, progress=False)  # auto: the step engine
    assert games.height == 4


def test_coverage_parameters_are_named_and_checked():
    assert CoverageHeuristic().compiled_policy() == (COVERAGE, (2.0, 1.0, 1.0))
    assert CoverageHeuristic().name == "coverage(±2)"
    assert CoverageHeuristic(0, share=0.5, margin=2).name == "coverage[share=0.5, margin=2]"
    assert RandomAgent().compiled_policy() == (RANDOM, ())
    for options, field in [
        ({"share": -1.0}, "share"),
        ({"share": float("nan")}, "share"),
        ({"share": True}, "share"),
        ({"margin": -1}, "margin"),
        ({"margin": 1.5}, "margin"),
    ]:
        with pytest.raises((ValueError, TypeError), match=field):
            CoverageHeuristic(**options)
