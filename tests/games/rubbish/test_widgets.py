"""The explorers, driven through their controls: each setting gives the package's numbers."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from workbench.games import rubbish
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


def test_bid_explorer_bounds_follow_the_situation(bids):
    held_out, peek = bids.controls["held_out"], bids.controls["peek"]
    assert (held_out.min, held_out.max) == (0, 4)  # the 10 locked: four usable cards
    assert [label for label, _ in peek.options] == ["no peek", "a 5", "a 2", "a 1"]
    with pytest.raises(ValueError, match=r"held_out=5 is not possible here; allowed 0–4"):
        bids.set(held_out=5)
    bids.set(locked=None, held_out=5)  # nothing locked: all five
    assert held_out.max == 5 and bids.frame["cards"].to_list() == ["1+2+2+5+10"]
    with pytest.raises(ValueError, match=r"peek=5 is not possible here; options: None, 10, 2, 1"):
        bids.set(locked=5, held_out=3, peek=5)  # the locked 5 cannot be seen
    assert bids.values()["locked"] is None  # refused: nothing changed
    bids.set(locked=1, held_out=2)
    assert [label for label, _ in peek.options] == ["no peek", "a 10", "a 5", "a 2"]


def test_bid_explorer_minimum_follows_the_bidders_position(bids):
    # The rulebook: the First Bidder may hold out no cards, every later bidder at least one.
    held_out = bids.controls["held_out"]
    assert held_out.min == 0
    bids.set(position=1)
    assert held_out.min == 1
    with pytest.raises(ValueError, match=r"held_out=0 is not possible here; allowed 1–4"):
        bids.set(held_out=0)
    bids.set(position=0, held_out=0)
    assert bids.frame["cards"].to_list() == ["nothing"]
    # A policy prior plays the scripted situation, where the bidder is the First Bidder.
    with pytest.raises(ValueError, match=r"position=1 is not possible here; options: 0"):
        bids.set(held_out=2, position=1, prior="heuristic")
    bids.set(held_out=2, position=1)
    bids.set(prior="heuristic", epsilon=0.1)
    assert bids.controls["position"].options == (("the First Bidder", 0),)
    assert bids.values()["position"] == 0 and held_out.min == 0


def test_bid_explorer_labels_none_and_disables_what_does_nothing(bids):
    assert bids.controls["locked"].label == "10" and bids.controls["peek"].label == "no peek"
    assert bids.controls["epsilon"].disabled and bids.controls["seed"].disabled  # uniform
    bids.set(prior="heuristic")
    assert not bids.controls["epsilon"].disabled and bids.controls["seed"].disabled
    bids.set(prior="sampling")
    assert not bids.controls["seed"].disabled
    assert all(getattr(c, "continuous_update", False) is False for c in bids.controls.values())


def test_bid_explorer_names_the_model_in_the_chart_title(bids):
    title = bids.chart.to_dict()["title"]
    assert title["text"] == "The First Bidder holds out 3 of 1+2+2+5, no peek"
    assert title["subtitle"] == ["every card set equally likely (exact)"]
    bids.set(prior="heuristic", epsilon=0.2, peek=2)
    title = bids.chart.to_dict()["title"]
    assert title["text"] == "The First Bidder holds out 3 of 1+2+2+5, the peek saw a 2"
    assert title["subtitle"] == ["heuristic-agent prior, epsilon 0.20"]


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


def _exact_shares(frame) -> tuple[float, float]:
    """Seven cheapskates per game and one (split) win: exact whatever the play."""
    return frame["times_mean"].sum(), frame["win_rate"].sum()


def test_cheapskate_explorer_reruns_with_the_rules(cheapskates):
    assert cheapskates.error is None and cheapskates.chart is not None
    assert cheapskates.frame["seat"].to_list() == [0, 1, 2, 3]
    assert _exact_shares(cheapskates.frame) == pytest.approx((7, 1))
    assert cheapskates.frame["fair_share"].to_list() == [1.75] * 4
    cheapskates.set(players=3, destined_bonus=0, starting_fame=10, bid_minimum="one")
    assert cheapskates.error is None
    assert cheapskates.frame["seat"].to_list() == [0, 1, 2]
    assert cheapskates.frame["fair_share"].to_list() == pytest.approx([7 / 3] * 3)
    assert _exact_shares(cheapskates.frame) == pytest.approx((7, 1))


def test_cheapskate_explorer_games_and_seed_are_controls(cheapskates):
    first = cheapskates.frame
    cheapskates.set(seed=4)
    assert not cheapskates.frame.equals(first)
    cheapskates.set(seed=3)
    assert cheapskates.frame.equals(first)
    cheapskates.set(games=1_000)
    assert _exact_shares(cheapskates.frame) == pytest.approx((7, 1))
    assert [label for label, _ in cheapskates.controls["games"].options][:2] == ["500", "5,000"]
    assert cheapskates.controls["seed"].continuous_update is False


def test_cheapskate_explorer_charts_the_win_rate_and_names_the_variant(cheapskates):
    cheapskates.set(starting_auctioneer="random", lineup="heuristic vs random")
    spec = cheapskates.chart.to_dict()
    assert spec["title"]["text"] == (
        "4 players, destined bonus 30, starting fame 30, bid minimum First Bidder 0, later 1 "
        "(rulebook), first auctioneer drawn at random"
    )
    assert spec["title"]["subtitle"] == "heuristic vs random line-up, 500 games, seed 3"
    titles = [panel["title"]["text"] for panel in spec["hconcat"]]
    assert titles == ["Times cheapskate per game", "Win rate"]
    assert {"win_rate", "win_low", "win_high"} <= set(cheapskates.frame.columns)


def test_cheapskate_explorer_line_ups_and_determinism(cheapskates):
    cheapskates.set(players=4, lineup="heuristic vs random")
    assert cheapskates.frame["agent"].to_list() == ["heuristic", "random"] * 2
    first = cheapskates.frame
    cheapskates.set(lineup="heuristic")
    cheapskates.set(lineup="heuristic vs random")
    assert cheapskates.frame.equals(first)


def test_the_sampling_prior_remembers_calls_without_changing_results():
    # The explorer's sampling agent remembers its calls; results equal the plain agent's, and
    # the generator ends where the plain agent leaves it.
    from workbench.games.rubbish.widgets import EXPLORER_ROLLOUTS, EXPLORER_SAMPLES, _remembered

    situation = rubbish.bidding_situation(locked=10)
    options = dict(situation=situation, samples=EXPLORER_SAMPLES, seed=3, epsilon=0.1)
    plain = rubbish.bid_posterior(
        (5, 2, 2, 1), 3, 5, rubbish.SamplingAgent(samples=EXPLORER_ROLLOUTS), **options
    )
    remembered = _remembered(rubbish.SamplingAgent(samples=EXPLORER_ROLLOUTS))
    assert type(remembered).__name__ == "SamplingAgent"
    for _ in range(2):  # the second time from memory
        assert rubbish.bid_posterior((5, 2, 2, 1), 3, 5, remembered, **options).equals(plain)
    first, second = np.random.default_rng(9), np.random.default_rng(9)
    agent = rubbish.SamplingAgent(samples=EXPLORER_ROLLOUTS)
    state = rubbish.new_game(seed=4)
    observation, legal = state.observation(state.to_play), state.legal_actions()
    assert remembered(observation, legal, first) == agent(observation, legal, second)
    assert remembered(observation, legal, first) == agent(observation, legal, second)
    assert first.bit_generator.state == second.bit_generator.state


def test_a_click_on_a_total_shows_the_combinations_with_that_total(bids):
    totals = bids.frame["total"].unique().sort().to_list()
    bids.pick({"total": totals[-1]})
    assert bids.shown.rows() == bids.frame.filter(bids.frame["total"] == totals[-1]).rows()
    assert 0 < bids.shown.height < bids.frame.height
    bids.pick()
    assert bids.shown.height == bids.frame.height


def test_a_click_on_a_seat_shows_that_seat_s_row(cheapskates):
    cheapskates.pick({"seat": 1})
    assert cheapskates.shown["seat"].to_list() == [1]
    assert cheapskates.shown.rows() == cheapskates.frame.filter(
        cheapskates.frame["seat"] == 1
    ).rows()
