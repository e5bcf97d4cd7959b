"""Browser check: run every notebook in JupyterLab inside headless Chromium and look at the result.

For each notebook (default ``notebooks/*.ipynb``; copies in a temporary folder, so Lab's autosave
never touches the committed files) it opens the notebook, runs all cells, waits until they have
finished, and checks what a reader would see:

- no cell produced an error (nor a traceback inside a widget's output area);
- every chart the committed outputs hold (SVG outputs, vega/vega-lite outputs, altair HTML
  embeds, charts inside widget Output areas) rendered as a non-empty <svg>/<img>/<canvas>;
- the page made no request beyond this machine (such requests are recorded and aborted).

A full-page screenshot of each notebook goes to ``notebooks/.browser-check/<name>.png``.
One PASS/FAIL line per notebook; the exit status is non-zero when any notebook fails.
When Chromium is missing the check is skipped (exit 0): ``.ci/run`` installs it in CI.

Usage: ``python tools/browser_check.py [--timeout S] [--screenshots DIR] [NOTEBOOK ...]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route, WebSocketRoute, sync_playwright
from playwright.sync_api import Error as PlaywrightError

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
LAB_START_TIMEOUT_S = 90.0
NOTEBOOK_TIMEOUT_S = 180.0
#: After the cells finish, how long charts (e.g. inside widgets) may take to appear.
RENDER_TIMEOUT_S = 10.0
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
CHART_MIME = re.compile(r"^(image/svg\+xml|application/vnd\.vega(lite)?\.v\d+([.+]json)?)$")
HTML_CHART = re.compile(r"vegaEmbed\(|id=\"altair-viz-")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

# --- JavaScript run in the page (needs Lab started with expose_app_in_browser) --------------

BOOT_JS = """async () => {
  const app = window.jupyterapp;
  await app.restored;
  for (const w of Array.from(app.shell.widgets('main'))) w.dispose();  // the Launcher
  app.shell.collapseLeft();
  app.shell.collapseRight();
}"""

OPEN_JS = """async (path) => {
  const app = window.jupyterapp;
  window.__bcRun = null;
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  window.__bcPanel = panel;
  window.__bcKernelLost = null;
  panel.sessionContext.statusChanged.connect((_, status) => {
    if (['autorestarting', 'restarting', 'dead'].includes(status)) window.__bcKernelLost = status;
  });
  app.shell.activateById(panel.id);
}"""

CLOSE_JS = """() => {
  const panel = window.__bcPanel;
  window.__bcPanel = null;
  if (panel) panel.sessionContext.shutdown().catch(() => {}).finally(() => panel.dispose());
}"""

STATE_JS = """() => {
  const p = window.__bcPanel;
  const kernel = p.sessionContext.session ? p.sessionContext.session.kernel : null;
  const running = Array.from(p.content.node.querySelectorAll('.jp-InputPrompt'))
    .filter((el) => el.textContent.includes('[*]')).length;
  return {
    ready: p.context.isReady && p.sessionContext.isReady,
    status: kernel ? kernel.status : 'none',
    dialog: document.querySelector('.jp-Dialog .jp-Dialog-button.jp-mod-accept') !== null,
    run: window.__bcRun || null,
    kernelLost: window.__bcKernelLost || null,
    running,
  };
}"""

RUN_ALL_JS = """() => {
  const app = window.jupyterapp;
  app.shell.activateById(window.__bcPanel.id);
  window.__bcRun = {done: false};
  app.commands.execute('notebook:run-all-cells').then(
    (ok) => { window.__bcRun = {done: true, ok: ok !== false}; },
    (err) => { window.__bcRun = {done: true, ok: false, error: String(err)}; });
}"""

CELLS_JS = """() => {
  const p = window.__bcPanel;
  const cells = p.content.model.cells;
  const errors = [], notRun = [], widgetTracebacks = [];
  const chartMime = new RegExp(CHART_MIME);
  const htmlChart = new RegExp(HTML_CHART);
  let charts = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    for (const o of c.outputs.toJSON()) {
      if (o.output_type === 'error') errors.push({cell: i + 1, ename: o.ename, evalue: o.evalue});
      const data = o.data || {};
      const html = [].concat(data['text/html'] || []).join('');
      if (Object.keys(data).some((m) => chartMime.test(m)) || htmlChart.test(html)) charts += 1;
    }
    if (c.executionCount === null && c.sharedModel.getSource().trim()) notRun.push(i + 1);
  }
  const sel = '.jupyter-widgets .jp-OutputArea-output'
    + '[data-mime-type="application/vnd.jupyter.stderr"]';
  p.content.node.querySelectorAll('.jp-Cell').forEach((node, i) => {
    for (const o of node.querySelectorAll(sel)) {
      if (o.textContent.includes('Traceback')) { widgetTracebacks.push(i + 1); break; }
    }
  });
  return {errors, notRun, widgetTracebacks, charts};
}""".replace("CHART_MIME", json.dumps(CHART_MIME.pattern)).replace(
    "HTML_CHART", json.dumps(HTML_CHART.pattern)
)

CHARTS_JS = """() => {
  const root = window.__bcPanel.content.node;
  const sel = '.jp-RenderedSVG, .jp-RenderedVegaCommon5, .vega-embed, [id^="altair-viz-"]';
  const all = Array.from(root.querySelectorAll(sel));
  const holders = all.filter((el) => !all.some((o) => o !== el && o.contains(el)));
  const big = (el) => {
    const r = el.getBoundingClientRect();
    return r.width >= 10 && r.height >= 10;
  };
  const svgOk = (svg) => svg.childElementCount > 0 && big(svg)
    && !svg.closest('details, summary, .vega-actions');
  const imgOk = (img) => {
    if (!img.complete || img.naturalWidth === 0 || !big(img)) return false;
    const src = img.getAttribute('src') || '';
    if (!src.startsWith('data:image/svg+xml')) return true;
    try {
      const comma = src.indexOf(',');
      const body = src.slice(comma + 1);
      const base64 = src.slice(0, comma).endsWith(';base64');
      const text = base64 ? atob(body) : decodeURIComponent(body);
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return doc.documentElement.nodeName === 'svg' && !doc.querySelector('parsererror')
        && doc.documentElement.childElementCount > 0;
    } catch (e) {
      return false;
    }
  };
  const canvasOk = (c) => c.width > 0 && c.height > 0 && big(c);
  const ok = (h) => Array.from(h.querySelectorAll('svg')).some(svgOk)
    || Array.from(h.querySelectorAll('img')).some(imgOk)
    || Array.from(h.querySelectorAll('canvas')).some(canvasOk);
  return {found: holders.length, rendered: holders.filter(ok).length};
}"""

PREPARE_SCREENSHOT_JS = """() => {
  const n = window.__bcPanel.content.node;
  const scroller = n.querySelector('.jp-WindowedPanel-outer') || n;
  return scroller.scrollHeight + (window.innerHeight - scroller.clientHeight);
}"""

#: JupyterLab user settings for the check: no news toast over the screenshots, every cell kept
#: in the DOM (Lab's windowing would detach cells scrolled out of view), no blank space below.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
        "windowingMode": "none",
        "scrollPastEnd": False,
    },
}


@dataclass
class Result:
    """What the check found for one notebook."""

    name: str
    problems: list[str] = field(default_factory=list)
    charts_expected: int = 0
    charts_found: int = 0
    charts_rendered: int = 0
    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.problems and not self.external and self.charts_ok

    @property
    def charts_ok(self) -> bool:
        return (
            self.charts_rendered >= self.charts_expected
            and self.charts_rendered == self.charts_found
        )

    def line(self) -> str:
        """The one-line report."""
        charts = f"charts expected {self.charts_expected}, rendered {self.charts_rendered}"
        if self.charts_found != self.charts_rendered:
            charts += f" of {self.charts_found} in the page"
        if self.passed:
            return f"PASS {self.name} ({charts}; no external requests; {self.seconds:.1f} s)"
        reasons = list(self.problems)
        if not self.charts_ok:
            reasons.append(charts)
        if self.external:
            shown = ", ".join(self.external[:3])
            more = f" and {len(self.external) - 3} more" if len(self.external) > 3 else ""
            reasons.append(f"{len(self.external)} external request(s) blocked: {shown}{more}")
        return f"FAIL {self.name} ({self.seconds:.1f} s): " + "; ".join(reasons)


# --- expected charts, from the notebook file -------------------------------------------------


def _bundle_has_chart(data: dict[str, Any]) -> bool:
    if any(CHART_MIME.match(mime) for mime in data):
        return True
    html = data.get("text/html", "")
    html = "".join(html) if isinstance(html, list) else html
    return bool(HTML_CHART.search(html))


def _widget_charts(model_id: str, state: dict[str, Any], seen: set[str]) -> int:
    """Charts inside a widget tree: Output widgets' captured outputs, JupyterChart specs."""
    if model_id in seen or model_id not in state:
        return 0
    seen.add(model_id)
    model = state[model_id]
    values = model.get("state", {})
    count = 0
    if model.get("model_name") == "OutputModel":
        count += sum(_output_charts(o, state, seen) for o in values.get("outputs", []))
    elif "spec" in values and "_esm" in values:  # altair's "jupyter" renderer (anywidget)
        count += 1
    for ref in _model_refs(values):
        count += _widget_charts(ref, state, seen)
    return count


def _model_refs(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value.startswith("IPY_MODEL_"):
            yield value.removeprefix("IPY_MODEL_")
    elif isinstance(value, list):
        for item in value:
            yield from _model_refs(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _model_refs(item)


def _output_charts(output: dict[str, Any], state: dict[str, Any], seen: set[str]) -> int:
    data = output.get("data", {})
    if _bundle_has_chart(data):
        return 1
    view = data.get(WIDGET_VIEW)
    if isinstance(view, dict) and "model_id" in view:
        return _widget_charts(view["model_id"], state, seen)
    return 0


def expected_charts(notebook: Path) -> int:
    """How many charts the notebook's saved outputs hold (widget state included)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    state = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    seen: set[str] = set()
    return sum(
        _output_charts(output, state, seen)
        for cell in nb.get("cells", [])
        if cell.get("cell_type") == "code"
        for output in cell.get("outputs", [])
    )


# --- JupyterLab ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Lab:
    """A headless JupyterLab on a free local port with a random token, in its own process group."""

    def __init__(self, root: Path, scratch: Path) -> None:
        self.root = root
        self.port = _free_port()
        self.token = secrets.token_hex(24)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = scratch / "lab.log"
        settings = scratch / "lab-settings"
        for name, values in LAB_SETTINGS.items():
            path = settings / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")
        self.env = {
            **os.environ,
            "JUPYTERLAB_SETTINGS_DIR": str(settings),
            "JUPYTERLAB_WORKSPACES_DIR": str(scratch / "lab-workspaces"),
            "JUPYTER_CONFIG_DIR": str(scratch / "jupyter-config"),
            "JUPYTER_RUNTIME_DIR": str(scratch / "jupyter-runtime"),
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        """The JupyterLab command line."""
        cmd = [
            sys.executable, "-m", "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root}",
            f"--IdentityProvider.token={self.token}",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]  # fmt: skip
        if os.geteuid() == 0:
            cmd.append("--allow-root")
        return cmd

    def start(self) -> None:
        """Start JupyterLab and wait until its API answers with our token."""
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                self.command(),
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + LAB_START_TIMEOUT_S
        status = f"{self.url}/api/status?token={self.token}"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with status {self.proc.returncode}")
            try:
                with urllib.request.urlopen(status, timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"JupyterLab did not answer within {LAB_START_TIMEOUT_S:.0f} s")

    def log_tail(self, lines: int = 20) -> str:
        """The end of JupyterLab's log, for error messages."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        """Stop JupyterLab (it shuts its kernels down), killing the group if it lingers."""
        if self.proc is None or self.proc.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue


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

    def check(self, name: str, expected: int, shot: Path, timeout: float) -> Result:
        """Open ``name`` (in Lab's root), run all cells, check errors, charts and requests."""
        result = Result(name=name, charts_expected=expected)
        self.external = result.external
        self.console_errors = result.console_errors
        start = time.monotonic()
        deadline = start + timeout
        page = self.page
        try:
            page.evaluate(OPEN_JS, name)
            problem = _wait_kernel_idle(page, deadline)
            if problem is None:
                page.evaluate(RUN_ALL_JS)
                problem = _wait_cells_done(page, deadline)
            if problem is not None:
                result.problems.append(problem)
            cells = page.evaluate(CELLS_JS)
            # Charts the re-run produced count too (e.g. a mime type nbformat could not save).
            result.charts_expected = max(expected, cells["charts"])
            for error in cells["errors"]:
                evalue = str(error["evalue"])[:120]
                result.problems.append(f"cell {error['cell']} raised {error['ename']}: {evalue}")
            if cells["widgetTracebacks"]:
                listed = ", ".join(map(str, cells["widgetTracebacks"]))
                result.problems.append(f"traceback inside a widget's output (cell {listed})")
            if cells["notRun"] and problem is None:
                result.problems.append(f"cells not run: {', '.join(map(str, cells['notRun']))}")
            # Charts may appear after the cells finish (widget views render asynchronously).
            render_deadline = min(deadline, time.monotonic() + RENDER_TIMEOUT_S)
            while True:
                charts = page.evaluate(CHARTS_JS)
                result.charts_found, result.charts_rendered = charts["found"], charts["rendered"]
                if result.charts_ok or time.monotonic() >= render_deadline:
                    break
                time.sleep(0.2)
        except PlaywrightError as exc:
            result.problems.append(f"browser: {_first_line(exc)}")
        finally:
            try:
                _screenshot(page, shot)
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
    height = int(page.evaluate(PREPARE_SCREENSHOT_JS))
    size = {
        "width": VIEWPORT["width"],
        "height": min(MAX_SCREENSHOT_HEIGHT, max(VIEWPORT["height"], height + 8)),
    }
    page.set_viewport_size(size)  # type: ignore[arg-type]
    page.wait_for_timeout(300)  # let Lab lay out for the new size
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(VIEWPORT)  # type: ignore[arg-type]


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
            shot = args.screenshots / f"{notebook.stem}.png"
            result = lab_page.check(notebook.name, expected_charts(notebook), shot, args.timeout)
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
            if stale.stem not in current:
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


if __name__ == "__main__":
    sys.exit(main())
