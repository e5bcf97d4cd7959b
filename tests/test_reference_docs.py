"""The newcomer's README and the reference pages under docs/reference: short, free of
development history, every link inside the repository, every measured figure dated."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
REFERENCE = sorted((REPO / "docs" / "reference").glob("*.md"))
LINK = re.compile(r"\]\(([^)\s]+)\)")
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def test_the_readme_is_a_newcomers_page():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "make lab" in text and "make test" in text
    for page in REFERENCE:
        assert f"docs/reference/{page.name}" in text, f"README does not point to {page.name}"


@pytest.mark.parametrize("path", [README, *REFERENCE], ids=lambda p: p.name)
def test_no_development_history_and_links_stay_inside(path):
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\bissues? #?\d+", text, re.IGNORECASE), "names an issue number"
    for link in LINK.findall(text):
        if link.startswith(("http", "#", "mailto:")):
            raise AssertionError(f"{path.name} links outside the repository: {link}")
        target = (path.parent / link.split("#")[0]).resolve()
        assert target.is_relative_to(REPO) and target.exists(), f"{link} does not exist"


@pytest.mark.parametrize("name", ["speed.md", "agents.md"])
def test_every_measured_figure_says_when(name):
    lines = (REPO / "docs" / "reference" / name).read_text(encoding="utf-8").splitlines()
    headers = [line for line, below in pairwise(lines) if below.startswith("| ---")]
    body = [line for line in lines
            if line.startswith("| ") and line not in headers and not line.startswith("| ---")]
    assert headers and all(h.rstrip(" |").endswith("measured") for h in headers)
    undated = [row[:60] for row in body if not DATE.search(row.rsplit("|", 2)[-2])]
    assert body and not undated, f"rows without a date: {undated}"
