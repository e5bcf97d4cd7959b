"""Rubbish Auction rules (RULES.md section 1): every ambiguous reading is a field of ``Rules``."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from workbench.data import read_table

MIN_PLAYERS, MAX_PLAYERS = 2, 5
OVERSPEND_READINGS = ("discard", "keep")
#: Readings of the fewest cards a bid may hold out, as (First Bidder, later bidders). The
#: rulebook: the First Bidder holds out "any number" of cards, each later bidder "one or more".
BID_MINIMUMS: dict[str, tuple[int, int]] = {
    "first_any_later_one": (0, 1),
    "any": (0, 0),
    "one": (1, 1),
}


class Geek(NamedTuple):
    """A geek card: a name and the items (by index into ``Rules.items``) destined to it."""

    name: str
    destined: tuple[int, ...]


def load_items(table: str = "rubbish_items") -> tuple[str, ...]:
    """Item names from a card table (shipped name or a CSV path with columns id, name)."""
    rows = sorted(read_table(table), key=lambda row: int(row["id"]))
    return tuple(row["name"] for row in rows)


def load_geeks(table: str = "rubbish_geeks") -> tuple[Geek, ...]:
    """Geeks from a card table with columns id, name, item_a, item_b (item ids)."""
    rows = sorted(read_table(table), key=lambda row: int(row["id"]))
    destined_columns = [key for key in rows[0] if key.startswith("item")] if rows else []
    return tuple(
        Geek(row["name"], tuple(int(row[key]) for key in destined_columns if row[key] != ""))
        for row in rows
    )


@dataclass(frozen=True)
class Rules:
    """Rubbish Auction rules; the defaults are the rulebook's, with RULES.md's readings.

    Money is in thousands: a bid of 15 is 15,000 and moves 15 fame.
    """

    players: int = 4
    #: every player's money cards (the same set for all); equal values are distinct cards
    money_cards: tuple[int, ...] = (1, 2, 2, 5, 10)
    starting_fame: int = 30
    #: fame gained at the end per destined item won
    destined_bonus: int = 30
    #: fewest cards a bid may hold out: "first_any_later_one" (the rulebook: the First Bidder
    #: may hold out none, later bidders at least one), "any" (none for everyone) or "one"
    #: (at least one for everyone)
    bid_minimum: str = "first_any_later_one"
    #: "discard": a winner whose fame would drop below 0 ends at 0 and the item is discarded;
    #: "keep": fame 0 and the item is kept
    overspend: str = "discard"
    #: seat holding the Next Auctioneer card at the start, or "random"
    starting_auctioneer: int | str = 0
    items: tuple[str, ...] = field(default_factory=load_items)
    geeks: tuple[Geek, ...] = field(default_factory=load_geeks)

    def __post_init__(self) -> None:
        _require_int("players", self.players)
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(
                f"players must be {MIN_PLAYERS}–{MAX_PLAYERS} (the box holds five sets of money "
                f"cards), got {self.players}"
            )
        cards = tuple(self.money_cards)
        if not cards or not all(_is_int(card) for card in cards):
            raise ValueError(
                f"money_cards must be a non-empty tuple of positive whole numbers (thousands), "
                f"got {self.money_cards!r}"
            )
        if any(card <= 0 for card in cards):
            raise ValueError(
                f"money_cards must all be positive (thousands), got {self.money_cards!r}"
            )
        object.__setattr__(self, "money_cards", tuple(sorted(cards, reverse=True)))
        for name in ("starting_fame", "destined_bonus"):
            _require_int(name, getattr(self, name))
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if not isinstance(self.bid_minimum, str) or self.bid_minimum not in BID_MINIMUMS:
            raise ValueError(
                f"bid_minimum must be one of {tuple(BID_MINIMUMS)}, got {self.bid_minimum!r}"
            )
        if max(BID_MINIMUMS[self.bid_minimum]) > len(cards) - 1:
            raise ValueError(
                f"bid_minimum {self.bid_minimum!r} needs at least 2 money cards (a bidder who "
                f"locked a card must still hold one out), got money_cards {self.money_cards!r}"
            )
        if self.overspend not in OVERSPEND_READINGS:
            raise ValueError(
                f"overspend must be one of {OVERSPEND_READINGS}, got {self.overspend!r}"
            )
        start = self.starting_auctioneer
        if start != "random" and not (_is_int(start) and 0 <= start < self.players):
            raise ValueError(
                f"starting_auctioneer must be a seat 0–{self.players - 1} or 'random', "
                f"got {start!r}"
            )
        self._validate_cards()

    def _validate_cards(self) -> None:
        items = tuple(self.items)
        if not items or not all(isinstance(name, str) and name for name in items):
            raise ValueError(f"items must be a non-empty tuple of names, got {self.items!r}")
        if len(set(items)) != len(items):
            duplicates = sorted(name for name, count in Counter(items).items() if count > 1)
            raise ValueError(f"items must have distinct names; repeated: {duplicates}")
        object.__setattr__(self, "items", items)
        geeks = []
        for geek in self.geeks:
            if not isinstance(geek, tuple) or len(geek) != 2:
                raise ValueError(f"each geek must be (name, destined item ids), got {geek!r}")
            name, destined = geek
            destined = tuple(destined)
            unknown = [item for item in destined if not (_is_int(item) and 0 <= item < len(items))]
            if unknown:
                raise ValueError(
                    f"geek {name!r} names unknown item(s) {unknown}; items are 0–{len(items) - 1}: "
                    f"{', '.join(f'{i} {n}' for i, n in enumerate(items))}"
                )
            if not destined or len(set(destined)) != len(destined):
                raise ValueError(
                    f"geek {name!r} must name one or more distinct items, got {destined!r}"
                )
            geeks.append(Geek(str(name), destined))
        if len(geeks) < self.players:
            raise ValueError(
                f"{self.players} players need at least {self.players} geeks to deal, "
                f"got {len(geeks)}"
            )
        object.__setattr__(self, "geeks", tuple(geeks))

    def replace(self, **changes: object) -> Rules:
        """A variant of these rules (``dataclasses.replace``), validated again."""
        return dataclasses.replace(self, **changes)

    @property
    def rounds(self) -> int:
        """One auction per item."""
        return len(self.items)

    @cached_property
    def card_values(self) -> tuple[int, ...]:
        """The distinct money values, high to low."""
        return tuple(sorted(set(self.money_cards), reverse=True))

    @property
    def money_total(self) -> int:
        return sum(self.money_cards)

    @property
    def bid_minimums(self) -> tuple[int, int]:
        """Fewest cards a bid may hold out: (the First Bidder's, every later bidder's)."""
        return BID_MINIMUMS[self.bid_minimum]

    def min_cards_at(self, position: int) -> int:
        """Fewest cards the bidder at ``position`` in bidding order (0 = First Bidder) may
        hold out."""
        first, later = BID_MINIMUMS[self.bid_minimum]
        return first if position == 0 else later

    def destined_to(self, geek: int) -> tuple[int, ...]:
        """Items destined to geek number ``geek``."""
        return self.geeks[geek].destined


def _is_int(value: object) -> bool:
    # Strict on purpose: Rules are stored as given, so only plain ints (not numpy) are accepted.
    return isinstance(value, int) and not isinstance(value, bool)


def _require_int(name: str, value: object) -> None:
    if not _is_int(value):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
