"""Invariants over random rule variants, seeds and (random) play."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games.rubbish import Auction, Bid, Deal, RandomAgent, Rules, State, new_game
from workbench.kit.seeding import generator

rule_variants = st.builds(
    Rules,
    players=st.integers(2, 5),
    money_cards=st.lists(st.integers(1, 12), min_size=2, max_size=6).map(tuple),
    starting_fame=st.integers(0, 40),
    destined_bonus=st.integers(0, 40),
    bid_minimum=st.sampled_from(["first_any_later_one", "any", "one"]),
    overspend=st.sampled_from(["discard", "keep"]),
    starting_auctioneer=st.sampled_from([0, 1, "random"]),
)


def random_game(rules: Rules, seed: int) -> list[State]:
    """Every state of one game played by random agents."""
    agent = RandomAgent()
    rng = generator(seed, 99)
    states = [new_game(rules, seed=seed)]
    while not states[-1].is_over:
        state = states[-1]
        observation = state.observation(state.to_play)
        states.append(state.apply(agent(observation, state.legal_actions(), rng)))
    return states


@settings(max_examples=60, deadline=None)
@given(rules=rule_variants, seed=st.integers(0, 2**32))
def test_game_invariants(rules, seed):
    states = random_game(rules, seed)
    final = states[-1]
    for state in states:
        assert min(state.fame) >= 0  # fame never negative
    # Each item is won or discarded exactly once.
    won = [item for items in final.items_won for item in items]
    assert Counter(won + list(final.discarded)) == Counter(range(rules.rounds))
    # Exactly one cheapskate (and one winner) per round.
    assert sum(final.cheapskate_counts) == rules.rounds == len(final.history)
    for record in final.history:
        roles = Counter(record.role(seat) for seat in range(rules.players))
        assert roles["winner"] == 1 and roles["cheapskate"] == 1
        # Locks only on cards actually played: each non-cheapskate locks its highest card.
        for seat, locked in enumerate(record.locked_next):
            bid = record.bids[seat]
            if seat == record.cheapskate or not bid.cards:
                assert locked is None
            else:
                assert locked == max(bid.cards)
        # Fame moves exactly as the rules say.
        for seat in range(rules.players):
            before, after, total = (
                record.fame_before[seat],
                record.fame_after[seat],
                record.bids[seat].total,
            )
            if seat == record.winner:
                assert after == max(0, before - total)
                assert record.kept == (before - total >= 0 or rules.overspend == "keep")
            elif seat == record.cheapskate:
                assert after == before
            else:
                assert after == before + total
    result = final.result()
    assert set(result.winners) == {s for s, r in enumerate(result.ranks) if r == 1}
    assert max(result.scores) == max(result.scores[s] for s in result.winners)


@settings(max_examples=40, deadline=None)
@given(rules=rule_variants, seed=st.integers(0, 2**32))
def test_legal_bids_use_only_available_cards(rules, seed):
    for state in random_game(rules, seed):
        if state.phase != "bid":
            continue
        available = Counter(state.available(state.to_play))
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        fewest = rules.bid_minimums[0 if not state.bids else 1]
        # Every multiset of the available cards with at least the minimum, each exactly once.
        sizes = [count + 1 for count in available.values()]
        assert len(legal) == int(np.prod(sizes)) - (1 if fewest else 0)
        for bid in legal:
            assert isinstance(bid, Bid) and len(bid.cards) >= fewest
            assert not Counter(bid.cards) - available


@settings(max_examples=40, deadline=None)
@given(rules=rule_variants, seed=st.integers(0, 2**32), other_seed=st.integers(0, 2**32))
def test_observation_never_leaks_hidden_facts(rules, seed, other_seed):
    """Replaying the same public actions with other players' geeks changed leaves a player's
    observation unchanged, and an observation never contains another player's geek."""
    states = random_game(rules, seed)
    final = states[-1]
    observer = 0
    rng = np.random.default_rng(other_seed)
    others = [g for g in range(len(rules.geeks)) if g != final.deal.geeks[observer]]
    shuffled = [int(g) for g in rng.permutation(others)[: rules.players - 1]]
    geeks = (final.deal.geeks[observer], *shuffled)
    twin = new_game(rules, seed=seed, geeks=geeks)
    for state in states:
        assert state.observation(observer) == twin.observation(observer)
        assert state.observation(observer).geek == final.deal.geeks[observer]
        if state.is_over:
            break
        twin = twin.apply(_next_action(state, states))


def _next_action(state: State, states: list[State]):
    """The action that led from ``state`` to its successor in ``states``."""
    following = states[states.index(state) + 1]
    if state.phase == "auction":
        return Auction(following.item, following.first_bidder)
    if following.bids:
        return following.bids[-1]
    return following.history[-1].bids[state.to_play]


@settings(max_examples=40, deadline=None)
@given(
    rules=rule_variants,
    seed=st.integers(0, 2**32),
    stop=st.floats(0, 1),
    observer=st.integers(0, 4),
)
def test_log_for_shows_only_what_the_player_saw(rules, seed, stop, observer):
    """A twin game that differs only in what ``observer`` cannot see — the other seats'
    geeks, the other seats' peeks, and this round's unrevealed bids other than the one it
    peeked at (same number of cards) — gives ``observer`` the same observation and the same
    log, which holds the observer's own peeks and no one else's, and no geek before the end."""
    observer %= rules.players
    states = random_game(rules, seed)
    state = states[int(stop * (len(states) - 1))]
    rng = np.random.default_rng(seed)
    twin = _twin(state, observer, rng)
    assert twin.observation(observer) == state.observation(observer)
    lines = state.log_for(observer)
    assert twin.log_for(observer) == lines
    # Positively: the observer's own peeks are there, nobody else's; no geek before the end.
    orders = [record.order for record in state.history] + [state.order]
    own = sum(
        1
        for order, peeks in zip(orders, (*state.peek_history, state.peeks), strict=True)
        for position, peek in enumerate(peeks)
        if peek is not None and order[position] == observer
    )
    peek_lines = [line for line in lines if " peeks blind " in line]
    assert len(peek_lines) == own
    assert all(line.startswith(f"seat {observer} peeks") for line in peek_lines)
    assert state.is_over or not any("reveals geek" in line for line in lines)
    full = state.log_for(None)
    assert set(lines) <= set(full)


def _twin(state: State, observer: int, rng: np.random.Generator) -> State:
    """``state`` replayed with every fact ``observer`` cannot see redrawn (the geeks only while
    the game runs: at the end everyone reveals theirs)."""
    rules, deal = state.rules, state.deal
    others = [g for g in range(len(rules.geeks)) if g != deal.geeks[observer]]
    drawn = iter(int(g) for g in rng.permutation(others))
    geeks = tuple(
        g if seat == observer or state.is_over else next(drawn) for seat, g in enumerate(deal.geeks)
    )
    orders = [record.order for record in state.history] + ([state.order] if state.order else [])
    uniforms = tuple(
        tuple(
            u
            if round_index < len(orders) and orders[round_index][position] == observer
            else float(rng.random())
            for position, u in enumerate(row)
        )
        for round_index, row in enumerate(deal.peek_uniforms)
    )
    twin = State(rules, Deal(geeks, deal.starting_auctioneer, uniforms))
    for record in state.history:
        twin = twin.apply(Auction(record.item, record.first_bidder))
        for seat in record.order:
            twin = twin.apply(record.bids[seat])
    if state.item is not None:
        twin = twin.apply(Auction(state.item, state.first_bidder))
        place = state.order.index(observer)
        for position, bid in enumerate(state.bids):
            seat = state.order[position]
            hidden = seat != observer and position != place - 1  # the observer never saw it
            if hidden:
                same_count = [b for b in twin.legal_actions() if b.count == bid.count]
                bid = same_count[int(rng.integers(len(same_count)))]
            twin = twin.apply(bid)
    return twin
