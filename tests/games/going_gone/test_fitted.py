"""The ``fitted`` agent: the collector's policy with fitted parameters, compiled, so it plays
the same in both engines (``test_batch`` ties its step calls to the compiled loop); the
rulebook's fit ships; fits follow the rules; it beats the default line-up's agent."""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from workbench.games.going_gone import Rules, make_agent, simulate
from workbench.games.going_gone.agents import FittedPolicy
from workbench.games.going_gone.fitted import FITTING, GoingGoneFittedAgent
from workbench.games.going_gone.simulate import SELF_PLAY, replay_recorded_game
from workbench.kit.fits import CACHE_ENV, fit_key, shipped_folder
from workbench.kit.fitting import fit_policy

from .test_batch import run_batch


def test_the_rulebook_fit_ships_and_is_read_without_fitting(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))  # an empty user cache: only the shipped fit
    name = fit_key("going_gone", Rules(), version=FITTING.cache_version, seed=0) + ".json"
    assert (shipped_folder("going_gone") / name).is_file()
    started = time.perf_counter()
    fit = GoingGoneFittedAgent().fit(Rules(), progress=False)
    assert time.perf_counter() - started < 1.0
    assert fit.version == FITTING.cache_version and set(fit.params) == set(FITTING.names)
    for parameter in FITTING.parameters:
        assert parameter.low <= fit.params[parameter.name] <= parameter.high
    assert not list(tmp_path.iterdir())  # nothing was fitted or written


def test_fitted_games_replay_identically_and_legally_through_the_engine():
    rules = Rules()
    policy = make_agent("fitted").policy_for(rules)
    played = run_batch(rules, [policy] * 4, games=20, seed=5)
    for game in range(20):  # State.apply refuses any illegal action
        state = replay_recorded_game(rules, played, game)
        assert state.bucks == tuple(played.bucks[game])


def test_fitted_is_reproducible_in_both_engines():
    lineup = ["fitted", "valuation", "collector", "fitted"]
    first = simulate(None, lineup, games=300, seed=4, progress=False)[0]
    assert first.equals(simulate(None, lineup, games=300, seed=4, progress=False)[0])
    step = simulate(None, lineup, games=3, seed=4, progress=False, engine="step")[0]
    assert step.equals(simulate(None, lineup, games=3, seed=4, progress=False, engine="step")[0])


def test_far_apart_rules_fit_to_different_parameters():
    cheap = dataclasses.replace(FITTING, games=6, generations=2, population=4)
    selfplay = SELF_PLAY
    poor = Rules(players=3, starting_bucks=6)
    rich = Rules(players=5, starting_bucks=80, collection_values=(1, 2, 3, 20, 30, 40, 60))
    a, _ = fit_policy(selfplay, cheap, poor, seed=1, progress=False)
    b, _ = fit_policy(selfplay, cheap, rich, seed=1, progress=False)
    assert a != b
    assert fit_policy(selfplay, cheap, poor, seed=1, progress=False)[0] == a  # seeded


def test_fitted_alone_beats_three_valuation_agents():
    # the default line-up's agent: the fitted seat (rotated) wins far more than its fair 1/4
    shares = []
    for seat in range(4):
        lineup = ["valuation"] * 4
        lineup[seat] = "fitted"
        games = simulate(None, lineup, games=100, seed=seat, progress=False, rounds=False)[0]
        shares.append(games.filter(games["seat"] == seat)["win_share"].mean())
    assert np.mean(shares) > 0.5


def test_fitted_policy_refuses_a_bad_vector():
    import pytest

    with pytest.raises(ValueError, match="5 finite numbers"):
        FittedPolicy([0.5, 0.5])
    with pytest.raises(ValueError, match="5 finite numbers"):
        FittedPolicy([0.5, 0.5, np.nan, 0.1, 0.1])
