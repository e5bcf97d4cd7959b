"""``play_from`` against the step engine on many positions reached by seeded step-engine games,
and the compiled PCG64 shuffles against numpy's own."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.auction_house import (
    DeterminizationAgent,
    HeuristicAgent,
    RandomAgent,
    Rules,
    new_game,
    play_from,
)
from workbench.games.auction_house.cards import TRUMP_DECK
from workbench.games.auction_house.chance import Deal
from workbench.games.auction_house.positions import playout_details
from workbench.games.auction_house.simulate import recorded_actions
from workbench.kit.seeding import generator
from workbench.kit.streams import shuffle_rows

VARIANTS = {
    "three deals": Rules(deals=3),
    "three deals, trump before the auction": Rules(deals=3, trump_reveal="before_auction"),
}


def positions(rules: Rules, games: int, every: int, seed: int) -> list:
    """Every ``every``-th position of ``games`` seeded step-engine games of random agents."""
    agent = RandomAgent()
    found = []
    for game in range(games):
        rng = generator(seed, game)
        state = new_game(rules, seed=seed * 1000 + game)
        step = 0
        while not state.is_over:
            if step % every == 0:
                found.append(state)
            state = state.apply(agent(state.observation(state.to_play), state.legal_actions(), rng))
            step += 1
    return found


def continue_in_step_engine(state, agents, rng):
    while not state.is_over:
        seat = state.to_play
        state = state.apply(agents[seat](state.observation(seat), state.legal_actions(), rng))
    return state


def actions_taken_this_deal(state) -> int:
    """How many actions of the deal in progress the state has seen."""
    took = state.taken is not None and not state.forced
    plays = 4 * len(state.tricks) + len(state.trick)
    return state.asked + state.n_offers + int(took) + state.n_kitty + plays


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_heuristic_playouts_keeping_the_states_chance_end_as_the_step_engine_does(variant):
    """Deterministic agents and the state's own chance: every playout is the step engine's
    continuation, score for score."""
    rules = VARIANTS[variant]
    states = positions(rules, games=4, every=5, seed=21)
    assert len(states) > 100
    agents = [HeuristicAgent(), HeuristicAgent(give_rank=2, trade_rank=11)] * 2
    scores = play_from(states, agents, playouts=2, seed=1, future="state")
    assert scores.shape == (len(states), 2, 4) and scores.dtype == np.float64
    for state, got in zip(states, scores, strict=True):
        expected = continue_in_step_engine(state, agents, generator(0)).scores
        assert (got == expected).all(), (state.deal, state.phase)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_playouts_with_drawn_futures_replay_through_the_step_engine(variant):
    """Each random playout, with its freshly drawn later deals and trump cards, replays action
    by action through ``State.apply`` (so every action was legal) to the same final scores;
    the cards already seen stay as they were."""
    rules = VARIANTS[variant]
    states = positions(rules, games=3, every=7, seed=5)
    playouts = 3
    agents = [RandomAgent(), HeuristicAgent(), RandomAgent(), RandomAgent()]
    scores, (trump_cards, shuffles), recording = playout_details(
        states, agents, playouts=playouts, seed=9, future="draw"
    )
    for index, state in enumerate(states):
        seen = state.revealed_trumps
        for playout in range(playouts):
            row = index * playouts + playout
            drawn = tuple(TRUMP_DECK[int(i)] for i in trump_cards[row])
            assert drawn[: len(seen)] == seen
            shuffles_drawn = tuple(tuple(int(c) for c in s) for s in shuffles[row])
            if state.deal < rules.deals:
                assert shuffles_drawn[state.deal - 1] == state.chance.shuffles[state.deal - 1]
            chance = Deal(state.chance.first_dealer, drawn, shuffles_drawn)
            replay = state._evolve(chance=chance)
            actions = list(recorded_actions(rules, recording, row, first_deal=state.deal))
            for action in actions[actions_taken_this_deal(state) :]:
                replay = replay.apply(action)
            assert replay.is_over and replay.scores == tuple(scores[index, playout])


def test_playouts_are_seeded_and_vary_with_the_seed():
    states = positions(Rules(), games=1, every=97, seed=3)
    agents = [RandomAgent()] * 4
    first = play_from(states, agents, playouts=8, seed=4)
    assert (first == play_from(states, agents, playouts=8, seed=4)).all()
    assert (first != play_from(states, agents, playouts=8, seed=5)).any()
    one = play_from(states[2], agents, playouts=8, seed=4)
    assert one.shape == (1, 8, 4)
    # Drawn futures: heuristic playouts of one early position differ between playouts.
    spread = play_from(states[0], [HeuristicAgent()] * 4, playouts=16, seed=1)
    assert len({tuple(s) for s in spread[0]}) > 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(playouts=0), "playouts must be a positive whole number"),
        (dict(playouts=2, future="later"), "future must be one of"),
        (dict(playouts=2, agents=[DeterminizationAgent()] * 4), "compiled-policy agent"),
        (dict(playouts=2, agents=[RandomAgent()] * 3), "one compiled-policy agent"),
    ],
)
def test_play_from_bad_arguments(kwargs, message):
    state = new_game(Rules(), seed=1)
    arguments = {"agents": [RandomAgent()] * 4, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        play_from(state, **arguments)
    with pytest.raises(TypeError, match="states must be"):
        play_from([], [RandomAgent()] * 4, playouts=1, seed=1)


def test_play_from_seats_one_agent_everywhere_and_refuses_none():
    state = new_game(Rules(deals=2), seed=1)
    one = play_from(state, RandomAgent(), playouts=3, seed=1)  # was: not iterable
    assert np.array_equal(one, play_from(state, [RandomAgent()] * 4, playouts=3, seed=1))
    with pytest.raises(TypeError, match="agents must be agent objects here, got None"):
        play_from(state, None, playouts=3, seed=1)


def test_a_finished_game_plays_out_to_its_final_scores():
    """As in every game: a finished state's playouts are its final scores, beside live ones."""
    rules = Rules(deals=2)
    finished = continue_in_step_engine(new_game(rules, seed=2), [RandomAgent()] * 4,
                                       generator(2))  # fmt: skip
    live = new_game(rules, seed=3)
    both = play_from([finished, live], RandomAgent(), playouts=3, seed=1)
    assert (both[0] == np.array(finished.scores, float)).all()
    assert np.array_equal(both[1:], play_from(live, RandomAgent(), playouts=3, seed=1))
    with pytest.raises(ValueError, match="one compiled-policy agent"):
        play_from(finished, [RandomAgent()] * 3, playouts=1, seed=1)


def test_compiled_shuffles_draw_what_numpy_permuted_draws():
    """Rows of every width the engine uses, then the generator's next numbers: identical."""
    for seed in range(3):
        ours, theirs = generator(seed, 1), generator(seed, 1)
        assert ours.integers(4, size=5).tolist() == theirs.integers(4, size=5).tolist()
        for width, rows in ((12, 50), (40, 300), (3, 7)):
            mine = np.empty((rows, width), np.int8)
            shuffle_rows(ours, mine)
            tiled = np.tile(np.arange(width, dtype=np.int8), (rows, 1))
            numpy_rows = theirs.permuted(tiled, axis=1)
            assert (mine == numpy_rows).all()
        assert (ours.random(9) == theirs.random(9)).all()
        assert (ours.integers(7, size=9) == theirs.integers(7, size=9)).all()


