"""One seed -> independent, reproducible numpy generators (via ``numpy.random.SeedSequence``).

Streams are labelled by position (game index, seat) so that adding games or seats never shifts
the numbers an existing game or seat receives.
"""

from __future__ import annotations

import numpy as np

SeedLike = int | np.random.SeedSequence


def seed_sequence(seed: SeedLike, *keys: int) -> np.random.SeedSequence:
    """The SeedSequence for ``seed`` and the labelled sub-stream ``keys`` (e.g. game, seat)."""
    if isinstance(seed, np.random.SeedSequence):
        if not keys:
            return seed
        return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, *keys))
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(f"seed must be a non-negative int, got {seed!r} ({type(seed).__name__})")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed}")
    for key in keys:
        if isinstance(key, bool) or not isinstance(key, int | np.integer) or key < 0:
            raise ValueError(f"stream keys must be non-negative ints, got {keys!r}")
    return np.random.SeedSequence(int(seed), spawn_key=tuple(int(k) for k in keys))


def generator(seed: SeedLike, *keys: int) -> np.random.Generator:
    """A generator for one labelled stream, e.g. ``generator(seed, game, seat)``."""
    return np.random.Generator(np.random.PCG64(seed_sequence(seed, *keys)))


def generators(seed: SeedLike, count: int, *keys: int) -> list[np.random.Generator]:
    """``count`` independent generators: stream ``i`` is ``generator(seed, *keys, i)``."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    return [generator(seed, *keys, i) for i in range(count)]


def derive_seed(seed: SeedLike, *keys: int) -> int:
    """A plain 63-bit integer seed for the labelled stream (for APIs that want an int)."""
    return int(seed_sequence(seed, *keys).generate_state(1, np.uint64)[0] >> np.uint64(1))
