"""Agent strength: the heuristic beats random play and the sampling agent beats the heuristic,
over seeded 4-player games with each agent rotated through every seat (95% intervals)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from workbench.games.rubbish import (
    HeuristicAgent,
    RandomAgent,
    Rules,
    SamplingAgent,
    make_agent,
    simulate,
)
from workbench.metrics import win_rates


def rotated(challenger, field, games_per_seat: int, seed: int) -> pl.DataFrame:
    """Games with ``challenger`` in each seat in turn against three copies of ``field``."""
    frames = []
    for seat in range(4):
        agents = [field] * 4
        agents[seat] = challenger
        games, _ = simulate(
            Rules(), agents, games=games_per_seat, seed=seed + seat, progress=False, rounds=False
        )
        frames.append(games.with_columns(pl.col("game") + seat * games_per_seat))
    return pl.concat(frames)


def test_heuristic_beats_random():
    games = rotated(HeuristicAgent(), RandomAgent(), games_per_seat=1000, seed=100)
    rates = {row["agent"]: row for row in win_rates(games).iter_rows(named=True)}
    heuristic, random = rates["heuristic"], rates["random"]
    assert heuristic["n"] == 4000
    # A fair share is 1/4. Measured: about 0.63 (interval about ±0.015).
    assert heuristic["low"] > 0.5
    assert heuristic["low"] > random["high"]


@pytest.mark.slow
def test_sampling_agent_beats_the_heuristic():
    games = rotated(SamplingAgent(samples=16), HeuristicAgent(), games_per_seat=500, seed=200)
    rates = {row["agent"]: row for row in win_rates(games).iter_rows(named=True)}
    sampling, heuristic = rates["sampling"], rates["heuristic"]
    assert sampling["n"] == 2000
    # Against three heuristics a fair share is 1/4; measured: about 0.5.
    assert sampling["low"] > 0.25
    assert sampling["low"] > heuristic["high"]


def test_sampling_agent_rejects_bad_settings():
    with pytest.raises(ValueError, match="SamplingAgent samples must be a whole number >= 1"):
        SamplingAgent(samples=0)
    with pytest.raises(TypeError, match=r"samples must be a whole number >= 1, got 2.0 \(float\)"):
        SamplingAgent(samples=2.0)
    with pytest.raises(TypeError, match=r"rollout must be a compiled agent"):
        SamplingAgent(rollout=HeuristicAgent)
    assert SamplingAgent(samples=np.int64(3)).samples == 3


def test_make_agent_checks_names_and_options():
    with pytest.raises(ValueError, match=r"unknown agent 'clever'; agents: random, heuristic"):
        make_agent("clever")
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['samples'\] for the heuristic"):
        make_agent("heuristic", samples=3)
    with pytest.raises(TypeError, match=r"rules must be a rubbish Rules or None, got int"):
        make_agent("random", 4)
    assert make_agent("heuristic", Rules(), gain_share=0.25).gain_share == 0.25
