"""What the committed notebooks and docs hold, checked without a kernel or a browser: charts
saved in the form a reader sees before running, explorers with their saved first result, no
widget state, and links that stay inside the repository."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from workbench.charts import METADATA_KEY

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Forms JupyterLab does not show in an untrusted notebook (it falls back to the text form).
UNSAFE = ("image/svg+xml", "application/javascript", "application/vnd.vega")
DOCS = [REPO / "README.md", REPO / "notebooks" / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def _text(value: str | list[str]) -> str:
    """A notebook stores text either whole or as a list of lines."""
    return "".join(value) if isinstance(value, list) else value


def _outputs(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for number, cell in enumerate(notebook["cells"], start=1):
        if cell["cell_type"] == "code":
            for output in cell.get("outputs", []):
                yield number, output


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_charts_and_explorers_show_before_the_notebook_runs(path):
    charts = explorers = 0
    for number, output in _outputs(path):
        data = output.get("data", {})
        unsafe = [mime for mime in data if mime.startswith(UNSAFE)]
        assert not unsafe, f"cell {number} holds {unsafe}: shown as text before running"
        if WIDGET_VIEW in data and "image/png" not in data:  # a live chart carries its PNG
            explorers += 1
            html = _text(data.get("text/html", ""))
            saved = ('class="workbench-saved"', 'class="workbench-explorer"')
            assert any(name in html for name in saved), f"cell {number}: widget with no saved copy"
        elif "image/png" in data:
            charts += 1
            metadata = output.get("metadata", {})
            assert metadata["image/png"]["width"] > 0, f"cell {number}: no display size"
            assert metadata[METADATA_KEY]["text_outside"] == [], f"cell {number}: text outside"
            assert _text(data["text/plain"]).startswith("Chart: "), f"cell {number}: no text form"
    assert charts > 0, "every notebook answers with at least one chart"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in notebook["metadata"], "saved widget state (see notebooks/README.md)"
    if explorers:  # widget cells are not compared by nbval
        assert any(
            "# NBVAL_IGNORE_OUTPUT" in "".join(c["source"])
            for c in notebook["cells"]
            if c["cell_type"] == "code"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_top_cell_seeds_and_renders_offline(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    first_code = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    source = "".join(first_code["source"])
    assert re.search(r"^SEED = \d+$", source, re.MULTILINE)
    assert "enable_offline_rendering()" in source


LINK = re.compile(r"\]\(([^)\s]+)\)")


def _links(text: str) -> list[str]:
    return [link for link in LINK.findall(text) if not link.startswith(("http", "#", "mailto:"))]


@pytest.mark.parametrize(
    "path", [*DOCS, *NOTEBOOKS], ids=lambda p: str(p.relative_to(REPO))
)
def test_docs_and_notebooks_link_only_inside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    for link in _links(text):
        target = (path.parent / link.split("#")[0]).resolve()
        assert target.is_relative_to(REPO) and target.exists(), f"{link} does not exist"
    # The shared copies of the rules and the design live outside the repository.
    assert not re.search(r"\b(RULES|DESIGN)\.md\b", text), "cites a document outside the repo"
