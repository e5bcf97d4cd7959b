"""Your chances with each bid: hand counts, an independent brute force over physical card
subsets, the two exact methods against each other, and the heuristic model against play."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from workbench.games import rubbish
from workbench.games.rubbish.outcomes import BidOutcomes, bid_outcomes, model_names, peek_chances
from workbench.stats import proportion_interval

#: The heuristic bids deterministically; its call still takes a generator.
RNG = np.random.default_rng(0)


def exact(frame, column: str) -> dict[str, Fraction]:
    return {row["bid"]: Fraction(row[column] or "0") for row in frame.iter_rows(named=True)}


def second_bidder_of_two(card: int = 2) -> rubbish.Observation:
    """Two players; seat 1 auctions and names itself First Bidder, holds out one ``card``;
    seat 0 bids second, having peeked at one of seat 1's unused cards."""
    state = rubbish.new_game(rubbish.Rules(players=2), seed=1, starting_auctioneer=1)
    state = state.apply(rubbish.Auction(0, 1)).apply(rubbish.Bid((card,)))
    return state.observation(0)


def test_hand_count_two_players():
    observation = second_bidder_of_two()
    # This deal's peek shows a 5 among seat 1's unused cards. Seat 1 held out one physical
    # card, each alike: 10, 5, 2, 2 or 1. Seeing the 5 among the other four rules out the 5
    # and has chance 1/4 otherwise: P(10) = 1/4, P(2) = 1/2, P(1) = 1/4.
    assert observation.peek == rubbish.Peek(1, 5, "unused")
    frame = bid_outcomes(observation)
    win, cheap = exact(frame, "exact_win"), exact(frame, "exact_cheapskate")
    # Seat 1 bid first, so it wins ties for highest and we are the cheapskate on ties for lowest.
    assert win["2 = 2"] == Fraction(1, 4)  # beats only the 1
    assert cheap["2 = 2"] == Fraction(3, 4)  # 2 or 10 against us
    assert win["2+1 = 3"] == win["10 = 10"] == Fraction(3, 4)  # loses to the 10 (a tie at 10)
    assert win["10+1 = 11"] == 1 and cheap["10+1 = 11"] == 0
    if "0" in win:  # an empty bid, where the rules let the second bidder hold out nothing
        assert win["0"] == 0 and cheap["0"] == 1
    assert set(frame["method"]) == {"uniform over physical card subsets; exact fractions"}


def test_hand_count_first_bidder_of_two():
    # Seat 0 bids first, seat 1 after: uniform over the physical subsets of 10, 5, 2, 2, 1 it
    # may hold out: all 32, or the 31 non-empty ones where a later bidder must hold out a card.
    state = rubbish.new_game(rubbish.Rules(players=2), seed=1)
    state = state.apply(rubbish.Auction(0, 0))
    observation = state.observation(0)
    frame = bid_outcomes(observation)
    win, cheap = exact(frame, "exact_win"), exact(frame, "exact_cheapskate")
    empty_allowed = rubbish.Bid(()) in state.apply(state.legal_actions()[-1]).legal_actions()
    subsets = 32 if empty_allowed else 31
    # We win with 10 when seat 1's total is at most 10: the subsets of 5, 2, 2, 1 (16, the
    # empty one included) plus the 10 alone. We are the cheapskate when it is above 10: 15.
    at_most_ten = 17 if empty_allowed else 16
    assert win["10 = 10"] == Fraction(at_most_ten, subsets)
    assert cheap["10 = 10"] == Fraction(15, subsets)
    # With nothing: we win only when seat 1 holds out nothing too (the tie is ours as First
    # Bidder) and are the cheapskate whenever it holds out anything.
    if "0" in win:
        assert win["0"] == Fraction(1 if empty_allowed else 0, subsets)
        assert cheap["0"] == Fraction(31, subsets)


def physical_subsets(cards: tuple[int, ...], sizes) -> list[tuple[int, ...]]:
    return [
        tuple(cards[i] for i in chosen)
        for size in sizes
        for chosen in itertools.combinations(range(len(cards)), size)
    ]


def peek_chance(cards: tuple[int, ...], held: tuple[int, ...], peek) -> Fraction:
    """The rulebook's peek, written out: a held-out card if 2+, else an unused card."""
    pool = list(held) if len(held) >= 2 else list((Counter(cards) - Counter(held)).elements())
    source = "held_out" if len(held) >= 2 else "unused"
    if peek.source != source:
        return Fraction(0)
    if not pool:
        return Fraction(peek.card is None)
    return Fraction(pool.count(peek.card), len(pool))


def brute_force(state: rubbish.State, me: int) -> tuple[dict, dict]:
    """Independent of the package: every physical card subset of every hidden bid, the
    uniform model, the outcome rules applied to every combination."""
    observation = state.observation(me)
    order = observation.order
    place = order.index(me)
    earlier, later = order[:place], order[place + 1 :]
    # Which sizes later bidders may hold out: from the engine's legal bids at their turn.
    probe = state.apply(state.legal_actions()[0])
    sizes = {}
    for seat in later:
        sizes[seat] = sorted({bid.count for bid in probe.legal_actions()})
        probe = probe.apply(probe.legal_actions()[0])
    hidden = []
    for seat in earlier:
        cards = observation.available(seat)
        options = []
        for held in physical_subsets(cards, [observation.held_out[seat]]):
            weight = Fraction(1)
            if seat == order[place - 1] and observation.peek is not None:
                weight = peek_chance(cards, held, observation.peek)
            options.append((sum(held), weight))
        hidden.append(options)
    for seat in later:
        cards = observation.available(seat)
        hidden.append([(sum(held), Fraction(1)) for held in physical_subsets(cards, sizes[seat])])
    wins, cheaps = Counter(), Counter()
    total = Fraction(0)
    mine = state.legal_actions()
    for combination in itertools.product(*hidden):
        weight = Fraction(1)
        for _, w in combination:
            weight *= w
        if not weight:
            continue
        total += weight
        before = [t for t, _ in combination[: len(earlier)]]
        after = [t for t, _ in combination[len(earlier) :]]
        for bid in mine:
            t = bid.total
            if all(x < t for x in before) and all(x <= t for x in after):
                wins[str(bid)] += weight
            if all(x >= t for x in before) and all(x > t for x in after):
                cheaps[str(bid)] += weight
    return (
        {str(b): wins[str(b)] / total for b in mine},
        {str(b): cheaps[str(b)] / total for b in mine},
    )


def decisions(players: int, seed: int, opponents: str = "heuristic"):
    """Every bidding decision of seat 0 in a seeded game (it plays the heuristic too)."""
    from workbench.sessions.session import Session

    session = Session("rubbish", rubbish.Rules(players=players), seed=seed, opponents=opponents)
    while not session.is_over:
        if session.state.phase == "bid":
            yield session.state
        session.autoplay("heuristic", 1)


def test_uniform_model_matches_a_brute_force_over_card_subsets():
    checked = Counter()
    for state in decisions(players=3, seed=5):
        observation = state.observation(0)
        frame = bid_outcomes(observation)
        win, cheap = brute_force(state, 0)
        assert exact(frame, "exact_win") == win
        assert exact(frame, "exact_cheapskate") == cheap
        checked[observation.order.index(0)] += 1
    assert set(checked) == {0, 1, 2}  # first, middle and last bidder all seen


# The enumeration is the slow cross-check (seconds when two bidders follow you): every place
# with at most one bidder after it, in games of two and three.
AGREE = [("uniform", 3, {1, 2}), ("random", 3, {1, 2}), ("uniform", 2, {0, 1}), ("random", 2, {0})]


@pytest.mark.parametrize(("model", "players", "places"), AGREE)
def test_the_two_exact_methods_agree(model, players, places):
    seen = set()
    for state in decisions(players=players, seed=12):
        observation = state.observation(0)
        place = observation.order.index(0)
        if place not in places or place in seen:
            continue
        seen.add(place)
        product = BidOutcomes(model).compute(observation)
        enumerated = BidOutcomes(model, method="enumerate").compute(observation)
        if model == "uniform":  # both in fractions: equal to the last digit
            assert product["exact_win"].to_list() == enumerated["exact_win"].to_list()
            assert product["exact_cheapskate"].to_list() == enumerated["exact_cheapskate"].to_list()
        else:
            assert product["p_win"].to_list() == pytest.approx(enumerated["p_win"].to_list())
            assert product["p_cheapskate"].to_list() == pytest.approx(
                enumerated["p_cheapskate"].to_list()
            )
    assert seen == places


def test_a_sure_win_is_certain_under_every_model():
    sure_wins = 0
    for state in decisions(players=4, seed=3):
        observation = state.observation(0)
        sure = rubbish.max_bid_table(observation)["to_beat"].max()
        for model in model_names():
            try:
                frame = bid_outcomes(observation, model)
            except ValueError as exc:  # a model that could not have played what was seen
                assert model != "uniform" and "cannot have produced" in str(exc)
                continue
            certain = frame.filter(frame["total"] >= sure)
            sure_wins += certain.height
            assert certain["p_win"].to_list() == pytest.approx([1.0] * certain.height, abs=1e-12)
            if model == "uniform":
                assert set(certain["exact_win"]) <= {"1"}
            assert ((frame["p_win"] + frame["p_cheapskate"]) <= 1).all()
    assert sure_wins > 0


@pytest.mark.slow
def test_the_heuristic_model_matches_heuristic_play():
    """Three players, round 1. We (seat 0, geek 0) auction item 3 and name seat 2 First
    Bidder: seat 2 bids, we peek, we bid, seat 1 bids. Replay the deal many times with fresh
    geeks for the others and fresh peeks, keep the games whose public record and our peek
    match the observed one, and count how often each of our bids wins and is the cheapskate:
    the exact figures must lie in the intervals (99.9%: eight figures are checked at once)."""
    rules = rubbish.Rules(players=3)
    heuristic = rubbish.make_agent("heuristic")

    def opening(seed: int, geeks: tuple[int, ...]) -> rubbish.State:
        state = rubbish.new_game(rules, seed=seed, geeks=geeks, starting_auctioneer=0)
        state = state.apply(rubbish.Auction(3, 2))
        return state.apply(heuristic(state.observation(2), state.legal_actions(), RNG))

    observed = opening(0, (0, 2, 4))  # seat 2 (geek 4, not wanting item 3) holds out cards
    observation = observed.observation(0)
    frame = bid_outcomes(observation, "heuristic")
    # Seat 2 held out 5+2+2+1 (we saw a 2): bids around its 10 are the uncertain ones.
    ours = [
        rubbish.Bid((10,)),
        rubbish.Bid((5, 2, 2, 1)),
        rubbish.Bid((10, 1)),
        rubbish.Bid((10, 2, 2)),
    ]
    rng = np.random.default_rng(20240611)
    kept, wins, cheapskates = 0, Counter(), Counter()
    for seed in range(1, 8001):
        others = rng.permutation([1, 2, 3, 4, 5, 6])[:2]
        state = opening(seed, (0, int(others[0]), int(others[1])))
        seen = state.observation(0)
        if seen.held_out != observation.held_out or seen.peek != observation.peek:
            continue
        kept += 1
        for bid in ours:
            after = state.apply(bid)
            after = after.apply(heuristic(after.observation(1), after.legal_actions(), RNG))
            wins[bid] += after.history[-1].winner == 0
            cheapskates[bid] += after.history[-1].cheapskate == 0
    assert kept > 300
    uncertain = 0
    for bid in ours:
        row = frame.filter(frame["bid"] == str(bid)).row(0, named=True)
        for p, count in ((row["p_win"], wins[bid]), (row["p_cheapskate"], cheapskates[bid])):
            low, high = proportion_interval(count, kept, confidence=0.999)
            assert low <= p <= high, (bid, p, count, kept)
            uncertain += 0 < p < 1
    assert uncertain >= 3


def test_peek_chances_follow_the_rule():
    cards = (10, 5, 2, 2, 1)
    # Two or more held out: one of them, blind. One or none: one of the unused cards.
    assert peek_chances(3, cards, rubbish.Bid((5, 2))) == [
        (rubbish.Peek(3, 5, "held_out"), Fraction(1, 2)),
        (rubbish.Peek(3, 2, "held_out"), Fraction(1, 2)),
    ]
    assert dict((p.card, q) for p, q in peek_chances(3, cards, rubbish.Bid((2,)))) == {
        10: Fraction(1, 4),
        5: Fraction(1, 4),
        2: Fraction(1, 4),
        1: Fraction(1, 4),
    }
    assert peek_chances(3, (10,), rubbish.Bid((10,))) == [
        (rubbish.Peek(3, None, "unused"), Fraction(1))
    ]


def test_bad_input():
    state = rubbish.new_game(seed=0)
    with pytest.raises(ValueError, match="own bidding decision"):
        bid_outcomes(state.observation(0))  # an auction decision, not a bid
    with pytest.raises(TypeError, match="must be a rubbish Observation"):
        bid_outcomes("seat 0")
    bidding = state.apply(rubbish.Auction(0, 1)).observation(1)
    with pytest.raises(ValueError, match="unknown opponent model 'oracle'"):
        bid_outcomes(bidding, "oracle")
    with pytest.raises(ValueError, match="unknown opponent model 'sampling'"):
        bid_outcomes(bidding, "sampling")  # no stated probabilities: not exact
    with pytest.raises(ValueError, match="method must be"):
        BidOutcomes("uniform", method="guess")


def test_a_model_contradicted_by_play_says_so():
    state = rubbish.new_game(seed=0).apply(rubbish.Auction(0, 1))
    # The heuristic never holds out all five cards in round 1 of an item it may not want.
    state = state.apply(rubbish.Bid((10, 5, 2, 2, 1)))
    with pytest.raises(ValueError, match="choose the uniform model"):
        bid_outcomes(state.observation(2), "heuristic")
    assert bid_outcomes(state.observation(2), "uniform")["p_win"].max() == 0
