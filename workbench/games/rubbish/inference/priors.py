"""Priors over a hidden bid: models of how a player chooses (uniform card subsets, an agent's
exact probabilities, or an agent estimated by seeded sampling), and your own prior over bids."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from numbers import Integral, Real
from typing import Any

import numpy as np

from workbench.games.rubbish.cards import Bid, bid_table, physical_ways, without
from workbench.games.rubbish.engine import Observation
from workbench.games.rubbish.game import AGENTS, make_agent
from workbench.games.rubbish.inference.arguments import Number, _geek_numbers, _text
from workbench.kit.seeding import generator

UNIFORM = "uniform"
#: Two-sided coverage of the bootstrap intervals given for sampled (estimated) priors.
CONFIDENCE = 0.95


def _prior_spec(prior: object) -> object:
    if isinstance(prior, type):
        raise TypeError(
            f"a prior takes an agent, not its class: pass {prior.__name__}(), got {prior!r}"
        )
    if isinstance(prior, str) and prior != UNIFORM:
        try:
            return make_agent(prior)
        except ValueError:
            raise ValueError(
                f"unknown prior {prior!r}: use 'uniform', an agent name ({', '.join(AGENTS)}) "
                "or an agent"
            ) from None
    return prior


def uniform_choice(observation: Observation, legal: Sequence[Any]) -> dict[Any, Fraction]:
    """P(action) for a chooser playing uniformly: bids weighed by their physical card subsets
    (every set of its available cards alike), any other actions equally."""
    if legal and isinstance(legal[0], Bid):
        cards = observation.available(observation.player)
        ways = {bid: physical_ways(cards, bid.cards) for bid in legal}
        total = sum(ways.values())
        return {bid: Fraction(w, total) for bid, w in ways.items()}
    return {action: Fraction(1, len(legal)) for action in legal}


class _Policy:
    """One model of how a player chooses: uniform card subsets, an agent's exact probabilities,
    or an agent estimated by seeded sampling. Distributions are cached by a caller's key."""

    def __init__(self, spec: object, *, epsilon: float, samples: int, seed: int) -> None:
        spec = _prior_spec(spec)
        self.epsilon = epsilon
        self.samples = samples
        self.seed = seed
        self._cache: dict[Any, dict[Any, Number]] = {}
        self._counts: dict[Any, tuple[list[Any], np.ndarray]] = {}
        if isinstance(spec, str):  # "uniform"
            self.kind, self.agent = "uniform", None
        elif callable(spec):
            self.agent = spec
            exact = callable(getattr(spec, "action_probabilities", None))
            self.kind = "exact" if exact else "sampled"
        else:
            raise TypeError(
                f"a prior is 'uniform', an agent name or an agent (callable), got {spec!r}"
            )

    @property
    def label(self) -> str:
        if self.agent is None:
            return "uniform card subsets"
        return type(self.agent).__name__

    def describe(self) -> str:
        """The model in words, with how its probabilities are obtained."""
        if self.kind == "uniform":
            return (
                "uniform over physical card subsets (every set of cards of the public size "
                "equally likely, whatever the geek or peek); exact fractions"
            )
        mix = f", mixed with {self.epsilon:g} uniform play" if self.epsilon else ""
        if self.kind == "exact":
            return f"{self.agent!r}: exact action probabilities{mix}"
        return (
            f"{self.agent!r}: ESTIMATED from {self.samples} seeded samples per situation "
            f"(seed {self.seed}){mix}; intervals by bootstrap over the samples"
        )

    def distribution(self, key: Any, observation: Observation, legal: Sequence[Any]) -> dict:
        """P(action | observation) over ``legal`` (cached under ``key``)."""
        if key not in self._cache:
            self._cache[key] = self._compute(key, observation, legal)
        return self._cache[key]

    def _compute(self, key: Any, observation: Observation, legal: Sequence[Any]) -> dict:
        if self.kind == "uniform":
            return uniform_choice(observation, legal)
        if self.kind == "exact":
            probabilities = self.agent.action_probabilities(observation, legal)
            raw = {action: float(probabilities.get(action, 0.0)) for action in legal}
        else:
            rng = generator(self.seed, len(self._counts))
            tally = Counter(self.agent(observation, legal, rng) for _ in range(self.samples))
            strange = [action for action in tally if action not in legal]
            if strange:
                raise ValueError(f"{self.agent!r} chose {strange[0]!r}, which is not legal here")
            counts = np.array([tally[action] for action in legal], dtype=float)
            self._counts[key] = (list(legal), counts)
            raw = dict(zip(legal, (counts / self.samples).tolist(), strict=True))
        return self._mix(raw)

    def _mix(self, raw: dict) -> dict:
        if not self.epsilon:
            return raw
        share = self.epsilon / len(raw)
        return {action: (1 - self.epsilon) * p + share for action, p in raw.items()}

    def resampled(self, rng: np.random.Generator) -> _Policy:
        """A bootstrap copy: every sampled distribution redrawn from its own sample counts."""
        copy = _Policy.__new__(_Policy)
        copy.__dict__.update(self.__dict__)
        copy._cache = dict(self._cache)
        copy._counts = dict(self._counts)
        for key, (legal, counts) in self._counts.items():
            redrawn = rng.multinomial(self.samples, counts / counts.sum()).astype(float)
            copy._cache[key] = self._mix(
                dict(zip(legal, (redrawn / self.samples).tolist(), strict=True))
            )
        return copy


def _percentiles(replicates: list[dict[Any, float]], keys: Iterable[Any]) -> dict[Any, tuple]:
    tail = (1 - CONFIDENCE) / 2 * 100
    bounds = {}
    for key in keys:
        values = np.array([float(r.get(key, 0.0)) for r in replicates])
        low, high = np.percentile(values, [tail, 100 - tail])
        bounds[key] = (float(low), float(high))
    return bounds


def _explicit_prior(prior: Mapping, cards: tuple[int, ...]) -> dict[tuple[int, ...], Number]:
    weights: dict[tuple[int, ...], Number] = {}
    for key, weight in prior.items():
        try:
            bid = key.cards if isinstance(key, Bid) else Bid(key).cards
        except TypeError:
            raise TypeError(
                f"prior keys must be bids: card tuples such as (5, 2, 1) or Bid, got {key!r}"
            ) from None
        try:
            without(cards, bid)
        except ValueError:
            raise ValueError(
                f"the prior names {_text(bid)}, which cannot be held out from {_text(cards)}"
            ) from None
        if isinstance(weight, bool) or not isinstance(weight, Real):
            raise TypeError(f"prior weights must be numbers >= 0, got {weight!r}")
        if not (weight >= 0 and math.isfinite(weight)):
            raise ValueError(f"prior weights must be >= 0, got {weight!r} for {_text(bid)}")
        if isinstance(weight, Integral):
            weights[bid] = Fraction(int(weight))
        else:
            weights[bid] = weight if isinstance(weight, Fraction) else float(weight)
    return weights


def _policy_name(prior: object) -> str:
    if isinstance(prior, Mapping):
        return "your prior"
    if isinstance(prior, str):
        return f"the {prior} prior" if prior == UNIFORM else f"the {prior} policy"
    return f"the {type(prior).__name__} policy"


def _situation_geeks(
    situation: Observation | None, cards: tuple[int, ...], geeks: Sequence[int] | None,
    policy: _Policy,
) -> tuple[int, ...]:  # fmt: skip
    if situation is None:
        raise ValueError(
            f"a policy prior ({policy.label}) needs situation=: the bidder's Observation when it "
            "chose (state.observation(bidder) with the bidder to play)"
        )
    bidder = situation.player
    if situation.phase != "bid" or situation.to_play != bidder or situation.own_bid is not None:
        raise ValueError(
            "situation must be the bidder's observation at its own bidding decision (phase "
            f"'bid', to_play == player); got phase {situation.phase!r}, to_play "
            f"{situation.to_play}, player {bidder}"
        )
    if situation.available(bidder) != cards:
        raise ValueError(
            f"available {_text(cards)} differs from what the situation's bidder (seat {bidder}) "
            f"can use: {_text(situation.available(bidder))}"
        )
    if geeks is None:
        return tuple(range(len(situation.rules.geeks)))
    return _geek_numbers(geeks, situation.rules)


def _policy_prior(
    policy: _Policy, situation: Observation, candidates: tuple[int, ...]
) -> dict[tuple[int, ...], Number]:
    """The policy's bid distribution in ``situation``, averaged over the candidate geeks."""
    rules = situation.rules
    table = bid_table(rules.money_cards)
    legal = table.legal(
        table.lock_option(situation.locked[situation.player]),
        rules.min_cards_at(situation.order.index(situation.player)),
    )
    mixed: dict[tuple[int, ...], Number] = {}
    for geek in candidates:
        observation = dataclasses.replace(situation, geek=geek)
        for bid, p in policy.distribution(("situation", geek), observation, legal).items():
            mixed[bid.cards] = mixed.get(bid.cards, 0) + p / len(candidates)
    return mixed
