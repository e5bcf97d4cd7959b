"""robust_compare: verdicts from hand-built rows, games to decide and differences of effects
computed by hand, and runs on the example game where one effect's direction is known (a
bigger budget uncaps truthful bids, so prices rise), sequential play of a slow strength
included."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import polars as pl
import pytest

from workbench.designer.balance import GameValues
from workbench.designer.cells import InvalidCells
from workbench.designer.executors import SerialExecutor
from workbench.designer.robust import (
    ROBUST_SCHEMA,
    VERDICT_KINDS,
    _budgets,
    _effects_differ,
    _games_to_decide,
    _looks,
    robust_compare,
    verdict_kind,
    verdicts,
)


def _rows(*intervals):
    return pl.DataFrame(
        [{"metric": metric, "strength": strength, "low": low, "high": high}
         for metric, strength, low, high in intervals],
        {"metric": pl.String, "strength": pl.String, "low": pl.Float64, "high": pl.Float64},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("intervals", "margin", "verdict"),
    [
        ([(0.1, 0.3), (0.2, 0.5), (0.01, 0.02)], None, "robust"),
        ([(-0.3, -0.1), (-0.5, -0.2)], None, "robust"),
        ([(0.1, 0.3), (-0.5, -0.2)], None, "reverses with play"),  # both significant
        ([(0.1, 0.3), (-0.1, 0.2)], None, "unclear under s2"),  # one clear, one not
        ([(0.1, 0.3), (-0.1, 0.2), (-0.3, 0.1)], None, "unclear under s2 and s3"),
        ([(0.1, 0.3), (-0.5, -0.2), (-0.1, 0.2)], None, "reverses with play"),
        ([(-0.1, 0.3), (-0.2, 0.2)], None, "no clear effect"),
        ([(-0.1, 0.3), (-0.2, 0.2)], 0.25, "no clear effect"),  # 0.3 lies beyond ±0.25
        ([(-0.1, 0.2), (-0.2, 0.2)], 0.25, "no effect beyond ±0.25"),
        ([(-0.1, 0.2), (-0.2, 0.2)], {"m": 0.2}, "no effect beyond ±0.2"),
        ([(-0.1, 0.2), (-0.2, 0.2)], {"other": 0.2}, "no clear effect"),  # no margin for m
        ([(0.01, 0.2), (-0.2, 0.2)], 0.25, "unclear under s2"),  # a margin does not hide 0.01
        ([(None, None), (0.1, 0.2)], None, "unclear under s1"),  # undefined is not clear
        ([(None, None), (-0.1, 0.1)], 0.5, "no clear effect"),  # nor within a margin
        ([(0.1, 0.3), (0.0, 0.0)], None, "unchanged under s2"),  # the same in every pair
        ([(0.1, 0.3), (0.0, 0.0), (-0.1, 0.2)], None, "unclear under s2 and s3"),
        ([(0.0, 0.0), (0.0, 0.0)], None, "no change"),
        ([(0.0, 0.0), (0.0, 0.0)], 0.1, "no change"),  # exact beats a margin
        ([(0.0, 0.0), (-0.1, 0.2)], None, "no clear effect"),
    ],
)
def test_verdicts(intervals, margin, verdict):
    rows = _rows(*[("m", f"s{i}", low, high) for i, (low, high) in enumerate(intervals, 1)])
    assert verdicts(rows, margin).to_dicts() == [{"metric": "m", "verdict": verdict}]
    assert verdict_kind(verdict) in VERDICT_KINDS


def test_verdict_kind_refuses_an_unknown_label():
    with pytest.raises(ValueError, match="not a robust_compare verdict"):
        verdict_kind("depends on play")


def test_robust_compare_on_the_example_game(example):
    frame = robust_compare(
        "example", {"players": 3, "items": 3, "budget": 6}, {"budget": 12},
        strengths=["truthful", "shading", "search"], games=300, seed=1,
        games_by_strength={"search": 30}, budget_by_strength={"search": 30},
        executor=SerialExecutor(), progress=False,
    )  # fmt: skip
    assert frame.columns[: len(ROBUST_SCHEMA)] == list(ROBUST_SCHEMA)
    assert frame["strength"].unique(maintain_order=True).to_list() == [
        "truthful", "shading", "search"
    ]
    assert dict(zip(frame["strength"], frame["n"], strict=False)) == {
        "truthful": 300, "shading": 300, "search": 30
    }  # fmt: skip
    assert frame["confidence"].unique().to_list() == [0.95]  # nothing played sequentially
    price = frame.filter(pl.col("metric") == "mean_price")
    # Truthful bids are capped by the budget: doubling it can only raise what they pay.
    assert price.filter(pl.col("strength") == "truthful")["low"].item() > 0
    assert price["verdict"].unique().to_list() == ["robust"]  # and so it does for all three
    recomputed = verdicts(frame.select("metric", "strength", "low", "high"))
    assert frame.select("metric", "verdict").unique(maintain_order=True).equals(recomputed)
    assert frame["variant_name"].unique().to_list() == ["budget=12"]
    # games_to_decide is given exactly for the undecided strengths of unclear verdicts
    unclear = frame.filter(pl.col("verdict").str.starts_with("unclear under"),
                           ~((pl.col("low") > 0) | (pl.col("high") < 0)))  # fmt: skip
    others = frame.join(unclear.select("metric", "strength"), on=["metric", "strength"],
                        how="anti")  # fmt: skip
    assert others["games_to_decide"].null_count() == others.height


def test_a_slow_strength_plays_on_until_decided_or_out_of_budget(example):
    arguments = dict(
        game="example", baseline={"players": 3, "items": 3, "budget": 6},
        variant={"budget": 7}, strengths=["truthful", "search"], games=400, seed=3,
        games_by_strength={"search": 20}, budget_by_strength={"search": 90},
        executor=SerialExecutor(), progress=False,
    )  # fmt: skip
    frame = robust_compare(**arguments)
    search = frame.filter(pl.col("strength") == "search")
    # Looks at 20, 40, 80 and 90 games: four planned, so Bonferroni at 1 - 0.05 / 4.
    assert search["confidence"].unique().to_list() == [pytest.approx(1 - 0.05 / 4)]
    # Some metric stays unclear under search alone (tie_rate, say), so it plays its budget.
    assert search["n"].unique().to_list() == [90]
    tie_rate = frame.filter(pl.col("metric") == "tie_rate")
    assert tie_rate["verdict"].unique().to_list() == ["unclear under search"]
    assert tie_rate.filter(pl.col("strength") == "search")["games_to_decide"].item() > 90
    # Deciding mean_price only: search stops at its third look (80 games, short of its
    # budget), where mean_price is decided.
    decided = robust_compare(**arguments, decide=["mean_price"])
    price = decided.filter(pl.col("metric") == "mean_price", pl.col("strength") == "search")
    assert price["n"].item() == 80 and price["low"].item() > 0
    assert price["verdict"].item() == "robust"
    assert robust_compare(**arguments).equals(frame)  # a games budget is reproducible
    # With no time left after the first look, no more games are played.
    quick = robust_compare(**arguments, seconds=1e-9)
    assert quick.filter(pl.col("strength") == "search")["n"].max() == 20
    # A budget equal to the first games: one look, no adjustment.
    single = robust_compare(**{**arguments, "budget_by_strength": {"search": 20}})
    assert single["confidence"].unique().to_list() == [0.95]


def test_looks_double_up_to_the_budget():
    assert _looks(50, 50) == [50]
    assert _looks(50, 200) == [50, 100, 200]
    assert _looks(40, 160) == [40, 80, 160]
    assert _looks(50, 120) == [50, 100, 120]
    assert _budgets(["heuristic", "search"], [2000, 50], 2000, None) == [2000, 200]
    assert _budgets(["search"], [50], 120, None) == [120]  # never more than games
    assert _budgets(["search"], [50], 40, None) == [50]  # nor less than its first games
    with pytest.raises(ValueError, match="below the 50 games it starts with"):
        _budgets(["search"], [50], 2000, {"search": 10})


def test_games_to_decide_by_hand():
    # fitted decided (+0.05 and +0.02 are the effects; the smallest, 0.02, is the target);
    # search undecided: interval -0.02 to +0.06 on 100 games at 95%.
    frame = pl.DataFrame({
        "metric": ["m"] * 3, "strength": ["heuristic", "fitted", "search"],
        "n": [1000, 1000, 100], "diff": [0.05, 0.02, 0.02], "low": [0.04, 0.01, -0.02],
        "high": [0.06, 0.03, 0.06], "confidence": [0.95, 0.95, 0.95],
        "verdict": ["unclear under search"] * 3,
    })  # fmt: skip
    z, z_power = 1.959963984540054, 0.8416212335729143
    sd = 0.08 / (2 * z) * 10  # half-width / z * sqrt(100)
    expected = math.ceil(((z + z_power) * sd / 0.02) ** 2)
    assert _games_to_decide(frame) == [None, None, expected]
    assert expected == 818  # (2.8016 * 0.20408 / 0.02)^2 = 817.3, by hand


def _values(ids, effects, metric="m"):
    ids = np.asarray(ids, dtype=np.int64)
    zeros = np.zeros(len(effects))
    return (GameValues(ids, 3, {metric: zeros}),
            GameValues(ids, 3, {metric: np.asarray(effects, dtype=float)}))  # fmt: skip


def test_effects_differ_pairs_shared_games_and_adds_variances_otherwise():
    from scipy import stats

    first, second = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0, 0.5, 0.5, 1.0, 2.0, 1.0]
    # Same game ids: exactly the paired t interval of the per-game differences.
    found = _effects_differ([_values(range(6), first), _values(range(6), second)],
                            ["a", "b"], [1, 1], 0.95)  # fmt: skip
    gaps = np.subtract(first, second)
    half = stats.t.ppf(0.975, 5) * gaps.std(ddof=1) / math.sqrt(6)
    mean = gaps.mean()
    assert found == {"m": f"a − b +{mean:.3f} (+{mean - half:.3f} to +{mean + half:.3f})"}
    # No game in common: the two variances add (Welch-like, min(n) - 1 degrees of freedom).
    found = _effects_differ([_values(range(6), first), _values(range(10, 16), second)],
                            ["a", "b"], [1, 1], 0.95)  # fmt: skip
    half = stats.t.ppf(0.975, 5) * math.sqrt(np.var(first, ddof=1) / 6
                                             + np.var(second, ddof=1) / 6)  # fmt: skip
    mean = np.mean(first) - np.mean(second)
    assert found == {"m": f"a − b +{mean:.3f} (+{mean - half:.3f} to +{mean + half:.3f})"}
    # Equal effects are not flagged; a sequential strength's looks widen the interval.
    assert _effects_differ([_values(range(6), first), _values(range(6), first)],
                           ["a", "b"], [1, 1], 0.95) == {}  # fmt: skip
    wide = _effects_differ([_values(range(6), first), _values(range(10, 16), second)],
                           ["a", "b"], [1, 50], 0.95)  # fmt: skip
    assert wide == {}  # at 1 - 0.05 / 50 the same gap is no longer measurable


def test_robust_compare_reports_problems_before_running(example):
    with pytest.raises(InvalidCells, match="unknown agent"):
        robust_compare("example", None, {"budget": 12}, strengths=["nobody"], games=10, seed=0)
    with pytest.raises(ValueError, match="strengths is empty"):
        robust_compare("example", None, {"budget": 12}, strengths=[], games=10, seed=0)
    with pytest.raises(ValueError, match=r"strengths names \['shading'\] more than once"):
        robust_compare("example", None, {"budget": 12}, strengths=["shading", "shading"],
                       games=10, seed=0)  # fmt: skip
    with pytest.raises(ValueError, match="games_by_strength names"):
        robust_compare("example", None, {"budget": 12}, strengths=["truthful"], games=10,
                       seed=0, games_by_strength={"search": 5})  # fmt: skip
    with pytest.raises(ValueError, match="variant is missing"):
        robust_compare("example", None, None, games=10, seed=0)
    with pytest.raises(ValueError, match="budget_by_strength names"):
        robust_compare("example", None, {"budget": 12}, strengths=["truthful"], games=10,
                       seed=0, budget_by_strength={"search": 50})  # fmt: skip
    with pytest.raises(InvalidCells, match="decide: unknown metric 'nothing'"):
        robust_compare("example", None, {"budget": 12}, strengths=["truthful"], games=10,
                       seed=0, decide=["nothing"])  # fmt: skip
    with pytest.raises(InvalidCells, match="must be a positive number"):
        robust_compare("example", None, {"budget": 12}, strengths=["truthful"], games=10,
                       seed=0, margin=-1)  # fmt: skip
    with pytest.raises(ValueError, match="seconds must be a positive number"):
        robust_compare("example", None, {"budget": 12}, strengths=["truthful"], games=10,
                       seed=0, seconds=0)  # fmt: skip


def test_robust_chart_draws_every_strength_coloured_by_verdict():
    from workbench.charts import render
    from workbench.designer import robust_chart

    rows = [
        {"metric": metric, "strength": strength, "n": 100, "diff": diff, "low": diff - 0.1,
         "high": diff + 0.1, "verdict": verdict, "game": "example", "baseline_name": "rulebook",
         "variant_name": "budget=12"}
        for metric, verdict, diffs in (("mean_price", "robust", (0.5, 0.7)),
                                       ("tie_rate", "no clear effect", (0.0, 0.05)),
                                       ("sales", "unclear under search", (0.3, 0.05)))
        for strength, diff in zip(("truthful", "search"), diffs, strict=True)
    ]  # fmt: skip
    frame = pl.DataFrame(rows).with_columns(
        confidence=pl.when(pl.col("strength") == "search").then(0.9875).otherwise(0.95)
    )
    chart = robust_chart(frame)
    text = render(chart).text
    assert "example: budget=12 vs rulebook, by strength" in text
    assert "no clear effect" in text and "unclear under search" in text
    spec = chart.to_dict()
    assert spec["title"]["subtitle"] == "bars: 95% intervals (search 98.75%: played until decided)"
    scale = spec["spec"]["layer"][1]["encoding"]["color"]["scale"]
    assert scale == {"domain": ["robust", "unclear under search", "no clear effect"],
                     "range": ["#2ca02c", "#ff7f0e", "#7f7f7f"]}  # fmt: skip
    with pytest.raises(ValueError, match="verdict"):
        robust_chart(pl.DataFrame(rows).drop("verdict"))


def test_a_fitted_line_up_carries_its_fit_to_the_workers(example, monkeypatch):
    import pickle

    from workbench.designer.cells import resolve_agents
    from workbench.designer.fits import fit

    rules = example.Rules(players=2, items=3)
    made, problem = resolve_agents(example.GAME, rules, "fitted")
    assert problem == "" and fit("example", rules, progress=False).params == made[0].fit(
        rules, progress=False).params  # fmt: skip
    shipped = pickle.loads(pickle.dumps(made[0]))

    def no_fitting(*args, **kwargs):
        raise AssertionError("a worker fitted again")

    monkeypatch.setattr(type(shipped), "fit", no_fitting)
    assert shipped.policy_for(rules).factor == made[0].policy_for(rules).factor
    unfitted = dataclasses.replace(example.GAME, id="unfitted", reference_agent=None, agents={
        name: agent for name, agent in example.AGENTS.items() if name not in ("fitted", "search")
    })  # fmt: skip
    with pytest.raises(ValueError, match="unfitted has no fitted agent"):
        fit(unfitted, rules)


def test_an_interrupted_robust_compare_resumes_to_the_same_table(example, tmp_path, monkeypatch):
    from workbench.designer import robust

    arguments = dict(
        game="example", baseline={"players": 3, "items": 3}, variant={"budget": 12},
        strengths=["truthful", "shading"], games=60, seed=2, executor=SerialExecutor(),
        progress=False,
    )  # fmt: skip
    whole = robust_compare(**arguments)
    store, calls, real = tmp_path / "units", [], robust.cell_values

    def interrupted(task, report=None):
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(task, report)

    monkeypatch.setattr(robust, "cell_values", interrupted)
    with pytest.raises(KeyboardInterrupt):
        robust_compare(**arguments, store=store)
    assert len(list(store.glob("unit-*.json"))) == 2
    monkeypatch.setattr(robust, "cell_values", real)
    assert robust_compare(**arguments, store=store, resume=True).equals(whole)
    played = []  # the store stays: the same call reads the whole table back, playing nothing
    monkeypatch.setattr(robust, "cell_values", lambda task, report=None: played.append(task))
    assert robust_compare(**arguments, store=store, resume=True).equals(whole) and not played


def test_a_run_stopped_while_a_slow_strength_plays_on_resumes_to_the_same_table(
    example, tmp_path, monkeypatch
):
    from workbench.designer import robust

    arguments = dict(
        game="example", baseline={"players": 3, "items": 3, "budget": 6},
        variant={"budget": 7}, strengths=["truthful", "search"], games=200, seed=3,
        games_by_strength={"search": 10}, budget_by_strength={"search": 40},
        executor=SerialExecutor(), progress=False,
    )  # fmt: skip
    whole = robust_compare(**arguments)
    assert whole.filter(pl.col("strength") == "search")["n"].max() == 40  # three looks
    store, calls, real = tmp_path / "units", [], robust.cell_values

    def interrupted(task, report=None):
        calls.append(task)
        if len(calls) == 6:  # the second unit of the first extra look
            raise KeyboardInterrupt
        return real(task, report)

    monkeypatch.setattr(robust, "cell_values", interrupted)
    with pytest.raises(KeyboardInterrupt):
        robust_compare(**arguments, store=store)
    assert len(list(store.glob("unit-*.json"))) == 5
    calls.clear()
    resumed = robust_compare(**arguments, store=store, resume=True)
    assert resumed.equals(whole)
    assert len(calls) == 3  # the unit that was interrupted and the last look's two
