"""The browser check's live checks: what a reader can do with the charts of a running notebook.

Split from ``browser_check.py`` (which calls ``check_live`` after Run All); each step records
problems on the notebook's ``Result``:

- **Tooltip.** The first live chart output (a ``workbench.charts.ChartView``) and every
  explorer's chart: hovering a mark shows Vega's tooltip with text.
- **Pick.** In every explorer that can pick (its pick note names the fields), clicking a mark
  whose datum has those fields filters the table beside it: the note says what was picked and
  the table shows as many rows as the note counts.
- **Distinct SVG ids.** No clip path or gradient id repeats on the page.
- **One chart per output.** ``chart_count_problems``: each chart output and each explorer shows
  exactly one chart (the PNG before running, the live view after), never both or none.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from playwright.sync_api import Page

#: How long a tooltip or a pick may take to show.
LIVE_TIMEOUT_S = 10.0

#: Visible charts in one output node: loaded images plus drawn live views (Vega's SVG).
COUNT_CHARTS_JS = """
const chartsShown = (node) => {
  const big = (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= 10 && r.height >= 10 && getComputedStyle(el).visibility !== 'hidden'
      && el.closest('[style*="display: none"]') === null;
  };
  const images = Array.from(node.querySelectorAll('img'))
    .filter((img) => img.complete && img.naturalWidth > 0 && big(img)).length;
  const live = Array.from(node.querySelectorAll('.vega-embed svg.marks')).filter(big).length;
  return {images, live};
};
"""

#: Marks the first live chart of output ``o`` (or of explorer ``e``) to hover, scrolled into
#: view: the centre of the first mark item of a reasonable size, or null.
HOVER_JS = """([kind, index]) => {
  const root = window.__bcPanel.content.node;
  const hosts = kind === 'explorer'
    ? Array.from(root.querySelectorAll('.workbench-explorer-live'))
    : Array.from(root.querySelectorAll('.jp-OutputArea-output'))
        .filter((o) => !o.querySelector('.workbench-explorer-live'));
  const live = hosts.map((h) => h.querySelector('.vega-embed svg.marks')).filter((s) => s);
  const svg = live[index];
  if (!svg) return null;
  const items = Array.from(svg.querySelectorAll('g.role-mark > path, g.role-mark > rect'))
    .filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width >= 2 && r.height >= 2;
    });
  if (!items.length) return null;
  items[0].scrollIntoView({block: 'center'});
  const r = items[0].getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2, count: live.length};
}"""

#: The text of a visible Vega tooltip (each chart has its own tooltip element, all with the
#: same id, so they are found by class).
TOOLTIP_JS = """() => {
  for (const tip of document.querySelectorAll('.vg-tooltip, #vg-tooltip-element')) {
    const style = getComputedStyle(tip);
    const shown = tip.classList.contains('visible') || (style.display !== 'none'
      && style.visibility !== 'hidden' && parseFloat(style.opacity || '1') > 0);
    if (shown && tip.textContent.trim()) return tip.textContent.trim();
  }
  return '';
}"""


#: Explorer ``e``'s pick: a mark of the picked view whose datum holds every pick field, and the
#: table's state.
PICK_JS = """(e) => {
  const live = window.__bcPanel.content.node.querySelectorAll('.workbench-explorer-live')[e];
  if (!live) return null;
  const note = live.querySelector('.workbench-pick [data-pick-fields]');
  const rows = live.querySelectorAll('.workbench-table-box tbody tr').length;
  const state = {note: live.querySelector('.workbench-pick')?.textContent.trim() || '', rows};
  if (!note) return {...state, fields: null};
  const fields = JSON.parse(note.dataset.pickFields);
  const marks = Array.from(live.querySelectorAll('.vega-embed g.picked_view_marks > path'));
  const target = marks.find((el) => {
    const datum = el.__data__ && el.__data__.datum;
    const r = el.getBoundingClientRect();
    return datum && r.width >= 2 && r.height >= 2
      && fields.every((f) => datum[f] !== null && datum[f] !== undefined);
  });
  if (!target) return {...state, fields, target: null};
  target.scrollIntoView({block: 'center'});
  const r = target.getBoundingClientRect();
  const datum = target.__data__.datum;
  return {...state, fields, target: {x: r.left + r.width / 2, y: r.top + r.height / 2,
    values: fields.map((f) => String(datum[f]))}};
}"""


#: Ids given to more than one SVG clip path or gradient on the page: a mark clipped to a
#: repeated id may take another chart's clip and be drawn cut off.
REPEATED_SVG_IDS_JS = """() => {
  const seen = {};
  const ids = document.querySelectorAll('clipPath[id], linearGradient[id], radialGradient[id]');
  for (const el of ids) seen[el.id] = (seen[el.id] || 0) + 1;
  return Object.keys(seen).filter((id) => seen[id] > 1);
}"""

#: What is under a point of the page (to say what a hover or click met instead of a mark).
ELEMENT_AT_JS = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return 'nothing';
  const name = (node) => `${node.tagName.toLowerCase()}.${node.getAttribute('class') || ''}`;
  return el.parentElement ? `${name(el)} in ${name(el.parentElement)}` : name(el);
}"""


class Hover(NamedTuple):
    """What hovering a live chart's first mark gave."""

    found: bool  # there was a mark to hover
    tooltip: str  # the tooltip's text ('' for none)
    under: str  # what was under the pointer


def _hover(page: Page, kind: str, index: int) -> Hover:
    """Hover the first mark of a live chart and wait for its tooltip."""
    target = page.evaluate(HOVER_JS, [kind, index])
    if target is None:
        return Hover(False, "", "")
    page.wait_for_timeout(150)
    target = page.evaluate(HOVER_JS, [kind, index])
    page.mouse.move(target["x"] - 30, target["y"] - 30)
    page.mouse.move(target["x"], target["y"], steps=4)
    limit = time.monotonic() + LIVE_TIMEOUT_S
    text = ""
    while time.monotonic() < limit and not text:
        text = page.evaluate(TOOLTIP_JS)
        if not text:
            page.wait_for_timeout(100)
    under = "" if text else page.evaluate(ELEMENT_AT_JS, [target["x"], target["y"]])
    page.mouse.move(1, 1)
    return Hover(True, text, under)


def _pick(page: Page, index: int) -> tuple[str | None, str]:
    """Click a pickable mark of explorer ``index``: (problem or None, what happened)."""
    before = page.evaluate(PICK_JS, index)
    if before is None or before["fields"] is None:
        return None, ""
    where = f"explorer {index + 1}"
    if before.get("target") is None:
        return f"{where}: no mark to pick on {before['fields']}", ""
    page.wait_for_timeout(150)
    before = page.evaluate(PICK_JS, index)
    target = before["target"]
    page.mouse.click(target["x"], target["y"])
    limit = time.monotonic() + LIVE_TIMEOUT_S
    while time.monotonic() < limit:
        now = page.evaluate(PICK_JS, index)
        if now and "picked in the chart" in now["note"]:
            named = all(value in now["note"] for value in target["values"])
            listed = f"({now['rows']} of " in now["note"] or now["rows"] >= 20  # a long table
            counted = now["rows"] >= 1 and listed
            if not named or not counted:
                return f"{where}: the pick shows {now['note'][:80]!r}, {now['rows']} rows", ""
            page.mouse.move(1, 1)
            return None, f"{before['rows']}→{now['rows']} rows"
        page.wait_for_timeout(100)
    return f"{where}: clicking a mark did not filter the table ({before['note'][:60]!r})", ""


def check_live(page: Page, result: Any) -> None:
    """Hover and pick in the running notebook (see the module docstring)."""
    repeated = page.evaluate(REPEATED_SVG_IDS_JS)
    if repeated:
        result.problems.append(
            f"live charts share SVG ids {', '.join(repeated[:4])}: marks may be clipped by "
            "another chart's clip"
        )
    hover = _hover(page, "output", 0)
    if hover.found and hover.tooltip:
        result.shown["tooltip"] = repr(hover.tooltip[:30])
    elif hover.found:
        result.problems.append(f"live chart: hovering a mark shows no tooltip (over {hover.under})")
    picks = []
    explorers = page.evaluate(
        "() => window.__bcPanel.content.node.querySelectorAll('.workbench-explorer-live').length"
    )
    for index in range(explorers):
        hover = _hover(page, "explorer", index)
        if not hover.found:
            result.problems.append(f"explorer {index + 1}: no live chart mark to hover")
        elif not hover.tooltip:
            result.problems.append(
                f"explorer {index + 1}: hovering a mark shows no tooltip (over {hover.under})"
            )
        problem, done = _pick(page, index)
        if problem:
            result.problems.append(problem)
        elif done:
            picks.append(done)
    if picks:
        result.shown["picked"] = ", ".join(picks)


def chart_count_problems(outputs: list[dict[str, Any]], when: str) -> list[str]:
    """Chart outputs and explorers showing other than exactly one chart."""
    problems = []
    for output in outputs:
        counted = output.get("charts")
        if counted is None:
            continue
        total = counted["images"] + counted["live"]
        if total != 1:
            problems.append(
                f"cell {output['cell']} {when}: {total} charts visible in one output "
                f"({counted['images']} image(s), {counted['live']} live); one expected"
            )
    return problems


__all__ = ["COUNT_CHARTS_JS", "chart_count_problems", "check_live"]
