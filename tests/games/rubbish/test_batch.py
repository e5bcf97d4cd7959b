"""The fast batch engine is a second implementation of the rules: every recorded game must replay
through ``State.apply`` to the same rounds and results, and the batch-written agents must choose
the same as their step-by-step calls."""

from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import polars as pl
import pytest

from workbench.games.rubbish import Auction, HeuristicAgent, RandomAgent, Rules, new_game
from workbench.games.rubbish.agents import sample_worlds, view_of
from workbench.games.rubbish.batch import BatchState, Recording, new_batch, play
from workbench.games.rubbish.simulate import (
    batch_games_frame,
    batch_rounds_frame,
    replay_recorded_game,
    states_games_frame,
    states_rounds_frame,
)
from workbench.kit.seeding import generator

VARIANTS = {
    "default": Rules(),
    "two players": Rules(players=2),
    "five players, random start": Rules(players=5, starting_auctioneer="random"),
    "bid minimum one for everyone, keep on overspend": Rules(
        bid_minimum="one", overspend="keep", starting_fame=5
    ),
    "bid minimum any for everyone": Rules(bid_minimum="any"),
    "two players, bid minimum any": Rules(players=2, bid_minimum="any"),
    "odd money": Rules(players=3, money_cards=(1, 1, 3, 4, 4, 9), destined_bonus=12),
}
AGENT_MIXES = {
    "random": [RandomAgent()] * 5,
    "heuristic": [HeuristicAgent()] * 5,
    "mixed": [
        HeuristicAgent(),
        RandomAgent(),
        HeuristicAgent(max_wanted_bid=9),
        RandomAgent(),
        HeuristicAgent(gain_share=0.3),
    ],
}


def run_batch(rules: Rules, agents, games: int, seed: int) -> tuple[BatchState, Recording]:
    rng = generator(seed)
    batch = new_batch(rules, games, rng)
    recording = Recording.empty(games, rules.rounds, rules.players)
    recording.starting_auctioneer[:] = batch.auctioneer
    play(batch, agents[: rules.players], rng, recording)
    return batch, recording


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_fast_games_replay_identically_through_the_engine(variant, mix):
    rules = VARIANTS[variant]
    agents = AGENT_MIXES[mix][: rules.players]
    labels = [a.name for a in agents]
    batch, recording = run_batch(rules, agents, games=150, seed=7)
    states = [replay_recorded_game(rules, recording, batch.geek, g) for g in range(batch.games)]
    assert batch_games_frame(batch, labels, 0).equals(states_games_frame(states, labels, 0))
    assert batch_rounds_frame(recording, labels, 0).equals(states_rounds_frame(states, labels, 0))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_step_agents_choose_what_the_batch_agents_chose(variant):
    """Replaying fast heuristic games, the step-by-step heuristic picks every recorded bid, and
    every recorded auction is one its exact action distribution allows."""
    rules = VARIANTS[variant]
    agent = HeuristicAgent()
    batch, recording = run_batch(rules, [agent] * rules.players, games=60, seed=3)
    for game in range(batch.games):
        state = new_game(
            rules,
            seed=0,
            geeks=tuple(int(g) for g in batch.geek[game]),
            starting_auctioneer=int(recording.starting_auctioneer[game]),
        )
        replayed = replay_recorded_game(rules, recording, batch.geek, game)
        for record in replayed.history:
            observation = state.observation(state.to_play)
            chosen = (record.item, record.first_bidder)
            options = agent.action_probabilities(observation, state.legal_actions())
            assert chosen in options and options[chosen] > 0
            state = state.apply(Auction(*chosen))
            while state.phase == "bid":
                seat = state.to_play
                step_choice = agent(state.observation(seat), state.legal_actions(), generator(0))
                assert step_choice == record.bids[seat]
                state = state.apply(step_choice)


def test_random_agent_step_call_matches_its_batch_formula():
    agent = RandomAgent()
    state = new_game(Rules(), seed=4)
    for _ in range(12):
        observation = state.observation(state.to_play)
        legal = state.legal_actions()
        view = view_of(observation)
        for u in (0.0, 0.31, 0.77, 0.999):
            rng = _FixedUniform(u)
            step = agent(observation, legal, rng)
            if state.phase == "auction":
                item, first = agent.choose_auctions(view, np.array([u]))
                assert (step.item, step.first_bidder) == (int(item[0]), int(first[0]))
            else:
                index = int(agent.choose_bids(view, np.array([u]))[0])
                assert step == view.table.bids[int(view.actor_lock()[0])][index]
        state = state.apply(agent(observation, legal, generator(1)))


class _FixedUniform:
    def __init__(self, u: float) -> None:
        self.u = u

    def random(self) -> float:
        return self.u


@pytest.mark.parametrize("variant", ["default", "two players", "odd money"])
def test_view_of_an_observation_matches_the_batch_view(variant):
    """The step agents' one-game view of an observation equals the batch engine's view of a
    batch rebuilt from that observation (what the sampling agent's rollouts start from)."""
    rules = VARIANTS[variant]
    state = new_game(rules, seed=8)
    agent = HeuristicAgent()
    rng = generator(8)
    fields = (
        "fame",
        "lock",
        "remaining",
        "cheapskates",
        "auctioneer",
        "item",
        "first",
        "order",
        "held_out",
        "destined",
    )
    while not state.is_over:
        seat = state.to_play
        observation = state.observation(seat)
        single = view_of(observation)
        worlds = sample_worlds(observation, 3, rng)
        batch_view = worlds.view(np.full(3, seat))
        assert (single.rounds_done, single.position) == (
            batch_view.rounds_done,
            batch_view.position,
        )
        for name in fields:
            expected = np.repeat(getattr(single, name), 3, axis=0)
            assert np.array_equal(getattr(batch_view, name), expected), name
        state = state.apply(agent(observation, state.legal_actions(), rng))


def test_frames_from_both_engines_share_columns_and_types():
    rules = Rules()
    agents = [RandomAgent()] * 4
    batch, recording = run_batch(rules, agents, games=3, seed=1)
    states = [replay_recorded_game(rules, recording, batch.geek, g) for g in range(3)]
    labels = ["random"] * 4
    assert (
        batch_games_frame(batch, labels, 0).schema == states_games_frame(states, labels, 0).schema
    )
    rounds = batch_rounds_frame(recording, labels, 0)
    assert rounds.schema == states_rounds_frame(states, labels, 0).schema
    assert rounds.height == 3 * 7 * 4


def test_batch_state_is_reusable_from_a_mid_game_copy():
    rules = dataclasses.replace(Rules(), players=3)
    rng = generator(9)
    batch = new_batch(rules, 64, rng)
    play(batch, [HeuristicAgent()] * 3, rng)
    assert batch.is_over
    assert (batch.remaining.sum(axis=1) == 0).all()
    assert (batch.cheapskates.sum(axis=1) == 7).all()
    assert pl.Series(batch.fame.ravel()).min() >= 0


# -- batch agents' choices are checked before they are played ------------------------------------


class _Misbehaving(RandomAgent):
    """A random agent naming seat 0 First Bidder that, in game ``game`` of batches of
    ``batch_size`` games only, answers ``auction`` or ``bid`` (functions of the view and its
    honest answer) instead."""

    name = "misbehaving"

    def __init__(self, game: int, auction=None, bid=None, batch_size=None) -> None:
        self.game, self.auction, self.bid, self.batch_size = game, auction, bid, batch_size

    def choose_auctions(self, view, u):
        item, _ = super().choose_auctions(view, u)
        first = np.zeros_like(item)
        if self.auction is not None:
            item, first = item.copy(), first.copy()
            item[self.game], first[self.game] = self.auction(view, item[self.game])
        return item, first

    def choose_bids(self, view, u):
        bids = super().choose_bids(view, u)
        if self.bid is not None and self.batch_size in (None, view.games):
            bids = bids.copy()
            bad = self.bid(view, bids[self.game])
            if bad is None:
                return bids
            if isinstance(bad, np.ndarray):
                return bad
            bids[self.game] = bad
        return bids


BAD_CHOICES = {
    # what the agent does -> the message (agent, game, seat and what was legal)
    "a bid index past the end of the bid table": (
        dict(bid=lambda view, honest: 24),
        ValueError,
        r"agent 'misbehaving' .* chose bid index 24 for seat 0 in game 3, round 1 \(bidding "
        r"position 0\): legal are indices 0–23 of its bid table, the bids \[\], \[1\]",
    ),
    "a negative bid index": (
        dict(bid=lambda view, honest: -1),
        ValueError,
        r"chose bid index -1 for seat 0 in game 3",
    ),
    "an empty bid from a later bidder": (
        dict(bid=lambda view, honest: 0 if view.position == 1 else None),
        ValueError,
        r"chose bid index 0 for seat 1 in game 3, round 1 \(bidding position 1\): legal are "
        r"indices 1–23 of its bid table, the bids \[1\], \[2\]",
    ),
    "the same item auctioned again": (
        dict(auction=lambda view, honest: (0, 0)),
        ValueError,
        r"chose Auction\(0, 0\) for seat \d in game 3, round 2: legal are the items still up "
        r"for auction \[1, 2, 3, 4, 5, 6\] and First Bidders 0–3",
    ),
    "a First Bidder who is not a seat": (
        dict(auction=lambda view, honest: (honest, 4)),
        ValueError,
        r"chose Auction\(\d, 4\) for seat 0 in game 3, round 1",
    ),
    "bids as floats": (
        dict(bid=lambda view, honest: np.zeros(view.games)),
        TypeError,
        r"must answer bids as a whole-number array with one entry per game \(shape \(10,\)\), "
        r"got dtype float64",
    ),
}


@pytest.mark.parametrize(("behaviour", "error", "message"), BAD_CHOICES.values(), ids=BAD_CHOICES)
def test_illegal_batch_choices_raise_naming_agent_game_seat_and_what_was_legal(
    behaviour, error, message
):
    rules = Rules()
    rng = generator(0)
    batch = new_batch(rules, 10, rng)
    with pytest.raises(error, match=message):
        play(batch, [_Misbehaving(3, **behaviour)] * 4, rng)


def test_simulate_reports_the_game_number_across_batches(monkeypatch):
    simulate_module = importlib.import_module("workbench.games.rubbish.simulate")
    monkeypatch.setattr(simulate_module.FAST_ENGINE, "batch_size", 8)
    # 20 games play in batches of 8, 8 and 4; game 2 of the last batch is game 18 overall.
    agent = _Misbehaving(2, bid=lambda view, honest: 99, batch_size=4)
    with pytest.raises(ValueError, match=r"chose bid index 99 for seat 0 in game 18, round 1"):
        simulate_module.simulate(Rules(), agent, games=20, seed=0, progress=False)


def test_only_the_acting_seats_agent_is_checked():
    """A broken answer for games where another agent's seat acts is ignored (never played)."""
    rules = Rules(players=2)
    rng = generator(1)
    batch = new_batch(rules, 6, rng)
    # Seat 1's agent answers garbage in every game; seat 0 acts first (auctioneer, bidder...),
    # so the garbage would only matter where seat 1 acts, and there it is refused.
    broken = _Misbehaving(0, bid=lambda view, honest: -5)
    with pytest.raises(ValueError, match=r"chose bid index -5 for seat 1 in game 0"):
        play(batch, [RandomAgent(), broken], rng)


def test_agents_settings_are_checked_when_made():
    with pytest.raises(ValueError, match=r"max_wanted_bid must be a whole number >= 0, got -5"):
        HeuristicAgent(max_wanted_bid=-5)
    with pytest.raises(TypeError, match=r"gain_share must be a number from 0 to 1, got True"):
        HeuristicAgent(gain_share=True)
    with pytest.raises(ValueError, match=r"last_round_share must be a number from 0 to 1"):
        HeuristicAgent(last_round_share=1.2)
    assert HeuristicAgent(max_wanted_bid=np.int64(9)).max_wanted_bid == 9
