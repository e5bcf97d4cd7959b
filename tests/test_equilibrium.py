"""Equilibrium play by PSRO (workbench.kit.equilibrium), on meta-games whose equilibria are
known by hand."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.kit.equilibrium import MetaGame, meta_game, profiles_of, symmetric_equilibrium

# Rock, paper, scissors as a two-seat share game: a win takes the game, a tie shares it.
RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])  # RPS[mine, theirs]


def _meta(payoff_of, size, players):
    """A meta-game with the exact payoffs ``payoff_of(member, others)``."""
    profiles = profiles_of(size, players)
    payoff = np.array([
        [payoff_of(member, [*profile[:k], *profile[k + 1:]]) for k, member in enumerate(profile)]
        for profile in profiles
    ])  # fmt: skip
    return MetaGame(size, players, tuple(profiles), payoff, np.ones(len(profiles)))


def test_profiles_are_the_multisets_of_seats():
    assert profiles_of(2, 3) == [(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 1, 1)]
    assert len(profiles_of(8, 4)) == 330  # C(8 + 4 - 1, 4)


def test_rock_paper_scissors_has_its_uniform_equilibrium():
    meta = _meta(lambda me, others: RPS[me, others[0]], 3, 2)
    assert meta.values(np.array([1.0, 0, 0])) == pytest.approx([0.5, 1.0, 0.0])  # paper wins
    sigma = symmetric_equilibrium(meta, start=np.array([0.6, 0.3, 0.1]))
    assert sigma == pytest.approx([1 / 3] * 3, abs=0.02)
    assert meta.gain(sigma) == pytest.approx(0.0, abs=0.01)


def test_a_dominant_member_takes_the_whole_mixture_with_three_seats():
    # member 2 beats everyone else and shares with its own kind: 0.8 of a game against any
    # table that is not all 2s; the rest split what is left.
    def share(me, others):
        if me == 2:
            return 1 / 3 if others == [2, 2] else 0.8
        return (1 - 0.8 * (2 in others)) / (3 - others.count(2))

    meta = _meta(share, 3, 3)
    assert meta.values(np.array([0, 0, 1.0]))[2] == pytest.approx(1 / 3)
    sigma = symmetric_equilibrium(meta)
    assert sigma[2] > 0.99 and meta.gain(sigma) == pytest.approx(0.0, abs=0.005)


def test_a_meta_game_seats_every_multiset_at_random_and_reads_each_members_share():
    played = []

    def play(population, assignment, seed):
        played.append(assignment)
        # seat's share: its member's strength over the table's total
        strength = np.array(population, float)[assignment]
        return strength / strength.sum(axis=1, keepdims=True)

    meta = meta_game(play, [1.0, 3.0], 2, games=20, seed=1)
    assert meta.profiles == ((0, 0), (0, 1), (1, 1)) and (meta.games == 20).all()
    assignment = played[0]
    assert sorted(map(tuple, np.sort(assignment, axis=1)[::20])) == [(0, 0), (0, 1), (1, 1)]
    mixed = assignment[20:40]
    assert 0 < (mixed[:, 0] == 0).sum() < 20  # both seatings of (0, 1) were played
    assert meta.payoff.tolist() == [[0.5, 0.5], [0.25, 0.75], [0.5, 0.5]]
