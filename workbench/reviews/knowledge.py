"""What a seat knew at a decision, in a short text for a review's row.

Game-agnostic: the lines of the game's log that the seat saw since its previous reviewed
decision (``State.log_for(seat)``: its own private lines and everything public), the latest
``MAX_LINES`` of them. Game-specific only through one small optional hook: a function
``knowledge(observation) -> str | None`` in the module of the game's panel (the record's
``panel``, ``"module:function"``), which puts first what the log does not repeat (a hand by
suit, the trump known so far, the Bucks each seat may bid).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

#: Log lines kept per decision (the latest); earlier ones are counted.
MAX_LINES = 6
#: Separator between the parts of the text.
SEPARATOR = " | "


def knowledge_hook(game: Any) -> Callable[[Any], str | None] | None:
    """The game's ``knowledge(observation)`` hook (in its panel's module), or None."""
    if getattr(game, "panel", None) is None:
        return None
    module = importlib.import_module(game.panel.split(":")[0])
    hook = getattr(module, "knowledge", None)
    return hook if callable(hook) else None


class Knowledge:
    """The knowledge texts of one seat through one game, decision after decision (each text
    covers what the seat saw since the previous call)."""

    def __init__(self, game: Any, seat: int) -> None:
        self.seat = seat
        self.hook = knowledge_hook(game)
        self._seen = 0

    def text(self, state: Any) -> str:
        """What the seat knew at ``state`` (its decision): the hook's summary, then the log
        lines it saw since the previous decision."""
        lines = [str(line) for line in state.log_for(self.seat)]
        new = lines[self._seen :]
        self._seen = len(lines)
        parts = []
        if self.hook is not None:
            summary = self.hook(state.observation(self.seat))
            if summary:
                parts.append(summary)
        if len(new) > MAX_LINES:
            parts.append(f"({len(new) - MAX_LINES} earlier lines)")
            new = new[-MAX_LINES:]
        parts += new
        if parts:
            return SEPARATOR.join(parts)
        return "nothing in the log yet" if not lines else "nothing new since the last decision"


__all__ = ["MAX_LINES", "Knowledge", "knowledge_hook"]
