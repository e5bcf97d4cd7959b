"""Cheapskate frequency: exact facts, frames that add up, streaks against a plain recount."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest

from workbench.games.rubbish import (
    Rules,
    cheapskate_by_player_count,
    cheapskate_facts,
    cheapskate_frequency,
    simulate,
)

GAMES = 2000


@pytest.fixture(scope="module")
def heuristic_report():
    return cheapskate_frequency(Rules(), "heuristic", games=GAMES, seed=5)


def test_exact_facts_never_split_evenly():
    # Rulebook: "7 times where someone gains 0 ... will never divide evenly, regardless of
    # number of players". 7 = 3*2+1 = 2*3+1 = 1*4+3 = 1*5+2.
    facts = cheapskate_facts()
    assert facts["players"].to_list() == [2, 3, 4, 5]
    assert facts["remainder"].to_list() == [1, 1, 3, 2]
    assert not facts["splits_evenly"].any()
    assert facts["someone_at_least"].to_list() == [4, 3, 2, 2]
    assert [Fraction(x) for x in facts["fair_share_exact"]] == [
        Fraction(7, n) for n in (2, 3, 4, 5)
    ]
    # With 4 rounds (a shorter item table) 4 players would split evenly.
    assert cheapskate_facts(4, rounds=4)["splits_evenly"].to_list() == [True]
    assert cheapskate_facts(np.int64(3))["players"].to_list() == [3]


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        (dict(players=6), ValueError, r"players must be a player count 2–5 .*got 6"),
        (dict(players=[0]), ValueError, r"players must be a player count 2–5 .*got 0"),
        (dict(players=4.0), TypeError, r"players must be a player count 2–5 .*got 4.0"),
        (dict(players=[True]), TypeError, r"players must be a player count 2–5 .*got True"),
        (dict(players="4"), TypeError, r"players must be a player count 2–5 .*got '4'"),
        (dict(rounds=0), ValueError, r"rounds must be a whole number from 1 to 127, got 0"),
        (dict(rounds=7.0), TypeError, r"rounds must be a whole number from 1 to 127"),
    ],
)
def test_facts_take_only_what_the_game_allows(arguments, error, message):
    with pytest.raises(error, match=message):
        cheapskate_facts(**arguments)


def test_frequency_arguments_are_checked_before_any_game():
    with pytest.raises(TypeError, match=r"rules must be a rubbish Rules or None, got int"):
        cheapskate_frequency(4, games=10, seed=0)
    with pytest.raises(TypeError, match=r"games must be a positive whole number, got 10.0"):
        cheapskate_frequency(games=10.0, seed=0)
    with pytest.raises(ValueError, match=r"player_counts must be a player count 2–5"):
        cheapskate_by_player_count(player_counts=[3, 6], games=10, seed=0)
    with pytest.raises(TypeError, match=r"agent must be one agent or agent name for every seat"):
        cheapskate_by_player_count(agent=["heuristic"] * 4, games=10, seed=0)


def test_frames_add_up(heuristic_report):
    summary = heuristic_report.summary
    assert summary["seat"].to_list() == [0, 1, 2, 3]
    assert (summary["games"] == GAMES).all()
    # Exactly one cheapskate per round: the per-seat means sum to 7, final-round rates to 1.
    assert summary["times_mean"].sum() == pytest.approx(7)
    assert summary["final_round_rate"].sum() == pytest.approx(1)
    assert summary["fair_share"].to_list() == [1.75] * 4
    for name in ("times", "final_round", "streak", "win"):
        middle = "rate" if name in ("final_round", "win") else "mean"
        low, mid, high = (summary[f"{name}_{part}"] for part in ("low", middle, "high"))
        assert ((low <= mid) & (mid <= high)).all()
    facts = heuristic_report.facts.row(0, named=True)
    assert facts["every_game_has_one_per_round"] and facts["games"] == GAMES
    shares = heuristic_report.distribution.group_by("seat").agg(pl.col("share").sum())
    assert shares["share"].to_list() == pytest.approx([1.0] * 4)
    winning = heuristic_report.winning
    assert winning["n"].sum() == 4 * GAMES
    assert summary["win_rate"].sum() == pytest.approx(1)  # shared wins split


def test_streaks_and_final_round_match_a_plain_recount():
    rules = Rules(players=3)
    report = cheapskate_frequency(rules, "random", games=300, seed=9)
    _, rounds = simulate(rules, "random", games=300, seed=9, progress=False)
    longest: dict[tuple[int, int], int] = {}
    final: dict[tuple[int, int], bool] = {}
    for (game, seat), group in rounds.group_by(["game", "seat"]):
        run = best = 0
        for role in group.sort("round")["role"].to_list():
            run = run + 1 if role == "cheapskate" else 0
            best = max(best, run)
        longest[(game, seat)] = best
        final[(game, seat)] = group.sort("round")["role"].to_list()[-1] == "cheapskate"
    for row in report.summary.iter_rows(named=True):
        seat = row["seat"]
        streaks = [v for (g, s), v in longest.items() if s == seat]
        assert row["streak_mean"] == pytest.approx(sum(streaks) / len(streaks))
        assert row["streak_2plus_rate"] == pytest.approx(sum(v >= 2 for v in streaks) / 300)
        finals = [v for (g, s), v in final.items() if s == seat]
        assert row["final_round_rate"] == pytest.approx(sum(finals) / 300)


def test_same_seed_same_report_and_mixed_agents():
    agents = ["heuristic", "random", "heuristic", "random"]
    first = cheapskate_frequency(Rules(), agents, games=500, seed=2)
    again = cheapskate_frequency(Rules(), agents, games=500, seed=2)
    for a, b in zip(first, again, strict=True):
        assert a.equals(b)
    assert first.summary["agent"].to_list() == agents
    assert set(first.winning["agent"]) == {"heuristic", "random"}


def test_heuristic_seats_pinned(heuristic_report):
    # Seeded (seed 5, 2000 games, 4 heuristic players, seat 0 starts as auctioneer). Measured:
    # seat 0 about 1.0 times per game, seat 3 about 2.3; the fair share is 7/4.
    by_seat = {row["seat"]: row for row in heuristic_report.summary.iter_rows(named=True)}
    assert by_seat[0]["times_high"] < 1.75 < by_seat[3]["times_low"]


def test_by_player_count_stacks_reports():
    report = cheapskate_by_player_count(games=300, seed=1)
    assert report.summary.group_by("players").len().sort("players")["len"].to_list() == [
        2,
        3,
        4,
        5,
    ]
    assert report.facts["players"].to_list() == [2, 3, 4, 5]
    sums = report.summary.group_by("players").agg(pl.col("times_mean").sum())
    assert sums["times_mean"].to_list() == pytest.approx([7.0] * 4)
    assert "players" in report.distribution.columns and "players" in report.winning.columns
    with pytest.raises(ValueError, match="at least one player count"):
        cheapskate_by_player_count(player_counts=[], games=10, seed=1)
