"""The compiled fast engine is a second implementation of the rules: every recorded game must
replay through ``State.apply`` to identical frames, the agents must choose in the step engine
what their compiled policies chose in the fast engine, and agents without a compiled policy are
refused."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.going_gone import (
    Allocation,
    CollectorAgent,
    DoneSelling,
    RandomAgent,
    Rules,
    Sell,
    ValuationAgent,
    new_game,
)
from workbench.games.going_gone.agents import view_of
from workbench.games.going_gone.batch import View
from workbench.games.going_gone.batch import new_batch as numpy_batch
from workbench.games.going_gone.bits import items_of
from workbench.games.going_gone.fast import Recording, new_batch, play
from workbench.games.going_gone.simulate import (
    batch_games_frame,
    batch_lots_frame,
    batch_rounds_frame,
    replay_recorded_game,
    states_games_frame,
    states_lots_frame,
    states_rounds_frame,
)
from workbench.kit.seeding import generator

VARIANTS = {
    "default": Rules(),
    "two players": Rules(players=2),
    "three players, open collections": Rules(players=3, open_collections=True),
    "five players, random first auctioneer": Rules(players=5, first_auctioneer="random"),
    "six players, tight cube limit": Rules(players=6, cube_limit=6, starting_bucks=30),
    "odd lots and values": Rules(
        lot_sizes=(2, 1, 3),
        rounds=6,
        collection_values=(1, 5, 6, 20, 21, 22, 40),
        starting_bucks=12,
    ),
}
AGENT_MIXES = {
    "random": [RandomAgent()] * 6,
    "valuation": [ValuationAgent()] * 6,
    "collector": [CollectorAgent()] * 6,
    "mixed": [
        CollectorAgent(),
        RandomAgent(),
        ValuationAgent(),
        CollectorAgent(exact_values=False, reserve=5),
        ValuationAgent(bid_share=0.9, reserve=0),
        RandomAgent(),
    ],
}


def run_batch(rules: Rules, agents, games: int, seed: int, rng=None):
    deal = generator(seed)
    batch = new_batch(rules, games, deal)
    recording = Recording.empty(rules, games)
    play(batch, agents[: rules.players], rng if rng is not None else deal, recording)
    return batch, recording


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_fast_games_replay_identically_through_the_engine(variant, mix):
    rules = VARIANTS[variant]
    agents = AGENT_MIXES[mix][: rules.players]
    labels = [a.name for a in agents]
    batch, recording = run_batch(rules, agents, games=40, seed=7)
    states = [replay_recorded_game(rules, recording, g) for g in range(batch.games)]
    assert batch_games_frame(batch, labels, 0).equals(states_games_frame(states, labels, 0))
    assert batch_rounds_frame(recording, batch, labels, 0).equals(
        states_rounds_frame(states, labels, 0)
    )
    assert batch_lots_frame(recording, rules, labels, 0).equals(
        states_lots_frame(states, labels, 0)
    )
    for state, bucks, box in zip(states, batch.bucks, batch.box, strict=True):
        assert state.bucks == tuple(bucks) and state.box == box


class FixedUniforms:
    """A stand-in generator: every uniform is ``u`` (so both engines see the same chance)."""

    def __init__(self, u: float) -> None:
        self.u = u

    def random(self, size=None):
        return self.u if size is None else np.full(size, self.u)


@pytest.mark.parametrize(
    "variant", ["default", "three players, open collections", "odd lots and values"]
)
@pytest.mark.parametrize(
    "agent", [ValuationAgent(), CollectorAgent(), CollectorAgent(exact_values=False)]
)
def test_step_agents_choose_what_the_batch_agents_chose(variant, agent):
    rules = VARIANTS[variant]
    chance = FixedUniforms(0.37)
    batch, recording = run_batch(rules, [agent] * rules.players, games=12, seed=3, rng=chance)
    for game in range(batch.games):
        state = new_game(
            rules,
            seed=0,
            deck=tuple(int(i) for i in recording.deck[game]),
            first_auctioneer=int(recording.first_auctioneer[game]),
        )
        while not state.is_over:
            seat = state.to_play
            choice = agent(state.observation(seat), state.legal_actions(), chance)
            round_index = state.round - 1
            if state.phase == "bid":
                expected = Allocation(
                    tuple(int(b) for b in recording.bids[game, round_index, seat])
                )
            else:
                planned = [int(m) for m in recording.sales[round_index][game, seat] if m]
                done = len(state.pending[seat])
                expected = (
                    Sell(items_of(rules, planned[done])) if done < len(planned) else DoneSelling()
                )
            assert choice == expected
            state = state.apply(choice)


def test_random_agent_step_call_matches_its_batch_formula():
    agent = RandomAgent()
    state = new_game(Rules(), seed=4)
    rng = generator(1)
    for _ in range(60):
        if state.is_over:
            break
        observation = state.observation(state.to_play)
        legal = state.legal_actions()
        view = view_of(observation)
        for u in (0.0, 0.31, 0.77, 0.999):
            step = agent(observation, legal, FixedUniforms(u))
            if state.phase == "bid":
                batch = agent.choose_allocations(view, lambda k, u=u: np.full((1, k), u))[0]
                assert step == Allocation(tuple(int(b) for b in batch))
            else:
                # the batch plan's first step is the step agent's choice on a fresh sale
                pending = len(observation.pending_sale)
                if pending == 0:
                    plan = agent.choose_sales(view, lambda k, u=u: np.full((1, k), u))[0]
                    first = [m for m in plan if m]
                    expected = Sell(items_of(state.rules, first[0])) if first else DoneSelling()
                    assert step == expected
        state = state.apply(agent(observation, legal, rng))


@pytest.mark.parametrize("variant", ["default", "three players, open collections"])
def test_view_of_an_observation_matches_the_batch_view(variant):
    rules = VARIANTS[variant]
    agent = ValuationAgent()
    _, recording = run_batch(rules, [agent] * rules.players, games=1, seed=9)
    state = new_game(
        rules, seed=0, deck=tuple(int(i) for i in recording.deck[0]), first_auctioneer=0
    )
    replay = replay_recorded_game(rules, recording, 0)
    fresh = numpy_batch(rules, 1, generator(9))
    fresh.deck[0] = recording.deck[0]
    for round_index, record in enumerate(replay.history):
        fresh.deal()
        for seat in range(rules.players):
            batch_view = fresh.view(np.array([0]), np.array([seat]), "bid")
            single = view_of(state.observation(seat))
            assert_same_view(single, batch_view)
        while state.phase == "bid":
            state = state.apply(record.bids[state.to_play])
        while state.phase == "sell":
            seat = state.to_play
            for collection in record.sales[seat]:
                state = state.apply(Sell(collection))
            state = state.apply(DoneSelling())
        # bring the fresh batch to the same point
        fresh.bucks[0] = state.bucks
        fresh.holdings[0] = [view_of(state.observation(s)).holding[0] for s in range(rules.players)]
        if rules.open_collections:
            fresh.sold[0] = view_of(state.observation(0)).sold[0]
        fresh.rounds_done = round_index + 1
        fresh.auctioneer[0] = state.auctioneer
        if state.is_over:
            break


def assert_same_view(single: View, batch_view: View) -> None:
    assert single.phase == batch_view.phase and single.rounds_done == batch_view.rounds_done
    for name in ("seat", "auctioneer", "lots", "bucks", "item_counts", "holding"):
        assert np.array_equal(getattr(single, name), getattr(batch_view, name)), name
    for name in ("holdings", "sold"):
        a, b = getattr(single, name), getattr(batch_view, name)
        assert (a is None and b is None) or np.array_equal(a, b), name


class Cheater:
    """An agent with no compiled policy, or a made-up one."""

    name = "cheater"

    def __init__(self, kind=None, params=None) -> None:
        if kind is not None:
            self.policy_kind, self.policy_params = kind, params


@pytest.mark.parametrize(
    ("cheater", "message"),
    [
        (Cheater(), "agent 'cheater' has no compiled policy"),
        (Cheater(7, np.zeros(6)), "agent 'cheater' has no compiled policy"),
        (Cheater(1, np.zeros(3)), r"has \(3,\) policy parameters; expected 6"),
    ],
)
def test_agents_without_a_compiled_policy_are_refused_before_play(cheater, message):
    rules = Rules()
    agents = [ValuationAgent(), cheater, ValuationAgent(), ValuationAgent()]
    batch = new_batch(rules, 5, generator(1))
    with pytest.raises(ValueError, match=message):
        play(batch, agents, generator(2))
    assert batch.rounds_done == 0 and (batch.bucks == 25).all() and (batch.holdings == 0).all()
