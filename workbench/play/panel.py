"""The optional per-game panel beside the table.

A game may ship ``workbench/games/<id>/panel.py`` with ``make_panel(session, **options)``
returning a ``Panel``; the table finds it by that name, so the generic table needs no edit
when a game adds one. A panel reads ``session.observation()`` (what the seat knows) while the
game is on, and the full record only once it is over.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from types import ModuleType
from typing import Any

import ipywidgets as widgets


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


def find_panel(module: ModuleType) -> Callable[..., Panel] | None:
    """The game's ``make_panel`` from ``<game module>.panel``, or None when it has none."""
    name = f"{module.__name__}.panel"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # the game module is not a package
        return None
    if found is None:
        return None
    return getattr(importlib.import_module(name), "make_panel", None)
