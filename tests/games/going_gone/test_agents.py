"""Agents: each beats the one before it, shown with 95% Wilson intervals over seeded games with
seats rotated; options are validated when an agent is made."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.games.going_gone import (
    AGENTS,
    CollectorAgent,
    RandomAgent,
    Rules,
    ValuationAgent,
    make_agent,
    simulate,
)
from workbench.stats import proportion_interval


def lone_seat_win_rate(lone: str, field: str, games_per_seat: int, seed: int) -> tuple:
    """Win rate of one ``lone`` agent against a field of ``field`` agents, its seat rotated
    through all four: (rate, low, high, games); a shared win counts 1/k."""
    shares = []
    for seat in range(4):
        lineup = [field] * 4
        lineup[seat] = lone
        games, _ = simulate(
            Rules(), lineup, games=games_per_seat, seed=seed + seat, progress=False, rounds=False
        )
        shares.append(games.filter(pl.col("seat") == seat)["win_share"])
    share = pl.concat(shares)
    low, high = proportion_interval(float(share.sum()), share.len())
    return float(share.mean()), low, high, share.len()


@pytest.mark.parametrize(
    ("weaker", "stronger", "games_per_seat"),
    [("random", "valuation", 250), ("valuation", "collector", 500)],
)
def test_each_agent_beats_the_one_before(weaker, stronger, games_per_seat):
    # Alone against three of the weaker agent, the stronger one wins more than its fair share
    # of 1/4; alone against three of the stronger one, the weaker wins less than 1/4.
    rate, low, _, n = lone_seat_win_rate(stronger, weaker, games_per_seat, seed=100)
    assert n == 4 * games_per_seat
    assert low > 0.25, (stronger, rate, low)
    rate, _, high, _ = lone_seat_win_rate(weaker, stronger, games_per_seat, seed=200)
    assert high < 0.25, (weaker, rate, high)


def test_agents_are_listed_weakest_first_and_made_by_name():
    assert list(AGENTS) == ["random", "valuation", "collector", "search", "fitted"]
    assert isinstance(make_agent("random"), RandomAgent)
    assert make_agent("valuation", Rules(), bid_share=0.5).bid_share == 0.5
    collector = make_agent("collector", reserve=9, exact_values=False)
    assert isinstance(collector, CollectorAgent) and collector.reserve == 9
    assert repr(ValuationAgent()) == "ValuationAgent(bid_share=0.6, last_share=0.85, reserve=8)"


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("greedy", {}, "unknown agent 'greedy'; agents: random, valuation, collector"),
        ("valuation", {"bid_share": 0}, r"bid_share must be a number in \(0, 1\], got 0"),
        ("valuation", {"bid_share": 1.5}, "bid_share must be a number in"),
        ("valuation", {"reserve": -1}, "reserve must be a whole number >= 0, got -1"),
        ("valuation", {"reserve": 2.5}, "reserve must be a whole number"),
        ("collector", {"projection": 2}, r"projection must be a number in \[0, 1\]"),
        ("collector", {"capture": True}, "capture must be a number"),
        ("collector", {"exact_values": "yes"}, "exact_values must be True or False"),
    ],
)
def test_bad_agent_options_are_refused(name, options, message):
    with pytest.raises(ValueError, match=message):
        make_agent(name, **options)


def test_unknown_option_names_are_refused():
    # The kit's message names the option and the agent's options (once Python's own).
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['share'\] for the valuation"):
        make_agent("valuation", share=0.5)
