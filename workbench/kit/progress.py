"""Progress bars for long runs: tqdm's notebook-aware bar when shown, a silent stand-in when
not (tqdm is imported only when a bar is shown, so batch runs start without it)."""

from __future__ import annotations

from typing import Any


class _NoProgress:
    def update(self, _n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, *, enabled: bool, description: str, unit: str = "game") -> Any:
    """A bar over ``total`` units (``update(n)``, ``close()``), or a silent one when disabled."""
    if not enabled:
        return _NoProgress()
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=unit, desc=description, leave=False)
