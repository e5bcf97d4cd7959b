"""The registry of games: ``available()`` lists game ids, ``get(id)`` returns the game's record
(``workbench.kit.game.Game``).

A game is any subpackage of ``workbench.games`` that exports its record as ``GAME`` (declared in
its ``game.py``): adding one needs no edit here. A game kept elsewhere (a plug-in, a test's) is
added with ``register(game)`` and taken away with ``unregister(id)``.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

_REGISTERED: dict[str, Any] = {}


def available() -> list[str]:
    """Ids of the games this workbench can play, sorted."""
    packages = {info.name for info in pkgutil.iter_modules(__path__) if info.ispkg}
    return sorted(packages | set(_REGISTERED))


def get(game: Any) -> Any:
    """The record of game ``game``: an id, a game's package (``workbench.games.rubbish``) or
    a record itself; a ValueError naming the known games otherwise."""
    if not isinstance(game, str) and hasattr(game, "selfplay"):
        return game  # a record already (the registry stays light: no import of the kit)
    if not isinstance(game, str) and hasattr(getattr(game, "GAME", None), "selfplay"):
        return game.GAME
    known = available()
    if not isinstance(game, str) or game not in known:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(known)}")
    if game in _REGISTERED:
        return _REGISTERED[game]
    record = importlib.import_module(f"{__name__}.{game}").GAME
    if record.id != game:
        raise ValueError(f"the package {game} declares the game {record.id!r}")
    return record


def register(game: Any) -> None:
    """Add a game kept outside this package (its record) under its id."""
    if game.id in available():
        raise ValueError(f"a game {game.id!r} is registered already")
    _REGISTERED[game.id] = game


def unregister(game_id: str) -> None:
    """Take away a game added with ``register``."""
    if game_id not in _REGISTERED:
        raise ValueError(f"{game_id!r} was not added with register(); added: {list(_REGISTERED)}")
    del _REGISTERED[game_id]


__all__ = ["available", "get", "register", "unregister"]
