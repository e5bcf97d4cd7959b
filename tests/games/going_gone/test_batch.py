"""The compiled loop is a second implementation of the rules: every recorded game must replay
through ``State.apply`` to the same recording and identical frames, the agents must choose in the
step engine what their compiled policies chose in the compiled loop, and agents without a
compiled policy are refused."""

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
    simulate,
)
from workbench.games.going_gone.agents import CompiledAgent, FittedPolicy
from workbench.games.going_gone.compiled import SALES, SEATS
from workbench.games.going_gone.holdings import items_of, mask_of, tables_of
from workbench.games.going_gone.policies import RANDOM, choose_bids, random_sale_pick, scratch
from workbench.games.going_gone.simulate import (
    FAST_ENGINE,
    games_frame,
    lots_frame,
    recorded,
    replay_recorded_game,
    rounds_frame,
)
from workbench.kit.policies import CompiledPolicy
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
#: A fitted policy's parameters outside the hand-written agents' ranges (shares above 1).
FITTED = (1.3, 1.2, 17.0, 0.6, 0.2)
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
    "fitted policies": [FittedPolicy(FITTED), FittedPolicy((0.3, 1.4, 30.0, 1.0, 1.5))] * 3,
}


def run_batch(rules: Rules, agents, games: int, seed: int):
    """``games`` new games of the compiled loop, every round recorded."""
    wanted = {"rounds": True, "lots": True}
    agents = agents[: rules.players]
    return FAST_ENGINE.play_lineup(rules, agents, games, generator(seed), 0, wanted)


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_compiled_games_replay_identically_through_the_engine(variant, mix):
    rules = VARIANTS[variant]
    agents = AGENT_MIXES[mix][: rules.players]
    labels = [a.name for a in agents]
    played = run_batch(rules, agents, games=40, seed=7)
    states = [replay_recorded_game(rules, played, g) for g in range(40)]
    replayed = recorded(rules, states)
    for name in ("deck", "first_auctioneer", "bucks", "holdings", "scores"):
        assert np.array_equal(getattr(played, name), getattr(replayed, name)), name
    for part in ("totals", "rounds"):
        for name, array in getattr(played, part)._asdict().items():
            if name not in ("sales", "sale_keys"):
                assert np.array_equal(array, getattr(getattr(replayed, part), name)), (part, name)
    assert sale_log(played) == sale_log(replayed)
    for frame in (games_frame, rounds_frame, lots_frame):
        assert frame(played, labels, 0).equals(frame(replayed, labels, 0))
    spent = played.totals.spent.sum(axis=1) - played.totals.sale_bucks.sum(axis=1)
    for state, bucks, box in zip(states, played.bucks, spent, strict=True):
        assert state.bucks == tuple(bucks) and state.box == box


def sale_log(recording) -> list:
    """Every game's sold collections ordered by their keys (round, seat, place in the sale)."""
    rounds = recording.rounds
    return [sorted((k, m) for k, m in zip(keys.tolist(), sales.tolist(), strict=True) if k >= 0)
            for keys, sales in zip(rounds.sale_keys, rounds.sales, strict=True)]  # fmt: skip


class FixedUniforms:
    """A stand-in generator handing out ``u`` (a number or one uniform per cup)."""

    def __init__(self, u) -> None:
        self.u = u

    def random(self, size=None):
        return self.u if size is None else np.broadcast_to(self.u, size).copy()


@pytest.mark.parametrize(
    "variant", ["default", "three players, open collections", "odd lots and values"]
)
@pytest.mark.parametrize(
    "agent",
    [ValuationAgent(), CollectorAgent(), CollectorAgent(exact_values=False), FittedPolicy(FITTED)],
)
def test_step_agents_choose_what_the_compiled_loop_chose(variant, agent):
    rules = VARIANTS[variant]
    games, n = 12, rules.players
    played = run_batch(rules, [agent] * n, games=games, seed=3)
    # the stream's draws after the deal: each round, every game's seats, cups uniforms each
    stream = generator(3)
    stream.random((games, len(rules.items)))
    uniforms = stream.random((rules.rounds, games, n, rules.cups))
    for game in range(games):
        state = new_game(
            rules,
            seed=0,
            deck=tuple(int(i) for i in played.deck[game]),
            first_auctioneer=int(played.first_auctioneer[game]),
        )
        while not state.is_over:
            seat, round_index = state.to_play, state.round - 1
            chance = FixedUniforms(0.37)  # a sale plan draws nothing
            if state.phase == "bid":
                chance = FixedUniforms(uniforms[round_index, game, seat])
                expected = Allocation(
                    tuple(int(b) for b in played.rounds.bids[game, round_index, seat])
                )
            else:
                key = round_index * SEATS + seat
                planned = [int(m) for m, k in zip(played.rounds.sales[game],
                                                  played.rounds.sale_keys[game],
                                                  strict=True) if k // SALES == key]  # fmt: skip
                done = len(state.pending[seat])
                expected = (
                    Sell(items_of(rules, planned[done])) if done < len(planned) else DoneSelling()
                )
            choice = agent(state.observation(seat), state.legal_actions(), chance)
            assert agent.act_on_view(seat, state.view(seat), chance) == choice
            assert choice == expected
            state = state.apply(choice)


def test_random_agent_step_call_matches_its_compiled_formulas():
    # the fast engine's random bids (one uniform ranks the allocations) and sale picks (one
    # uniform per pick among DoneSelling and the collections left) are the step call's choice
    agent = RandomAgent()
    rng = generator(1)
    checked = {"bid": 0, "sell": 0}
    for game in range(4):
        state = new_game(Rules(players=3), seed=game)
        while not state.is_over:
            observation = state.observation(state.to_play)
            legal = state.legal_actions()
            rules = state.rules
            tb = tables_of(rules)
            for u in (0.0, 0.31, 0.77, 0.999):
                step = agent(observation, legal, FixedUniforms(u))
                if state.phase == "bid":
                    out = np.zeros(rules.cups, np.int64)
                    lots = np.array([mask_of(rules, lot) for lot in observation.lots], np.uint64)
                    choose_bids(RANDOM, np.zeros(6), np.array([u]), lots,
                                np.uint64(mask_of(rules, observation.holding)),
                                observation.budget, np.uint64(0), 0, tb, scratch(rules.cups),
                                out)  # fmt: skip
                    assert step == Allocation(tuple(int(b) for b in out))
                else:
                    available = np.uint64(mask_of(rules, observation.unsold))
                    pick = int(random_sale_pick(u, available, tb))
                    assert step == (Sell(items_of(rules, pick)) if pick else DoneSelling())
                checked[state.phase] += 1
            state = state.apply(agent(observation, legal, rng))
    assert checked["bid"] > 50 and checked["sell"] > 50


class Cheater:
    """An agent with no compiled policy, or a made-up one."""

    name = "cheater"

    def __init__(self, kind=None, parameters=None) -> None:
        if kind is not None:
            self.compiled_policy = lambda: CompiledPolicy(kind, parameters)


@pytest.mark.parametrize(
    ("cheater", "error", "message"),
    [
        (Cheater(), TypeError, r"these play step by step only: \['cheater'\]"),
        (Cheater(7, (0.0,) * 6), ValueError, "'cheater' has policy kind 7 with 6 parameters"),
        (Cheater(1, (0.0,) * 3), ValueError, "policy kind 1 with 3 parameters; this game's"),
    ],
)
def test_agents_without_a_compiled_policy_are_refused_before_play(cheater, error, message):
    agents = [ValuationAgent(), cheater, ValuationAgent(), ValuationAgent()]
    rng = generator(1)
    before = rng.bit_generator.state
    with pytest.raises(error, match=message):
        FAST_ENGINE.play_lineup(Rules(), agents, 5, rng, 0, {"rounds": True, "lots": False})
    assert rng.bit_generator.state == before  # nothing was dealt


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_states_view_is_what_every_seats_observation_gives(variant):
    # State.view reads the State's fields, Observation.view the observation's (other seats'
    # items hidden unless collections are open): the same SeatView for every seat at every
    # decision of mixed games.
    rules, agents = VARIANTS[variant], AGENT_MIXES["mixed"]
    for seed in range(3):
        state, rng = new_game(rules, seed=seed), generator(seed)
        while not state.is_over:
            for seat in range(rules.players):
                assert state.view(seat) == state.observation(seat).view(), (seat, state.phase)
            seat = state.to_play
            state = state.apply(agents[seat](state.observation(seat), state.legal_actions(), rng))


def test_only_agents_deciding_as_compiled_agents_decide_from_the_view():
    assert RandomAgent.act_on_view is None  # it picks among the legal actions
    assert CollectorAgent.act_on_view is CompiledAgent.act_on_view


@pytest.mark.parametrize("variant", ["default", "three players, open collections"])
def test_step_games_are_the_same_with_or_without_the_view(variant, monkeypatch):
    rules = VARIANTS[variant]
    lineup = ["collector", "random", "valuation", "collector", "valuation", "random"]
    lineup = lineup[: rules.players]
    with_view = simulate(rules, lineup, games=4, seed=5, engine="step", progress=False)
    monkeypatch.setattr(CompiledAgent, "act_on_view", None)  # every seat through observations
    without = simulate(rules, lineup, games=4, seed=5, engine="step", progress=False)
    for frame, same in zip(with_view, without, strict=True):
        assert frame.equals(same)
