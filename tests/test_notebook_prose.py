"""The prose check: every number written in a notebook's Markdown is found, at the precision
written, among that notebook's outputs or the number literals of its code, unless it is quoted
from the rulebook. The rules (notebooks/README.md, "Claims as code") in brief:

- **What is a number**: digits with an optional decimal part and thousands separators
  (20,000; 0.585; 3.2%); the sign is ignored (prose writes "falls by 0.02" for −0.02).
- **At the precision written**: 0.585 is found by any output or code number within half a unit
  of its last decimal (0.5847 reads as 0.585; 15 reads 14.6); a number may also be written as a
  percentage of a share (3.2 or 3.2% for 0.032).
- **Not numbers of a finding**: anything in `code` or a fenced or indented code block, link
  targets and HTML tags; notebook numbers (two digits with a leading zero, 00–09, or after
  "notebook"); section numbers (after "section", or a heading's leading "1."); list ordinals (a
  line's leading "1."); years (1900–2099 without a separator); the confidence level "95%".
- **Quotations from the rulebook** are not checked: an italic quotation, *"…"*, or a
  blockquote line (starting with ">").
- **Outputs** are every code cell's text, Markdown and HTML outputs (tags removed) and stream
  text; **code** is the Python number literals of the code cells (not numbers inside strings or
  comments, so a check cell that repeats a sentence does not vouch for its numbers).
"""

from __future__ import annotations

import bisect
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))

NUMBER = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|(?<![\w.,])\d+(?:\.\d+)?%?")
FENCED = re.compile(r"^```.*?^```[^\n]*$", re.MULTILINE | re.DOTALL)
INDENTED = re.compile(r"(?:^|\n\n)((?: {4}[^\n]*(?:\n|$))+)")
INLINE_CODE = re.compile(r"`[^`]*`")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
TAG = re.compile(r"<[^>]+>")
QUOTATION = re.compile(r"\*\"[^\"]*\"\*", re.DOTALL)
BLOCKQUOTE = re.compile(r"^>.*$", re.MULTILINE)
HEADING_NUMBER = re.compile(r"^(#+\s*)\d+(?:\.\d+)*\.?", re.MULTILINE)
LIST_ORDINAL = re.compile(r"^(\s*)\d+\.(?=\s)", re.MULTILINE)
REFERENCE = re.compile(
    r"\b(?:notebooks?|sections?)\s+\d+(?:\s*(?:–|-|to|and|,)\s*\d+)*", re.IGNORECASE
)
CONFIDENCE_LEVEL = "95%"


def _blank(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with every match of ``pattern`` replaced by spaces (positions kept)."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def written_numbers(markdown: str) -> list[tuple[str, str]]:
    """The numbers a Markdown text states, each with a little of the text around it."""
    text = markdown
    for pattern in (FENCED, INDENTED, INLINE_CODE, LINK_TARGET, TAG, QUOTATION, BLOCKQUOTE,
                    REFERENCE):  # fmt: skip
        text = _blank(pattern, text)
    text = HEADING_NUMBER.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))),
                              text)  # fmt: skip
    text = LIST_ORDINAL.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))),
                            text)  # fmt: skip
    found = []
    for match in NUMBER.finditer(text):
        written = match.group(0)
        digits = written.rstrip("%").replace(",", "")
        if written == CONFIDENCE_LEVEL:
            continue
        if re.fullmatch(r"0\d", digits):  # a notebook's number
            continue
        if re.fullmatch(r"(19|20)\d\d", written):  # a year
            continue
        context = markdown[max(0, match.start() - 30) : match.end() + 30].replace("\n", " ")
        found.append((written, context))
    return found


def _numbers_in(text: str) -> list[float]:
    return [float(m.group(0).rstrip("%").replace(",", "")) for m in NUMBER.finditer(text)]


def _code_numbers(source: str) -> list[float]:
    """The number literals of a code cell (20_000 -> 20000; not inside strings or comments)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    found = []
    for token in tokens:
        if token.type == tokenize.NUMBER:
            try:
                found.append(float(token.string.replace("_", "")))
            except ValueError:  # complex or hexadecimal literals
                continue
    return found


def _text(value: str | list[str]) -> str:
    return "".join(value) if isinstance(value, list) else value


def available_numbers(notebook: dict) -> list[float]:
    """Every number among the notebook's outputs and code, as magnitudes, sorted."""
    found: list[float] = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        found += _code_numbers(_text(cell["source"]))
        for output in cell.get("outputs", []):
            if "text" in output:
                found += _numbers_in(_text(output["text"]))
            data = output.get("data", {})
            for mime in ("text/plain", "text/markdown"):
                if mime in data:
                    found += _numbers_in(_text(data[mime]))
            if "text/html" in data:
                found += _numbers_in(TAG.sub(" ", _text(data["text/html"])))
    return sorted(abs(n) for n in found)


def is_found(written: str, available: list[float]) -> bool:
    """Is ``written`` among ``available`` (sorted magnitudes) at the precision written, or as a
    percentage of a share?"""
    digits = written.rstrip("%").replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    value, tolerance = float(digits), 0.5 * 10.0**-decimals + 1e-9
    for low, high in ((value - tolerance, value + tolerance),
                      ((value - tolerance) / 100, (value + tolerance) / 100)):  # fmt: skip
        at = bisect.bisect_left(available, low)
        if at < len(available) and available[at] <= high:
            return True
    return False


def unfound_numbers(notebook: dict) -> list[tuple[int, str, str]]:
    """(cell number, number as written, context) for each written number not found."""
    available = available_numbers(notebook)
    missing = []
    for position, cell in enumerate(notebook["cells"], start=1):
        if cell["cell_type"] != "markdown":
            continue
        for written, context in written_numbers(_text(cell["source"])):
            if not is_found(written, available):
                missing.append((position, written, context))
    return missing


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_number_in_the_prose_is_among_the_outputs(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    missing = unfound_numbers(notebook)
    assert not missing, "\n".join(
        f"{path.name}, markdown cell {cell}: {written} is not among the notebook's outputs or "
        f"code (…{context}…); print it from the numbers, or mark a rulebook quotation *\"…\"*"
        for cell, written, context in missing
    )


# -- the rules themselves, on hand-written Markdown --------------------------------------


def test_what_counts_as_a_number():
    markdown = (
        "## 2. By seat\n\n"
        "1. first item with 0.585 (95% interval 0.578–0.592) over 20,000 games\n"
        "See notebook 04, notebooks 02 to 05, section 8 and sections 1–3; in 2024 the "
        "`simulate(games=20_000)` call and [a link](../docs/rules.md#3) gave −6.2 and 3.2%.\n"
        "The rulebook: *\"a max bid of 15,000 with all cards\"*.\n"
        "> 7 times someone gains 0\n\n"
        "    python -m workbench sweep --games 100000\n"
    )
    assert [w for w, _ in written_numbers(markdown)] == [
        "0.585", "0.578", "0.592", "20,000", "6.2", "3.2%",
    ]  # fmt: skip


def test_numbers_are_found_at_the_precision_written():
    available = sorted([0.5847, 20000.0, 0.0322, 6.21, 14.6])
    assert is_found("0.585", available) and is_found("0.58", available)
    assert not is_found("0.586", available)
    assert is_found("20,000", available) and is_found("3.2%", available)
    assert is_found("3.2", available)  # a share written as a percentage
    assert is_found("6.2", available) and not is_found("6.3", available)
    assert is_found("15", available)  # 14.6 reads as 15


def test_code_numbers_are_literals_not_strings_or_comments():
    source = 'GAMES = 20_000  # about 70 a second\nprint("0.473")\nx = 1e3 + 0.25'
    assert _code_numbers(source) == [20000.0, 1000.0, 0.25]


def test_the_failure_names_the_notebook_cell_and_number():
    notebook = {"cells": [
        {"cell_type": "code", "source": "x = 0.332", "outputs": [
            {"output_type": "stream", "name": "stdout", "text": "seat 1: 0.336\n"}]},
        {"cell_type": "markdown", "source": "Seat 0 won most (0.332); the last won 0.101."},
    ]}  # fmt: skip
    assert unfound_numbers(notebook) == [
        (2, "0.101", "on most (0.332); the last won 0.101.")
    ]
