"""The Rubbish Auction panel beside the table, driven through a complete seeded game."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.games import rubbish
from workbench.games.rubbish.outcomes import bid_outcomes
from workbench.games.rubbish.panel import outcomes_chart
from workbench.play.table import table


def test_the_panel_through_a_complete_game():
    t = table("rubbish", seed=21, opponents="heuristic", model="uniform")
    panel = t.panel
    bidding_decisions = 0
    while not t.session.is_over:
        observation = t.session.observation()
        assert panel.errors == {}
        assert panel.max_bids.equals(rubbish.max_bid_table(observation))
        # Geek posteriors: one per opponent, summing to 1, your own geek never among them.
        sums = panel.geeks.group_by("seat").agg(pl.col("probability").sum())["probability"]
        assert sums.to_list() == pytest.approx([1.0] * 3)
        assert observation.geek not in panel.geeks["geek"].to_list()
        if observation.phase == "bid":
            bidding_decisions += 1
            assert panel.outcomes.equals(bid_outcomes(observation))
            assert panel.outcomes.height == len(t.session.legal_actions())
            bidders = [s for s in observation.order if observation.held_out[s] is not None]
            expected = [rubbish.infer(observation, s).bids for s in bidders]
            if expected:
                assert panel.bids.equals(pl.concat(expected))
            else:
                assert panel.bids is None
            assert "P(cheapskate)" in panel.view.value
        else:
            assert panel.outcomes is None
        t.autoplay("heuristic", 1)
    assert bidding_decisions == 7
    # After the game: what the last opponent to bid could tell about you, round by round.
    about = panel.about_you
    history = t.session.state.history
    for row in about.iter_rows(named=True):
        record = history[row["round"] - 1]
        assert record.order[-1] == row["observer"] != 0
        assert row["true_total"] == record.bids[0].total
        assert row["held_out"] == record.bids[0].count
    rounds_not_last = {r.round for r in history if r.order[-1] != 0}
    assert set(about["round"]) == rounds_not_last
    # Under the uniform model a bid is any card subset of its size, whatever the geek:
    # P(your true total) is at least the chance of that total among subsets of your count.
    assert (about["p_true_total"] > 0).all()
    # The same figures as game_inference, which reads the same observations for every seat.
    scores = rubbish.game_inference(t.session.state, priors=("uniform",)).scores
    ours = scores.filter(pl.col("seat") == 0).sort("round")
    assert ours["round"].to_list() == about["round"].to_list()
    assert ours["observer"].to_list() == about["observer"].to_list()
    assert ours["p_true_total"].to_list() == pytest.approx(about["p_true_total"].to_list())
    assert ours["most_likely"].to_list() == about["most_likely"].to_list()
    assert about["p_true_geek"].to_list() == pytest.approx([1 / 6] * about.height)
    assert panel.final_geeks is None and "learns nothing" in panel.view.value
    # The heuristic model, chosen after the game: what a geek-driven player read.
    panel.model.value = "heuristic"
    assert panel.errors == {}
    assert set(panel.about_you["round"]) == rounds_not_last
    geek_name = t.session.rules.geeks[t.session.state.deal.geeks[0]].name
    assert set(panel.final_geeks["true_geek"]) == {geek_name}
    assert set(panel.final_geeks["observer"]) == {1, 2, 3}
    # We played the heuristic ourselves: its model (mixed with 5% uniform play) finds our geek.
    assert (panel.final_geeks["p_true_geek"] > 0.5).all()
    assert "What the agents could have inferred about you" in panel.view.value


def test_switching_the_model_recomputes_and_comes_back_from_the_cache():
    t = table("rubbish", seed=5, opponents="heuristic")
    t.play(rubbish.Auction(2, 1))  # we bid last: three counts and a peek to read
    panel = t.panel
    uniform = panel.outcomes
    panel.model.value = "heuristic"
    assert panel.errors == {}
    heuristic = panel.outcomes
    assert heuristic.equals(bid_outcomes(t.session.observation(), "heuristic"))
    assert not heuristic["p_win"].equals(uniform["p_win"])
    assert heuristic["exact_win"].is_null().all() and not uniform["exact_win"].is_null().all()
    assert "floating point" in panel.view.value
    cached = len(panel._results)
    panel.model.value = "uniform"
    assert panel.outcomes.equals(uniform) and len(panel._results) == cached


def test_a_model_that_cannot_explain_the_play_is_reported_not_raised():
    # Random opponents hold out what the heuristic never would.
    t = table("rubbish", seed=2, opponents="random", model="heuristic")
    errors = set()
    while not t.session.is_over and not errors:
        t.autoplay("random", 1)
        errors = set(t.panel.errors)
    assert errors
    assert "choose the uniform model" in t.panel.view.value or "epsilon" in t.panel.view.value
    t.panel.model.value = "uniform"
    assert t.panel.errors == {}


def test_the_panel_words_the_controls_and_the_observation():
    t = table("rubbish", seed=3, opponents="random")
    observation = t.session.observation()
    rules = t.session.rules
    wanted = rules.geeks[observation.geek].destined[0]
    assert t.panel.label("Auction", "item", wanted) == (
        f"{rules.items[wanted]} (item {wanted}) ★ your geek's"
    )
    assert t.panel.label("Auction", "first_bidder", 0) == "seat 0 (you)"
    assert t.panel.label("Auction", "first_bidder", 2) == "seat 2 (random)"
    assert t.panel.label("Bid", "cards", 5) is None  # the table's own text
    options = t.form.groups[0].fields["item"].options
    assert options[wanted][0].endswith("★ your geek's")
    geek = rules.geeks[observation.geek].name
    assert f"You hold geek <b>{geek}</b>" in t.observation_view.value


def test_unknown_model():
    with pytest.raises(ValueError, match="the panel offers uniform, random, heuristic"):
        table("rubbish", seed=3, opponents="random", model="sampling")


def test_outcomes_chart():
    state = rubbish.new_game(seed=0).apply(rubbish.Auction(0, 0))
    frame = bid_outcomes(state.observation(0))
    chart = outcomes_chart(frame, title="First Bidder, uniform opponents")
    spec = chart.to_dict()
    assert spec["title"] == "First Bidder, uniform opponents"
    assert len(spec["datasets"][spec["data"]["name"]]) == 2 * frame.height
    with pytest.raises(ValueError, match="needs columns"):
        outcomes_chart(frame.drop("p_win"))
