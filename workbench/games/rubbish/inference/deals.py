"""The exact posterior over the deal of geeks and this round's hidden bids: every deal
enumerated, weighed by past decisions, the bids so far solved forward-backward in order."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from workbench.games.rubbish.cards import Bid
from workbench.games.rubbish.engine import Peek
from workbench.games.rubbish.inference.arguments import Number
from workbench.games.rubbish.inference.evidence import _Evidence
from workbench.games.rubbish.inference.peeks import _none_first, likelihood
from workbench.games.rubbish.inference.priors import _Policy


@dataclass
class _Posterior:
    """P(deal, bids | evidence) marginals: each opponent's hidden bid and each one's geek."""

    bids: dict[int, dict[Bid, Number]]  # by opponent seat with a hidden bid this round
    geeks: dict[int, dict[int, Number]]  # by opponent seat


def _evaluate(evidence: _Evidence, policies: Mapping[int, _Policy]) -> _Posterior:
    """Exact posterior over deals and this round's hidden bids: P(deal, bids | evidence) ∝
    P(deal) · Π past decisions P(action | geek, peek averaged) · P(this round's counts and your
    peek | geeks), the last by a forward-backward pass along the bidding order."""
    observation = evidence.observation
    me = observation.player
    exact = all(policies[s].kind == "uniform" for s in evidence.opponents)
    one: Number = Fraction(1) if exact else 1.0
    zero: Number = Fraction(0) if exact else 0.0
    geeks = evidence.candidate_geeks

    # Past decisions factor by seat: each depends only on its own seat's geek.
    history: dict[int, dict[int, Number]] = {s: dict.fromkeys(geeks, one) for s in policies}
    for index, decision in enumerate(evidence.decisions):
        if decision.seat == me:
            continue
        policy = policies[decision.seat]
        for geek in geeks:
            chance = zero
            for peek, weight in decision.peeks:
                seen = dataclasses.replace(decision.observation, geek=geek, peek=peek)
                key = ("past", index, geek, None if peek is None else peek.card)
                dist = policy.distribution(key, seen, decision.legal)
                chance += weight * dist.get(decision.action, zero)
            history[decision.seat][geek] *= chance

    chain = _Chain(evidence, policies, exact)
    total = zero
    geek_mass = {s: dict.fromkeys(geeks, zero) for s in evidence.opponents}
    bid_mass: dict[int, np.ndarray] = {}
    for deal in itertools.permutations(geeks, len(evidence.opponents)):
        geek_of = dict(zip(evidence.opponents, deal, strict=True))
        weight = one
        for seat, geek in geek_of.items():
            weight *= history[seat][geek]
        if not weight:
            continue
        z, marginals = chain.solve(geek_of)
        if not z:
            continue
        total += weight * z
        for seat, geek in geek_of.items():
            geek_mass[seat][geek] += weight * z
        for j, marginal in marginals.items():
            bid_mass[j] = bid_mass.get(j, 0) + weight * marginal
    if not total:
        raise ValueError(_contradiction(evidence, policies, history))
    bids = {
        step.seat: dict(zip(step.candidates, (m / total for m in bid_mass[j]), strict=True))
        for j, step in enumerate(evidence.steps)
        if step.seat != me
    }
    geek_post = {s: {g: m / total for g, m in masses.items()} for s, masses in geek_mass.items()}
    return _Posterior(bids, geek_post)


class _Chain:
    """This round's bids so far as a chain: bid j depends on bidder j's geek and on its peek at
    bid j-1. Matrices are built per (position, geek) and deduplicated, so bidders whose model
    ignores the geek are solved once."""

    def __init__(self, evidence: _Evidence, policies: Mapping[int, _Policy], exact: bool):
        self.steps = evidence.steps
        self.me = evidence.observation.player
        self.exact = exact
        self.dtype = object if exact else float
        own_peek = evidence.observation.peek
        self.own_peek = own_peek
        self.matrices: list[dict[int, int]] = []  # per step: geek -> matrix id
        self.unique: list[list[np.ndarray]] = []  # per step: distinct matrices
        self.cache: dict[tuple[int, ...], tuple[Number, dict[int, np.ndarray]]] = {}
        for j, step in enumerate(self.steps):
            by_geek: dict[int, int] = {}
            distinct: list[np.ndarray] = []
            signatures: dict[Any, int] = {}
            geeks = evidence.candidate_geeks if step.seat != self.me else [None]
            for geek in geeks:
                matrix = self._matrix(j, geek, policies.get(step.seat))
                signature = (matrix.shape, tuple(matrix.ravel().tolist()))
                if signature not in signatures:
                    signatures[signature] = len(distinct)
                    distinct.append(matrix)
                by_geek[geek] = signatures[signature]
            self.matrices.append(by_geek)
            self.unique.append(distinct)
        last = self.steps[-1] if self.steps else None
        final = [1] * (len(last.candidates) if last else 0)
        observer_bid = any(step.seat == self.me for step in self.steps)
        if last is not None and own_peek is not None and not observer_bid:
            # You have not bid yet: your peek looked at the last bid so far.
            final = [
                likelihood(last.available, b.cards, own_peek.card, own_peek.source)
                for b in last.candidates
            ]
        self.final = self._array(final)

    def _array(self, values: Any) -> np.ndarray:
        array = np.array(values, dtype=object)
        return array if self.exact else array.astype(float)

    def _matrix(self, j: int, geek: int | None, policy: _Policy | None) -> np.ndarray:
        """Step j's start vector (j = 0) or transition matrix from step j-1's bids."""
        step = self.steps[j]
        if step.seat == self.me:
            previous = self.steps[j - 1] if j else None
            peek = self.own_peek
            if previous is None or peek is None:
                return self._array([1] if j == 0 else [[1]] * len(previous.candidates))
            return self._array(
                [
                    [likelihood(previous.available, b.cards, peek.card, peek.source)]
                    for b in previous.candidates
                ]
            )
        if j == 0:
            seen = dataclasses.replace(step.observation, geek=geek, peek=None)
            dist = policy.distribution(("chain", 0, geek, None), seen, step.legal)
            return self._array([dist.get(b, 0) for b in step.candidates])
        previous = self.steps[j - 1]
        values = sorted(
            {c for b in previous.candidates for c in (*previous.available, None)}, key=_none_first,
        )  # fmt: skip
        rows = []
        for b in previous.candidates:
            row = [0] * len(step.candidates)
            for card in values:
                chance = likelihood(previous.available, b.cards, card, step.source)
                if not chance:
                    continue
                seen = dataclasses.replace(
                    step.observation, geek=geek, peek=Peek(previous.seat, card, step.source)
                )
                dist = policy.distribution(("chain", j, geek, card), seen, step.legal)
                for k, candidate in enumerate(step.candidates):
                    row[k] += chance * dist.get(candidate, 0)
            rows.append(row)
        return self._array(rows)

    def solve(self, geek_of: Mapping[int, int]) -> tuple[Number, dict[int, np.ndarray]]:
        """(P(this round's evidence | geeks), unnormalised marginal of each hidden bid)."""
        if not self.steps:
            return (Fraction(1) if self.exact else 1.0), {}
        key = tuple(
            self.matrices[j][None if step.seat == self.me else geek_of[step.seat]]
            for j, step in enumerate(self.steps)
        )
        if key not in self.cache:
            mats = [self.unique[j][k] for j, k in enumerate(key)]
            alphas = [mats[0]]
            for matrix in mats[1:]:
                alphas.append(alphas[-1] @ matrix)
            betas = [self.final]
            for matrix in reversed(mats[1:]):
                betas.insert(0, matrix @ betas[0])
            z = alphas[-1] @ self.final
            marginals = {
                j: alphas[j] * betas[j] for j, step in enumerate(self.steps) if step.seat != self.me
            }
            self.cache[key] = (z, marginals)
        return self.cache[key]


def _contradiction(
    evidence: _Evidence, policies: Mapping[int, _Policy], history: Mapping[int, Mapping]
) -> str:
    """Why the evidence has probability 0 under the models, as a message."""
    advice = "Pass epsilon > 0 to mix in a share of uniform play, or use prior='uniform'."
    for seat, by_geek in history.items():
        if seat in evidence.opponents and not any(by_geek.values()):
            policy = policies[seat]
            for index, decision in enumerate(evidence.decisions):
                if decision.seat != seat:
                    continue
                possible = False
                for geek in evidence.candidate_geeks:
                    for peek, _ in decision.peeks:
                        key = ("past", index, geek, None if peek is None else peek.card)
                        seen = dataclasses.replace(decision.observation, geek=geek, peek=peek)
                        dist = policy.distribution(key, seen, decision.legal)
                        possible = possible or bool(dist.get(decision.action, 0))
                if not possible:
                    return (
                        f"the evidence contradicts {policy.label}: seat {seat}'s "
                        f"{decision.action!r} in round {decision.round} has probability 0 for "
                        f"every geek it could hold. {advice}"
                    )
    held = ", ".join(f"seat {s.seat}: {s.count}" for s in evidence.steps)
    return (
        "the evidence has probability 0 under the models of play "
        f"({', '.join(sorted({p.label for p in policies.values()}))}): no deal of geeks makes "
        f"this round's cards held out ({held}) and your peek possible together. {advice}"
    )
