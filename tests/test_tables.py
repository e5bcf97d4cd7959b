"""Frames shown as HTML tables (with polars text beside them for nbval)."""

from __future__ import annotations

import polars as pl
import pytest

from workbench.tables import Table, table

FRAME = pl.DataFrame(
    {
        "seat": [0, 1],
        "win_rate": [1 / 3, None],
        "agent": ["heuristic <b>", "random"],
        "cards": [[1, 2], [10]],
        "fair": [True, False],
    }
)


def test_html_rounds_aligns_and_escapes():
    html = table(FRAME).html()
    assert html.startswith('<div class="workbench-table" style="max-width:100%;overflow-x:auto">')
    cells = [chunk.split("</td>")[0].split(">")[-1] for chunk in html.split("<td")[1:]]
    assert cells[:5] == ["0", "0.333", "heuristic &lt;b&gt;", "1, 2", "true"]
    assert cells[5:] == ["1", "–", "random", "10", "false"]
    assert "text-align:right;white-space:nowrap" in html  # numbers
    assert "win_\u200brate" in html  # headers may break after an underscore


def test_html_cuts_long_frames_and_says_how_many_rows_are_left():
    html = table(pl.DataFrame({"x": list(range(10))}), max_rows=3).html()
    assert html.count("<tr>") == 1 + 3 + 1
    assert "… 7 more row(s)" in html


def test_text_is_polars_print_and_the_bundle_holds_both():
    shown = table(FRAME, digits=2, caption="Seats")
    text = shown.text()
    assert text.splitlines()[0] == "Seats"
    assert "0.33" in text and "shape" not in text and "i64" not in text
    bundle = shown._repr_mimebundle_()
    assert bundle == {"text/html": shown.html(), "text/plain": text}
    assert "<caption" in bundle["text/html"]


@pytest.mark.parametrize(
    ("frame", "keywords", "error", "message"),
    [
        (FRAME.to_dict(), {}, TypeError, "takes a polars DataFrame, got dict"),
        (FRAME, {"digits": -1}, ValueError, "digits must be a whole number >= 0, got -1"),
        (FRAME, {"max_rows": True}, ValueError, "max_rows must be a whole number >= 0, got True"),
        (FRAME, {"digits": 2.0}, ValueError, "digits must be a whole number >= 0, got 2.0"),
    ],
)
def test_bad_arguments_are_refused(frame, keywords, error, message):
    with pytest.raises(error, match=message):
        Table(frame, **keywords)
