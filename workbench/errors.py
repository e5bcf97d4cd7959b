"""The error every engine raises for an illegal move."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class IllegalAction(ValueError):
    """An action the rules do not allow in this state; the state is left unchanged.

    ``action`` is what was tried, ``legal`` what the rules allowed instead (possibly empty when
    nothing may be done, e.g. the game is over).
    """

    def __init__(self, action: Any, reason: str, legal: Iterable[Any] = ()) -> None:
        self.action = action
        self.reason = reason
        self.legal = tuple(legal)
        shown = ", ".join(repr(a) for a in self.legal[:12])
        if len(self.legal) > 12:
            shown += f", ... ({len(self.legal)} in all)"
        message = f"illegal action {action!r}: {reason}"
        message += f"; legal: {shown}" if self.legal else "; no action is legal here"
        super().__init__(message)
