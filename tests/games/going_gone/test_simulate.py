"""simulate / simulate_batches: the frames' contract, their internal consistency, determinism,
bad arguments refused before any game is played, and the game's own metrics."""

from __future__ import annotations

import importlib

import polars as pl
import pytest

from workbench.games.going_gone import (
    GAME_METRICS,
    RandomAgent,
    Rules,
    game_metrics,
    simulate,
    simulate_batches,
)

# the package re-exports the function ``simulate``; the module holds BATCH_SIZE
simulate_module = importlib.import_module("workbench.games.going_gone.simulate")


@pytest.fixture(scope="module")
def frames():
    lineup = ["collector", "valuation", "random", "valuation"]
    return simulate(Rules(), lineup, games=300, seed=11, progress=False, lots=True)


def test_frames_follow_the_contract(frames):
    games, rounds, lots = frames
    assert games.columns[:7] == ["game", "seat", "agent", "score", "rank", "won", "win_share"]
    assert rounds.columns[:5] == ["game", "round", "seat", "agent", "score_after"]
    assert games.height == 300 * 4 and rounds.height == 300 * 7 * 4 and lots.height == 300 * 35
    assert games.filter(pl.col("seat") == 0)["agent"].unique().to_list() == ["collector"]
    assert lots.columns == [
        "game", "round", "cup", "lot_size", "items", "auctioneer", "bids", "bidders", "winner",
        "winner_agent", "price", "runner_up", "tie", "auctioneer_tie_win",
    ]  # fmt: skip


def test_frames_agree_with_each_other(frames):
    games, rounds, lots = frames
    per_game = games.group_by("game").agg(pl.col("win_share").sum(), pl.col("won").sum())
    assert per_game["win_share"].round(9).unique().to_list() == [1.0]
    assert (games["score"] == games["bucks"] + games["collection_value"]).all()
    final = rounds.filter(pl.col("round") == 7).sort("game", "seat")
    assert final["score_after"].equals(games.sort("game", "seat")["score"])
    assert final["bucks_after"].cast(pl.Int32).equals(games.sort("game", "seat")["bucks"])
    # every card of the deck is dealt exactly once per game, seven per round
    dealt = lots.explode("items").group_by("game").agg(pl.col("items").n_unique(), pl.len())
    assert dealt["items"].unique().to_list() == [49] and dealt["len"].unique().to_list() == [49]
    # the winner bid the most and paid it; ties went by the rule
    won = lots.filter(pl.col("winner").is_not_null())
    assert (won["price"] == won["bids"].list.max()).all()
    assert (won["bids"].list.get(won["winner"].cast(pl.Int64)) == won["price"]).all()
    assert (lots.filter(pl.col("winner").is_null())["bids"].list.max() == 0).all()
    ties = lots.filter(pl.col("tie"))
    assert (ties["auctioneer_tie_win"] == (ties["winner"] == ties["auctioneer"])).all()
    # spending adds up across frames
    spent = (
        lots.filter(pl.col("winner").is_not_null())
        .group_by("game", "winner")
        .agg(pl.col("price").cast(pl.Int64).sum())
    )
    totals = games.join(spent, left_on=["game", "seat"], right_on=["game", "winner"], how="left")
    assert (totals["spent"] == totals["price"].fill_null(0)).all()
    # the paddle passes clockwise: seats 0-2 hold it twice in 7 rounds, seat 3 once
    times = games.group_by("seat").agg(pl.col("times_auctioneer").unique()).sort("seat")
    assert times["times_auctioneer"].to_list() == [[2], [2], [2], [1]]


def test_same_arguments_give_identical_frames():
    first = simulate(Rules(players=3), "valuation", games=50, seed=4, progress=False, lots=True)
    again = simulate(Rules(players=3), "valuation", games=50, seed=4, progress=False, lots=True)
    assert all(a.equals(b) for a, b in zip(first, again, strict=True))
    other = simulate(Rules(players=3), "valuation", games=50, seed=5, progress=False)
    assert not first[0].equals(other[0])


def test_batches_stream_the_same_games(monkeypatch):
    # the batching, with fewer games
    monkeypatch.setattr(simulate_module.FAST_ENGINE, "batch_size", 64)
    options = {"games": 64 * 2 + 5, "seed": 2, "progress": False, "rounds": False}
    whole, _ = simulate(Rules(), "random", **options)
    parts = list(simulate_batches(Rules(), "random", **options))
    assert [p[0].height for p in parts] == [64 * 4, 64 * 4, 5 * 4]
    assert pl.concat([p[0] for p in parts]).equals(whole)
    assert all(p[1] is None for p in parts)


def test_step_only_agents_play_through_the_step_engine():
    def always_pass(observation, legal, rng):
        return legal[0]  # bid nothing; stop selling

    games, rounds, lots = simulate(
        Rules(players=2), [always_pass, RandomAgent()], games=6, seed=1, progress=False, lots=True
    )
    assert games.filter(pl.col("seat") == 0)["agent"].unique().to_list() == ["always_pass"]
    assert games.filter(pl.col("seat") == 0)["spent"].sum() == 0
    fast, _, _ = simulate(Rules(players=2), "random", games=6, seed=1, progress=False, lots=True)
    assert games.schema == fast.schema and rounds.height == 6 * 7 * 2 and lots.height == 6 * 35
    with pytest.raises(ValueError, match=r"engine='fast' needs batch agents.*always_pass"):
        simulate(Rules(players=2), [always_pass, "random"], games=1, seed=1, engine="fast")


def test_the_step_engine_can_play_batch_agents_too():
    step, rounds = simulate(Rules(), "valuation", games=3, seed=8, progress=False, engine="step")
    assert step.height == 12 and rounds.height == 84
    assert (step["score"] == step["bucks"] + step["collection_value"]).all()


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"games": 0}, ValueError, "games must be a positive whole number, got 0"),
        ({"games": True}, TypeError, "games must be a positive whole number"),
        ({"games": 2.0}, TypeError, "games must be a positive whole number"),
        ({"seed": -1}, ValueError, "seed must be a non-negative int"),
        ({"engine": "warp"}, ValueError, "engine must be one of"),
        ({"lots": "yes"}, TypeError, "lots must be True or False"),
        ({"agents": ["random"] * 3}, ValueError, "one agent per seat: 4 for these rules, got 3"),
        ({"agents": "greedy"}, ValueError, "unknown agent 'greedy' for seat 0"),
        ({"rules": "default"}, TypeError, "rules must be a going_gone Rules"),
    ],
)
def test_bad_arguments_are_refused_before_play(kwargs, error, message):
    arguments = {"rules": Rules(), "agents": None, "games": 3, "seed": 1, "progress": False}
    arguments.update(kwargs)
    rules = arguments.pop("rules")
    agents = arguments.pop("agents")
    with pytest.raises(error, match=message):
        next(iter(simulate_batches(rules, agents, **arguments)))


def test_game_metrics(frames):
    games, rounds, lots = frames
    metrics = game_metrics(games, rounds)
    assert metrics.columns == ["game", *(m.name for m in GAME_METRICS)]
    assert metrics.height == 300
    discarded = lots.group_by("game").agg(pl.col("winner").is_null().sum()).sort("game")
    assert metrics["discarded_lots"].to_list() == discarded["winner"].to_list()
    held = games.group_by("game").agg(pl.col("items_held").cast(pl.Int64).sum()).sort("game")
    assert metrics["unsold_items"].to_list() == held["items_held"].to_list()
    assert metrics["bucks_spent_share"].is_between(0, 1).all()
    winners = games.filter(pl.col("won") & (pl.col("seat") == 0))["game"].to_list()
    assert metrics.filter(pl.col("first_auctioneer_won"))["game"].to_list() == sorted(winners)
    assert {m.kind for m in GAME_METRICS} <= {"proportion", "mean"}
    with pytest.raises(ValueError, match="needs the rounds frame"):
        game_metrics(games, None)
    with pytest.raises(ValueError, match=r"the games frame lacks columns \['bucks'\]"):
        game_metrics(games.drop("bucks"), rounds)
