"""Inference through a played game: each round, the last bidder's view of every opponent's
bid and geek under each prior, scored against the truth (``game_inference``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import polars as pl

from workbench.games.rubbish.engine import Auction, Observation, Peek, State
from workbench.games.rubbish.inference.arguments import _check_epsilon
from workbench.games.rubbish.inference.observation import _analyse
from workbench.games.rubbish.inference.priors import UNIFORM, _Policy


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
    state: State, *, priors: Sequence[object] | Mapping[str, object] = (UNIFORM, "heuristic"),
    epsilon: float = 0.0,
) -> GameInference:  # fmt: skip
    """Inference through a played game: each round, the last bidder (just before bidding)
    infers every opponent's bid and geek under each of ``priors`` (exact ones, as for ``infer``;
    a mapping label -> prior names them), beside the truth. ``summary`` scores each prior: the
    mean probability it gave the true total and geek, and how often its best guess was right."""
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
            *_, posterior, _ = _analyse(observation, spec, epsilon=epsilon, history=True,
                                        samples=1, seed=0, bootstrap=1)  # fmt: skip
            where = (record.round, observation.player, policy_name)
            for seat, by_bid in posterior.bids.items():
                truth, peeked = record.bids[seat], _peek_text(observation.peek, seat)
                for total in sorted({bid.total for bid in by_bid}):
                    p = sum(q for bid, q in by_bid.items() if bid.total == total)
                    row = (*where, seat, truth.count, peeked, total, float(p), truth.total)
                    bid_rows.append(row)
            for seat, by_geek in posterior.geeks.items():
                for geek, p in by_geek.items():
                    geek_rows.append((*where, seat, geek, rules.geeks[geek].name, float(p),
                                      geek == state.deal.geeks[seat]))  # fmt: skip
    bids = pl.DataFrame(bid_rows, schema=_GAME_BID_SCHEMA, orient="row")
    geeks = pl.DataFrame(geek_rows, schema=_GAME_GEEK_SCHEMA, orient="row")
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
            bids=pl.len().cast(pl.Int64), p_true_total=pl.col("p_true_total").mean(),
            most_likely_right=(pl.col("most_likely") == pl.col("true_total")).mean(),
            p_true_geek=pl.col("p_true_geek").mean(),
            p_true_geek_last_round=pl.col("p_true_geek").filter(pl.col("round") == last).mean(),
        )
        .sort("prior")
    )


_GAME_BID_SCHEMA = {
    "round": pl.Int64, "observer": pl.Int64, "prior": pl.String, "seat": pl.Int64,
    "held_out": pl.Int64, "peeked": pl.String, "total": pl.Int64, "probability": pl.Float64,
    "true_total": pl.Int64,
}  # fmt: skip
_GAME_GEEK_SCHEMA = {
    "round": pl.Int64, "observer": pl.Int64, "prior": pl.String, "seat": pl.Int64,
    "geek": pl.Int64, "name": pl.String, "probability": pl.Float64, "true": pl.Boolean,
}  # fmt: skip
