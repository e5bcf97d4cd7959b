"""Auction House rules (docs/rules.md, "Auction House"): every reading the rulebook leaves open
that changes play is a field of ``Rules``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from workbench.checks import seat_or_random, whole_number
from workbench.games.auction_house.cards import DECK_SIZE, TRUMP_DECK

PLAYERS = 4
HAND_SIZE = DECK_SIZE // PLAYERS  # 10 cards dealt to each player
TRICKS = HAND_SIZE - 1  # 9 tricks: one card of each hand goes to the kitty
MAX_DEALS = 13  # the rulebook's game; the trump deck covers the first 12
TRUMP_REVEALS = ("after_kitty", "before_auction")


@dataclass(frozen=True)
class Rules:
    """Auction House rules; the defaults are the rulebook's with docs/rules.md's readings.

    ``deals``: deals in a game (13; fewer for a shorter game). Deal ``d`` reveals the ``d``-th
    trump card for d <= 12; a 13th deal has no trump. A tie for most tricks in the last deal
    loses that kitty. ``trump_reveal``: "after_kitty" (the rulebook: trump is revealed after
    the kitty is made) or "before_auction" (the house rule for new players). ``first_dealer``:
    "random" (the rulebook) or a seat 0–3.
    """

    deals: int = MAX_DEALS
    trump_reveal: str = "after_kitty"
    first_dealer: int | str = "random"

    def __post_init__(self) -> None:
        allowed = (f"a whole number 1–{MAX_DEALS} (the trump deck covers 12 deals, the 13th "
                   "has no trump)")  # fmt: skip
        deals = whole_number("deals", self.deals, low=1, high=MAX_DEALS, allowed=allowed,
                             type_error=ValueError)  # fmt: skip
        object.__setattr__(self, "deals", deals)
        if self.trump_reveal not in TRUMP_REVEALS:
            raise ValueError(
                f"trump_reveal must be one of {TRUMP_REVEALS}, got {self.trump_reveal!r}"
            )
        start = seat_or_random("first_dealer", self.first_dealer, PLAYERS)
        object.__setattr__(self, "first_dealer", start)

    def replace(self, **changes: object) -> Rules:
        """A variant of these rules (``dataclasses.replace``), validated again."""
        return dataclasses.replace(self, **changes)

    @property
    def players(self) -> int:
        """Always 4: the rulebook's game (40 cards, 10 each)."""
        return PLAYERS

    @property
    def rounds(self) -> int:
        """Deals in a game (the contract's name for them)."""
        return self.deals

    @property
    def hand_size(self) -> int:
        return HAND_SIZE

    @property
    def tricks(self) -> int:
        return TRICKS

    def has_trump(self, deal: int) -> bool:
        """Does deal ``deal`` (1-based) reveal a trump card? (The 12-card deck runs out.)"""
        return deal <= len(TRUMP_DECK)


