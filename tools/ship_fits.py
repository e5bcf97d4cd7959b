"""Fit each game's ``fitted`` agent at the rulebook's rules (seed 0) into ``data/fits/<game>/``,
the fits that ship with the workbench so that nothing fits on first use. Entries made the old
way (another fitting version) are removed.

Usage: ``python tools/ship_fits.py [GAME ...]`` (default: every game with a fitted agent).
"""

from __future__ import annotations

import argparse
import time

from workbench import games as registry
from workbench.kit.fits import fit_key, shipped_folder
from workbench.kit.fitting import fitted_parameters


def ship(game: str) -> None:
    """Fit ``game`` at its rulebook's rules into its shipped folder, replacing older entries."""
    module = registry.get(game)
    selfplay, fitting = module.make_agent("fitted", seed=0)._fitting()
    folder = shipped_folder(game)
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    fit = fitted_parameters(selfplay, fitting, module.Rules(), seed=0, folders=[folder])
    kept = folder / (fit_key(game, module.Rules(), version=fit.version, seed=0) + ".json")
    for path in folder.iterdir():
        if path != kept:
            path.unlink()  # older entries and the lock file
    print(f"{game}: {fit.params} ({time.perf_counter() - started:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    args = parser.parse_args()
    games = args.games or [g for g in registry.available() if "fitted" in registry.get(g).AGENTS]
    for game in games:
        ship(game)


if __name__ == "__main__":
    main()
