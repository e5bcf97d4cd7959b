"""What a game's panel for the play-along table is built from: the ``Panel`` base and ``escape``.

A game offers a panel by exporting ``make_panel(session, **options) -> Panel`` from its module
(loaded lazily, as charts and widgets are: the game's ``panel.py``); the table
(``workbench.play``) looks for that name and plays without a panel when the game has none.
This module sits below the games, so a game's panel never imports the table. A panel reads
``session.observation()`` (what the seat knows) while the game is on, and the full record only
once it is over.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

#: Styles of a panel table's cells: numbers right-aligned, labels left-aligned.
CELL = "padding:1px 6px;text-align:right"
LEFT = "padding:1px 6px;text-align:left"


def escape(text: object) -> str:
    """Text made safe for HTML."""
    return html.escape(str(text), quote=True)


def section(title: str, body: str) -> str:
    """A titled part of a panel (``body`` is HTML, ``title`` plain text)."""
    return f"<div style='margin-top:6px'><b>{escape(title)}</b><div>{body}</div></div>"


class Panel(widgets.VBox):
    """Base of a game's panel: ``update(session)`` redraws it after every event; ``label`` and
    ``describe`` let it word the table's controls and observation for its game."""

    def update(self, session: Any) -> None:
        """Recompute and redraw from the session (what the seat knows, or the full record
        once the game is over)."""
        raise NotImplementedError

    def label(self, group: str | None, field: str | None, value: Any) -> str | None:
        """How a control shows ``value`` of ``field`` in actions of type ``group`` (None: the
        table's plain text)."""
        return None

    def describe(self, observation: Any) -> str | None:
        """An HTML summary of the observation for this game, shown above its fields."""
        return None

    def prompt(self, observation: Any) -> str | None:
        """What the seat is asked to choose, in the game's words (None: 'Your move')."""
        return None


__all__ = ["CELL", "LEFT", "Panel", "escape", "section"]
