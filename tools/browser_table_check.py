"""Browser check of the play-along table: click through decisions in real JupyterLab.

A scratch notebook with a live table of every game, each with its panel (Rubbish Auction,
the shared budget auction, Auction House, Going, Going, GONE!), and a finished game of every
game, is opened in headless Chromium (JupyterLab and the browser set up as
``tools/browser_check.py`` does). The check runs it, then plays a few decisions the way a
reader does — picks in the dropdowns, toggles cards, types a bid, clicks "play" or an action
button — and after each one waits for the table to move on and checks that the panel redrew
with the new position: new readings, the bid table while bidding, the cost of a shared-budget
bid once it is revealed. The hint is ticked on the Rubbish table by the reader (and made on by
code on the others): its table of every action's evaluation must show at each decision. On each
finished game the reader clicks "review the game": the chart of every seat's win chance and the
table of the seat's decisions must appear. It fails on any cell or widget error, a request off
the machine, or a panel, hint or review that did not show. Screenshots go to
``notebooks/.browser-check/table-<game>.png`` and ``review-<game>.png``.

Usage: ``python tools/browser_table_check.py [--timeout S]``; skipped (exit 0) without
Chromium, like the notebook check.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

from browser_check import CHROMIUM_ARGS, Lab, LabPage  # tools/ is the script's folder
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, sync_playwright

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CHROMIUM = "/usr/bin/chromium"
NOTEBOOK = "table_check.ipynb"
#: How long one decision (the click, the agents, the panel, the redraw) may take in the page.
DECISION_TIMEOUT_S = 20.0
RUBBISH_DECISIONS = 4
SHARED_BUDGET_BIDS = (4, 2)

#: The finished games whose review the reader asks for, and the playouts each review plays
#: (few: the check is about the view, bench/review.py about the numbers).
REVIEWED = ("rubbish", "shared_budget", "auction_house", "going_gone")
REVIEW_BUDGET = 16
#: Decisions clicked through on the Auction House and GONE! tables.
GENERIC_DECISIONS = 2

CELLS = [
    "import workbench\n"
    "rubbish_table = workbench.table('rubbish', seed=11, opponents='heuristic', model='uniform')\n"
    "rubbish_table",
    "shared_table = workbench.table('shared_budget', seed=3, seat=1, opponents='equilibrium',\n"
    "                               hint=True)\n"
    "shared_table",
    "house_table = workbench.table('auction_house', seed=3, opponents='fitted', hint=True)\n"
    "house_table",
    "gone_table = workbench.table('going_gone', seed=3, opponents='fitted', hint=True)\n"
    "gone_table",
    "from IPython.display import display\n"
    f"for game in {REVIEWED!r}:\n"
    f"    finished = workbench.table(game, seed=4, opponents='fitted',\n"
    f"                               review_budget={REVIEW_BUDGET})\n"
    "    finished.autoplay('random')\n"
    "    display(finished)",
]

OPEN_JS = """async (path) => {
  const app = window.jupyterapp;
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  window.__tcPanel = panel;
  app.shell.activateById(panel.id);
  await panel.context.ready;
  await panel.sessionContext.ready;
}"""

RUN_JS = """async () => {
  const app = window.jupyterapp;
  app.shell.activateById(window.__tcPanel.id);
  window.__tcRun = null;
  app.commands.execute('notebook:run-all-cells').then(
    () => { window.__tcRun = 'done'; }, (e) => { window.__tcRun = 'failed: ' + e; });
}"""

STATE_JS = """() => {
  const p = window.__tcPanel;
  const kernel = p.sessionContext.session ? p.sessionContext.session.kernel : null;
  const running = Array.from(p.content.node.querySelectorAll('.jp-InputPrompt'))
    .filter((el) => el.textContent.includes('[*]')).length;
  const errors = [];
  const cells = p.content.model.cells;
  for (let i = 0; i < cells.length; i++) {
    for (const o of cells.get(i).outputs.toJSON()) {
      if (o.output_type === 'error') errors.push(`cell ${i + 1}: ${o.ename}: ${o.evalue}`);
    }
  }
  const tracebacks = Array.from(p.content.node.querySelectorAll(
    '.jupyter-widgets .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
  )).filter((el) => el.textContent.includes('Traceback')).length;
  return {status: kernel ? kernel.status : 'none', run: window.__tcRun, running, errors,
          tracebacks};
}"""


class CheckFailed(Exception):
    """A step of the check went wrong: the message says which and what was seen."""


def notebook_json() -> str:
    """The scratch notebook holding the live tables."""
    cells = [
        {
            "cell_type": "code",
            "metadata": {},
            "source": source,
            "outputs": [],
            "execution_count": None,
        }
        for source in CELLS
    ]
    kernel = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook = {
        "cells": cells,
        "metadata": {"kernelspec": kernel},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook)


def wait(what: str, condition, timeout: float) -> None:
    """Poll ``condition()`` until true; CheckFailed naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise CheckFailed(f"timed out after {timeout:.0f} s waiting for {what}")


def run_notebook(page: Page, timeout: float) -> None:
    """Open the scratch notebook, run all its cells and wait until they are done."""
    page.evaluate(OPEN_JS, NOTEBOOK)
    wait("the kernel", lambda: page.evaluate(STATE_JS)["status"] == "idle", timeout)
    page.evaluate(RUN_JS)

    def finished() -> bool:
        state = page.evaluate(STATE_JS)
        return state["run"] is not None and state["status"] == "idle" and not state["running"]

    wait("the cells to run", finished, timeout)
    check_errors(page)


def check_errors(page: Page) -> None:
    state = page.evaluate(STATE_JS)
    if state["errors"] or state["tracebacks"]:
        raise CheckFailed(
            f"errors in the page: {state['errors']} ({state['tracebacks']} widget traceback(s))"
        )


def status(table: Locator) -> str:
    return table.locator(".wb-table-status").inner_text()


def panel_text(table: Locator) -> str:
    return table.locator(".wb-panel-view").inner_text()


def play_and_wait(page: Page, table: Locator, click) -> tuple[str, str]:
    """Click (``click()``), then wait for the table's status and the panel to change."""
    before_status, before_panel = status(table), panel_text(table)
    click()

    def moved() -> bool:
        return status(table) != before_status and panel_text(table) != before_panel

    wait("the table and its panel to update after a click", moved, DECISION_TIMEOUT_S)
    check_errors(page)
    return status(table), panel_text(table)


def rubbish_decisions(page: Page, table: Locator) -> list[str]:
    """Play decisions of the Rubbish table through its controls; what each one showed."""
    seen = []
    for _ in range(RUBBISH_DECISIONS):
        form = table.locator(".wb-table-form")
        play = form.locator("button.wb-table-play")
        toggles = form.locator("button.wb-table-toggle")
        if toggles.count():
            # Hold out the two smallest cards: click their toggles (the last two), then play.
            toggles.nth(toggles.count() - 1).click()
            toggles.nth(toggles.count() - 2).click()
            wait("the play button to enable", play.is_enabled, DECISION_TIMEOUT_S)
            if "P(win)" not in panel_text(table):
                raise CheckFailed("the panel shows no bid table at a bidding decision")
            kind = "bid"
        elif form.locator(".wb-table-field-item select").count():
            # Put up the last item, naming the next seat First Bidder.
            item = form.locator(".wb-table-field-item select")
            item.select_option(index=item.locator("option").count() - 1)
            form.locator(".wb-table-field-first_bidder select").select_option(index=1)
            kind = "auction"
        else:
            form.locator("button.wb-table-action").first.click()
            kind = "auction (button)"
            seen.append(kind)
            continue
        _, panel = play_and_wait(page, table, play.click)
        seen.append(f"{kind}: panel now {len(panel)} characters")
    return seen


def hint_rows(table: Locator) -> int:
    """Rows of the hint's table (0 when it shows none)."""
    return max(table.locator(".wb-hint-table tr").count() - 1, 0)


def hint_text(table: Locator) -> str:
    return table.locator(".wb-hint-view").inner_text()


def check_hint(page: Page, table: Locator, what: str, before: str | None = None) -> int:
    """The hint must show an evaluation of the seat's actions now (not ``before``, the last
    decision's); its number of rows."""

    def shown() -> bool:
        return hint_rows(table) > 0 and (before is None or hint_text(table) != before)

    wait(f"the hint's table {what}", shown, DECISION_TIMEOUT_S)
    check_errors(page)
    if "playouts per action" not in table.locator(".wb-hint-view").inner_text():
        raise CheckFailed(f"the hint {what} does not say how many playouts it played")
    return hint_rows(table)


def generic_decisions(page: Page, table: Locator) -> list[str]:
    """Play decisions through whatever controls the table offers: the first action button
    (a pass, stopping a sale), else the play button on the controls' first legal choice; the
    panel must redraw and the hint (on) must evaluate the next decision."""
    seen = [f"hint {check_hint(page, table, 'at the first decision')} actions"]
    for _ in range(GENERIC_DECISIONS):
        form = table.locator(".wb-table-form")
        buttons = form.locator("button.wb-table-action")
        target = buttons.first if buttons.count() else form.locator("button.wb-table-play")
        wait("a control to enable", target.is_enabled, DECISION_TIMEOUT_S)
        before = hint_text(table)
        _, panel = play_and_wait(page, table, target.click)
        rows = check_hint(page, table, "for the next decision", before)
        seen.append(f"panel {len(panel)} characters, hint {rows} actions")
    return seen


def review_finished(page: Page, table: Locator) -> str:
    """Click "review the game" on a finished table: the review's chart and table must show."""
    if not table.locator(".wb-review").is_visible():
        raise CheckFailed("a finished game offers no review")
    table.locator("button.wb-review-run").click()
    decisions = table.locator(".wb-review-decisions tr")
    wait("the review's table of decisions", lambda: decisions.count() > 1, 4 * DECISION_TIMEOUT_S)
    chart = table.locator(".wb-review-chart svg")
    wait("the review's chart", lambda: chart.count() > 0, DECISION_TIMEOUT_S)
    check_errors(page)
    status = table.locator(".wb-review-status").inner_text()
    if "Review of seat" not in status:
        raise CheckFailed(f"the review's status line says {status[:80]!r}")
    return f"review of {decisions.count() - 1} decisions, chart drawn"


def shared_budget_bids(page: Page, table: Locator) -> list[str]:
    """Type bids into the shared budget table and play them; the panel must price each."""
    seen = []
    for round_number, bid in enumerate(SHARED_BUDGET_BIDS, start=1):
        number = table.locator(".wb-table-number input")
        number.fill(str(bid))
        number.press("Enter")
        play = table.locator("button.wb-table-play")
        play_and_wait(page, table, play.click)
        rows = table.locator(".wb-panel-costs tr")
        if rows.count() != round_number + 1:  # a header and one row per revealed round
            raise CheckFailed(
                f"the cost table has {rows.count() - 1} rows after round {round_number}"
            )
        cells = rows.nth(round_number).locator("td")
        if cells.nth(2).inner_text().strip() != str(bid):
            raise CheckFailed(
                f"the cost table shows bid {cells.nth(2).inner_text()!r}, typed {bid}"
            )
        seen.append(f"bid {bid}: priced in round {round_number}")
    return seen


def rubbish_with_hint(page: Page, table: Locator) -> list[str]:
    """Tick the hint on the Rubbish table (off by default), then play its decisions."""
    if hint_rows(table):
        raise CheckFailed("the hint shows before it is ticked (it is off by default)")
    table.locator(".wb-hint-toggle input").check()
    seen = [f"hint ticked: {check_hint(page, table, 'once ticked')} actions"]
    return seen + rubbish_decisions(page, table)


def shared_with_hint(page: Page, table: Locator) -> list[str]:
    seen = f"hint {check_hint(page, table, 'at the first bid')} bids"
    return [seen, *shared_budget_bids(page, table)]


def screenshot(page: Page, table: Locator, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 2400})  # the whole table in view
    table.screenshot(path=str(path))
    page.set_viewport_size({"width": 1280, "height": 900})


def check(page: Page, shots: Path, timeout: float) -> list[str]:
    """The whole check; the lines to print."""
    run_notebook(page, timeout)
    tables = page.locator(".wb-table")
    expected = 4 + len(REVIEWED)
    wait("every table to render", lambda: tables.count() == expected, timeout)
    lines = []
    live = (
        ("rubbish", rubbish_with_hint),
        ("shared_budget", shared_with_hint),
        ("auction_house", generic_decisions),
        ("going_gone", generic_decisions),
    )
    for index, (name, play) in enumerate(live):
        table = tables.nth(index)
        table.scroll_into_view_if_needed()
        if not table.locator(".wb-panel").count():
            raise CheckFailed(f"the {name} table shows no panel")
        steps = play(page, table)
        screenshot(page, table, shots / f"table-{name}.png")
        lines.append(f"PASS {name} table: " + "; ".join(steps))
    for index, name in enumerate(REVIEWED, start=len(live)):
        table = tables.nth(index)
        table.scroll_into_view_if_needed()
        seen = review_finished(page, table)
        screenshot(page, table, shots / f"review-{name}.png")
        lines.append(f"PASS {name} review: {seen}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds for JupyterLab and the cells (default %(default)s)",
    )
    parser.add_argument("--screenshots", type=Path, default=REPO / "notebooks" / ".browser-check")
    args = parser.parse_args(argv)
    chromium = os.environ.get("BROWSER_CHECK_CHROMIUM", DEFAULT_CHROMIUM)
    if not (os.path.isfile(chromium) and os.access(chromium, os.X_OK)):
        print(f"table browser check SKIPPED: Chromium not found at {chromium}")
        return 0
    signal.signal(signal.SIGTERM, lambda _sig, _frame: sys.exit(143))
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="browser-table-check-") as scratch_name:
        scratch = Path(scratch_name)
        root = scratch / "notebooks"
        root.mkdir()
        (root / NOTEBOOK).write_text(notebook_json(), encoding="utf-8")
        lab = Lab(root, scratch)
        try:
            try:
                lab.start()
            except RuntimeError as exc:
                print(f"table browser check FAILED: {exc}\n{lab.log_tail()}")
                return 1
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=chromium, args=CHROMIUM_ARGS, headless=True
                )
                lab_page = None
                try:
                    lab_page = LabPage(browser, lab)
                    lines = check(lab_page.page, args.screenshots, args.timeout)
                    if lab_page.external:
                        raise CheckFailed(f"requests off the machine: {lab_page.external[:3]}")
                except (CheckFailed, PlaywrightError) as exc:
                    print(f"FAIL play-along table: {str(exc).splitlines()[0]}")
                    return 1
                finally:
                    if lab_page is not None:
                        lab_page.close()
                    browser.close()
        finally:
            lab.stop()
    for line in lines:
        print(line)
    print(f"table browser check: passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
