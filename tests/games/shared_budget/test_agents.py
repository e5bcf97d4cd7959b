"""Agents, simulate and the exact expected outcome of a match."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from workbench.games.shared_budget import (
    CoverageHeuristic,
    EquilibriumAgent,
    RandomAgent,
    Rules,
    expected_outcome,
    new_game,
    simulate,
    solve,
    versus_equilibrium,
)
from workbench.kit.seeding import generator
from workbench.stats import proportion_interval

# The equilibrium line of the default game (see test_analysis): bids A, B per round.
EQUILIBRIUM_LINE = [6, 6, 1, 1, 3, 3, 11, 11, 2, 3, 6, 5]


@pytest.fixture(scope="module")
def solution():
    return solve()


def position(bids):
    state = new_game(seed=0)
    for bid in bids:
        state = state.apply(bid)
    return state


# (bids played so far, seat, target): worked by hand from CoverageHeuristic's docstring.
HEURISTIC_CASES = [
    # Opening, Quiet corner adds rest, 3 missing, Music nook supplies rest later: ceil(20/3).
    ([], 0, 7),
    ([6], 1, 7),
    # Round 2: A (14 left) misses welcome and explore: ceil(14 / 2) = 7.
    ([6, 0], 0, 7),
    # Round 5, Make together (explore): A already covers explore -> 0; B (8 left, misses
    # only explore, Neighborhood map supplies it later) -> ceil(8 * 1/1) = 8, under the
    # sure-win bid 11 + 1 (A has round 5's priority).
    (EQUILIBRIUM_LINE[:8], 0, 0),
    (EQUILIBRIUM_LINE[:8], 1, 8),
    # Round 6, last chance for A's welcome: the whole budget 11, capped at the sure-win bid
    # B's 5 + 1 (B has round 6's priority) = 6, keeping 5 for the tie-break.
    (EQUILIBRIUM_LINE[:10], 0, 6),
    (EQUILIBRIUM_LINE[:10], 1, 0),  # B covers everything: bids nothing
]


@pytest.mark.parametrize(("bids", "seat", "target"), HEURISTIC_CASES)
def test_coverage_heuristic_targets(bids, seat, target):
    state = position(bids)
    observation = state.observation(seat)
    agent = CoverageHeuristic(jitter=0)
    assert agent.target(observation) == target
    assert agent(observation, state.legal_actions(), generator(0)) == target


@pytest.mark.parametrize(
    ("bids", "seat", "distribution"),
    [
        ([], 0, {5: 0.2, 6: 0.2, 7: 0.2, 8: 0.2, 9: 0.2}),
        (EQUILIBRIUM_LINE[:10], 0, {4: 0.2, 5: 0.2, 6: 0.6}),  # clipped at the sure-win bid 6
        (EQUILIBRIUM_LINE[:10], 1, {0: 1.0}),
    ],
)
def test_coverage_heuristic_jitter_distribution(bids, seat, distribution):
    state = position(bids)
    probabilities = CoverageHeuristic(jitter=2).probabilities(
        state.observation(seat), state.legal_actions()
    )
    assert probabilities == pytest.approx(distribution)


def test_agents_are_deterministic_given_the_rng(solution):
    state = new_game(seed=0)
    legal = state.legal_actions()
    for agent in (RandomAgent(), CoverageHeuristic(), EquilibriumAgent(solution)):
        first = [agent(state.observation(0), legal, generator(7, i)) for i in range(20)]
        again = [agent(state.observation(0), legal, generator(7, i)) for i in range(20)]
        assert first == again
        assert all(action in legal for action in first)


def test_random_agent_is_uniform():
    state = new_game(seed=0)
    probabilities = RandomAgent().probabilities(state.observation(0), state.legal_actions())
    assert probabilities == dict.fromkeys(range(21), 1 / 21)
    rng = generator(11)
    draws = [RandomAgent()(state.observation(0), state.legal_actions(), rng) for _ in range(4200)]
    counts = np.bincount(draws, minlength=21)
    assert counts.min() > 130 and counts.max() < 270  # expected 200 each


def test_equilibrium_agent_plays_the_solution(solution):
    state = new_game(seed=0)
    agent = EquilibriumAgent(solution)
    assert agent.probabilities(state.observation(0), state.legal_actions()) == {6: 1.0}
    with pytest.raises(ValueError, match="other rules"):
        EquilibriumAgent(solve(Rules(budget=5))).probabilities(
            state.observation(0), state.legal_actions()
        )
    with pytest.raises(TypeError):
        EquilibriumAgent("not a solution")


def test_heuristic_rejects_bad_jitter():
    with pytest.raises(ValueError, match="jitter"):
        CoverageHeuristic(jitter=-1)


def test_simulate_frames_are_reproducible_and_tidy():
    agents = [RandomAgent(), CoverageHeuristic()]
    games, rounds = simulate(None, agents, games=50, seed=3, progress=False)
    again = simulate(None, agents, games=50, seed=3, progress=False)
    assert games.equals(again[0]) and rounds.equals(again[1])
    assert not games.equals(simulate(None, agents, games=50, seed=4, progress=False)[0])
    assert games.height == 100 and rounds.height == 50 * 6 * 2
    assert games["agent"].unique().sort().to_list() == ["coverage(±2)", "random"]
    per_game = games.group_by("game").agg(pl.col("win_share").sum(), pl.col("won").any())
    assert per_game["win_share"].to_list() == pytest.approx([1.0] * 50)
    assert per_game["won"].all()
    assert (games.filter(pl.col("won"))["rank"] == 1).all()
    assert games["budget_left"].min() >= 0
    assert (games["spent"] + games["budget_left"] == 20).all()
    # the rounds frame adds up to the games frame
    paid = rounds.group_by("game", "seat").agg(pl.col("paid").sum()).sort("game", "seat")
    assert paid["paid"].to_list() == games.sort("game", "seat")["spent"].to_list()
    won = rounds.group_by("game", "round").agg(pl.col("won_card").sum())
    assert won["won_card"].max() <= 1


def test_simulate_records_invalid_bids():
    def over_bidder(observation, legal_actions, rng):
        return 99

    games, rounds = simulate(None, [over_bidder, RandomAgent()], games=3, seed=0, progress=False)
    mine = rounds.filter(pl.col("seat") == 0)
    assert mine["invalid"].all() and (mine["bid"] == 0).all() and (mine["written"] == "99").all()
    assert games.filter(pl.col("seat") == 0)["agent"][0] == "over_bidder"


@pytest.mark.parametrize("teams", [3, 4])
def test_simulate_more_teams(teams):
    agents = [CoverageHeuristic() for _ in range(teams)]
    games, rounds = simulate(Rules(teams=teams), agents, games=20, seed=1, progress=False)
    assert games.height == 20 * teams
    assert sorted(rounds["priority_rank"].unique().to_list()) == list(range(1, teams + 1))


def test_simulate_classroom_group():
    games, _ = simulate(
        Rules(variant="classroom"), [CoverageHeuristic()], games=2, seed=0, progress=False
    )
    # greedy: Quiet corner 5, Welcome desk 6, Discovery table 6 -> all three, 3 left
    assert games["cards"][0] == "Quiet corner+Welcome desk+Discovery table"
    assert games["budget_left"][0] == 3 and games["win_share"][0] == 1.0 and games["won"][0]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"agents": [RandomAgent()]}, ValueError, "one agent per seat"),
        ({"games": 0}, ValueError, "positive whole number"),
        ({"seed": -1}, ValueError, "non-negative"),
        ({"agents": [1, 2]}, TypeError, "callable"),
    ],
)
def test_simulate_rejects_bad_arguments(kwargs, error, message):
    arguments = {"agents": [RandomAgent(), RandomAgent()], "games": 1, "seed": 0}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        simulate(None, progress=False, **arguments)


def test_equilibrium_self_play_realises_the_value_every_game(solution):
    agent = EquilibriumAgent(solution)
    games, _ = simulate(None, [agent, agent], games=20, seed=0, progress=False)
    assert (games["win_share"] == solution.value).all()


def test_simulation_agrees_with_the_exact_expectation():
    agents = [CoverageHeuristic(), RandomAgent()]
    exact = expected_outcome(None, agents)
    games, _ = simulate(None, agents, games=1500, seed=2024, progress=False)
    for seat in (0, 1):
        won = games.filter(pl.col("seat") == seat)["win_share"]
        low, high = proportion_interval(float(won.sum()), won.len())
        assert low <= exact["win_share"][seat] <= high
    assert exact["win_share"].sum() == pytest.approx(1.0)


def test_expected_outcome_of_deterministic_heuristics():
    # jitter 0 on both sides plays one game: A wins it (hand-played in test_engine's style)
    outcome = expected_outcome(None, [CoverageHeuristic(0), CoverageHeuristic(0)])
    games, _ = simulate(
        None, [CoverageHeuristic(0), CoverageHeuristic(0)], games=1, seed=0, progress=False
    )
    assert outcome["win_share"].to_list() == games["win_share"].to_list()
    assert outcome["score"].to_list() == [float(s) for s in games["score"]]


def test_expected_outcome_needs_probabilities():
    with pytest.raises(ValueError, match="exact probabilities"):
        expected_outcome(None, [lambda o, legal, rng: 0, RandomAgent()])


def test_nobody_beats_the_equilibrium_and_what_the_heuristic_loses(solution):
    versus = versus_equilibrium(
        solution, [RandomAgent(), CoverageHeuristic(), CoverageHeuristic(0)], games=300, seed=5
    )
    assert versus.height == 6
    assert not versus["above_value"].any()
    # exact: the equilibrium never loses a game to these agents, so each loses its whole seat
    # value of 1/2 ...
    heuristic = versus.filter(pl.col("agent").str.starts_with("coverage"))
    assert heuristic["exact_share"].to_list() == pytest.approx([0.0] * 4)
    assert heuristic["shortfall"].to_list() == pytest.approx([0.5] * 4)
    # ... and the simulated shares agree with the exact ones
    inside = (versus["low"] - 1e-12 <= versus["exact_share"]) & (
        versus["exact_share"] <= versus["high"] + 1e-12
    )
    assert inside.all()
