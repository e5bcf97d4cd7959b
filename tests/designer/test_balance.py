"""Balance metrics: hand-counted frames, an independent brute force on real games, and the
intervals recomputed from workbench.stats."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.designer.balance import (
    balance_metrics,
    game_values,
    metric_catalogue,
    per_game_metrics,
)
from workbench.games import rubbish, shared_budget
from workbench.stats import mean_interval, proportion_interval

# Three games, three seats, three rounds; score_after per round, seat by seat.
#   game 0: [5,3,0] sole leader 0; [5,6,0] leader 1 (change 1); [7,6,7] tie 0&2: lead stays
#           with 1. Final 7,6,7: seats 0 and 2 share the win. Margin 7-7 = 0. Seats 0 and 2
#           are on top only after round 3: the winner takes the lead in round 3 (late).
#   game 1: [1,0,0] leader 0; [1,2,0] leader 1 (change); [3,2,0] leader 0 (change): 2 changes.
#           Seat 0 wins, on top again only in round 3 (late). Margin 3-2 = 1.
#   game 2: [0,0,0] no sole leader; [0,4,0] leader 1 (the first: not a change); [0,4,1].
#           Seat 1 wins and was on top (tied) from round 1. Margin 4-1 = 3.
SCORES = {
    0: [[5, 3, 0], [5, 6, 0], [7, 6, 7]],
    1: [[1, 0, 0], [1, 2, 0], [3, 2, 0]],
    2: [[0, 0, 0], [0, 4, 0], [0, 4, 1]],
}
RANKS = {0: [1, 3, 1], 1: [1, 2, 3], 2: [3, 1, 2]}
SHARES = {0: [0.5, 0, 0.5], 1: [1, 0, 0], 2: [0, 1, 0]}
EXPECTED = {
    "win_rate_seat_0": [0.5, 1, 0],
    "win_rate_seat_1": [0, 0, 1],
    "win_rate_seat_2": [0.5, 0, 0],
    "first_seat_advantage": [0.5 - 1 / 3, 1 - 1 / 3, -1 / 3],
    "shared_win_rate": [1, 0, 0],
    "winning_margin": [0, 1, 3],
    "lead_changes": [1, 2, 0],
    "winner_lead_round": [3, 3, 1],
    "late_winner_rate": [1, 1, 0],
}


def hand_frames(drop_last_round_of: int | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    games = pl.DataFrame(
        [
            {
                "game": g,
                "seat": s,
                "agent": "x",
                "score": SCORES[g][-1][s] if g != drop_last_round_of else SCORES[g][-2][s],
                "rank": RANKS[g][s],
                "won": RANKS[g][s] == 1,
                "win_share": float(SHARES[g][s]),
            }
            for g in SCORES
            for s in range(3)
        ]
    )
    rounds = pl.DataFrame(
        [
            {"game": g, "round": r + 1, "seat": s, "agent": "x", "score_after": SCORES[g][r][s]}
            for g in SCORES
            for r in range(3 if g != drop_last_round_of else 2)
            for s in range(3)
        ]
    )
    return games, rounds


def test_hand_counted_game_values():
    games, rounds = hand_frames()
    frame = per_game_metrics(games, rounds)
    assert frame["game"].to_list() == [0, 1, 2]
    for name, expected in EXPECTED.items():
        assert frame[name].to_list() == pytest.approx(expected), name


def test_row_order_does_not_matter():
    games, rounds = hand_frames()
    shuffled = per_game_metrics(
        games.sample(fraction=1.0, shuffle=True, seed=3),
        rounds.sample(fraction=1.0, shuffle=True, seed=4),
    )
    assert shuffled.equals(per_game_metrics(games, rounds))


def test_a_game_that_ends_early_is_followed_over_its_own_rounds():
    # Game 2 stops after round 2 at [0,4,0]: seat 1 on top (tied) from round 1, not late.
    # Game 0 uses the round-2 standing as final here: seat 1 alone on top (ranks stay as given,
    # so its winners 0 and 2 are not on top at the end: the lead round is undefined).
    games, rounds = hand_frames(drop_last_round_of=2)
    frame = per_game_metrics(games, rounds)
    assert frame.row(2, named=True)["winner_lead_round"] == 1
    assert frame.row(2, named=True)["late_winner_rate"] == 0
    assert frame.row(2, named=True)["lead_changes"] == 0
    assert frame.row(0, named=True)["lead_changes"] == 1  # game 0 unchanged
    games0 = hand_frames(drop_last_round_of=0)
    values = per_game_metrics(*games0)
    assert math.isnan(values.row(0, named=True)["winner_lead_round"])
    assert values.row(0, named=True)["lead_changes"] == 1


def test_summary_intervals_are_the_stats_modules():
    games, rounds = hand_frames()
    summary = {row["metric"]: row for row in balance_metrics(games, rounds).iter_rows(named=True)}
    seat0 = summary["win_rate_seat_0"]
    assert (seat0["n"], seat0["value"]) == (3, 0.5)
    assert (seat0["low"], seat0["high"]) == pytest.approx(proportion_interval(1.5, 3))
    margin = summary["winning_margin"]
    assert (margin["value"], margin["low"], margin["high"]) == pytest.approx(
        mean_interval([0, 1, 3])
    )
    assert margin["interval"] == "t" and seat0["interval"] == "Wilson"
    # Spread: 0.5 - 1/6, interval from each seat's Wilson at 1 - 0.05/3 (Bonferroni).
    spread = summary["win_rate_spread"]
    bounds = [proportion_interval(s, 3, 1 - 0.05 / 3) for s in (1.5, 1.0, 0.5)]
    assert spread["value"] == pytest.approx(0.5 - 1 / 6)
    assert spread["low"] == pytest.approx(
        max(0.0, max(b[0] for b in bounds) - min(b[1] for b in bounds))
    )
    assert spread["high"] == pytest.approx(max(b[1] for b in bounds) - min(b[0] for b in bounds))


def brute_force_leads(rounds: pl.DataFrame, games: pl.DataFrame) -> dict[int, tuple[int, int]]:
    """(lead changes, winner lead round) per game, by plain Python over the rows."""
    winners = {
        g: {row["seat"] for row in part.iter_rows(named=True) if row["rank"] == 1}
        for (g,), part in games.group_by("game")
    }
    result = {}
    for (g,), part in rounds.group_by("game"):
        by_round: dict[int, dict[int, int]] = {}
        for row in part.iter_rows(named=True):
            by_round.setdefault(row["round"], {})[row["seat"]] = row["score_after"]
        leader, changes, tops = None, 0, []
        for r in sorted(by_round):
            scores = by_round[r]
            best = max(scores.values())
            top = {s for s, v in scores.items() if v == best}
            tops.append(top)
            if len(top) == 1:
                (sole,) = top
                if leader is not None and sole != leader:
                    changes += 1
                leader = sole
        lead_round = min(
            next(k + 1 for k in range(len(tops)) if all(w in t for t in tops[k:]))
            for w in winners[g]
        )
        result[g] = (changes, lead_round)
    return result


@pytest.mark.parametrize(
    ("game", "agents"),
    [(rubbish, ["heuristic", "random", "random", "heuristic"]), (shared_budget, None)],
)
def test_lead_metrics_match_a_brute_force_on_real_games(game, agents):
    games, rounds = game.simulate(None, agents, games=150, seed=11, progress=False)
    frame = per_game_metrics(games, rounds, game)
    expected = brute_force_leads(rounds, games)
    for row in frame.iter_rows(named=True):
        assert (row["lead_changes"], row["winner_lead_round"]) == expected[row["game"]]


def test_the_catalogue_lists_common_then_the_games_own_metrics():
    names = [info.name for info in metric_catalogue(4, "rubbish")]
    assert names[:5] == [f"win_rate_seat_{s}" for s in range(4)] + ["win_rate_spread"]
    assert names[-len(rubbish.GAME_METRICS) :] == [m.name for m in rubbish.GAME_METRICS]
    sources = {info.source for info in metric_catalogue(2, shared_budget)}
    assert sources == {"common", "shared_budget"}


def test_bad_frames_are_refused_with_the_reason():
    games, rounds = hand_frames()
    with pytest.raises(ValueError, match="lacks columns"):
        per_game_metrics(games.drop("win_share"), rounds)
    with pytest.raises(ValueError, match="empty"):
        per_game_metrics(games.clear(), rounds)
    with pytest.raises(ValueError, match="one row per game × seat"):
        per_game_metrics(games.filter(pl.col("seat") != 1), rounds)
    with pytest.raises(ValueError, match="one row per game × round × seat"):
        per_game_metrics(games, rounds.filter((pl.col("seat") != 1) | (pl.col("round") != 2)))
    with pytest.raises(ValueError, match="missing from the games frame"):
        per_game_metrics(games, rounds.with_columns(game=pl.col("game") + 1))
    with pytest.raises(TypeError, match="games frame"):
        per_game_metrics(games.to_dicts(), rounds)


@given(st.integers(1, 7), st.integers(0, 2**31))
def test_lead_changes_never_exceed_the_rounds_after_the_first(rounds_count, seed):
    """Invariant: changes <= rounds - 1, and the winner's lead round lies in 1..rounds."""
    rng = np.random.default_rng(seed)
    seats = 3
    running = np.cumsum(rng.integers(0, 5, size=(rounds_count, seats)), axis=0)
    final = running[-1]
    ranks = 1 + (final[None, :] > final[:, None]).sum(axis=1)
    share = (ranks == 1) / (ranks == 1).sum()
    games = pl.DataFrame(
        {
            "game": [0] * seats,
            "seat": range(seats),
            "score": final,
            "rank": ranks,
            "win_share": share,
        }
    )
    rounds = pl.DataFrame(
        {
            "game": [0] * (rounds_count * seats),
            "round": np.repeat(np.arange(1, rounds_count + 1), seats),
            "seat": np.tile(np.arange(seats), rounds_count),
            "score_after": running.ravel(),
        }
    )
    values = game_values(games, rounds).values
    assert 0 <= values["lead_changes"][0] <= rounds_count - 1
    assert 1 <= values["winner_lead_round"][0] <= rounds_count
