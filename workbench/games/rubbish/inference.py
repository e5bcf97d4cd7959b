"""Hidden-bid inference for Rubbish Auction: exact Bayes over money-card subsets and geek deals.

Before the reveal a player sees of each bid only how many cards it holds out, which card its
bidder has locked (public), and — for the next bidder — one blind peek. ``possible_bids`` lists
what such a bid can be; ``bid_posterior`` weighs it with a prior and a peek; ``max_bid`` and
``max_bid_table`` give the most anyone can bid; ``infer`` works from a real engine observation,
for an opponent's bid total and for every opponent's geek; ``game_inference`` runs ``infer``
round by round through a finished game.

Choices made here (the rulebook is silent):

- ``available`` is a sequence of card values such as ``(5, 2, 2, 1)``: part of the rules' money
  cards (the rulebook's 10, 5, 2, 2, 1 unless ``rules`` is given). Cards of equal value are
  distinct physical cards, so ``ways`` counts physical card subsets (1+2+5 arises two ways).
- The default prior is uniform over physical card subsets of the public size: every set of
  held-out cards equally likely. It is exact: the ``exact`` column holds the probability as a
  fraction ("2/3"), ``probability`` the same as a float.
- A peek is evidence weighed by its true likelihood, never a filter: with 2+ cards held out the
  peeker sees each of them with equal chance, otherwise each of the bidder's unused available
  cards (docs/rules.md, the peek). Seeing a 2 among three held-out cards is twice as likely from
  1+2+2 as from one particular 1+2+5.
- A policy prior (any agent) models the bidder's choice in its situation. Agents that give
  ``action_probabilities`` are used exactly (floating-point arithmetic); others are estimated by
  seeded sampling, and the output says so with the sample size and a bootstrap interval.
  ``epsilon`` mixes in that share of uniform play (uniform over legal actions); with
  ``epsilon=0`` evidence a policy cannot produce raises ValueError rather than dividing by zero.
- Combinations are written low to high as the rulebook does ("1+2+5").
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, NamedTuple

import numpy as np
import polars as pl

from workbench.checks import choice, flag, whole_number
from workbench.games.rubbish.agents import make_agent
from workbench.games.rubbish.cards import (
    Bid,
    bid_table,
    card_values,
    is_whole_number,
    physical_ways,
    sub_multisets,
    without,
)
from workbench.games.rubbish.engine import Auction, Observation, Peek, State, new_game
from workbench.games.rubbish.rules import Rules
from workbench.kit.seeding import generator

Number = Fraction | float
PeekLike = Peek | tuple[int | None, str] | int | None
SOURCES = ("held_out", "unused")
UNIFORM = "uniform"
#: Two-sided coverage of the bootstrap intervals given for sampled (estimated) priors.
CONFIDENCE = 0.95


# -- input checks ---------------------------------------------------------------------------------


@functools.cache
def _default_rules() -> Rules:
    return Rules()


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _default_rules()
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a rubbish Rules, got {type(rules).__name__}")
    return rules


def _cards(available: Iterable[int], rules: Rules) -> tuple[int, ...]:
    """``available`` as a high-to-low tuple, checked against the rules' money cards."""
    money = rules.money_cards

    def error(given: object, bad: list[object] | None) -> str:
        if bad is None:
            return (
                f"available must be a sequence of card values from the money cards "
                f"{list(money)}, got {given!r} ({type(given).__name__})"
            )
        return (
            f"available: card values must be whole numbers from the money cards {list(money)}, "
            f"got {bad!r}"
        )

    cards = card_values(available, error)
    unknown = sorted(set(cards) - set(money))
    if unknown:
        raise ValueError(
            f"unknown card value(s) {unknown}: each player's money cards are {list(money)}"
        )
    have, owned = Counter(cards), Counter(money)
    for value, count in have.items():
        if count > owned[value]:
            raise ValueError(
                f"available holds {count} cards of value {value}, but each player owns only "
                f"{owned[value]} (money cards {list(money)})"
            )
    return cards


def _position(position: int | None, rules: Rules) -> int | None:
    """A bidding position (0 = the First Bidder) or None (any position)."""
    if position is None:
        return None
    return whole_number(
        "position",
        position,
        low=0,
        high=rules.players - 1,
        allowed=f"a bidding position 0–{rules.players - 1} (0 = the First Bidder) or None",
    )


def _count(n_cards: int, cards: tuple[int, ...], rules: Rules, position: int | None = None) -> int:
    """``n_cards`` checked: a count of available cards the bidder at ``position`` (None: at
    some position) may hold out under the rules' bid minimum."""
    n_cards = whole_number(
        "n_cards", n_cards, low=0, allowed=f"a whole number of cards 0–{len(cards)}"
    )
    if n_cards > len(cards):
        raise ValueError(
            f"cannot hold out {n_cards} cards from the {len(cards)} available "
            f"({_text(cards)}): n_cards must be 0–{len(cards)}"
        )
    position = _position(position, rules)
    fewest = min(rules.bid_minimums) if position is None else rules.min_cards_at(position)
    if n_cards < fewest:
        where = "at any position" if position is None else f"at bidding position {position}"
        raise ValueError(
            f"n_cards={n_cards} is not a legal bid {where}: bid_minimum "
            f"{rules.bid_minimum!r} needs at least {fewest} card(s) (the First Bidder "
            f"{rules.bid_minimums[0]}, later bidders {rules.bid_minimums[1]})"
        )
    return int(n_cards)


def peek_source(n_cards: int) -> str:
    """Where the next bidder's blind peek looks: among 2+ held-out cards, else the unused ones."""
    return "held_out" if n_cards >= 2 else "unused"


def _peek(peek: PeekLike, cards: tuple[int, ...], n_cards: int) -> tuple[int | None, str] | None:
    """A peek as (card, source); a bare card value takes the source the rules imply."""
    if peek is None:
        return None
    expected = peek_source(n_cards)
    if isinstance(peek, Peek):
        card, source = peek.card, peek.source
    elif is_whole_number(peek):
        card, source = int(peek), expected
    elif isinstance(peek, tuple) and len(peek) == 2:
        card, source = peek
    else:
        raise TypeError(
            f"peek must be (card, source), a Peek, a card value or None; got {peek!r}; source "
            f"is one of {SOURCES}"
        )
    if card is not None and not is_whole_number(card):
        raise TypeError(f"peek: the card seen must be a card value or None, got {card!r}")
    if not isinstance(source, str) or source not in SOURCES:
        raise ValueError(f"peek source must be one of {SOURCES}, got {source!r}")
    if source != expected:
        raise ValueError(
            f"a peek among the {source.replace('_', '-')} cards cannot have happened with "
            f"{n_cards} card(s) held out: the peeker looks among the held-out cards only when 2 "
            f"or more are held out, else among the unused ones (source {expected!r})"
        )
    if card is not None and not (is_whole_number(card) and int(card) in cards):
        raise ValueError(
            f"peeked card {card!r} cannot have happened: it is not among the available cards "
            f"{_text(cards)}"
        )
    return (None if card is None else int(card), source)


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
                f"unknown prior {prior!r}: use 'uniform', an agent name (random, heuristic, "
                "sampling) or an agent"
            ) from None
    return prior


def _check_epsilon(epsilon: float) -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, Real):
        raise TypeError(
            f"epsilon must be a number in [0, 1] (a share of uniform play), got {epsilon!r}"
        )
    if not 0 <= epsilon <= 1:
        raise ValueError(f"epsilon must be in [0, 1] (a share of uniform play), got {epsilon}")
    return float(epsilon)


def _check_positive(name: str, value: int) -> int:
    return whole_number(name, value, low=1, allowed="a positive whole number")


def _check_seed(seed: int) -> int:
    return whole_number("seed", seed, low=0, allowed="a non-negative whole number")


# -- small helpers --------------------------------------------------------------------------------


def likelihood(
    available: tuple[int, ...], bid: tuple[int, ...], card: int | None, source: str
) -> Fraction:
    """Exact P(a blind peek shows ``card`` from ``source`` | the bidder held out ``bid``).

    The same rule as ``cards.peek_likelihood``, as a fraction; ``card`` None: nothing to see.
    """
    if source != peek_source(len(bid)):
        return Fraction(0)
    pool = bid if source == "held_out" else without(available, bid)
    if card is None:
        return Fraction(0 if pool else 1)
    return Fraction(pool.count(card), len(pool)) if pool else Fraction(0)


def _text(cards: Iterable[int]) -> str:
    """Cards low to high as the rulebook writes them: '1+2+5'."""
    ordered = sorted(cards)
    return "+".join(str(card) for card in ordered) if ordered else "nothing"


def _exact_text(value: Number) -> str | None:
    return str(value) if isinstance(value, Fraction) else None


def _bids_of(cards: tuple[int, ...], n_cards: int) -> list[tuple[int, ...]]:
    return [bid for bid in sub_multisets(cards) if len(bid) == n_cards]


def _normalised(weights: Mapping[Any, Number]) -> dict[Any, Number]:
    total = sum(weights.values())
    return {key: weight / total for key, weight in weights.items()}


# -- possible bids, max bids ----------------------------------------------------------------------


def possible_bids(
    available: Sequence[int],
    n_cards: int,
    *,
    rules: Rules | None = None,
    position: int | None = None,
) -> pl.DataFrame:
    """Every total ``n_cards`` held-out cards of ``available`` can make, and how likely.

    One row per total: ``ways`` (physical card subsets giving it; the two 2s are different
    cards), ``probability`` and ``exact`` under the uniform prior over subsets, and the card
    ``combinations``. The rulebook's example: ``possible_bids((5, 2, 2, 1), 3)`` gives 5
    (1+2+2, 1 way), 8 (1+2+5, 2 ways) and 9 (2+2+5, 1 way) with probabilities 1/4, 1/2, 1/4.
    ``position`` (0 = the First Bidder; None: any) only checks that ``n_cards`` is legal there.
    """
    rules = _rules(rules)
    cards = _cards(available, rules)
    n = _count(n_cards, cards, rules, position)
    subsets = math.comb(len(cards), n)
    by_total: dict[int, list[tuple[int, ...]]] = {}
    for bid in _bids_of(cards, n):
        by_total.setdefault(sum(bid), []).append(bid)
    rows = []
    for total in sorted(by_total):
        ways = sum(physical_ways(cards, bid) for bid in by_total[total])
        rows.append(
            {
                "total": total,
                "ways": ways,
                "probability": ways / subsets,
                "exact": str(Fraction(ways, subsets)),
                "combinations": ", ".join(_text(bid) for bid in by_total[total]),
            }
        )
    return pl.DataFrame(rows, schema=_POSSIBLE_SCHEMA)


_POSSIBLE_SCHEMA = {
    "total": pl.Int64,
    "ways": pl.Int64,
    "probability": pl.Float64,
    "exact": pl.String,
    "combinations": pl.String,
}


def peek_distribution(
    available: Sequence[int],
    n_cards: int,
    *,
    rules: Rules | None = None,
    position: int | None = None,
) -> pl.DataFrame:
    """What the next bidder's blind peek can show, and how likely, under the uniform prior.

    One row per possible (card, source) with its exact probability: the denominator of Bayes'
    rule in ``bid_posterior`` (averaging posteriors over these peeks gives back the prior).
    ``position`` as for ``possible_bids``.
    """
    rules = _rules(rules)
    cards = _cards(available, rules)
    n = _count(n_cards, cards, rules, position)
    source = peek_source(n)
    subsets = math.comb(len(cards), n)
    seen: dict[int | None, Fraction] = {}
    for bid in _bids_of(cards, n):
        prior = Fraction(physical_ways(cards, bid), subsets)
        for card in sorted({*cards, None}, key=lambda c: -1 if c is None else c):
            chance = likelihood(cards, bid, card, source)
            if chance:
                seen[card] = seen.get(card, Fraction(0)) + prior * chance
    rows = [
        {
            "card": card,
            "source": source,
            "probability": float(chance),
            "exact": str(chance),
        }
        for card, chance in sorted(seen.items(), key=lambda kv: -1 if kv[0] is None else kv[0])
    ]
    return pl.DataFrame(
        rows,
        schema={
            "card": pl.Int64,
            "source": pl.String,
            "probability": pl.Float64,
            "exact": pl.String,
        },
    )


def max_bid(
    available: Sequence[int], n_cards: int | None = None, *, rules: Rules | None = None
) -> int:
    """The largest total ``available`` can bid: all of it, or its ``n_cards`` highest cards.

    The rulebook's hint: if no one else can use the 10, their max bid is 5+2+2+1 = 10.
    """
    rules = _rules(rules)
    cards = _cards(available, rules)
    if n_cards is None:
        return sum(cards)
    return sum(cards[: _count(n_cards, cards, rules)])


def max_bid_table(observation: Observation) -> pl.DataFrame:
    """Every opponent's maximum possible bid, read from the public record of ``observation``.

    One row per opponent: its locked card, usable cards and ``max_bid``; once it has held out
    cards this round, ``held_out`` and the range ``min_now``–``max_now`` of totals that many of
    its cards can make. ``to_beat`` (during bidding) is the smallest total that surely beats
    that opponent's maximum from your place in the order: ties go to whoever is closer to the
    First Bidder, so an opponent ahead of you must be beaten by one more.
    """
    _check_observation(observation)
    rules = observation.rules
    me = observation.player
    bidding = observation.phase == "bid"
    my_place = observation.order.index(me) if bidding else None
    rows = []
    for seat in range(rules.players):
        if seat == me:
            continue
        cards = observation.available(seat)
        held = observation.held_out[seat]
        most = sum(cards) if held is None else sum(cards[:held])
        to_beat = None
        if bidding:
            ahead = observation.order.index(seat) < my_place
            to_beat = most + 1 if ahead else most
        rows.append(
            {
                "seat": seat,
                "locked": observation.locked[seat],
                "available": _text(cards),
                "max_bid": sum(cards),
                "held_out": held,
                "min_now": None if held is None else sum(cards[len(cards) - held :]),
                "max_now": None if held is None else most,
                "to_beat": to_beat,
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "seat": pl.Int64,
            "locked": pl.Int64,
            "available": pl.String,
            "max_bid": pl.Int64,
            "held_out": pl.Int64,
            "min_now": pl.Int64,
            "max_now": pl.Int64,
            "to_beat": pl.Int64,
        },
    )


# -- models of play -------------------------------------------------------------------------------


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
            if isinstance(legal[0], Bid):
                cards = observation.available(observation.player)
                ways = {bid: physical_ways(cards, bid.cards) for bid in legal}
                return _normalised({bid: Fraction(w) for bid, w in ways.items()})
            return {action: Fraction(1, len(legal)) for action in legal}
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


# -- posterior over one bid -----------------------------------------------------------------------


def bid_posterior(
    available: Sequence[int],
    n_cards: int,
    peek: PeekLike = None,
    prior: object = UNIFORM,
    *,
    rules: Rules | None = None,
    situation: Observation | None = None,
    geeks: Sequence[int] | None = None,
    epsilon: float = 0.0,
    samples: int = 200,
    seed: int = 0,
    bootstrap: int = 200,
    by: str = "total",
    position: int | None = None,
) -> pl.DataFrame:
    """P(bid | ``n_cards`` held out of ``available``, the ``peek``): exact Bayes over card subsets.

    ``peek`` is what you saw of this bidder: ``(card, source)``, a ``Peek``, or a card value
    (source implied by ``n_cards``); it is weighed by its likelihood (see the module notes).
    ``prior``:

    - ``"uniform"`` (default): every physical subset of ``n_cards`` cards equally likely; exact.
    - a mapping ``{cards: weight}`` (cards a tuple or ``Bid``): your own prior over bids; exact
      when the weights are whole numbers or fractions.
    - an agent or agent name: that policy's bid distribution in ``situation`` — the bidder's
      own ``Observation`` when it chose (``state.observation(bidder)`` with the bidder to play).
      Its geek is hidden from you: uniform over ``geeks`` (default: every geek of the rules);
      anything else is taken from ``situation`` as given (to average over the bidder's own
      peek too, use ``infer``). Exact for agents with ``action_probabilities``, else estimated
      from ``samples`` seeded calls per geek with a ``bootstrap`` interval (``low``, ``high``).

    ``by="total"``: one row per total (total, probability, exact, low, high, prior,
    combinations, method). ``by="combination"``: one row per card multiset (cards, total,
    ways, prior, likelihood, probability, exact, low, high, method). ``prior`` is the prior
    probability given the number of cards held out; ``method`` says how it was obtained.
    ``position``: the bidder's place in bidding order (0 = the First Bidder; None: any, or the
    situation's), which decides the fewest cards it may hold out.
    """
    if situation is not None:
        _check_observation(situation, "situation")
        if rules is not None and rules != situation.rules:
            raise ValueError("rules and situation.rules differ; pass one of them")
    rules = situation.rules if situation is not None else _rules(rules)
    cards = _cards(available, rules)
    samples = _check_positive("samples", samples)
    bootstrap = _check_positive("bootstrap", bootstrap)
    seed = _check_seed(seed)
    if geeks is not None:
        geeks = _geek_numbers(geeks, rules)
    if situation is not None and situation.phase == "bid" and situation.player in situation.order:
        bidding_at = situation.order.index(situation.player)
        if position is not None and position != bidding_at:
            raise ValueError(
                f"position {position!r} differs from the situation's: its bidder (seat "
                f"{situation.player}) bids at position {bidding_at}; pass one of them"
            )
        position = bidding_at
    n = _count(n_cards, cards, rules, position)
    evidence = _peek(peek, cards, n)
    choice("by", by, ("total", "combination"))
    bids = _bids_of(cards, n)
    epsilon = _check_epsilon(epsilon)

    replicates: list[dict[tuple[int, ...], float]] = []
    if isinstance(prior, Mapping):
        weights = _explicit_prior(prior, cards)
        method = "your prior over bids" + (
            "; exact fractions" if all(isinstance(w, Fraction) for w in weights.values()) else ""
        )
    else:
        policy = _Policy(prior, epsilon=epsilon, samples=samples, seed=seed)
        if policy.kind == "uniform":
            weights = {bid: Fraction(physical_ways(cards, bid)) for bid in bids}
            method = policy.describe()
        else:
            candidates = _situation_geeks(situation, cards, geeks, policy)
            weights = _policy_prior(policy, situation, candidates)
            method = (
                f"{policy.describe()}; the bidder's geek uniform over {len(candidates)} geek(s) "
                f"{list(candidates)}"
            )
            if policy.kind == "sampled":
                rng = generator(seed, 1_000_003)
                for _ in range(bootstrap):
                    redrawn = _policy_prior(policy.resampled(rng), situation, candidates)
                    try:
                        rows = _posterior_rows(cards, n, redrawn, evidence, "")
                    except ValueError:
                        continue
                    replicates.append({bid: float(post) for bid, _, _, _, post in rows})
                method += f"; {len(replicates)} of {bootstrap} bootstrap replicates usable"
    rows = _posterior_rows(cards, n, weights, evidence, _policy_name(prior))
    return _posterior_frame(cards, rows, replicates, method, by)


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
    situation: Observation | None,
    cards: tuple[int, ...],
    geeks: Sequence[int] | None,
    policy: _Policy,
) -> tuple[int, ...]:
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


def _geek_numbers(geeks: object, rules: Rules) -> tuple[int, ...]:
    """``geeks`` checked: distinct geek numbers of the rules, at least one."""
    count = len(rules.geeks)
    allowed = f"one or more distinct geek numbers 0–{count - 1}"
    if isinstance(geeks, str | bytes) or not isinstance(geeks, Iterable):
        raise TypeError(f"geeks must be {allowed}, got {geeks!r}")
    candidates = tuple(geeks)
    if not all(is_whole_number(g) for g in candidates):
        raise TypeError(f"geeks must be {allowed}, got {geeks!r}")
    if (
        not candidates
        or len(set(candidates)) != len(candidates)
        or not all(0 <= g < count for g in candidates)
    ):
        raise ValueError(f"geeks must be {allowed}, got {geeks!r}")
    return tuple(int(g) for g in candidates)


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


def _posterior_rows(
    cards: tuple[int, ...],
    n: int,
    weights: Mapping[tuple[int, ...], Number],
    evidence: tuple[int | None, str] | None,
    name: str,
) -> list[tuple[tuple[int, ...], int, Number, Number, Number]]:
    """(bid, ways, prior | count, likelihood, posterior) for every bid of ``n`` cards."""
    bids = _bids_of(cards, n)
    prior_mass = sum(weights.get(bid, 0) for bid in bids)
    if not prior_mass:
        raise ValueError(
            f"{name} gives no weight to holding out {n} card(s) from {_text(cards)} here: the "
            "evidence contradicts it. Pass epsilon > 0 to mix in a share of uniform play, or use "
            "prior='uniform'"
        )
    rows = []
    for bid in bids:
        prior = weights.get(bid, 0) / prior_mass
        chance = Fraction(1) if evidence is None else likelihood(cards, bid, *evidence)
        rows.append((bid, physical_ways(cards, bid), prior, chance, prior * chance))
    evidence_mass = sum(row[4] for row in rows)
    if not evidence_mass:
        card, source = evidence
        seen = "nothing" if card is None else f"a {card}"
        raise ValueError(
            f"the peek ({seen} among the {source.replace('_', '-')} cards) cannot have happened "
            f"with {n} card(s) held out from {_text(cards)} under {name}"
        )
    return [
        (bid, ways, prior, chance, post / evidence_mass) for bid, ways, prior, chance, post in rows
    ]


def _posterior_frame(
    cards: tuple[int, ...],
    rows: list[tuple[tuple[int, ...], int, Number, Number, Number]],
    replicates: list[dict[tuple[int, ...], float]],
    method: str,
    by: str,
) -> pl.DataFrame:
    if by == "combination":
        bounds = _percentiles(replicates, [row[0] for row in rows]) if replicates else {}
        return pl.DataFrame(
            [
                {
                    "cards": _text(bid),
                    "total": sum(bid),
                    "ways": ways,
                    "prior": float(prior),
                    "likelihood": float(chance),
                    "probability": float(post),
                    "exact": _exact_text(post),
                    "low": bounds.get(bid, (None, None))[0],
                    "high": bounds.get(bid, (None, None))[1],
                    "method": method,
                }
                for bid, ways, prior, chance, post in rows
            ],
            schema=_COMBINATION_SCHEMA,
        )
    totals: dict[int, list] = {}
    for bid, _, prior, _, post in rows:
        entry = totals.setdefault(sum(bid), [0, 0, []])
        entry[0] += post
        entry[1] += prior
        entry[2].append(_text(bid))
    bounds = {}
    if replicates:
        per_total = [
            {t: sum(r.get(bid, 0.0) for bid, *_ in rows if sum(bid) == t) for t in totals}
            for r in replicates
        ]
        bounds = _percentiles(per_total, totals)
    return pl.DataFrame(
        [
            {
                "total": total,
                "probability": float(post),
                "exact": _exact_text(post),
                "low": bounds.get(total, (None, None))[0],
                "high": bounds.get(total, (None, None))[1],
                "prior": float(prior),
                "combinations": ", ".join(combos),
                "method": method,
            }
            for total, (post, prior, combos) in sorted(totals.items())
        ],
        schema=_TOTAL_SCHEMA,
    )


_TOTAL_SCHEMA = {
    "total": pl.Int64,
    "probability": pl.Float64,
    "exact": pl.String,
    "low": pl.Float64,
    "high": pl.Float64,
    "prior": pl.Float64,
    "combinations": pl.String,
    "method": pl.String,
}
_COMBINATION_SCHEMA = {
    "cards": pl.String,
    "total": pl.Int64,
    "ways": pl.Int64,
    "prior": pl.Float64,
    "likelihood": pl.Float64,
    "probability": pl.Float64,
    "exact": pl.String,
    "low": pl.Float64,
    "high": pl.Float64,
    "method": pl.String,
}


# -- a situation to study -------------------------------------------------------------------------


def bidding_situation(
    rules: Rules | None = None, *, locked: int | None = None, bidder: int = 1
) -> Observation:
    """A bidder's observation at a scripted decision: round 2, ``bidder`` is First Bidder and
    has ``locked`` locked (None: nothing), so a policy prior has a concrete situation.

    Round 1: seat 0 auctions item 0 and names the seat after ``bidder`` First Bidder, so
    ``bidder`` bids last. Every other seat holds out its cheapest legal bid (if that cannot
    leave ``bidder`` with the wanted lock, the cheapest bid legal at every position: with the
    rulebook's minimum the First Bidder then holds out one card too), and ``bidder`` the cheapest
    bid whose top card is ``locked`` that keeps it from being the cheapskate (with ``locked``
    None: the cheapest bid that makes it the cheapskate, so it locks nothing). Round 2: the
    round-1 cheapskate auctions item 1 and names ``bidder`` First Bidder. Used by the bid
    inference explorer; ValueError if the rules make the script impossible.
    """
    rules = _rules(rules)
    n = rules.players
    bidder = whole_number("bidder", bidder, low=0, high=n - 1, allowed=f"a seat 0–{n - 1}")
    if rules.rounds < 2:
        raise ValueError("a round-2 situation needs at least 2 items")
    if locked is not None and not (is_whole_number(locked) and locked in rules.money_cards):
        raise ValueError(
            f"locked must be None or one of the money cards {list(rules.money_cards)}, "
            f"got {locked!r}"
        )
    locked = None if locked is None else int(locked)
    table = bid_table(rules.money_cards)
    everywhere = max(rules.bid_minimums)  # fewest cards legal at every position
    for others in ("cheapest legal", "legal everywhere"):
        for own in table.legal(0, rules.min_cards_at(n - 1)):
            if locked is not None and own.highest != locked:
                continue
            state = new_game(rules, seed=0, starting_auctioneer=0)
            state = state.apply(Auction(0, (bidder + 1) % n))
            while state.phase == "bid":
                fewest = rules.min_cards_at(len(state.bids))
                if others == "legal everywhere":
                    fewest = everywhere
                state = state.apply(own if state.to_play == bidder else table.legal(0, fewest)[0])
            wanted_role = state.history[-1].cheapskate == bidder
            if state.locked[bidder] == locked and wanted_role == (locked is None):
                return state.apply(Auction(1, bidder)).observation(bidder)
    raise ValueError(
        f"with bid_minimum {rules.bid_minimum!r} no round-1 script leaves seat {bidder} with "
        f"{'nothing' if locked is None else f'its {locked}'} locked (a bid whose top card is "
        f"{locked} cannot keep it from being the cheapskate)"
    )


# -- inference from a real observation ------------------------------------------------------------


class Inference(NamedTuple):
    """What ``infer`` concludes: the opponent's bid, every opponent's geek, and on what basis.

    ``bids``: seat, total, probability, exact, low, high, combinations (empty if no opponent
    was asked for). ``geeks``: seat, geek, name, destined, probability, exact, low, high.
    ``assumptions``: topic, assumption — the model, the prior over deals and the evidence used.
    """

    bids: pl.DataFrame
    geeks: pl.DataFrame
    assumptions: pl.DataFrame


@dataclass
class _Decision:
    """A past choice by ``seat``: the observation it chose from (geek and peek replaced per
    hypothesis), its legal actions, what it did, and the peeks it might have seen."""

    round: int
    seat: int
    observation: Observation
    legal: list[Any]
    action: Any
    peeks: list[tuple[Peek | None, Fraction]]


@dataclass
class _Step:
    """A bid of the round in progress, in bidding order: hidden unless it is the observer's."""

    seat: int
    observation: Observation
    legal: list[Bid]
    available: tuple[int, ...]
    candidates: list[Bid]
    count: int
    source: str | None  # where this bidder's own peek looked; None for the First Bidder


@dataclass
class _Evidence:
    observation: Observation
    decisions: list[_Decision]
    steps: list[_Step]
    opponents: list[int]
    candidate_geeks: list[int]


def _check_observation(observation: object, name: str = "observation") -> None:
    """An engine Observation whose seat, geek and rules are consistent (an edited one may not
    be: ``dataclasses.replace(observation, geek=99)``)."""
    if not isinstance(observation, Observation):
        raise TypeError(
            f"{name} must be an engine Observation (state.observation(seat)), got "
            f"{type(observation).__name__}"
        )
    if not isinstance(observation.rules, Rules):
        raise TypeError(
            f"{name}.rules must be a rubbish Rules, got {type(observation.rules).__name__}"
        )
    players, geeks = observation.rules.players, len(observation.rules.geeks)
    whole_number(f"{name}.player", observation.player, low=0, high=players - 1)
    whole_number(f"{name}.geek", observation.geek, low=0, high=geeks - 1)
    if observation.phase not in ("auction", "bid", "over"):
        raise ValueError(
            f"{name}.phase must be 'auction', 'bid' or 'over', got {observation.phase!r}"
        )


def _peek_options(
    target: int | None, available: tuple[int, ...] | None, bid: Bid | None
) -> list[tuple[Peek | None, Fraction]]:
    """What a bidder may have seen of the previous, now revealed, bid, with probabilities."""
    if target is None:
        return [(None, Fraction(1))]
    source = peek_source(bid.count)
    pool = bid.cards if source == "held_out" else without(available, bid.cards)
    if not pool:
        return [(Peek(target, None, source), Fraction(1))]
    return [
        (Peek(target, card, source), Fraction(pool.count(card), len(pool)))
        for card in sorted(set(pool), reverse=True)
    ]


def _gather(observation: Observation, history: bool) -> _Evidence:
    """Replay the public record through the engine: every past decision, and this round's bids."""
    _check_observation(observation)
    rules = observation.rules
    me = observation.player
    records = observation.history
    start = records[0].auctioneer if records else observation.auctioneer
    state = new_game(rules, seed=0, starting_auctioneer=start)
    decisions: list[_Decision] = []
    for record in records:
        decisions.append(
            _Decision(
                record.round,
                record.auctioneer,
                state.observation(record.auctioneer),
                state.legal_actions(),
                Auction(record.item, record.first_bidder),
                [(None, Fraction(1))],
            )
        )
        state = state.apply(Auction(record.item, record.first_bidder))
        previous: tuple[int, tuple[int, ...], Bid] | None = None
        for seat in record.order:
            bid = record.bids[seat]
            peeks = _peek_options(*(previous if previous else (None, None, None)))
            decisions.append(
                _Decision(
                    record.round,
                    seat,
                    state.observation(seat),
                    state.legal_actions(),
                    bid,
                    peeks,
                )
            )
            previous = (seat, state.available(seat), bid)
            state = state.apply(bid)
    public = ("history", "fame", "locked", "items_won", "remaining", "cheapskate_counts")
    replayed = state.observation(me)
    if any(getattr(replayed, name) != getattr(observation, name) for name in public):
        raise ValueError(
            "the observation's public record is not a game these rules produce (replaying its "
            "history through the engine gives a different position)"
        )
    steps: list[_Step] = []
    if observation.phase == "bid":
        auctioneer = observation.auctioneer
        decisions.append(
            _Decision(
                observation.round,
                auctioneer,
                state.observation(auctioneer),
                state.legal_actions(),
                Auction(observation.item, observation.first_bidder),
                [(None, Fraction(1))],
            )
        )
        state = state.apply(Auction(observation.item, observation.first_bidder))
        for position, seat in enumerate(observation.order):
            count = observation.held_out[seat]
            if count is None:
                break
            legal = state.legal_actions()
            if seat == me:
                candidates = [observation.own_bid]
            else:
                candidates = [bid for bid in legal if bid.count == count]
            if not candidates or candidates[0] not in legal:
                raise ValueError(f"seat {seat} cannot have held out {count} card(s) this round")
            source = None if position == 0 else peek_source(steps[-1].count)
            steps.append(
                _Step(
                    seat,
                    state.observation(seat),
                    legal,
                    state.available(seat),
                    candidates,
                    count,
                    source,
                )
            )
            state = state.apply(candidates[0])
    if not history:
        decisions = [d for d in decisions if d.round == observation.round]
    opponents = [seat for seat in range(rules.players) if seat != me]
    candidate_geeks = [g for g in range(len(rules.geeks)) if g != observation.geek]
    _check_own_peek(observation, steps)
    return _Evidence(observation, decisions, steps, opponents, candidate_geeks)


def _check_own_peek(observation: Observation, steps: list[_Step]) -> None:
    peek = observation.peek
    if peek is None:
        return
    target = next((j for j, step in enumerate(steps) if step.seat == peek.target), None)
    if target is None:
        raise ValueError(f"the observation's peek targets seat {peek.target}, who has not bid")
    step = steps[target]
    if peek.source != peek_source(step.count):
        raise ValueError(
            f"a peek among seat {peek.target}'s {peek.source.replace('_', '-')} cards cannot "
            f"have happened: it held out {step.count} card(s)"
        )
    if not any(
        likelihood(step.available, b.cards, peek.card, peek.source) for b in step.candidates
    ):
        seen = "nothing" if peek.card is None else f"a {peek.card}"
        raise ValueError(
            f"the peek ({seen} among seat {peek.target}'s {peek.source.replace('_', '-')} cards)"
            f" cannot have happened: no {step.count}-card bid from {_text(step.available)} "
            "shows it"
        )


@dataclass
class _Posterior:
    bids: dict[int, dict[Bid, Number]]  # by opponent seat with a hidden bid this round
    geeks: dict[int, dict[int, Number]]  # by opponent seat


def _evaluate(evidence: _Evidence, policies: Mapping[int, _Policy]) -> _Posterior:
    """Exact posterior over deals and this round's hidden bids, for these models of play.

    P(deal, bids | evidence) ∝ P(deal) · Π past decisions P(action | geek, peek averaged) ·
    P(this round's counts and your peek | geeks), the last by a forward-backward pass along the
    bidding order (each bidder's choice depends on its geek and on its peek at the previous bid).
    """
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
            {c for b in previous.candidates for c in (*previous.available, None)},
            key=lambda c: -1 if c is None else c,
        )
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
    observation: Observation,
    prior: object,
    *,
    epsilon: float,
    history: bool,
    samples: int,
    seed: int,
    bootstrap: int,
) -> tuple[_Evidence, dict[int, _Policy], _Posterior, list[_Posterior]]:
    evidence = _gather(observation, history)
    policies = _policies(prior, evidence, epsilon=epsilon, samples=samples, seed=seed)
    posterior = _evaluate(evidence, policies)
    replicates: list[_Posterior] = []
    if any(p.kind == "sampled" for p in policies.values()):
        rng = generator(seed, 1_000_003)
        for _ in range(_check_positive("bootstrap", bootstrap)):
            cache: dict[int, _Policy] = {}
            redrawn = {}
            for seat, policy in policies.items():
                if id(policy) not in cache:
                    cache[id(policy)] = policy.resampled(rng)
                redrawn[seat] = cache[id(policy)]
            try:
                replicates.append(_evaluate(evidence, redrawn))
            except ValueError:
                continue
    return evidence, policies, posterior, replicates


def infer(
    observation: Observation,
    opponent: int | None = None,
    *,
    prior: object = UNIFORM,
    epsilon: float = 0.0,
    history: bool = True,
    samples: int = 100,
    seed: int = 0,
    bootstrap: int = 100,
) -> Inference:
    """From a real mid-game ``observation``: the posterior over ``opponent``'s bid total this
    round and over which geek each opponent holds.

    Exact Bayes: the opponents' geeks are dealt uniformly without replacement from the geeks
    other than yours, and every such deal is enumerated (at most 6·5·4·3 = 360). Evidence: the
    cards held out this round, your own peek (by its likelihood) and — with ``history`` — every
    past auction choice and revealed bid. ``prior`` models how opponents play: "uniform" (card
    subsets uniformly at random, blind to geeks: geeks stay uniform), an agent or agent name,
    or a mapping seat -> such. A policy's choice depends on its geek and on its own peek at the
    previous bid, which is averaged over exactly. Agents without ``action_probabilities`` are
    estimated from ``samples`` seeded calls per situation (slow for the sampling agent: consider
    ``history=False``), with ``bootstrap`` intervals. ``opponent`` None: geeks only.
    Raises ValueError when the opponent has not bid yet or the evidence contradicts the model.
    """
    _check_observation(observation)
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
        observation,
        prior,
        epsilon=epsilon,
        history=history,
        samples=samples,
        seed=seed,
        bootstrap=bootstrap,
    )
    bids = _bids_frame(evidence, posterior, replicates, [] if opponent is None else [opponent])
    return Inference(
        bids,
        _geeks_frame(evidence, posterior, replicates),
        _assumptions(evidence, policies, replicates, bootstrap),
    )


def _bids_frame(
    evidence: _Evidence,
    posterior: _Posterior,
    replicates: list[_Posterior],
    seats: Sequence[int],
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
                {
                    t: sum(float(p) for b, p in r.bids[seat].items() if b.total == t)
                    for t in by_total
                }
                for r in replicates
            ]
            bounds = _percentiles(totals, by_total)
        for total, (p, combos) in sorted(by_total.items()):
            rows.append(
                {
                    "seat": seat,
                    "total": total,
                    "probability": float(p),
                    "exact": _exact_text(p),
                    "low": bounds.get(total, (None, None))[0],
                    "high": bounds.get(total, (None, None))[1],
                    "combinations": ", ".join(combos),
                }
            )
    return pl.DataFrame(
        rows,
        schema={
            "seat": pl.Int64,
            "total": pl.Int64,
            "probability": pl.Float64,
            "exact": pl.String,
            "low": pl.Float64,
            "high": pl.Float64,
            "combinations": pl.String,
        },
    )


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
            rows.append(
                {
                    "seat": seat,
                    "geek": geek,
                    "name": name,
                    "destined": " & ".join(rules.items[item] for item in destined),
                    "probability": float(p),
                    "exact": _exact_text(p),
                    "low": bounds.get(geek, (None, None))[0],
                    "high": bounds.get(geek, (None, None))[1],
                }
            )
    return pl.DataFrame(
        rows,
        schema={
            "seat": pl.Int64,
            "geek": pl.Int64,
            "name": pl.String,
            "destined": pl.String,
            "probability": pl.Float64,
            "exact": pl.String,
            "low": pl.Float64,
            "high": pl.Float64,
        },
    )


def _assumptions(
    evidence: _Evidence,
    policies: Mapping[int, _Policy],
    replicates: list[_Posterior],
    bootstrap: int,
) -> pl.DataFrame:
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
        rows.append(
            (
                "evidence",
                f"{len(past)} past decisions (auction choices and revealed bids), each bid's "
                "likelihood averaged over the bidder's blind peek",
            )
        )
    elif observation.history:
        rows.append(("evidence", "past rounds ignored (history=False)"))
    if evidence.steps:
        held = ", ".join(f"seat {s.seat} {s.count}" for s in evidence.steps)
        rows.append(("evidence", f"this round's auction choice and cards held out: {held}"))
    peek = observation.peek
    if peek is not None:
        seen = "nothing" if peek.card is None else f"a {peek.card}"
        rows.append(
            (
                "evidence",
                f"your peek: {seen} among seat {peek.target}'s "
                f"{peek.source.replace('_', '-')} cards, weighed by its likelihood",
            )
        )
    if replicates:
        rows.append(
            (
                "interval",
                f"{CONFIDENCE:.0%} bootstrap intervals over the sampled policy: "
                f"{len(replicates)} of {bootstrap} replicates usable",
            )
        )
    exact = all(p.kind == "uniform" for p in policies.values())
    rows.append(
        (
            "arithmetic",
            "exact fractions"
            if exact
            else "floating point (exact method; estimates where sampled)",
        )
    )
    return pl.DataFrame(rows, schema={"topic": pl.String, "assumption": pl.String}, orient="row")


# -- round by round through a game ----------------------------------------------------------------


class GameInference(NamedTuple):
    """``game_inference``'s frames: ``bids`` (one row per round × prior × opponent × total),
    ``geeks`` (round × prior × opponent × geek), ``scores`` (round × prior × opponent: the
    probability given to the true bid total and the true geek) and ``summary`` (per prior)."""

    bids: pl.DataFrame
    geeks: pl.DataFrame
    scores: pl.DataFrame
    summary: pl.DataFrame


def observations_before_last_bid(state: State) -> list[Observation]:
    """For each finished round of ``state``: the last bidder's real observation just before
    it bids (the most a player knows before a reveal: every count and its own peek)."""
    if not isinstance(state, State):
        raise TypeError(f"state must be an engine State, got {type(state).__name__}")
    replay = State(state.rules, state.deal)
    found = []
    for record in state.history:
        replay = replay.apply(Auction(record.item, record.first_bidder))
        for seat in record.order[:-1]:
            replay = replay.apply(record.bids[seat])
        found.append(replay.observation(record.order[-1]))
        replay = replay.apply(record.bids[record.order[-1]])
    return found


def game_inference(
    state: State,
    *,
    priors: Sequence[object] | Mapping[str, object] = (UNIFORM, "heuristic"),
    epsilon: float = 0.0,
) -> GameInference:
    """Inference through a played game: each round, the last bidder (just before bidding)
    infers every opponent's bid and geek under each prior; beside each, the truth.

    ``state`` is a game played through the engine (finished or not). ``priors`` as for
    ``infer`` (a name, an agent, or a mapping seat -> prior for a mixed table), exact ones only
    (uniform or agents with ``action_probabilities``). ``summary`` scores each prior: the mean
    probability it gave the true bid total and the true geek, and how often its most likely
    total was right. Give ``priors`` as a mapping label -> prior to name them in the frames.
    """
    if not isinstance(state, State):
        raise TypeError(f"state must be an engine State, got {type(state).__name__}")
    rules = state.rules
    epsilon = _check_epsilon(epsilon)
    if isinstance(priors, str) or callable(priors):
        priors = [priors]  # one prior
    if isinstance(priors, Mapping):
        labelled = {str(label): spec for label, spec in priors.items()}
    elif isinstance(priors, Iterable):
        labelled = {_prior_label(spec): spec for spec in priors}
    else:
        raise TypeError(
            f"priors must be a prior, a sequence of priors or a mapping label -> prior, got "
            f"{priors!r}"
        )
    if not labelled:
        raise ValueError("priors must name at least one prior")
    bid_rows, geek_rows = [], []
    for spec in labelled.values():
        for model in spec.values() if isinstance(spec, Mapping) else [spec]:
            if _Policy(model, epsilon=0.0, samples=1, seed=0).kind == "sampled":
                raise ValueError(
                    f"game_inference takes exact priors only; {model!r} has no action_probabilities"
                )
    for observation, record in zip(observations_before_last_bid(state), state.history, strict=True):
        for policy_name, spec in labelled.items():
            *_, posterior, _ = _analyse(
                observation,
                spec,
                epsilon=epsilon,
                history=True,
                samples=1,
                seed=0,
                bootstrap=1,
            )
            for seat, by_bid in posterior.bids.items():
                truth = record.bids[seat].total
                for total in sorted({bid.total for bid in by_bid}):
                    p = sum(q for bid, q in by_bid.items() if bid.total == total)
                    bid_rows.append(
                        {
                            "round": record.round,
                            "observer": observation.player,
                            "prior": policy_name,
                            "seat": seat,
                            "held_out": record.bids[seat].count,
                            "peeked": _peek_text(observation.peek, seat),
                            "total": total,
                            "probability": float(p),
                            "true_total": truth,
                        }
                    )
            for seat, by_geek in posterior.geeks.items():
                for geek, p in by_geek.items():
                    geek_rows.append(
                        {
                            "round": record.round,
                            "observer": observation.player,
                            "prior": policy_name,
                            "seat": seat,
                            "geek": geek,
                            "name": rules.geeks[geek].name,
                            "probability": float(p),
                            "true": geek == state.deal.geeks[seat],
                        }
                    )
    bids = pl.DataFrame(bid_rows, schema=_GAME_BID_SCHEMA)
    geeks = pl.DataFrame(geek_rows, schema=_GAME_GEEK_SCHEMA)
    scores = _game_scores(bids, geeks)
    return GameInference(bids, geeks, scores, _game_summary(scores))


def _prior_label(spec: object) -> str:
    """A short name for a prior: its name, the agent's class, or the per-seat line-up."""
    if isinstance(spec, Mapping):
        return "by seat: " + ", ".join(
            f"{seat} {_prior_label(model)}" for seat, model in sorted(spec.items())
        )
    return spec if isinstance(spec, str) else type(spec).__name__


def _peek_text(peek: Peek | None, seat: int) -> str | None:
    if peek is None or peek.target != seat:
        return None
    return "nothing" if peek.card is None else f"{peek.card} ({peek.source.replace('_', '-')})"


def _game_scores(bids: pl.DataFrame, geeks: pl.DataFrame) -> pl.DataFrame:
    keys = ["round", "prior", "seat"]
    truth = bids.filter(pl.col("total") == pl.col("true_total")).select(
        *keys, "observer", "held_out", "peeked", "true_total", p_true_total="probability"
    )
    best = (
        bids.sort("probability", descending=True, maintain_order=True)
        .group_by(keys, maintain_order=True)
        .first()
        .select(*keys, most_likely="total")
    )
    true_geek = geeks.filter(pl.col("true")).select(
        *keys, true_geek="name", p_true_geek="probability"
    )
    return truth.join(best, on=keys).join(true_geek, on=keys).sort(keys)


def _game_summary(scores: pl.DataFrame) -> pl.DataFrame:
    last = scores["round"].max()
    return (
        scores.group_by("prior", maintain_order=True)
        .agg(
            bids=pl.len().cast(pl.Int64),
            p_true_total=pl.col("p_true_total").mean(),
            most_likely_right=(pl.col("most_likely") == pl.col("true_total")).mean(),
            p_true_geek=pl.col("p_true_geek").mean(),
            p_true_geek_last_round=pl.col("p_true_geek").filter(pl.col("round") == last).mean(),
        )
        .sort("prior")
    )


_GAME_BID_SCHEMA = {
    "round": pl.Int64,
    "observer": pl.Int64,
    "prior": pl.String,
    "seat": pl.Int64,
    "held_out": pl.Int64,
    "peeked": pl.String,
    "total": pl.Int64,
    "probability": pl.Float64,
    "true_total": pl.Int64,
}
_GAME_GEEK_SCHEMA = {
    "round": pl.Int64,
    "observer": pl.Int64,
    "prior": pl.String,
    "seat": pl.Int64,
    "geek": pl.Int64,
    "name": pl.String,
    "probability": pl.Float64,
    "true": pl.Boolean,
}


__all__ = [
    "GameInference",
    "Inference",
    "bid_posterior",
    "bidding_situation",
    "game_inference",
    "infer",
    "likelihood",
    "max_bid",
    "max_bid_table",
    "observations_before_last_bid",
    "peek_distribution",
    "peek_source",
    "possible_bids",
]
