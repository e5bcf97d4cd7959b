"""Many reviewed games (review_games, loss_by, total_loss), the finding sentences written from
them, the hint, and the review's charts."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from workbench.reviews import decisions_by, hint, loss_by, review_games, total_loss
from workbench.reviews.charts import loss_chart, track_chart, where_lost_chart
from workbench.reviews.core import DECISION_SCHEMA, review_details
from workbench.reviews.sentences import (
    agent_difference,
    difference_sentence,
    game_sentence,
    where_lost_sentence,
)
from workbench.stats import mean_interval


@pytest.fixture
def reviews(example):
    rules = example.Rules(players=3, items=3, budget=6)
    return review_games("example", rules, ["shading", "truthful", "random"], games=4, seed=8,
                        budget=8)  # fmt: skip


def test_review_games_rotates_the_lineup_and_reviews_every_seat(example, reviews):
    rules = example.Rules(players=3, items=3, budget=6)
    # game g seats the line-up rotated g seats: game 1 has random in seat 0
    seated = reviews.group_by("game", "seat").agg(pl.col("agent").first()).sort("game", "seat")
    assert seated.filter(pl.col("game") == 1)["agent"].to_list() == ["random", "shading",
                                                                     "truthful"]  # fmt: skip
    # each game's seat is the review of simulate's game g (the stream (seed, g))
    from workbench.kit.seeding import seed_sequence

    game_seed = seed_sequence(8, 2)
    one = review_details("example", rules, ["truthful", "random", "shading"], seed=game_seed,
                         seat=0, budget=8).decisions  # fmt: skip
    mine = reviews.filter((pl.col("game") == 2) & (pl.col("seat") == 0))
    assert mine.drop("game", "agent", "stage").equals(one)
    assert set(reviews["stage"]) <= {"first half", "second half"}
    assert reviews.filter(pl.col("round") <= 2)["stage"].unique().to_list() == ["first half"]


def test_loss_by_sums_per_game_over_the_agents_seats(reviews):
    frame = loss_by(reviews, "phase")
    for row in frame.iter_rows(named=True):
        per_game = []
        for game in range(4):
            part = reviews.filter((pl.col("game") == game) & (pl.col("agent") == row["agent"]))
            seats = part["seat"].n_unique()
            lost = part.filter(pl.col("phase") == row["phase"])["loss"].sum()
            per_game.append(lost / seats)
        mean, low, high = mean_interval(per_game)
        assert (row["loss_per_game"], row["low"], row["high"]) == pytest.approx((mean, low, high))
        assert row["games"] == 4
    with pytest.raises(ValueError, match="needs columns"):
        loss_by(reviews.drop("agent"))


def test_total_loss_adds_the_variances():
    frame = pl.DataFrame({"loss": [0.1, 0.2, None], "low": [0.0, 0.1, None],
                          "high": [0.2, 0.3, None]})  # fmt: skip
    total, low, high = total_loss(frame)
    z = 1.959963984540054
    half = z * math.sqrt(2 * (0.2 / (2 * z)) ** 2)  # each interval +-0.1: se 0.1 / z
    assert total == pytest.approx(0.3) and (low, high) == pytest.approx((0.3 - half, 0.3 + half))


def test_decisions_by_groups_one_review():
    frame = pl.DataFrame({
        "phase": ["bid", "play", "bid", "play"], "label": ["best", "good", "good", "best"],
        "loss": [0.0, 0.1, 0.3, 0.0], "low": [0.0, 0.0, 0.2, 0.0], "high": [0.0, 0.2, 0.4, 0.0],
    })  # fmt: skip
    grouped = decisions_by(frame, "phase")
    assert grouped["phase"].to_list() == ["bid", "play"]
    assert grouped["decisions"].to_list() == [2, 2] and grouped["best"].to_list() == [1, 1]
    assert grouped["lost"].to_list() == pytest.approx([0.3, 0.1])
    bid = frame.filter(pl.col("phase") == "bid")
    assert grouped.row(0, named=True)["low"] == pytest.approx(total_loss(bid)[1])


def test_decisions_by_a_review_without_decisions_or_columns():
    empty = pl.DataFrame(schema=DECISION_SCHEMA)  # a seat whose every action was forced
    grouped = decisions_by(empty, ["phase", "kind"])
    assert grouped.is_empty()
    assert grouped.columns == ["phase", "kind", "decisions", "best", "lost", "low", "high"]
    with pytest.raises(ValueError, match=r"decisions_by needs columns \['stage'\]"):
        decisions_by(empty, "stage")


def test_review_games_refuses_one_agent_name_for_a_lineup(example):
    # 'shade' has five letters, as the five seats: it was read as agents 's', 'h', 'a', ...
    rules = example.Rules(players=5, items=2)
    with pytest.raises(ValueError, match=r"one agent per seat \(5\), got 'shade'"):
        review_games("example", rules, "shade", games=1, seed=0, budget=4)


def _losses(rows):
    return pl.DataFrame(
        rows, schema={"agent": pl.String, "phase": pl.String, "games": pl.Int64,
                      "loss_per_game": pl.Float64, "low": pl.Float64, "high": pl.Float64},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("second", "verb"),
    [((0.1, 0.05, 0.15), "more than in auction"),
     ((0.3, 0.2, 0.45), "not measurably more than (the intervals overlap) in auction")],
)  # fmt: skip
def test_where_lost_sentence_says_more_only_when_the_intervals_are_apart(second, verb):
    frame = _losses([
        {"agent": "fitted", "phase": "bid", "games": 12, "loss_per_game": 0.4, "low": 0.3,
         "high": 0.5},
        {"agent": "fitted", "phase": "auction", "games": 12, "loss_per_game": second[0],
         "low": second[1], "high": second[2]},
    ])  # fmt: skip
    sentence = where_lost_sentence(frame, "fitted", "phase")
    assert sentence.startswith("Fitted players lose most win chance per game in decisions of "
                               "bid: 0.400 (95% interval 0.300 to 0.500), ")  # fmt: skip
    assert verb in sentence and "12 games" in sentence and "fitted policy" in sentence


def test_agent_difference_is_paired_by_game():
    rows = []
    losses = {"heuristic": [0.5, 0.3, 0.4], "fitted": [0.1, 0.2, 0.1]}
    for agent, per_game in losses.items():
        for game, loss in enumerate(per_game):
            rows.append({"game": game, "agent": agent, "seat": 0, "phase": "bid", "loss": loss})
    frame = agent_difference(pl.DataFrame(rows), "heuristic", "fitted", "phase")
    mean, low, high = mean_interval(np.array([0.4, 0.1, 0.3]))
    assert frame.row(0, named=True) == pytest.approx(
        {"phase": "bid", "difference": mean, "low": low, "high": high, "games": 3}
    )
    sentence = difference_sentence(frame, "heuristic", "fitted", "phase")
    assert low < 0 < high  # three games: not measurable
    assert sentence.startswith("Heuristic players lose win chance per game not measurably "
                               "differently from fitted players in bid 0.267 (95% interval")
    assert "paired by game over 3 games" in sentence
    # an agent no seat played (a typo) was read as losing nothing in every game
    with pytest.raises(ValueError, match=r"played by \['fited'\]; their agents are"):
        agent_difference(pl.DataFrame(rows), "heuristic", "fited", "phase")
    clear = frame.with_columns(low=pl.lit(0.1), high=pl.lit(0.4))
    assert difference_sentence(clear, "heuristic", "fitted", "phase").startswith(
        "Heuristic players lose more win chance per game than fitted players in bid 0.267 "
        "(95% interval 0.100 to 0.400)"
    )  # fmt: skip


def test_game_sentence_names_the_costliest_decision(example):
    rules = example.Rules(players=3, items=3, budget=6)
    frame = review_details("example", rules, ["random", "shading", "shading"], seed=1, seat=0,
                           budget=16).decisions  # fmt: skip
    worst = frame.sort("loss", descending=True).row(0, named=True)
    sentence = game_sentence(frame, "random")
    assert f"made {frame.height} decisions" in sentence
    assert f"its costliest was decision {worst['decision']}, {worst['action']}" in sentence
    assert f"losing {worst['loss']:.3f}" in sentence
    # decisions the playouts could not rate (an action they cannot go on after) are said so
    unrated = frame.with_columns(pl.lit(None, pl.String).alias("label"))
    assert game_sentence(unrated, "random").startswith(
        f"The random seat made {frame.height} decisions, none of which the playouts could rate"
    )


def test_the_hint_evaluates_each_action_from_the_seat_view_only(example):
    rules = example.Rules(players=3, items=2, budget=5)
    state = example.new_game(rules, seed=6)
    frame = hint("example", state, budget=32, seed=1, step=0)
    assert frame.height == len(state.legal_actions())
    assert frame["win_chance"].is_sorted(descending=True)
    assert frame.filter("best")["win_chance"].item() == frame["win_chance"].max()
    assert frame.filter("best")["loss"].item() == 0.0
    # Another deal of the hidden values, the same view for seat 0: the same hint.
    values = list(state.values)
    values[1] = tuple(v % rules.max_value + 1 for v in values[1])
    other = type(state)(**{**state.__dict__, "values": tuple(values)})
    assert other.observation(0) == state.observation(0)
    assert hint("example", other, budget=32, seed=1, step=0).equals(frame)
    with pytest.raises(ValueError, match="over"):
        final = example.play_game(rules, "shading", seed=0)
        hint("example", final)
    with pytest.raises(ValueError, match="step must be a whole number >= 0, got -1"):
        hint("example", state, budget=4, step=-1)


@pytest.mark.parametrize(("refused", "kept"), [({1}, ["0", "2", "3"]), ({0, 1, 2, 3}, None)])
def test_the_hint_leaves_out_actions_the_playouts_cannot_go_on_after(
    example, monkeypatch, refused, kept
):
    from dataclasses import replace

    from workbench.kit.evaluation import Evaluator
    from workbench.reviews import core

    made = Evaluator.from_search

    def refusing(search, rules):
        evaluator = made(search, rules)
        play_from = evaluator.searching.play_from

        def play(states, agents, *, playouts, seed):
            if any(state.sealed[0] in refused for state in states):
                raise ValueError("cannot go on")
            return play_from(states, agents, playouts=playouts, seed=seed)

        return replace(evaluator, searching=replace(evaluator.searching, play_from=play))

    monkeypatch.setattr(core.Evaluator, "from_search", staticmethod(refusing))
    monkeypatch.setattr(core, "_EVALUATORS", {})
    rules = example.Rules(players=2, items=3, budget=3, max_value=2)
    state = example.new_game(rules, seed=6)
    assert list(state.legal_actions()) == [0, 1, 2, 3]
    if kept is None:
        with pytest.raises(ValueError, match="cannot go on after any of the 4 actions"):
            hint("example", state, budget=8)
        return
    frame = hint("example", state, budget=8)
    assert sorted(frame["action"]) == kept
    assert not frame["win_chance"].is_nan().any() and not frame["loss"].is_nan().any()
    assert frame.filter("best")["win_chance"].item() == frame["win_chance"].max()


def test_the_charts_draw_the_review(example):
    rules = example.Rules(players=3, items=3, budget=6)
    details = review_details("example", rules, "shading", seed=1, seat=0, budget=8)
    track = track_chart(details.track).to_dict()
    assert [layer["mark"]["type"] for layer in track["layer"]] == ["point", "area", "line"]
    loss = loss_chart(details.decisions).to_dict()
    assert any(layer["mark"].get("type") == "text" for layer in loss["layer"])  # thresholds named
    lost = where_lost_chart(loss_by(review_games("example", rules, ["shading", "truthful",
                                                                      "random"], games=2,
                                                     seed=1, budget=4)))  # fmt: skip
    assert "facet" in lost.to_dict()
    with pytest.raises(ValueError, match="needs columns"):
        track_chart(details.decisions)
