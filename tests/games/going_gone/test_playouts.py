"""``play_from`` and the compiled loop under it (``compiled``): continuations of positions
reached by seeded step-engine games end with the scores the step engine gives when every agent
draws the same uniforms, and ``play_from`` is seeded per continuation."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.going_gone import (
    CollectorAgent,
    RandomAgent,
    Rules,
    ValuationAgent,
    new_game,
    play_from,
)
from workbench.games.going_gone.compiled import play_positions, repeat_positions, uniform
from workbench.games.going_gone.holdings import tables_of
from workbench.games.going_gone.positions import policy_table_of, positions_of_states
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


class Uniforms:
    """A stand-in generator handing out given uniforms (what the compiled play drew)."""

    def __init__(self, values: list[float]) -> None:
        self.values = values

    def random(self, size=None):
        return self.values[0] if size is None else np.array(self.values).reshape(size)


def step_reference(state, agents, key: int):
    """The step engine playing ``state`` to the end with the agents' step calls, each handed the
    uniforms the compiled play draws for that game key (bid: slots 0..cups-1 of its round and
    seat; k-th sale pick: slot 512 + k); every action goes through ``State.apply``."""
    rules, picks = state.rules, {}
    key = np.uint64(key)
    while not state.is_over:
        seat, r = state.to_play, state.rounds_done
        if state.phase == "bid":
            values = [uniform(key, r, seat, j) for j in range(rules.cups)]
        else:
            k = picks.get((r, seat), 0)
            picks[(r, seat)] = k + 1
            values = [uniform(key, r, seat, 512 + k)]
        observation = state.observation(seat)
        state = state.apply(agents[seat](observation, state.legal_actions(), Uniforms(values)))
    return list(state.result().scores)


@pytest.mark.parametrize("variant", list(RULES))
@pytest.mark.parametrize("lineup", list(LINEUPS))
def test_every_continuation_is_the_step_engines(variant, lineup):
    """Positions mid-round included (sealed bids, sales part-way), three keys each: the
    compiled play ends with the scores the step engine gives with the same uniforms."""
    rules = RULES[variant]
    agents = LINEUPS[lineup](rules.players)
    table = policy_table_of(agents, rules.players)
    states = positions(rules, 12, len(variant) + len(lineup), agents)
    batch = repeat_positions(positions_of_states(states), 3)
    batch.keys[:] = np.arange(len(batch.keys), dtype=np.uint64) * 7919 + 11
    assignment = table.assignment(len(batch.keys))
    scores, _ = play_positions(rules, tables_of(rules), table, assignment, batch)
    for row, key in enumerate(batch.keys):
        state = states[row % len(states)]
        assert scores[row].tolist() == step_reference(state, agents, int(key)), (row, state)


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


def test_play_from_seats_one_agent_everywhere_and_refuses_none():
    state = new_game(Rules(), seed=0)
    one = play_from(state, RandomAgent(), playouts=3, seed=1)  # was: not iterable
    assert np.array_equal(one, play_from(state, [RandomAgent()] * 4, playouts=3, seed=1))
    with pytest.raises(TypeError, match="agents must be agent objects here, got None"):
        play_from(state, None, playouts=3, seed=1)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"playouts": 0}, "playouts must be a positive whole number"),
        ({"agents": [RandomAgent()]}, "one agent per seat"),
        ({"agents": [object()] * 4}, "play step by step only"),
    ],
)
def test_bad_arguments_are_refused(arguments, message):
    call = {"states": new_game(Rules(), seed=0), "agents": [RandomAgent()] * 4, "playouts": 2}
    call.update(arguments)
    with pytest.raises((ValueError, TypeError), match=message):
        play_from(call["states"], call["agents"], playouts=call["playouts"], seed=0)
