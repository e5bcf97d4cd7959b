"""What every step engine's State shares: a position that ``apply`` copies instead of changing
(``Evolving``), final standings from each seat's score (``standings``), and the fields an
observation or view copies from the state by name (``fields_of``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self


class Evolving:
    """Base of a step engine's State: ``apply`` returns a changed copy and this one never
    changes. ``_evolve`` makes the copy without running ``__init__`` (cheap: one dict copy)."""

    __slots__ = ()

    def _evolve(self, **changes: object) -> Self:
        """A copy of this state (its instance dict) with ``changes`` set."""
        cls = type(self)
        new = cls.__new__(cls)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new


def standings(keys: Sequence[Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks by seat (1 + how many seats have a higher key, so tied seats share a rank) and the
    winners (every seat ranked 1). A key is a score, or a tuple compared left to right."""
    ranks = tuple(1 + sum(other > key for other in keys) for key in keys)
    winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    return ranks, winners


def fields_of(source: object, *names: str) -> dict[str, Any]:
    """``{name: source.name}`` for each name: the fields a view or observation takes from its
    state unchanged, named once instead of written ``name=state.name`` one by one."""
    return {name: getattr(source, name) for name in names}
