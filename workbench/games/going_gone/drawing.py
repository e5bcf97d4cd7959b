"""Compiled kernels of the search's sampler (``sampling.Sampler``): how many sales a holding
allows (the rejection step's weights) and the proposed holdings of the other seats.

Both compute exactly what the Python they replace computed (integer counts, bitwise ORs), so the
sampler's draws and fillings are unchanged; tests tie them to the Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from workbench.games.going_gone.compiled import BYTE_ONES, GOLDEN, U0, U1, U255, popcount

#: Items up to which ``sales_counts`` counts a holding's sales in int64: there are at most
#: Bell(k + 1) sales of k items, and Bell(25) < 2^63.
SALES_ITEMS = 24
_SALES_SLOTS = 1 << 16
_SALES_SHIFT = np.uint64(64 - 16)
#: Direct-mapped memo of sales counts (a count depends on the items alone): masks and counts.
_SALES_KEYS = np.zeros(_SALES_SLOTS, dtype=np.uint64)
_SALES_COUNTS = np.zeros(_SALES_SLOTS, dtype=np.int64)


@njit(cache=True)
def _sales(left: np.uint64, keys: np.ndarray, counts: np.ndarray) -> np.int64:
    """``sampling._mask_sales``: sets of disjoint collections of the holding ``left``, none
    included (its lowest item unsold, sold alone, or with a non-empty set of the other items of
    its type line or of its country line)."""
    if left == U0:
        return np.int64(1)
    slot = (left * GOLDEN) >> _SALES_SHIFT
    if keys[slot] == left:
        return counts[slot]
    rest = left & (left - U1)
    x = popcount((left ^ rest) - U1)
    total = 2 * _sales(rest, keys, counts)
    type_line = U255 << np.uint64(x & ~7)
    country_line = BYTE_ONES << np.uint64(x & 7)
    for line in (type_line, country_line):
        others = rest & line
        sub = others
        while sub != U0:
            total += _sales(rest & ~sub, keys, counts)
            sub = (sub - U1) & others
    keys[slot] = left
    counts[slot] = total
    return total


@njit(cache=True)
def _many_sales(masks: np.ndarray, keys: np.ndarray, counts: np.ndarray) -> np.ndarray:
    out = np.empty(len(masks), dtype=np.int64)
    for i in range(len(masks)):
        out[i] = -1 if popcount(masks[i]) > SALES_ITEMS else _sales(masks[i], keys, counts)
    return out


def sales_counts(masks: np.ndarray) -> np.ndarray:
    """How many sealed sales each holding mask allows (``sampling._mask_sales``), compiled;
    -1 for a holding of more than ``SALES_ITEMS`` items (its count may not fit in int64)."""
    masks = np.ascontiguousarray(masks, dtype=np.uint64)
    return _many_sales(masks.ravel(), _SALES_KEYS, _SALES_COUNTS).reshape(masks.shape)


@njit(cache=True, _nrt=False)
def proposal_masks(
    shuffled: np.ndarray, lookup: np.ndarray, picks: np.ndarray, starts: np.ndarray,
    ends: np.ndarray, won: np.ndarray, others: np.ndarray, masks: np.ndarray,
) -> None:  # fmt: skip
    """Each proposal's holding of each other seat into ``masks`` (proposals, players): the lots
    its split gives it (``won``) and its past items, the slice ``starts``-``ends`` of the
    proposal's shuffled pool (item ids; ``lookup``: their mask bits)."""
    for row in range(shuffled.shape[0]):
        split = picks[row]
        for k in range(len(others)):
            mask = won[split, k]
            for at in range(starts[split, k], ends[split, k]):
                mask |= lookup[shuffled[row, at]]
            masks[row, others[k]] = mask
