"""Arbitrary Python values thrown at the public API: every call works or raises ValueError,
TypeError or IllegalAction with a message (never another exception), and a refused move
leaves the state unchanged."""

from __future__ import annotations

import copy

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import IllegalAction
from workbench.games.rubbish import (
    Auction,
    Bid,
    HeuristicAgent,
    RandomAgent,
    Rules,
    SamplingAgent,
    bid_posterior,
    bidding_situation,
    cheapskate_facts,
    infer,
    make_agent,
    max_bid,
    max_bid_table,
    new_game,
    peek_distribution,
    possible_bids,
    simulate,
)

ALLOWED = (ValueError, TypeError)  # IllegalAction is a ValueError

scalars = st.one_of(
    st.integers(-3, 12),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 12).map(np.int64),
    st.integers(0, 12).map(np.uint8),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 2.0, 5.0, np.float64(3.0)]),
    st.booleans(),
    st.text(max_size=4),
    st.sampled_from(["random", "uniform", "heuristic", "any", "one", "held_out", "5", "+2"]),
    st.none(),
)
junk = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.lists(inner, max_size=5).map(tuple),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
    ),
    max_leaves=8,
)
RULE_FIELDS = (
    "players",
    "money_cards",
    "starting_fame",
    "destined_bonus",
    "bid_minimum",
    "overspend",
    "starting_auctioneer",
    "items",
    "geeks",
)


def attempt(call, *args, **kwargs) -> object:
    """Run one call; an allowed error must carry a message, any other exception fails."""
    try:
        return call(*args, **kwargs)
    except ALLOWED as error:
        assert str(error).strip(), f"{type(error).__name__} without a message"
        return error


def snapshot(state) -> dict:
    return copy.deepcopy({k: v for k, v in vars(state).items() if k != "_table"})


def junk_action(data, state):
    """A legal move, a legal move bent out of shape, an action built from junk, or junk."""
    legal = state.legal_actions()
    kind = data.draw(st.sampled_from(["legal", "bent", "bid", "auction", "raw"]))
    if kind == "legal" and legal:
        return data.draw(st.sampled_from(legal))
    if kind == "bent" and legal:
        action = data.draw(st.sampled_from(legal))
        if isinstance(action, Bid):
            extra = data.draw(st.integers(-2, 12))
            return attempt(Bid, (*action.cards, extra))
        return attempt(Auction, action.item + data.draw(st.integers(-8, 8)), action.first_bidder)
    if kind == "bid":
        return attempt(Bid, data.draw(junk))
    if kind == "auction":
        return attempt(Auction, data.draw(junk), data.draw(junk))
    return data.draw(junk)


@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_arbitrary_values_through_the_public_api(data):
    rules = attempt(Rules, **{data.draw(st.sampled_from(RULE_FIELDS)): data.draw(junk)})
    if not isinstance(rules, Rules):
        rules = Rules(players=data.draw(st.integers(2, 5)))
    attempt(new_game, data.draw(st.one_of(junk, st.just(rules))), seed=data.draw(junk))
    attempt(
        new_game,
        rules,
        seed=0,
        geeks=data.draw(st.one_of(st.none(), junk)),
        starting_auctioneer=data.draw(st.one_of(st.none(), junk)),
    )
    state = new_game(rules, seed=data.draw(st.integers(0, 2**32)))
    agent = RandomAgent()
    rng = np.random.default_rng(0)
    for _ in range(data.draw(st.integers(1, 25))):
        if state.is_over:
            break
        action = junk_action(data, state)
        before = snapshot(state)
        result = attempt(state.apply, action)
        if isinstance(result, Exception):
            assert snapshot(state) == before, f"{action!r} was refused but changed the state"
            assert isinstance(result, IllegalAction) or not isinstance(action, Bid | Auction)
        else:
            assert action in state.legal_actions()
            state = result
        seat = data.draw(junk)
        observation = state.observation(state.to_play if state.to_play is not None else 0)
        for call in (state.observation, state.log_for, state.available, observation.available):
            attempt(call, seat)
        if data.draw(st.booleans()):
            state = state.apply(agent(observation, state.legal_actions(), rng))
    drive_analyses(data, state)


def drive_analyses(data, state) -> None:
    """The analyses' entry points, with junk in every argument."""
    seat = state.to_play if state.to_play is not None else 0
    observation = state.observation(seat)
    cards = data.draw(st.one_of(junk, st.sampled_from([(5, 2, 2, 1), (10, 5, 2, 2, 1)])))
    count = data.draw(st.one_of(junk, st.integers(0, 5)))
    for call in (possible_bids, peek_distribution, max_bid):
        attempt(call, cards, count, rules=data.draw(st.one_of(st.none(), junk)))
    attempt(possible_bids, cards, count, position=data.draw(junk))
    attempt(
        bid_posterior,
        cards,
        count,
        data.draw(junk),
        prior=data.draw(st.one_of(junk, st.sampled_from(["uniform", "random"]))),
        epsilon=data.draw(st.one_of(junk, st.floats(0, 1))),
        samples=data.draw(st.one_of(junk, st.integers(1, 3))),
        seed=data.draw(junk),
        bootstrap=data.draw(st.one_of(junk, st.integers(1, 3))),
        by=data.draw(junk),
        geeks=data.draw(st.one_of(st.none(), junk)),
    )
    target = data.draw(st.one_of(st.just(observation), junk))
    attempt(max_bid_table, target)
    attempt(
        infer,
        target,
        data.draw(st.one_of(st.none(), junk)),
        prior=data.draw(st.one_of(junk, st.sampled_from(["uniform", "random"]))),
        epsilon=data.draw(st.one_of(junk, st.just(0.1))),
        history=data.draw(st.one_of(junk, st.booleans())),
        samples=data.draw(st.one_of(junk, st.just(2))),
        seed=data.draw(junk),
        bootstrap=data.draw(st.one_of(junk, st.just(2))),
    )
    attempt(bidding_situation, None, locked=data.draw(junk), bidder=data.draw(junk))
    attempt(cheapskate_facts, data.draw(junk), data.draw(junk))
    attempt(make_agent, data.draw(junk), data.draw(junk))
    attempt(make_agent, "heuristic", **{data.draw(st.text(max_size=4)): data.draw(junk)})
    attempt(HeuristicAgent, data.draw(junk), data.draw(junk), data.draw(junk), data.draw(junk))
    attempt(SamplingAgent, data.draw(junk), data.draw(junk))
    games = data.draw(st.one_of(junk, st.integers(1, 3)))
    if not (isinstance(games, int | np.integer) and games > 3):  # keep the run short
        attempt(
            simulate,
            data.draw(st.one_of(st.none(), junk)),
            data.draw(st.one_of(st.none(), junk, st.sampled_from(["random", RandomAgent]))),
            games=games,
            seed=data.draw(junk),
            progress=data.draw(st.one_of(junk, st.just(False))),
            engine=data.draw(st.one_of(junk, st.sampled_from(["fast", "step"]))),
            rounds=data.draw(st.one_of(junk, st.booleans())),
        )


def test_the_value_generator_covers_what_the_issue_names():
    """Sanity: the named troublemakers all raise a clear error (or work as documented)."""
    for value in ([5, 2], (5, 2)):
        assert Bid(value) == Bid((5, 2))
    for value in (5, None, (5, "2"), (True,), (5.0, 2.0)):
        assert isinstance(attempt(Bid, value), TypeError)
    assert isinstance(attempt(Auction, 1.0, 0), TypeError)
    assert isinstance(attempt(simulate, agents=RandomAgent, games=1, seed=0), TypeError)
    assert isinstance(attempt(simulate, 4, games=1, seed=0), TypeError)
    assert isinstance(attempt(new_game(seed=0).available, 9), ValueError)
    assert isinstance(attempt(cheapskate_facts, 6), ValueError)
    assert Rules(players=np.int64(4)) == Rules()
    assert new_game(seed=0, starting_auctioneer="random").auctioneer in range(4)
