"""numpy's seeded random streams, compiled: ``SeedSequence`` -> ``PCG64`` -> ``Generator``'s
``random()``, ``integers(n)`` and ``permuted`` shuffles, bit for bit, inside numba loops. The one
place the games' compiled code draws random numbers from.

A stream is a uint64 array of ``STREAM_WORDS``: the 128-bit PCG state and increment (high, low)
and PCG64's buffered half-word for 32-bit draws (a flag and the word). ``state_of`` and
``store`` hand a numpy Generator's state to compiled code and back; ``seed_stream`` and
``seed_keyed`` make the stream ``generator(seed, *keys)`` would give, without numpy (building a
Generator costs tens of microseconds, more than a compiled game). Draws: ``random`` (a double,
as ``Generator.random()``), ``integers`` (as ``Generator.integers(n)``: Lemire's bounded
integers, no draw when n is 1), ``below`` (numpy's masked rejection, as ``permuted`` draws),
``bounded`` (Lemire's, always one draw at least) and ``shuffle_rows`` (as ``permuted``). Tests
check each against numpy draw for draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from workbench.kit.seeding import seed_sequence

STREAM_WORDS = 6
_M32 = np.uint64(0xFFFFFFFF)
_SHIFT16 = np.uint64(16)
_SHIFT32 = np.uint64(32)
_SHIFT11 = np.uint64(11)
_SHIFT58 = np.uint64(58)
_SHIFT63 = np.uint64(63)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
# SeedSequence's hash constants (numpy.random.bit_generator).
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_MULT_L = np.uint64(0xCA01F9DD)
_MIX_MULT_R = np.uint64(0x4973F715)
_POOL_SIZE = 4
# PCG64's 128-bit multiplier, high and low words.
_MULT_HIGH = np.uint64(2549297995355413924)
_MULT_LOW = np.uint64(4865540595714422341)
_TO_UNIT = 1.0 / 9007199254740992.0
#: Most uint32 words a stream's entropy may have (run entropy, spawn key and appended keys).
MAX_WORDS = 64


def seed_words(seed: np.random.SeedSequence) -> np.ndarray:
    """The uint32 entropy words numpy's SeedSequence hashes for ``seed`` once at least one more
    spawn key is appended: the run entropy (padded to the pool size) then the spawn key."""
    if not isinstance(seed, np.random.SeedSequence) or seed.pool_size != _POOL_SIZE:
        raise TypeError(f"seed_words needs a numpy SeedSequence with pool size 4, got {seed!r}")
    run = _uint32_words(seed.entropy)
    if len(run) < _POOL_SIZE:
        run = run + [0] * (_POOL_SIZE - len(run))
    spawn = [word for key in seed.spawn_key for word in _uint32_words(key)]
    words = np.array(run + spawn, dtype=np.uint64)
    if len(words) > MAX_WORDS - 6:
        raise ValueError(f"the seed's entropy is too long for the compiled streams: {seed!r}")
    return words


def _uint32_words(value: object) -> list[int]:
    """numpy's coercion of entropy to uint32 words: an int little-endian (0 is one word), a
    sequence word after word."""
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        number = int(value)
        if number < 0:
            raise ValueError(f"seed entropy must be non-negative, got {number}")
        words = [number & 0xFFFFFFFF]
        number >>= 32
        while number:
            words.append(number & 0xFFFFFFFF)
            number >>= 32
        return words
    if isinstance(value, Sequence | np.ndarray) and not isinstance(value, str | bytes):
        return [word for item in value for word in _uint32_words(item)]
    raise TypeError(f"seed entropy must be an int or a sequence of ints, got {value!r}")


@numba.njit(cache=True)
def _hashmix(value: np.uint64, hash_const: np.uint64) -> tuple[np.uint64, np.uint64]:
    value = (value ^ hash_const) & _M32
    hash_const = (hash_const * _MULT_A) & _M32
    value = (value * hash_const) & _M32
    value ^= value >> _SHIFT16
    return value, hash_const


@numba.njit(cache=True)
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
    return result ^ (result >> _SHIFT16)


@numba.njit(cache=True)
def append_key(words: np.ndarray, length: int, key: int) -> int:
    """Append spawn key ``key`` (a non-negative int) to ``words[:length]``; the new length."""
    value = np.uint64(key)
    words[length] = value & _M32
    length += 1
    value >>= _SHIFT32
    while value != _ZERO:
        words[length] = value & _M32
        length += 1
        value >>= _SHIFT32
    return length


@numba.njit(cache=True)
def start_pool(words: np.ndarray, length: int, pool: np.ndarray) -> np.uint64:
    """SeedSequence's entropy pool of ``words[:length]`` into ``pool`` (at least the pool's 4
    words, as ``seed_words`` gives); returns the hash constant further words continue from."""
    hash_const = _INIT_A
    for i in range(_POOL_SIZE):
        pool[i], hash_const = _hashmix(words[i], hash_const)
    for source in range(_POOL_SIZE):
        for target in range(_POOL_SIZE):
            if source != target:
                mixed, hash_const = _hashmix(pool[source], hash_const)
                pool[target] = _mix(pool[target], mixed)
    for source in range(_POOL_SIZE, length):
        hash_const = _absorb(pool, hash_const, words[source])
    return hash_const


@numba.njit(cache=True)
def _absorb(pool: np.ndarray, hash_const: np.uint64, word: np.uint64) -> np.uint64:
    for target in range(_POOL_SIZE):
        mixed, hash_const = _hashmix(word, hash_const)
        pool[target] = _mix(pool[target], mixed)
    return hash_const


@numba.njit(cache=True)
def absorb_key(pool: np.ndarray, hash_const: np.uint64, key: int) -> np.uint64:
    """The pool (in place) and hash constant once spawn key ``key`` follows the words so far:
    a labelled sub-stream costs only its own words."""
    value = np.uint64(key)
    hash_const = _absorb(pool, hash_const, value & _M32)
    value >>= _SHIFT32
    while value != _ZERO:
        hash_const = _absorb(pool, hash_const, value & _M32)
        value >>= _SHIFT32
    return hash_const


@numba.njit(cache=True)
def pool_of(words: np.ndarray, length: int, pool: np.ndarray) -> None:
    """SeedSequence's entropy pool (``SeedSequence.pool``) of ``words[:length]`` into ``pool``."""
    start_pool(words, length, pool)


@numba.njit(cache=True, inline="always")
def _multiply_128(high: np.uint64, low: np.uint64) -> tuple[np.uint64, np.uint64]:
    """(high, low) x PCG64's multiplier, modulo 2**128."""
    a_low, a_high = low & _M32, low >> _SHIFT32
    b_low, b_high = _MULT_LOW & _M32, _MULT_LOW >> _SHIFT32
    p0, p1, p2 = a_low * b_low, a_low * b_high, a_high * b_low
    middle = (p0 >> _SHIFT32) + (p1 & _M32) + (p2 & _M32)
    carry_high = a_high * b_high + (p1 >> _SHIFT32) + (p2 >> _SHIFT32) + (middle >> _SHIFT32)
    return carry_high + high * _MULT_LOW + low * _MULT_HIGH, low * _MULT_LOW


@numba.njit(cache=True, inline="always")
def _step(stream: np.ndarray) -> None:
    high, low = _multiply_128(stream[0], stream[1])
    new_low = low + stream[3]
    carry = _ONE if new_low < low else _ZERO
    stream[0] = high + stream[2] + carry
    stream[1] = new_low


@numba.njit(cache=True)
def _state_word(
    low_source: np.uint64, high_source: np.uint64, hash_const: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """Two of generate_state's hashed uint32 words as one uint64 (low word first)."""
    low, hash_const = _generated(low_source, hash_const)
    high, hash_const = _generated(high_source, hash_const)
    return low | (high << _SHIFT32), hash_const


@numba.njit(cache=True)
def _generated(source: np.uint64, hash_const: np.uint64) -> tuple[np.uint64, np.uint64]:
    value = (source ^ hash_const) & _M32
    hash_const = (hash_const * _MULT_B) & _M32
    value = (value * hash_const) & _M32
    return value ^ (value >> _SHIFT16), hash_const


@numba.njit(cache=True)
def seed_stream(pool: np.ndarray, stream: np.ndarray) -> None:
    """``stream`` set as ``PCG64(SeedSequence)`` with this entropy pool sets itself
    (``generate_state(4, uint64)``: eight hashed words, paired little-endian)."""
    hash_const = _INIT_B
    seed_high, hash_const = _state_word(pool[0], pool[1], hash_const)
    seed_low, hash_const = _state_word(pool[2], pool[3], hash_const)
    sequence_high, hash_const = _state_word(pool[0], pool[1], hash_const)
    sequence_low, hash_const = _state_word(pool[2], pool[3], hash_const)
    stream[0], stream[1] = _ZERO, _ZERO
    stream[2] = (sequence_high << _ONE) | (sequence_low >> _SHIFT63)
    stream[3] = (sequence_low << _ONE) | _ONE
    _step(stream)
    low = stream[1] + seed_low
    carry = _ONE if low < stream[1] else _ZERO
    stream[0] = stream[0] + seed_high + carry
    stream[1] = low
    _step(stream)
    stream[4], stream[5] = _ZERO, _ZERO


@numba.njit(cache=True)
def seed_keyed(
    pool: np.ndarray, hash_const: np.uint64, key: int, scratch: np.ndarray, stream: np.ndarray
) -> None:
    """``stream`` set as ``generator(seed, *keys, key)``, where ``pool`` and ``hash_const`` are
    ``start_pool``'s (and ``absorb_key``'s) for the seed and keys; ``pool`` is left as it was."""
    for i in range(_POOL_SIZE):  # a loop: slice assignment costs seconds of compiling
        scratch[i] = pool[i]
    hash_const = absorb_key(scratch, hash_const, key)
    seed_stream(scratch, stream)


@numba.njit(cache=True, inline="always")
def next_uint64(stream: np.ndarray) -> np.uint64:
    """PCG64's next 64-bit output (XSL-RR of the stepped state)."""
    _step(stream)
    high = stream[0]
    mixed = high ^ stream[1]
    rotation = high >> _SHIFT58
    return (mixed >> rotation) | (mixed << ((np.uint64(64) - rotation) & _SHIFT63))


@numba.njit(cache=True, inline="always")
def _next_uint32(stream: np.ndarray) -> np.uint64:
    if stream[4] != _ZERO:
        stream[4] = _ZERO
        return stream[5]
    value = next_uint64(stream)
    stream[4] = _ONE
    stream[5] = value >> _SHIFT32
    return value & _M32


@numba.njit(cache=True, inline="always")
def integers(stream: np.ndarray, count: int) -> int:
    """``Generator.integers(count)`` (0 <= result < count < 2**32): no draw when count is 1."""
    if count <= 1:
        return np.int64(0)  # an int64 on both branches (a bare 0 unifies to float64 in numba)
    excluded = np.uint64(count)
    product = _next_uint32(stream) * excluded
    leftover = product & _M32
    if leftover < excluded:
        threshold = (_M32 - (excluded - _ONE)) % excluded
        while leftover < threshold:
            product = _next_uint32(stream) * excluded
            leftover = product & _M32
    return np.int64(product >> _SHIFT32)


@numba.njit(cache=True, inline="always")
def random(stream: np.ndarray) -> float:
    """``Generator.random()``: a double in [0, 1) from the top 53 bits of one 64-bit draw."""
    return float(next_uint64(stream) >> _SHIFT11) * _TO_UNIT


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
    value = _next_uint32(state) & mask
    while value > limit:
        value = _next_uint32(state) & mask
    return np.int64(value)


@numba.njit(cache=True, inline="always")
def bounded(state: np.ndarray, count: int) -> int:
    """A whole number drawn uniformly from 0..count-1 (1 <= count < 2**32) by Lemire's
    multiply-and-reject: exact, and almost always one 32-bit draw (``below``, numpy's masked
    rejection, takes more; use it where numpy's own stream must be matched)."""
    n = np.uint64(count)
    product = _next_uint32(state) * n
    low = product & _M32
    if low < n:
        threshold = ((_M32 + np.uint64(1)) - n) % n
        while low < threshold:
            product = _next_uint32(state) * n
            low = product & _M32
    return np.int64(product >> _SHIFT32)


@numba.njit(cache=True)
def _shuffle_rows(state: np.ndarray, rows: np.ndarray) -> None:
    n = rows.shape[1]
    for r in range(rows.shape[0]):
        for i in range(n):
            rows[r, i] = i
        for i in range(n - 1, 0, -1):
            j = below(state, i)
            rows[r, i], rows[r, j] = rows[r, j], rows[r, i]


#: SplitMix64's increment (the 64-bit golden ratio) and its finaliser's multipliers.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SPLIT_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_SPLIT_MIX2 = np.uint64(0x94D049BB133111EB)


@numba.njit(cache=True, inline="always")
def keyed_uniform(key: np.uint64, counter: int) -> float:
    """A counter-based uniform in [0, 1): SplitMix64's finaliser of ``key`` + (``counter`` + 1)
    x golden ratio. Any (key, counter) is drawn at once, in any order (``keyed_uniforms``: the
    same numbers for arrays of counters, outside compiled code)."""
    z = key + np.uint64(counter + 1) * GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _SPLIT_MIX1
    z = (z ^ (z >> np.uint64(27))) * _SPLIT_MIX2
    z = z ^ (z >> np.uint64(31))
    return np.float64(z >> np.uint64(11)) * _TO_UNIT


def keyed_uniforms(key: np.uint64, counters: Any) -> np.ndarray:
    """``keyed_uniform(key, c)`` for every counter of ``counters`` (an array of any shape)."""
    z = np.asarray(counters, np.uint64) + np.uint64(1)
    with np.errstate(over="ignore"):
        z = np.uint64(key) + z * GOLDEN
        z = (z ^ (z >> np.uint64(30))) * _SPLIT_MIX1
        z = (z ^ (z >> np.uint64(27))) * _SPLIT_MIX2
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * _TO_UNIT


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


def keyed_stream(seed: Any, *keys: int) -> np.ndarray:
    """The compiled stream of ``generator(seed, *keys)`` (at least one key), made as compiled
    code makes it: the seed's pool, then each key absorbed."""
    base = seed_words(seed_sequence(seed))
    words = np.zeros(MAX_WORDS, dtype=np.uint64)
    words[: len(base)] = base
    pool, scratch = np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64)
    hash_const = start_pool(words, len(base), pool)
    for key in keys[:-1]:
        hash_const = absorb_key(pool, hash_const, key)
    stream = np.zeros(STREAM_WORDS, dtype=np.uint64)
    seed_keyed(pool, hash_const, keys[-1], scratch, stream)
    return stream


def shuffle_rows(rng: np.random.Generator, rows: np.ndarray) -> None:
    """Shuffle 0..n-1 into every row of the 2-D int array ``rows``, as ``rng.permuted`` of the
    tiled aranges would, advancing ``rng`` as it would (PCG64 only)."""
    state = state_of(rng)
    _shuffle_rows(state, rows)
    store(rng, state)


__all__ = [
    "MAX_WORDS", "STREAM_WORDS", "absorb_key", "append_key", "below", "bounded", "integers",
    "keyed_stream",
    "next_uint64", "pool_of", "random", "seed_keyed", "seed_stream", "seed_words",
    "shuffle_rows", "start_pool", "state_of", "store",
]  # fmt: skip
