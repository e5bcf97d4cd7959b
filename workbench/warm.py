"""Compile every game's numba kernels once, into numba's on-disk cache, so that the first call in
a later process loads them (a second or two) instead of compiling them (up to a minute
for a game). ``make setup`` runs it after installing: ``python -m workbench.warm``.

Each game plays two seeded games with every agent it has, in every seat, building every frame
it offers: the paths the notebooks, the tests and the designer's bench take. Nothing is kept
but numba's cache (beside each compiled module, in ``__pycache__``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable

from workbench import games as registry


def warm(games: Iterable[str] | None = None, *, quiet: bool = False) -> dict[str, float]:
    """Play every agent of each game (default: all) twice at the rulebook's rules; the seconds
    each game took (compiling, or loading what is cached)."""
    seconds = {}
    for game in registry.available() if games is None else games:
        record = registry.get(game)
        frames = dict.fromkeys(record.selfplay.extra_frames, True)
        started = time.perf_counter()
        for name in record.agents:
            record.simulate(record.Rules(), name, games=2, seed=0, progress=False, **frames)
        seconds[game] = time.perf_counter() - started
        if not quiet:
            print(f"{game}: compiled or loaded in {seconds[game]:.1f} s", file=sys.stderr)
    return seconds


if __name__ == "__main__":
    warm(sys.argv[1:] or None)
