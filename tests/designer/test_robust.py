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
