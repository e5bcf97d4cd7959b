"""``fit``: a game's ``fitted`` agent fitted to a rule set, from any game in the registry."""

from __future__ import annotations

from typing import Any

from workbench import games as registry
from workbench.designer.cells import check_base_rules, check_seed
from workbench.kit.fits import Fit
from workbench.kit.game import Game


def fit(game: str | Game, rules: Any = None, *, seed: int = 0, progress: bool = True) -> Fit:
    """The game's ``fitted`` policy fitted to ``rules`` (None: the rulebook's) by self-play,
    read from the fit cache or fitted now and cached; ``params``: its parameters by name."""
    game = registry.get(game)
    rules = check_base_rules(game, rules, "rules")
    return game.fit(rules, seed=check_seed(seed), progress=progress)


__all__ = ["fit"]
