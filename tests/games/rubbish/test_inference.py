"""Hidden-bid inference against the rulebook's example, hand counts and independent brute force
over physical cards, blind peeks and geek deals."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games.rubbish import (
    Auction,
    Bid,
    HeuristicAgent,
    Peek,
    RandomAgent,
    Rules,
    bid_posterior,
    bidding_situation,
    game_inference,
    infer,
    max_bid,
    max_bid_table,
    new_game,
    observations_before_last_bid,
    peek_distribution,
    play_game,
    possible_bids,
)
from workbench.games.rubbish.cards import peek_likelihood, sub_multisets
from workbench.games.rubbish.inference import likelihood

MONEY = (10, 5, 2, 2, 1)


def exact(frame: pl.DataFrame) -> dict[int, Fraction]:
    """total -> exact probability, from a frame's ``exact`` column."""
    return {row["total"]: Fraction(row["exact"]) for row in frame.iter_rows(named=True)}


def brute_force(available, n_cards, peek=None) -> dict[int, Fraction]:
    """Posterior over totals by enumerating physical card subsets and the peeker's blind pick.

    Each subset of card positions is equally likely; the peeker picks one card position of the
    pool (the held-out cards if 2+, else the unused ones) uniformly. No library code involved.
    """
    cards = list(available)
    weight: dict[int, Fraction] = {}
    for chosen in itertools.combinations(range(len(cards)), n_cards):
        total = sum(cards[i] for i in chosen)
        weight.setdefault(total, Fraction(0))
        if peek is None:
            weight[total] += 1
            continue
        card, source = peek
        pool = list(chosen) if n_cards >= 2 else [i for i in range(len(cards)) if i not in chosen]
        if source != ("held_out" if n_cards >= 2 else "unused"):
            continue
        if card is None:
            weight[total] += 1 if not pool else 0
        elif pool:
            weight[total] += Fraction(sum(cards[i] == card for i in pool), len(pool))
    mass = sum(weight.values())
    return {total: w / mass for total, w in weight.items()}


# -- possible bids: the rulebook's example --------------------------------------------------------


def test_rulebook_example_without_the_10_three_cards():
    # Rulebook "Game Hints": can't use the 10, bids 3 cards -> 5 (1+2+2), 8 (1+2+5), 9 (2+2+5).
    # Counting physical cards (two distinct 2s): 4 subsets of 3; 8 arises two ways.
    frame = possible_bids((5, 2, 2, 1), 3)
    assert frame["total"].to_list() == [5, 8, 9]
    assert frame["ways"].to_list() == [1, 2, 1]
    assert frame["combinations"].to_list() == ["1+2+2", "1+2+5", "2+2+5"]
    assert frame["exact"].to_list() == ["1/4", "1/2", "1/4"]
    assert frame["probability"].to_list() == [0.25, 0.5, 0.25]


def test_possible_bids_zero_cards_and_all_cards():
    assert possible_bids(MONEY, 0).rows() == [(0, 1, 1.0, "1", "nothing")]
    assert possible_bids(MONEY, 5).rows() == [(20, 1, 1.0, "1", "1+2+2+5+10")]


def test_possible_bids_accepts_any_order_and_lists():
    assert possible_bids([1, 2, 5, 2], 3).equals(possible_bids((5, 2, 2, 1), 3))


# -- posteriors: hand counts ----------------------------------------------------------------------

HAND_COUNTED = {
    # Seen a 5 among 3 held out (without the 10): 1+2+2 has no 5 -> 0; 1+2+5 two subsets x 1/3;
    # 2+2+5 one subset x 1/3 -> 8: 2/3, 9: 1/3 (the rulebook: "you'll know pretty surely").
    "5 among three held out": ((5, 2, 2, 1), 3, (5, "held_out"), {5: 0, 8: "2/3", 9: "1/3"}),
    # Seen the 1: 1+2+2 one subset x 1/3, 1+2+5 two x 1/3, 2+2+5 none -> 5: 1/3, 8: 2/3.
    "1 among three held out": ((5, 2, 2, 1), 3, (1, "held_out"), {5: "1/3", 8: "2/3", 9: 0}),
    # Seen a 2: evidence by likelihood, not a filter. 1+2+2 shows a 2 with chance 2/3, each of
    # the two 1+2+5 subsets 1/3, 2+2+5 2/3: weights 2/3, 2/3, 2/3 -> 1/3 each. A filter (keep
    # bids containing a 2) would leave the prior 1/4, 1/2, 1/4.
    "2 among three held out": ((5, 2, 2, 1), 3, (2, "held_out"), {5: "1/3", 8: "1/3", 9: "1/3"}),
    # Two held out, seen a 2: 1+2 (2 subsets x 1/2), 2+2 (1 x 1), 1+5 (0), 2+5 (2 x 1/2) ->
    # 3, 4, 7 each 1/3. A filter would give 2/5, 1/5, 2/5.
    "2 among two held out": (
        (5, 2, 2, 1),
        2,
        (2, "held_out"),
        {3: "1/3", 4: "1/3", 6: 0, 7: "1/3"},
    ),
    # One card held out: the peek is among the 3 unused. Seen an unused 5: bid 1 (unused 5,2,2:
    # 1/3), bid 2 (two subsets, unused 5,2,1: 1/3 each), bid 5 (0) -> 1: 1/3, 2: 2/3.
    "unused 5, one held out": ((5, 2, 2, 1), 1, (5, "unused"), {1: "1/3", 2: "2/3", 5: 0}),
    # All five available, one held out, seen an unused 2: bid 1 (pool 10,5,2,2: 1/2), bid 2 (two
    # subsets, pool 10,5,2,1: 1/4 each), bid 5 (1/2), bid 10 (1/2) -> 1/4 each (prior 1/5, 2/5..).
    "unused 2, one of five": (MONEY, 1, (2, "unused"), {1: "1/4", 2: "1/4", 5: "1/4", 10: "1/4"}),
    # Nothing held out: the peek shows an unused card and tells nothing about the (empty) bid.
    "nothing held out": (MONEY, 0, (10, "unused"), {0: 1}),
}


@pytest.mark.parametrize("case", HAND_COUNTED.values(), ids=HAND_COUNTED.keys())
def test_posterior_hand_counted(case):
    available, n_cards, peek, expected = case
    frame = bid_posterior(available, n_cards, peek)
    assert exact(frame) == {total: Fraction(p) for total, p in expected.items()}
    assert frame["probability"].to_list() == pytest.approx(
        [float(Fraction(p)) for p in expected.values()]
    )
    assert exact(frame) == brute_force(available, n_cards, peek)


def test_a_peek_is_evidence_by_likelihood_not_a_filter():
    # Per combination (3 of 5,2,2,1, seen a 2): 1+2+2 has likelihood 2/3 and 1+2+5 only 1/3.
    frame = bid_posterior((5, 2, 2, 1), 3, (2, "held_out"), by="combination")
    rows = {row["cards"]: row for row in frame.iter_rows(named=True)}
    assert rows["1+2+2"]["likelihood"] == pytest.approx(2 / 3)
    assert rows["1+2+5"]["likelihood"] == pytest.approx(1 / 3)
    assert rows["1+2+5"]["ways"] == 2
    filtered = {5: Fraction(1, 4), 8: Fraction(1, 2), 9: Fraction(1, 4)}
    assert exact(bid_posterior((5, 2, 2, 1), 3, (2, "held_out"))) != filtered


def test_peek_forms_agree():
    forms = [(5, "held_out"), 5, Peek(target=0, card=5, source="held_out")]
    frames = [bid_posterior((5, 2, 2, 1), 3, form) for form in forms]
    assert all(frame.equals(frames[0]) for frame in frames)


def test_exact_likelihood_matches_the_cards_module():
    for available in [(10, 5, 2, 2, 1), (5, 2, 2, 1), (10, 2, 2, 1)]:
        for bid in sub_multisets(available):
            for card in [*sorted(set(available)), None]:
                for source in ("held_out", "unused"):
                    assert float(likelihood(available, bid, card, source)) == pytest.approx(
                        peek_likelihood(available, bid, card, source)
                    )


# -- invariants ------------------------------------------------------------------------------------

hands = st.lists(st.sampled_from(range(5)), unique=True).map(
    lambda positions: tuple(MONEY[i] for i in sorted(positions))
)


@st.composite
def hand_and_count(draw):
    available = draw(hands)
    return available, draw(st.integers(0, len(available)))


@settings(max_examples=60)
@given(hand_and_count())
def test_uniform_posterior_without_peek_is_possible_bids(case):
    available, n_cards = case
    posterior = bid_posterior(available, n_cards)
    assert exact(posterior) == exact(possible_bids(available, n_cards))
    assert sum(exact(posterior).values()) == 1
    assert exact(posterior) == brute_force(available, n_cards)


@settings(max_examples=60)
@given(hand_and_count())
def test_bayes_consistency_and_brute_force(case):
    # Averaging the posterior over what the peek may show, weighted by P(peek), gives the prior.
    available, n_cards = case
    prior = exact(possible_bids(available, n_cards))
    peeks = peek_distribution(available, n_cards)
    assert sum(Fraction(p) for p in peeks["exact"]) == 1
    averaged = dict.fromkeys(prior, Fraction(0))
    for row in peeks.iter_rows(named=True):
        peek = (row["card"], row["source"])
        posterior = exact(bid_posterior(available, n_cards, peek))
        assert sum(posterior.values()) == 1
        assert posterior == brute_force(available, n_cards, peek)
        for total, p in posterior.items():
            averaged[total] += Fraction(row["exact"]) * p
    assert averaged == prior


@st.composite
def variant_hand(draw):
    """Other money cards (a designer's variant), a hand from them, a count and a peek."""
    money = tuple(draw(st.lists(st.integers(1, 12), min_size=2, max_size=6)))
    rules = Rules(money_cards=money)
    positions = draw(st.lists(st.sampled_from(range(len(money))), unique=True))
    available = tuple(rules.money_cards[i] for i in sorted(positions))
    n_cards = draw(st.integers(0, len(available)))
    return rules, available, n_cards


@settings(max_examples=60)
@given(variant_hand())
def test_other_money_cards_match_brute_force(case):
    rules, available, n_cards = case
    assert exact(possible_bids(available, n_cards, rules=rules)) == brute_force(available, n_cards)
    for row in peek_distribution(available, n_cards, rules=rules).iter_rows(named=True):
        peek = (row["card"], row["source"])
        posterior = exact(bid_posterior(available, n_cards, peek, rules=rules))
        assert posterior == brute_force(available, n_cards, peek)


def test_other_money_cards_through_rules():
    rules = Rules(money_cards=(3, 3, 3, 1))
    frame = bid_posterior((3, 3, 1), 2, (3, "held_out"), rules=rules)
    # 3+3 (1 subset, sees a 3 surely), 1+3 (2 subsets, 1/2 each) -> 6: 1/2, 4: 1/2.
    assert exact(frame) == {4: Fraction(1, 2), 6: Fraction(1, 2)}
    assert exact(frame) == brute_force((3, 3, 1), 2, (3, "held_out"))


# -- bad input -------------------------------------------------------------------------------------

BAD_INPUT = {
    # what was wrong -> (available, n_cards, peek), the error and its message. Values of the
    # wrong kind are TypeErrors, values outside what the rules allow ValueErrors.
    "unknown card value": (((5, 3, 1), 2, None), ValueError, "unknown card value"),
    "more copies than exist": (((2, 2, 2), 2, None), ValueError, "owns only 2"),
    "more cards than available": (((5, 2, 2, 1), 5, None), ValueError, "cannot hold out 5"),
    "negative count": (((5, 2, 2, 1), -1, None), ValueError, "n_cards must be"),
    "count not a number": (((5, 2, 2, 1), "3", None), TypeError, r"n_cards must be .*'3'"),
    "count a float": (((5, 2, 2, 1), 3.0, None), TypeError, r"n_cards must be .*3.0"),
    "count a bool": (((5, 2, 2, 1), True, None), TypeError, r"n_cards must be .*True"),
    "card not a number": (((5, "2", 1), 2, None), TypeError, "available: card values must"),
    "not a sequence": ((5, 1, None), TypeError, "available must be a sequence of card values"),
    "peek source inconsistent": (((5, 2, 2, 1), 3, (5, "unused")), ValueError, "cannot have"),
    "peek source inconsistent, one card": (
        ((5, 2, 2, 1), 1, (5, "held_out")),
        ValueError,
        "cannot have",
    ),
    "peeked card not available": (((5, 2, 2, 1), 3, (10, "held_out")), ValueError, "not among"),
    "peek of nothing with cards unused": (
        ((5, 2, 2, 1), 1, (None, "unused")),
        ValueError,
        "cannot have",
    ),
    "unknown peek source": (((5, 2, 2, 1), 3, (5, "hand")), ValueError, "source must be one of"),
    "malformed peek": (((5, 2, 2, 1), 3, [5]), TypeError, "peek must be"),
    "peeked card a float": (((5, 2, 2, 1), 3, 5.0), TypeError, "peek must be"),
    "peeked card a string": (((5, 2, 2, 1), 3, ("5", "held_out")), TypeError, "card seen"),
}


@pytest.mark.parametrize("case", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_is_a_clear_error(case):
    (available, n_cards, peek), error, message = case
    with pytest.raises(error, match=message):
        bid_posterior(available, n_cards, peek)


def test_bad_prior_and_options():
    with pytest.raises(ValueError, match="needs situation="):
        bid_posterior((5, 2, 2, 1), 3, prior="heuristic")
    with pytest.raises(ValueError, match="unknown prior"):
        bid_posterior((5, 2, 2, 1), 3, prior="clever")
    with pytest.raises(TypeError, match=r"pass HeuristicAgent\(\)"):
        bid_posterior((5, 2, 2, 1), 3, prior=HeuristicAgent, situation=bidding_situation())
    with pytest.raises(ValueError, match="cannot be held out"):
        bid_posterior((5, 2, 2, 1), 3, prior={(10, 2, 1): 1})
    with pytest.raises(ValueError, match="no weight"):
        bid_posterior((5, 2, 2, 1), 3, prior={(5, 2): 1})
    with pytest.raises(ValueError, match="epsilon must be in"):
        bid_posterior((5, 2, 2, 1), 3, prior="random", epsilon=2, situation=bidding_situation())
    with pytest.raises(ValueError, match="by must be"):
        bid_posterior((5, 2, 2, 1), 3, by="card")
    with pytest.raises(ValueError, match=r"not a legal bid at any position: bid_minimum 'one'"):
        possible_bids((5, 2, 2, 1), 0, rules=Rules(bid_minimum="one"))


def test_the_bid_minimum_depends_on_the_bidding_position():
    # The rulebook: the First Bidder holds out "any number" of cards (none included), each
    # later bidder "one or more". A 0-card bid is the empty bid, total 0, with certainty.
    assert possible_bids((5, 2, 2, 1), 0)["total"].to_list() == [0]
    assert possible_bids((5, 2, 2, 1), 0, position=0)["exact"].to_list() == ["1"]
    with pytest.raises(ValueError, match=r"not a legal bid at bidding position 2"):
        possible_bids((5, 2, 2, 1), 0, position=2)
    with pytest.raises(ValueError, match=r"position must be a bidding position 0–3"):
        possible_bids((5, 2, 2, 1), 1, position=4)
    assert possible_bids((5, 2, 2, 1), 0, position=3, rules=Rules(bid_minimum="any")).height == 1
    with pytest.raises(ValueError, match=r"at bidding position 0"):
        peek_distribution((5, 2, 2, 1), 0, position=0, rules=Rules(bid_minimum="one"))
    with pytest.raises(ValueError, match=r"at bidding position 1"):
        bid_posterior((5, 2, 2, 1), 0, position=1)


def test_explicit_prior_is_exact():
    # Your own prior: 1+2+2 three times as likely as each other bid; seen a 2 (held out).
    # Weights: 1+2+2: 3 x 2/3 = 2; 1+2+5: 1 x 1/3; 2+2+5: 1 x 2/3 -> 6/9, 1/9, 2/9.
    frame = bid_posterior((5, 2, 2, 1), 3, 2, prior={(2, 2, 1): 3, Bid((5, 2, 1)): 1, (5, 2, 2): 1})
    assert exact(frame) == {5: Fraction(2, 3), 8: Fraction(1, 9), 9: Fraction(2, 9)}


# -- max bids --------------------------------------------------------------------------------------


def test_max_bid_rulebook_hints():
    # "If no one but you can use 10,000, their max bid is 10,000": 5+2+2+1.
    assert max_bid((5, 2, 2, 1)) == 10
    # "If one can't use a 5,000 ... his/her max will be 15,000 with all cards": 10+2+2+1.
    assert max_bid((10, 2, 2, 1)) == 15
    assert max_bid(MONEY) == 20
    assert max_bid(MONEY, 2) == 15
    assert max_bid((5, 2, 2, 1), 3) == 9
    with pytest.raises(ValueError, match="cannot hold out"):
        max_bid((5, 2, 2, 1), 5)


def test_max_bid_table_reads_locks_and_counts():
    # Round 1: seat 0 auctions item 0, First Bidder seat 0. Seats 0-2 hold out the 10 (0 wins,
    # 1 and 2 gain), seat 3 the 1 (cheapskate): seats 0-2 lock their 10 for round 2.
    state = new_game(Rules(), seed=0, starting_auctioneer=0)
    state = state.apply(Auction(0, 0))
    for cards in [(10,), (10,), (10,), (1,)]:
        state = state.apply(Bid(cards))
    # Round 2: seat 3 (cheapskate) auctions item 1 naming itself; it holds out 2 cards.
    state = state.apply(Auction(1, 3)).apply(Bid((10, 5)))
    table = max_bid_table(state.observation(0))
    rows = {row["seat"]: row for row in table.iter_rows(named=True)}
    assert sorted(rows) == [1, 2, 3]
    assert rows[1]["locked"] == 10 and rows[1]["max_bid"] == 10  # the rulebook's hint
    assert rows[1]["held_out"] is None and rows[1]["max_now"] is None
    assert rows[3]["max_bid"] == 20
    assert (rows[3]["held_out"], rows[3]["min_now"], rows[3]["max_now"]) == (2, 3, 15)
    # Seat 3 bids first (ahead of seat 0): beating its 15 needs 16; seats 1, 2 bid after seat 0.
    assert rows[3]["to_beat"] == 16 and rows[1]["to_beat"] == 10


# -- policy priors ----------------------------------------------------------------------


def test_random_policy_prior_is_uniform_over_multisets():
    # The random agent picks uniformly among legal bids (multisets): 1+2+2, 1+2+5 and 2+2+5 are
    # equally likely among the 3-card bids, unlike card subsets (1/4, 1/2, 1/4).
    situation = bidding_situation(locked=10)
    frame = bid_posterior(situation.available(1), 3, prior=RandomAgent(), situation=situation)
    assert frame["probability"].to_list() == pytest.approx([1 / 3] * 3)
    assert frame["exact"].is_null().all()
    # Seen a 2: likelihoods 2/3, 1/3, 2/3 -> 2/5, 1/5, 2/5.
    seen = bid_posterior(situation.available(1), 3, 2, prior="random", situation=situation)
    assert seen["probability"].to_list() == pytest.approx([0.4, 0.2, 0.4])
    assert "RandomAgent" in seen["method"][0] and "exact" in seen["method"][0]


def test_heuristic_prior_contradiction_and_epsilon():
    situation = bidding_situation(locked=5)
    available = situation.available(1)
    # The heuristic as First Bidder here holds out 3 cards (1+2+2) when it does not want the
    # item and 4 (all) when it does; it never holds out 1 card.
    with pytest.raises(ValueError, match="epsilon > 0"):
        bid_posterior(available, 1, prior="heuristic", situation=situation)
    assert bid_posterior(available, 3, prior="heuristic", situation=situation)[
        "probability"
    ].to_list() == pytest.approx([1, 0, 0])
    # With epsilon, each geek's distribution is (1 - e) * heuristic + e * uniform over the 12
    # legal bids (multisets of 10, 2, 2, 1); given 1 card, only the uniform part remains:
    # 1, 2 and 10 in proportion 1:1:1.
    mixed = bid_posterior(available, 1, prior="heuristic", situation=situation, epsilon=0.1)
    assert mixed["probability"].to_list() == pytest.approx([1 / 3] * 3)
    # Given 3 cards: mass (0.9 + 0.1/12) on 1+2+2 for the 5 geeks that don't want item 1 and
    # 0.1/12 for the 2 that do (Ada, Basil); 1+2+10 and 2+2+10 get 0.1/12 each.
    e = 0.1 / 12
    weights = [(5 * (0.9 + e) + 2 * e) / 7, e, e]
    three = bid_posterior(available, 3, prior="heuristic", situation=situation, epsilon=0.1)
    assert three["probability"].to_list() == pytest.approx([w / sum(weights) for w in weights])


def sampled_random_agent(observation, legal, rng):
    """A policy without action_probabilities: must be estimated by sampling."""
    return legal[int(rng.random() * len(legal))]


def test_sampled_policy_is_an_estimate_with_interval():
    situation = bidding_situation(locked=10)
    kwargs = dict(prior=sampled_random_agent, situation=situation, samples=300, bootstrap=100)
    frame = bid_posterior(situation.available(1), 3, **kwargs)
    assert "ESTIMATED from 300 seeded samples" in frame["method"][0]
    assert frame["exact"].is_null().all()
    assert frame["low"].is_not_null().all() and frame["high"].is_not_null().all()
    assert (frame["low"] <= frame["probability"]).all()
    assert (frame["probability"] <= frame["high"]).all()
    # The exact answer (1/3 each) lies inside the intervals; the same seed repeats exactly.
    assert ((frame["low"] < 1 / 3) & (frame["high"] > 1 / 3)).all()
    assert frame.equals(bid_posterior(situation.available(1), 3, **kwargs))


def test_policy_situation_must_match():
    situation = bidding_situation(locked=10)
    with pytest.raises(ValueError, match="differs from what the situation's bidder"):
        bid_posterior(MONEY, 3, prior="random", situation=situation)
    with pytest.raises(ValueError, match="geeks must be one or more distinct geek numbers 0–6"):
        bid_posterior((5, 2, 2, 1), 3, prior="random", situation=situation, geeks=[9])


# -- infer: real observations ------------------------------------------------------------


@pytest.fixture(scope="module")
def heuristic_game():
    return play_game(Rules(), [HeuristicAgent()] * 4, seed=7)


def test_infer_uniform_matches_bid_posterior(heuristic_game):
    for observation in observations_before_last_bid(heuristic_game):
        peek = observation.peek
        for seat in observation.order[:-1]:
            result = infer(observation, seat)
            count = observation.held_out[seat]
            evidence = (peek.card, peek.source) if peek.target == seat else None
            expected = bid_posterior(observation.available(seat), count, evidence)
            assert exact(result.bids) == exact(expected)
        geeks = result.geeks
        assert geeks.height == 3 * 6  # three opponents, the six geeks you don't hold
        assert set(geeks["exact"]) == {"1/6"}


def test_infer_heuristic_learns_the_truth(heuristic_game):
    inference = game_inference(heuristic_game, priors=("uniform", "heuristic"))
    scores = inference.scores
    heuristic = scores.filter(pl.col("prior") == "heuristic")
    # Deterministic policy, played by that policy: the truth always keeps positive probability.
    assert (heuristic["p_true_total"] > 0).all()
    assert (heuristic["p_true_geek"] > 0).all()
    summary = {row["prior"]: row for row in inference.summary.iter_rows(named=True)}
    assert summary["uniform"]["p_true_geek"] == pytest.approx(1 / 6)
    assert summary["heuristic"]["p_true_total"] > summary["uniform"]["p_true_total"]
    assert summary["heuristic"]["bids"] == 21  # 7 rounds x 3 opponents bid before the observer


def test_infer_assumptions_and_deal_count():
    rules = Rules(players=5)
    state = play_game(rules, [HeuristicAgent()] * 5, seed=3)
    observation = observations_before_last_bid(state)[2]
    result = infer(observation, observation.order[0], prior="heuristic")
    deal = result.assumptions.filter(pl.col("topic") == "deal")["assumption"][0]
    assert "360 equally likely deals" in deal
    assert result.bids["probability"].sum() == pytest.approx(1)
    for seat in range(5):
        if seat != observation.player:
            mass = result.geeks.filter(pl.col("seat") == seat)["probability"].sum()
            assert mass == pytest.approx(1)


def test_infer_random_game_contradicts_heuristic_without_epsilon():
    state = play_game(Rules(), [RandomAgent()] * 4, seed=11)
    observation = observations_before_last_bid(state)[3]
    with pytest.raises(ValueError, match="epsilon > 0"):
        infer(observation, observation.order[0], prior="heuristic")
    result = infer(observation, observation.order[0], prior="heuristic", epsilon=0.2)
    assert result.bids["probability"].sum() == pytest.approx(1)


def test_infer_rejects_bad_requests(heuristic_game):
    observation = observations_before_last_bid(heuristic_game)[1]
    me = observation.player
    with pytest.raises(ValueError, match="is the observer"):
        infer(observation, me)
    with pytest.raises(ValueError, match="must be a seat"):
        infer(observation, 9)
    with pytest.raises(TypeError, match="Observation"):
        infer("round 2", 0)
    target = observation.peek.target
    impossible = dataclasses.replace(observation, peek=Peek(target, None, observation.peek.source))
    with pytest.raises(ValueError, match="cannot have happened"):
        infer(impossible, target)
    tampered = dataclasses.replace(observation, fame=(99, 0, 0, 0))
    with pytest.raises(ValueError, match="not a game these rules produce"):
        infer(tampered, target)
    # Before anyone bids there is no hidden bid; geeks only is fine.
    auction_phase = new_game(Rules(), seed=1).observation(0)
    with pytest.raises(ValueError, match="has not held out cards"):
        infer(auction_phase, 1)
    assert infer(auction_phase).bids.height == 0


ENTRY_POINT_ERRORS = {
    # call on a real mid-game observation -> error and message (the argument named)
    "a geek that does not exist": (
        lambda o: infer(dataclasses.replace(o, geek=99)),
        ValueError,
        r"observation.geek must be a whole number from 0 to 6, got 99",
    ),
    "a seat that does not exist": (
        lambda o: max_bid_table(dataclasses.replace(o, player=9)),
        ValueError,
        r"observation.player must be a whole number from 0 to 3, got 9",
    ),
    "an opponent given as a float": (
        lambda o: infer(o, 1.0),
        TypeError,
        r"opponent must be a seat 0–3 or None, got 1.0 \(float\)",
    ),
    "history not a flag": (
        lambda o: infer(o, history="yes"),
        TypeError,
        r"history must be True or False",
    ),
    "a negative seed": (lambda o: infer(o, seed=-1), ValueError, r"seed must be a non-negative"),
    "a float seed": (lambda o: infer(o, seed=1.5), TypeError, r"seed must be a non-negative"),
    "no samples": (lambda o: infer(o, samples=0), ValueError, r"samples must be a positive"),
    "epsilon a bool": (lambda o: infer(o, epsilon=True), TypeError, r"epsilon must be a number"),
    "a prior that is no prior": (lambda o: infer(o, prior=5), TypeError, r"a prior is 'uniform'"),
    "a prior keyed by nonsense": (
        lambda o: bid_posterior((5, 2, 2, 1), 3, prior={5: 1}),
        TypeError,
        r"prior keys must be bids",
    ),
    "a prior weight as text": (
        lambda o: bid_posterior((5, 2, 2, 1), 3, prior={(5, 2, 1): "1"}),
        TypeError,
        r"prior weights must be numbers >= 0, got '1'",
    ),
    "a bidding situation for a seat as text": (
        lambda o: bidding_situation(bidder="1"),
        TypeError,
        r"bidder must be a seat 0–3, got '1'",
    ),
    "a locked card as a float": (
        lambda o: bidding_situation(locked=5.0),
        ValueError,
        r"locked must be None or one of the money cards",
    ),
    "game_inference on an observation": (
        lambda o: game_inference(o),
        TypeError,
        r"state must be an engine State, got Observation",
    ),
    "game_inference with no priors": (
        lambda o: game_inference(play_game(Rules(), ["heuristic"] * 4, seed=1), priors=[]),
        ValueError,
        r"priors must name at least one prior",
    ),
}


@pytest.mark.parametrize(
    ("call", "error", "message"), ENTRY_POINT_ERRORS.values(), ids=ENTRY_POINT_ERRORS
)
def test_inference_entry_points_name_the_bad_argument(heuristic_game, call, error, message):
    observation = observations_before_last_bid(heuristic_game)[1]
    with pytest.raises(error, match=message):
        call(observation)


def test_numpy_integers_work_like_ints_in_inference(heuristic_game):
    observation = observations_before_last_bid(heuristic_game)[1]
    seat = observation.order[0]
    assert infer(observation, np.int64(seat)).bids.equals(infer(observation, seat).bids)
    assert possible_bids(np.array([5, 2, 2, 1]), np.int8(3)).equals(possible_bids((5, 2, 2, 1), 3))
    single = game_inference(heuristic_game, priors="uniform")
    assert single.summary["prior"].to_list() == ["uniform"]
