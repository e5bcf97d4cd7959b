"""The hidden-information sampler (workbench.games.rubbish.sampling) against exact enumeration:
positions of seeded step-engine games under small rules (chi-square over physical fillings),
the rulebook's 10-locked example by hand, and marginals at the rulebook's rules by brute force
over physical card subsets."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from workbench.games.rubbish import Auction, Bid, Peek, Rules, new_game
from workbench.games.rubbish.positions import positions_of_states, repeat_positions
from workbench.games.rubbish.sampling import (
    PositionSampler,
    consistent_fillings,
    filling_of,
    sample_states,
)
from workbench.kit.search import uniformity_p_value

SMALL = Rules(
    players=3,
    money_cards=(5, 2, 2, 1),
    items=("vase", "lamp", "clock"),
    geeks=[("a", (0,)), ("b", (1,)), ("c", (2,)), ("d", (0, 2))],
)
FOUR = Rules(
    players=4,
    money_cards=(2, 2, 1),
    items=("vase", "lamp"),
    geeks=[("a", (0,)), ("b", (1,)), ("c", (0, 1)), ("d", (0,)), ("e", (1,))],
)
TWO = Rules(
    players=2,
    money_cards=(5, 2, 2, 1),
    items=("vase", "lamp", "clock"),
    geeks=[("a", (0,)), ("b", (1,)), ("c", (2,))],
)


def random_step(state, rng):
    """One uniformly random legal action applied (no agent code involved)."""
    legal = state.legal_actions()
    return state.apply(legal[int(rng.integers(len(legal)))])


def positions(rules, seed):
    """Every decision position of one seeded game with random play, in order."""
    rng = np.random.default_rng(seed)
    state = new_game(rules, seed=seed)
    found = []
    while state.to_play is not None:
        found.append(state)
        state = random_step(state, rng)
    return found


def physical_p_value(states, player, consistent, seed):
    """``uniformity_p_value`` over physical fillings: each sampled value-level filling is lifted
    to one of the physical fillings behind it, uniformly (a filling outside the enumeration
    fails at once)."""
    rng = np.random.default_rng(seed)
    lifted = []
    for state in states:
        filling = filling_of(state, player)
        ways = consistent.get(filling, 1)
        lifted.append((filling, int(rng.integers(ways))))
    support = [(filling, k) for filling, ways in consistent.items() for k in range(ways)]
    return uniformity_p_value(lifted, support)


def check_uniform(state, player, seed, per_filling=40):
    """The tests (a), (b), (c): truth enumerated, observations kept, chi-square not rejected."""
    observation = state.observation(player)
    consistent = consistent_fillings(observation)
    assert filling_of(state, player) in consistent  # the truth is possible
    draws = per_filling * sum(consistent.values())
    sampled = sample_states(observation, np.random.default_rng(seed), draws)
    assert len(sampled) == draws
    for filled in sampled:
        assert filled.observation(player) == observation
    assert physical_p_value(sampled, player, consistent, seed) > 0.001


# -- small rules: exact enumeration --------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, seed, moves",
    [
        (SMALL, 0, range(12)),  # three rounds: auction, first, second and last bidder each
        (SMALL, 1, [2, 6, 7, 10, 11]),  # move 3 is the biased sampler's position
        (TWO, 0, range(9)),
        (FOUR, 0, [0, 2, 3, 7, 8]),  # moves 4 and 9 (1,728 and 288 fillings) are left to (a)/(b)
    ],
)
def test_the_sampler_is_uniform_over_physical_fillings(rules, seed, moves):
    states = positions(rules, seed)
    for move in moves:
        state = states[move]
        check_uniform(state, state.to_play, seed=1000 * seed + move)


@pytest.mark.parametrize("move", [2, 3, 7, 11])
def test_the_sampler_is_uniform_for_seats_not_to_play(move):
    state = positions(SMALL, 1)[move]
    for seat in range(SMALL.players):
        if seat != state.to_play:
            check_uniform(state, seat, seed=10 * move + seat)


@pytest.mark.parametrize("rules", [SMALL, FOUR, TWO])
def test_every_seat_everywhere_sees_what_it_saw_and_plays_on(rules):
    rng = np.random.default_rng(7)
    for seed in range(3):
        for state in positions(rules, seed):
            for seat in range(rules.players):
                observation = state.observation(seat)
                assert filling_of(state, seat) in consistent_fillings(observation)
                for filled in sample_states(observation, rng, 3):
                    assert filled.observation(seat) == observation
                    assert filled.legal_actions() == state.legal_actions()
                    play_to_end(filled, rng)


def play_to_end(state, rng):
    """Random play to the end through the step engine; the final result and the log exist."""
    while state.to_play is not None:
        state = random_step(state, rng)
    result = state.result()
    assert len(result.scores) == state.rules.players
    assert state.log_for(None)[-1].startswith("winner")
    return state


def test_the_enumeration_counts_physical_cards_by_hand():
    # SMALL, seed 0, move 2: seat 1 (First Bidder) held out 2 of 5, 2, 2, 1; seat 2 peeked a 1.
    state = positions(SMALL, 0)[2]
    observation = state.observation(2)
    assert observation.held_out == (None, 2, None)
    assert observation.peek == Peek(1, 1, "held_out")
    consistent = consistent_fillings(observation)
    # 5+1 is one set of cards; 2+1 is two (either 2); each shows the 1 with chance 1/2
    rounds = Counter()
    for (geeks, bids, peeks), ways in consistent.items():
        assert peeks == () and len(set(geeks)) == 2 and observation.geek not in geeks
        rounds[bids] += ways
    assert rounds == {((5, 1),): 6, ((2, 1),): 12}  # x 6 deals of the three other geeks


def test_a_biased_sampler_is_caught_on_a_real_position():
    """A sampler uniform over value-level fillings (each bid multiset alike, the peek used as
    a filter) is the natural mistake; the chi-square over physical fillings rejects it."""
    state = positions(SMALL, 1)[3]
    player = state.to_play
    observation = state.observation(player)
    consistent = consistent_fillings(observation)
    keys = list(consistent)
    rng = np.random.default_rng(3)
    biased = [keys[i] for i in rng.integers(len(keys), size=10 * sum(consistent.values()))]
    states = [_with_filling(state, player, filling) for filling in biased]
    assert physical_p_value(states, player, consistent, 0) < 1e-6
    ignoring_my_peek = dataclasses.replace(observation, peek=None)  # a sampler deaf to the peek
    deaf = sample_states(ignoring_my_peek, np.random.default_rng(4), 10 * sum(consistent.values()))
    assert physical_p_value(deaf, player, consistent, 0) < 1e-6


def _with_filling(state, player, filling):
    """``state`` with its hidden part replaced by ``filling`` (for the biased sampler)."""
    geeks, bids, peeks = filling
    others = iter(geeks)
    dealt = tuple(g if seat == player else next(others) for seat, g in enumerate(state.deal.geeks))
    hidden_bids, hidden_peeks = iter(bids), iter(peeks)
    new_bids = tuple(
        bid if seat == player else Bid(next(hidden_bids))
        for seat, bid in zip(state.order, state.bids, strict=False)
    )
    new_peeks = tuple(
        peek if position == 0 or state.order[position] == player else next(hidden_peeks)
        for position, peek in enumerate(state.peeks)
    )
    return state._evolve(deal=state.deal._replace(geeks=dealt), bids=new_bids, peeks=new_peeks)


# -- the rulebook's example: the 10 locked, three cards held out ---------------------------------

RULEBOOK_EXAMPLE = {  # the peeked card -> P(bid) by hand: physical sets x chance of the peek
    1: {(2, 2, 1): Fraction(1, 3), (5, 2, 1): Fraction(2, 3)},  # 1 set x 1/3, 2 sets x 1/3
    2: {(2, 2, 1): Fraction(1, 3), (5, 2, 1): Fraction(1, 3), (5, 2, 2): Fraction(1, 3)},
    5: {(5, 2, 1): Fraction(2, 3), (5, 2, 2): Fraction(1, 3)},
}


def rulebook_example(card):
    """Two players at the rulebook's money cards: seat 1 locks its 10 in round 1, then holds
    out 5+2+1 in round 2; seat 0 is to bid, having peeked ``card`` (the first seed that shows
    it)."""
    for seed in range(100):
        state = new_game(Rules(players=2), seed=seed)
        state = state.apply(Auction(0, 1)).apply(Bid((10, 1))).apply(Bid((5,)))
        state = state.apply(Auction(1, 1)).apply(Bid((5, 2, 1)))
        if state.observation(0).peek.card == card:
            return state
    raise AssertionError(f"no seed below 100 shows a {card}")


@pytest.mark.parametrize("card", sorted(RULEBOOK_EXAMPLE))
def test_the_rulebook_example_weighs_the_peek_by_its_chance(card):
    state = rulebook_example(card)
    observation = state.observation(0)
    assert observation.locked == (None, 10) and observation.held_out == (None, 3)
    consistent = consistent_fillings(observation)
    total = sum(consistent.values())
    exact = Counter()
    for (_geeks, (bid,), _peeks), ways in consistent.items():
        exact[bid] += Fraction(ways, total)
    assert exact == RULEBOOK_EXAMPLE[card]
    sampled = sample_states(observation, np.random.default_rng(card), 3000)
    counts = Counter(filled.bids[0].cards for filled in sampled)
    expected = RULEBOOK_EXAMPLE[card]
    observed = [counts[bid] for bid in expected]
    assert sum(observed) == len(sampled)
    f_exp = [float(p) * len(sampled) for p in expected.values()]
    assert chisquare(observed, f_exp).pvalue > 0.001
    check_uniform(state, 0, seed=card, per_filling=10)


# -- the rulebook's rules: marginals against brute force -----------------------------------------


def brute_force_bid(available, n_cards, peek=None):
    """P(bid) by enumerating physical card subsets and the peeker's blind pick (no library)."""
    weight = Counter()
    for chosen in itertools.combinations(range(len(available)), n_cards):
        bid = tuple(sorted((available[i] for i in chosen), reverse=True))
        if peek is None:
            weight[bid] += 1
            continue
        pool = chosen if n_cards >= 2 else [i for i in range(len(available)) if i not in chosen]
        weight[bid] += sum(available[i] == peek for i in pool)
    total = sum(weight.values())
    return {bid: Fraction(w, total) for bid, w in weight.items() if w}


def assert_fits(counts, exact):
    """Sampled ``counts`` stay inside the support of the exact distribution and a chi-square
    test against it does not reject (p > 0.001)."""
    assert set(counts) <= set(exact) and len(exact) > 1
    draws = sum(counts.values())
    f_exp = [float(p) * draws for p in exact.values()]
    assert chisquare([counts[key] for key in exact], f_exp).pvalue > 0.001


def late_rulebook_position():
    """Four players at the rulebook's rules, round 5, the last bidder to play: three hidden
    bids (3, 1 and 3 cards; locks on 10, 5 and 5), two hidden peeks and three hidden geeks."""
    rng = np.random.default_rng(13)
    state = new_game(Rules(), seed=13)
    while not (state.round == 5 and state.phase == "bid" and len(state.bids) == 3):
        state = random_step(state, rng)
    return state


def test_marginals_at_the_rulebooks_rules_match_brute_force():
    state = late_rulebook_position()
    player = state.to_play
    observation = state.observation(player)
    assert observation.locked == (10, 5, None, 5) and observation.peek.card == 2
    count = 6000
    sampled = sample_states(observation, np.random.default_rng(5), count)
    for filled in sampled[:200]:
        assert filled.observation(player) == observation
    for position, seat in enumerate(state.order[:3]):
        peek = observation.peek.card if position == 2 else None
        exact = brute_force_bid(observation.available(seat), observation.held_out[seat], peek)
        assert_fits(Counter(filled.bids[position].cards for filled in sampled), exact)
    others = [seat for seat in range(4) if seat != player]
    unseen = [g for g in range(len(observation.rules.geeks)) if g != observation.geek]
    for seat in others:
        drawn = [filled.deal.geeks[seat] for filled in sampled]
        assert uniformity_p_value(drawn, unseen) > 0.001
    pairs = [tuple(filled.deal.geeks[seat] for seat in others) for filled in sampled]
    assert all(len(set(pair)) == 3 for pair in pairs)  # geeks are dealt without replacement
    for filled in sampled[:20]:
        play_to_end(filled, np.random.default_rng(1))


def test_hidden_peeks_follow_the_peeked_bid():
    """A peek hidden from the seat shows each card of its pool with equal chance, given the
    sampled bid it looked at (joint of bid and peek against brute force)."""
    state = late_rulebook_position()
    observation = state.observation(state.to_play)
    sampled = sample_states(observation, np.random.default_rng(6), 6000)
    seat = state.order[0]
    available, n_cards = observation.available(seat), observation.held_out[seat]
    joint = Counter()
    for bid, p_bid in brute_force_bid(available, n_cards).items():
        pool = list(bid) if n_cards >= 2 else list((Counter(available) - Counter(bid)).elements())
        for card, k in Counter(pool).items():
            joint[bid, card] += p_bid * Fraction(k, len(pool))
    assert_fits(Counter((filled.bids[0].cards, filled.peeks[1].card) for filled in sampled), joint)


def test_past_peeks_are_cards_the_revealed_bids_allow():
    """Past peeks (only the log reads them) show a card of the right pool: a held-out card if
    2+ were held out, else one of the bidder's unused cards that round (locks applied)."""
    state = late_rulebook_position()
    observation = state.observation(state.to_play)
    money = Counter(observation.rules.money_cards)
    for filled in sample_states(observation, np.random.default_rng(8), 50):
        assert len(filled.peek_history) == len(observation.history)
        locks = (None,) * 4
        for record, peeks in zip(observation.history, filled.peek_history, strict=True):
            assert peeks[0] is None and len(peeks) == len(record.order)
            for position in range(1, len(record.order)):
                target = record.order[position - 1]
                bid = record.bids[target]
                hand = money - Counter([locks[target]] if locks[target] is not None else [])
                pool = Counter(bid.cards) if bid.count >= 2 else hand - Counter(bid.cards)
                source = "held_out" if bid.count >= 2 else "unused"
                assert peeks[position] == Peek(target, peeks[position].card, source)
                assert pool[peeks[position].card] > 0
            locks = record.locked_next
        assert len(filled.log_for(observation.player)) > 0


# -- invariants on random positions and bad input ------------------------------------------------


@settings(max_examples=25)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 5),
    moves=st.integers(0, 60),
)
def test_sampled_states_keep_the_observation_at_the_rulebooks_money(seed, players, moves):
    rng = np.random.default_rng(seed)
    state = new_game(Rules(players=players, starting_auctioneer="random"), seed=seed)
    for _ in range(moves):
        if state.to_play is None:
            break
        state = random_step(state, rng)
    for seat in range(players):
        observation = state.observation(seat)
        for filled in sample_states(observation, rng, 4):
            assert filled.observation(seat) == observation
            assert filled.deal.geeks[seat] == state.deal.geeks[seat]
            assert sorted(set(filled.deal.geeks)) == sorted(filled.deal.geeks)
            play_to_end(filled, rng)


def test_fresh_chance_for_future_peeks_and_no_states_on_request():
    state = positions(SMALL, 0)[5]
    observation = state.observation(state.to_play)
    filled = sample_states(observation, np.random.default_rng(0), 20)
    assert len({s.deal.peek_uniforms for s in filled}) == 20
    assert sample_states(observation, np.random.default_rng(0), 0) == []


def test_bad_input_is_refused_with_a_reason():
    state = positions(SMALL, 0)[3]
    observation = state.observation(state.to_play)
    rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match="rubbish Observation"):
        sample_states(state, rng, 1)
    with pytest.raises(TypeError, match="numpy Generator"):
        sample_states(observation, 0, 1)
    with pytest.raises(ValueError, match="count must be a whole number >= 0"):
        sample_states(observation, rng, -1)
    seen = dataclasses.replace(observation, peek=Peek(observation.peek.target, 10, "held_out"))
    with pytest.raises(ValueError, match="inconsistent"):
        sample_states(seen, rng, 1)
    with pytest.raises(ValueError, match="player must be"):
        filling_of(state, 3)


@pytest.mark.parametrize(
    "rules", [Rules(), SMALL, FOUR, TWO], ids=["rulebook", "small", "four", "two"]
)
def test_the_position_sampler_draws_what_sample_states_draws(rules):
    """PositionSampler (what search plays from) gives, for the same generator state, exactly
    the compiled positions of sample_states' States, for every seat at every decision, and
    copies side by side as repeat_positions(tile=True) would; the generator ends in the same
    state."""
    for seed in range(6):
        for state in positions(rules, seed):
            for seat in range(rules.players):
                observation = state.observation(seat)
                by_states, by_sampler = np.random.default_rng(seed), np.random.default_rng(seed)
                expected = positions_of_states(sample_states(observation, by_states, 5))
                sampled = PositionSampler(observation).sample(by_sampler, 5, copies=3)
                for name, want, got in zip(
                    expected._fields, repeat_positions(expected, 3, tile=True), sampled,
                    strict=True,
                ):  # fmt: skip
                    np.testing.assert_array_equal(got, want, err_msg=name)
                assert by_states.random() == by_sampler.random()
