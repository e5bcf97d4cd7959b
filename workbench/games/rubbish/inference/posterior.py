"""P(one hidden bid | the cards held out, your peek, a prior): exact Bayes over card subsets,
by total or by card combination."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import polars as pl

from workbench.checks import choice
from workbench.games.rubbish.cards import physical_ways
from workbench.games.rubbish.engine import Observation, check_observation
from workbench.games.rubbish.inference.arguments import (
    _PROBABILITY_SCHEMA,
    Number,
    _cards,
    _check_epsilon,
    _check_positive,
    _check_seed,
    _count,
    _geek_numbers,
    _probability,
    _rules,
    _text,
)
from workbench.games.rubbish.inference.enumeration import _bids_of
from workbench.games.rubbish.inference.peeks import PeekLike, _peek, likelihood
from workbench.games.rubbish.inference.priors import (
    UNIFORM,
    _explicit_prior,
    _percentiles,
    _Policy,
    _policy_name,
    _policy_prior,
    _situation_geeks,
)
from workbench.games.rubbish.rules import Rules
from workbench.kit.seeding import generator


def bid_posterior(
    available: Sequence[int], n_cards: int, peek: PeekLike = None, prior: object = UNIFORM, *,
    rules: Rules | None = None, situation: Observation | None = None,
    geeks: Sequence[int] | None = None, epsilon: float = 0.0, samples: int = 200, seed: int = 0,
    bootstrap: int = 200, by: str = "total", position: int | None = None,
) -> pl.DataFrame:  # fmt: skip
    """P(bid | ``n_cards`` held out of ``available``, the ``peek``): exact Bayes over card subsets,
    one row per total (``by="total"``) or card multiset (``by="combination"``). ``prior``:
    "uniform", a mapping ``{cards: weight}``, or an agent or name: its bid distribution in
    ``situation`` (the bidder's Observation when it chose), its geek uniform over ``geeks``,
    estimated from ``samples`` seeded calls with a ``bootstrap`` interval when it gives no
    ``action_probabilities``. ``position``: the bidder's place (0 = First Bidder).
    """
    if situation is not None:
        check_observation(situation, "situation")
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


def _posterior_rows(
    cards: tuple[int, ...], n: int, weights: Mapping[tuple[int, ...], Number],
    evidence: tuple[int | None, str] | None, name: str,
) -> list[tuple[tuple[int, ...], int, Number, Number, Number]]:  # fmt: skip
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
    cards: tuple[int, ...], rows: list[tuple[tuple[int, ...], int, Number, Number, Number]],
    replicates: list[dict[tuple[int, ...], float]], method: str, by: str,
) -> pl.DataFrame:  # fmt: skip
    if by == "combination":
        bounds = _percentiles(replicates, [row[0] for row in rows]) if replicates else {}
        return pl.DataFrame([
            {"cards": _text(bid), "total": sum(bid), "ways": ways, "prior": float(prior),
             "likelihood": float(chance), **_probability(post, bounds.get(bid)), "method": method}
            for bid, ways, prior, chance, post in rows
        ], schema=_COMBINATION_SCHEMA)  # fmt: skip
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
    return pl.DataFrame([
        {"total": total, **_probability(post, bounds.get(total)), "prior": float(prior),
         "combinations": ", ".join(combos), "method": method}
        for total, (post, prior, combos) in sorted(totals.items())
    ], schema=_TOTAL_SCHEMA)  # fmt: skip


_TOTAL_SCHEMA = {
    "total": pl.Int64, **_PROBABILITY_SCHEMA,
    "prior": pl.Float64, "combinations": pl.String, "method": pl.String,
}  # fmt: skip
_COMBINATION_SCHEMA = {
    "cards": pl.String, "total": pl.Int64, "ways": pl.Int64,
    "prior": pl.Float64, "likelihood": pl.Float64, **_PROBABILITY_SCHEMA, "method": pl.String,
}  # fmt: skip
