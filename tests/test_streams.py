"""The kit's compiled random streams (``workbench.kit.streams``): numpy's SeedSequence, PCG64
and Generator draws reproduced bit for bit in numba, and Lemire's bounded draws uniform."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.kit import streams
from workbench.kit.seeding import generator, seed_sequence


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**80),
    keys=st.lists(st.integers(0, 2**40), min_size=1, max_size=3),
    draws=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=60),
)
def test_compiled_streams_draw_what_numpy_draws(seed, keys, draws):
    # integers(count) for every count (0 and 1 draw nothing), random() for count 0
    stream = streams.keyed_stream(seed, *keys)
    words = np.zeros(streams.MAX_WORDS, dtype=np.uint64)
    length = len(base := streams.seed_words(seed_sequence(seed)))
    words[:length] = base
    for key in keys:
        length = streams.append_key(words, length, key)
    whole = np.zeros(4, dtype=np.uint64)
    streams.pool_of(words, length, whole)
    assert whole.tolist() == seed_sequence(seed, *keys).pool.tolist()
    rng = generator(seed, *keys)
    for count in draws:
        if count == 0:
            assert streams.random(stream) == rng.random()
        else:
            assert streams.integers(stream, count) == int(rng.integers(count))


def test_seed_words_follow_numpys_entropy_coercion():
    sequence = np.random.SeedSequence([7, 2**40 + 3], spawn_key=(5,))
    words = streams.seed_words(sequence)
    assert words.tolist() == [7, 3, 2**8, 0, 5]  # 2**40 + 3 is two words, padded to four
    with pytest.raises(TypeError, match="SeedSequence"):
        streams.seed_words(3)


@numba.njit
def _compiled_draws(state: np.ndarray, count: int, width: int) -> tuple:
    """``count`` compiled uniforms, then 0..width-1 shuffled with ``below`` (Fisher-Yates from
    the last position, as numpy's ``permuted``)."""
    uniforms = np.empty(count)
    for k in range(count):
        uniforms[k] = streams.random(state)
    values = np.arange(width)
    for i in range(width - 1, -1, -1):
        j = streams.below(state, i)  # below(0) draws nothing, as numpy
        values[i], values[j] = values[j], values[i]
    return uniforms, values


def test_compiled_uniforms_and_bounded_draws_are_numpys():
    """``random`` is numpy's ``random()`` and ``below`` its bounded draw, draw for
    draw; ``state_of``/``store`` hand the generator over and back, numpy going on where the
    compiled draws stopped."""
    for seed in range(3):
        ours, theirs = generator(seed, 2), generator(seed, 2)
        state = streams.state_of(ours)
        uniforms, values = _compiled_draws(state, 50, 41)
        streams.store(ours, state)
        assert (uniforms == theirs.random(50)).all()
        assert (values == theirs.permuted(np.arange(41))).all()
        assert (ours.random(9) == theirs.random(9)).all()


@numba.njit
def _bounded_draws(state: np.ndarray, count: int, size: int) -> np.ndarray:
    out = np.empty(size, np.int64)
    for k in range(size):
        out[k] = streams.bounded(state, count)
    return out


@pytest.mark.parametrize("count", [1, 2, 3, 7, 40, 1000])
def test_compiled_bounded_draws_are_uniform(count):
    """``bounded`` (Lemire's multiply-and-reject) against the uniform distribution on
    0..count-1: chi-square over 200 draws a value, every value in range."""
    from scipy.stats import chisquare

    drawn = _bounded_draws(streams.state_of(generator(count, 3)), count, 200 * count)
    assert drawn.min() >= 0 and drawn.max() < count
    if count > 1:
        assert chisquare(np.bincount(drawn, minlength=count)).pvalue > 0.001
    large = _bounded_draws(streams.state_of(generator(5)), 2**32 - 1, 1000)
    assert large.min() >= 0 and large.max() < 2**32 - 1 and large.max() > 2**31


@numba.njit
def _integers_in_compiled_code(stream: np.ndarray, count: int):
    return streams.integers(stream, count)


def test_compiled_integers_are_whole_numbers_on_every_branch():
    # count 1 draws nothing and returns 0: an int there too, not a float unified with it
    for count in (1, 2, 7):
        drawn = _integers_in_compiled_code(streams.keyed_stream(3, 1), count)
        assert isinstance(drawn, int) and 0 <= drawn < count


def test_keyed_uniforms_are_splitmix64_and_the_same_compiled_and_in_numpy():
    """SplitMix64 seeded with 0 first gives 0xE220A8397B1DCDAF (its published first output):
    key 0, counter 0 is that word's top 53 bits as a double. The numpy and the compiled draws
    agree for any key and counter."""
    assert streams.keyed_uniform(np.uint64(0), 0) == (0xE220A8397B1DCDAF >> 11) / 2.0**53
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 2**63, size=20, dtype=np.uint64)
    counters = rng.integers(0, 2**40, size=20)
    for key, counter in zip(keys, counters, strict=True):
        vectorised = streams.keyed_uniforms(key, np.array([counter]))[0]
        assert streams.keyed_uniform(key, int(counter)) == vectorised
        assert 0.0 <= vectorised < 1.0
