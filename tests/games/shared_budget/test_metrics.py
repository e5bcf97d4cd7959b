"""The shared budget auction's own balance metrics: hand-counted games."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.games import shared_budget
from workbench.metrics import METRIC_KINDS


def hand_frames() -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two games of teams A (seat 0) and B (seat 1), three cards each.

    Game 0: A has round 1's tie priority. Round 1: both bid 5, the tie goes to A (priority
    decided). Round 2: neither bids (B's written bid was unreadable: a pass); the card stays
    unallocated. Round 3: B wins with 3. Both cover 2 functions; B has more budget left (17 vs
    13) and wins alone on the budget tie-break. Game 1: B has round 1's priority; A outbids B
    every round and wins 3-0 on score.
    """
    games = pl.DataFrame(
        {
            "game": [0, 0, 1, 1],
            "seat": [0, 1, 0, 1],
            "score": [2, 2, 3, 0],
            "rank": [2, 1, 1, 2],
            "win_share": [0.0, 1.0, 1.0, 0.0],
            "budget_left": [13, 17, 5, 20],
        }
    )
    rounds = pl.DataFrame(
        {
            "game": [0] * 6 + [1] * 6,
            "round": [1, 1, 2, 2, 3, 3] * 2,
            "seat": [0, 1] * 6,
            "priority_rank": [*(1, 2, 2, 1, 1, 2), *(2, 1, 1, 2, 2, 1)],
            "bid": [*(5, 5, 0, 0, 2, 3), *(6, 0, 5, 1, 4, 0)],
            "invalid": [False, False, False, True, False, False, *[False] * 6],
        }
    )
    return games, rounds


EXPECTED = {
    0: {
        "priority_advantage": 0.0 - 1 / 2,  # A had priority and lost
        "priority_decided_rate": 1 / 3,
        "unallocated_cards": 1,
        "budget_tiebreak_rate": 1,
        "budget_left": 15,
        "invalid_bid_rate": 1 / 6,
    },
    1: {
        "priority_advantage": 0.0 - 1 / 2,  # B had priority and lost
        "priority_decided_rate": 0,
        "unallocated_cards": 0,
        "budget_tiebreak_rate": 0,
        "budget_left": 12.5,
        "invalid_bid_rate": 0,
    },
}


def test_hand_counted_games():
    frame = shared_budget.game_metrics(*hand_frames())
    assert frame.columns == ["game", *(m.name for m in shared_budget.GAME_METRICS)]
    for row in frame.iter_rows(named=True):
        assert row == pytest.approx({"game": row["game"], **EXPECTED[row["game"]]})


def test_every_metric_is_declared_with_a_known_kind():
    assert all(metric.kind in METRIC_KINDS for metric in shared_budget.GAME_METRICS)


def test_real_games_stay_in_range_and_priority_matches_seat_zero_by_default():
    games, rounds = shared_budget.simulate(
        None, ["coverage", "random"], games=200, seed=3, progress=False
    )
    frame = shared_budget.game_metrics(games, rounds)
    # With first_priority=0, team A (seat 0) has round 1's priority: the two advantages agree.
    seat0 = games.filter(pl.col("seat") == 0).sort("game")["win_share"] - 0.5
    assert frame["priority_advantage"].to_list() == pytest.approx(seat0.to_list())
    assert frame["unallocated_cards"].is_between(0, shared_budget.Rules().rounds).all()
    assert frame["priority_decided_rate"].is_between(0, 1).all()


def test_the_classroom_variant_has_no_priority_advantage():
    rules = shared_budget.Rules(variant="classroom")
    games, rounds = shared_budget.simulate(rules, None, games=5, seed=1, progress=False)
    assert shared_budget.game_metrics(games, rounds)["priority_advantage"].is_null().all()
