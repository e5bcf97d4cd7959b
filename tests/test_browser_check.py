"""The browser check fails on each problem a reader would meet, and passes a clean notebook.

The end-to-end test writes two notebooks, executes them, and runs ``tools/browser_check.py`` on
both in real JupyterLab and Chromium: one with every problem (a chart laid out without room, so
its text is cut; an SVG chart and a plain widget that show only as text before running; a
printed line wider than the notebook; an explorer whose slider recomputes while dragged and
whose dropdown shows a blank entry; saved widget state), one clean.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("BROWSER_CHECK_CHROMIUM", "/usr/bin/chromium")

spec = importlib.util.spec_from_file_location("browser_check", REPO / "tools" / "browser_check.py")
browser_check = importlib.util.module_from_spec(spec)
sys.modules["browser_check"] = browser_check
spec.loader.exec_module(browser_check)


def _notebook(path: Path, outputs: list[list[dict]], metadata: dict | None = None) -> Path:
    nb = nbformat.v4.new_notebook(metadata=metadata or {})
    nb.cells = [nbformat.v4.new_code_cell("x", outputs=o) for o in outputs]
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


def _display(data: dict, metadata: dict | None = None) -> dict:
    return {"output_type": "display_data", "data": data, "metadata": metadata or {}}


def test_expected_outputs_counts_charts_explorers_and_what_shows_only_as_text(tmp_path):
    view = {browser_check.WIDGET_VIEW: {"model_id": "ab", "version_major": 2, "version_minor": 0}}
    notebook = _notebook(
        tmp_path / "n.ipynb",
        [
            [_display({"image/png": "iVBOR", "text/plain": "Chart: a"})],
            [_display({**view, "text/html": '<div class="workbench-explorer">'})],
            [_display({"image/svg+xml": "<svg/>", "text/plain": "alt.Chart(...)"})],
            [_display({**view, "text/plain": "IntSlider(value=0)"})],
            [_display({"image/svg+xml": "<svg/>", "image/png": "iVBOR"})],  # PNG shows
            [{"output_type": "stream", "name": "stdout", "text": "hello"}],
        ],
        metadata={"widgets": {browser_check.WIDGET_STATE: {"state": {}}}},
    )
    expected = browser_check.expected_outputs(notebook)
    assert (expected.charts, expected.explorers) == (2, 1)
    assert expected.hidden == [
        "cell 3 (image/svg+xml)",
        "cell 4 (application/vnd.jupyter.widget-view+json)",
    ]
    assert expected.widget_state is True


def test_chart_problems_from_metadata_and_border_ink():
    metadata = {browser_check.CHART_METADATA: {"text_outside": ["a", "b", "c", "d", "e"]}}
    assert browser_check.chart_text_problems(metadata, "cell 2") == [
        "cell 2: chart text outside the chart: 'a', 'b', 'c', 'd' and 1 more"
    ]
    assert browser_check.chart_text_problems({}, "cell 2") == []
    images = [
        {"ink": [], "width": 10, "height": 10},
        {"ink": ["bottom", "left"], "width": 520, "height": 200},
    ]
    assert browser_check.ink_problems(images, "cell 3") == [
        "cell 3: chart cut at its bottom/left edge (520x200 px image)"
    ]


BAD_CELLS = [
    "import altair as alt\nimport polars as pl\nimport workbench.charts\n"
    "from workbench.games import rubbish\n"
    # PNG only: with the widget state saved, a static export would show the live view instead.
    "workbench.charts.enable_offline_rendering(live=False)\n"
    "frame = pl.DataFrame({'x': ['a long category name', 'b'], 'y': [1.0, 2.0]})",
    # Laid out without room: the axis labels fall outside the image and are cut at its edge.
    "alt.Chart(frame, title='Cramped').mark_bar().encode(x='y:Q', y='x:N')"
    ".properties(width=120, autosize=alt.AutoSizeParams(type='none'))",
    "alt.renderers.enable('svg')\nalt.Chart(frame).mark_bar().encode(x='y:Q', y='x:N')",
    "workbench.charts.enable_offline_rendering()\nprint('x' * 200)",
    "import ipywidgets\nipywidgets.IntSlider()",
    "explorer = rubbish.bid_inference_explorer(seed=1)\n"
    "explorer.controls['held_out'].continuous_update = True\n"
    "explorer.controls['peek'].index = None\nexplorer",
]
GOOD_CELLS = [
    "import polars as pl\nimport workbench.charts\nfrom workbench.games import rubbish\n"
    "from workbench.tables import table\nworkbench.charts.enable_offline_rendering()",
    "rubbish.bid_posterior_chart(rubbish.possible_bids((5, 2, 2, 1), 3), title='Three cards')",
    "table(pl.DataFrame({f'a_fairly_long_column_{i}': [1.5, 2.25] for i in range(12)}))",
    "rubbish.bid_inference_explorer(seed=1)",
]


def _executed(path: Path, sources: list[str], *, widget_state: bool) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    resources = {"metadata": {"path": str(path.parent)}}
    NotebookClient(nb, timeout=120, store_widget_state=widget_state, resources=resources).execute()
    nbformat.write(nb, path)
    return path


@pytest.mark.slow
@pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="Chromium is not installed")
def test_the_check_fails_on_each_problem_and_passes_a_clean_notebook(tmp_path):
    bad = _executed(tmp_path / "bad.ipynb", BAD_CELLS, widget_state=True)
    good = _executed(tmp_path / "good.ipynb", GOOD_CELLS, widget_state=False)
    run = subprocess.run(
        [sys.executable, str(REPO / "tools" / "browser_check.py"), str(bad), str(good),
         "--screenshots", str(tmp_path / "shots")],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    lines = run.stdout.splitlines()
    assert run.returncode == 1, run.stdout + run.stderr
    failed = next(line for line in lines if line.startswith("FAIL bad.ipynb"))
    for problem in [
        "the file holds saved widget state",
        "cell 2 before running: chart text outside the chart: ",
        "cell 2 before running: chart cut at its bottom/top/left edge",
        "static HTML export: chart cut at its bottom/top/left edge",
        "cell 3 before running: shows only its text form 'alt.Chart(...)'",
        "cell 5 before running: shows only its text form 'IntSlider(value=0)'",
        "static HTML export: 0 of 1 explorer(s) show their saved result",
        "before running: a text output wraps: 'xxxxxxxx",
        "cell 2: chart text outside the chart: ",
        "cell 6 explorer: dropdown 'peek saw' is blank",
        "explorer 1 ('held out'): recomputes while the slider is dragged",
    ]:
        assert problem in failed, f"{problem!r} not in {failed}"
    passed = next(line for line in lines if line.startswith(("PASS good", "FAIL good")))
    assert passed.startswith("PASS good.ipynb"), passed
    assert "untrusted charts 1/1" in passed and "explorers 1/1 saved, 1 live" in passed
    assert "explorer answered in" in passed
    assert (tmp_path / "shots" / "good.untrusted.png").is_file()
