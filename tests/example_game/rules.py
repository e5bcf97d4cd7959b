"""Rules of the example game: a first-price sealed-bid auction of ``items`` items, one a round.
Each seat has a private value for every item (uniform on 1..``max_value``) and a budget; each
round every seat writes a sealed bid from 0 to its budget; the highest positive bid wins and
pays its bid (all 0: unsold). Score: values of the items won + budget left."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.checks import choice, whole_number

#: Who takes a tied item: "rotating" (round r's order starts at seat (r - 1) mod players).
TIE_BREAKS = ("rotating", "lowest_seat")
_LIMITS = {"players": (2, 5), "items": (1, 10), "budget": (1, 1000), "max_value": (1, 1000)}


@dataclass(frozen=True)
class Rules:
    """Seats, items, each seat's budget, the largest value, and ``TIE_BREAKS``."""

    players: int = 3
    items: int = 5
    budget: int = 10
    max_value: int = 10
    tie_break: str = "rotating"

    def __post_init__(self) -> None:
        for name, (low, high) in _LIMITS.items():
            value = whole_number(f"Rules.{name}", getattr(self, name), low=low, high=high,
                                 type_error=ValueError)  # fmt: skip
            object.__setattr__(self, name, value)
        choice("Rules.tie_break", self.tie_break, TIE_BREAKS)

    def priority(self, round_index: int) -> tuple[int, ...]:  # who takes a tie first
        start = round_index % self.players if self.tie_break == "rotating" else 0
        return tuple((start + k) % self.players for k in range(self.players))


def award(bids: tuple[int, ...], priority: tuple[int, ...]) -> int | None:
    """The seat that takes the item: the highest positive bid, ties by ``priority``."""
    top = max(bids)
    return None if top <= 0 else next(seat for seat in priority if bids[seat] == top)
