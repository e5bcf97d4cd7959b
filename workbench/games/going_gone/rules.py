"""Going, Going, GONE! rules (docs/rules.md): every ambiguous reading is a field of ``Rules``."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from workbench.checks import flag, is_whole_number, seat_or_random
from workbench.data import card_rows

MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: The grid a holding lives on: at most 8 types x 8 countries (one byte per type in a bitmask).
MAX_TYPES = MAX_COUNTRIES = 8
MAX_CUPS = 8
#: The compiled loop records bids, prices and a round's sale Bucks in 16 bits, Bucks and scores
#: in 32, and counts a seat's allocations (``actions.allocation_count``) in 64.
MAX_BID, MAX_SCORE, MAX_COUNT = 2**15 - 1, 2**31 - 1, 2**63 - 1


class Item(NamedTuple):
    """An item card: its TYPE and its COUNTRY (names)."""

    type: str
    country: str


def load_items(table: str = "going_gone_items") -> tuple[Item, ...]:
    """Item cards from a card table (shipped name or a CSV path with columns id, type, country),
    in id order."""
    return tuple(Item(row["type"], row["country"]) for row in card_rows(table, ("type", "country")))


@dataclass(frozen=True)
class Rules:
    """Going, Going, GONE! rules; the defaults are the rulebook's, with docs/rules.md's readings
    (numpy integers are accepted wherever a whole number is wanted, stored as ``int``)."""

    players: int = 4
    starting_bucks: int = 25
    rounds: int = 7
    #: cards per lot, one lot per cup, dealt each round
    lot_sizes: tuple[int, ...] = (1, 2, 1, 2, 1)
    #: most Bucks a player can have in the cups at once (its cubes; "10 Bucks" chips cannot be
    #: bid): a player bids at most min(Bucks, cube_limit). None: no limit but the Bucks held.
    cube_limit: int | None = 40
    #: Bucks a collection of 1, 2, 3, ... items is worth (when sold, or held at the end)
    collection_values: tuple[int, ...] = (2, 6, 12, 20, 30, 38, 44)
    #: the "Slightly More Strategic" variant: every holding and sold collection is public
    open_collections: bool = False
    #: seat of the first Auctioneer, or "random" (the rulebook: the youngest player)
    first_auctioneer: int | str = 0
    items: tuple[Item, ...] = field(default_factory=load_items)

    def __post_init__(self) -> None:
        self._set_whole("players", low=MIN_PLAYERS, high=MAX_PLAYERS, note="the box has 6 colours")
        self._set_whole("starting_bucks", low=0)
        self._set_whole("rounds", low=1)
        self._validate_items()
        sizes = self._whole_tuple("lot_sizes", self.lot_sizes, low=1)
        if not 1 <= len(sizes) <= MAX_CUPS:
            raise ValueError(f"lot_sizes must give 1–{MAX_CUPS} lots (one per cup), got {sizes!r}")
        object.__setattr__(self, "lot_sizes", sizes)
        needed = self.rounds * sum(sizes)
        if needed > len(self.items):
            raise ValueError(
                f"rounds x sum(lot_sizes) = {self.rounds} x {sum(sizes)} = {needed} cards, but the "
                f"deck has {len(self.items)} items; lower rounds or lot_sizes"
            )
        if self.cube_limit is not None:
            self._set_whole("cube_limit", low=1, none_note=" or None (no limit)")
        values = self._whole_tuple("collection_values", self.collection_values, low=0)
        if len(values) < self.largest_collection:
            raise ValueError(
                f"collection_values must give a value for every size from 1 to "
                f"{self.largest_collection} (the most items sharing a type or a country in the "
                f"item table), got {len(values)}: {values!r}"
            )
        object.__setattr__(self, "collection_values", values)
        self._check_reach()
        shown = flag("open_collections", self.open_collections, type_error=ValueError)
        object.__setattr__(self, "open_collections", shown)
        start = seat_or_random("first_auctioneer", self.first_auctioneer, self.players)
        object.__setattr__(self, "first_auctioneer", start)

    def _check_reach(self) -> None:
        """Refuse rules under which a seat could hold or bid more Bucks than the engines count:
        its Bucks are at most its starting Bucks plus what selling every item dealt can pay, at
        most the best value per item of a collection for each."""
        dealt = self.rounds * sum(self.lot_sizes)
        values = enumerate(self.collection_values[: self.largest_collection], start=1)
        sales = max(dealt * value // size for size, value in values)
        reach = self.starting_bucks + sales
        if reach > MAX_SCORE or sales > MAX_BID:
            raise ValueError(
                f"these rules can pay {sales:,} Bucks for sales and reach a score of {reach:,} "
                f"(starting_bucks + selling all {dealt} items dealt at collection_values), beyond "
                f"the {MAX_BID:,} Bucks of sales and {MAX_SCORE:,} of score the engines record: "
                "lower collection_values or starting_bucks"
            )
        biddable = reach if self.cube_limit is None else min(reach, self.cube_limit)
        if not _countable(biddable, self.cups):
            most = max(b for b in range(MAX_BID + 1) if _countable(b, self.cups))
            raise ValueError(
                f"under these rules a seat can bid up to {biddable:,} Bucks (cube_limit "
                f"{self.cube_limit}; starting_bucks + the most its sales can pay: {reach:,}), "
                f"but the engines play bids of at most {most:,} Bucks over {self.cups} cups "
                "(they record bids in 16 bits and count allocations in 64): lower cube_limit "
                "or, without one, starting_bucks or collection_values"
            )

    def _set_whole(
        self, name: str, *, low: int, high: int | None = None, note: str = "", none_note: str = ""
    ) -> None:
        value = getattr(self, name)
        allowed = f"{low}–{high}" if high is not None else f">= {low}"
        if not is_whole_number(value):
            raise ValueError(f"{name} must be a whole number {allowed}{none_note}, got {value!r}")
        if value < low or (high is not None and value > high):
            extra = f" ({note})" if note else ""
            raise ValueError(f"{name} must be {allowed}{extra}, got {value}")
        object.__setattr__(self, name, int(value))

    @staticmethod
    def _whole_tuple(name: str, values: object, *, low: int) -> tuple[int, ...]:
        if isinstance(values, str | bytes) or not hasattr(values, "__iter__"):
            raise ValueError(f"{name} must be a tuple of whole numbers >= {low}, got {values!r}")
        values = tuple(values)
        bad = [v for v in values if not is_whole_number(v) or v < low]
        if bad or not values:
            raise ValueError(
                f"{name} must be a non-empty tuple of whole numbers >= {low}, got {values!r}"
            )
        return tuple(int(v) for v in values)

    def _validate_items(self) -> None:
        if isinstance(self.items, str) or not hasattr(self.items, "__iter__"):
            raise ValueError(f"items must be a tuple of (type, country) names, got {self.items!r}")
        items = []
        for entry in self.items:
            if (
                not isinstance(entry, tuple)
                or len(entry) != 2
                or not all(isinstance(name, str) and name for name in entry)
            ):
                raise ValueError(
                    f"each item must be a (type, country) pair of names, got {entry!r}"
                )
            items.append(Item(*entry))
        if not items:
            raise ValueError("items must list at least one (type, country) card")
        repeated = sorted(f"{t}/{c}" for (t, c), n in Counter(items).items() if n > 1)
        if repeated:
            raise ValueError(
                f"each (type, country) pair may appear once in items; repeated: {repeated}"
            )
        object.__setattr__(self, "items", tuple(items))
        for what, names, limit in (
            ("types", self.types, MAX_TYPES),
            ("countries", self.countries, MAX_COUNTRIES),
        ):
            if len(names) > limit:
                raise ValueError(f"the item table may use at most {limit} {what}, got {len(names)}")

    def replace(self, **changes: object) -> Rules:
        """A variant of these rules (``dataclasses.replace``), validated again."""
        return dataclasses.replace(self, **changes)

    @cached_property
    def types(self) -> tuple[str, ...]:
        """Type names in order of first appearance in the item table (their index order)."""
        return tuple(dict.fromkeys(item.type for item in self.items))

    @cached_property
    def countries(self) -> tuple[str, ...]:
        """Country names in order of first appearance in the item table."""
        return tuple(dict.fromkeys(item.country for item in self.items))

    @cached_property
    def item_type(self) -> tuple[int, ...]:
        """Type index of every item."""
        index = {name: i for i, name in enumerate(self.types)}
        return tuple(index[item.type] for item in self.items)

    @cached_property
    def item_country(self) -> tuple[int, ...]:
        """Country index of every item."""
        index = {name: i for i, name in enumerate(self.countries)}
        return tuple(index[item.country] for item in self.items)

    @cached_property
    def item_at(self) -> dict[tuple[int, int], int]:
        """(type index, country index) -> item id."""
        return {
            (t, c): item
            for item, (t, c) in enumerate(zip(self.item_type, self.item_country, strict=True))
        }

    @cached_property
    def largest_collection(self) -> int:
        """The most items that share one type or one country in the item table."""
        counts = Counter(self.item_type) + Counter(f"c{c}" for c in self.item_country)
        return max(counts.values())

    @property
    def cups(self) -> int:
        return len(self.lot_sizes)

    @property
    def items_per_round(self) -> int:
        return sum(self.lot_sizes)

    def item_name(self, item: int) -> str:
        """A readable name, e.g. 'cars/Germany'."""
        return f"{self.items[item].type}/{self.items[item].country}"

    def sale_value(self, size: int) -> int:
        """Bucks paid for selling one collection of ``size`` items."""
        return self.collection_values[size - 1]

    @cached_property
    def best_line_values(self) -> tuple[int, ...]:
        """best_line_values[m]: the most ``m`` items of one type (or country) are worth when split
        into collections in the best way (only differs from ``collection_values`` when a table
        makes splitting pay, e.g. values (2, 3, ...): two singles beat a pair)."""
        best = [0]
        for m in range(1, self.largest_collection + 1):
            best.append(max(self.collection_values[k - 1] + best[m - k] for k in range(1, m + 1)))
        return tuple(best)

    @cached_property
    def best_line_splits(self) -> tuple[tuple[int, ...], ...]:
        """best_line_splits[m]: collection sizes (largest first) achieving best_line_values[m]."""
        splits: list[tuple[int, ...]] = [()]
        best = self.best_line_values
        for m in range(1, len(best)):
            for k in range(m, 0, -1):  # prefer one big collection when it ties
                if self.collection_values[k - 1] + best[m - k] == best[m]:
                    splits.append(tuple(sorted((k, *splits[m - k]), reverse=True)))
                    break
        return tuple(splits)


def _countable(budget: int, cups: int) -> bool:
    """Whether a seat bidding at most ``budget`` Bucks over ``cups`` cups can be played: each bid
    fits 16 bits and C(budget + cups, cups), the allocations to choose from, is counted without
    passing 64 bits on the way (the compiled count multiplies before it divides)."""
    if budget > MAX_BID:
        return False
    count = 1
    for i in range(cups):
        if count * (budget + cups - i) > MAX_COUNT:
            return False
        count = count * (budget + cups - i) // (i + 1)
    return True
