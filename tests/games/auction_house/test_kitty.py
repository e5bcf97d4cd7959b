"""Kitty analyses: exact trump odds against hand counts and brute force, the summaries
against hand-made outcome frames, the paired designs, and the intervals' arithmetic."""

from __future__ import annotations

import math
from fractions import Fraction

import polars as pl
import pytest
from scipy import stats

from workbench.games.auction_house import (
    Rules,
    auction_value,
    carry_chains,
    carry_over_rate,
    kitty_outcomes,
    kitty_summary,
    kitty_value_distribution,
    simulate,
    trump_odds,
    trump_odds_brute_force,
    trump_odds_table,
    trump_odds_through,
    trump_reveal_comparison,
    win_by_tricks,
)
from workbench.games.auction_house.agents import HeuristicAgent
from workbench.games.auction_house.compiled import Recording
from workbench.games.auction_house.kitty import _NoAuction, _paired_recordings, cluster_ratio

F = Fraction


# -- trump odds (exact) -------------------------------------------------------------------------

# Revealed -> next deal's odds, counted by hand: 3 of each suit in 12; k of a suit turned
# leaves 3 - k of it among 12 - turned.
ODDS = [
    ((), {"C": F(1, 4), "D": F(1, 4), "H": F(1, 4), "S": F(1, 4)}),
    (("QH",), {"C": F(3, 11), "D": F(3, 11), "H": F(2, 11), "S": F(3, 11)}),
    (("QH", "JH", "KS"), {"C": F(1, 3), "D": F(1, 3), "H": F(1, 9), "S": F(2, 9)}),
    (("H", "H", "H"), {"C": F(1, 3), "D": F(1, 3), "H": F(0), "S": F(1, 3)}),
    (
        ("JC", "QC", "KC", "JD", "QD", "KD", "JH", "QH", "KH", "JS", "QS"),
        {"C": 0, "D": 0, "H": 0, "S": 1},
    ),
    (("JC", "QC", "KC", "JD", "QD", "KD", "JH", "QH", "KH", "JS", "QS", "KS"), {"none": 1}),
]


@pytest.mark.parametrize("revealed, expected", ODDS)
def test_trump_odds_hand_counts(revealed, expected):
    assert trump_odds(revealed) == {k: F(v) for k, v in expected.items()}


@pytest.mark.parametrize("revealed", [("QH", "JH", "KS", "QS"), ("JC", "JD", "JH", "JS", "QC")])
def test_trump_odds_for_every_later_deal_match_a_brute_force_count(revealed):
    left = 12 - len(revealed)
    for ahead in range(1, left + 1):
        assert trump_odds_brute_force(revealed, ahead) == trump_odds(revealed)
    table = trump_odds_table(revealed)
    assert table["deal"].unique().sort().to_list() == list(range(len(revealed) + 1, 14))
    assert table.filter(pl.col("deal") == 13)["suit"].to_list() == ["none"]
    assert table.group_by("deal").agg(pl.col("probability").sum())[
        "probability"
    ].to_list() == pytest.approx([1.0] * table["deal"].n_unique())


def test_trump_odds_through_a_game():
    cards = ("QH", "JH", "KS", "JC")
    frame = trump_odds_through(cards)
    came = frame.filter(pl.col("came"))
    assert came["suit"].to_list() == ["H", "H", "S", "C"]
    assert came["exact"].to_list() == ["1/4", "2/11", "3/10", "3/9".replace("3/9", "1/3")]


@pytest.mark.parametrize(
    "revealed, error, message",
    [
        (("QH", "QH"), ValueError, "each trump card is turned once"),
        (("H", "H", "H", "H"), ValueError, "3 cards of each suit"),
        (("10H",), ValueError, "trump deck holds J, Q and K"),
        ("QH", TypeError, "not a single string"),
    ],
)
def test_trump_odds_bad_input(revealed, error, message):
    with pytest.raises(error, match=message):
        trump_odds(revealed)


# -- intervals ----------------------------------------------------------------------------------


def test_cluster_ratio_by_hand():
    # Three games: 1/2, 0/2, 2/2 -> 3/6; residuals 0, -1, 1; variance 3/2 * 2 / 36.
    estimate, low, high = cluster_ratio([1, 0, 2], [2, 2, 2])
    half = stats.t.ppf(0.975, 2) * math.sqrt(1 / 12)
    assert (
        estimate == 0.5 and low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)
    )
    assert cluster_ratio([1, 0, 2], [2, 2, 2], proportion=True)[1] == 0.0  # clipped to [0, 1]
    # No variation in a proportion: the Wilson interval on the pooled count.
    assert cluster_ratio([0, 0], [5, 5], proportion=True) == (
        0.0,
        0.0,
        pytest.approx(0.2775, abs=1e-4),
    )


# -- summaries on hand-made outcomes ------------------------------------------------------------


def outcomes_by_hand() -> pl.DataFrame:
    """Two games: game 0 ties deals 1-2 (won in deal 3), ties deal 4 (won in deal 5); game 1
    (3 deals) is won in deal 1 and ties deals 2-3, the last tie losing 30 points."""
    rows = [
        # game, deal, winner, kitty_points, carried_in, lost
        (0, 1, None, 10, 0, 0),
        (0, 2, None, 12, 10, 0),
        (0, 3, 1, 8, 22, 0),
        (0, 4, None, 9, 0, 0),
        (0, 5, 2, 7, 9, 0),
        (1, 1, 0, 11, 0, 0),
        (1, 2, None, 14, 0, 0),
        (1, 3, None, 16, 14, 30),
    ]
    frame = pl.DataFrame(
        rows,
        schema=["game", "deal", "kitty_winner", "kitty_points", "carried_in", "lost"],
        orient="row",
    )
    return frame.with_columns(
        at_stake=pl.col("kitty_points") + pl.col("carried_in"),
        auction=pl.lit(False),
        starter=pl.lit(None, pl.Int8),
    )


def test_carry_chains_by_hand():
    chains = carry_chains(outcomes_by_hand())
    assert chains["length"].to_list() == [1, 2]
    assert chains["runs"].to_list() == [1, 2]  # deal 4 of game 0; deals 1-2 of game 0, 2-3 of 1
    assert chains["ended_lost"].to_list() == [0, 1]
    assert chains["mean_pot"].to_list() == [16.0, (30 + 30) / 2]


def test_carry_over_rate_and_summary_by_hand():
    frame = outcomes_by_hand()
    assert carry_over_rate(frame)["rate"].to_list() == [5 / 8]
    summary = kitty_summary(frame)
    values = dict(zip(summary["metric"], summary["estimate"], strict=True))
    assert values["carry-over rate"] == 5 / 8
    assert values["kitty points (own cards)"] == (10 + 12 + 8 + 9 + 7 + 11 + 14 + 16) / 8
    assert values["points lost per game"] == 30 / 2
    distribution = kitty_value_distribution(frame)
    assert (
        distribution["deals"].sum() == 8
        and distribution.filter(pl.col("carried"))["deals"].sum() == 4
    )


def test_summaries_refuse_other_frames():
    with pytest.raises(ValueError, match="needs a kitty_outcomes frame; columns"):
        carry_over_rate(pl.DataFrame({"x": [1]}))
    with pytest.raises(TypeError, match="takes a kitty_outcomes frame"):
        kitty_summary("outcomes")
    frame = kitty_outcomes(Rules(), "random", deals=13, seed=1)
    for summary in (carry_over_rate, kitty_summary, win_by_tricks, carry_chains):
        with pytest.raises(ValueError, match=r"groups by columns of its frame; \['trumps'\] are "):
            summary(frame, by="trumps")


# -- simulated outcomes -------------------------------------------------------------------------


def test_kitty_outcomes_agree_with_simulate_and_cut_at_deals():
    outcomes = kitty_outcomes(Rules(), "heuristic", deals=13 * 30, seed=4)
    _, rounds = simulate(Rules(), "heuristic", games=30, seed=4, progress=False)
    won = rounds.filter(pl.col("kitty_won")).select("game", deal="round", kitty_winner="seat")
    joined = outcomes.filter(pl.col("kitty_winner").is_not_null()).select(
        "game", "deal", "kitty_winner"
    )
    assert joined.sort("game", "deal").equals(won.cast(joined.schema).sort("game", "deal"))
    cut = kitty_outcomes(Rules(), "heuristic", deals=20, seed=4)
    assert cut.height == 20 and cut["game"].to_list() == [0] * 13 + [1] * 7
    assert cut.equals(kitty_outcomes(Rules(), "heuristic", deals=26, seed=4).head(20))


def test_who_wins_the_kitty_by_tricks_pins_the_counting_facts():
    """Nine tricks among four seats: 5 or more tricks always win the kitty; 2 or fewer never
    do (someone took at least 3)."""
    table = win_by_tricks(kitty_outcomes(Rules(), "random", deals=13 * 60, seed=2))
    p = dict(zip(table["tricks"], table["p_win"], strict=True))
    assert all(p[t] == 1.0 for t in p if t >= 5) and all(p[t] == 0.0 for t in p if t <= 2)
    assert 0 < p[3] < p[4] < 1


def test_groups_keep_their_column_type():
    """Grouped by an Enum column (the trump reveal, the trump suit), the rows keep its type, so
    they sort in its order and join: win_by_tricks by trump_reveal used to fail on its join."""
    outcomes = pl.concat([kitty_outcomes(Rules(trump_reveal=reveal), "random", deals=13 * 4,
                                         seed=1) for reveal in ("before_auction", "after_kitty")])
    by_reveal = win_by_tricks(outcomes, by="trump_reveal")
    assert by_reveal.schema["trump_reveal"] == outcomes.schema["trump_reveal"]
    assert by_reveal["trump_reveal"].unique(maintain_order=True).to_list() == [
        "after_kitty", "before_auction"]  # the Enum's order  # fmt: skip
    assert by_reveal["seat_deals"].sum() == 4 * 13 * 4 * 2
    by_trump = carry_over_rate(outcomes, by="trump")
    assert by_trump.schema["trump"] == outcomes.schema["trump"]
    assert by_trump["deals"].sum() == 13 * 4 * 2


def test_the_paired_arms_share_deals_and_random_numbers():
    """With auctions suppressed in both arms the two plays are the same game."""
    rules = Rules(deals=3)
    lineup = [_NoAuction(HeuristicAgent())] * 4
    (a,), (b,) = _paired_recordings(rules, [(rules, lineup), (rules, lineup)], 20, 5)
    for name in Recording.__dataclass_fields__:
        assert (getattr(a, name) == getattr(b, name)).all(), name


def test_auction_value_reports_each_role():
    value = auction_value(Rules(), "heuristic", deals=13 * 40, seed=3)
    assert value["role"].to_list() == ["starter", "seller", "offerer"]
    assert value["seat_deals"].to_list()[2] == 2 * value["seat_deals"].to_list()[0]
    for column in ("win_change", "tricks_change", "points_change"):
        assert (value[f"{column}_low"] <= value[column]).all()
        assert (value[column] <= value[f"{column}_high"]).all()
    with pytest.raises(ValueError, match="needs compiled-policy agents"):
        auction_value(Rules(), "determinization", deals=13, seed=1)


@pytest.mark.parametrize("agent", ["heuristic", "fitted"])
def test_auction_value_counts_the_auctions_kitty_outcomes_plays(agent):
    """The played side of auction_value is the same games as kitty_outcomes (a fitted line-up
    plays its policy fitted to the rules): the same number of deals with an auction."""
    value = auction_value(Rules(), agent, deals=13 * 20, seed=3)
    outcomes = kitty_outcomes(Rules(), agent, deals=13 * 20, seed=3)
    assert value["auctions"][0] == outcomes["auction"].sum()
    assert value["agents"][0] == f"{agent} x4"


def test_trump_reveal_comparison_holds_both_readings_of_the_same_games():
    comparison = trump_reveal_comparison(Rules(), "heuristic", deals=13 * 30, seed=6)
    after = kitty_summary(kitty_outcomes(Rules(), "heuristic", deals=13 * 30, seed=6))
    assert comparison["estimate_after_kitty"].to_list() == after["estimate"].to_list()
    house = kitty_outcomes(Rules(trump_reveal="before_auction"), "heuristic", deals=13 * 30, seed=6)
    assert comparison.filter(pl.col("metric") == "carry-over rate")["estimate_before_auction"][
        0
    ] == pytest.approx(house["kitty_winner"].is_null().mean())
    assert comparison["games"][0] == 30
