"""The Auction House ``fitted`` agent: its extended policy at the heuristic's values is the
heuristic, it plays legally and identically in both engines, seeded games and fits (both
stages) reproduce, fits follow the rules, the rulebook's fit ships with its card scorer, and it
beats the heuristic."""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import pytest

from workbench.games.auction_house import (
    AGENTS,
    FittedPolicy,
    HeuristicAgent,
    RandomAgent,
    Rules,
    fit,
    layout,
    make_agent,
    new_game,
    simulate,
)
from workbench.games.auction_house import fitted as fitted_module
from workbench.games.auction_house.cards import DECK, TRUMP_DECK
from workbench.games.auction_house.imitation import imitate
from workbench.games.auction_house.policies import (
    CARD_TEMPERATURE,
    CARD_WEIGHTS,
    CONSTANT_DEFAULTS,
    CONSTANTS,
    FITTED_DEFAULTS,
    FITTED_PARAMETERS,
    NO_AUCTION,
    PARAMETERS,
    TEMPERATURE,
    lineup_table,
    passing,
)
from workbench.games.auction_house.positions import (
    PlayedBatch,
    final_scores,
    play_new_games,
    play_positions,
)
from workbench.games.auction_house.rules import MAX_DEALS
from workbench.games.auction_house.simulate import (
    SELF_PLAY,
    batch_deal,
    games_frame,
    recorded,
    recorded_actions,
    replay_recorded_game,
)
from workbench.kit import fitting as fitting_module
from workbench.kit.fitting import fit_policy
from workbench.kit.seeding import generator
from workbench.kit.streams import shuffle_rows


def _fitted_policy():
    return make_agent("fitted").policy_for(Rules())


def test_the_registry_lists_the_agents_weakest_first_as_measured():
    assert list(AGENTS) == ["random", "heuristic", "fitted", "search", "determinization"]


def test_the_rulebook_fit_ships_and_is_read_without_fitting(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the rulebook's fit should be read, not fitted")

    monkeypatch.setattr(fitting_module, "fit_policy", refuse)
    found = fit(Rules(), progress=False)
    fitting = fitted_module.FITTING
    assert found.version == fitting.cache_version
    assert fitting.names == CONSTANTS and fitting.policy_names == FITTED_PARAMETERS
    assert sorted(found.params) == sorted(FITTED_PARAMETERS)
    for parameter in fitting.parameters:
        assert parameter.low <= found.params[parameter.name] <= parameter.high
    assert found.details["games"] > 100_000
    rounds = found.details["refine"]["rounds"]
    assert len(rounds) == 3 and rounds[-1]["total"] > 50_000  # labelled card plays
    assert any(found.params[name] != 0 for name in CARD_WEIGHTS)  # it plays by the scorer
    assert _fitted_policy().params == tuple(found.vector(FITTED_PARAMETERS))


def test_the_extended_policy_at_the_heuristics_values_is_the_heuristic():
    rules = Rules()
    start = FittedPolicy(FITTED_DEFAULTS)
    mine = play_new_games(rules, [start] * 4, 300, generator(5))[0].scores
    theirs = play_new_games(rules, [HeuristicAgent()] * 4, 300, generator(5))[0].scores
    assert (mine == theirs).all()
    assert tuple(p.start for p in fitted_module.FITTING.parameters) == CONSTANT_DEFAULTS
    assert all(p.start == 0 for p in fitted_module.FITTING.refined)  # card weights off


@pytest.mark.parametrize("rules", [Rules(), Rules(deals=4, trump_reveal="before_auction")])
def test_fast_fitted_games_replay_identically_through_the_step_engine(rules):
    policy = _fitted_policy()
    agents = [policy, HeuristicAgent(), policy, RandomAgent()]
    labels = [a.name for a in agents]
    batch, recording = play_new_games(rules, agents, 20, generator(3))
    states = [replay_recorded_game(rules, batch, recording, g) for g in range(batch.games)]
    replayed = games_frame(*recorded(rules, states), labels, 0)
    assert games_frame(batch, recording, labels, 0).equals(replayed)


#: Each phase's first uniform slot of a deal, as ``layout``'s docstring describes them (4
#: start-or-pass, 3 offers, 1 take, 4 kitty cards, 36 plays), not read from its constants.
SLOT_OF_PHASE = {"auction": 0, "offer": 4, "take": 7, "kitty": 8, "play": 12}


@pytest.mark.parametrize("temperature", [0.0, 0.2])
def test_the_step_call_chooses_legal_actions_and_what_the_compiled_engine_played(temperature):
    """Replaying fast fitted games, the step-by-step call given the uniform of each decision's
    slot picks every recorded action (each among the legal ones); at a temperature above 0 the
    card play is drawn, so some other uniforms choose other cards (at 0 none does)."""
    rules = Rules(deals=3)
    policy, games = FittedPolicy(_fitted_policy().params, temperature=temperature), 6
    rng = generator(8)
    trump_cards = np.empty((games, len(TRUMP_DECK)), np.int8)
    shuffles = np.empty((games, MAX_DEALS, len(DECK)), np.int8)
    shuffle_rows(rng, trump_cards)
    shuffle_rows(rng, shuffles.reshape(-1, len(DECK)))
    uniforms = rng.random((rules.deals, games, layout.SLOTS))
    table = lineup_table([policy] * 4)
    recording = play_positions(rules, table, np.zeros((games, 4), np.int64),
                               np.zeros((games, layout.ROW), np.int64), trump_cards, shuffles,
                               uniforms, 1)  # fmt: skip
    batch = PlayedBatch(np.zeros(games, np.int64), trump_cards, shuffles, np.zeros((games, 4)))
    other_cards = 0
    for game in range(games):
        state = new_game(rules, seed=0, deal=batch_deal(batch, game))
        for action in recorded_actions(rules, recording, game):
            seat, legal, view = state.to_play, state.legal_actions(), state.view(state.to_play)
            step = int(view[layout.STEP])
            slot = SLOT_OF_PHASE[state.phase] + (step if state.phase != "take" else 0)
            chosen = policy.decide_for(seat, view, float(uniforms[state.deal - 1, game, slot]))
            assert chosen == action and chosen in legal
            if state.phase == "play":
                other_cards += any(policy.decide_for(seat, view, u) != action
                                   for u in (0.0, 0.5, 0.999))  # fmt: skip
            state = state.apply(action)
    assert (other_cards > 0) == (temperature > 0)


def test_seeded_fitted_games_reproduce():
    first = simulate(Rules(), ["fitted", "heuristic", "random", "fitted"], games=50, seed=2,
                     progress=False)  # fmt: skip
    again = simulate(Rules(), ["fitted", "heuristic", "random", "fitted"], games=50, seed=2,
                     progress=False)  # fmt: skip
    assert first[0].equals(again[0]) and first[1].equals(again[1])


def test_fits_to_far_apart_rules_differ_and_reproduce(tmp_path):
    cheap = dataclasses.replace(
        fitted_module.FITTING, games=8, generations=3, population=4,
        refine=functools.partial(imitate, rounds=2, deals=13),
    )  # fmt: skip
    selfplay = SELF_PLAY
    rulebook, short = Rules(), Rules(deals=2, trump_reveal="before_auction")
    params_a, details = fit_policy(selfplay, cheap, rulebook, seed=1, progress=False)
    params_b, _ = fit_policy(selfplay, cheap, short, seed=1, progress=False)
    again, _ = fit_policy(selfplay, cheap, rulebook, seed=1, progress=False)
    assert params_a == again
    assert [params_a[n] for n in CONSTANTS] != [params_b[n] for n in CONSTANTS]
    assert [params_a[n] for n in CARD_WEIGHTS] != [params_b[n] for n in CARD_WEIGHTS]
    assert details["games"] == 3 * 4 * 2 * 4 * 8  # generations x population x tables x seats
    labelling = details["refine"]
    assert labelling["games_per_round"] == 1 and len(labelling["rounds"]) == 2
    assert labelling["rounds"][1]["total"] > labelling["rounds"][0]["labels"] > 100


def test_fitted_beats_the_heuristic_one_against_three():
    rules, games = Rules(), 5000
    policy, heuristic = _fitted_policy(), HeuristicAgent()
    shares = []
    for seat in range(4):
        lineup = [heuristic] * 4
        lineup[seat] = policy
        played, _ = play_new_games(rules, lineup, games, generator(77, seat))
        shares.append(final_scores(played)[2][:, seat])
    share = np.concatenate(shares)
    low = share.mean() - 2 * share.std() / math.sqrt(len(share))
    assert low > 0.25, share.mean()


def test_bad_parameters_get_a_clear_error():
    with pytest.raises(ValueError, match="45 finite numbers"):
        FittedPolicy((1.0, 2.0))
    with pytest.raises(ValueError, match="finite"):
        FittedPolicy((*FITTED_DEFAULTS[:-1], float("nan")))
    for temperature in (-0.1, float("inf"), "warm", True):
        with pytest.raises(ValueError, match="temperature must be a"):
            FittedPolicy(FITTED_DEFAULTS, temperature=temperature)


def test_the_temperature_rides_in_the_compiled_row_and_survives_passing():
    """The fitted agent's card temperature is ``CARD_TEMPERATURE`` (0), kept in the row's
    ``TEMPERATURE`` column after ``NO_AUCTION``; another is set per policy; ``passing`` keeps
    it."""
    fitted = _fitted_policy()
    assert fitted.temperature == CARD_TEMPERATURE == 0
    policy = FittedPolicy(fitted.params, temperature=0.2)
    row = policy.compiled_policy().parameters
    assert row[:PARAMETERS] == fitted.params and row[TEMPERATURE] == 0.2
    assert row[NO_AUCTION] == 0.0
    passed = passing(policy.compiled_policy()).parameters
    assert passed[NO_AUCTION] == 1.0 and passed[TEMPERATURE] == 0.2
