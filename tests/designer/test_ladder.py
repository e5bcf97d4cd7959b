"""The strength ladder: matches recomputed from simulate runs, the rating fit checked against
ratings it should recover, best responses, resuming."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from workbench import SerialExecutor, ladder
from workbench.designer import cli
from workbench.designer.cells import cell_seed
from workbench.designer.charts import ladder_chart
from workbench.designer.exploitability import exploitability
from workbench.designer.ladder import fit_ratings
from workbench.designer.moments import Moments
from workbench.games import going_gone

AGENTS = ["random", "valuation", "collector"]


@pytest.fixture(scope="module")
def result():
    return ladder(
        "going_gone", None, AGENTS, games=40, seed=3, executor=SerialExecutor(), progress=False
    )


def test_a_match_is_the_challenger_alone_in_each_seat(result):
    """collector alone against valuation: recomputed from the four seatings' simulate runs."""
    shares = []
    for seat in range(4):
        lineup = ["valuation"] * 4
        lineup[seat] = "collector"
        seed = cell_seed(3, going_gone.GAME, going_gone.Rules(), lineup)
        games, _ = going_gone.simulate(None, lineup, games=40, seed=seed, progress=False)
        shares += games.filter(pl.col("seat") == seat)["win_share"].to_list()
    row = result.matches.filter(
        (pl.col("challenger") == "collector") & (pl.col("table") == "valuation")
    ).row(0, named=True)
    assert row["games"] == 160 and row["win_rate"] == pytest.approx(np.mean(shares))
    assert row["fair_share"] == 0.25 and row["gain"] == pytest.approx(row["win_rate"] - 0.25)
    assert row["low"] < row["win_rate"] < row["high"]
    assert result.matches.height == 6  # every ordered pair of three agents


def test_best_response_and_ratings(result):
    best = {r["agent"]: r for r in result.best_response.iter_rows(named=True)}
    # One collector among three valuation agents wins nearly every game (measured: 0.988).
    assert best["valuation"]["best_challenger"] == "collector"
    assert best["valuation"]["gain"] > 0.5 and best["valuation"]["low"] > 0.4
    ratings = result.ratings
    assert ratings["agent"].to_list()[0] == "collector" and ratings["rank"].to_list() == [1, 2, 3]
    assert ratings["rating"].sum() == pytest.approx(0, abs=1e-9)
    assert (ratings["low"] < ratings["rating"]).all()
    assert (ratings["rating"] < ratings["high"]).all()
    assert set(ratings["seed"]) == {3} and set(ratings["game"]) == {"going_gone"}


def test_the_fit_recovers_the_ratings_behind_the_win_rates():
    """Win rates made exactly from known ratings (Luce model, four seats) give them back."""
    true = np.array([1.0, 0.2, -0.4, -0.8])
    matches = {}
    for a in range(4):
        for b in range(4):
            if a != b:
                p = math.exp(true[a]) / (math.exp(true[a]) + 3 * math.exp(true[b]))
                matches[a, b] = Moments(100_000, p, p * (1 - p) * 99_999)
    ratings, low, high = fit_ratings(4, 4, matches)
    assert ratings == pytest.approx(true - true.mean(), abs=2e-3)
    assert np.all(high - low < 0.05) and np.all(low < ratings) and np.all(ratings < high)


def test_equal_agents_rate_equal():
    fair = {(a, b): Moments(1000, 0.25, 0.1875 * 999) for a in range(3) for b in range(3) if a != b}
    ratings, low, high = fit_ratings(3, 4, fair)
    assert ratings == pytest.approx([0, 0, 0], abs=1e-6)
    assert high[0] - low[0] == pytest.approx(high[1] - low[1])


def test_bad_agents_and_the_chart(result):
    with pytest.raises(ValueError, match="two or more agents"):
        ladder("going_gone", None, ["random"], games=5, seed=0)
    with pytest.raises(ValueError, match="distinct names; repeated: random"):
        ladder("going_gone", None, ["random", "random"], games=5, seed=0)
    spec = ladder_chart(result.ratings).to_dict()
    assert spec["title"]["text"] == "going_gone: strength ladder"


def test_a_ladder_resumes_from_its_store(tmp_path, result):
    store = tmp_path / "units"
    options = {"games": 40, "seed": 3, "executor": SerialExecutor(), "progress": False}
    first = ladder("going_gone", None, AGENTS, **options, store=store)
    (store / "unit-00007.json").unlink()  # as if stopped before that seating finished
    again = ladder("going_gone", None, AGENTS, **options, store=store, resume=True)
    for name in ("ratings", "matches", "best_response"):
        assert getattr(again, name).equals(getattr(first, name))
        assert getattr(again, name).equals(getattr(result, name))


def test_the_command_line_writes_the_same_tables(tmp_path, result):
    ratings, best = tmp_path / "ratings.csv", tmp_path / "best.parquet"
    code = cli.main(
        [
            "ladder", "going_gone", "--agents", ",".join(AGENTS), "--games", "40", "--seed", "3",
            "--workers", "1", "--quiet", "--out", str(ratings), "--best-response-out", str(best),
        ]
    )  # fmt: skip
    assert code == 0 and not (tmp_path / "ratings.csv.units").exists()
    assert pl.read_parquet(best).equals(result.best_response)
    written = pl.read_csv(ratings)
    assert written["agent"].to_list() == result.ratings["agent"].to_list()
    assert written["rating"].to_list() == pytest.approx(result.ratings["rating"].to_list())


def test_the_ladder_reports_each_agents_exploitability(example):
    """The column is each table's largest gain by the families named, as ``exploitability``
    gives it (shading exploits a truthful table and a random one)."""
    families = ["shading", "truthful"]
    result = ladder("example", None, ["random", "truthful"], games=20, seed=2,
                    exploitability=families, executor=SerialExecutor(), progress=False)  # fmt: skip
    worst = dict(result.ratings.select("agent", "exploitability").iter_rows())
    for agent in ("random", "truthful"):
        alone = exploitability("example", table=agent, challengers=families, seed=2,
                               executor=SerialExecutor(), progress=False)  # fmt: skip
        assert worst[agent] == pytest.approx(alone["gain"].max())
        assert worst[agent] > 0.1
