"""The explorers, driven through their controls: each setting gives the package's numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from workbench.games.rubbish import bid_inference_explorer, cheapskate_explorer


def exact_by_cards(frame) -> dict[str, Fraction]:
    return {row["cards"]: Fraction(row["exact"]) for row in frame.iter_rows(named=True)}


@pytest.fixture
def bids():
    return bid_inference_explorer()


def test_bid_explorer_starts_at_the_rulebook_example(bids):
    # The 10 locked, 3 cards held out, no peek: 1+2+2, 1+2+5 (two ways), 2+2+5.
    assert bids.error is None and bids.chart is not None
    assert exact_by_cards(bids.frame) == {
        "1+2+2": Fraction(1, 4),
        "1+2+5": Fraction(1, 2),
        "2+2+5": Fraction(1, 4),
    }
    assert bids.frame["ways"].to_list() == [1, 2, 1]


# Each: control settings -> exact posterior by card combination (hand counts in test_inference).
SETTINGS = {
    "peek a 5": (dict(peek=5), {"1+2+2": 0, "1+2+5": "2/3", "2+2+5": "1/3"}),
    "peek a 2 (likelihood, not a filter)": (
        dict(peek=2),
        {"1+2+2": "1/3", "1+2+5": "1/3", "2+2+5": "1/3"},
    ),
    "one card, unused 5 seen": (dict(held_out=1, peek=5), {"1": "1/3", "2": "2/3", "5": 0}),
    "nothing locked, all five": (dict(locked=None, held_out=5), {"1+2+2+5+10": 1}),
}


@pytest.mark.parametrize("case", SETTINGS.values(), ids=SETTINGS.keys())
def test_bid_explorer_settings(bids, case):
    values, expected = case
    bids.set(**values)
    assert bids.error is None
    assert exact_by_cards(bids.frame) == {cards: Fraction(p) for cards, p in expected.items()}
    assert bids.frame["probability"].sum() == pytest.approx(1)


def test_bid_explorer_reports_bad_combinations(bids):
    bids.set(held_out=5)  # only 4 cards usable with the 10 locked
    assert bids.frame is None and bids.chart is None
    assert "cannot hold out 5 cards" in bids.error
    bids.set(locked=5, held_out=3, peek=5)  # the locked 5 cannot be seen
    assert "not among the available cards" in bids.error
    bids.set(locked=10, held_out=1, peek=10)
    assert "not among the available cards" in bids.error
    bids.set(peek=None, held_out=3)  # recovers
    assert bids.error is None and bids.frame.height == 3


def test_bid_explorer_policy_priors(bids):
    bids.set(prior="random")  # uniform over legal multisets: 1/3 each
    assert bids.frame["probability"].to_list() == pytest.approx([1 / 3] * 3)
    assert bids.frame["exact"].is_null().all()
    bids.set(prior="heuristic", locked=5, held_out=1)  # the heuristic never bids 1 card here
    assert "epsilon > 0" in bids.error
    bids.set(epsilon=0.2)
    assert bids.error is None
    assert bids.frame["probability"].to_list() == pytest.approx([1 / 3] * 3)


def test_bid_explorer_sampling_prior_is_an_estimate(bids):
    bids.set(prior="sampling")
    assert bids.error is None
    assert {"low", "high"} <= set(bids.frame.columns)
    assert bids.frame["probability"].sum() == pytest.approx(1)


@pytest.fixture
def cheapskates():
    return cheapskate_explorer(games=500, seed=3)


def test_cheapskate_explorer_reruns_with_the_rules(cheapskates):
    assert cheapskates.error is None and cheapskates.chart is not None
    assert cheapskates.frame["seat"].to_list() == [0, 1, 2, 3]
    assert cheapskates.frame["times_mean"].sum() == pytest.approx(7)
    assert cheapskates.frame["fair_share"].to_list() == [1.75] * 4
    cheapskates.set(players=3, destined_bonus=0, starting_fame=10, bid_minimum="one")
    assert cheapskates.error is None
    assert cheapskates.frame["seat"].to_list() == [0, 1, 2]
    assert cheapskates.frame["fair_share"].to_list() == pytest.approx([7 / 3] * 3)
    assert cheapskates.frame["times_mean"].sum() == pytest.approx(7)


def test_cheapskate_explorer_line_ups_and_determinism(cheapskates):
    cheapskates.set(players=4, lineup="heuristic vs random")
    assert cheapskates.frame["agent"].to_list() == ["heuristic", "random"] * 2
    first = cheapskates.frame
    cheapskates.set(lineup="heuristic")
    cheapskates.set(lineup="heuristic vs random")
    assert cheapskates.frame.equals(first)
