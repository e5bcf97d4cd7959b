"""The table's review view (after the game) and hint (during it), built on ``workbench.reviews``.

``ReviewView``: a "review the game" button; once clicked (or ``run()`` from code) every seat's
win chance through the game as a chart and the seat's decisions with their loss, interval and
label, as ``workbench.review`` finds them (``docs/review.md``). ``HintView``: a checkbox, off by
default; while it is on, each decision of the seat shows the search's evaluation of every
action it may take (win chance and loss against the best, each with its 95% interval), from
what the seat can see. Both compute in the kernel and draw HTML (the chart a live view).
"""

from __future__ import annotations

import time
from typing import Any

import ipywidgets as widgets
import polars as pl

from workbench.panels import escape

_CELL = "padding:1px 6px;text-align:right;white-space:nowrap"
_LEFT = "padding:1px 6px;text-align:left"


def _interval(value: float | None, low: float | None, high: float | None) -> str:
    if value is None:
        return "–"
    return (f"{value:.3f} <span style='color:#666'>[{low:.3f}, {high:.3f}]</span>")  # fmt: skip


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _label_text(label: str | None, label_high: str | None) -> str:
    """ "good" or "good – mistake" (the mildest and harshest labels the interval allows)."""
    if label is None:
        return "unrated"
    return label if label == label_high else f"{label} – {label_high}"


def decisions_html(decisions: pl.DataFrame) -> str:
    """The review's decisions as a compact HTML table (class ``wb-review-decisions``)."""
    from workbench.reviews.charts import LABEL_COLOURS

    head = "".join(
        f"<th style='{_CELL}'>{name}</th>"
        for name in (
            "#",
            "round",
            "you played",
            "best found",
            "win chance",
            "loss [95%]",
            "label",
            "what you knew",
        )
    )
    rows = ""
    for r in decisions.iter_rows(named=True):
        colour = LABEL_COLOURS.get(r["label"] or "", "#eee")
        rows += (
            f"<tr><td style='{_CELL}'>{r['decision']}</td>"
            f"<td style='{_CELL}'>{'' if r['round'] is None else r['round']}</td>"
            f"<td style='{_LEFT};white-space:nowrap'>{escape(r['action'])}</td>"
            f"<td style='{_LEFT};white-space:nowrap'>{escape(r['best_action'])}</td>"
            f"<td style='{_CELL}'>{_number(r['win_chance'])}</td>"
            f"<td style='{_CELL}'>{_interval(r['loss'], r['low'], r['high'])}</td>"
            f"<td style='{_LEFT};background:{colour}'>"
            f"{escape(_label_text(r['label'], r['label_high']))}</td>"
            f"<td style='{_LEFT};font-size:85%;min-width:24em;white-space:normal'>"
            f"{escape(r['knew'])}</td></tr>"
        )
    return (
        "<div style='max-height:30em;overflow:auto'><table class='wb-review-decisions' "
        f"style='border-collapse:collapse;font-size:90%'><tr>{head}</tr>{rows}</table></div>"
    )


class ReviewView(widgets.VBox):
    """The review of a finished table game (module docstring). ``review`` holds the
    ``workbench.reviews.Review`` once run; ``seconds`` how long it took."""

    def __init__(self, session: Any, *, budget: int | None = None) -> None:
        from workbench.reviews.core import checked_budget

        self.session = session
        self.budget = None if budget is None else checked_budget(session.game, budget)
        self.review: Any = None
        self.seconds: float | None = None
        self.error: str | None = None
        self.button = widgets.Button(description="review the game", icon="search")
        self.button.add_class("wb-review-run")
        self.button.on_click(lambda _b: self._clicked())
        self.status = widgets.HTML()
        self.status.add_class("wb-review-status")
        self.chart_box = widgets.VBox()
        self.chart_box.add_class("wb-review-chart")
        self.table_view = widgets.HTML()
        self.table_view.add_class("wb-review-table")
        super().__init__([self.button, self.status, self.chart_box, self.table_view])
        self.add_class("wb-review")
        self.update(session)

    def update(self, session: Any) -> None:
        """Offer the review once the game is over (hidden while it is on)."""
        from workbench.reviews.core import default_budget

        self.session = session
        self.layout.display = None if session.is_over else "none"
        if session.is_over and self.review is None:
            budget = self.budget if self.budget is not None else default_budget(session.game)
            self.status.value = (
                "Score every one of your decisions by the win chance it gave up "
                f"({budget} playouts per action; <code>docs/review.md</code>)."
            )

    def _clicked(self) -> None:
        if self.button.disabled:
            return
        try:
            self.run()
        except (ValueError, TypeError) as exc:
            self.error = str(exc)
            self.status.value = f"<span style='color:#b00'>{escape(exc)}</span>"

    def run(self) -> Any:
        """Review the game now (the button's work) and draw it; returns the Review."""
        from workbench.reviews.core import review_details

        if not self.session.is_over:
            raise ValueError("the review is made once the game is over")
        self.button.disabled = True
        started = time.perf_counter()

        def progress(done: int, total: int) -> None:
            self.status.value = f"<i>working…</i> reviewing decision {done} of {total}"

        try:
            self.review = review_details(self.session, budget=self.budget, progress=progress)
        finally:
            self.button.disabled = False
        self.seconds = time.perf_counter() - started
        self._draw()
        return self.review

    def _draw(self) -> None:
        from workbench.charts import ChartView
        from workbench.reviews.charts import loss_chart, track_chart
        from workbench.reviews.labels import LABELS, thresholds_text
        from workbench.reviews.summary import total_loss

        review = self.review
        counts = dict(review.decisions["label"].value_counts().iter_rows())
        labelled = [label for label in (*LABELS, None) if label in counts]
        parts = [f"{counts[label]} {label or 'unrated'}" for label in labelled]
        summary = ", ".join(parts) or "no decisions"
        lost, low, high = total_loss(review.decisions)
        self.status.value = (
            f"<b>Review</b> of seat {review.seat}: {review.decisions.height} decisions "
            f"({escape(summary)}); win chance lost in all {lost:.3f} [{low:.3f}, {high:.3f}] "
            f"({review.budget} playouts per action, {self.seconds:.1f} s). Labels by the "
            f"interval's low end ({escape(thresholds_text())}); 'good – mistake': the "
            "interval allows either. Judged by the search's model: hidden cards uniform over "
            "what you saw, every seat then playing the fitted policy."
        )
        charts = [
            track_chart(review.track, title="Win chance through the game"),
            loss_chart(review.decisions, title=f"What each decision of seat {review.seat} cost"),
        ]
        self.chart_box.children = [ChartView(chart.to_dict()) for chart in charts]
        self.table_view.value = decisions_html(review.decisions)


class HintView(widgets.VBox):
    """The hint (module docstring): off until its checkbox is ticked. ``frame`` holds the
    evaluation shown (None when off or not the seat's turn); ``seconds`` how long it took."""

    def __init__(self, session: Any, *, enabled: bool = False, budget: int | None = None) -> None:
        self.session = session
        self.budget = budget
        self.frame: pl.DataFrame | None = None
        self.seconds: float | None = None
        self._cache: dict[int, tuple[pl.DataFrame, float]] = {}
        self.toggle = widgets.Checkbox(
            value=bool(enabled), description="hint: the search's evaluation of each action",
            indent=False, layout=widgets.Layout(width="auto"),
        )  # fmt: skip
        self.toggle.add_class("wb-hint-toggle")
        self.view = widgets.HTML()
        self.view.add_class("wb-hint-view")
        self.toggle.observe(lambda _change: self.update(self.session), names="value")
        super().__init__([self.toggle, self.view])
        self.add_class("wb-hint")
        self.update(session)

    def update(self, session: Any) -> None:
        """Evaluate the seat's decision now (once per decision) when the hint is on."""
        from workbench.reviews.hint import hint

        self.session = session
        self.frame = None
        if not self.toggle.value:
            self.view.value = ""
            return
        if session.is_over or not session.my_turn:
            self.view.value = "<i>the hint shows at your decisions</i>"
            return
        if session.step not in self._cache:
            self.view.value = "<i>working…</i> evaluating your actions"  # not the last decision's
            started = time.perf_counter()
            frame = hint(session.game, session.state, budget=self.budget, seed=session.seed,
                         step=session.step)  # fmt: skip
            self._cache[session.step] = (frame, time.perf_counter() - started)
        self.frame, self.seconds = self._cache[session.step]
        self.view.value = hint_html(self.frame, self.seconds)


def hint_html(frame: pl.DataFrame, seconds: float | None = None) -> str:
    """A hint frame as a compact HTML table (class ``wb-hint-table``), best first."""
    rows = ""
    for r in frame.iter_rows(named=True):
        width = max(0, min(80, round(r["win_chance"] * 80)))
        bar = (f"<span style='display:inline-block;width:{width}px;height:9px;"
               "background:#4c78a8'></span>")  # fmt: skip
        mark = " ★" if r["best"] else ""
        rows += (
            f"<tr><td style='{_LEFT}'>{escape(r['action'])}{mark}</td>"
            f"<td style='{_CELL}'>{_interval(r['win_chance'], r['low'], r['high'])}</td>"
            f"<td style='{_LEFT}'>{bar}</td>"
            f"<td style='{_CELL}'>{_interval(r['loss'], r['loss_low'], r['loss_high'])}</td></tr>"
        )
    n = frame["n"][0] if frame.height else 0
    took = "" if seconds is None else f", {seconds:.1f} s"
    head = (f"<tr><th style='{_LEFT}'>action</th><th style='{_CELL}'>win chance [95%]</th>"
            f"<th></th><th style='{_CELL}'>loss vs best [95%]</th></tr>")  # fmt: skip
    return (
        f"<div style='color:#666'>{n} playouts per action, from what you can see; ★ the best "
        f"on these playouts{took}</div><table class='wb-hint-table' "
        f"style='border-collapse:collapse;font-size:90%'>{head}{rows}</table>"
    )


__all__ = ["HintView", "ReviewView", "decisions_html", "hint_html"]
