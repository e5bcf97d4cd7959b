"""Rules of the example game: a first-price sealed-bid auction of ``items`` items, one a round.

Every seat holds a private value for every item (drawn uniformly from 1..``max_value`` by the
game's seeded generator) and a budget. Each round every seat writes a sealed whole-number bid
from 0 to its remaining budget; the highest positive bid wins the item and pays its bid. An
item nobody bids on (all bids 0) goes unsold. Score: values of the items won + budget left.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.checks import choice, whole_number

#: Who takes an item when the top positive bid is tied: "rotating" (round r's order starts at
#: seat (r - 1) mod players, then seat order) or "lowest_seat" (the lowest tied seat).
TIE_BREAKS = ("rotating", "lowest_seat")
_LIMITS = {"players": (2, 5), "items": (1, 10), "budget": (1, 1000), "max_value": (1, 1000)}


@dataclass(frozen=True)
class Rules:
    """players: seats (2-5). items: items auctioned, one per round (1-10). budget: money each
    seat starts with. max_value: values are drawn from 1..max_value. tie_break: see
    ``TIE_BREAKS``."""

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

    def priority(self, round_index: int) -> tuple[int, ...]:
        """Seats in the order tied top bids are broken in this round, first first."""
        start = round_index % self.players if self.tie_break == "rotating" else 0
        return tuple((start + k) % self.players for k in range(self.players))


def award(bids: tuple[int, ...], priority: tuple[int, ...]) -> int | None:
    """The seat that takes the item: the highest positive bid, ties by ``priority``."""
    top = max(bids)
    if top <= 0:
        return None
    return next(seat for seat in priority if bids[seat] == top)
