"""From a real mid-game observation: the posterior over an opponent's bid this round and over
every opponent's geek, with the assumptions it rests on (``infer``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import polars as pl

from workbench.checks import flag, whole_number
from workbench.games.rubbish.engine import Observation, check_observation
from workbench.games.rubbish.inference.arguments import (
    _PROBABILITY_SCHEMA,
    _check_epsilon,
    _check_positive,
    _check_seed,
    _probability,
    _text,
)
from workbench.games.rubbish.inference.deals import _evaluate, _Posterior
from workbench.games.rubbish.inference.evidence import _Evidence, _gather
from workbench.games.rubbish.inference.priors import CONFIDENCE, UNIFORM, _percentiles, _Policy
from workbench.kit.seeding import generator


class Inference(NamedTuple):
    """What ``infer`` concludes: ``bids`` (the opponent's bid by total, empty when none was
    asked for), ``geeks`` (every opponent's geek) and ``assumptions`` (topic, assumption: the
    model, the prior over deals and the evidence used)."""

    bids: pl.DataFrame
    geeks: pl.DataFrame
    assumptions: pl.DataFrame


def _policies(
    prior: object, evidence: _Evidence, *, epsilon: float, samples: int, seed: int
) -> dict[int, _Policy]:
    """One model per opponent: a single prior for all, or a mapping seat -> prior."""
    epsilon = _check_epsilon(epsilon)
    samples = _check_positive("samples", samples)
    if isinstance(prior, Mapping):
        seats = [*evidence.opponents, evidence.observation.player]
        unknown = sorted(set(prior) - set(seats), key=str)
        missing = sorted(set(evidence.opponents) - set(prior))
        if unknown or missing:
            raise ValueError(
                f"a per-seat prior maps every opponent {evidence.opponents} (and optionally "
                f"the observer) to a prior; unknown seats {unknown}, missing {missing}"
            )
        shared: dict[int, _Policy] = {}
        result = {}
        for seat in evidence.opponents:
            spec = prior[seat]
            key = id(spec) if not isinstance(spec, str) else spec
            if key not in shared:
                shared[key] = _Policy(spec, epsilon=epsilon, samples=samples, seed=seed + seat)
            result[seat] = shared[key]
        return result
    policy = _Policy(prior, epsilon=epsilon, samples=samples, seed=seed)
    return dict.fromkeys(evidence.opponents, policy)


def _analyse(
    observation: Observation, prior: object, *, epsilon: float, history: bool, samples: int,
    seed: int, bootstrap: int,
) -> tuple[_Evidence, dict[int, _Policy], _Posterior, list[_Posterior]]:  # fmt: skip
    evidence = _gather(observation, history)
    policies = _policies(prior, evidence, epsilon=epsilon, samples=samples, seed=seed)
    posterior = _evaluate(evidence, policies)
    replicates: list[_Posterior] = []
    if any(p.kind == "sampled" for p in policies.values()):
        rng = generator(seed, 1_000_003)
        for _ in range(_check_positive("bootstrap", bootstrap)):
            cache: dict[int, _Policy] = {}
            for policy in policies.values():
                if id(policy) not in cache:
                    cache[id(policy)] = policy.resampled(rng)
            redrawn = {seat: cache[id(policy)] for seat, policy in policies.items()}
            try:
                replicates.append(_evaluate(evidence, redrawn))
            except ValueError:
                continue
    return evidence, policies, posterior, replicates


def infer(
    observation: Observation, opponent: int | None = None, *, prior: object = UNIFORM,
    epsilon: float = 0.0, history: bool = True, samples: int = 100, seed: int = 0,
    bootstrap: int = 100,
) -> Inference:  # fmt: skip
    """From a real mid-game ``observation``: the posterior over ``opponent``'s bid total this
    round (None: geeks only) and over each opponent's geek, by exact Bayes over every deal on
    this round's cards held out, your peek and (``history``) every past choice. ``prior``:
    "uniform", an agent or name, or a mapping seat -> such (estimated from ``samples`` seeded
    calls with ``bootstrap`` intervals without ``action_probabilities``). A ValueError when the
    opponent has not bid or the evidence contradicts the model."""
    check_observation(observation)
    me = observation.player
    history = flag("history", history)
    epsilon = _check_epsilon(epsilon)
    samples = _check_positive("samples", samples)
    bootstrap = _check_positive("bootstrap", bootstrap)
    seed = _check_seed(seed)
    if opponent is not None:
        last = observation.rules.players - 1
        opponent = whole_number(
            "opponent", opponent, low=0, high=last, allowed=f"a seat 0–{last} or None"
        )
        if opponent == me:
            raise ValueError(f"seat {me} is the observer: its own bid is not hidden from it")
        if observation.phase != "bid" or observation.held_out[opponent] is None:
            raise ValueError(
                f"seat {opponent} has not held out cards this round (phase "
                f"{observation.phase!r}): there is no hidden bid to infer; use opponent=None for "
                "geeks only"
            )
    evidence, policies, posterior, replicates = _analyse(
        observation, prior, epsilon=epsilon, history=history, samples=samples, seed=seed,
        bootstrap=bootstrap,
    )  # fmt: skip
    bids = _bids_frame(evidence, posterior, replicates, [] if opponent is None else [opponent])
    return Inference(
        bids, _geeks_frame(evidence, posterior, replicates),
        _assumptions(evidence, policies, replicates, bootstrap),
    )  # fmt: skip


def _bids_frame(
    evidence: _Evidence, posterior: _Posterior, replicates: list[_Posterior], seats: Sequence[int]
) -> pl.DataFrame:
    rows = []
    for seat in seats:
        by_total: dict[int, list] = {}
        for bid, p in posterior.bids[seat].items():
            entry = by_total.setdefault(bid.total, [0, []])
            entry[0] += p
            entry[1].append(_text(bid.cards))
        bounds = {}
        if replicates:
            totals = [
                {t: sum(float(p) for b, p in r.bids[seat].items() if b.total == t)
                 for t in by_total}
                for r in replicates
            ]  # fmt: skip
            bounds = _percentiles(totals, by_total)
        for total, (p, combos) in sorted(by_total.items()):
            rows.append({"seat": seat, "total": total, **_probability(p, bounds.get(total)),
                         "combinations": ", ".join(combos)})  # fmt: skip
    return pl.DataFrame(rows, schema=_BIDS_SCHEMA)


_BIDS_SCHEMA = {
    "seat": pl.Int64, "total": pl.Int64, **_PROBABILITY_SCHEMA, "combinations": pl.String,
}  # fmt: skip


def _geeks_frame(
    evidence: _Evidence, posterior: _Posterior, replicates: list[_Posterior]
) -> pl.DataFrame:
    rules = evidence.observation.rules
    rows = []
    for seat, by_geek in posterior.geeks.items():
        bounds = {}
        if replicates:
            bounds = _percentiles([r.geeks[seat] for r in replicates], by_geek)
        for geek, p in by_geek.items():
            name, destined = rules.geeks[geek]
            rows.append({"seat": seat, "geek": geek, "name": name,
                         "destined": " & ".join(rules.items[item] for item in destined),
                         **_probability(p, bounds.get(geek))})  # fmt: skip
    return pl.DataFrame(rows, schema=_GEEKS_SCHEMA)


_GEEKS_SCHEMA = {
    "seat": pl.Int64, "geek": pl.Int64, "name": pl.String, "destined": pl.String,
    **_PROBABILITY_SCHEMA,
}  # fmt: skip


def _assumptions(
    evidence: _Evidence, policies: Mapping[int, _Policy], replicates: list[_Posterior],
    bootstrap: int,
) -> pl.DataFrame:  # fmt: skip
    observation = evidence.observation
    rules = observation.rules
    deals = math.perm(len(evidence.candidate_geeks), len(evidence.opponents))
    rows = [
        (
            "deal",
            f"opponents' geeks dealt uniformly without replacement from the "
            f"{len(evidence.candidate_geeks)} geeks other than yours "
            f"({rules.geeks[observation.geek].name}): {deals} equally likely deals, "
            "all enumerated",
        )
    ]
    described: dict[str, list[int]] = {}
    for seat, policy in policies.items():
        described.setdefault(policy.describe(), []).append(seat)
    for text, seats in described.items():
        rows.append(("play", f"seats {seats}: {text}"))
    past = [d for d in evidence.decisions if d.round < observation.round]
    if past:
        rows.append(("evidence", f"{len(past)} past decisions (auction choices and revealed "
                     "bids), each bid's likelihood averaged over the bidder's blind peek"))
    elif observation.history:
        rows.append(("evidence", "past rounds ignored (history=False)"))
    if evidence.steps:
        held = ", ".join(f"seat {s.seat} {s.count}" for s in evidence.steps)
        rows.append(("evidence", f"this round's auction choice and cards held out: {held}"))
    peek = observation.peek
    if peek is not None:
        seen = "nothing" if peek.card is None else f"a {peek.card}"
        rows.append(("evidence", f"your peek: {seen} among seat {peek.target}'s "
                     f"{peek.source.replace('_', '-')} cards, weighed by its likelihood"))
    if replicates:
        rows.append(("interval", f"{CONFIDENCE:.0%} bootstrap intervals over the sampled "
                     f"policy: {len(replicates)} of {bootstrap} replicates usable"))  # fmt: skip
    exact = all(p.kind == "uniform" for p in policies.values())
    rows.append(("arithmetic", "exact fractions" if exact
                 else "floating point (exact method; estimates where sampled)"))  # fmt: skip
    return pl.DataFrame(rows, schema={"topic": pl.String, "assumption": pl.String}, orient="row")
