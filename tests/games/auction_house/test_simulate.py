"""simulate / simulate_batches frames, their reproducibility and checks, and the game metrics."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.games import auction_house
from workbench.games.auction_house import (
    GAME_METRICS,
    HeuristicAgent,
    Rules,
    game_metrics,
    kitty_outcomes,
    simulate,
    simulate_batches,
)


@pytest.fixture(scope="module")
def frames():
    return simulate(
        Rules(), ["heuristic", "random", "heuristic", "random"], games=50, seed=9, progress=False
    )


def test_frames_shape_and_columns(frames):
    games, rounds = frames
    assert games.height == 50 * 4 and rounds.height == 50 * 13 * 4
    assert games.columns[:7] == ["game", "seat", "agent", "score", "rank", "won", "win_share"]
    assert rounds.columns[:5] == ["game", "round", "seat", "agent", "score_after"]
    assert games["win_share"].sum() == pytest.approx(50)
    last = rounds.filter(pl.col("round") == 13).select("game", "seat", score="score_after")
    assert (
        last.join(games.select("game", "seat", "score"), on=["game", "seat"])
        .filter(pl.col("score") != pl.col("score_right"))
        .is_empty()
    )
    # Each deal's kitty goes to one seat at most; tricks add to nine.
    per_deal = rounds.group_by("game", "round").agg(
        pl.col("kitty_won").sum(), pl.col("tricks").sum()
    )
    assert per_deal["kitty_won"].max() <= 1 and (per_deal["tricks"] == 9).all()
    assert set(rounds["auction_role"].unique().to_list()) <= {
        "none",
        "starter",
        "seller",
        "offerer",
    }


def test_same_arguments_same_frames(frames):
    again = simulate(
        Rules(), ["heuristic", "random", "heuristic", "random"], games=50, seed=9, progress=False
    )
    assert frames[0].equals(again[0]) and frames[1].equals(again[1])
    other = simulate(
        Rules(), ["heuristic", "random", "heuristic", "random"], games=50, seed=10, progress=False
    )
    assert not frames[0].equals(other[0])


def test_the_step_engine_gives_the_same_columns():
    games, rounds = simulate(
        Rules(deals=2), "heuristic", games=3, seed=1, progress=False, engine="step"
    )
    fast_games, fast_rounds = simulate(Rules(deals=2), "heuristic", games=3, seed=1, progress=False)
    assert games.schema == fast_games.schema and rounds.schema == fast_rounds.schema
    parts = list(
        simulate_batches(Rules(deals=2), "random", games=70, seed=1, progress=False, engine="step")
    )
    assert len(parts) == 3 and sum(g.height for g, _ in parts) == 70 * 4


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(games=0), ValueError, "games must be a positive whole number"),
        (dict(games=True), TypeError, "games must be a positive whole number"),
        (dict(games=2, engine="turbo"), ValueError, "engine must be one of"),
        (dict(games=2, seed=-1), ValueError, "seed must be a non-negative int"),
        (dict(games=2, agents=["random"] * 3), ValueError, "one agent per seat: 4"),
        (dict(games=2, agents="smart"), ValueError, "unknown agent 'smart'"),
        (dict(games=2, agents="determinization", engine="fast"), ValueError, "step-only"),
        (dict(games=2, rules="default"), TypeError, "rules must be an auction_house Rules"),
    ],
)
def test_bad_arguments_are_reported_before_any_game(kwargs, error, message):
    kwargs = {"seed": 1, "progress": False, **kwargs}
    with pytest.raises(error, match=message):
        simulate(**kwargs)


def test_game_metrics(frames):
    games, rounds = frames
    metrics = game_metrics(games, rounds)
    assert metrics.columns == ["game", *(m.name for m in GAME_METRICS)]
    assert metrics.height == 50
    outcomes = kitty_outcomes(
        Rules(), ["heuristic", "random", "heuristic", "random"], deals=13 * 50, seed=9
    )
    assert metrics["carry_over_rate"].mean() == pytest.approx(
        outcomes["kitty_winner"].is_null().mean()
    )
    assert metrics["points_lost"].sum() == outcomes["lost"].sum()
    assert metrics["auctions"].sum() == outcomes["auction"].sum()
    assert all(m.kind in ("proportion", "mean") for m in GAME_METRICS)
    with pytest.raises(ValueError, match="lacks columns"):
        game_metrics(games.drop("points_lost"), rounds)


def test_registry_and_contract():
    from workbench import games as registry

    assert "auction_house" in registry.available()
    game = registry.get("auction_house")
    assert game is auction_house.GAME and game.Rules().players == 4
    assert list(game.agents) == ["random", "heuristic", "fitted", "search", "determinization"]
    assert isinstance(game.make_agent("heuristic", Rules()), HeuristicAgent)
