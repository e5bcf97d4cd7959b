"""Invariants over random rule variants, seeds and random play (hypothesis, derandomized)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games.going_gone import DoneSelling, RandomAgent, Rules, State, new_game
from workbench.games.going_gone.arrangement import best_lines
from workbench.games.going_gone.holdings import exact_values, mask_of
from workbench.kit.seeding import generator


@st.composite
def rule_variants(draw) -> Rules:
    lot_sizes = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=5)))
    rounds = draw(st.integers(1, min(7, 49 // sum(lot_sizes))))
    return Rules(
        players=draw(st.integers(2, 6)),
        starting_bucks=draw(st.integers(0, 40)),
        rounds=rounds,
        lot_sizes=lot_sizes,
        cube_limit=draw(st.one_of(st.none(), st.integers(1, 40))),
        collection_values=tuple(draw(st.lists(st.integers(0, 50), min_size=7, max_size=7))),
        open_collections=draw(st.booleans()),
        first_auctioneer=draw(st.sampled_from([0, 1, "random"])),
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


@settings(max_examples=40, deadline=None)
@given(rules=rule_variants(), seed=st.integers(0, 2**32))
def test_game_invariants(rules, seed):
    states = random_game(rules, seed)
    start = rules.players * rules.starting_bucks
    for state in states:
        # Bucks are conserved: the players' and the box's
        assert sum(state.bucks) + state.box == start
        assert min(state.bucks) >= 0
    final = states[-1]
    # every dealt item ends held, sold or discarded, exactly once; the rest stay in the deck
    dealt = final.deal.deck[: rules.rounds * rules.items_per_round]
    held = [item for holding in final.holdings for item in holding]
    sold = [item for seat in final.sold for collection in seat for item in collection]
    assert Counter(held + sold + list(final.discarded)) == Counter(dealt)
    # the score is Bucks plus the best arrangement, by two independent code paths
    result = final.result()
    masks = np.array([mask_of(rules, h) for h in final.holdings], dtype=np.uint64)
    vectorised = exact_values(masks, rules).tolist()
    scalar = [best_lines(int(m), rules.best_line_values)[0] for m in masks]
    assert list(result.collection_values) == vectorised == scalar
    assert list(result.scores) == [b + v for b, v in zip(final.bucks, vectorised, strict=True)]
    # every sale paid its collection's value
    paid = sum(rules.sale_value(len(c)) for seat in final.sold for c in seat)
    spent = sum(price for record in final.history for price in record.prices)
    assert sum(final.bucks) == start - spent + paid


@settings(max_examples=25, deadline=None)
@given(rules=rule_variants(), seed=st.integers(0, 2**32))
def test_observations_leak_nothing_sealed_or_secret(rules, seed):
    states = random_game(rules, seed)
    for before, after in itertools.pairwise(states):
        actor = before.to_play
        same_phase = after.phase == before.phase and after.round == before.round
        for player in range(rules.players):
            observation = after.observation(player)
            # other seats' collections stay secret unless the rules open them
            for seat in range(rules.players):
                hidden = seat != player and not rules.open_collections
                assert (observation.holdings[seat] is None) == hidden
                assert (observation.sold[seat] is None) == hidden
            # a sealed choice by another seat changes nothing this player sees (but whose turn
            # it is); a finished sale is another matter (Bucks and counts change in public)
            if same_phase and player != actor:
                seen_before = before.observation(player)
                seen_before.to_play = observation.to_play
                assert observation == seen_before


def test_random_play_reaches_the_end_with_sales_and_discards():
    # a sanity anchor for the properties above: random play does sell and discard
    state = random_game(Rules(), 3)[-1]
    assert any(state.sold) and state.is_over
    assert isinstance(state.legal_actions(), list) and DoneSelling() not in state.legal_actions()
