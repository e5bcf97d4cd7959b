"""What a committed notebook holds, as the browser check expects to see it, and the check's
record of one notebook (``Result``)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browser_scripts import FALLBACK_CLASSES

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: Output metadata key of a chart drawn by ``workbench.charts`` (texts outside the image).
CHART_METADATA = "workbench_chart"
#: Mime types JupyterLab does not render in an untrusted notebook (it shows the next one).
UNSAFE_MIME = re.compile(
    r"^(image/svg\+xml|application/javascript|application/vnd\.vega(lite)?\.v\d+([.+]json)?"
    r"|application/vnd\.jupyter\.widget-view\+json)$"
)


@dataclass
class Expected:
    """What the committed notebook holds: chart images, explorers and outputs a reader cannot
    see before running (saved only in a form Lab shows as text when untrusted)."""

    charts: int = 0
    explorers: int = 0
    hidden: list[str] = field(default_factory=list)
    widget_state: bool = False


@dataclass
class Result:
    """What the check found for one notebook."""

    name: str
    problems: list[str] = field(default_factory=list)
    expected: Expected = field(default_factory=Expected)
    shown: dict[str, str] = field(default_factory=dict)
    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.problems and not self.external

    def line(self) -> str:
        """The one-line report."""
        counts = "; ".join(f"{k} {v}" for k, v in self.shown.items())
        if self.passed:
            return f"PASS {self.name} ({counts}; no external requests; {self.seconds:.1f} s)"
        reasons = list(self.problems)
        if self.external:
            shown = ", ".join(self.external[:3])
            more = f" and {len(self.external) - 3} more" if len(self.external) > 3 else ""
            reasons.append(f"{len(self.external)} external request(s) blocked: {shown}{more}")
        return f"FAIL {self.name} ({self.seconds:.1f} s): " + "; ".join(reasons)


def _is_explorer(data: dict[str, Any]) -> bool:
    """A widget view with a saved copy beside it (an explorer or any ``SavedCopy`` widget)."""
    html = data.get("text/html", "")
    html = "".join(html) if isinstance(html, list) else html
    return WIDGET_VIEW in data and any(name in html for name in FALLBACK_CLASSES)


def expected_outputs(notebook: Path) -> Expected:
    """Count the committed notebook's chart images and explorers, and list the outputs that an
    untrusted or static view cannot show (their only safe form is text)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    expected = Expected(widget_state=WIDGET_STATE in nb.get("metadata", {}).get("widgets", {}))
    for number, cell in enumerate(nb.get("cells", []), start=1):
        if cell.get("cell_type") != "code":
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if _is_explorer(data):
                expected.explorers += 1
            elif "image/png" in data:
                expected.charts += 1
            elif any(UNSAFE_MIME.match(mime) for mime in data):
                safe = [m for m in data if not UNSAFE_MIME.match(m) and m != "text/plain"]
                if not safe:
                    unsafe = ", ".join(sorted(m for m in data if UNSAFE_MIME.match(m)))
                    expected.hidden.append(f"cell {number} ({unsafe})")
    return expected


def chart_text_problems(metadata: dict[str, Any], where: str) -> list[str]:
    """The texts a chart's renderer recorded as placed outside the image."""
    outside = metadata.get(CHART_METADATA, {}).get("text_outside", [])
    if not outside:
        return []
    shown = ", ".join(repr(t) for t in outside[:4])
    more = f" and {len(outside) - 4} more" if len(outside) > 4 else ""
    return [f"{where}: chart text outside the chart: {shown}{more}"]


def ink_problems(images: list[dict[str, Any]], where: str) -> list[str]:
    """Images whose border pixels carry ink: something drawn was cut at the image's edge."""
    cut = [image for image in images if image.get("ink")]
    return [
        f"{where}: chart cut at its {'/'.join(image['ink'])} edge "
        f"({image['width']}x{image['height']} px image)"
        for image in cut
    ]
