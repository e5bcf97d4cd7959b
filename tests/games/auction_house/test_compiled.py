"""The compiled engine is a second implementation of the rules: every recorded game must
replay through ``State.apply`` to the same frames, and the compiled agents' step-by-step calls
must choose what they chose in the compiled loop."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.errors import IllegalAction
from workbench.games.auction_house import (
    HeuristicAgent,
    RandomAgent,
    Rules,
    compiled,
    layout,
    new_game,
    simulate,
)
from workbench.games.auction_house.agents import CompiledAgent, sample_worlds
from workbench.games.auction_house.cards import card_index
from workbench.games.auction_house.policies import WIDTH, choose, lineup_table
from workbench.games.auction_house.positions import observation_row, play_new_games
from workbench.games.auction_house.simulate import (
    batch_deal,
    deals_frame,
    games_frame,
    recorded,
    recorded_actions,
    replay_recorded_game,
    rounds_frame,
)
from workbench.kit.seeding import generator

VARIANTS = {
    "rulebook": Rules(),
    "house rule: trump before the auction": Rules(trump_reveal="before_auction"),
    "three deals, seat 2 deals first": Rules(deals=3, first_dealer=2),
}
AGENT_MIXES = {
    "random": [RandomAgent()] * 4,
    "heuristic": [HeuristicAgent()] * 4,
    "mixed": [
        HeuristicAgent(),
        RandomAgent(),
        HeuristicAgent(give_rank=2, trade_rank=11),
        RandomAgent(),
    ],
}


def run_batch(rules: Rules, agents, games: int, seed: int):
    return play_new_games(rules, agents, games, generator(seed))


@pytest.mark.parametrize("mix", list(AGENT_MIXES))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_fast_games_replay_identically_through_the_engine(variant, mix):
    rules = VARIANTS[variant]
    agents = AGENT_MIXES[mix]
    labels = [a.name for a in agents]
    batch, recording = run_batch(rules, agents, games=40, seed=7)
    states = [replay_recorded_game(rules, batch, recording, g) for g in range(batch.games)]
    assert all(state.is_over for state in states)
    replayed, again = recorded(rules, states)
    for field in ("first_dealer", "trump_cards", "shuffles", "scores"):
        assert (getattr(replayed, field) == getattr(batch, field)).all(), field
    assert (again.block == recording.block).all()
    assert games_frame(batch, recording, labels, 0).equals(games_frame(replayed, again, labels, 0))
    assert rounds_frame(recording, labels, 0).equals(rounds_frame(again, labels, 0))
    assert deals_frame(recording, 0).equals(deals_frame(again, 0))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_step_agents_choose_what_the_batch_agents_chose(variant):
    """Replaying fast heuristic games, the step-by-step heuristic picks every recorded action."""
    rules = VARIANTS[variant]
    agent = HeuristicAgent()
    batch, recording = run_batch(rules, [agent] * 4, games=12, seed=3)
    for game in range(batch.games):
        state = new_game(rules, seed=0, deal=batch_deal(batch, game))
        for action in recorded_actions(rules, recording, game):
            seat = state.to_play
            chosen = agent(state.observation(seat), state.legal_actions(), generator(0))
            assert chosen == action, (game, state.deal, state.phase)
            assert agent.act_on_view(seat, state.view(seat), generator(0)) == action
            state = state.apply(action)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_states_view_is_the_row_every_seats_observation_gives(variant):
    # State.view builds the row from the State's integers, observation_row from the notation
    # of the Observation: the same row for every seat at every decision of mixed games.
    rules, agents = VARIANTS[variant], AGENT_MIXES["mixed"]
    for seed in range(4):
        state, rng = new_game(rules, seed=seed), generator(seed)
        while not state.is_over:
            for seat in range(4):
                view, row = state.view(seat), observation_row(state.observation(seat))
                assert view.dtype == row.dtype and view.tolist() == row.tolist(), (seat, state)
            seat = state.to_play
            state = state.apply(agents[seat](state.observation(seat), state.legal_actions(), rng))


def test_only_agents_deciding_as_compiled_agents_do_decide_from_the_view():
    # The step engine's loop calls act_on_view when an agent has one; a subclass with its own
    # __call__ (the random agent picks from the legal actions) must not inherit it.
    assert RandomAgent.act_on_view is None
    assert HeuristicAgent.act_on_view is CompiledAgent.act_on_view

    class Own(HeuristicAgent):
        def __call__(self, observation, legal_actions, rng):
            return legal_actions[0]

    assert Own.act_on_view is None


@pytest.mark.parametrize("lineup", [["fitted", "heuristic", "fitted", "random"], ["fitted"] * 4])
def test_step_games_are_the_same_with_or_without_the_view(lineup, monkeypatch):
    rules = Rules(deals=9)  # a shipped fit
    with_view = simulate(rules, lineup, games=3, seed=4, engine="step", progress=False)
    monkeypatch.setattr(CompiledAgent, "act_on_view", None)  # every seat through observations
    without = simulate(rules, lineup, games=3, seed=4, engine="step", progress=False)
    for frame, same in zip(with_view, without, strict=True):
        assert frame.equals(same)


class _FixedUniform:
    def __init__(self, u: float) -> None:
        self.u = u

    def random(self) -> float:
        return self.u


def test_random_agent_step_call_matches_its_batch_formula():
    """The step call picks legal[floor(u * n)]; the compiled formulas pick the same action."""
    agent = RandomAgent()
    for rules in (Rules(), Rules(trump_reveal="before_auction")):
        state = new_game(rules, seed=4)
        rng = generator(4)
        while not state.is_over:
            observation = state.observation(state.to_play)
            legal = state.legal_actions()
            for u in (0.0, 0.31, 0.77, 0.999):
                step = agent(observation, legal, _FixedUniform(u))
                compiled_choice = super(RandomAgent, agent).__call__(
                    observation, legal, _FixedUniform(u)
                )
                assert step == compiled_choice
            state = state.apply(agent(observation, legal, rng))


def test_sampled_worlds_stand_where_the_observer_stands_and_agree_with_what_it_saw():
    """Along a game, every world sampled from an observation shows the observer what it knows
    (its row's public columns and its own cards are the observation's), and is a consistent
    deal: 40 distinct cards, hand sizes, the seen cards, known holdings, and no card of a suit
    a seat has shown void in (except its kitty card)."""
    rules = Rules()
    agent = HeuristicAgent()
    rng = generator(8)
    state = new_game(rules, seed=8)
    hidden = [layout.HANDS + s for s in range(4)] + [layout.KITTY_CARDS + s for s in range(4)]
    hidden += [layout.OFFERS + s for s in range(4)]
    checked = 0
    while not state.is_over and state.deal <= 3:
        seat = state.to_play
        observation = state.observation(seat)
        single = observation_row(observation)
        worlds = sample_worlds(observation, 4, rng)
        public = [i for i in range(layout.ROW) if i not in hidden]
        assert (worlds.rows[:, public] == single[public]).all()
        assert (worlds.rows[:, layout.HANDS + seat] == single[layout.HANDS + seat]).all()
        voids = observation.voids()
        known = observation.known_holdings()
        for w in range(4):
            row = worlds.rows[w]
            assert compiled.actor_of(row) == seat
            cards = []
            for s in range(4):
                hand = [c for c in range(40) if int(row[layout.HANDS + s]) >> c & 1]
                assert len(hand) == len(state.hand(s)), (s, observation.phase)
                assert not any("CDHS"[c // 10] in voids[s] for c in hand)
                kitty = int(row[layout.KITTY_CARDS + s])
                held = {*hand, kitty} - {-1}
                assert all(card_index(card) in held for card in known[s])
                cards += hand + ([kitty] if kitty >= 0 else [])
            played = len(observation.played)
            assert len(cards) + played == 40 and len(set(cards)) == len(cards)
        checked += 1
        state = state.apply(agent(observation, state.legal_actions(), rng))
    assert checked > 100


def test_an_illegal_choice_is_refused_naming_the_agent_game_and_seat():
    """The loop checks every choice before applying it: a policy kind it does not know passes
    the auction and answers card -1 after it, which is refused, naming the agent, the game,
    the deal and the seat."""

    class Unknown(CompiledAgent):
        name = "unknown"
        kind = 7

    message = (
        r"agent 'unknown' \(policy unknown kind 7\) chose an illegal kitty choice in game 0 "
        r"\(deal 1, seat \d\)"
    )
    with pytest.raises(IllegalAction, match=message):
        play_new_games(Rules(), [Unknown()] * 4, 5, generator(2))
    row = np.full(layout.ROW, -1)
    assert choose(7, np.zeros((1, WIDTH)), 0, 3, 0, 1, 1, -1, -1, -1, row, 0, 0.5)[1] == -1


def test_each_game_plays_the_policies_its_assignment_row_names():
    """Seat s of game g plays table row ``assignment[g, s]``: a batch whose line-up differs
    from game to game ends as each game played alone with its own line-up does."""
    rules, games = Rules(deals=3), 8
    agents = [HeuristicAgent(), RandomAgent(), HeuristicAgent(give_rank=2, trade_rank=11)]
    table = lineup_table(agents)
    rng = generator(12)
    assignment = rng.integers(len(agents), size=(games, 4))
    trump_cards = np.array([rng.permutation(12) for _ in range(games)], np.int8)
    shuffles = np.array([[rng.permutation(40) for _ in range(13)] for _ in range(games)], np.int8)
    u = rng.random((rules.deals, games, layout.SLOTS))
    rows = np.zeros((games, layout.ROW), np.int64)
    rows[:, layout.DEALER] = rng.integers(4, size=games)
    alone = rows.copy()
    unused = np.zeros((1, 1, layout.RECORD), np.int16)
    error = compiled.play_rows(rows, trump_cards, shuffles, u, 1, table.kinds, table.parameters,
                               assignment, rules.deals, False, False, unused, False)
    assert (error == -1).all()
    for g in range(games):
        own = lineup_table([agents[k] for k in assignment[g]])
        compiled.play_rows(alone[g : g + 1], trump_cards[g : g + 1], shuffles[g : g + 1],
                           u[:, g : g + 1], 1, own.kinds, own.parameters, own.assignment(1),
                           rules.deals, False, False, unused, False)
    assert (rows == alone).all()
    assert len({tuple(row) for row in assignment.tolist()}) > 1
