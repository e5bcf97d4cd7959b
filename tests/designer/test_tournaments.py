"""Tournaments: the seatings, and standings / head-to-head recomputed from simulate runs."""

from __future__ import annotations

import itertools
from collections import Counter

import polars as pl
import pytest

from workbench import SerialExecutor, ladder, tournament
from workbench.designer.cells import cell_seed
from workbench.designer.tournaments import seatings
from workbench.games import rubbish


@pytest.mark.parametrize(
    ("entrants", "players", "expected"),
    [
        (2, 4, [(0, 1, 0, 1), (1, 0, 1, 0)]),
        (4, 4, [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]),
        (3, 2, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]),
        (2, 2, [(0, 1), (1, 0)]),
    ],
)
def test_seatings(entrants, players, expected):
    assert seatings(entrants, players) == expected


@pytest.mark.parametrize(("entrants", "players"), [(3, 4), (2, 5), (4, 5), (3, 5), (4, 6), (5, 4)])
def test_any_number_of_entrants_gets_a_balanced_schedule(entrants, players):
    """Every entrant in every seat equally often; every pair meets in equally many seatings."""
    plan = seatings(entrants, players)
    assert len(set(plan)) == len(plan)
    seats = Counter((entrant, seat) for seating in plan for seat, entrant in enumerate(seating))
    assert len(seats) == entrants * players and len(set(seats.values())) == 1
    meetings = Counter(
        pair for seating in plan for pair in itertools.combinations(sorted(set(seating)), 2)
    )
    assert len(meetings) == entrants * (entrants - 1) // 2 and len(set(meetings.values())) == 1


def test_three_entrants_at_four_seats_take_the_extra_seat_in_turn():
    # One table per entrant holding two seats (hand-listed), each in its four rotations.
    assert seatings(3, 4)[::4] == [(0, 1, 2, 0), (0, 1, 2, 1), (0, 1, 2, 2)]
    assert len(seatings(3, 4)) == 12


def test_three_entrants_at_a_four_seat_table():
    result = tournament(
        "going_gone", None, ["random", "valuation", "collector"], games=20, seed=5,
        executor=SerialExecutor(), progress=False,
    )  # fmt: skip
    standings = result.standings
    # Each entrant holds two seats at one table of three and one at the others: 4/3 a game.
    assert standings["seats_per_game"].to_list() == pytest.approx([4 / 3] * 3)
    assert standings["fair_share"].to_list() == pytest.approx([1 / 3] * 3)
    assert standings["games"].to_list() == [240] * 3  # 12 seatings of 20 games, all at table
    assert standings["win_rate"].sum() == pytest.approx(1)
    assert set(result.by_seat["games"]) == {4 * 20}  # every entrant in every seat 4 times
    assert result.pairwise["games"].to_list() == [240] * 6


def test_every_entrant_sits_in_every_seat_equally_often():
    plan = seatings(5, 4)
    assert len(plan) == 5 * 4  # five tables of four, four rotations each
    counts = Counter((entrant, seat) for seating in plan for seat, entrant in enumerate(seating))
    assert set(counts.values()) == {4}


def test_standings_and_head_to_head_match_the_simulate_runs():
    result = tournament(
        "rubbish",
        None,
        ["heuristic", "random"],
        games=200,
        seed=3,
        executor=SerialExecutor(),
        progress=False,
    )
    shares = {"heuristic": [], "random": []}
    for seating in seatings(2, 4):
        lineup = [["heuristic", "random"][e] for e in seating]
        seed = cell_seed(3, rubbish.GAME, rubbish.Rules(), lineup)
        games, _ = rubbish.simulate(None, lineup, games=200, seed=seed, progress=False)
        per_agent = games.group_by("game", "agent").agg(pl.col("win_share").sum())
        for name in shares:
            shares[name] += per_agent.filter(pl.col("agent") == name)["win_share"].to_list()
    standings = {row["entrant"]: row for row in result.standings.iter_rows(named=True)}
    for name, values in shares.items():
        assert standings[name]["games"] == 400
        assert standings[name]["win_rate"] == pytest.approx(sum(values) / len(values))
        assert standings[name]["fair_share"] == 0.5
    ahead = {(r["entrant"], r["opponent"]): r for r in result.pairwise.iter_rows(named=True)}
    first, second = ahead["heuristic", "random"], ahead["random", "heuristic"]
    assert first["ahead_rate"] + second["ahead_rate"] == pytest.approx(1)
    assert first["games"] == second["games"] == 400
    assert result.by_seat.height == 8 and set(result.by_seat["games"]) == {200}
    assert result.seatings["lineup"].to_list() == [
        "heuristic,random,heuristic,random",
        "random,heuristic,random,heuristic",
    ]
    for table in (result.standings, result.pairwise, result.by_seat):  # the base seed
        assert table["seed"].unique().to_list() == [3] and table["game"][0] == "rubbish"
    assert result.seatings["seed"].to_list() == [
        cell_seed(3, rubbish.GAME, rubbish.Rules(), lineup.split(","))
        for lineup in result.seatings["lineup"]
    ]


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        (["heuristic"], "two or more entrants"),
        ("heuristic", "two or more entrants"),
        (["random", "random"], "distinct names; repeated: random"),
    ],
)
def test_bad_entrants(agents, message):
    with pytest.raises(ValueError, match=message):
        tournament("rubbish", None, agents, games=10, seed=1)


def test_an_unknown_agent_is_named_once_not_once_per_seating():
    with pytest.raises(ValueError, match=r"^unknown entrants \['genius'\]; rubbish agents: random"):
        tournament("rubbish", None, ["genius", "random"], games=10, seed=1)
    with pytest.raises(ValueError, match=r"^unknown agents \['genius', 'oracle'\]; rubbish agents"):
        ladder("rubbish", None, ["random", "genius", "oracle"], games=10, seed=1)
