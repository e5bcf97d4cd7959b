"""The ``search`` agent: its candidates are legal actions led by the fitted policy's choice,
its games are legal (``State.apply`` refuses anything else) and reproducible by seed."""

from __future__ import annotations

from workbench.games.going_gone import DoneSelling, Rules, make_agent, new_game, simulate
from workbench.games.going_gone.search import GoingGoneSearchAgent, candidates
from workbench.kit.seeding import generator


def test_candidates_are_legal_and_lead_with_the_fitted_choice():
    rules = Rules()  # the shipped fit: nothing is fitted here
    fitted = make_agent("fitted")
    rng = generator(3)
    seen = {"bid": 0, "sell": 0}
    for game in range(3):
        state = new_game(rules, seed=game)
        while not state.is_over:
            seat = state.to_play
            observation, legal = state.observation(seat), state.legal_actions()
            options = candidates(observation, legal)
            assert options and all(option in legal for option in options)
            assert len(set(options)) == len(options)
            if state.phase == "sell":
                assert DoneSelling() in options and len(options) <= 2
            else:
                assert (0,) * rules.cups in [o.bids for o in options] and len(options) <= 4
            seen[state.phase] += 1
            state = state.apply(fitted(observation, legal, rng))
    assert seen["bid"] > 40 and seen["sell"] > 5


def test_search_games_are_legal_and_reproducible():
    lineup = ["fitted", GoingGoneSearchAgent(budget=4), "fitted", "fitted"]
    first = simulate(Rules(), lineup, games=2, seed=8, progress=False)[0]
    again = simulate(Rules(), lineup, games=2, seed=8, progress=False)[0]
    assert first.equals(again)
    assert first["agent"].to_list()[:4] == ["fitted", "search", "fitted", "fitted"]


def test_search_is_made_by_name_with_a_budget():
    agent = make_agent("search", budget=7)
    assert isinstance(agent, GoingGoneSearchAgent) and agent.budget == 7
    assert repr(agent) == "GoingGoneSearchAgent(budget=7)"
