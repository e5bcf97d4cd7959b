"""What the public record says: every past decision and this round's bids so far, replayed
through the engine and checked against the observation (the evidence ``infer`` weighs)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from workbench.games.rubbish.cards import Bid
from workbench.games.rubbish.engine import Auction, Observation, Peek, check_observation, new_game
from workbench.games.rubbish.inference.arguments import _text
from workbench.games.rubbish.inference.peeks import likelihood, peek_chances, peek_source


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
    """What ``infer`` conditions on: the observation, its seat's past decisions and this
    round's bids replayed, the opponents and the geeks they may hold."""

    observation: Observation
    decisions: list[_Decision]
    steps: list[_Step]
    opponents: list[int]
    candidate_geeks: list[int]


def _gather(observation: Observation, history: bool) -> _Evidence:
    """Replay the public record through the engine: every past decision, and this round's bids."""
    check_observation(observation)
    rules = observation.rules
    me = observation.player
    records = observation.history
    start = records[0].auctioneer if records else observation.auctioneer
    state = new_game(rules, seed=0, starting_auctioneer=start)
    decisions: list[_Decision] = []
    for record in records:
        decisions.append(
            _Decision(
                record.round, record.auctioneer, state.observation(record.auctioneer),
                state.legal_actions(), Auction(record.item, record.first_bidder),
                [(None, Fraction(1))],
            )
        )
        state = state.apply(Auction(record.item, record.first_bidder))
        previous: tuple[int, tuple[int, ...], Bid] | None = None
        for seat in record.order:
            bid = record.bids[seat]
            peeks = [(None, Fraction(1))] if previous is None else peek_chances(*previous)
            decisions.append(
                _Decision(
                    record.round, seat, state.observation(seat), state.legal_actions(), bid, peeks,
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
                observation.round, auctioneer, state.observation(auctioneer), state.legal_actions(),
                Auction(observation.item, observation.first_bidder), [(None, Fraction(1))],
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
                    seat, state.observation(seat), legal, state.available(seat), candidates, count,
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
