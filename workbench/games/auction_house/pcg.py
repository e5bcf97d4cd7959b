"""numpy's PCG64 bit generator stepped inside compiled code, so that the compiled engine draws
the very numbers numpy would (``Generator.permuted``'s shuffles) without a call per number.

``shuffle_rows(rng, rows)`` fills each row of ``rows`` with 0..n-1 and shuffles it exactly as
``rng.permuted(np.tile(np.arange(n), ...), axis=-1)`` does (Fisher-Yates from the last
position, numpy's masked rejection ``random_interval`` on 32-bit draws), then writes the
advanced state back into ``rng``. A test checks it against numpy draw for draw. ``state_of``
and ``store`` hand a Generator's state to other compiled code and back, which draws with
``below`` (a bounded whole number) and ``uniform`` (a double), as numpy does, or ``bounded``
(a bounded whole number, faster, not numpy's stream).
"""

from __future__ import annotations

import numba
import numpy as np

_MASK32 = np.uint64(0xFFFFFFFF)
_MULT_HI = np.uint64(2549297995355413924)  # PCG_DEFAULT_MULTIPLIER_128, high and low halves
_MULT_LO = np.uint64(4865540595714422341)
_U32, _U58, _U63 = np.uint64(32), np.uint64(58), np.uint64(63)


@numba.njit(cache=True, inline="always")
def _mulhi(a: np.uint64, b: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product a * b."""
    a_lo, a_hi = a & _MASK32, a >> _U32
    b_lo, b_hi = b & _MASK32, b >> _U32
    cross_1, cross_2 = a_lo * b_hi, a_hi * b_lo
    middle = ((a_lo * b_lo) >> _U32) + (cross_1 & _MASK32) + (cross_2 & _MASK32)
    return a_hi * b_hi + (cross_1 >> _U32) + (cross_2 >> _U32) + (middle >> _U32)


@numba.njit(cache=True, inline="always")
def _next64(state: np.ndarray) -> np.uint64:
    """Step the 128-bit LCG (state[0] high, state[1] low, state[2..3] the increment) and
    return the XSL-RR output of the new state."""
    hi, lo = state[0], state[1]
    new_lo = lo * _MULT_LO
    new_hi = _mulhi(lo, _MULT_LO) + lo * _MULT_HI + hi * _MULT_LO
    low = new_lo + state[3]
    carry = np.uint64(1) if low < new_lo else np.uint64(0)
    high = new_hi + state[2] + carry
    state[0], state[1] = high, low
    value = high ^ low
    rotation = high >> _U58
    return (value >> rotation) | (value << ((np.uint64(64) - rotation) & _U63))


@numba.njit(cache=True, inline="always")
def _next32(state: np.ndarray) -> np.uint64:
    """numpy's next_uint32: half of a 64-bit draw, the other half kept (state[4] flag,
    state[5] the kept half)."""
    if state[4] != 0:
        state[4] = np.uint64(0)
        return state[5]
    draw = _next64(state)
    state[4], state[5] = np.uint64(1), draw >> _U32
    return draw & _MASK32


@numba.njit(cache=True, inline="always")
def below(state: np.ndarray, bound: int) -> int:
    """A whole number drawn uniformly from 0..bound (inclusive), as numpy's masked rejection
    on 32-bit draws (``random_interval``; ``bound`` < 2**32)."""
    if bound == 0:
        return 0
    limit = np.uint64(bound)
    mask = limit
    mask |= mask >> np.uint64(1)
    mask |= mask >> np.uint64(2)
    mask |= mask >> np.uint64(4)
    mask |= mask >> np.uint64(8)
    mask |= mask >> np.uint64(16)
    value = _next32(state) & mask
    while value > limit:
        value = _next32(state) & mask
    return np.int64(value)


@numba.njit(cache=True, inline="always")
def bounded(state: np.ndarray, count: int) -> int:
    """A whole number drawn uniformly from 0..count-1 (1 <= count < 2**32) by Lemire's
    multiply-and-reject: exact, and almost always one 32-bit draw (``below``, numpy's masked
    rejection, takes more; use it where numpy's own stream must be matched)."""
    n = np.uint64(count)
    product = _next32(state) * n
    low = product & _MASK32
    if low < n:
        threshold = ((_MASK32 + np.uint64(1)) - n) % n
        while low < threshold:
            product = _next32(state) * n
            low = product & _MASK32
    return np.int64(product >> _U32)


@numba.njit(cache=True, inline="always")
def uniform(state: np.ndarray) -> float:
    """A double uniform in [0, 1), as numpy's ``random()``: the top 53 bits of a 64-bit draw."""
    return np.float64(_next64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True)
def _shuffle_rows(state: np.ndarray, rows: np.ndarray) -> None:
    n = rows.shape[1]
    for r in range(rows.shape[0]):
        for i in range(n):
            rows[r, i] = i
        for i in range(n - 1, 0, -1):
            j = below(state, i)
            rows[r, i], rows[r, j] = rows[r, j], rows[r, i]


def state_of(rng: np.random.Generator) -> np.ndarray:
    """``rng``'s PCG64 state as the uint64 array the compiled draws step (hand it back with
    ``store`` once they are done)."""
    bit_generator = rng.bit_generator
    if not isinstance(bit_generator, np.random.PCG64):
        name = type(bit_generator).__name__
        raise TypeError(f"compiled draws need a PCG64 generator, got {name}")
    saved = bit_generator.state
    lcg = saved["state"]
    return np.array(
        [
            lcg["state"] >> 64, lcg["state"] & (2**64 - 1), lcg["inc"] >> 64,
            lcg["inc"] & (2**64 - 1), saved["has_uint32"], saved["uinteger"],
        ],
        np.uint64,
    )  # fmt: skip


def store(rng: np.random.Generator, state: np.ndarray) -> None:
    """Advance ``rng`` to the compiled draws' ``state`` (from ``state_of``)."""
    high, low, inc_high, inc_low, has_uint32, kept = (int(v) for v in state)
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": high << 64 | low, "inc": inc_high << 64 | inc_low},
        "has_uint32": has_uint32,
        "uinteger": kept,
    }


def shuffle_rows(rng: np.random.Generator, rows: np.ndarray) -> None:
    """Shuffle 0..n-1 into every row of the 2-D int array ``rows``, as ``rng.permuted`` of the
    tiled aranges would, advancing ``rng`` as it would (PCG64 only)."""
    state = state_of(rng)
    _shuffle_rows(state, rows)
    store(rng, state)
