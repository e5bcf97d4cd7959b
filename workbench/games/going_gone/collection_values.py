"""Exact collection values as a designer or player asks for them: the best arrangement of a
holding, what a lot adds, what a sale gives up, how the arrangement changes as items arrive.
Items are ids, (type, country) pairs by name or index, or ``"cars/Germany"``. The random-holding
summary is an estimate and says so (sample size, 95% interval).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import polars as pl

from workbench.checks import instance_or_default
from workbench.games.going_gone.actions import collection_problem, line_collections
from workbench.games.going_gone.arrangement import best_lines
from workbench.games.going_gone.holdings import exact_values, greedy_values, item_bits, mask_of
from workbench.games.going_gone.rules import Rules, is_whole_number
from workbench.kit.seeding import SeedLike, generator
from workbench.stats import mean_interval

ItemLike = int | str | tuple[int | str, int | str]


class Collection(NamedTuple):
    """One collection of an arrangement: its line (a type or a country) and its items."""

    kind: str  # "type" or "country"
    line: str
    items: tuple[int, ...]
    value: int

    @property
    def size(self) -> int:
        return len(self.items)


@dataclass(frozen=True)
class Arrangement:
    """The best arrangement of a holding into collections, and its (exact) value."""

    rules: Rules
    items: tuple[int, ...]
    value: int
    collections: tuple[Collection, ...]

    def frame(self) -> pl.DataFrame:
        """One row per item: item, type, country, its collection (number, kind, line, size,
        value)."""
        rows = [
            (item, self.rules.item_name(item), *self.rules.items[item], number, c.kind, c.line,
             c.size, c.value)
            for number, c in enumerate(self.collections, start=1) for item in c.items
        ]  # fmt: skip
        frame = pl.DataFrame(rows, schema=_ARRANGEMENT_SCHEMA, orient="row")
        return frame.sort("collection", "item")

    def __str__(self) -> str:
        if not self.collections:
            return "no items: worth 0"
        parts = [f"{c.line} x{c.size} ({c.value})" for c in self.collections]
        return f"worth {self.value}: " + " + ".join(parts)


_ARRANGEMENT_SCHEMA = {
    "item": pl.Int64, "name": pl.String, "type": pl.String, "country": pl.String,
    "collection": pl.Int64, "kind": pl.String, "line": pl.String, "size": pl.Int64,
    "value": pl.Int64,
}  # fmt: skip


def parse_items(items: Iterable[ItemLike], rules: Rules | None = None) -> tuple[int, ...]:
    """Item ids (sorted) of ``items`` given in any accepted form; a ValueError names an
    unknown type, country or id, or a repeated item, and says what is allowed."""
    rules = _rules(rules)
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise ValueError(
            f"items must be a sequence of items (ids, (type, country) pairs or 'type/country'), "
            f"got {items!r}"
        )
    ids = [_item_id(entry, rules) for entry in items]
    seen: set[int] = set()
    for item in ids:
        if item in seen:
            raise ValueError(f"item {rules.item_name(item)} is listed twice; each item is unique")
        seen.add(item)
    return tuple(sorted(ids))


def _item_id(entry: object, rules: Rules) -> int:
    if is_whole_number(entry):
        if not 0 <= entry < len(rules.items):
            raise ValueError(f"item id {entry} is out of range: ids are 0–{len(rules.items) - 1}")
        return int(entry)
    if isinstance(entry, str):
        if "/" not in entry:
            raise ValueError(f"item {entry!r} must be written 'type/country', e.g. 'cars/Germany'")
        entry = tuple(part.strip() for part in entry.split("/", 1))
    if not isinstance(entry, tuple | list) or len(entry) != 2:
        raise ValueError(
            f"an item is an id, a (type, country) pair or 'type/country'; got {entry!r}"
        )
    kind = _line_index(entry[0], rules.types, "type", "types")
    country = _line_index(entry[1], rules.countries, "country", "countries")
    item = rules.item_at.get((kind, country))
    if item is None:
        raise ValueError(
            f"there is no {rules.types[kind]}/{rules.countries[country]} card in the item table"
        )
    return item


def _line_index(value: object, names: Sequence[str], what: str, plural: str) -> int:
    if is_whole_number(value):
        if not 0 <= value < len(names):
            raise ValueError(f"{what} index {value} is out of range: 0–{len(names) - 1}")
        return int(value)
    if isinstance(value, str):
        for index, name in enumerate(names):
            if name.casefold() == value.casefold():
                return index
        raise ValueError(f"unknown {what} {value!r}; {plural}: {', '.join(names)}")
    raise ValueError(f"a {what} is a name or an index, got {value!r}")


def _rules(rules: Rules | None) -> Rules:
    return instance_or_default("rules", rules, Rules, Rules, "a going_gone Rules or None")


def best_collections(items: Iterable[ItemLike], *, rules: Rules | None = None) -> Arrangement:
    """The exact best arrangement of ``items`` into collections (each item in exactly one
    collection; a collection shares one type or one country) and its value."""
    rules = _rules(rules)
    ids = parse_items(items, rules)
    _, where = best_lines(mask_of(rules, ids), rules.best_line_values)
    sides = {item: where[(rules.item_type[item], rules.item_country[item])] for item in ids}
    return _arrangement(rules, ids, sides)


def _arrangement(rules: Rules, ids: tuple[int, ...], sides: dict[int, str]) -> Arrangement:
    """The arrangement that puts each item in its ``sides[item]`` line ("type" or "country"),
    each line split into collections as ``Rules.best_line_splits`` says."""
    lines: dict[tuple[str, int], list[int]] = {}
    for item in ids:
        side = sides[item]
        index = rules.item_type[item] if side == "type" else rules.item_country[item]
        lines.setdefault((side, index), []).append(item)
    collections = []
    for (side, index), members in lines.items():
        name = rules.types[index] if side == "type" else rules.countries[index]
        start = 0
        for size in rules.best_line_splits[len(members)]:
            part = tuple(members[start : start + size])
            start += size
            collections.append(Collection(side, name, part, rules.sale_value(size)))
    collections.sort(key=lambda c: (-c.value, c.kind, c.line, c.items))
    return Arrangement(rules, ids, sum(c.value for c in collections), tuple(collections))


def holding_value(items: Iterable[ItemLike], *, rules: Rules | None = None) -> int:
    """The exact value of the best arrangement of ``items``."""
    return best_collections(items, rules=rules).value


def _values(rules: Rules, holdings: Sequence[Sequence[int]]) -> list[int]:
    masks = np.array([mask_of(rules, h) for h in holdings], dtype=np.uint64)
    return exact_values(masks, rules).tolist()


def _names(rules: Rules, items: Iterable[int]) -> str:
    return " + ".join(rules.item_name(i) for i in items)


def lot_value(
    holding: Iterable[ItemLike], lot: Iterable[ItemLike], *, rules: Rules | None = None
) -> pl.DataFrame:
    """What winning ``lot`` adds to ``holding`` (exact): one row with value_without,
    value_with and marginal (their difference: the most the lot is worth paying for, were the
    game to end now)."""
    return lot_values(holding, [lot], rules=rules)


def lot_values(
    holding: Iterable[ItemLike], lots: Iterable[Iterable[ItemLike]], *, rules: Rules | None = None
) -> pl.DataFrame:
    """``lot_value`` for several lots (e.g. a round's five): one row per lot, in order."""
    rules = _rules(rules)
    held = parse_items(holding, rules)
    parsed = []
    for number, lot in enumerate(lots, start=1):
        items = parse_items(lot, rules)
        if not items:
            raise ValueError(f"lot {number} is empty; a lot holds one or more items")
        overlap = [rules.item_name(i) for i in items if i in held]
        if overlap:
            raise ValueError(f"lot {number} holds {', '.join(overlap)}, already in the holding")
        parsed.append(items)
    values = _values(rules, [held, *[held + lot for lot in parsed]])
    rows = [(number, _names(rules, lot), len(lot), values[0], value, value - values[0])
            for number, (lot, value) in enumerate(zip(parsed, values[1:], strict=True), 1)]
    columns = ["lot", "items", "lot_size", "value_without", "value_with", "marginal"]
    return pl.DataFrame(rows, schema=dict.fromkeys(columns, pl.Int64) | {"items": pl.String},
                        orient="row")  # fmt: skip


_SALE_SCHEMA = {
    "collection": pl.String, "kind": pl.String, "line": pl.String, "size": pl.Int64,
    "bucks_now": pl.Int64, "value_before": pl.Int64, "value_after": pl.Int64,
    "value_lost": pl.Int64, "net": pl.Int64,
}  # fmt: skip


def sale_value(
    holding: Iterable[ItemLike], collection: Iterable[ItemLike], *, rules: Rules | None = None
) -> pl.DataFrame:
    """Selling ``collection`` out of ``holding``: one row with the Bucks it pays now, the best
    arrangement's value before and after, the value lost and net = Bucks now - value lost.

    Net is never positive: the best arrangement of the holding can always use the sold
    collection itself, so a sale can at best swap collection value for Bucks one for one (net
    0: the collection is part of a best arrangement). Bucks can be bid; that is why one sells.
    """
    rules = _rules(rules)
    held = parse_items(holding, rules)
    items = parse_items(collection, rules)
    problem = collection_problem(rules, items, held)
    if problem is not None:
        raise ValueError(f"cannot sell that: {problem}")
    return _sale_rows(rules, held, [items])


def sale_options(holding: Iterable[ItemLike], *, rules: Rules | None = None) -> pl.DataFrame:
    """Every collection ``holding`` could sell (``sale_value`` of each), best net first, then
    most Bucks."""
    rules = _rules(rules)
    held = parse_items(holding, rules)
    options = line_collections(rules, held)
    return _sale_rows(rules, held, options).sort(
        ["net", "bucks_now", "size"], descending=[True, True, True]
    )


def _sale_rows(
    rules: Rules, held: tuple[int, ...], collections: Sequence[tuple[int, ...]]
) -> pl.DataFrame:
    rests = [tuple(i for i in held if i not in set(c)) for c in collections]
    values = _values(rules, [held, *rests])
    rows = []
    for collection, after in zip(collections, values[1:], strict=True):
        types = {rules.item_type[i] for i in collection}
        if len(types) == 1:
            kind, line = "type", rules.types[next(iter(types))]
        else:
            kind, line = "country", rules.countries[rules.item_country[collection[0]]]
        bucks, lost = rules.sale_value(len(collection)), values[0] - after
        rows.append((_names(rules, collection), kind, line, len(collection), bucks, values[0],
                     after, lost, bucks - lost))  # fmt: skip
    return pl.DataFrame(rows, schema=_SALE_SCHEMA, orient="row")


def value_table(rules: Rules | None = None) -> pl.DataFrame:
    """The collection value chart: per size, the value, the marginal value of the item that
    made it that size, and the best value of that many items of one line (with its split)."""
    rules = _rules(rules)
    sizes = range(1, len(rules.collection_values) + 1)
    values = rules.collection_values
    best = rules.best_line_values
    splits = [" + ".join(map(str, rules.best_line_splits[k])) if k < len(best) else None
              for k in sizes]  # fmt: skip
    return pl.DataFrame({
        "size": list(sizes), "value": list(values),
        "marginal": [values[0]] + [values[k] - values[k - 1] for k in range(1, len(values))],
        "best_value": [best[k] if k < len(best) else None for k in sizes], "best_split": splits,
    }, schema={"size": pl.Int64, "value": pl.Int64, "marginal": pl.Int64,
               "best_value": pl.Int64, "best_split": pl.String})  # fmt: skip


def arrival_path(items: Sequence[ItemLike], *, rules: Rules | None = None) -> pl.DataFrame:
    """How the best arrangement changes as ``items`` arrive in the order given: one row per
    step and item held then (step, arrived, item, name, kind, line, size of its collection,
    value of the holding, marginal of the arrival, moved: the item changed line this step).

    Where several arrangements are best, the path keeps every held item where it was if that
    is one of them (the newcomer joining the better of its two lines), so ``moved`` marks only
    moves the best value requires."""
    rules = _rules(rules)
    order = [_item_id(entry, rules) for entry in items]
    parse_items(order, rules)  # repeated items
    rows = []
    sides: dict[int, str] = {}
    previous_value = 0
    for step in range(1, len(order) + 1):
        held = tuple(sorted(order[:step]))
        best = best_collections(held, rules=rules)
        newcomer = order[step - 1]
        kept = max(
            (_arrangement(rules, held, {**sides, newcomer: side}) for side in ("type", "country")),
            key=lambda arrangement: arrangement.value,
        )
        arrangement = kept if kept.value == best.value else best
        new_sides = {item: c.kind for c in arrangement.collections for item in c.items}
        rows += [
            (step, rules.item_name(newcomer), item, rules.item_name(item), c.kind, c.line, c.size,
             arrangement.value, arrangement.value - previous_value,
             item in sides and sides[item] != new_sides[item])
            for c in arrangement.collections for item in c.items
        ]  # fmt: skip
        sides = new_sides
        previous_value = arrangement.value
    columns = ["step", "arrived", "item", "name", "kind", "line", "size", "value", "marginal",
               "moved"]  # fmt: skip
    return pl.DataFrame(rows, schema=columns, orient="row").sort("step", "item")


def random_holding_values(
    sizes: Iterable[int], *, samples: int, seed: SeedLike, rules: Rules | None = None
) -> pl.DataFrame:
    """What random holdings are worth (an estimate: ``samples`` holdings per size, drawn
    uniformly from the deck): per size, n, the mean exact value with a 95% t interval, the
    least and most seen, and how often the quick "longer line" grouping falls short of the
    best arrangement (with its mean shortfall)."""
    rules = _rules(rules)
    if not is_whole_number(samples) or samples < 2:
        raise ValueError(f"samples must be a whole number >= 2, got {samples!r}")
    sizes = list(sizes)
    for size in sizes:
        if not is_whole_number(size) or not 0 <= size <= len(rules.items):
            raise ValueError(f"sizes must be whole numbers 0–{len(rules.items)}, got {size!r}")
    bits = item_bits(rules)
    rng = generator(seed)
    best = np.asarray(rules.best_line_values, dtype=np.int64)
    rows = []
    for size in sizes:
        picks = np.argsort(rng.random((samples, len(rules.items))), axis=1)[:, :size]
        masks = np.bitwise_or.reduce(bits[picks], axis=1) if size else np.zeros(samples, np.uint64)
        exact = exact_values(masks, best)
        quick = greedy_values(masks, best)
        mean, low, high = mean_interval(exact)
        rows.append(
            {
                "size": size,
                "n": samples,
                "mean": mean,
                "low": low,
                "high": high,
                "least": int(exact.min()),
                "most": int(exact.max()),
                "greedy_short_share": float((quick < exact).mean()),
                "greedy_shortfall": float((exact - quick).mean()),
            }
        )
    return pl.DataFrame(rows)


__all__ = [
    "Arrangement",
    "Collection",
    "arrival_path",
    "best_collections",
    "holding_value",
    "lot_value",
    "lot_values",
    "parse_items",
    "random_holding_values",
    "sale_options",
    "sale_value",
    "value_table",
]
