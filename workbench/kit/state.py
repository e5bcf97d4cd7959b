"""What every step engine's State shares: a position that ``apply`` copies instead of changing
(``Evolving``), final standings from each seat's score (``standings``, ``Standings``), the fields an
observation or view copies from the state by name (``fields_of``), and a log whose every line
says who saw it (``lines_for``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Self

from workbench.checks import whole_number

#: Who saw a log line during play: every seat, or no seat (a fact kept for the full record:
#: the unused cards, a draw no one looked at); else the one seat that saw it (an int).
EVERYONE, NOBODY = "everyone", "nobody"
#: How the full record marks a line that no seat saw during play.
UNSEEN = "[seen by no seat] "


def checked_positions(
    states: Any, state_type: type, game: str, playouts: Any
) -> tuple[list[Any], int]:
    """``play_from``'s arguments as every game checks them: ``states`` (a State or a non-empty
    sequence of them, all under the same rules) as a list, and ``playouts`` (a whole number
    >= 1)."""
    if isinstance(states, state_type):
        listed = [states]
    elif isinstance(states, Iterable) and not isinstance(states, str | bytes):
        listed = list(states)
    else:  # not a sequence: another game's State, a number, a name...
        listed = [states]
    strays = [state for state in listed if not isinstance(state, state_type)]
    if not listed or strays:
        given = f", got {_kind_of(strays[0], state_type)}" if strays else ""
        raise TypeError(f"states must be a {game} State or a non-empty sequence of them{given}")
    if any(state.rules != listed[0].rules for state in listed):
        raise ValueError("every state must be played under the same rules")
    return listed, whole_number("playouts", playouts, low=1, allowed="a positive whole number")


def _kind_of(value: object, state_type: type) -> str:
    """What ``value`` is, named so that another game's State is told from this one's."""
    kind = type(value)
    same = kind.__name__ == state_type.__name__
    return f"{kind.__name__} from {kind.__module__}" if same else kind.__name__


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


class Standings(NamedTuple):
    """A finished game's result as the contract asks for it: scores, ranks (1 = best, ties
    share) and the winners (every seat ranked 1); a game whose result says no more uses it."""

    scores: tuple[Any, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def of(cls, scores: Sequence[Any]) -> Standings:
        """The standings that ``scores`` (one per seat; tuples compare left to right) give."""
        return cls(tuple(scores), *standings(scores))


def fields_of(source: object, *names: str) -> dict[str, Any]:
    """``{name: source.name}`` for each name: the fields a view or observation takes from its
    state unchanged, named once instead of written ``name=state.name`` one by one."""
    return {name: getattr(source, name) for name in names}


def lines_for(log: Sequence[tuple[int | str, str]], player: int | None) -> list[str]:
    """The lines of ``log`` ((who saw it, line) pairs) that ``player`` saw: those for everyone
    and its own; None: the full record, the lines no seat saw marked ``UNSEEN``."""
    if player is None:
        return [UNSEEN + line if seen == NOBODY else line for seen, line in log]
    return [line for seen, line in log if seen in (EVERYONE, player)]
