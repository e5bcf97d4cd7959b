"""Self-play frames: reproducible, consistent with each other, bad input rejected up front."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from workbench.games.rubbish import (
    HeuristicAgent,
    RandomAgent,
    Rules,
    SamplingAgent,
    play_game,
    simulate,
    simulate_batches,
)
from workbench.games.rubbish.simulate import BATCH_SIZE


@pytest.mark.parametrize("engine", ["fast", "step"])
def test_same_arguments_give_identical_frames(engine):
    kwargs = dict(games=40, seed=5, progress=False, engine=engine)
    first = simulate(Rules(), ["heuristic", "random", "heuristic", "random"], **kwargs)
    second = simulate(Rules(), ["heuristic", "random", "heuristic", "random"], **kwargs)
    assert first[0].equals(second[0]) and first[1].equals(second[1])
    other = simulate(
        Rules(), ["heuristic", "random", "heuristic", "random"], **{**kwargs, "seed": 6}
    )
    assert not first[0].equals(other[0])


@pytest.mark.parametrize("engine", ["fast", "step"])
def test_frames_agree_with_each_other_and_the_rules(engine):
    rules = Rules(players=3)
    games, rounds = simulate(rules, "heuristic", games=60, seed=1, progress=False, engine=engine)
    assert games.height == 60 * 3 and rounds.height == 60 * 7 * 3
    # Score = fame + destined bonus per destined item won.
    assert (games["score"] == games["fame"] + 30 * games["destined_won"]).all()
    # Exactly one winner and one cheapskate per game and round; three roles with 3 players.
    per_round = rounds.group_by("game", "round").agg(
        (pl.col("role") == "winner").sum().alias("winners"),
        (pl.col("role") == "cheapskate").sum().alias("cheapskates"),
    )
    assert (per_round["winners"] == 1).all() and (per_round["cheapskates"] == 1).all()
    # times_cheapskate in the games frame counts the cheapskate rounds.
    counted = (
        rounds.filter(pl.col("role") == "cheapskate")
        .group_by("game", "seat")
        .len()
        .rename({"len": "counted"})
    )
    joined = games.join(counted, on=["game", "seat"], how="left").with_columns(
        pl.col("counted").fill_null(0)
    )
    assert (joined["times_cheapskate"] == joined["counted"]).all()
    # Final fame in the games frame is the fame after the last round.
    last = rounds.filter(pl.col("round") == 7).select("game", "seat", "fame_after")
    joined = games.join(last, on=["game", "seat"])
    assert (joined["fame"] == joined["fame_after"]).all()
    # Win shares add up to one per game.
    assert games.group_by("game").agg(pl.col("win_share").sum())["win_share"].round(9).eq(1).all()


def test_auto_engine_uses_the_step_engine_for_step_only_agents():
    games, _ = simulate(
        Rules(players=2), [SamplingAgent(samples=2), RandomAgent()], games=2, seed=0, progress=False
    )
    assert games["agent"].to_list() == ["sampling", "random"] * 2


def test_batches_stream_the_same_games():
    streamed = list(
        simulate_batches(Rules(), "random", games=BATCH_SIZE + 10, seed=3, progress=False)
    )
    assert [g.height for g, _ in streamed] == [BATCH_SIZE * 4, 40]
    whole, _ = simulate(Rules(), "random", games=BATCH_SIZE + 10, seed=3, progress=False)
    assert pl.concat([g for g, _ in streamed]).equals(whole)


def test_rounds_can_be_skipped_to_save_memory():
    games, rounds = simulate(Rules(), "random", games=10, seed=3, progress=False, rounds=False)
    assert rounds is None and games.height == 40


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"games": 0}, ValueError, "games must be a positive whole number, got 0"),
        ({"games": 2.5}, TypeError, r"games must be a positive whole number, got 2.5 \(float\)"),
        ({"games": True}, TypeError, r"games must be a positive whole number, got True"),
        ({"rules": 4}, TypeError, r"rules must be a rubbish Rules or None, got int"),
        ({"agents": RandomAgent}, TypeError, r"is the class RandomAgent, not an agent"),
        ({"progress": "no"}, TypeError, r"progress must be True or False, got 'no'"),
        ({"rounds": 1}, TypeError, r"rounds must be True or False, got 1"),
        ({"seed": -1}, ValueError, "seed must be a non-negative int"),
        ({"seed": "x"}, TypeError, "seed must be a non-negative int"),
        ({"engine": "gpu"}, ValueError, r"engine must be one of \('auto', 'fast', 'step'\)"),
        ({"agents": ["random"] * 3}, ValueError, "one agent per seat: 4 for these rules, got 3"),
        (
            {"agents": ["random", "clever", "random", "random"]},
            ValueError,
            "unknown agent 'clever'",
        ),
        (
            {"agents": [SamplingAgent()] * 4, "engine": "fast"},
            ValueError,
            r"step-only: \['sampling'\]",
        ),
    ],
)
def test_bad_input_is_rejected_before_any_game(kwargs, error, message):
    arguments = {"agents": "random", "games": 5, "seed": 0, "progress": False, **kwargs}
    agents, rules = arguments.pop("agents"), arguments.pop("rules", Rules())
    with pytest.raises(error, match=message):
        simulate(rules, agents, **arguments)
    with pytest.raises(error, match=message):
        simulate_batches(rules, agents, **arguments)  # when called, before any batch is asked for


def test_numpy_integers_work_like_ints_in_simulate():
    a = simulate(Rules(), "random", games=np.int64(6), seed=np.int64(2), progress=False)
    b = simulate(Rules(), "random", games=6, seed=2, progress=False)
    assert a[0].equals(b[0]) and a[1].equals(b[1])
    state = play_game(None, "heuristic", seed=4)  # names resolved like simulate's
    assert state.is_over


def test_agents_keep_their_labels():
    cautious = HeuristicAgent(max_wanted_bid=8)
    cautious.name = "cautious"
    games, _ = simulate(Rules(players=2), [cautious, "heuristic"], games=3, seed=0, progress=False)
    assert games["agent"].unique(maintain_order=True).to_list() == ["cautious", "heuristic"]
