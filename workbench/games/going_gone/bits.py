"""Holdings, lots and collections as 64-bit masks over the type x country grid (bit
``8 * type + country``), and the vectorised bit operations the batch engine and agents share."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from functools import cache

import numpy as np

from workbench.games.going_gone.rules import Rules

GRID = 8  # bits per type line in a mask (at most 8 countries)

#: COLUMN_ONES[byte]: a uint64 whose byte c is 1 when bit c of ``byte`` is set (column counts are
#: the sum of these over a holding's type bytes).
COLUMN_ONES = np.array(
    [sum(((b >> c) & 1) << (8 * c) for c in range(8)) for b in range(256)], dtype=np.uint64
)
#: PEXT[mask, byte]: the bits of ``byte`` at the positions set in ``mask``, packed low.
PEXT = np.zeros((256, 256), dtype=np.uint8)
for _mask in range(256):
    _positions = [c for c in range(8) if _mask >> c & 1]
    for _byte in range(256):
        PEXT[_mask, _byte] = sum(((_byte >> p) & 1) << i for i, p in enumerate(_positions))
del _mask, _positions, _byte


U64 = np.uint64
SPREAD = np.array(
    [sum(((b >> t) & 1) << (GRID * t) for t in range(GRID)) for b in range(256)], dtype=np.uint64
)  # SPREAD[byte] << c: the column-c mask of the types set in ``byte``
#: PDEP[mask, k]: the bits of ``k`` deposited, low first, at the positions set in ``mask``.
PDEP = np.zeros((256, 256), dtype=np.uint8)
for _mask in range(256):
    _positions = [c for c in range(8) if _mask >> c & 1]
    for _k in range(1 << len(_positions)):
        PDEP[_mask, _k] = sum(((_k >> i) & 1) << p for i, p in enumerate(_positions))
del _mask, _positions, _k
#: PAIRS_UP[m, j]: the j-th (0-based) number below 2^m with at least two bits set.
PAIRS_UP = np.zeros((GRID + 1, 256), dtype=np.uint8)
for _m in range(GRID + 1):
    _found = [k for k in range(1 << _m) if bin(k).count("1") >= 2]
    PAIRS_UP[_m, : len(_found)] = _found
del _m, _found


@cache
def item_bits(rules: Rules) -> np.ndarray:
    """The mask bit of every item id."""
    return np.array(
        [1 << (GRID * t + c) for t, c in zip(rules.item_type, rules.item_country, strict=True)],
        dtype=np.uint64,
    )


@cache
def bit_items(rules: Rules) -> np.ndarray:
    """Item id at each of the 64 bit positions (-1 where no item)."""
    table = np.full(64, -1, dtype=np.int64)
    for item, (t, c) in enumerate(zip(rules.item_type, rules.item_country, strict=True)):
        table[GRID * t + c] = item
    return table


def mask_of(rules: Rules, items: Iterable[int]) -> int:
    """The mask of a set of item ids."""
    bits = item_bit_ints(rules)
    mask = 0
    for item in items:
        mask |= bits[item]
    return mask


@cache
def item_bit_ints(rules: Rules) -> tuple[int, ...]:
    """``item_bits`` as Python ints, made once per rule set (``mask_of`` and the step calls of
    the compiled policies run on every step-engine decision)."""
    return tuple(int(b) for b in item_bits(rules))


def items_of(rules: Rules, mask: int) -> tuple[int, ...]:
    """The item ids in a mask, sorted."""
    table = bit_items(rules)
    mask = int(mask)
    return tuple(sorted(int(table[b]) for b in range(64) if mask >> b & 1))


def type_bytes(masks: np.ndarray) -> np.ndarray:
    """(..., 8) uint8: byte t holds the countries present in type line t."""
    masks = np.ascontiguousarray(masks, dtype=np.uint64)
    rows = masks.view(np.uint8).reshape(*masks.shape, GRID)
    return rows[..., ::-1] if sys.byteorder == "big" else rows


def masks_of_bytes(rows: np.ndarray) -> np.ndarray:
    """(N, 8) type bytes -> (N,) masks (the inverse of ``type_bytes``)."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    if sys.byteorder == "big":  # pragma: no cover
        rows = np.ascontiguousarray(rows[:, ::-1])
    return rows.view(np.uint64).ravel()


def transpose(masks: np.ndarray) -> np.ndarray:
    """Swap types and countries (an 8x8 bit-matrix transpose, Hacker's Delight 7-3)."""
    x = np.asarray(masks, dtype=np.uint64)
    t = (x ^ (x >> U64(7))) & U64(0x00AA00AA00AA00AA)
    x = x ^ t ^ (t << U64(7))
    t = (x ^ (x >> U64(14))) & U64(0x0000CCCC0000CCCC)
    x = x ^ t ^ (t << U64(14))
    t = (x ^ (x >> U64(28))) & U64(0x00000000F0F0F0F0)
    return x ^ t ^ (t << U64(28))


def bit_counts(values: np.ndarray) -> np.ndarray:
    """Set bits of each (unsigned or non-negative) integer, as int64."""
    return np.bitwise_count(values).astype(np.int64)


def popcount(masks: np.ndarray) -> np.ndarray:
    """Number of items in each mask."""
    return bit_counts(np.asarray(masks, dtype=np.uint64))


def line_count(masks: np.ndarray) -> np.ndarray:
    """How many type lines (or country lines, via ``transpose``) a mask touches."""
    return (type_bytes(masks) != 0).sum(axis=-1)


def is_one_collection(masks: np.ndarray) -> np.ndarray:
    """Non-empty masks whose items share a type or a country."""
    return (masks != 0) & ((line_count(masks) == 1) | (line_count(transpose(masks)) == 1))


def nth_collection(available: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The collection at position ``index`` (0-based) of ``actions.line_collections``' order, for
    each available-items mask: type lines' non-empty subsets, then country lines' subsets of 2+.
    ``index`` must be below ``collection_counts(available)``."""
    rows = type_bytes(available).astype(np.int64)
    columns = type_bytes(transpose(available)).astype(np.int64)
    per_type = (1 << bit_counts(rows)) - 1
    counts = bit_counts(columns)
    per_country = (1 << counts) - 1 - counts
    sizes = np.concatenate([per_type, per_country], axis=1)  # (N, 16)
    ends = np.cumsum(sizes, axis=1)
    line = (ends <= index[:, None]).sum(axis=1)
    before = np.where(
        line > 0, np.take_along_axis(ends, np.maximum(line - 1, 0)[:, None], 1)[:, 0], 0
    )
    within = index - before
    result = np.zeros(len(available), dtype=np.uint64)
    is_type = line < GRID
    rows_of = np.take_along_axis(rows, np.minimum(line, GRID - 1)[:, None], 1)[:, 0]
    subset = PDEP[rows_of, np.clip(within + 1, 0, 255)].astype(np.uint64)
    result = np.where(
        is_type, subset << (U64(GRID) * np.minimum(line, GRID - 1).astype(np.uint64)), result
    )
    country = np.clip(line - GRID, 0, GRID - 1)
    column_of = np.take_along_axis(columns, country[:, None], 1)[:, 0]
    compressed = PAIRS_UP[bit_counts(column_of), np.clip(within, 0, 255)]
    types = PDEP[column_of, compressed]
    column_mask = SPREAD[types] << country.astype(np.uint64)
    return np.where(is_type, result, column_mask)


def collection_counts(available: np.ndarray) -> np.ndarray:
    """How many collections (``actions.line_collections``) each available-items mask allows."""
    rows = type_bytes(available).astype(np.int64)
    counts = bit_counts(type_bytes(transpose(available))).astype(np.int64)
    return ((1 << bit_counts(rows)) - 1).sum(axis=-1) + ((1 << counts) - 1 - counts).sum(axis=-1)
