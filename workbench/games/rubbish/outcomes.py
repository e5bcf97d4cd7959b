"""Your chances with each bid you could make now: P(win the item), P(be the cheapskate), by
exact Bayes under a model of the opponents' play over their geeks, the cards each earlier
bidder held out and the bids of everyone after you (past rounds weigh each deal of geeks).
Under "blind" models (uniform, random) the hidden bids are independent and their tail
probabilities multiply; any other model enumerates every deal and follows the bidding.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import polars as pl

from workbench.games.rubbish.agents import RandomAgent
from workbench.games.rubbish.cards import Bid
from workbench.games.rubbish.engine import (
    Auction,
    Observation,
    Peek,
    State,
    check_observation,
    new_game,
)
from workbench.games.rubbish.game import AGENTS, make_agent
from workbench.games.rubbish.inference.arguments import _exact_text
from workbench.games.rubbish.inference.peeks import likelihood, peek_chances
from workbench.games.rubbish.inference.priors import UNIFORM, uniform_choice

Number = Fraction | float
#: Most (deal × bidding) states the exact enumeration follows before it gives up.
MAX_STATES = 2_000_000


def model_names() -> tuple[str, ...]:
    """The opponent models with exact probabilities: 'uniform' and every agent that states
    its ``action_probabilities`` (the random agent and the heuristic)."""
    exact = [name for name, cls in AGENTS.items() if hasattr(cls, "action_probabilities")]
    return (UNIFORM, *exact)


class Model:
    """How an opponent chooses: uniform card subsets, or an agent's exact probabilities."""

    def __init__(self, spec: object) -> None:
        if spec == UNIFORM:
            self.name, self.agent = UNIFORM, None
        elif isinstance(spec, str):
            if spec not in model_names():
                raise ValueError(
                    f"unknown opponent model {spec!r}; exact models: {', '.join(model_names())}"
                )
            self.name, self.agent = spec, make_agent(spec)
        elif callable(getattr(spec, "action_probabilities", None)):
            self.name, self.agent = type(spec).__name__, spec
        else:
            raise ValueError(
                f"an opponent model is {', '.join(map(repr, model_names()))} or an agent with "
                f"action_probabilities; got {spec!r}"
            )
        #: blind: the choice ignores geek, peek and counts (bids independent, one deal enough)
        self.blind = self.agent is None or isinstance(self.agent, RandomAgent)
        self.fractions = self.agent is None

    def distribution(self, observation: Observation, legal: Sequence[Any]) -> dict[Any, Number]:
        """P(action) over ``legal`` for a chooser seeing ``observation``."""
        if self.agent is None:
            return uniform_choice(observation, legal)
        given = self.agent.action_probabilities(observation, legal)
        return {action: float(given.get(action, 0.0)) for action in legal}

    def describe(self) -> str:
        if self.agent is None:
            return "uniform over physical card subsets; exact fractions"
        return f"{self.name}: exact action probabilities (floating point)"


@dataclass
class _Turn:
    """A bidder's decision this round, as the public record allows it to be rebuilt."""

    seat: int
    observation: Observation  # geek, peek and counts replaced per hypothesis
    legal: list[Bid]
    available: tuple[int, ...]
    candidates: list[Bid] = field(default_factory=list)  # earlier bidders: bids of their count


@dataclass
class _Past:
    """Past rounds replayed: the public position after them and each seat's weight per geek
    (how likely that geek made every past choice of the seat)."""

    records: tuple
    state: State
    weights: dict[int, dict[int, Number]]


class BidOutcomes:
    """Cache for one game and model: past rounds are replayed and weighed once, then only the
    new rounds (``compute`` is what the panel calls after every event)."""

    def __init__(self, model: object = UNIFORM, *, method: str = "auto") -> None:
        if method not in ("auto", "enumerate"):
            raise ValueError(f"method must be 'auto' or 'enumerate', got {method!r}")
        self.model = Model(model)
        #: "auto": independent bids for blind models; "enumerate": every deal (a cross-check)
        self.method = method
        self._past: _Past | None = None
        self.memo: dict[Any, Any] = {}
        self.interned: dict[tuple, tuple] = {}
        self.steps: dict[tuple, dict[tuple, Number]] = {}

    def compute(self, observation: Observation) -> pl.DataFrame:
        """See ``bid_outcomes``."""
        _check(observation)
        return _outcomes(self, observation)

    def past(self, observation: Observation) -> _Past:
        """The replayed and weighed past rounds of ``observation`` (extending the cache)."""
        records = observation.history
        cached = self._past
        if (
            cached is None
            or cached.records != records[: len(cached.records)]
            or cached.state.rules != observation.rules
            or not self._same_player(observation)
        ):
            start = records[0].auctioneer if records else observation.auctioneer
            state = new_game(observation.rules, seed=0, starting_auctioneer=start)
            seats = [s for s in range(observation.rules.players) if s != observation.player]
            geeks = _candidate_geeks(observation)
            one: Number = Fraction(1) if self.model.fractions else 1.0
            cached = _Past((), state, {s: dict.fromkeys(geeks, one) for s in seats})
            self._player = (observation.player, observation.geek)
        state, weights = cached.state, {s: dict(w) for s, w in cached.weights.items()}
        for record in records[len(cached.records) :]:
            state = self._weigh_round(state, record, weights, observation)
        self._past = _Past(records, state, weights)
        return self._past

    def _same_player(self, observation: Observation) -> bool:
        return getattr(self, "_player", None) == (observation.player, observation.geek)

    def _weigh_round(
        self, state: State, record: Any, weights: dict, observation: Observation
    ) -> State:
        me = observation.player
        auction = Auction(record.item, record.first_bidder)
        if record.auctioneer != me:
            self._weigh(weights, record.auctioneer, state, auction, [(None, Fraction(1))])
        state = state.apply(auction)
        previous: tuple[int, tuple[int, ...], Bid] | None = None
        for seat in record.order:
            bid = record.bids[seat]
            if seat != me:
                peeks = [(None, Fraction(1))] if previous is None else peek_chances(*previous)
                self._weigh(weights, seat, state, bid, peeks)
            previous = (seat, state.available(seat), bid)
            state = state.apply(bid)
        return state

    def _weigh(
        self, weights: dict[int, dict[int, Number]], seat: int, state: State, action: Any,
        peeks: list[tuple[Peek | None, Fraction]],
    ) -> None:  # fmt: skip
        base = state.observation(seat)
        legal = state.legal_actions()
        for geek in weights[seat]:
            chance: Number = 0
            for peek, p in peeks:
                seen = dataclasses.replace(base, geek=geek, peek=peek)
                chance += p * self.model.distribution(seen, legal).get(action, 0)
            weights[seat][geek] *= chance

    def options(
        self, turn: _Turn, geek: int, peek: Peek, last: Bid, held: tuple[int | None, ...]
    ) -> tuple[tuple[Bid, Number, int, int], ...]:
        """A later bidder's choices with their probabilities, totals and counts (0 left out),
        memoised; equal lists are one object, so geeks treated alike share it."""
        key = ("later", turn.seat, geek, peek.card, last.count, held)
        found = self.memo.get(key)
        if found is None:
            seen = dataclasses.replace(turn.observation, geek=geek, peek=peek, held_out=held)
            dist = self.model.distribution(seen, turn.legal)
            listed = tuple((bid, q, bid.total, bid.count) for bid, q in dist.items() if q)
            found = self.memo[key] = self.interned.setdefault(listed, listed)
        return found

    def distribution(self, key: Any, observation: Observation, legal: Sequence[Any]) -> dict:
        """The model's distribution, memoised under ``key`` (for one decision's situations)."""
        if key not in self.memo:
            self.memo[key] = self.model.distribution(observation, legal)
        return self.memo[key]


def bid_outcomes(observation: Observation, model: object = UNIFORM) -> pl.DataFrame:
    """For every bid the observer may make now: the exact chance of winning the item and of
    being the cheapskate under ``model`` ("uniform", an agent name, or an agent with
    ``action_probabilities``), fractions too for "uniform"; a ValueError when the model cannot
    have produced what you saw."""
    return BidOutcomes(model).compute(observation)


def _check(observation: object) -> None:
    check_observation(observation)
    if observation.phase != "bid" or observation.to_play != observation.player:
        raise ValueError(
            f"bid outcomes need the observer's own bidding decision; seat {observation.player} "
            f"sees phase {observation.phase!r} with seat {observation.to_play} to play"
        )


def _candidate_geeks(observation: Observation) -> list[int]:
    return [g for g in range(len(observation.rules.geeks)) if g != observation.geek]


def _this_round(
    cache: BidOutcomes, observation: Observation
) -> tuple[State, list[_Turn], list[Bid], list[_Turn]]:
    """The public position at your decision: the auctioneer's choice applied, earlier bidders
    (with their candidate bids), your legal bids, and the later bidders' decisions."""
    past = cache.past(observation)
    state = past.state
    me = observation.player
    public = ("history", "fame", "locked", "items_won", "remaining", "cheapskate_counts")
    replayed = state.observation(me)
    if any(getattr(replayed, name) != getattr(observation, name) for name in public):
        raise ValueError("the observation's public record is not a game these rules produce")
    state = state.apply(Auction(observation.item, observation.first_bidder))
    auction_state = state
    earlier: list[_Turn] = []
    for seat in observation.order[: observation.order.index(me)]:
        legal = state.legal_actions()
        count = observation.held_out[seat]
        candidates = [bid for bid in legal if bid.count == count]
        if not candidates:
            raise ValueError(f"seat {seat} cannot have held out {count} card(s) this round")
        earlier.append(
            _Turn(seat, state.observation(seat), legal, state.available(seat), candidates)
        )
        state = state.apply(candidates[0])
    mine = state.legal_actions()
    later: list[_Turn] = []
    walk = state.apply(mine[0])
    for seat in observation.order[observation.order.index(me) + 1 :]:
        legal = walk.legal_actions()
        base = dataclasses.replace(walk.observation(seat), to_play=seat, own_bid=None)
        later.append(_Turn(seat, base, legal, walk.available(seat)))
        walk = walk.apply(legal[0])
    return auction_state, earlier, mine, later


def _outcomes(cache: BidOutcomes, observation: Observation) -> pl.DataFrame:
    model = cache.model
    cache.memo.clear()
    cache.interned.clear()
    cache.steps.clear()
    auction_state, earlier, mine, later = _this_round(cache, observation)
    me = observation.player
    if model.blind and cache.method == "auto":
        win, cheap = _blind(cache, observation, earlier, mine, later)
    else:
        win, cheap = _enumerate(cache, observation, auction_state, earlier, mine, later)
    if model.fractions:  # empty sums and products are the ints 0 and 1
        win, cheap = ({bid: Fraction(p) for bid, p in d.items()} for d in (win, cheap))
    else:  # floating-point sums can stray past 0 or 1 by an ulp
        win, cheap = ({bid: min(max(p, 0.0), 1.0) for bid, p in d.items()} for d in (win, cheap))
    rows = [
        (str(bid), bid.count, bid.total, float(win[bid]), float(cheap[bid]), _exact_text(win[bid]),
         _exact_text(cheap[bid]), bid.total > observation.fame[me], model.describe())
        for bid in mine
    ]  # fmt: skip
    return pl.DataFrame(rows, schema=_SCHEMA, orient="row").sort(
        "total", "cards", maintain_order=True
    )


_SCHEMA = {
    "bid": pl.String, "cards": pl.Int64, "total": pl.Int64, "p_win": pl.Float64,
    "p_cheapskate": pl.Float64, "exact_win": pl.String, "exact_cheapskate": pl.String,
    "overspend": pl.Boolean, "method": pl.String,
}  # fmt: skip


def _own_peek_likelihood(observation: Observation, turn: _Turn, bid: Bid) -> Fraction:
    """P(your peek | the bidder just before you held out ``bid``)."""
    peek = observation.peek
    if peek is None:
        return Fraction(1)
    return likelihood(turn.available, bid.cards, peek.card, peek.source)


def _totals(distribution: Mapping[Bid, Number]) -> dict[int, Number]:
    found: dict[int, Number] = {}
    for bid, p in distribution.items():
        if p:
            found[bid.total] = found.get(bid.total, 0) + p
    return found


def _blind(
    cache: BidOutcomes, observation: Observation,
    earlier: list[_Turn], mine: list[Bid], later: list[_Turn],
) -> tuple[dict[Bid, Number], dict[Bid, Number]]:  # fmt: skip
    """Independent hidden bids: products of per-bidder tail probabilities."""
    model = cache.model
    earlier_totals = []
    for j, turn in enumerate(earlier):
        prior = model.distribution(turn.observation, turn.legal)
        weights = {bid: prior.get(bid, 0) for bid in turn.candidates}
        if j == len(earlier) - 1:
            weights = {
                b: w * _own_peek_likelihood(observation, turn, b) for b, w in weights.items()
            }
        mass = sum(weights.values())
        if not mass:
            raise ValueError(
                f"the {model.name} model cannot explain seat {turn.seat} holding out "
                f"{turn.candidates[0].count} card(s) with your peek"
            )
        earlier_totals.append(_totals({b: w / mass for b, w in weights.items()}))
    later_totals = [_totals(model.distribution(t.observation, t.legal)) for t in later]
    win, cheap = {}, {}
    for bid in mine:
        t = bid.total
        p_win: Number = 1
        p_cheap: Number = 1
        for totals in earlier_totals:
            p_win *= sum(p for x, p in totals.items() if x < t)
            p_cheap *= sum(p for x, p in totals.items() if x >= t)
        for totals in later_totals:
            p_win *= sum(p for x, p in totals.items() if x <= t)
            p_cheap *= sum(p for x, p in totals.items() if x > t)
        win[bid], cheap[bid] = p_win, p_cheap
    return win, cheap


def _enumerate(
    cache: BidOutcomes, observation: Observation, auction_state: State,
    earlier: list[_Turn], mine: list[Bid], later: list[_Turn],
) -> tuple[dict[Bid, Number], dict[Bid, Number]]:  # fmt: skip
    """Every deal of geeks, the bidding followed position by position (see the module)."""
    model = cache.model
    me = observation.player
    past = cache.past(observation)
    opponents = [s for s in range(observation.rules.players) if s != me]
    geeks = _candidate_geeks(observation)
    auctioneer = observation.auctioneer
    auction = Auction(observation.item, observation.first_bidder)
    budget = _Budget()

    def auction_weight(geek: int) -> Number:
        seen = dataclasses.replace(past.state.observation(auctioneer), geek=geek, peek=None)
        legal = past.state.legal_actions()
        return cache.distribution(("auction", geek), seen, legal).get(auction, 0)

    earlier_cache: dict[tuple[int, ...], dict[tuple[int, int], Number]] = {}
    later_cache: dict[tuple[Bid, tuple[int, ...]], dict[tuple[int, int], Number]] = {}
    prefixes: dict[tuple, dict[tuple, Number]] = {}
    zero: Number = Fraction(0) if model.fractions else 0.0
    total: Number = zero
    win = dict.fromkeys(mine, zero)
    cheap = dict.fromkeys(mine, zero)
    for deal in itertools.permutations(geeks, len(opponents)):
        geek_of = dict(zip(opponents, deal, strict=True))
        weight: Number = Fraction(1) if model.fractions else 1.0
        for seat, geek in geek_of.items():
            weight *= past.weights[seat][geek]
        if auctioneer != me and weight:
            weight *= auction_weight(geek_of[auctioneer])
        if not weight:
            continue
        key = tuple(geek_of[t.seat] for t in earlier)
        if key not in earlier_cache:
            earlier_cache[key] = _earlier_pass(cache, observation, earlier, key, budget)
        before = earlier_cache[key]
        mass = sum(before.values())
        if not mass:
            continue
        total += weight * mass
        later_key = tuple(geek_of[t.seat] for t in later)
        for bid in mine:
            if (bid, later_key) not in later_cache:
                later_cache[(bid, later_key)] = _later_pass(
                    cache, observation, later, bid, later_key, budget, prefixes
                )
            after = later_cache[(bid, later_key)]
            t = bid.total
            for (high, low), p in before.items():
                for (later_high, later_low), q in after.items():
                    if high < t and later_high <= t:
                        win[bid] += weight * p * q
                    if low >= t and later_low > t:
                        cheap[bid] += weight * p * q
    if not total:
        raise ValueError(
            f"the {model.name} model cannot have produced what you saw (past choices, this "
            "round's counts and your peek have probability 0 under it for every deal of geeks): "
            "choose the uniform model, which explains any play"
        )
    return {b: w / total for b, w in win.items()}, {b: c / total for b, c in cheap.items()}


class _Budget:
    """Counts states followed; ValueError past ``MAX_STATES`` (the model is too random)."""

    def __init__(self) -> None:
        self.used = 0

    def spend(self, states: int) -> None:
        self.used += states
        if self.used > MAX_STATES:
            raise ValueError(
                f"too many hidden combinations to follow exactly (over {MAX_STATES:,} states) "
                "for this model: choose 'uniform' or 'random', whose bids are independent"
            )


NO_HIGH, NO_LOW = -1, 10**9


def _earlier_pass(
    cache: BidOutcomes, observation: Observation, earlier: list[_Turn], geeks: tuple[int, ...],
    budget: _Budget,
) -> dict[tuple[int, int], Number]:  # fmt: skip
    """Unnormalised P(highest, lowest earlier total; this round's counts and your peek)."""
    states: dict[tuple[Bid | None, int, int], Number] = {(None, NO_HIGH, NO_LOW): 1}
    for j, (turn, geek) in enumerate(zip(earlier, geeks, strict=True)):
        following: dict[tuple[Bid | None, int, int], Number] = {}
        for (last, high, low), weight in states.items():
            options = (
                [(None, Fraction(1))]
                if j == 0
                else peek_chances(earlier[j - 1].seat, earlier[j - 1].available, last)
            )
            for peek, p in options:
                card = None if peek is None else peek.card
                key = ("earlier", j, geek, last, card)
                dist = cache.memo.get(key)
                if dist is None:
                    seen = dataclasses.replace(turn.observation, geek=geek, peek=peek)
                    dist = cache.distribution(key, seen, turn.legal)
                for bid in turn.candidates:
                    q = dist.get(bid, 0)
                    if q:
                        key = (bid, max(high, bid.total), min(low, bid.total))
                        following[key] = following.get(key, 0) + weight * p * q
        budget.spend(len(following))
        states = following
    collapsed: dict[tuple[int, int], Number] = {}
    for (last, high, low), weight in states.items():
        if earlier and observation.peek is not None:
            weight = weight * _own_peek_likelihood(observation, earlier[-1], last)
        if weight:
            collapsed[(high, low)] = collapsed.get((high, low), 0) + weight
    return collapsed


def _later_pass(
    cache: BidOutcomes, observation: Observation, later: list[_Turn], mine: Bid,
    geeks: tuple[int, ...], budget: _Budget, prefixes: dict[tuple, dict[tuple, Number]],
) -> dict[tuple[int, int], Number]:  # fmt: skip
    """P(highest, lowest later total | your bid ``mine``), the later bidders in turn. The
    states after the first k later bidders depend on their k geeks only: kept in
    ``prefixes`` and shared between deals."""
    me = observation.player
    key: tuple = (mine,)
    if key not in prefixes:
        counts = list(observation.held_out)
        counts[me] = mine.count
        prefixes[key] = {(mine, me, observation.available(me), tuple(counts), NO_HIGH, NO_LOW): 1}
    states = prefixes[key]
    for k, (turn, geek) in enumerate(zip(later, geeks, strict=True)):
        key = (*key, geek)
        if key not in prefixes:
            final = k == len(later) - 1
            prefixes[key] = _later_step(cache, turn, geek, states, final=final)
            budget.spend(len(prefixes[key]))
        states = prefixes[key]
    if not later:
        return {(NO_HIGH, NO_LOW): 1}
    return states  # the last step kept only (highest, lowest)


def _later_step(
    cache: BidOutcomes, turn: _Turn, geek: int, states: dict[tuple, Number], *, final: bool,
) -> dict[tuple, Number]:  # fmt: skip
    """The states after ``turn``'s bidder (holding ``geek``) chooses, from ``states`` (for the
    ``final`` bidder only (highest, lowest)); geeks the model treats alike share one result."""
    contexts = []
    for state, weight in states.items():
        last, last_seat, last_cards, held, high, low = state
        for peek, p in _peeks(last_seat, last_cards, last, cache.model.fractions):
            options = cache.options(turn, geek, peek, last, held)
            contexts.append((weight * p, held, high, low, options))
    signature = (id(states), turn.seat, final, tuple(id(c[4]) for c in contexts))
    found = cache.steps.get(signature)
    if found is not None:
        return found
    following: dict[tuple, Number] = {}
    for chance, held, high, low, options in contexts:
        for bid, q, total, count in options:
            top = high if high > total else total
            bottom = low if low < total else total
            if final:
                state: tuple = (top, bottom)
            else:
                now = list(held)
                now[turn.seat] = count
                state = (bid, turn.seat, turn.available, tuple(now), top, bottom)
            following[state] = following.get(state, 0) + chance * q
    cache.steps[signature] = following
    return following


@functools.lru_cache(maxsize=4096)
def _peeks(
    target: int, available: tuple[int, ...], bid: Bid, fractions: bool
) -> tuple[tuple[Peek, Number], ...]:
    """``peek_chances``, cached, as fractions or floats."""
    found = peek_chances(target, available, bid)
    return tuple((peek, p if fractions else float(p)) for peek, p in found)


__all__ = ["BidOutcomes", "Model", "bid_outcomes", "model_names", "peek_chances"]
