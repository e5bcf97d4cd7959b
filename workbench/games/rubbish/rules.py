"""Rubbish Auction rules (docs/rules.md): every ambiguous reading is a field of ``Rules``."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from workbench.checks import choice, is_whole_number, seat_or_random, whole_number
from workbench.data import card_rows, table_path, whole_cell

MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: Bids are enumerated (2 ** cards multisets at most), so a hand holds at most this many cards.
MAX_MONEY_CARDS = 12
#: Items and geeks are numbered in 8-bit columns of the result frames; scores in 16-bit ones.
MAX_ITEMS = MAX_GEEKS = 127
MAX_SCORE = 32_767
OVERSPEND_READINGS = ("discard", "keep")
#: Readings of the fewest cards a bid may hold out, as (First Bidder, later bidders). The
#: rulebook: the First Bidder holds out "any number" of cards, each later bidder "one or more".
BID_MINIMUMS: dict[str, tuple[int, int]] = {
    "first_any_later_one": (0, 1), "any": (0, 0), "one": (1, 1),
}  # fmt: skip


class Geek(NamedTuple):
    """A geek card: a name and the items (by index into ``Rules.items``) destined to it."""

    name: str
    destined: tuple[int, ...]


def load_items(table: str = "rubbish_items") -> tuple[str, ...]:
    """Item names from a card table (shipped name or a CSV path with columns id, name; the ids,
    which the geeks refer to, number the items 0, 1, 2, ...)."""
    return tuple(row["name"] for row in card_rows(table, ("name",), numbers=True))


def load_geeks(table: str = "rubbish_geeks") -> tuple[Geek, ...]:
    """Geeks from a card table with columns id, name, item_a, item_b (item ids)."""
    rows = card_rows(table, ("name",))
    destined_columns = [key for key in rows[0] if key.startswith("item")] if rows else []
    source = f"card table {table_path(table)}"

    def destined(row: dict[str, str]) -> tuple[int, ...]:
        return tuple(whole_cell(row, key, source) for key in destined_columns if row[key] != "")

    return tuple(Geek(row["name"], destined(row)) for row in rows)


@dataclass(frozen=True)
class Rules:
    """Rubbish Auction rules; the defaults are the rulebook's, with docs/rules.md's readings.
    Money is in thousands: a bid of 15 is 15,000 and moves 15 fame."""

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
        # Whole numbers are stored as Python ints; every problem is a ValueError naming the field.
        players = whole_number(
            "players", self.players, low=MIN_PLAYERS, high=MAX_PLAYERS,
            allowed=f"{MIN_PLAYERS}–{MAX_PLAYERS} (the box holds five sets of money cards)",
            type_error=ValueError,
        )  # fmt: skip
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "money_cards", _money_cards(self.money_cards))
        for name in ("starting_fame", "destined_bonus"):
            value = whole_number(name, getattr(self, name), low=0, type_error=ValueError)
            object.__setattr__(self, name, value)
        choice("bid_minimum", self.bid_minimum, tuple(BID_MINIMUMS))
        if max(BID_MINIMUMS[self.bid_minimum]) > len(self.money_cards) - 1:
            raise ValueError(
                f"bid_minimum {self.bid_minimum!r} needs at least 2 money cards (a bidder who "
                f"locked a card must still hold one out), got money_cards {self.money_cards!r}"
            )
        choice("overspend", self.overspend, OVERSPEND_READINGS)
        start = seat_or_random("starting_auctioneer", self.starting_auctioneer, players)
        object.__setattr__(self, "starting_auctioneer", start)
        self._validate_cards()
        reach = self.starting_fame + self.rounds * (self.money_total + self.destined_bonus)
        if reach > MAX_SCORE:
            raise ValueError(
                f"these rules can reach a score of {reach} (starting_fame + rounds x (all the "
                f"money + destined_bonus)), beyond the {MAX_SCORE:,} the result frames hold: "
                "lower money_cards, starting_fame or destined_bonus"
            )

    def _validate_cards(self) -> None:
        items = self.items
        if isinstance(items, str) or not isinstance(items, Iterable):
            raise ValueError(f"items must be a sequence of item names, got {items!r}")
        items = tuple(items)
        if not 1 <= len(items) <= MAX_ITEMS or not all(
            isinstance(name, str) and name.strip() for name in items
        ):
            raise ValueError(
                f"items must be 1–{MAX_ITEMS} non-empty item names, got {self.items!r}"
            )
        if len(set(items)) != len(items):
            duplicates = sorted(name for name, count in Counter(items).items() if count > 1)
            raise ValueError(f"items must have distinct names; repeated: {duplicates}")
        object.__setattr__(self, "items", items)
        if isinstance(self.geeks, str) or not isinstance(self.geeks, Iterable):
            raise ValueError(
                f"geeks must be a sequence of (name, destined item ids) pairs, got {self.geeks!r}"
            )
        geeks = []
        for geek in self.geeks:
            if not isinstance(geek, tuple | list) or len(geek) != 2:
                raise ValueError(f"each geek must be (name, destined item ids), got {geek!r}")
            name, destined = geek
            if not isinstance(name, str) or not name.strip():
                raise ValueError(f"each geek's name must be a non-empty string, got {name!r}")
            if isinstance(destined, str) or not isinstance(destined, Iterable):
                raise ValueError(
                    f"geek {name!r} must name its destined items as a sequence of item ids, "
                    f"got {destined!r}"
                )
            destined = tuple(destined)
            unknown = [
                item for item in destined if not (is_whole_number(item) and 0 <= item < len(items))
            ]
            if unknown:
                raise ValueError(
                    f"geek {name!r} names unknown item(s) {unknown}; items are 0–{len(items) - 1}: "
                    f"{', '.join(f'{i} {n}' for i, n in enumerate(items))}"
                )
            if not destined or len(set(destined)) != len(destined):
                raise ValueError(
                    f"geek {name!r} must name one or more distinct items, got {destined!r}"
                )
            geeks.append(Geek(name, tuple(int(item) for item in destined)))
        names = [geek.name for geek in geeks]
        if len(set(names)) != len(names):
            repeated = sorted(name for name, count in Counter(names).items() if count > 1)
            raise ValueError(f"geeks must have distinct names; repeated: {repeated}")
        if not self.players <= len(geeks) <= MAX_GEEKS:
            raise ValueError(
                f"geeks: {self.players} players need {self.players}–{MAX_GEEKS} geeks to deal, "
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

    def destined_to(self, geek: int) -> tuple[int, ...]:
        """Items destined to geek number ``geek``."""
        return self.geeks[geek].destined

    @property
    def money_total(self) -> int:
        return sum(self.money_cards)

    @property
    def bid_minimums(self) -> tuple[int, int]:
        """Fewest cards a bid may hold out: (the First Bidder's, every later bidder's)."""
        return BID_MINIMUMS[self.bid_minimum]

    def min_cards_at(self, position: int) -> int:
        """Fewest cards the bidder at ``position`` (0 = First Bidder) may hold out."""
        return self.bid_minimums[0 if position == 0 else 1]


def _money_cards(cards: object) -> tuple[int, ...]:
    """Money card values, high to low, as plain ints; ValueError naming the field otherwise."""
    allowed = f"1–{MAX_MONEY_CARDS} positive whole numbers (thousands), e.g. (1, 2, 2, 5, 10)"
    if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
        raise ValueError(f"money_cards must be {allowed}, got {cards!r}")
    values = tuple(cards)
    if not 1 <= len(values) <= MAX_MONEY_CARDS or not all(is_whole_number(v) for v in values):
        raise ValueError(f"money_cards must be {allowed}, got {cards!r}")
    if any(value <= 0 for value in values):
        raise ValueError(f"money_cards must all be positive (thousands), got {cards!r}")
    return tuple(sorted((int(value) for value in values), reverse=True))
