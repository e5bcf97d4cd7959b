"""Registry of the games: ``available()`` lists game ids, ``get(id)`` returns the game module.

A game is any subpackage of ``workbench.games``; adding one needs no edit here.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def available() -> list[str]:
    """Ids of the games this workbench can play, sorted."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def get(game_id: str) -> ModuleType:
    """The module of game ``game_id`` (its public API: Rules, new_game, simulate, ...)."""
    known = available()
    if not isinstance(game_id, str) or game_id not in known:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(known)}")
    return importlib.import_module(f"{__name__}.{game_id}")
