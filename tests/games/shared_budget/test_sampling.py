"""The sampler of hidden sealed bids (shared_budget.sampling) against exact enumeration: the true
filling is among the consistent ones and rebuilds the true State, sampled States show the seat
exactly what it saw and play on to the end, draws are uniform (chi-square), a biased sampler
would be caught, and bad input is refused."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from workbench.games.shared_budget import CoverageHeuristic, RandomAgent, Rules, new_game
from workbench.games.shared_budget.engine import SealedBid
from workbench.games.shared_budget.sampling import (
    consistent_fillings,
    filling_of,
    hidden_seats,
    sample_states,
    state_with_filling,
)
from workbench.kit.search import step_play_from, uniformity_p_value
from workbench.kit.seeding import generator

#: Small rules: every position's consistent fillings can be enumerated and drawn 40 times each.
SMALL_RULES = [
    Rules(teams=2, budget=6),
    Rules(teams=3, budget=4),
    Rules(teams=3, budget=4, tie_priority="fixed", first_priority=2, final_tiebreak="shared"),
    Rules(teams=4, budget=3),
]
RULEBOOK_RULES = [Rules(teams=2), Rules(teams=3), Rules(teams=4)]


class ThriftyAgent:
    """Bids 0, 1 or 2 (at most its budget) uniformly: budgets last into the late rounds."""

    def __call__(self, observation, legal_actions, rng):
        return int(rng.integers(min(observation.budget, 2) + 1))


def game_states(rules: Rules, seed: int) -> list:
    """Every State of a seeded step-engine game (start to end): thrifty random bidders, and
    for an even seed jittered coverage bidders in the odd seats."""
    agents = [ThriftyAgent() if seat % 2 == 0 or seed % 2 else CoverageHeuristic()
              for seat in range(rules.players)]  # fmt: skip
    rng = generator(seed)
    states = [new_game(rules, seed=seed)]
    while (seat := states[-1].to_play) is not None:
        state = states[-1]
        action = agents[seat](state.observation(seat), state.legal_actions(), rng)
        states.append(state.apply(action))
    return states


def game_position(rules: Rules, seed: int, round_index: int, seat: int):
    """The State of a seeded game in round ``round_index`` with ``seat`` to write its bid."""
    return next(
        s for s in game_states(rules, seed) if s.round_index == round_index and s.to_play == seat
    )


def with_read_slips(state):
    """``state`` with this round's sealed slips written as the amounts they count as (the
    observation keeps amounts, not text, so that is what a rebuilt State can hold)."""
    sealed = tuple(None if s is None else SealedBid(str(s.bid), s.bid) for s in state.sealed)
    return dataclasses.replace(state, sealed=sealed, seed=0)


def all_positions():
    """(rules index, seed, State) for every position of two games under each small rule set
    and one game under each rulebook table size."""
    for index, rules in enumerate(SMALL_RULES + RULEBOOK_RULES):
        for seed in (0, 1) if index < len(SMALL_RULES) else (2,):
            for state in game_states(rules, seed):
                yield index, seed, state


# -- (a) and (b): the truth is consistent; samples show the seat what it saw ------------------


def test_every_position_truth_is_consistent_rebuilds_and_samples_match_the_observation():
    rng = generator(101)
    checked = 0
    for _index, _seed, state in all_positions():
        for player in range(state.rules.players):
            observation = state.observation(player)
            truth = filling_of(state, player)
            consistent = set(consistent_fillings(observation))
            assert truth in consistent
            expected = 1
            for seat in hidden_seats(observation):
                expected *= observation.budgets[seat] + 1
            assert len(consistent) == expected
            # the true filling rebuilds the true position, log and history included
            assert state_with_filling(observation, truth) == dataclasses.replace(state, seed=0)
            for sampled in sample_states(observation, rng, 6):
                assert sampled.observation(player) == observation
                assert filling_of(sampled, player) in consistent
                assert sampled.log == state.log and sampled.history == state.history
            checked += 1
    assert checked > 500


@pytest.mark.parametrize(
    ("moves", "player", "hidden", "fillings"),
    [
        # round 1, 3 teams of 20: C to play sees A's and B's sealed bids hidden
        ((), 0, (), [(None, None)]),
        ((7,), 1, (0,), [(bid, None) for bid in range(21)]),
        ((7, 3), 2, (0, 1), list(itertools.product(range(21), range(21)))),
        # A, having bid, sees B's bid hidden and C's not yet written
        ((7, 3), 0, (1,), [(bid, None) for bid in range(21)]),
        # round 2 after A won at 7: B sees A's bid hidden, and A has 13 left
        ((7, 3, 5, 2), 1, (0,), [(bid, None) for bid in range(14)]),
        # then C sees 14 x 21 fillings
        ((7, 3, 5, 2, 0), 2, (0, 1), list(itertools.product(range(14), range(21)))),
    ],
)
def test_hand_counted_fillings(moves, player, hidden, fillings):
    state = new_game(Rules(teams=3), seed=0)
    for bid in moves:
        state = state.apply(bid)
    observation = state.observation(player)
    assert hidden_seats(observation) == hidden
    assert list(consistent_fillings(observation)) == fillings


def test_own_text_slip_is_rebuilt_as_the_amount_it_counts_as():
    # B wrote "five" (a pass); C sees A's and B's bids hidden; B sees only A's
    state = new_game(Rules(teams=3), seed=0).apply(4).apply("five")
    observation = state.observation(1)
    assert observation.my_bid == 0 and hidden_seats(observation) == (0,)
    rebuilt = state_with_filling(observation, (4, None))
    assert rebuilt.sealed[1] == SealedBid("0", 0)
    assert rebuilt.observation(1) == observation
    assert rebuilt == with_read_slips(state)


def test_revealed_text_and_invalid_slips_are_replayed_exactly():
    state = new_game(Rules(teams=2), seed=3).apply(" 6 ").apply("five").apply(25).apply(-2)
    state = state.apply(3)
    observation = state.observation(1)
    assert [r.invalid[1] for r in observation.history] == [
        "unreadable (not a whole number in digits 0-9)", "negative",
    ]  # fmt: skip
    assert state_with_filling(observation, (3,)) == dataclasses.replace(state, seed=0)


def test_classroom_has_nothing_hidden():
    state = new_game(Rules(variant="classroom"), seed=0).apply("buy").apply("pass")
    observation = state.observation(0)
    assert list(consistent_fillings(observation)) == [()]
    sampled = sample_states(observation, generator(0), 3)
    assert sampled == [dataclasses.replace(state, seed=0)] * 3


def test_finished_game_samples_the_final_position():
    state = game_states(Rules(teams=3), 4)[-1]
    observation = state.observation(2)
    assert list(consistent_fillings(observation)) == [(None, None)]
    assert sample_states(observation, generator(0), 2) == [dataclasses.replace(state, seed=0)] * 2


# -- (c): uniform over the consistent fillings -------------------------------------------------


def hidden_positions(rules: Rules, seed: int, low_budget: int = 1) -> list:
    """(State, observer) pairs of a seeded game where the observer has bids hidden from it, each
    by a team with at least ``low_budget`` credits (so more than one filling)."""
    pairs = []
    for state in game_states(rules, seed):
        for player in range(rules.players):
            hidden = hidden_seats(state.observation(player))
            if hidden and min(state.budgets[seat] for seat in hidden) >= low_budget:
                pairs.append((state, player))
    return pairs


def chi_square_positions():
    """Early, mid and late positions (first, middle and last round) of two games under each
    small rule set, the last seat to play: seen by it and, mid-game, by the seat before it."""
    for index, rules in enumerate(SMALL_RULES):
        last = rules.players - 1
        for seed in (0, 1):
            for phase, round_index in (("early", 0), ("mid", 2), ("late", rules.rounds - 1)):
                state = game_position(rules, seed, round_index, last)
                observers = (last, last - 1) if phase == "mid" and last > 1 else (last,)
                for player in observers:
                    name = f"rules{index}-seed{seed}-{phase}-seat{player}"
                    yield pytest.param(state, player, id=name)


@pytest.mark.parametrize(("state", "player"), list(chi_square_positions()))
def test_sampler_is_uniform_against_exact_enumeration(state, player):
    observation = state.observation(player)
    consistent = list(consistent_fillings(observation))
    assert len(consistent) > 1  # something is hidden here
    assert len(consistent) == math.prod(observation.budgets[seat] + 1
                                        for seat in hidden_seats(observation))  # fmt: skip
    rng = generator(state.round_index, state.to_play, player)
    sampled = sample_states(observation, rng, 40 * len(consistent))
    fillings = [filling_of(s, player) for s in sampled]
    assert uniformity_p_value(fillings, consistent) > 0.001


def test_positions_cover_early_mid_and_late_rounds():
    positions = [param.values for param in chi_square_positions()]
    assert {state.round_index for state, _ in positions} == {0, 2, 5}
    hidden = [len(hidden_seats(state.observation(player))) for state, player in positions]
    assert set(hidden) == {1, 2, 3}  # one, two and three hidden bids


def test_rulebook_two_teams_uniform_against_exact_enumeration():
    # the rulebook's example position (A 14, B 16 when Discovery table is offered), A has bid
    state = new_game(Rules(), seed=0).apply(6).apply(0).apply(0).apply(4).apply(6)
    observation = state.observation(1)
    consistent = list(consistent_fillings(observation))
    assert consistent == [(bid,) for bid in range(15)]
    sampled = sample_states(observation, generator(7), 40 * 15)
    assert uniformity_p_value([filling_of(s, 1) for s in sampled], consistent) > 0.001


def test_rulebook_four_teams_marginals_and_pairs_match_exact_enumeration():
    # 4 teams of 20, round 4, D to play: three hidden bids, too many fillings for 40 draws each,
    # so each seat's marginal and one pair's joint law are checked against exact counts
    state = game_position(Rules(teams=4), 3, 3, 3)
    observation = state.observation(3)
    assert hidden_seats(observation) == (0, 1, 2)
    assert len(set(observation.budgets[:3])) > 1  # budgets differ: marginals differ
    consistent = list(consistent_fillings(observation))
    sampled = [filling_of(s, 3) for s in sample_states(observation, generator(8), 12_000)]
    for project in ([0], [1], [2], [0, 2]):
        exact = Counter(tuple(f[i] for i in project) for f in consistent)
        drawn = Counter(tuple(f[i] for i in project) for f in sampled)
        cells = list(exact)
        assert set(drawn) <= set(exact)
        expected = np.array([exact[c] for c in cells]) * len(sampled) / len(consistent)
        observed = np.array([drawn[c] for c in cells], dtype=float)
        assert chisquare(observed, expected).pvalue > 0.001, project
        if len(project) == 1:  # the exact marginal is uniform over 0..that seat's budget
            assert cells == [(bid,) for bid in range(observation.budgets[project[0]] + 1)]
            assert len(set(exact.values())) == 1


def test_the_check_catches_biased_samplers_on_a_real_position():
    state, player = next(
        (s, p) for s, p in hidden_positions(SMALL_RULES[1], 1, low_budget=2)
        if len(hidden_seats(s.observation(p))) == 2
    )
    observation = state.observation(player)
    hidden = hidden_seats(observation)
    consistent = list(consistent_fillings(observation))
    assert len(consistent) >= 9
    rng = generator(9)
    draws = 40 * len(consistent)
    budgets = [observation.budgets[seat] for seat in hidden]
    # never the whole budget (an off-by-one upper bound)
    off_by_one = [[int(rng.integers(b)) for b in budgets] for _ in range(draws)]
    # one shared draw scaled to each budget: every marginal uniform, the pair correlated
    shared = [[int(u * (b + 1)) for b in budgets] for u in rng.random(draws)]
    for biased in (off_by_one, shared):
        fillings = []
        for bids in biased:
            filling = [None] * (observation.rules.players - 1)
            for seat, bid in zip(hidden, bids, strict=True):
                filling[seat - (seat > player)] = bid
            fillings.append(filling_of(state_with_filling(observation, filling), player))
        assert uniformity_p_value(fillings, consistent) < 1e-6


# -- (d): sampled States play on through the step engine --------------------------------------


@pytest.mark.parametrize("rules", SMALL_RULES + RULEBOOK_RULES,
                         ids=lambda rules: f"{rules.teams}x{rules.budget}")  # fmt: skip
def test_sampled_states_play_to_the_end_with_random_agents(rules):
    agents = [RandomAgent()] * rules.players
    for state in game_states(rules, 5)[:-1:3]:
        player = state.to_play
        observation = state.observation(player)
        sampled = sample_states(observation, generator(6), 4)
        scores = step_play_from(sampled, agents, playouts=2, seed=7)
        assert scores.shape == (4, 2, rules.players)
        assert ((scores >= 0) & (scores <= 3) & (scores == scores.round())).all()
        rng = generator(8)
        for start in sampled:  # by hand: the seat's own bid and the sampled bids are revealed
            hidden = filling_of(start, player)
            after = start.apply(observation.budget)
            while after.to_play is not None:
                after = after.apply(int(rng.integers(after.budgets[after.to_play] + 1)))
            record = after.history[state.round_index]
            others = [seat for seat in range(rules.players) if seat != player]
            assert record.bids[player] == observation.budget
            assert all(hidden[i] in (None, record.bids[seat]) for i, seat in enumerate(others))
            assert after.history[: state.round_index] == observation.history
            assert after.result().scores == tuple(bin(m).count("1") for m in after.coverage)


# -- invariants over random play, text slips included ------------------------------------------

SLIPS = st.one_of(st.integers(-3, 25), st.sampled_from([" 4 ", "five", "+7", "2.5", "0", "٥"]))


@settings(max_examples=60)
@given(
    teams=st.integers(2, 4),
    budget=st.integers(1, 12),
    slips=st.lists(SLIPS, max_size=30),
    observer=st.integers(0, 3),
    seed=st.integers(0, 2**32),
)
def test_samples_are_consistent_after_any_slips(teams, budget, slips, observer, seed):
    state = new_game(Rules(teams=teams, budget=budget), seed=1)
    for slip in slips:
        if state.is_over:
            break
        state = state.apply(slip)
    player = observer % teams
    observation = state.observation(player)
    assert state_with_filling(observation, filling_of(state, player)) == with_read_slips(state)
    hidden = hidden_seats(observation)
    assert hidden == tuple(s for s in range(teams) if state.sealed[s] is not None and s != player)
    for sampled in sample_states(observation, generator(seed), 5):
        assert sampled.observation(player) == observation
        for seat in hidden:
            assert 0 <= sampled.sealed[seat].bid <= observation.budgets[seat]
        assert all(sampled.sealed[s] == state.sealed[s] for s in range(teams) if s not in hidden
                   and s != player)  # fmt: skip


def test_draws_are_reproducible_from_the_generator():
    state = game_position(Rules(teams=4), 0, 1, 3)
    observation = state.observation(3)
    first = [filling_of(s, 3) for s in sample_states(observation, generator(5), 30)]
    again = [filling_of(s, 3) for s in sample_states(observation, generator(5), 30)]
    other = [filling_of(s, 3) for s in sample_states(observation, generator(6), 30)]
    assert first == again and first != other


# -- bad input -------------------------------------------------------------------------------


def test_bad_input_is_refused_with_what_is_allowed():
    state = new_game(Rules(teams=3), seed=0).apply(5).apply(2)
    observation = state.observation(2)
    rng = generator(0)
    with pytest.raises(TypeError, match="Observation"):
        sample_states(state, rng, 1)
    with pytest.raises(TypeError, match="numpy Generator"):
        sample_states(observation, 5, 1)
    with pytest.raises(ValueError, match="count"):
        sample_states(observation, rng, -1)
    with pytest.raises(ValueError, match="one entry per seat other than 2"):
        state_with_filling(observation, (1,))
    with pytest.raises(ValueError, match="a bid 0–20"):
        state_with_filling(observation, (1, 21))
    with pytest.raises(ValueError, match="must be None"):
        state_with_filling(state.observation(1), (1, 3))
    with pytest.raises(ValueError, match="seat order"):
        consistent_fillings(dataclasses.replace(observation, has_bid=(False, True, False)))
    with pytest.raises(ValueError, match="different budgets"):
        sample_states(dataclasses.replace(observation, budgets=(20, 19, 20)), rng, 1)
    played = game_states(Rules(teams=3), 0)[7].observation(1)
    record = dataclasses.replace(played.history[0], winner=None)
    with pytest.raises(ValueError, match="cannot be replayed"):
        sample_states(dataclasses.replace(played, history=(record,)), rng, 1)
    with pytest.raises(ValueError, match="player"):
        filling_of(state, 3)
