"""Lazy re-exports: a game's charts and widgets (altair, ipywidgets: seconds to import) load on
first use, so engines, simulation and batch runs start fast."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def lazy_exports(
    namespace: dict[str, Any], modules: Mapping[str, Iterable[str]]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports a name of ``modules`` (module path -> names) on
    first access and caches it in ``namespace`` (the package's ``globals()``)."""
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name]), name)
        namespace[name] = value
        return value

    return __getattr__
