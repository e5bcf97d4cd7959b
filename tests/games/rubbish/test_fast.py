"""The compiled loop is a second implementation of the rules: every recorded game must replay
through ``State.apply`` to the same rounds and results (and the same frames, built from the
recording the step engine's States make), the compiled agents must choose in the step engine
what they chose in the compiled loop, and ``play_from`` must continue step positions as the
step engine would."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.rubbish import (
    Auction,
    HeuristicAgent,
    RandomAgent,
    Rules,
    SamplingAgent,
    compiled,
    new_game,
    play_from,
    policies,
)
from workbench.games.rubbish.agents import sample_worlds
from workbench.games.rubbish.compiled import Positions
from workbench.games.rubbish.positions import (
    decisions_left,
    empty_positions,
    empty_recording,
    play_new_games,
    play_positions,
    positions_of_observation,
    positions_of_states,
    repeat_positions,
    tables_for,
)
from workbench.games.rubbish.simulate import (
    FAST_ENGINE,
    PlayedBatch,
    batch_games_frame,
    batch_rounds_frame,
    recorded,
    replay_recorded_game,
    replay_rounds,
)
from workbench.kit.policies import CompiledPolicy, policy_table
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


def new_positions(rules: Rules, games: int, rng: np.random.Generator) -> Positions:
    """New games dealt with numpy as the numpy engine dealt them (what ``compiled.deal_new``
    reproduces from the same draws): geeks argsorted, the starting auctioneer per the rules."""
    positions = empty_positions(rules, games)
    draws = rng.random((games, len(rules.geeks)))
    positions.geek[:] = np.argsort(draws, axis=1)[:, : rules.players]
    if rules.starting_auctioneer == "random":
        positions.auctioneer[:] = rng.integers(rules.players, size=games)
    else:
        positions.auctioneer[:] = rules.starting_auctioneer
    return positions


def frames_of(batch: PlayedBatch, labels: list[str]) -> tuple:
    """The games and rounds frames of a recorded batch."""
    return batch_games_frame(batch, labels, 0), batch_rounds_frame(batch.recording, labels, 0)


def run_fast(rules: Rules, agents, games: int, seed: int) -> tuple[PlayedBatch, np.ndarray]:
    """A recorded fast batch and the uniforms its decisions read (drawn as the compiled
    loop draws them)."""
    batch = FAST_ENGINE.play_lineup(rules, agents, games, generator(seed), 0, {"rounds": True})
    rng = generator(seed)
    new_positions(rules, games, rng)
    uniforms = rng.random((rules.rounds * (rules.players + 1), games))
    return batch, uniforms


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_fast_games_replay_identically_through_the_engine(variant, mix):
    rules = VARIANTS[variant]
    agents = AGENT_MIXES[mix][: rules.players]
    labels = [a.name for a in agents]
    batch, _ = run_fast(rules, agents, games=150, seed=7)
    states = [replay_recorded_game(rules, batch, g) for g in range(150)]
    step = recorded(rules, states)
    for name, got, want in zip(batch.recording._fields, step.recording, batch.recording,
                               strict=True):  # fmt: skip
        np.testing.assert_array_equal(got, want, err_msg=name)
    for fast_frame, step_frame in zip(frames_of(batch, labels), frames_of(step, labels),
                                      strict=True):  # fmt: skip
        assert fast_frame.schema == step_frame.schema and fast_frame.equals(step_frame)


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_new_games_in_one_call_are_the_positions_played_step_by_step(variant, mix):
    """play_new_games (dealt by compiled.deal_new) gives what dealing with new_positions,
    playing with play_positions and scoring with standings give, from the same generator; the
    generator ends in the same state."""
    rules = VARIANTS[variant]
    agents = AGENT_MIXES[mix][: rules.players]
    rng, reference_rng = generator(11), generator(11)
    recording = empty_recording(300, rules.rounds, rules.players)
    positions, standings, starting = play_new_games(rules, agents, 300, rng, recording)
    expected = new_positions(rules, 300, reference_rng)
    expected_start = expected.auctioneer.copy()
    uniforms = reference_rng.random((rules.rounds * (rules.players + 1), 300))
    expected_recording = empty_recording(300, rules.rounds, rules.players)
    play_positions(rules, expected, agents, uniforms, expected_recording)
    for name, got, want in zip(expected._fields, positions, expected, strict=True):
        np.testing.assert_array_equal(got, want, err_msg=name)
        assert got.dtype == want.dtype, name
    for got, want in zip(standings, compiled.standings(tables_for(rules), expected), strict=True):
        np.testing.assert_array_equal(got, want)
    for got, want in zip(recording, expected_recording, strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(starting, expected_start)
    assert rng.random() == reference_rng.random()


def test_new_games_deal_equal_geek_draws_in_seat_order():
    """Equal draws (a tie numpy's argsort may order either way) deal in geek order, as a
    stable argsort does; distinct draws deal from the smallest."""
    rules = Rules()
    draws = np.array([
        [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
        [0.9, 0.1, 0.3, 0.1, 0.7, 0.0, 0.3],
        [0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0],
    ])  # fmt: skip
    positions = empty_positions(rules, len(draws))
    compiled.deal_new(draws, np.zeros(len(draws), np.int8), positions)
    np.testing.assert_array_equal(positions.geek, [[0, 1, 2, 3], [5, 1, 3, 2], [6, 5, 4, 3]])
    np.testing.assert_array_equal(positions.geek, np.argsort(draws, 1, kind="stable")[:, :4])


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_step_agents_choose_what_the_fast_agents_chose(variant, mix):
    """Replaying fast games, each seat's agent called step by step with the uniform its fast
    decision read picks the recorded action; the heuristic's recorded auctions are ones its
    exact action distribution allows."""
    rules = VARIANTS[variant]
    n = rules.players
    agents = AGENT_MIXES[mix][:n]
    batch, uniforms = run_fast(rules, agents, games=40, seed=3)
    for game in range(40):
        state = new_game(
            rules,
            seed=0,
            geeks=tuple(int(g) for g in batch.positions.geek[game]),
            starting_auctioneer=int(batch.starting_auctioneer[game]),
        )
        for decision in range(rules.rounds * (n + 1)):
            seat = state.to_play
            observation = state.observation(seat)
            legal = state.legal_actions()
            chosen = agents[seat].choose(observation, uniforms[decision, game])
            assert chosen == agents[seat](
                observation, legal, _FixedUniform(uniforms[decision, game])
            )
            if isinstance(agents[seat], HeuristicAgent):
                assert agents[seat].action_probabilities(observation, legal)[chosen] > 0
            state = state.apply(chosen)
        assert state.history == replay_recorded_game(rules, batch, game).history


def test_random_agent_step_call_matches_its_compiled_choice():
    agent = RandomAgent()
    state = new_game(Rules(), seed=4)
    for _ in range(12):
        observation = state.observation(state.to_play)
        legal = state.legal_actions()
        for u in (0.0, 0.31, 0.77, 0.999):
            assert agent(observation, legal, _FixedUniform(u)) == agent.choose(observation, u)
        state = state.apply(agent(observation, legal, generator(1)))


class _FixedUniform:
    def __init__(self, u: float) -> None:
        self.u = u

    def random(self) -> float:
        return self.u


@pytest.mark.parametrize("variant", ["default", "two players", "odd money"])
def test_sampled_worlds_keep_what_the_player_knows(variant):
    """Every sampled world agrees with the observation on the public record and the player's
    own geek, deals the others distinct geeks, and gives earlier bidders bids of the card
    counts they showed."""
    rules = VARIANTS[variant]
    state = new_game(rules, seed=8)
    agent = HeuristicAgent()
    rng = generator(8)
    public = ("fame", "lock", "remaining", "auctioneer", "cheapskates", "items_won", "item",
              "first", "position", "held", "rounds_done")  # fmt: skip
    tables = tables_for(rules)
    while not state.is_over:
        seat = state.to_play
        observation = state.observation(seat)
        known = positions_of_observation(observation)
        worlds = sample_worlds(observation, 3, rng)
        for name in public:
            assert np.array_equal(getattr(worlds, name), np.repeat(getattr(known, name), 3, 0))
        assert (worlds.geek[:, seat] == observation.geek).all()
        assert all(len(set(row)) == rules.players for row in worlds.geek.tolist())
        for earlier in (
            observation.order[: int(known.position[0])] if state.item is not None else ()
        ):
            counts = tables.counts[worlds.lock[:, earlier], worlds.bid_index[:, earlier]]
            assert (counts == observation.held_out[earlier]).all()
        state = state.apply(agent(observation, state.legal_actions(), rng))


def test_frames_have_the_common_columns_first():
    rules = Rules()
    batch, _ = run_fast(rules, [RandomAgent()] * 4, games=3, seed=1)
    games, rounds = frames_of(batch, ["random"] * 4)
    assert games.columns[:3] == ["game", "seat", "agent"] and games.height == 3 * 4
    assert rounds.columns[:4] == ["game", "round", "seat", "agent"]
    assert rounds.height == 3 * 7 * 4


def test_the_compiled_loop_plays_compiled_agents_only():
    with pytest.raises(TypeError, match=r"play step by step only: \['sampling'\]"):
        policy_table([RandomAgent(), SamplingAgent()])
    assert HeuristicAgent(max_wanted_bid=9).compiled_policy() == CompiledPolicy(
        policies.HEURISTIC, (9.0, 0.5, 0.7, 0.9)
    )
    table = policy_table([RandomAgent(), HeuristicAgent(max_wanted_bid=9), RandomAgent()])
    assert table.kinds.tolist() == [policies.RANDOM, policies.HEURISTIC]
    assert table.parameters.tolist() == [[0, 0, 0, 0], [9, 0.5, 0.7, 0.9]]
    assert table.assignment(2).tolist() == [[0, 1, 0]] * 2
    assert HeuristicAgent.PARAMETERS == (
        "max_wanted_bid", "gain_share", "cheapskate_share", "last_round_share"
    )  # fmt: skip


# -- play_from: continuations of step positions ------------------------------------------------


def step_positions(rules: Rules, count: int, seed: int) -> list:
    """Positions reached by seeded step games of random agents, stopped at random points
    (auction phases and every bidding position among them)."""
    rng = generator(seed)
    agent = RandomAgent()
    states = []
    for g in range(count):
        state = new_game(rules, seed=seed * 1000 + g)
        for _ in range(int(rng.integers(0, rules.rounds * (rules.players + 1)))):
            state = state.apply(agent(state.observation(state.to_play), state.legal_actions(), rng))
        states.append(state)
    return states


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", ["default", "two players", "five players, random start",
                                     "odd money"])  # fmt: skip
def test_playouts_continue_positions_as_the_step_engine_does(variant, mix):
    """Each playout's recorded continuation replays legally through ``State.apply`` from its
    position to the scores ``play_from`` returned (for the same seed)."""
    rules = VARIANTS[variant]
    agents = AGENT_MIXES[mix][: rules.players]
    states = step_positions(rules, 30, seed=5)
    playouts = 3
    scores = play_from(states, agents, playouts=playouts, seed=12)
    assert scores.shape == (30, playouts, rules.players) and scores.dtype == np.float64
    positions = repeat_positions(positions_of_states(states), playouts)
    recording = empty_recording(30 * playouts, rules.rounds, rules.players)
    uniforms = generator(12).random((decisions_left(rules, positions), 30 * playouts))
    play_positions(rules, positions, agents, uniforms, recording)
    for row in range(30 * playouts):
        finished = replay_rounds(states[row // playouts], recording, row)
        assert finished.result().scores == tuple(scores[row // playouts, row % playouts])


def test_playouts_of_heuristics_match_the_step_engine_played_by_the_same_agents():
    """From every position, heuristic seats continuing in the step engine with the uniforms
    ``play_from`` used reach the same final scores."""
    rules = Rules()
    agents = [HeuristicAgent(), HeuristicAgent(gain_share=0.3), RandomAgent(), HeuristicAgent()]
    states = step_positions(rules, 40, seed=9)
    scores = play_from(states, agents, playouts=1, seed=4)
    positions = positions_of_states(states)
    uniforms = generator(4).random((decisions_left(rules, positions), 40))
    for g, state in enumerate(states):
        decision = 0
        while not state.is_over:
            seat = state.to_play
            state = state.apply(agents[seat].choose(state.observation(seat), uniforms[decision, g]))
            decision += 1
        assert state.result().scores == tuple(scores[g, 0])


def test_play_from_is_seeded_and_takes_one_state():
    state = step_positions(Rules(), 1, seed=2)[0]
    agents = [RandomAgent()] * 4
    one = play_from(state, agents, playouts=50, seed=1)
    assert one.shape == (1, 50, 4)
    assert np.array_equal(one, play_from([state], agents, playouts=50, seed=1))
    assert not np.array_equal(one, play_from(state, agents, playouts=50, seed=2))
    over = new_game(Rules(), seed=0)
    while not over.is_over:
        over = over.apply(over.legal_actions()[0])
    assert play_from(over, agents, playouts=2, seed=0).tolist() == [
        [list(map(float, over.result().scores))] * 2
    ]


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        (dict(states=[]), TypeError, r"states must be a rubbish State or a non-empty sequence"),
        (dict(states=["x"]), TypeError, r"states must be a rubbish State"),
        (dict(playouts=0), ValueError, r"playouts must be a positive whole number"),
        (dict(agents=[RandomAgent()] * 3), ValueError, r"one agent per seat \(4\), got 3"),
        (dict(agents=[SamplingAgent()] * 4), TypeError, r"play step by step only"),
    ],
)
def test_play_from_rejects_bad_input(arguments, error, message):
    call = dict(states=new_game(Rules(), seed=0), agents=[RandomAgent()] * 4, playouts=2, seed=0)
    with pytest.raises(error, match=message):
        play_from(**{**call, **arguments})


def test_play_from_seats_one_agent_everywhere_and_refuses_none():
    state = new_game(Rules(), seed=0)
    agents = [RandomAgent()] * 4
    one = play_from(state, RandomAgent(), playouts=3, seed=1)  # was: has no len()
    assert np.array_equal(one, play_from(state, agents, playouts=3, seed=1))
    with pytest.raises(TypeError, match="agents must be agent objects here, got None"):
        play_from(state, None, playouts=3, seed=1)


def test_heuristic_picks_its_wanted_item_and_names_itself():
    """A hand-checked decision: geek 0 wants items 0 and 1 (the shipped table); as auctioneer
    in a new game, the heuristic puts up item 0 and names itself First Bidder."""
    rules = Rules()
    state = new_game(rules, seed=0, geeks=(0, 2, 3, 4), starting_auctioneer=0)
    assert set(rules.destined_to(0)) == {0, 1}
    assert HeuristicAgent().choose(state.observation(0), 0.5) == Auction(0, 0)
