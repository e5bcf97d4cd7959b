"""The bench's charts (titles name the variant, intervals are labelled) and the dashboard,
driven through its controls."""

from __future__ import annotations

import polars as pl
import pytest

from workbench import SerialExecutor, compare, sweep
from workbench.designer import designer_dashboard
from workbench.designer.charts import compare_chart, sweep_chart
from workbench.designer.widgets import scalar_fields, suggested_values


@pytest.fixture(scope="module")
def paired():
    return compare(
        "rubbish",
        None,
        {"destined_bonus": 60},
        "heuristic",
        games=300,
        seed=1,
        executor=SerialExecutor(),
        progress=False,
    )


@pytest.fixture(scope="module")
def swept():
    return sweep(
        "shared_budget",
        grid={"tie_priority": ["rotating", "fixed"], "budget": [10, 20]},
        agents="coverage",
        games=40,
        seed=1,
        executor=SerialExecutor(),
        progress=False,
    )


def test_compare_charts_name_the_variant_and_label_the_intervals(paired):
    chart = compare_chart(paired, ["win_rate_seat_0", "lead_changes"]).to_dict()
    assert chart["title"] == "rubbish: destined_bonus=60 vs rulebook"
    layer = chart["spec"]["layer"]
    assert layer[1]["encoding"]["x"]["title"] == "estimate (bar: 95% interval)"
    with pytest.raises(ValueError, match="unknown metrics"):
        compare_chart(paired, ["nope"])


def test_sweep_charts_follow_the_grid(swept):
    chart = sweep_chart(swept, "priority_advantage").to_dict()
    assert chart["title"] == {
        "text": "shared_budget: priority_advantage as tie_priority varies",
        "subtitle": "40 games per cell; bars: 95% intervals",
        "anchor": "start",
    }
    encoding = chart["layer"][1]["encoding"]
    assert encoding["x"]["sort"] == ["rotating", "fixed"]  # the grid's order, not alphabetical
    assert encoding["color"]["field"] == "budget"
    assert encoding["y"]["title"] == "priority_advantage"
    faceted = sweep_chart(swept, "budget_left", x="budget", colour="tie_priority").to_dict()
    assert faceted["layer"][1]["encoding"]["x"]["type"] == "quantitative"
    with pytest.raises(ValueError, match="not a grid axis"):
        sweep_chart(swept, "budget_left", x="players")
    with pytest.raises(ValueError, match="unknown metric"):
        sweep_chart(swept, "nope")


def test_field_choices_and_suggestions_are_valid_rules():
    assert scalar_fields("rubbish")[:3] == ["players", "starting_fame", "destined_bonus"]
    assert "money_cards" not in scalar_fields("rubbish")  # a tuple: not typed in a box
    assert suggested_values("rubbish", "players") == "2, 3, 4"
    assert suggested_values("rubbish", "destined_bonus") == "15, 30, 45"
    assert suggested_values("shared_budget", "strict_bids") == "False, True"


def test_the_dashboard_shows_the_sweep_and_the_paired_comparison():
    dashboard = designer_dashboard(games=200, seed=3)
    assert dashboard.error is None
    dashboard.set(
        field="destined_bonus", values="30, 50", agents="heuristic", metric="winner_cheapskate_rate"
    )
    assert dashboard.error is None
    expected = sweep(
        "rubbish",
        grid={"destined_bonus": [30, 50]},
        agents="heuristic",
        games=200,
        seed=3,
        executor=SerialExecutor(),
        progress=False,
    )
    expected = expected.filter(pl.col("metric") == "winner_cheapskate_rate")
    assert dashboard.frame["value"].to_list() == expected["value"].to_list()
    assert dashboard.frame["cell"].to_list() == ["destined_bonus=30", "destined_bonus=50"]
    first, second = (part["title"] for part in dashboard.chart.to_dict()["vconcat"])
    assert first == "rubbish: destined_bonus=50 vs rulebook"
    assert second["text"] == "rubbish: winner_cheapskate_rate as destined_bonus varies"
    # A click on a sweep point picks its cell: the table shows that cell's row alone.
    assert dashboard.view._selection_types["pick"] == "point"
    dashboard.pick({"cell": "destined_bonus=50"})
    assert dashboard.shown.rows() == expected.filter(pl.col("cell") == "destined_bonus=50").select(
        "cell", "n", "value", "low", "high"
    ).rows()
    dashboard.pick()
    assert dashboard.shown.height == 2


def test_the_dashboard_follows_a_change_of_game_and_reports_bad_values():
    dashboard = designer_dashboard(games=100)
    dashboard.set(game="shared_budget")
    assert dashboard.error is None
    assert dashboard.values()["field"] == "teams" and dashboard.values()["values"] == "2, 3"
    assert dashboard.controls["agents"].options == (
        "default", "random", "coverage", "fitted", "search", "equilibrium"
    )
    dashboard.set(field="tie_priority", values="rotating, sideways")
    assert "tie_priority=sideways: Rules.tie_priority must be one of" in dashboard.error
    dashboard.set(values=" ")
    assert dashboard.error == "values: type one or more values, separated by commas"
    dashboard.set(values="rotating, fixed")
    assert dashboard.error is None and dashboard.frame.height == 2


def test_left_to_it_the_dashboard_chooses_the_games_for_each_game_and_line_up(monkeypatch):
    from workbench.designer import widgets as dashboard_module

    asked = []

    def measured(game, agents=None, rule_sets=5):
        asked.append((game, agents))
        return {"rubbish": 2_800, "going_gone": 500}.get(game, 100)

    monkeypatch.setattr(dashboard_module, "games_for_a_quick_answer", measured)
    dashboard = designer_dashboard("rubbish", field="destined_bonus", seed=1)
    assert dashboard.values()["games"] == 2_800 and dashboard.frame["n"][0] == 2_800
    dashboard.set(game="going_gone")
    assert dashboard.values()["games"] == 500 and dashboard.error is None
    dashboard.set(agents="random")
    assert asked == [("rubbish", None), ("going_gone", None), ("going_gone", "random")]
    given = designer_dashboard("rubbish", games=300)  # the designer's number stays
    given.set(game="going_gone")
    assert given.values()["games"] == 300 and len(asked) == 3


def test_the_quick_answer_is_a_whole_number_of_hundreds():
    from workbench.designer.widgets import games_for_a_quick_answer

    chosen = games_for_a_quick_answer("rubbish")
    assert 100 <= chosen <= 20_000 and chosen % 100 == 0
