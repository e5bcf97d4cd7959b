"""Observations, results and logs as HTML, generically: any dataclass or NamedTuple the
contract allows is drawn field by field. A game's panel may add its own summary on top."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from workbench.checks import is_whole_number
from workbench.panels import escape
from workbench.sessions.actions import is_record

#: Sequences longer than this (or records lists) fold into a <details> element.
FOLD_AFTER = 8
#: Fields never drawn: the rules are the table's header, not part of the position.
HIDDEN_FIELDS = ("rules",)

_CELL = "padding:0 8px;vertical-align:top;text-align:left;line-height:1.35"


def _has_own_str(value: object) -> bool:
    return type(value).__str__ not in (tuple.__str__, object.__str__)


def _fields(value: object) -> list[tuple[str, Any]]:
    if is_record(value):
        return list(value._asdict().items())
    return [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]


def _is_structured(value: object) -> bool:
    return is_record(value) or (dataclasses.is_dataclass(value) and not isinstance(value, type))


def value_html(value: Any) -> str:
    """One value, readably: None as a dash, records as 'field value' pairs, long sequences
    folded."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_whole_number(value) or isinstance(value, str):
        return escape(value)
    if isinstance(value, float):
        return escape(f"{value:g}")
    if _is_structured(value):
        if _has_own_str(value):
            return escape(str(value))
        inner = "; ".join(f"{escape(name)} {value_html(v)}" for name, v in _fields(value))
        return f"{escape(type(value).__name__)}({inner})"
    if isinstance(value, Sequence):
        if not value:
            return "none"
        items = [value_html(v) for v in value]
        if any(_is_structured(v) for v in value) or len(value) > FOLD_AFTER:
            rows = "".join(f"<li>{item}</li>" for item in items)
            noun = "entry" if len(value) == 1 else "entries"
            return (
                f"<details><summary>{len(value)} {noun}</summary>"
                f"<ol start='0' style='margin:0;padding-left:2em'>{rows}</ol></details>"
            )
        return "(" + ", ".join(items) + ")"
    return escape(repr(value))


def observation_html(observation: Any, *, title: str = "What you see") -> str:
    """Every field of an observation dataclass (``rules`` left out) as a two-column table."""
    if not dataclasses.is_dataclass(observation):
        return f"<b>{escape(title)}</b><div>{value_html(observation)}</div>"
    rows = "".join(
        f"<tr><th style='{_CELL}'>{escape(name.replace('_', ' '))}</th>"
        f"<td style='{_CELL}'>{value_html(value)}</td></tr>"
        for name, value in _fields(observation)
        if name not in HIDDEN_FIELDS
    )
    return f"<b>{escape(title)}</b><table style='border-collapse:collapse'>{rows}</table>"


def result_html(result: Any, players: int, labels: Sequence[str]) -> str:
    """Final standings: one row per seat with every per-seat field of the result."""
    fields = [
        (name, value)
        for name, value in _fields(result)
        if name != "winners" and isinstance(value, Sequence) and len(value) == players
    ]
    head = "".join(f"<th style='{_CELL}'>{escape(n.replace('_', ' '))}</th>" for n, _ in fields)
    body = ""
    for seat in range(players):
        cells = "".join(f"<td style='{_CELL}'>{value_html(v[seat])}</td>" for _, v in fields)
        body += f"<tr><th style='{_CELL}'>seat {seat} ({escape(labels[seat])})</th>{cells}</tr>"
    winners = getattr(result, "winners", ())
    won = ", ".join(f"seat {s} ({escape(labels[s])})" for s in winners) or "nobody"
    return (
        f"<b>Game over.</b> Winner(s): {won}."
        f"<table style='border-collapse:collapse'><tr><th></th>{head}</tr>{body}</table>"
    )


def log_html(lines: Sequence[str], *, title: str, height: str = "14em") -> str:
    """Log lines in a scrolling box, oldest first."""
    body = "".join(f"<div>{escape(line)}</div>" for line in lines) or "(nothing yet)"
    # column-reverse keeps the box scrolled to its newest (last) line
    return (
        f"<b>{escape(title)}</b><div style='max-height:{height};overflow-y:auto;"
        "display:flex;flex-direction:column-reverse;font-family:monospace;font-size:90%;"
        f"line-height:1.35;border:1px solid #ddd;padding:4px'><div>{body}</div></div>"
    )
