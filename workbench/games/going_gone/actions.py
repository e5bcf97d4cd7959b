"""Actions (``Allocation``, ``Sell``, ``DoneSelling``), their canonical orders, and checks both
engines share. Allocations are too many to list (25 Bucks over 5 cups: 142,506), so
``Allocations`` is a lazy sequence in lexicographic order (``len``, indexing by rank, ``in``);
uniform random play picks ``legal[floor(u * len(legal))]``, as the compiled policy does.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from functools import cache
from typing import NamedTuple, overload

from workbench.checks import whole_number
from workbench.games.going_gone.rules import Rules, is_whole_number


class Allocation(NamedTuple):
    """Bucks put in each cup, in cup order, e.g. ``Allocation((3, 0, 5, 0, 1))``."""

    bids: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.bids)


class Sell(NamedTuple):
    """Put one collection (item ids sharing a type or a country) into this round's sealed sale."""

    collection: tuple[int, ...]


class DoneSelling(NamedTuple):
    """End this round's sale (revealed with everyone else's once all are done)."""


Action = Allocation | Sell | DoneSelling


def allocation_count(budget: int, cups: int) -> int:
    """How many allocations of at most ``budget`` whole Bucks over ``cups`` cups: C(budget +
    cups, cups)."""
    budget = whole_number("budget", budget, low=0, allowed="a whole number of Bucks >= 0")
    cups = whole_number("cups", cups, low=0, allowed="a whole number of cups >= 0")
    return _count(budget, cups)


@cache
def _count(budget: int, cups: int) -> int:
    """``allocation_count`` of arguments known to be good (ranking's inner loops)."""
    return math.comb(budget + cups, cups)


class Allocations(Sequence[Allocation]):
    """Every allocation of at most ``budget`` Bucks over ``cups`` cups, lexicographic order."""

    def __init__(self, budget: int, cups: int) -> None:
        size = allocation_count(budget, cups)
        if size > sys.maxsize:  # a len() Python can give: what uniform random play needs
            raise ValueError(
                f"{size:,} allocations of at most {budget} Bucks over {cups} cups are too many "
                f"to list (at most {sys.maxsize:,}): fewer Bucks or fewer cups"
            )
        self.budget = int(budget)
        self.cups = int(cups)

    def __len__(self) -> int:
        return _count(self.budget, self.cups)

    @overload
    def __getitem__(self, index: int) -> Allocation: ...

    @overload
    def __getitem__(self, index: slice) -> list[Allocation]: ...

    def __getitem__(self, index: int | slice) -> Allocation | list[Allocation]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not is_whole_number(index):
            raise TypeError(f"allocation index must be a whole number, got {index!r}")
        size = len(self)
        rank = int(index) + size if index < 0 else int(index)
        if not 0 <= rank < size:
            raise IndexError(f"allocation index {index} out of range for {size} allocations")
        return unrank_allocation(rank, self.budget, self.cups)

    def __contains__(self, action: object) -> bool:
        return allocation_problem(action, self.budget, self.cups) is None

    def __iter__(self) -> Iterator[Allocation]:
        yield from _iterate(self.budget, self.cups, ())

    def index(self, action: object, *_: object) -> int:
        problem = allocation_problem(action, self.budget, self.cups)
        if problem is not None:
            raise ValueError(f"{action!r} is not a legal allocation: {problem}")
        return rank_allocation(action.bids, self.budget)  # type: ignore[union-attr]

    def __repr__(self) -> str:
        return f"<{len(self):,} allocations of at most {self.budget} Bucks over {self.cups} cups>"


def _iterate(budget: int, cups: int, prefix: tuple[int, ...]) -> Iterator[Allocation]:
    if cups == 0:
        yield Allocation(prefix)
        return
    for x in range(budget + 1):
        yield from _iterate(budget - x, cups - 1, (*prefix, x))


def rank_allocation(bids: Sequence[int], budget: int) -> int:
    """Position of ``bids`` in the lexicographic order of allocations of at most ``budget``."""
    rank = 0
    remaining = budget
    cups = len(bids)
    for j, bid in enumerate(bids):
        later = cups - j - 1
        for x in range(int(bid)):
            rank += _count(remaining - x, later)
        remaining -= int(bid)
    return rank


def unrank_allocation(rank: int, budget: int, cups: int) -> Allocation:
    """The allocation at position ``rank`` (see ``rank_allocation``)."""
    bids = []
    remaining = budget
    for j in range(cups):
        later = cups - j - 1
        x = 0
        while rank >= (count := _count(remaining - x, later)):
            rank -= count
            x += 1
        bids.append(x)
        remaining -= x
    return Allocation(tuple(bids))


def allocation_problem(action: object, budget: int, cups: int) -> str | None:
    """Why ``action`` is not a legal allocation for this budget, or None if it is."""
    if not isinstance(action, Allocation):
        return f"expected an Allocation(bids) with {cups} whole numbers"
    bids = action.bids
    if not isinstance(bids, tuple | list) or len(bids) != cups:
        return f"bids must give one whole number of Bucks for each of the {cups} cups"
    for cup, bid in enumerate(bids, start=1):
        if not is_whole_number(bid):
            return f"cup {cup}: {bid!r} is not a whole number of Bucks"
        if bid < 0:
            return f"cup {cup}: {bid} is negative; bids are 0 or more Bucks"
    total = sum(int(b) for b in bids)
    if total > budget:
        return f"{total} Bucks in the cups is over the biddable {budget}"
    return None


def budget_of(rules: Rules, bucks: int) -> int:
    """Most Bucks a player can put in the cups: min(Bucks, cube limit)."""
    return bucks if rules.cube_limit is None else min(bucks, rules.cube_limit)


def line_collections(rules: Rules, available: Sequence[int]) -> list[tuple[int, ...]]:
    """Every collection that can be formed from ``available`` items, in the canonical order both
    engines share: type lines in index order, each line's non-empty subsets in increasing
    bitmask order over its items (ordered by country); then country lines, subsets of 2+ items
    only (ordered by type; a single item is already listed under its type). Items in a
    collection are sorted by id."""
    by_type: dict[int, list[tuple[int, int]]] = {}
    by_country: dict[int, list[tuple[int, int]]] = {}
    for item in available:
        t, c = rules.item_type[item], rules.item_country[item]
        by_type.setdefault(t, []).append((c, item))
        by_country.setdefault(c, []).append((t, item))
    found: list[tuple[int, ...]] = []
    for lines, minimum in ((by_type, 1), (by_country, 2)):
        for line in sorted(lines):
            members = [item for _, item in sorted(lines[line])]
            for subset in range(1, 1 << len(members)):
                if subset.bit_count() >= minimum:
                    chosen = (m for b, m in enumerate(members) if subset >> b & 1)
                    found.append(tuple(sorted(chosen)))
    return found


def collection_problem(rules: Rules, collection: object, available: Sequence[int]) -> str | None:
    """Why ``collection`` cannot be sold from ``available`` items, or None if it can."""
    if not isinstance(collection, tuple | list) or not collection:
        return "a collection is a non-empty tuple of item ids"
    for item in collection:
        if not is_whole_number(item) or not 0 <= item < len(rules.items):
            return f"{item!r} is not an item id (0–{len(rules.items) - 1})"
    items = [int(i) for i in collection]
    if len(set(items)) != len(items):
        return f"item {max(items, key=items.count)} is listed twice"
    missing = [i for i in items if i not in available]
    if missing:
        names = ", ".join(f"{i} ({rules.item_name(i)})" for i in missing)
        return f"item(s) {names} are not held (or are already in this sale)"
    types = {rules.item_type[i] for i in items}
    countries = {rules.item_country[i] for i in items}
    if len(types) > 1 and len(countries) > 1:
        names = ", ".join(rules.item_name(i) for i in items)
        return f"{names} share neither a type nor a country, so they are not one collection"
    return None
