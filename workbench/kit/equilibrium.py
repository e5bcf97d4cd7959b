"""Equilibrium play: a mixture of policies that no policy of its family can profitably leave,
found by policy-space response oracles (PSRO, Lanctot et al. 2017) on the game's self-play.

The games are symmetric: every seat has the same choices, and a game's win shares add up to 1.
Over a population of policies the *meta-game* is the symmetric n-player game in which each
seat picks a member; its payoffs are estimated by playing every multiset of n members, each
game in a seating drawn at random (``meta_game``). Its symmetric equilibrium is a mixture
sigma (``symmetric_equilibrium``: replicator dynamics), where every member in the support wins
1/n of its games and none wins more against n - 1 seats drawn from sigma. The oracle then asks
for the best response of the policy family to n - 1 seats playing sigma (the kit's
``best_response``, a seat's policy drawn per game); while it gains more than a tolerance, it
joins the population and the meta-game is solved again (``psro``).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from workbench.kit.policies import Mixture
from workbench.kit.progress import progress_bar
from workbench.kit.responses import Parameter, best_response
from workbench.kit.seeding import generator, seed_sequence


@dataclass(frozen=True)
class MetaGame:
    """A symmetric meta-game: ``payoff[m, k]`` is the mean win share of a seat playing
    ``profiles[m][k]`` in the multiset ``profiles[m]`` (n members, sorted), over ``games[m]``
    games."""

    size: int
    players: int
    profiles: tuple[tuple[int, ...], ...]
    payoff: np.ndarray
    games: np.ndarray

    def __post_init__(self) -> None:
        # Each (profile, distinct member): the member, the others' counts and the multinomial
        # coefficient of drawing them, so values(sigma) is a few array operations.
        members, counts, log_coefficients, payoffs = [], [], [], []
        for profile, row in zip(self.profiles, self.payoff, strict=True):
            for member in sorted(set(profile)):
                others = np.bincount(profile, minlength=self.size)
                others[member] -= 1
                members.append(member)
                counts.append(others)
                log_coefficients.append(math.lgamma(self.players) - sum(
                    math.lgamma(c + 1) for c in others))  # fmt: skip
                payoffs.append(row[profile.index(member)])
        object.__setattr__(self, "_terms", (np.array(members), np.array(counts, float),
                                            np.array(log_coefficients), np.array(payoffs)))

    def values(self, sigma: np.ndarray) -> np.ndarray:
        """Each member's expected win share alone against n - 1 seats drawn from ``sigma``."""
        members, counts, log_coefficients, payoffs = self._terms  # type: ignore[attr-defined]
        log_sigma = np.log(np.maximum(np.asarray(sigma, float), 1e-300))
        chance = np.exp(log_coefficients + counts @ log_sigma)
        return np.bincount(members, weights=chance * payoffs, minlength=self.size)

    def gain(self, sigma: np.ndarray) -> float:
        """How far the best member gains over fair share against ``sigma`` (0 at equilibrium)."""
        return float(self.values(sigma).max() - 1 / self.players)


def profiles_of(size: int, players: int) -> list[tuple[int, ...]]:
    """Every multiset of ``players`` members out of ``size``, as sorted tuples."""
    return list(itertools.combinations_with_replacement(range(size), players))


def meta_game(
    play: Callable[[list[Any], np.ndarray, Any], np.ndarray],
    population: Sequence[Any],
    players: int,
    *,
    games: int,
    seed: Any,
) -> MetaGame:
    """The meta-game over ``population`` (agents): ``games`` games of every multiset of
    ``players`` members, each in a random seating. ``play(population, assignment, seed)``
    returns the win shares (games, players) of one game per row of ``assignment``."""
    profiles = profiles_of(len(population), players)
    rng = generator(seed_sequence(seed, 0x3E7A))
    rows = np.repeat(np.array(profiles, np.int64), games, axis=0)
    seating = np.argsort(rng.random(rows.shape), axis=1)
    assignment = np.take_along_axis(rows, seating, axis=1)
    shares = play(list(population), assignment, seed_sequence(seed, 0x3E7B))
    payoff = np.zeros((len(profiles), players))
    for index, profile in enumerate(profiles):
        block = slice(index * games, (index + 1) * games)
        for member in set(profile):
            mine = assignment[block] == member
            payoff[index, np.array(profile) == member] = shares[block][mine].sum() / mine.sum()
    return MetaGame(len(population), players, tuple(profiles), payoff,
                    np.full(len(profiles), games))  # fmt: skip


def symmetric_equilibrium(
    meta: MetaGame, *, steps: int = 4000, rate: float = 2.0, start: np.ndarray | None = None
) -> np.ndarray:
    """A symmetric equilibrium of ``meta`` by replicator dynamics in multiplicative form
    (sigma <- sigma * exp(rate * (u(sigma) - sigma . u(sigma))), renormalised), from ``start``
    (default uniform); the average of the last half of the path, which damps cycling."""
    sigma = np.full(meta.size, 1 / meta.size) if start is None else np.asarray(start, float)
    sigma = np.maximum(sigma, 1e-9)
    sigma /= sigma.sum()
    tail = np.zeros(meta.size)
    for step in range(steps):
        values = meta.values(sigma)
        sigma = sigma * np.exp(rate * (values - sigma @ values))
        sigma /= sigma.sum()
        if step >= steps // 2:
            tail += sigma
    tail /= tail.sum()
    return tail


@dataclass(frozen=True)
class Oracle:
    """A policy family the oracle searches: ``make(vector)`` -> agent over ``space``; ``name``
    says which family a member came from (the fit records it)."""

    make: Callable[[Sequence[float]], Any]
    space: tuple[Parameter, ...]
    name: str = ""


def psro(
    selfplay: Any,
    rules: Any,
    oracles: Oracle | Sequence[Oracle],
    start: Sequence[Sequence[float]],
    *,
    play: Callable[[list[Any], np.ndarray, Any], np.ndarray],
    iterations: int = 6,
    tolerance: float = 0.01,
    meta_games: int = 48,
    search_games: int = 100,
    seed: int = 0,
    progress: bool = False,
) -> tuple[list[tuple[int, list[float]]], list[float], dict[str, Any]]:
    """Grow a population from ``start`` (parameter vectors of the first oracle's family) until
    the best response of every family (``oracles``: one or several) to the population's
    equilibrium gains at most ``tolerance`` over fair share (on its fresh deals), or
    ``iterations`` responses were added; each iteration adds the response that gains most.
    Returns the members as (oracle index, vector) with their equilibrium weights (members of
    weight under 0.1% dropped) and the run's details: each iteration's meta-game gain, the
    response's family and gain, games and seconds."""
    oracles = [oracles] if isinstance(oracles, Oracle) else list(oracles)
    started = time.perf_counter()
    members = [(0, list(map(float, v))) for v in start]
    history: list[dict[str, Any]] = []
    played = 0
    sigma = None
    bar = progress_bar(iterations + 1, enabled=progress, unit="response",
                       description=f"fitting {selfplay.game}: equilibrium")  # fmt: skip
    try:
        for iteration in range(iterations + 1):
            population = [oracles[family].make(v) for family, v in members]
            meta = meta_game(play, population, rules.players, games=meta_games,
                             seed=seed_sequence(seed, iteration))  # fmt: skip
            played += int(meta.games.sum())
            previous = None if sigma is None else np.append(sigma, 1e-3)
            sigma = symmetric_equilibrium(meta, start=previous)
            step: dict[str, Any] = {"members": len(members),
                                    "meta_gain": round(meta.gain(sigma), 4)}  # fmt: skip
            if iteration == iterations:
                history.append(step)
                break
            table = Mixture(population, sigma, name="equilibrium")
            best = None
            for family, oracle in enumerate(oracles):
                params, details = best_response(
                    selfplay, rules, oracle.make, oracle.space, table, games=search_games,
                    seed=seed * 1000 + iteration + 100_000 * family,
                    probes=32 if iteration else 64,
                )  # fmt: skip
                played += details["games"]
                gain = details["share"] - 1 / rules.players
                if best is None or gain > best[0]:
                    best = (gain, family, [params[p.name] for p in oracle.space])
            assert best is not None
            gain, family, vector = best
            history.append({**step, "response": oracles[family].name,
                            "response_gain": round(gain, 4)})  # fmt: skip
            bar.update(1)
            if gain <= tolerance:
                break
            members.append((family, vector))
    finally:
        bar.close()
    keep = [i for i, w in enumerate(sigma) if w >= 1e-3]
    weights = [float(sigma[i]) for i in keep]
    total = math.fsum(weights)
    return ([members[i] for i in keep], [w / total for w in weights],
            {"iterations": history, "games": played,
             "seconds": round(time.perf_counter() - started, 2)})  # fmt: skip


__all__ = ["MetaGame", "Oracle", "meta_game", "profiles_of", "psro", "symmetric_equilibrium"]
