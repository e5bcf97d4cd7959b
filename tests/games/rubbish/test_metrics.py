"""Rubbish Auction's own balance metrics: a hand-counted game and a brute force over real ones."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.games import rubbish
from workbench.games.rubbish.simulate import ROLE_TYPE
from workbench.metrics import METRIC_KINDS


def hand_frames(role_type: pl.DataType = ROLE_TYPE) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Two games of two players and two items.

    Game 0: round 1 seat 0 (First Bidder) wins with 5, seat 1 is cheapskate with 0; round 2
    seat 1 (First Bidder, the auctioneer as last round's cheapskate) wins with 10 but
    overspends and discards the item, seat 0 is cheapskate with 2. Seat 0 wins the game with
    its one destined item. Game 1: seat 1 wins both rounds from second position (no empty
    bids), seat 0 is cheapskate twice; both seats tie and share the win.
    """
    games = pl.DataFrame(
        {
            "game": [0, 0, 1, 1],
            "seat": [0, 1, 0, 1],
            "rank": [1, 2, 1, 1],
            "win_share": [1.0, 0.0, 0.5, 0.5],
            "items_won": [1, 0, 0, 2],
            "destined_won": [1, 0, 0, 1],
            "times_cheapskate": [1, 1, 2, 0],
        }
    )
    rounds = pl.DataFrame(
        {
            "game": [0, 0, 0, 0, 1, 1, 1, 1],
            "round": [1, 1, 2, 2, 1, 1, 2, 2],
            "seat": [0, 1, 0, 1, 0, 1, 0, 1],
            "position": [0, 1, 1, 0, 0, 1, 0, 1],
            "bid_total": [5, 0, 2, 10, 1, 3, 2, 5],
            "role": ["winner", "cheapskate", "cheapskate", "winner"] + ["cheapskate", "winner"] * 2,
        }
    ).with_columns(pl.col("role").cast(role_type))
    return games, rounds


# game -> metric -> hand count (see hand_frames)
EXPECTED = {
    0: {
        "winner_cheapskate_rate": 1 / 2,  # the winner, seat 0, was cheapskate in 1 of 2 rounds
        "empty_cheapskate_rate": 1 / 2,  # round 1's cheapskate bid 0
        "discarded_items": 1,  # 2 rounds, 1 item kept
        "destined_items_won": 1,
        "first_bidder_win_rate": 1,
        "auctioneer_win_rate": 1,  # round 2's auctioneer (seat 1) won it
    },
    1: {
        "winner_cheapskate_rate": (2 / 2 + 0 / 2) / 2,  # averaged over the joint winners
        "empty_cheapskate_rate": 0,
        "discarded_items": 0,
        "destined_items_won": 1,
        "first_bidder_win_rate": 0,
        "auctioneer_win_rate": 0,  # round 2's auctioneer is seat 0; seat 1 won
    },
}


@pytest.mark.parametrize("role_type", [ROLE_TYPE, pl.String], ids=["enum", "string"])
def test_hand_counted_game(role_type):
    frame = rubbish.game_metrics(*hand_frames(role_type))
    assert frame.columns == ["game", *(m.name for m in rubbish.GAME_METRICS)]
    for row in frame.iter_rows(named=True):
        assert row == pytest.approx({"game": row["game"], **EXPECTED[row["game"]]})


def test_any_row_order_gives_the_same_values():
    games, rounds = hand_frames()
    shuffled = rubbish.game_metrics(
        games.sample(fraction=1.0, shuffle=True, seed=1),
        rounds.sample(fraction=1.0, shuffle=True, seed=2),
    )
    assert shuffled.equals(rubbish.game_metrics(games, rounds))


def test_every_metric_is_declared_with_a_known_kind():
    assert all(metric.kind in METRIC_KINDS for metric in rubbish.GAME_METRICS)
    assert len({metric.name for metric in rubbish.GAME_METRICS}) == len(rubbish.GAME_METRICS)


def test_matches_a_brute_force_over_real_games():
    """Random agents overspend and bid nothing now and then: every metric is exercised."""
    games, rounds = rubbish.simulate(
        rubbish.Rules(players=3),
        ["random", "heuristic", "random"],
        games=120,
        seed=5,
        progress=False,
    )
    frame = rubbish.game_metrics(games, rounds)
    assert frame["empty_cheapskate_rate"].sum() > 0 and frame["discarded_items"].sum() > 0
    for row in frame.iter_rows(named=True):
        g = row["game"]
        seats = games.filter(pl.col("game") == g).to_dicts()
        steps = rounds.filter(pl.col("game") == g).sort("round", "seat").to_dicts()
        by_round: dict[int, list[dict]] = {}
        for step in steps:
            by_round.setdefault(step["round"], []).append(step)
        played = len(by_round)
        winners = [s for s in seats if s["rank"] == 1]
        winner_of = {
            r: next(s for s in rows if s["role"] == "winner") for r, rows in by_round.items()
        }
        cheap_of = {
            r: next(s for s in rows if s["role"] == "cheapskate") for r, rows in by_round.items()
        }
        expected = {
            "winner_cheapskate_rate": sum(w["times_cheapskate"] for w in winners)
            / len(winners)
            / played,
            "empty_cheapskate_rate": sum(cheap_of[r]["bid_total"] == 0 for r in by_round) / played,
            "discarded_items": played - sum(s["items_won"] for s in seats),
            "destined_items_won": sum(s["destined_won"] for s in seats),
            "first_bidder_win_rate": sum(winner_of[r]["position"] == 0 for r in by_round) / played,
            "auctioneer_win_rate": sum(
                winner_of[r]["seat"] == cheap_of[r - 1]["seat"] for r in range(2, played + 1)
            )
            / (played - 1),
        }
        assert row == pytest.approx({"game": g, **expected})


def test_inconsistent_frames_are_refused():
    games, rounds = hand_frames()
    with pytest.raises(ValueError, match="one games row per game × seat"):
        rubbish.game_metrics(games, rounds.head(7))
    two_winners = rounds.with_columns(
        role=pl.when(pl.col("role") == "cheapskate")
        .then(pl.lit("winner"))
        .otherwise("role")
        .cast(ROLE_TYPE)
    )
    with pytest.raises(ValueError, match="exactly one winner"):
        rubbish.game_metrics(games, two_winners)
