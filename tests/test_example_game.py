"""The example game (tests/example_game), registered as ``workbench.games.example`` for these
tests only, gets every part of the workbench through the contract alone: its engine, self-play,
the designer's compare, sweep and tournament, the command line and the play-along table
(the ``example`` fixture in tests/conftest.py registers it).
"""

from __future__ import annotations

import json

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import workbench
from workbench import SerialExecutor, balance_metrics, compare, sweep, tournament
from workbench.designer import cli
from workbench.errors import IllegalAction
from workbench.kit.seeding import generator, seed_sequence

# -- rules and engine ------------------------------------------------------------------------

VALUES = ((5, 8, 2, 6, 3), (7, 3, 4, 6, 9), (2, 8, 9, 1, 5))  # values[seat][item]
BIDS = ((3, 5, 0), (6, 0, 6), (0, 0, 0), (4, 4, 0), (2, 5, 4))  # bids[round][seat]


def fixed_game(example, rules=None):
    """A new game whose private values are VALUES (the draw replaced, all else as dealt)."""
    return example.new_game(rules, seed=0)._evolve(values=VALUES)


def test_rules_are_validated_and_agents_made_by_name(example):
    assert example.Rules().players == 3 and example.Rules().items == 5
    for bad in ({"players": 1}, {"budget": 0}, {"items": 2.5}, {"tie_break": "coin"}):
        with pytest.raises(ValueError, match=f"Rules.{next(iter(bad))}"):
            example.Rules(**bad)
    assert list(example.AGENTS) == ["random", "truthful", "shading", "fitted", "search"]
    assert example.make_agent("shading", factor=0.5).name == "shading(0.5)"
    with pytest.raises(ValueError, match="unknown agent"):
        example.make_agent("oracle")
    with pytest.raises(TypeError, match="unknown option"):
        example.make_agent("truthful", factor=0.5)
    with pytest.raises(ValueError, match="factor"):
        example.make_agent("shading", factor=1.5)


def test_a_hand_counted_game(example):
    """Round 1: seat 1 bids 5, wins, pays 5. Round 2: seats 0 and 2 tie at 6; the rotating
    order starts at seat 1, so seat 2 wins. Round 3: all pass, unsold. Round 4: seats 0 and 1
    tie at 4; the order starts at seat 0, so seat 0 wins. Round 5: seat 1 bids its last 5.
    Budgets left (6, 0, 4); items won: seat 0 item 4 (value 6), seat 1 items 1 and 5 (7 + 9),
    seat 2 item 2 (8). Scores 6 + 6 = 12, 0 + 16 = 16, 4 + 8 = 12."""
    state = fixed_game(example)
    for bids in BIDS:
        for seat, bid in enumerate(bids):
            assert state.to_play == seat and state.legal_actions()[-1] == state.budgets[seat]
            state = state.apply(bid)
    assert state.is_over and state.to_play is None and state.legal_actions() == ()
    sales = [(r.winner, r.price) for r in state.history]
    assert sales == [(1, 5), (2, 6), (None, 0), (0, 4), (1, 5)]
    result = state.result()
    assert state.budgets == (6, 0, 4) and state.items == ((3,), (0, 4), (1,))
    assert result.scores == (12, 16, 12) and result.ranks == (2, 1, 2)
    assert result.winners == (1,)
    round_2 = "round 2: bids [6, 0, 6]; seat 2 wins item 2 for 6 (a tie, broken by the rule)"
    assert round_2 in state.log_for(0) and "round 3: bids [0, 0, 0]; item 3 goes unsold" in (
        state.log_for(1)
    )
    assert state.log_for(None)[-1] == "round 5: bids [2, 5, 4]; seat 1 wins item 5 for 5"
    # The lowest-seat rule gives round 2's tie to seat 0 instead.
    assert example.award((6, 0, 6), example.Rules().priority(1)) == 2
    assert example.award((6, 0, 6), example.Rules(tie_break="lowest_seat").priority(1)) == 0
    assert example.award((0, 0, 0), (0, 1, 2)) is None


def test_an_illegal_bid_raises_and_changes_nothing(example):
    state = fixed_game(example).apply(3)
    before = (state.sealed, state.budgets, state.log)
    with pytest.raises(IllegalAction, match="illegal action 11") as raised:
        state.apply(11)  # seat 1 has 10
    assert raised.value.legal == tuple(range(11)) and isinstance(raised.value, ValueError)
    with pytest.raises(TypeError, match="whole number"):
        state.apply(2.0)
    assert (state.sealed, state.budgets, state.log) == before and state.to_play == 1
    with pytest.raises(ValueError, match="not over"):
        state.result()


def test_sealed_bids_and_values_stay_hidden_until_revealed(example):
    state = fixed_game(example).apply(3)
    assert state.observation(1).my_bid is None and state.observation(0).my_bid == 3
    assert state.observation(1).has_bid == (True, False, False)
    assert state.observation(2).value == 2 and state.observation(2).my_values == VALUES[2]
    assert "seat 0 bids 3 (sealed)" in state.log_for(0)
    assert "seat 0 bids 3 (sealed)" not in state.log_for(1)
    assert "seat 0 writes a sealed bid" in state.log_for(1)
    assert not any("seat 0's values" in line for line in state.log_for(1))
    assert len(state.log_for(None)) == len(state.log_for(0)) + 2  # seat 1's and 2's values
    state = state.apply(5).apply(0)
    assert "round 1: bids [3, 5, 0]; seat 1 wins item 1 for 5" in state.log_for(2)
    # Values come from the game's seeded generator: same seed, same values.
    assert example.new_game(seed=8).values == example.new_game(seed=8).values
    assert example.new_game(seed=8).values != example.new_game(seed=9).values


# -- self-play --------------------------------------------------------------------------------


def test_simulate_is_seeded_and_its_frames_keep_the_contract(example):
    games, rounds = example.simulate(games=40, seed=11, progress=False)
    again = example.simulate(games=40, seed=11, progress=False)
    assert_frame_equal(games, again[0]) and assert_frame_equal(rounds, again[1])
    assert not games.equals(example.simulate(games=40, seed=12, progress=False)[0])
    assert games.columns[:7] == ["game", "seat", "agent", "score", "rank", "won", "win_share"]
    assert rounds.columns[:5] == ["game", "round", "seat", "agent", "score_after"]
    assert (games.height, rounds.height) == (40 * 3, 40 * 5 * 3)
    shares = games.group_by("game").agg(pl.col("win_share").sum())["win_share"]
    assert shares.round(9).unique().to_list() == [1.0]
    assert set(games["agent"]) == {"shading"}  # the default agent
    last = rounds.filter(pl.col("round") == 5).select("game", "seat", "score_after")
    joined = games.join(last, on=["game", "seat"])
    assert (joined["score"] == joined["score_after"]).all()
    assert (games["score"] == games["budget_left"] + games["value_won"]).all()
    # Game g of a run is play_game with the stream (seed, g).
    seven = example.play_game(None, None, seed=seed_sequence(11, 7)).result()
    assert games.filter(pl.col("game") == 7).sort("seat")["score"].to_list() == list(seven.scores)
    # Truthful bidders with budget to spare pay exactly their value: every score is the budget
    # and every game a three-way tie.
    rich, _ = example.simulate(
        example.Rules(budget=100), "truthful", games=20, seed=3, progress=False, rounds=False
    )
    assert set(rich["score"]) == {100} and set(rich["surplus"]) == {0}
    assert rich["win_share"].round(9).unique().to_list() == [round(1 / 3, 9)]
    with pytest.raises(ValueError, match="example has no fast engine"):  # no fast engine: step only
        example.simulate(games=1, seed=0, progress=False, engine="fast")


def test_an_agent_deciding_from_a_view_needs_a_state_that_gives_one(example):
    # The kit's step loop calls act_on_view only when the State has view(player); the example
    # game's has none, so an agent offering one still decides through its observation.
    class Viewing(example.ShadingAgent):
        def act_on_view(self, player, view, rng):
            raise AssertionError("called without a view")

    assert not hasattr(example.new_game(None, seed=0), "view")
    plain, _ = example.simulate(None, "shading", games=5, seed=2, progress=False)
    viewing, _ = example.simulate(None, Viewing(), games=5, seed=2, progress=False)
    assert plain.drop("agent").equals(viewing.drop("agent"))


def test_game_metrics_one_row_per_game(example):
    games, rounds = example.simulate(games=30, seed=4, progress=False)
    own = example.game_metrics(games, rounds)
    assert own.columns == ["game", "mean_price", "tie_rate", "efficient_rate"]
    assert own["game"].to_list() == list(range(30))
    assert own["tie_rate"].is_between(0, 1).all() and own["efficient_rate"].is_between(0, 1).all()
    summary = balance_metrics(games, rounds, game="example")
    mine = summary.filter(pl.col("source") == "example")
    assert mine["metric"].to_list() == ["mean_price", "tie_rate", "efficient_rate"]
    assert (mine["n"] == 30).all()


# -- the designer's bench and the command line -----------------------------------------------


def test_compare_the_lowest_seat_tie_break_favours_seat_0(example):
    paired = compare(
        "example",
        None,
        {"tie_break": "lowest_seat"},
        "shading",
        games=1000,
        seed=5,
        executor=SerialExecutor(),
        progress=False,
    )
    row = {r["metric"]: r for r in paired.iter_rows(named=True)}
    assert row["first_seat_advantage"]["difference_low"] > 0.05  # measured +0.10
    assert row["win_rate_seat_2"]["difference_high"] < 0  # seat 2 loses every tie now
    # Who takes a tied item changes; the top bids, so the prices, barely do.
    assert row["mean_price"]["difference_low"] < 0 < row["mean_price"]["difference_high"]
    assert row["tie_rate"]["baseline"] == pytest.approx(0.22, abs=0.03)
    assert paired["variant_name"][0] == "tie_break=lowest_seat"
    assert paired["common_randomness"][0] == example.COMMON_RANDOMNESS


def test_sweep_a_larger_budget_raises_prices_and_efficiency(example):
    frame = sweep(
        "example",
        grid={"budget": [3, 30]},
        agents="shading",
        games=400,
        seed=6,
        executor=SerialExecutor(),
        progress=False,
    )
    value = {(r["budget"], r["metric"]): r["value"] for r in frame.iter_rows(named=True)}
    assert value[3, "mean_price"] <= 3  # nobody can pay more than its budget of 3
    assert value[30, "mean_price"] > 4.5  # shaded bids, uncapped: 2/3 of values up to 10
    assert value[30, "efficient_rate"] > value[3, "efficient_rate"] + 0.4
    assert set(frame["source"]) == {"common", "example"}


def test_tournament_shading_beats_truthful_beats_random(example):
    result = tournament(
        "example",
        None,
        ["random", "truthful", "shading"],
        games=300,
        seed=7,
        executor=SerialExecutor(),
        progress=False,
    )
    rates = dict(zip(result.standings["entrant"], result.standings["win_rate"], strict=True))
    assert rates["random"] < rates["truthful"] < rates["shading"]
    assert rates["shading"] > 0.6 and sum(rates.values()) == pytest.approx(1)
    ahead = result.pairwise.filter(
        (pl.col("entrant") == "shading") & (pl.col("opponent") == "truthful")
    )["ahead_rate"].item()
    assert ahead > 0.75


def test_the_command_line_simulates_and_sweeps(example, tmp_path):
    out = tmp_path / "games.parquet"
    args = ["simulate", "example", "--agents", "random,truthful,shading", "--games", "25"]
    assert cli.main([*args, "--seed", "9", "--quiet", "--out", str(out)]) == 0
    direct, _ = example.simulate(
        None, ["random", "truthful", "shading"], games=25, seed=9, progress=False
    )
    assert_frame_equal(pl.read_parquet(out), direct)
    swept = tmp_path / "sweep.csv"
    args = ["sweep", "example", "--grid", "budget=3,30", "--agents", "shading", "--games", "200"]
    assert cli.main([*args, "--seed", "6", "--workers", "1", "--quiet", "--out", str(swept)]) == 0
    prices = pl.read_csv(swept).filter(pl.col("metric") == "mean_price").sort("budget")
    assert prices["budget"].to_list() == [3, 30]
    assert prices["value"][0] <= 3 < prices["value"][1]
    bad = ["sweep", "example", "--grid", "players=9", "--games", "5", "--seed", "1"]
    assert cli.main([*bad, "--out", str(tmp_path / "x.csv")]) == 2  # refused before running
    assert not (tmp_path / "x.csv").exists()


# -- the play-along table ----------------------------------------------------------------------


def test_a_complete_game_at_the_table(example, tmp_path):
    t = workbench.table("example", seed=4, seat=1, opponents="shading")
    assert t.panel is None  # the example has no panel: the generic table
    played = []
    while not t.session.is_over:
        assert "seat 0's values" not in t.log_view.value  # hidden while the game is on
        bid = min(t.session.observation().value, t.session.observation().budgets[1])
        t.form.set(value=bid)  # the seat bids its value (truthful), through the controls
        t.form.play_button.click()
        played.append(bid)
    # The same seed and bids straight through the engine: the same game.
    state = example.new_game(seed=4)
    shading = example.make_agent("shading")
    rngs = {s: generator(4, 1, s) for s in (0, 2)}
    mine = iter(played)
    while not state.is_over:
        seat = state.to_play
        if seat == 1:
            state = state.apply(next(mine))
        else:
            state = state.apply(shading(state.observation(seat), state.legal_actions(), rngs[seat]))
    result = t.session.state.result()
    assert result == state.result() and len(played) == 5
    # Seat 1's values are (10, 10, 1, 5, 7): it bids its whole budget on item 1 and wins it,
    # then can only bid 0. Seat 0 (values 8, 10, 9, 6, 10) shades to 5, 6, 4, 4, 4: it takes
    # item 2 for 6 and item 5 for 4; seat 2 takes item 3 on a tie at 4 (round 3's order starts
    # at seat 2) and item 4 for 6. Scores: 10 + 10 = 20, 10, 7 + 9 = 16.
    assert state.values[1] == (10, 10, 1, 5, 7) and played == [10, 0, 0, 0, 0]
    assert [r.winner for r in state.history] == [1, 0, 2, 2, 0]
    assert result.scores == (20, 10, 16) and result.winners == (0,)
    assert "Game over" in t.status.value and "seat 0&#x27;s values" in t.log_view.value
    saved = t.save(tmp_path / "game.json")
    record = json.loads(saved.read_text())
    assert record["game"] == "example" and record["result"]["scores"] == list(result.scores)
    assert workbench.load_table(saved).session.state.result() == result
