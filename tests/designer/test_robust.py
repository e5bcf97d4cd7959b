"""robust_compare: verdicts from hand-built rows, and a run on the example game where one
effect's direction is known (a bigger budget uncaps truthful bids, so prices rise)."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.designer.cells import InvalidCells
from workbench.designer.executors import SerialExecutor
from workbench.designer.robust import ROBUST_SCHEMA, robust_compare, verdicts


def _rows(*intervals):
    return pl.DataFrame(
        [{"metric": metric, "low": low, "high": high} for metric, low, high in intervals]
    )


@pytest.mark.parametrize(
    ("intervals", "verdict"),
    [
        ([(0.1, 0.3), (0.2, 0.5), (0.01, 0.02)], "robust"),
        ([(-0.3, -0.1), (-0.5, -0.2)], "robust"),
        ([(0.1, 0.3), (-0.5, -0.2)], "depends on play"),  # opposite signs
        ([(0.1, 0.3), (-0.1, 0.2)], "depends on play"),  # one clear, one not
        ([(-0.1, 0.3), (-0.2, 0.2)], "no clear effect"),
        ([(None, None), (0.1, 0.2)], "depends on play"),  # an undefined interval is not clear
    ],
)
def test_verdicts(intervals, verdict):
    rows = _rows(*[("m", low, high) for low, high in intervals])
    assert verdicts(rows).to_dicts() == [{"metric": "m", "verdict": verdict}]


def test_robust_compare_on_the_example_game(example):
    frame = robust_compare(
        "example", {"players": 3, "items": 3, "budget": 6}, {"budget": 12},
        strengths=["truthful", "shading", "search"], games=300, seed=1,
        games_by_strength={"search": 30}, executor=SerialExecutor(), progress=False,
    )  # fmt: skip
    assert frame.columns[: len(ROBUST_SCHEMA)] == list(ROBUST_SCHEMA)
    assert frame["strength"].unique(maintain_order=True).to_list() == [
        "truthful", "shading", "search"
    ]
    assert dict(zip(frame["strength"], frame["n"], strict=False)) == {
        "truthful": 300, "shading": 300, "search": 30
    }  # fmt: skip
    price = frame.filter(pl.col("metric") == "mean_price")
    # Truthful bids are capped by the budget: doubling it can only raise what they pay.
    assert price.filter(pl.col("strength") == "truthful")["low"].item() > 0
    assert price["verdict"].unique().to_list() == ["robust"]  # and so it does for all three
    recomputed = verdicts(frame.select("metric", "low", "high"))
    assert frame.select("metric", "verdict").unique(maintain_order=True).equals(recomputed)
    assert frame["variant_name"].unique().to_list() == ["budget=12"]


def test_robust_compare_reports_problems_before_running(example):
    with pytest.raises(InvalidCells, match="unknown agent"):
        robust_compare("example", None, {"budget": 12}, strengths=["nobody"], games=10, seed=0)
    with pytest.raises(ValueError, match="strengths is empty"):
        robust_compare("example", None, {"budget": 12}, strengths=[], games=10, seed=0)
    with pytest.raises(ValueError, match="games_by_strength names"):
        robust_compare("example", None, {"budget": 12}, strengths=["truthful"], games=10,
                       seed=0, games_by_strength={"search": 5})  # fmt: skip
    with pytest.raises(ValueError, match="variant is missing"):
        robust_compare("example", None, None, games=10, seed=0)


def test_robust_chart_draws_every_strength_coloured_by_verdict():
    from workbench.charts import render
    from workbench.designer import robust_chart

    rows = [
        {"metric": metric, "strength": strength, "n": 100, "diff": diff, "low": diff - 0.1,
         "high": diff + 0.1, "verdict": verdict, "game": "example", "baseline_name": "rulebook",
         "variant_name": "budget=12"}
        for metric, verdict, diffs in (("mean_price", "robust", (0.5, 0.7)),
                                       ("tie_rate", "no clear effect", (0.0, 0.05)))
        for strength, diff in zip(("truthful", "search"), diffs, strict=True)
    ]  # fmt: skip
    text = render(robust_chart(pl.DataFrame(rows))).text
    assert "example: budget=12 vs rulebook, by strength" in text
    assert "no clear effect" in text and "search" in text
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
    monkeypatch.delitem(example.AGENTS, "fitted")
    with pytest.raises(ValueError, match="example has no fitted agent"):
        fit("example", rules)


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
    assert not store.exists()
