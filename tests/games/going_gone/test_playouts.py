"""``play_from``: continuations of positions reached by seeded step-engine games, replayed
action by action through ``State.apply`` from the same position, end with the same scores."""

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
    play_from,
)
from workbench.games.going_gone.bits import items_of
from workbench.games.going_gone.fast import Recording
from workbench.games.going_gone.playouts import continue_batch
from workbench.kit.seeding import generator

RULES = {
    "default": Rules(),
    "three players, open collections": Rules(players=3, open_collections=True),
    "odd lots and values": Rules(
        lot_sizes=(2, 1, 3), rounds=6, collection_values=(1, 5, 6, 20, 21, 22, 40)
    ),
}
LINEUPS = {
    "random": lambda n: [RandomAgent()] * n,
    "mixed": lambda n: [ValuationAgent(), RandomAgent(), CollectorAgent(), ValuationAgent(0.9)][:n],
}


def positions(rules: Rules, count: int, seed: int, agents=None) -> list:
    """States at seeded random points of seeded step-engine games (mid-round included), played
    by ``agents`` (random by default): a sale under way is then the agent's own plan."""
    rng = generator(seed)
    agents = agents or [RandomAgent()] * rules.players
    found = []
    for game in range(count):
        state = new_game(rules, seed=1000 * seed + game)
        stop = int(rng.integers(0, 60))
        for _ in range(stop):
            if state.is_over:
                break
            agent = agents[state.to_play]
            state = state.apply(agent(state.observation(state.to_play), state.legal_actions(), rng))
        found.append(state)
    return found


def replay(state, recording: Recording, game: int):
    """The recorded continuation ``game`` applied to ``state`` through ``State.apply``."""
    rules = state.rules
    start = state.rounds_done
    for r in range(start, rules.rounds):
        while state.phase == "bid" and state.round == r + 1:
            bids = recording.bids[game, r, state.to_play]
            state = state.apply(Allocation(tuple(int(b) for b in bids)))
        while state.phase == "sell" and state.round == r + 1:
            seat = state.to_play
            masks = [int(m) for m in recording.sales[r - start][game, seat] if m]
            for mask in masks[len(state.pending[seat]) :]:
                state = state.apply(Sell(items_of(rules, mask)))
            state = state.apply(DoneSelling())
    return state


@pytest.mark.parametrize("variant", list(RULES))
@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_every_continuation_replays_through_the_step_engine(variant, lineup):
    rules = RULES[variant]
    agents = LINEUPS[lineup](rules.players)
    for index, state in enumerate(positions(rules, 12, len(variant) + len(lineup), agents)):
        recording = Recording.empty(rules, 6)
        _, scores = continue_batch(state, agents, 6, generator(5, index), recording)
        for game in range(6):
            end = replay(state, recording, game)
            assert end.is_over
            assert list(end.result().scores) == scores[game].tolist()


def test_play_from_is_seeded_and_shaped_by_states_playouts_and_players():
    rules = Rules()
    states = positions(rules, 3, seed=2)
    agents = [ValuationAgent()] * 4
    first = play_from(states, agents, playouts=5, seed=7)
    assert first.shape == (3, 5, 4) and first.dtype == np.float64
    assert np.array_equal(first, play_from(states, agents, playouts=5, seed=7))
    assert np.array_equal(first[0], play_from(states[0], agents, playouts=5, seed=7)[0])


def test_a_finished_game_plays_out_to_its_own_result():
    rules = Rules(players=2)
    state = positions(rules, 1, seed=1)[0]
    while not state.is_over:
        observation = state.observation(state.to_play)
        state = state.apply(RandomAgent()(observation, state.legal_actions(), generator(3)))
    scores = play_from(state, [RandomAgent()] * 2, playouts=3, seed=0)
    assert scores.tolist() == [[list(map(float, state.result().scores))] * 3]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"playouts": 0}, "playouts must be a whole number"),
        ({"agents": [RandomAgent()]}, "one agent per seat"),
        ({"agents": [object()] * 4}, "no compiled policy"),
    ],
)
def test_bad_arguments_are_refused(arguments, message):
    call = {"states": new_game(Rules(), seed=0), "agents": [RandomAgent()] * 4, "playouts": 2}
    call.update(arguments)
    with pytest.raises(ValueError, match=message):
        play_from(call["states"], call["agents"], playouts=call["playouts"], seed=0)

