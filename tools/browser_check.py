"""Browser check: what a reader sees of each notebook, in JupyterLab in headless Chromium.

Each notebook (default ``notebooks/*.ipynb``) is checked three ways, from copies in a temporary
folder (Lab's autosave never touches the committed files):

1. **Static.** The committed file exported to HTML by nbconvert (what a static renderer shows),
   opened in the browser: every chart image and every explorer's saved first result visible.
2. **Untrusted, before running.** The committed file opened in JupyterLab as after a fresh
   clone (untrusted: Lab shows no SVG, scripts or widgets), no cell run: every chart visible as
   an image, every explorer's saved first result visible, no output reduced to its text form
   (``alt.LayerChart(...)``, ``Explorer(children=…)``).
3. **Run.** All cells run in the page: no cell error and no traceback inside a widget; every
   chart and every explorer's chart rendered live (Vega, not the PNG); each explorer (and any
   other widget with a saved copy) live, not its saved copy; no
   dropdown showing a blank entry, CSV and PNG download links present; a slider drag does not
   recompute before the handle is released, and the release is answered (the time is printed)
   with the busy indicator cleared; then the live checks of ``browser_live``: hovering a mark
   shows its tooltip, clicking a mark in an explorer filters its table.

Before running and after, every chart output and every explorer shows exactly one chart.

In every pass: no chart text outside its chart (the chart's own record of texts the layout put
outside the image, and the image's border pixels: ink touching the edge means something was
cut); no text output wrapping and no table wider than the notebook; no request leaving the
machine (requests are recorded and aborted).

Screenshots go to ``notebooks/.browser-check/<name>.png`` (after running) and
``<name>.untrusted.png`` (before). One PASS/FAIL line per notebook; the exit status is non-zero
when any notebook fails. When Chromium is missing the check is skipped (exit 0): ``.ci/run``
installs it in CI.

Usage: ``python tools/browser_check.py [--timeout S] [--screenshots DIR] [NOTEBOOK ...]``
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route, WebSocketRoute, sync_playwright
from playwright.sync_api import Error as PlaywrightError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_lab import LAB_START_TIMEOUT_S, Lab
from browser_live import chart_count_problems, check_live
from browser_notebook import (
    CHART_METADATA,
    WIDGET_STATE,
    WIDGET_VIEW,
    Expected,
    Result,
    chart_text_problems,
    expected_outputs,
    ink_problems,
)
from browser_scripts import (
    BOOT_JS,
    CLOSE_JS,
    DROPDOWN_JS,
    EXPLORER_STATUS_JS,
    EXPLORERS_JS,
    OPEN_JS,
    OUTPUTS_JS,
    PREPARE_SCREENSHOT_JS,
    RUN_ALL_JS,
    SLIDER_JS,
    STATE_JS,
    STATIC_JS,
)

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
NOTEBOOK_TIMEOUT_S = 180.0
#: How long outputs (images, widget views) may take to appear once cells are done.
RENDER_TIMEOUT_S = 10.0
#: How long an explorer may take to answer a slider release before the check fails.
EXPLORER_TIMEOUT_S = 30.0
VIEWPORT = {"width": 1280, "height": 900}
MAX_SCREENSHOT_HEIGHT = 16000
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
LOCAL_SCHEMES = {"data", "blob", "about"}
#: URLs with a network scheme whose host is not this machine (matched inside the browser driver,
#: so local requests never make a round trip to Python).
EXTERNAL_URL = re.compile(
    r"^(?!(?:https?|wss?)://(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?(?:[/?#]|$))"
    r"[a-z][a-z0-9+.-]*://",
    re.IGNORECASE,
)
#: What a chart or widget looks like reduced to its text form.
TEXT_FORM = re.compile(r"^(alt\.\w*Chart\(|\w+\(children=)")

# --- the browser ---------------------------------------------------------------------------


def _is_local(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme in LOCAL_SCHEMES or (parts.hostname or "") in LOCAL_HOSTS


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class LabPage:
    """One Chromium page showing JupyterLab; notebooks are opened in it one after the other.

    Loading Lab once (rather than once per notebook) saves about three seconds a notebook.
    Every request the page makes is seen here: those leaving the machine are aborted and charged
    to the notebook being checked (or to JupyterLab itself while it loads)."""

    def __init__(self, browser: Browser, lab: Lab) -> None:
        self.browser = browser
        self.lab = lab
        self.lab_external: list[str] = []
        self.external = self.lab_external  # where blocked requests are recorded right now
        self.console_errors: list[str] = []
        self.context = browser.new_context(viewport=VIEWPORT, service_workers="block")
        self.context.route(EXTERNAL_URL, self._block)
        self.context.route_web_socket(EXTERNAL_URL, self._block_socket)
        self.context.on("request", lambda request: self._record(request.url))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self.console_errors.append(f"page error: {exc}"))
        self.page.on("console", self._console)
        self.page.goto(f"{lab.url}/lab/workspaces/browser-check?token={lab.token}")
        self.page.wait_for_function(
            "() => window.jupyterapp !== undefined", timeout=LAB_START_TIMEOUT_S * 1000
        )
        self.page.evaluate(BOOT_JS)

    def _record(self, url: str) -> None:
        if not _is_local(url) and url not in self.external:
            self.external.append(url)

    def _block(self, route: Route) -> None:
        self._record(route.request.url)
        if _is_local(route.request.url):
            route.fallback()
        else:
            route.abort("blockedbyclient")

    def _block_socket(self, ws: WebSocketRoute) -> None:
        self._record(ws.url)
        ws.close()

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)

    def close(self) -> None:
        """Close the page and its browser context."""
        with contextlib.suppress(PlaywrightError):
            self.context.close()

    def check(
        self,
        name: str,
        expected: Expected | int,
        shots: Path,
        timeout: float,
        static_html: str | None = None,
    ) -> Result:
        """Check one notebook (in Lab's root): static export (when ``static_html`` is given),
        untrusted view, then run. ``shots``: the folder for the screenshots (or, as before, the
        path of the after-running one); ``expected``: ``expected_outputs(...)`` (or a number
        of charts)."""
        if isinstance(expected, int):
            expected = Expected(charts=expected)
        if shots.suffix == ".png":
            shots = shots.parent
        result = Result(name=name, expected=expected)
        self.external = result.external
        self.console_errors = result.console_errors
        start = time.monotonic()
        deadline = start + timeout
        page = self.page
        stem = Path(name).stem
        if expected.widget_state:
            result.problems.append(
                "the file holds saved widget state: static renderers show a blank widget instead "
                "of the explorer's saved result (execute with store_widget_state off; see "
                "notebooks/README.md)"
            )
        for hidden in expected.hidden:
            result.problems.append(f"{hidden}: only a text form shows before running")
        try:
            if static_html is not None:
                self._check_static(static_html, result)
            page.evaluate(OPEN_JS, name)
            self._check_untrusted(result, deadline)
            _screenshot(page, shots / f"{stem}.untrusted.png")
            problem = _wait_kernel_idle(page, deadline)
            if problem is None:
                page.evaluate(RUN_ALL_JS)
                problem = _wait_cells_done(page, deadline)
            if problem is not None:
                result.problems.append(problem)
            self._check_run(result, deadline)
            if problem is None:
                self._check_sliders(result, deadline)
                check_live(page, result)
        except PlaywrightError as exc:
            result.problems.append(f"browser: {_first_line(exc)}")
        finally:
            try:
                _screenshot(page, shots / f"{stem}.png")
            except PlaywrightError as exc:
                result.problems.append(f"screenshot failed: {_first_line(exc)}")
            # Shuts the kernel down and closes the notebook in the background; Lab shuts down
            # any kernel still running when it stops.
            with contextlib.suppress(PlaywrightError):
                page.evaluate(CLOSE_JS)
            self.external = self.lab_external
            self.console_errors = []
            result.seconds = time.monotonic() - start
        return result

    # --- the three passes ---------------------------------------------------------------------

    def _check_static(self, static_html: str, result: Result) -> None:
        """The nbconvert HTML export: chart images and explorers' saved results visible."""
        expected = result.expected
        page = self.context.new_page()
        external_before = list(result.external)
        try:
            page.set_content(static_html, wait_until="load", timeout=RENDER_TIMEOUT_S * 1000)
            found = page.evaluate(STATIC_JS)
        finally:
            page.close()
            # nbconvert's template links MathJax and require.js from CDNs; a static renderer
            # supplies its own, so those blocked requests are not the notebook's.
            result.external[:] = external_before
        charts = sum(image["loaded"] for image in found["images"])
        fallbacks = sum(
            f["visible"] and all(i["loaded"] for i in f["images"]) for f in found["fallbacks"]
        )
        result.shown["static charts"] = f"{charts}/{expected.charts}"
        if charts < expected.charts:
            result.problems.append(
                f"static HTML export: {charts} of {expected.charts} chart(s) visible"
            )
        if fallbacks < expected.explorers:
            result.problems.append(
                f"static HTML export: {fallbacks} of {expected.explorers} explorer(s) show "
                "their saved result"
            )
        for text in found["textForms"]:
            result.problems.append(f"static HTML export shows a text form: {text!r}")
        result.problems += ink_problems(found["images"], "static HTML export")

    def _check_untrusted(self, result: Result, deadline: float) -> None:
        """The committed notebook opened untrusted, nothing run."""
        expected = result.expected
        render_deadline = min(deadline, time.monotonic() + RENDER_TIMEOUT_S)
        while True:
            found = self.page.evaluate(OUTPUTS_JS)
            outputs = [o for o in found["outputs"] if o["type"] != "not-run"]
            charts = [o for o in outputs if "image/png" in o["mimes"] and not o["fallback"]]
            shown = sum(_all_loaded(o["images"]) for o in charts)
            fallbacks = [o["fallback"] for o in outputs if o["fallback"] is not None]
            fallbacks_shown = sum(_all_loaded(f["images"], empty=True) for f in fallbacks)
            done = shown >= expected.charts and fallbacks_shown >= expected.explorers
            if done or time.monotonic() >= render_deadline:
                break
            time.sleep(0.2)
        result.shown["untrusted charts"] = f"{shown}/{expected.charts}"
        result.shown["explorers"] = f"{fallbacks_shown}/{expected.explorers} saved"
        trusted = sorted({o["cell"] for o in outputs if o["trusted"]})
        if trusted:
            result.problems.append(
                f"opened trusted (cells {', '.join(map(str, trusted))}): the untrusted view "
                "was not checked"
            )
        if shown < expected.charts:
            result.problems.append(f"before running: {shown} of {expected.charts} chart(s) visible")
        if fallbacks_shown < expected.explorers:
            result.problems.append(
                f"before running: {fallbacks_shown} of {expected.explorers} explorer(s) show "
                "their saved result"
            )
        for output in outputs:
            where = f"cell {output['cell']} before running"
            richer = [m for m in output["mimes"] if m != "text/plain"]
            if output["shown"] == "text/plain" and richer:
                result.problems.append(
                    f"{where}: shows only its text form {output['text'][:50]!r} "
                    f"(holds {', '.join(richer)})"
                )
            elif TEXT_FORM.match(output.get("text") or "") and output["shown"] == "text/plain":
                result.problems.append(f"{where}: shows {output['text'][:50]!r}")
            result.problems += chart_text_problems(output["metadata"], where)
            result.problems += ink_problems(output["images"], where)
            if output["fallback"]:
                result.problems += ink_problems(output["fallback"]["images"], where)
        result.problems += chart_count_problems(outputs, "before running")
        result.problems += _layout_problems(found, "before running")

    def _check_run(self, result: Result, deadline: float) -> None:
        """After Run All: errors, charts, explorers live, chart text, layout."""
        render_deadline = min(deadline, time.monotonic() + RENDER_TIMEOUT_S)
        while True:
            found = self.page.evaluate(OUTPUTS_JS)
            outputs = found["outputs"]
            images = [o for o in outputs if o["type"] != "not-run" and "image/png" in o["mimes"]]
            views = [o for o in outputs if o.get("view")]  # live widgets of any kind
            live = [o for o in outputs if o.get("widget") is not None]  # explorers among them
            # A chart output shows its live view (Vega); an image only if it holds no widget.
            charts = sum(_chart_shown(o) for o in images)
            widget_charts = sum(o["widget"]["live"] >= 1 for o in live)
            done = charts == len(images) and widget_charts == len(live)
            done = done and len(views) >= result.expected.explorers
            if done or time.monotonic() >= render_deadline:
                break
            time.sleep(0.2)
        expected = result.expected
        result.shown["charts after running"] = f"{charts}/{max(expected.charts, len(images))}"
        result.shown["explorers"] += f", {len(views)} live"
        if charts < max(expected.charts, len(images)):
            result.problems.append(
                f"after running: {charts} of {max(expected.charts, len(images))} chart(s) rendered"
            )
        if len(views) < expected.explorers:
            result.problems.append(
                f"after running: {len(views)} of {expected.explorers} explorer(s) live"
            )
        if widget_charts < len(live):
            result.problems.append(
                f"after running: {widget_charts} of {len(live)} explorer chart(s) rendered"
            )
        for output in outputs:
            where = f"cell {output['cell']}"
            if output["type"] == "not-run":
                result.problems.append(f"{where} was not run")
                continue
            if output["type"] == "error":
                evalue = str(output["evalue"])[:120]
                result.problems.append(f"{where} raised {output['ename']}: {evalue}")
            if output.get("fallback"):
                result.problems.append(f"{where}: shows the explorer's saved copy, not a live one")
            result.problems += chart_text_problems(output["metadata"], where)
            result.problems += ink_problems(output["images"], where)
            widget = output.get("widget")
            if widget:
                result.problems += ink_problems(widget["images"], f"{where} explorer")
                for label in widget["blankSelects"]:
                    result.problems.append(f"{where} explorer: dropdown {label!r} is blank")
                if not (widget["csv"] and widget["png"]):
                    result.problems.append(f"{where} explorer: no CSV and PNG download links")
                if widget["tracebacks"]:
                    result.problems.append(f"{where} explorer: traceback in its output")
        result.problems += chart_count_problems(outputs, "after running")
        result.problems += _layout_problems(found, "after running")

    def _check_sliders(self, result: Result, deadline: float) -> None:
        """Drag one slider per explorer: nothing may recompute before the handle is released,
        and the release must be answered."""
        page = self.page
        times = []
        for index in range(page.evaluate(EXPLORERS_JS)):
            slider = page.evaluate(SLIDER_JS, index)
            if slider is None:
                answered = self._choose_option(result, index, deadline)
                if answered is not None:
                    times.append(answered)
                continue
            page.wait_for_timeout(200)  # let the scroll settle
            slider = page.evaluate(SLIDER_JS, index)
            before = page.evaluate(EXPLORER_STATUS_JS, index)
            # Towards the far end of the track from the handle, in steps, without releasing.
            middle = (slider["left"] + slider["right"]) / 2
            target = slider["left"] + 4 if slider["x"] > middle else slider["right"] - 4
            page.mouse.move(slider["x"], slider["y"])
            page.mouse.down()
            early = False
            for step in range(1, 6):
                x = slider["x"] + (target - slider["x"]) * step / 5
                page.mouse.move(x, slider["y"])
                page.wait_for_timeout(150)
                now = page.evaluate(EXPLORER_STATUS_JS, index)
                if now["busy"] or now["update"] != before["update"]:
                    early = True
            moved = page.evaluate(EXPLORER_STATUS_JS, index)["readout"] != before["readout"]
            released = time.monotonic()
            page.mouse.up()
            label = slider["label"].strip() or "slider"
            where = f"explorer {index + 1} ({label!r})"
            if early:
                result.problems.append(f"{where}: recomputes while the slider is dragged")
            if not moved:
                continue
            limit = min(deadline, released + EXPLORER_TIMEOUT_S)
            answered = None
            if _wait_for_answer(page, index, before, limit):
                answered = time.monotonic() - released
            if answered is None:
                waited = f"{EXPLORER_TIMEOUT_S:.0f} s"
                result.problems.append(f"{where}: no answer {waited} after the release")
            else:
                times.append(answered)
        if times:
            result.shown["explorer answered in"] = ", ".join(f"{t:.1f} s" for t in times)

    def _choose_option(self, result: Result, index: int, deadline: float) -> float | None:
        """Choose another option in explorer ``index``'s first dropdown; seconds to answer."""
        page = self.page
        choice = page.evaluate(DROPDOWN_JS, index)
        if choice is None:
            return None
        before = page.evaluate(EXPLORER_STATUS_JS, index)
        started = time.monotonic()
        page.select_option("[data-bc-select]", index=choice["index"])
        if _wait_for_answer(page, index, before, min(deadline, started + EXPLORER_TIMEOUT_S)):
            return time.monotonic() - started
        label = choice["label"].strip() or "dropdown"
        waited = f"{EXPLORER_TIMEOUT_S:.0f} s"
        where = f"explorer {index + 1} ({label!r})"
        result.problems.append(f"{where}: no answer {waited} after choosing an option")
        return None


def _wait_for_answer(page: Page, index: int, before: dict[str, Any], limit: float) -> bool:
    """Wait until explorer ``index`` shows a new result (its update count moves on)."""
    while time.monotonic() < limit:
        now = page.evaluate(EXPLORER_STATUS_JS, index)
        if now["update"] != before["update"] and not now["busy"]:
            return True
        time.sleep(0.05)
    return False


def _chart_shown(output: dict[str, Any]) -> bool:
    """A chart output after running: its live view drawn (a chart output carries one), or,
    for an image without a widget, the image loaded."""
    if WIDGET_VIEW in output["mimes"]:
        return bool(output.get("charts") and output["charts"]["live"] >= 1)
    return _all_loaded(output["images"])


def _all_loaded(images: list[dict[str, Any]], *, empty: bool = False) -> bool:
    """Every image loaded and visible (and at least one, unless ``empty`` is allowed)."""
    return (empty or bool(images)) and all(image["loaded"] for image in images)


def _layout_problems(found: dict[str, Any], when: str) -> list[str]:
    problems = [f"{when}: a text output wraps: {line!r}" for line in found["wrapped"]]
    problems += [f"{when}: a table is wider than the notebook: {text!r}" for text in found["wide"]]
    return problems


def _wait_kernel_idle(page: Page, deadline: float) -> str | None:
    """Wait until the notebook's kernel is idle; an error message when it is not."""
    state: dict[str, Any] = {}
    while time.monotonic() < deadline:
        state = page.evaluate(STATE_JS)
        if state["dialog"]:  # e.g. "Select Kernel" for a notebook without kernelspec
            page.click(".jp-Dialog .jp-Dialog-button.jp-mod-accept")
        elif state["ready"] and state["status"] == "idle":
            return None
        time.sleep(0.1)
    return f"kernel not idle before running (status {state.get('status', 'unknown')})"


def _wait_cells_done(page: Page, deadline: float) -> str | None:
    """Wait until Run All has finished and no cell shows [*]; an error message when it hasn't."""
    state: dict[str, Any] = {}
    while time.monotonic() < deadline:
        state = page.evaluate(STATE_JS)
        if state["kernelLost"] or state["status"] in {"dead", "none"}:
            return f"kernel died while running the cells ({state['kernelLost'] or state['status']})"
        run = state["run"] or {}
        if run.get("done") and state["status"] == "idle" and state["running"] == 0:
            return f"Run All failed: {run['error']}" if run.get("error") else None
        time.sleep(0.2)
    return f"cells still running after the timeout ({state.get('running', '?')} with [*])"


def _screenshot(page: Page, path: Path) -> None:
    """Grow the viewport to the notebook's full height, screenshot, and shrink it back."""
    height = 0
    for _ in range(5):  # until the height is stable: Lab lays out again for each new size
        measured = int(page.evaluate(PREPARE_SCREENSHOT_JS))
        if measured <= height:
            break
        height = measured
        size = {
            "width": VIEWPORT["width"],
            "height": min(MAX_SCREENSHOT_HEIGHT, max(VIEWPORT["height"], height + 8)),
        }
        page.set_viewport_size(size)  # type: ignore[arg-type]
        page.wait_for_timeout(300)
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(VIEWPORT)  # type: ignore[arg-type]


def static_html(notebook: Path) -> str:
    """The notebook as nbconvert's HTML exporter renders it (lab template), as static sites do."""
    import nbconvert  # imported here: a few hundred ms, only when checking

    body, _resources = nbconvert.HTMLExporter(template_name="lab").from_filename(str(notebook))
    return body


# --- main ------------------------------------------------------------------------------------


def _notebooks(args: list[str]) -> list[Path]:
    if not args:
        return sorted((REPO / "notebooks").glob("*.ipynb"))
    paths = [Path(arg).resolve() for arg in args]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise SystemExit(f"browser check: no such notebook: {', '.join(missing)}")
    names = [p.name for p in paths]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise SystemExit(f"browser check: notebook names must be unique: {', '.join(dupes)}")
    return paths


def _check_all(
    browser: Browser, lab: Lab, notebooks: list[Path], args: argparse.Namespace
) -> list[Result]:
    """Check the notebooks in turn, printing each line as it comes."""
    results: list[Result] = []
    lab_page: LabPage | None = None
    try:
        for notebook in notebooks:
            if lab_page is None:
                try:
                    lab_page = LabPage(browser, lab)
                except PlaywrightError as exc:
                    result = Result(notebook.name, [f"JupyterLab did not load: {_first_line(exc)}"])
                    results.append(result)
                    print(result.line(), flush=True)
                    continue
            result = lab_page.check(
                notebook.name,
                expected_outputs(notebook),
                args.screenshots,
                args.timeout,
                static_html=static_html(notebook),
            )
            results.append(result)
            print(result.line(), flush=True)
            if args.verbose:
                for message in result.console_errors:
                    print(f"    console: {message}")
            if any(problem.startswith("browser:") for problem in result.problems):
                lab_page.close()  # start the next notebook on a fresh page
                lab_page = None
    finally:
        if lab_page is not None:
            if lab_page.lab_external:
                result = Result("(JupyterLab itself)", external=lab_page.lab_external)
                results.append(result)
                print(result.line(), flush=True)
            lab_page.close()
    return results


def main(argv: list[str] | None = None) -> int:
    """Run the check; the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="default: notebooks/*.ipynb")
    parser.add_argument("--timeout", type=float, default=NOTEBOOK_TIMEOUT_S,
                        help="seconds allowed per notebook (default %(default)s)")  # fmt: skip
    parser.add_argument("--screenshots", type=Path, default=REPO / "notebooks" / ".browser-check",
                        help="folder for the <name>.png screenshots")  # fmt: skip
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print the page's console errors")  # fmt: skip
    args = parser.parse_args(argv)

    chromium = os.environ.get("BROWSER_CHECK_CHROMIUM", DEFAULT_CHROMIUM)
    if not (os.path.isfile(chromium) and os.access(chromium, os.X_OK)):
        print(
            f"browser check SKIPPED: Chromium not found at {chromium} "
            "(install Debian's chromium package to run it)"
        )
        return 0
    notebooks = _notebooks(args.notebooks)
    if not args.notebooks and args.screenshots.is_dir():
        current = {notebook.stem for notebook in notebooks}
        for stale in args.screenshots.glob("*.png"):  # of notebooks since renamed or removed
            if stale.name.split(".")[0] not in current:
                stale.unlink()
    if not notebooks:
        print("browser check: no notebooks to check")
        return 0

    # A CI cancel sends SIGTERM: exit through the finally blocks, which stop JupyterLab.
    signal.signal(signal.SIGTERM, lambda _sig, _frame: sys.exit(143))
    started = time.monotonic()
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="browser-check-") as scratch_name:
        scratch = Path(scratch_name)
        root = scratch / "notebooks"
        root.mkdir()
        for notebook in notebooks:
            shutil.copy2(notebook, root / notebook.name)
        lab = Lab(root, scratch)
        try:
            try:
                lab.start()
            except RuntimeError as exc:
                print(f"browser check FAILED: {exc}\n{lab.log_tail()}")
                return 1
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=chromium, args=CHROMIUM_ARGS, headless=True
                )
                try:
                    results = _check_all(browser, lab, notebooks, args)
                finally:
                    browser.close()
        finally:
            lab.stop()

    failed = sum(not r.passed for r in results)
    shots = args.screenshots
    shots_shown = shots.relative_to(REPO) if shots.is_relative_to(REPO) else shots
    print(
        f"browser check: {len(results) - failed} passed, {failed} failed "
        f"in {time.monotonic() - started:.1f} s; screenshots in {shots_shown}/"
    )
    return 1 if failed else 0


#: What other checks and the tests use (some of it defined in the modules split from this one).
__all__ = [
    "CHART_METADATA", "CHROMIUM_ARGS", "WIDGET_STATE", "WIDGET_VIEW", "Lab", "LabPage",
    "chart_text_problems", "expected_outputs", "ink_problems", "main",
]  # fmt: skip

if __name__ == "__main__":
    sys.exit(main())
