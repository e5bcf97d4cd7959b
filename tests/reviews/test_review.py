"""workbench.review: one row per decision of a seat, the same game play_game plays, seeded,
the labels by their thresholds, saved tables, every game through the contract."""

from __future__ import annotations

import polars as pl
import pytest

import workbench
from workbench import games
from workbench.reviews import LABELS, THRESHOLDS, label_of, played_game, review_details
from workbench.reviews.core import DECISION_SCHEMA, action_text
from workbench.reviews.labels import labels
from workbench.sessions.session import Session


@pytest.mark.parametrize(
    ("loss", "label"),
    [(0.0, "good"), (0.0499, "good"), (0.05, "inaccuracy"), (0.0999, "inaccuracy"),
     (0.10, "mistake"), (0.1999, "mistake"), (0.20, "blunder"), (1.0, "blunder"),
     (-0.3, "good")],
)  # fmt: skip
def test_labels_by_the_thresholds(loss, label):
    assert label_of(loss) == label


def test_labels_by_the_interval_ends():
    assert THRESHOLDS == {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
    assert LABELS == ("best", "good", "inaccuracy", "mistake", "blunder")
    assert labels(True, 0.0, 0.0) == ("best", "best")
    assert labels(False, -0.02, 0.13) == ("good", "mistake")  # straddles two thresholds
    assert labels(False, 0.21, 0.4) == ("blunder", "blunder")
    with pytest.raises(ValueError, match="number"):
        label_of(float("nan"))


def _seat_decisions(state_list, players, seat):
    return [
        step for step, (state, player) in enumerate(zip(state_list, players, strict=False))
        if player == seat and len(state.legal_actions()) > 1
    ]  # fmt: skip


def test_a_review_of_the_example_game(example):
    rules = example.Rules(players=3, items=3, budget=6)
    lineup = ["shading", "truthful", "random"]
    details = review_details("example", rules, lineup, seed=3, seat=1, budget=16)
    frame = details.decisions
    assert dict(frame.schema) == DECISION_SCHEMA
    # The game reviewed is play_game's, and every decision of seat 1 is a row.
    played = played_game("example", rules, lineup, seed=3)
    final = example.play_game(rules, lineup, seed=3)
    assert played.states[-1].log_for(None) == final.log_for(None)
    steps = _seat_decisions(played.states, played.players, 1)
    assert frame["step"].to_list() == steps and frame["decision"].to_list() == [1, 2, 3]
    assert frame["action"].to_list() == [str(played.actions[s]) for s in steps]
    assert (frame["seat"] == 1).all() and (frame["n"] == 16).all()
    assert frame["legal"].to_list() == frame["evaluated"].to_list()  # few: all evaluated
    # The loss is the best's win chance minus the taken's, on the same fresh playouts.
    assert (frame["loss"] - (frame["best_win_chance"] - frame["win_chance"])).abs().max() < 1e-12
    assert ((frame["low"] <= frame["loss"]) & (frame["loss"] <= frame["high"])).all()
    best = frame["action"] == frame["best_action"]
    assert (best == (frame["label"] == "best")).all()
    assert frame.filter(best)["loss"].to_list() == [0.0] * int(best.sum())
    # Labels: the interval's ends.
    for row in frame.filter(~best).iter_rows(named=True):
        assert (row["label"], row["label_high"]) == (label_of(row["low"]), label_of(row["high"]))
    # Same seed, same review; another seed, another game.
    again = workbench.review("example", rules, lineup, seed=3, seat=1, budget=16)
    assert again.equals(frame)
    assert not workbench.review("example", rules, lineup, seed=4, seat=1, budget=16).equals(frame)
    # The track: every seat at every decision (from the action taken's playouts), then the
    # result (1 for the winner).
    track = details.track
    assert track.height == 3 * (frame.height + 1)
    sums = track.group_by("decision").agg(pl.col("win_chance").sum())["win_chance"]
    assert sums.to_list() == pytest.approx([1.0] * (frame.height + 1))
    result = final.result()
    last = track.filter(pl.col("decision") == frame.height + 1).sort("seat")["win_chance"]
    assert last.to_list() == [1 / len(result.winners) if s in result.winners else 0.0
                              for s in range(3)]  # fmt: skip
    # The screen: every evaluated action once per decision, the taken and the best marked.
    actions = details.actions
    assert actions.group_by("decision").agg(pl.len()).sort("decision")["len"].to_list() == \
        frame["evaluated"].to_list()  # fmt: skip
    assert actions.filter("taken")["action"].to_list() == frame["action"].to_list()
    assert actions.filter("best")["action"].to_list() == frame["best_action"].to_list()


def test_what_the_seat_knew(example):
    # The log lines the seat saw since its previous decision (the example game has no hook).
    rules = example.Rules(players=3, items=3, budget=8)
    frame = workbench.review("example", rules, "shading", seed=2, seat=2, budget=4)
    assert frame["knew"].to_list() == [
        "3 seats, 3 items, budget 8 each | seat 2's values: [3, 7, 1] | seat 0 writes a sealed "
        "bid | seat 1 writes a sealed bid",
        "seat 2 writes a sealed bid | seat 2 bids 2 (sealed) | round 1: bids [2, 1, 2]; seat 0 "
        "wins item 1 for 2 (a tie, broken by the rule) | seat 0 writes a sealed bid | seat 1 "
        "writes a sealed bid",
        "seat 2 writes a sealed bid | seat 2 bids 4 (sealed) | round 2: bids [6, 5, 4]; seat 0 "
        "wins item 2 for 6 | seat 0 writes a sealed bid | seat 1 writes a sealed bid",
    ]
    # never another seat's private line (their values)
    assert not frame["knew"].str.contains("seat 0's values").any()


def test_decisions_with_one_legal_action_are_not_decisions(example):
    # A budget of 0 leaves one legal bid (0) in every round: no decision at all.
    rules = example.Rules(players=2, items=2, budget=1)
    played = played_game("example", rules, "truthful", seed=0)
    forced = [s for s, p in enumerate(played.players)
              if p == 0 and len(played.states[s].legal_actions()) == 1]  # fmt: skip
    frame = workbench.review("example", rules, "truthful", seed=0, seat=0, budget=4)
    assert forced and not set(forced) & set(frame["step"].to_list())


def test_bad_arguments_are_refused(example, tmp_path):
    rules = example.Rules(players=3)
    with pytest.raises(ValueError, match="seat must be 0–2"):
        workbench.review("example", rules, "shading", seat=3)
    with pytest.raises(TypeError, match="seat must be a whole number"):
        workbench.review("example", rules, "shading", seat="1")
    with pytest.raises(ValueError, match="budget"):
        workbench.review("example", rules, "shading", budget=1)
    with pytest.raises(ValueError, match="unknown game"):
        workbench.review("no_such_game")
    with pytest.raises(ValueError, match="no saved table"):
        workbench.review(str(tmp_path / "missing.json"))
    with pytest.raises(TypeError, match=r"progress must be a function progress\(done, total\)"):
        review_details("example", rules, "shading", progress=5)


# -- saved tables ---------------------------------------------------------------------------


def test_a_saved_table_is_reviewed_at_its_seat(tmp_path):
    session = Session("rubbish", seat=2, opponents="heuristic", seed=5)
    session.autoplay("heuristic")
    path = session.save(tmp_path / "game.json")
    frame = workbench.review(path, budget=8)
    assert (frame["seat"] == 2).all()
    steps = _seat_decisions(session.states, [m.seat for m in session.moves], 2)
    assert frame["step"].to_list() == steps
    assert frame["action"].to_list() == [action_text(session.moves[s].action) for s in steps]
    # the same review from the path as a string, from the session, and any seat on request
    assert workbench.review(str(path), budget=8).equals(frame)
    assert workbench.review(session, budget=8).equals(frame)
    other = workbench.review(path, seat=1, budget=8)
    assert (other["seat"] == 1).all() and other.height > 0
    with pytest.raises(ValueError, match="own rules and agents"):
        workbench.review(path, None, "heuristic")


def test_an_unfinished_table_is_refused():
    session = Session("rubbish", seat=0, opponents="heuristic", seed=5)
    with pytest.raises(ValueError, match="not over"):
        workbench.review(session)


# -- every game --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "lineup", "budget"),
    [("rubbish", "heuristic", 16), ("shared_budget", "coverage", 16),
     ("going_gone", "collector", 8), ("auction_house", "heuristic", 4)],
)  # fmt: skip
def test_every_game_is_reviewed_through_the_contract(game_id, lineup, budget):
    record = games.get(game_id)
    details = review_details(game_id, None, lineup, seed=1, seat=1, budget=budget)
    frame = details.decisions
    played = played_game(game_id, None, lineup, seed=1)
    assert played.states[-1].result().scores == record.play_game(None, lineup, seed=1) \
        .result().scores  # fmt: skip
    assert frame["step"].to_list() == _seat_decisions(played.states, played.players, 1)
    rated = frame.filter(pl.col("label").is_not_null())
    assert rated.height > 0
    gaps = (rated["loss"] - (rated["best_win_chance"] - rated["win_chance"])).abs()
    assert gaps.max() < 1e-12
    assert ((rated["low"] <= rated["loss"]) & (rated["loss"] <= rated["high"])).all()
    assert ((rated["win_low"] <= rated["win_chance"]) & (rated["win_chance"] <= rated["win_high"])
            ).all()  # fmt: skip
    assert (rated["evaluated"] <= rated["legal"]).all() and (rated["evaluated"] >= 1).all()
    assert set(rated["label"]) <= set(LABELS)
    if game_id == "auction_house":  # its knowledge hook leads the text
        assert frame["knew"][0].startswith("deal 1, ")
    if game_id == "going_gone":
        assert "most each can bid" in frame["knew"][0]


def test_a_decision_the_playouts_cannot_rate_is_kept_unrated(example, monkeypatch):
    # Playouts that refuse every position where seat 0 bid 1: its bids of 1 stay unrated.
    from dataclasses import replace

    from workbench.kit.evaluation import Evaluator
    from workbench.reviews import core

    made = Evaluator.from_search

    def refusing(search, rules):
        evaluator = made(search, rules)
        play_from = evaluator.searching.play_from

        def play(states, agents, *, playouts, seed):
            if any(state.sealed[0] == 1 for state in states):
                raise ValueError("cannot go on")
            return play_from(states, agents, playouts=playouts, seed=seed)

        return replace(evaluator, searching=replace(evaluator.searching, play_from=play))

    monkeypatch.setattr(core.Evaluator, "from_search", staticmethod(refusing))
    rules = example.Rules(players=2, items=3, budget=3, max_value=2)
    # seed 6: seat 0 bids 1, 2 and 1 (two, four and two legal bids)
    assert [a for a, p in zip(played_game("example", rules, "random", seed=6).actions,
                              [0, 1] * 3, strict=True) if p == 0] == [1, 2, 1]  # fmt: skip
    frame = workbench.review("example", rules, "random", seed=6, seat=0, budget=8)
    unrated = frame.filter(pl.col("action") == "1")
    rated = frame.filter(pl.col("action") != "1")
    assert unrated.height > 0 and rated.height > 0
    assert unrated["label"].is_null().all() and unrated["loss"].is_null().all()
    assert (unrated["evaluated"] < unrated["legal"]).all()
    assert rated["label"].is_not_null().all()
    assert (rated["best_action"] != "1").all()  # an action left out is never the best
