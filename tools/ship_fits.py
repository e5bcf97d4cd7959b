"""Fit each game's ``fitted`` agent at the rulebook's rules (seed 0), and at the rule sets the
notebooks play (``SHIPPED_RULES``), into ``data/fits/<game>/``: the fits that ship with the
workbench, so that nothing fits on first use and the notebooks re-run in under a minute.
Entries made another way (an older fitting version, a rule set no longer listed) are removed.

Usage: ``python tools/ship_fits.py [GAME ...]`` (default: every game with a fitted agent).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from workbench import games as registry
from workbench.kit.fits import fit_key, shipped_folder
from workbench.kit.fitting import fitted_parameters

#: Rule changes (from the rulebook's) that ship a fit too, per game: those the notebooks play
#: with a fitted line-up, and the shared budget auction's 3 and 4 teams (at 4 its target's table;
#: at 2 and 3 teams, up to 25 credits, fitted teams play an exact equilibrium instead and the fit
#: is what ``fit(rules)`` returns).
SHIPPED_RULES: dict[str, list[dict[str, object]]] = {
    # notebook 08: its tuned setting; notebook 04: fitted players under the house rule
    "auction_house": [{"deals": 9}, {"trump_reveal": "before_auction"}],
    # notebook 08: its tuned starting Bucks and collection value chart
    "going_gone": [{"starting_bucks": 15}, {"collection_values": (3, 6, 9, 12, 15, 18, 21)},
                   {"first_auctioneer": "random"}],  # notebook 03: fitted, random first Auctioneer
    "rubbish": [
        {"destined_bonus": 45},
        {"starting_auctioneer": "random"},  # notebook 02: fitted players, random first auctioneer
        {"destined_bonus": 0}, {"destined_bonus": 15},  # notebook 06: its bonus sweep
        # notebook 08: its tuning grid of destined bonus x starting fame
        *({"destined_bonus": bonus, "starting_fame": fame}
          for bonus in (30, 45, 60) for fame in (20, 30, 40)
          if (bonus, fame) not in ((30, 30), (45, 30))),
    ],
    "shared_budget": [
        {"teams": 3},
        {"teams": 4},
        # notebook 08: its tuning grid of team count x budget
        *({"teams": teams, "budget": budget}
          for teams in (2, 3, 4) for budget in (10, 15, 25)),
    ],
}  # fmt: skip


def ship(game: str) -> None:
    """Fit ``game`` at the rulebook's rules and its notebooks' rule sets into its shipped
    folder, removing every other entry."""
    module = registry.get(game)
    fitted = module.agents["fitted"]
    selfplay, fitting = fitted.selfplay, fitted.fitting
    folder = shipped_folder(game)
    folder.mkdir(parents=True, exist_ok=True)
    kept = set()
    for changes in [{}, *SHIPPED_RULES.get(game, [])]:
        rules = replace(module.Rules(), **changes)
        started = time.perf_counter()
        fit = fitted_parameters(selfplay, fitting, rules, seed=0, folders=[folder])
        kept.add(folder / (fit_key(game, rules, version=fit.version, seed=0) + ".json"))
        shown = ", ".join(f"{k}={v:.4g}" for k, v in fit.params.items())
        print(f"{game} {changes or 'rulebook'}: {shown} ({time.perf_counter() - started:.1f} s)")
    for path in folder.iterdir():
        if path not in kept:
            path.unlink()  # older entries and the lock file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    args = parser.parse_args()
    games = args.games or [g for g in registry.available() if "fitted" in registry.get(g).agents]
    for game in games:
        ship(game)


if __name__ == "__main__":
    main()
