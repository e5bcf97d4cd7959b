"""tune: bands and distances by hand, up-front checks, and runs on the example game where the
answer is known (a bigger budget uncaps truthful bids and raises the mean price)."""

from __future__ import annotations

import math

import polars as pl
import pytest

from workbench.designer.cells import InvalidCells
from workbench.designer.tuning import TUNE_VERDICTS, Band, _verdict, tune


@pytest.mark.parametrize(
    ("band", "value", "distance"),
    [
        (Band("m", 1.0, 3.0), 2.0, 0.0),
        (Band("m", 1.0, 3.0), 4.0, 0.5),  # 1 above, band width 2
        (Band("m", 1.0, 3.0), 0.0, 0.5),
        (Band("m", None, 0.2), 0.3, 0.5),  # open below: scale is the bound, 0.2
        (Band("m", 0.0, None), -2.0, 2.0),  # a bound of 0: scale 1
        (Band("m", 1.0, 3.0), math.nan, math.inf),
    ],
)
def test_band_distance(band, value, distance):
    assert band.distance(value) == pytest.approx(distance)


def test_band_holds_an_interval_inside_it():
    band = Band("m", 1.0, None)
    assert band.holds(1.0, 9.0) and not band.holds(0.9, 2.0) and not band.holds(math.nan, 2.0)


def test_band_misses_only_an_interval_wholly_outside_it():
    band = Band("m", -0.03, 0.03)
    assert band.misses(0.031, 0.05) and band.misses(-0.2, -0.04)
    assert not band.misses(0.02, 0.041)  # crosses the edge: not shown to miss
    assert not band.misses(-0.01, 0.01) and not band.misses(math.nan, 0.5)


@pytest.mark.parametrize(
    ("meets", "intervals", "verdict"),
    [
        (True, {"a": (0.0, 0.01, 0.02)}, "meets every target"),
        (False, {"a": (0.05, 0.04, 0.06), "b": (1.0, 0.5, 1.5)}, "misses a target"),
        (False, {"a": (0.03, 0.02, 0.04), "b": (1.0, 0.5, 1.5)}, "unclear"),
        (False, {"a": (math.nan,) * 3}, "unclear"),
    ],
)
def test_a_candidates_verdict_says_what_its_intervals_showed(meets, intervals, verdict):
    bands = [Band("a", -0.03, 0.03), Band("b", 0.0, 2.0)]
    assert _verdict(meets, intervals, bands) == verdict


def test_tune_finds_the_budgets_that_put_the_price_in_its_band(example):
    # Truthful bidders bid min(value, budget): with values 1..10 the mean price rises with the
    # budget until the budget stops binding.
    frame = tune(
        "example", {"budget": [1, 2, 4, 8, 16]}, {"mean_price": (3.0, None)},
        agents="truthful", budget=3000, seed=0, base_rules={"players": 3, "items": 3},
        first_games=60, progress=False,
    )  # fmt: skip
    assert sorted(frame["budget"].to_list()) == [1, 2, 4, 8, 16]  # the grid, each once
    assert frame["rank"].to_list() == [1, 2, 3, 4, 5]
    best = frame.row(0, named=True)
    assert best["meets"] and best["distance"] == 0 and best["budget"] in (4, 8, 16)
    by_budget = dict(zip(frame["budget"], frame["mean_price"], strict=True))
    assert by_budget[1] <= 1.0 and by_budget[2] <= 2.0  # the budget caps every price
    assert not frame.filter(pl.col("budget") <= 2)["meets"].any()
    assert frame["verdict"].is_in(TUNE_VERDICTS).all()
    assert frame.filter(pl.col("meets"))["verdict"].unique().to_list() == ["meets every target"]
    # Budgets 1 and 2 cap every price at 2 or less: their intervals lie below the band.
    assert frame.filter(pl.col("budget") <= 2)["verdict"].unique().to_list() == [
        "misses a target"
    ]
    # The seed and games of a row reproduce its numbers.
    again = tune(
        "example", {"budget": [1, 2, 4, 8, 16]}, {"mean_price": (3.0, None)},
        agents="truthful", budget=3000, seed=0, base_rules={"players": 3, "items": 3},
        first_games=60, progress=False,
    )  # fmt: skip
    assert again.equals(frame)


def test_tune_over_a_range_stays_inside_it_and_within_budget(example):
    frame = tune(
        "example", {"budget": (1, 20)}, {"mean_price": (2.0, 4.0)}, agents="shading",
        budget=1500, seed=3, base_rules={"players": 3, "items": 3}, first_games=50,
        progress=False,
    )  # fmt: skip
    assert frame["budget"].is_between(1, 20).all()
    assert frame["games"].sum() <= 1500 + 50 * 9  # the last candidate may finish its stage
    assert frame["status"].is_in(["complete", "pruned"]).all()


def test_tune_refuses_bad_input_before_playing(example):
    with pytest.raises(ValueError, match="space is empty"):
        tune("example", {}, {"mean_price": (1, 2)}, budget=100, seed=0)
    with pytest.raises(ValueError, match="targets is empty"):
        tune("example", {"budget": [1]}, {}, budget=100, seed=0)
    with pytest.raises(ValueError, match=r"budget is 3 games in all, fewer than one candidate's "
                                         r"first games \(50\): give a budget of at least 50"):
        tune("example", {"budget": [1, 2]}, {"mean_price": (1, 2)}, budget=3, seed=0)
    with pytest.raises(ValueError, match=r"fewer than one candidate's first games \(80\)"):
        tune("example", {"budget": [1, 2]}, {"mean_price": (1, 2)}, budget=79, seed=0,
             first_games=80)  # fmt: skip
    with pytest.raises(InvalidCells, match=r"tie_break is 'rotating'; give its values as a list"):
        tune("example", {"tie_break": (1, 3)}, {"mean_price": (1, 2)}, budget=100, seed=0)
    with pytest.raises(InvalidCells, match=r"items is a whole number; .* got \(1\.5, 3\)"):
        tune("example", {"items": (1.5, 3)}, {"mean_price": (1, 2)}, budget=100, seed=0)
    with pytest.raises(InvalidCells) as raised:
        tune("example", {"budjet": [1], "items": (5, 2)},
             {"mean_prize": (1, 2), "tie_rate": (0.5, 0.1)}, budget=100, seed=0)  # fmt: skip
    problems = "\n".join(raised.value.problems)
    for expected in ("unknown rule field 'budjet'", "needs low < high", "unknown metric",
                     "low 0.5 is above high 0.1"):  # fmt: skip
        assert expected in problems


@pytest.mark.parametrize("stop", [4, 6, 8, 10])
def test_an_interrupted_tune_resumes_to_the_same_table(
    example, tmp_path, monkeypatch, capsys, stop
):
    """Wherever it stops: the candidates read back give the pruner the rungs they reached when
    they ran (without them a candidate pruned at its first stage in the whole run played on
    after a resume at 4, 8 or 10, and the table had other games, stages and rows)."""
    from workbench.designer import tuning

    arguments = dict(
        game="example", space={"budget": (1, 20)}, targets={"mean_price": (2.0, 4.0)},
        agents="shading", budget=1200, seed=3, base_rules={"players": 3, "items": 3},
        first_games=50, progress=False,
    )  # fmt: skip
    whole = tune(**arguments)
    store = tmp_path / "units"
    calls, real = [], tuning.summarise_cell

    def interrupted(task, report=None):
        calls.append(task)
        if len(calls) == stop:
            raise KeyboardInterrupt
        return real(task, report)

    monkeypatch.setattr(tuning, "summarise_cell", interrupted)
    with pytest.raises(KeyboardInterrupt):
        tune(**arguments, store=store)
    assert len(list(store.glob("unit-*.json"))) >= 1  # finished candidates were kept
    told = capsys.readouterr().err  # and the user is told how to go on
    assert f"kept in {store}; run the same command again with resume=True" in told
    with pytest.raises(FileExistsError, match="resume"):
        tune(**arguments, store=store)
    monkeypatch.setattr(tuning, "summarise_cell", real)
    with pytest.raises(ValueError, match="another run"):
        tune(**{**arguments, "seed": 4}, store=store, resume=True)
    with pytest.raises(ValueError, match=r"another run.*confidence"):  # other intervals
        tune(**{**arguments, "confidence": 0.9}, store=store, resume=True)
    resumed = tune(**arguments, store=store, resume=True)
    columns = ["trial", "budget", "games", "stage", "status"]
    assert resumed.select(columns).equals(whole.select(columns))
    assert resumed.equals(whole)
    assert len(list(store.glob("unit-*.json"))) == len(whole)  # kept: the caller removes it


def test_tune_takes_tuple_values_such_as_a_collection_value_chart():
    # GONE!'s collection values are a tuple per rule set: each candidate chart is one choice.
    flat = (2, 6, 12, 20, 30, 38, 44)  # the rulebook's chart
    steep = (1, 3, 8, 16, 28, 40, 52)
    frame = tune(
        "going_gone", {"collection_values": [flat, steep]}, {"sales": (4, None)},
        agents="valuation", budget=400, first_games=100, seed=5, progress=False,
    )  # fmt: skip
    assert sorted(frame["collection_values"].to_list()) == sorted([list(flat), list(steep)])
    assert (frame["status"] == "complete").all() and (frame["games"] >= 100).all()
    labels = dict(zip(frame["rules"], frame["collection_values"], strict=True))
    assert tuple(labels["rulebook"]) == flat
    assert tuple(labels[f"collection_values={steep}"]) == steep
    # The charts are played, not just labelled: the valuation players sell differently.
    sales = {tuple(v): s for v, s in zip(frame["collection_values"], frame["sales"], strict=True)}
    assert sales[steep] != sales[flat]


class _SameLabel:
    def __repr__(self) -> str:
        return "same"


def test_tune_refuses_two_choices_it_cannot_tell_apart():
    with pytest.raises(InvalidCells, match="cannot be told apart"):
        tune("going_gone", {"collection_values": [_SameLabel(), _SameLabel()]},
             {"sales": (4, None)}, agents="valuation", budget=100, seed=0,
             progress=False)  # fmt: skip


def test_a_run_where_no_candidate_can_be_played_ends_and_says_why(example, tmp_path):
    store = tmp_path / "units"
    with pytest.raises(InvalidCells, match="no candidate could be played: agents must give"):
        tune("example", {"budget": (1, 20)}, {"mean_price": (2.0, 4.0)},
             agents=["truthful"] * 2, budget=600, seed=0, progress=False,
             store=store)  # fmt: skip
    assert not store.exists()  # nothing finished, nothing kept


def test_progress_false_shows_no_bar_even_while_fitting(example, capsys):
    frame = tune("example", {"budget": [3, 6]}, {"mean_price": (1.0, None)}, budget=200,
                 seed=0, first_games=50, progress=False)  # fmt: skip
    assert set(frame["agents"]) == {"fitted"}  # the reference agent, fitted to each candidate
    assert capsys.readouterr().err == ""
