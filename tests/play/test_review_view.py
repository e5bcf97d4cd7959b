"""The table's review view and hint, driven in Python (no browser): the hint off by default and
computed only at the seat's decisions, the review offered once the game is over and equal to
workbench.review of the same session."""

from __future__ import annotations

import re

import polars as pl
import pytest

import workbench
from workbench.charts import ChartView
from workbench.play.review import decisions_html, hint_html
from workbench.play.table import load_table, table


def test_the_hint_is_off_by_default_and_answers_at_decisions():
    t = table("rubbish", seed=11, opponents="heuristic")
    assert t.hint_view.toggle.value is False and t.hint_view.frame is None
    assert t.hint_view.view.value == ""
    t.hint_view.toggle.value = True  # the reader ticks the box
    frame = t.hint_view.frame
    assert frame is not None and t.session.my_turn
    legal = t.session.legal_actions()
    expected = frame.height if len(legal) > 24 else len(legal)
    assert frame.height == expected and frame.filter("best").height == 1
    html = t.hint_view.view.value
    assert html.count("<tr>") == frame.height + 1 and "wb-hint-table" in html
    assert f"{frame['n'][0]} playouts per action" in html
    # the same decision's hint again comes from the cache; the next decision gets its own
    seconds = t.hint_view.seconds
    t.hint_view.update(t.session)
    assert t.hint_view.seconds == seconds
    t.autoplay("heuristic", 1)
    assert t.hint_view.frame is not None and not t.hint_view.frame.equals(frame)
    t.hint_view.toggle.value = False
    assert t.hint_view.frame is None and t.hint_view.view.value == ""


def test_a_table_made_with_the_hint_shows_it_at_once():
    t = table("shared_budget", seed=3, seat=1, opponents="equilibrium", hint=True)
    frame = t.hint_view.frame
    assert frame is not None
    assert sorted(int(a) for a in frame["action"]) == list(t.session.legal_actions())


def test_the_review_is_offered_once_the_game_is_over(tmp_path):
    t = table("rubbish", seed=5, seat=2, opponents="heuristic")
    assert t.review_view.layout.display == "none"
    with pytest.raises(ValueError, match="once the game is over"):
        t.review()
    t.autoplay("heuristic")
    assert t.review_view.layout.display is None
    assert "Score every one of your decisions" in t.review_view.status.value
    t.review_view.budget = 16
    review = t.review()
    assert review.seat == 2
    # the table's review is workbench.review of the same game, seed and budget
    assert review.decisions.equals(workbench.review(t.session, budget=16))
    path = t.save(tmp_path / "game.json")
    assert review.decisions.equals(workbench.review(path, budget=16))
    # drawn: the status, the live charts and one table row per decision
    views = t.review_view.chart_box.children
    assert len(views) == 2 and all(isinstance(view, ChartView) for view in views)
    html = t.review_view.table_view.value
    assert len(re.findall(r"<tr><td", html)) == review.decisions.height
    status = t.review_view.status.value
    assert f"{review.decisions.height} decisions" in status and "16 playouts per action" in status
    assert t.review_view in t.children  # below the table and its panel, at the whole width


def test_the_review_button_reviews_a_loaded_table(tmp_path):
    t = table("rubbish", seed=6, opponents="heuristic", review_budget=8)
    t.autoplay("heuristic")
    loaded = load_table(t.save(tmp_path / "g.json"), review_budget=8)
    assert loaded.review_view.layout.display is None  # finished: the review is offered
    loaded.review_view.button.click()
    assert loaded.review_view.review is not None and loaded.review_view.error is None
    assert loaded.review_view.review.decisions.equals(t.review().decisions)
    assert t.review_view.budget == 8 and "8 playouts per action" in t.review_view.status.value


def test_the_decisions_table_and_the_hint_html():
    frame = pl.DataFrame({
        "decision": [1, 2], "round": [1, None], "action": ["a<b", "c"], "best_action": ["a<b", "d"],
        "win_chance": [0.5, None], "loss": [0.0, None], "low": [0.0, None], "high": [0.0, None],
        "label": ["best", None], "label_high": ["best", None], "knew": ["x & y", ""],
    })  # fmt: skip
    html = decisions_html(frame)
    assert "a&lt;b" in html and "x &amp; y" in html and "unrated" in html
    hint_frame = pl.DataFrame({
        "action": ["pass"], "win_chance": [0.25], "low": [0.2], "high": [0.3], "loss": [0.0],
        "loss_low": [-0.1], "loss_high": [0.1], "best": [True], "n": [64],
    })  # fmt: skip
    assert "0.250 <span style='color:#666'>[0.200, 0.300]</span>" in hint_html(hint_frame, 0.5)
