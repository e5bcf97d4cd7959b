"""The Auction House ``search`` agent: its fast fillings are uniform over every consistent
filling (exact enumeration) and keep what the seat saw, its candidates merge only equal plays,
the win chance it values a deal's end by is the rulebook's share once the game is over and a
normal approximation before, its halving in one compiled call keeps and draws what the kit's
halving does, and its games are legal and reproducible."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.stats import norm

from workbench.games.auction_house import (
    FittedPolicy,
    HeuristicAgent,
    Play,
    RandomAgent,
    Rules,
    layout,
    make_agent,
    new_game,
    sampling,
    simulate,
)
from workbench.games.auction_house import search as search_module
from workbench.games.auction_house.cards import INDEX
from workbench.games.auction_house.fitted import AuctionHouseFittedAgent
from workbench.games.auction_house.hidden import consistent_fillings, filling_of, read_hidden
from workbench.games.auction_house.policies import (
    FITTED_DEFAULTS,
    FITTED_PARAMETERS,
    SCORE_FEATURES,
    lineup_table,
)
from workbench.games.auction_house.positions import observation_row, state_row
from workbench.games.auction_house.sampling import fill_rows
from workbench.games.auction_house.search import DEAL_SPREAD, AuctionHouseSearchAgent
from workbench.kit.search import uniformity_p_value
from workbench.kit.seeding import generator
from workbench.kit.streams import state_of, store

TABLE = [HeuristicAgent(), RandomAgent(), HeuristicAgent(), RandomAgent()]


def _positions(rules: Rules, seeds, keep):
    """(state, observation of the seat to play) at every decision ``keep`` accepts."""
    for seed in seeds:
        state = new_game(rules, seed=seed)
        rng = generator(500 + seed)
        while state.to_play is not None:
            observation = state.observation(state.to_play)
            if keep(state, observation):
                yield state, observation
            state = state.apply(TABLE[state.to_play](observation, state.legal_actions(), rng))


def _row_filling(row, hidden):
    """The (hands, kitty cards, hidden offers) of the other seats a filled row holds."""
    hands = tuple(int(row[layout.HANDS + s]) for s in hidden.seats)
    kitty = [int(row[layout.KITTY_CARDS + s]) for s in hidden.seats]
    offers = [int(row[layout.OFFERS + s]) for s in hidden.seats]
    return (
        hands,
        tuple(None if card < 0 else card for card in kitty),
        tuple(c if down else None for c, down in zip(offers, hidden.offer_hidden, strict=True)),
    )


def _small_late(state, observation):
    if state.phase != "play":
        return False
    hidden = read_hidden(observation)
    return len(hidden.unseen) + sum(map(len, hidden.known)) <= 10


def test_fast_fillings_are_uniform_over_every_consistent_filling():
    positions = list(_positions(Rules(deals=1), range(8), _small_late))
    with_voids = [o for _, o in positions if any(read_hidden(o).voids)]
    with_known = [o for _, o in positions if any(read_hidden(o).known)]
    assert len(positions) > 40 and len(with_voids) > 10 and len(with_known) > 5
    rng = generator(3)
    _assert_uniform(positions, lambda o, count: fill_rows(o, read_hidden(o), count, rng))


def _assert_uniform(positions, draw_rows):
    """``draw_rows(observation, count)``'s fillings are uniform over every consistent filling
    (chi-square against exact enumeration) on at least 8 of every third position."""
    tested = 0
    for state, observation in positions[::3]:
        hidden = read_hidden(observation)
        weights = Counter(f[:3] for f in consistent_fillings(observation))
        if not 2 <= len(weights) <= 120:
            continue
        assert filling_of(state, observation.player)[:3] in weights  # the truth is possible
        drawn = [_row_filling(row, hidden) for row in draw_rows(observation, 40 * len(weights))]
        assert uniformity_p_value(drawn, weights) > 0.001
        tested += 1
    assert tested >= 8


def _compiled_fill(observation, count, rng):
    """``sampling.fill``'s rows, ``rng`` advanced past its draws."""
    position = sampling.row_filling(observation, read_hidden(observation))
    rows, state = sampling.fill(position, count, state_of(rng), rng)
    store(rng, state)
    return rows


@pytest.mark.parametrize(
    ("tries", "probe"), [(sampling.REJECTION_TRIES, sampling.REJECTION_PROBE), (512, 1),
                         (1, 32), (0, 32)],
)  # fmt: skip
def test_compiled_fillings_are_uniform_over_every_consistent_filling(monkeypatch, tries, probe):
    """The search's compiled rejection (its defaults; giving up after one draw a filling when
    keeps are rare; one draw a filling, so the exact sampler makes up about half; none, so it
    makes up all) against exact enumeration."""
    monkeypatch.setattr(sampling, "REJECTION_TRIES", tries)
    monkeypatch.setattr(sampling, "REJECTION_PROBE", probe)
    positions = list(_positions(Rules(deals=1), range(8), _small_late))
    rng = generator(13)
    _assert_uniform(positions, lambda observation, count: _compiled_fill(observation, count, rng))


def test_compiled_face_down_offers_are_uniformly_random_cards_of_the_hand():
    """While offers are face down each other seat's offer is a card of its filled-in hand, its
    place among the hand's cards (lowest first) uniform: chi-square against 1 / room."""
    positions = _positions(Rules(deals=1), range(6), lambda s, o: s.phase == "offer")
    rng = generator(14)
    tested = 0
    for _state, observation in list(positions)[::2]:
        hidden = read_hidden(observation)
        if not any(hidden.offer_hidden):
            continue
        rows = _compiled_fill(observation, 2000, rng)
        for i, seat in enumerate(hidden.seats):
            if not hidden.offer_hidden[i]:
                continue
            places = []
            for row in rows:
                hand, offer = int(row[layout.HANDS + seat]), int(row[layout.OFFERS + seat])
                assert hand >> offer & 1
                places.append(bin(hand & ((1 << offer) - 1)).count("1"))
            assert uniformity_p_value(places, range(hidden.room[i])) > 0.001
            tested += 1
    assert tested >= 6


@pytest.mark.parametrize("fill", ["numpy", "compiled"])
@pytest.mark.parametrize("phase", ["offer", "kitty", "play"])
def test_filled_rows_keep_what_the_seat_saw_and_place_every_card_once(fill, phase):
    positions = _positions(Rules(deals=2), range(6), lambda s, o: s.phase == phase)
    rng = generator(4)
    for _state, observation in list(positions)[::5]:
        hidden = read_hidden(observation)
        seen = observation_row(observation)
        rows = (
            fill_rows(observation, hidden, 30, rng) if fill == "numpy"
            else _compiled_fill(observation, 30, rng)
        )  # fmt: skip
        for row in rows:
            same = [c for c in range(layout.ROW) if not layout.HANDS <= c < layout.HANDS + 4
                    and not layout.KITTY_CARDS <= c < layout.KITTY_CARDS + 4
                    and not layout.OFFERS <= c < layout.OFFERS + 4]  # fmt: skip
            assert (row[same] == seen[same]).all()
            me = observation.player
            assert row[layout.HANDS + me] == seen[layout.HANDS + me]
            masks = [int(row[layout.HANDS + s]) for s in range(4)]
            masks += [1 << int(row[layout.KITTY_CARDS + s]) for s in range(4)
                      if row[layout.KITTY_CARDS + s] >= 0]  # fmt: skip
            masks.append(int(row[layout.PLAYED]))
            assert sum(bin(m).count("1") for m in masks) == 40  # every card once
            combined = 0
            for mask in masks:
                assert combined & mask == 0
                combined |= mask
            for i, seat in enumerate(hidden.seats):
                assert bin(masks[seat]).count("1") == hidden.room[i]
                if hidden.offer_hidden[i]:  # a face-down offer is a card of its owner's hand
                    assert masks[seat] >> int(row[layout.OFFERS + seat]) & 1


def test_plays_that_win_the_same_tricks_are_merged():
    # 9H and 4C are played: 7H 8H 10H are one run, 2C 3C 5C another; 9C stands apart (6C-8C
    # are still out).
    observation = SimpleNamespace(played=("9H", "4C"))
    legal = [Play(c) for c in ("7H", "8H", "10H", "2C", "3C", "5C", "9C")]
    kept = search_module._distinct_plays(observation, legal)
    assert [a.card for a in kept] == ["2C", "9C", "7H"]


def test_search_games_are_legal_and_reproducible():
    rules = Rules()  # the shipped fit: nothing to fit first
    lineup = [make_agent("search", budget=8), "fitted", "heuristic", "fitted"]
    first = simulate(rules, lineup, games=1, seed=5, progress=False)  # the engine refuses
    again = simulate(rules, lineup, games=1, seed=5, progress=False)  # any illegal action
    assert first[0].equals(again[0]) and first[1].equals(again[1])
    assert first[0]["score"].sum() > 0


def test_a_bad_budget_is_refused():
    with pytest.raises(ValueError, match="budget"):
        make_agent("search", budget=0)


def test_playouts_play_the_fitted_policy_with_its_score_features_off():
    fitted = AuctionHouseFittedAgent(seed=0).policy_for(Rules())
    playouts = make_agent("search").rollout_agents(Rules())
    assert len(playouts) == 4 and all(agent is playouts[0] for agent in playouts)
    for name, fitted_value, playout_value in zip(
        FITTED_PARAMETERS, fitted.params, playouts[0].params, strict=True
    ):
        expected = 0.0 if name in SCORE_FEATURES else fitted_value
        assert playout_value == expected, name
    assert any(fitted.params[FITTED_PARAMETERS.index(name)] != 0 for name in SCORE_FEATURES)


def test_a_search_given_a_model_plays_and_proposes_from_it_alone(monkeypatch):
    """The fit's labelling search: its playouts are the model (score-blind) and its candidates
    start from the model's choice, without asking for the fitted agent's fit."""
    model = FittedPolicy(FITTED_DEFAULTS)  # the heuristic, as a fitted vector
    search = AuctionHouseSearchAgent(model=model)
    monkeypatch.setattr(AuctionHouseFittedAgent, "policy_for", _no_fit)
    assert search.rollout_agents(Rules()) == [search_module.score_blind(model)] * 4
    state, rng = new_game(Rules(deals=2), seed=4), generator(4)
    heuristic = make_agent("heuristic")
    while state.to_play is not None:
        observation, legal = state.observation(state.to_play), state.legal_actions()
        actions, anchored = search.choices(observation, legal, rng)
        assert not anchored and actions[0] == heuristic(observation, legal, rng)
        assert search(observation, legal, rng) in legal
        state = state.apply(actions[0])
    with pytest.raises(ValueError, match="a fitted agent or a compiled-policy agent"):
        AuctionHouseSearchAgent(model="fitted")
    with pytest.raises(TypeError, match="model"):
        AuctionHouseSearchAgent(8)


def _no_fit(*args, **kwargs):
    raise AssertionError("a search given a model must not ask for the fitted agent's fit")


def _row_at(deal: int, scores: tuple[int, ...]) -> np.ndarray:
    row = np.zeros(layout.ROW, np.int64)
    row[layout.DEAL] = deal
    row[layout.SCORES : layout.SCORES + 4] = scores
    return row


def test_a_deal_spreads_a_mean_kitty_of_22_points_between_two_seats():
    # Kitty K to one seat in four: E[(gain_i - gain_j)^2] = K^2 (1/4 + 1/4).
    assert pytest.approx(22 * (0.5**0.5)) == DEAL_SPREAD


@pytest.mark.parametrize(
    "deal, scores, me, expected",
    [
        (13, (50, 30, 50, 10), 0, 0.5),  # the game is over: the win shared by two
        (13, (50, 30, 50, 10), 1, 0.0),
        (13, (40, 40, 40, 40), 3, 0.25),
        (13, (0, 60, 0, 0), 1, 1.0),
        (11, (40, 40, 40, 40), 2, 0.125),  # level with two deals left: 1/2 against each
        (12, (30, 0, 0, 0), 0, norm.cdf(30 / DEAL_SPREAD) ** 3),
        (11, (30, 0, 0, 0), 0, norm.cdf(30 / (DEAL_SPREAD * 2**0.5)) ** 3),
        (12, (0, 30, 0, 0), 0, norm.cdf(-30 / DEAL_SPREAD) * 0.5**2),
    ],
)
def test_the_win_chance_a_deal_leaves(deal, scores, me, expected):
    chance = search_module.win_chance(_row_at(deal, scores), me, 13, DEAL_SPREAD)
    assert chance == pytest.approx(expected, abs=1e-12)


def test_a_lead_is_worth_less_the_more_deals_are_left():
    chances = [
        search_module.win_chance(_row_at(deal, (30, 0, 0, 0)), 0, 13, DEAL_SPREAD)
        for deal in range(1, 14)
    ]
    assert all(a < b for a, b in pairwise(chances))
    assert chances[0] > 0.125 and chances[-1] == 1.0


def _deal_end(state, agents):
    """The State after the step engine plays ``state``'s deal out with ``agents``, every
    decision's uniform 0 (what a round that draws none gives its playouts)."""
    deal = state.deal
    while not state.is_over and state.deal == deal:
        seat = state.to_play
        state = state.apply(agents[seat].decide_for(seat, state.view(seat), 0.0))
    return state


@pytest.mark.parametrize("deal", [5, 13])
def test_a_round_values_each_play_by_the_win_chance_at_the_deal_end(deal):
    # In play no chance is left in the deal (trump is turned) and a round that draws no
    # uniforms gives every decision 0, so from the true position each candidate's one playout
    # is the step engine's with the same uniforms.
    rules, rng = Rules(), generator(3)
    agents = make_agent("search").rollout_agents(rules)

    def third_trick(state, observation):
        return state.deal == deal and state.phase == "play" and len(state.tricks) == 2

    state = next(s for s, _ in _positions(rules, [11], third_trick))
    me, plays = state.to_play, state.legal_actions()
    position = sampling.row_filling(state.observation(me), read_hidden(state.observation(me)))
    table = lineup_table(agents)
    cards = np.array([INDEX[a.card] for a in plays])
    shares, leads, error = search_module.play_round(
        state_of(rng), state_row(state)[None, :], position.trump_order, position.turned, me,
        np.zeros(len(plays), bool), cards, np.full(len(plays), -1), table.kinds,
        table.parameters, table.assignment(1), rules.deals, False, False,
    )  # fmt: skip
    assert error[0] == -1
    for play, share, lead in zip(plays, shares, leads, strict=True):
        end = _deal_end(state.apply(play), agents)
        scores = end.scores
        others = [s for seat, s in enumerate(scores) if seat != me]
        if deal == rules.deals:
            top = max(scores)
            expected = (scores[me] == top) / scores.count(top)
        else:
            left = rules.deals - deal
            expected = np.prod(
                [norm.cdf((scores[me] - s) / (DEAL_SPREAD * left**0.5)) for s in others]
            )
        assert share == pytest.approx(expected, abs=1e-12), play
        assert lead == scores[me] - max(others)


def _compare_halvings(rules, seeds, monkeypatch):
    """Every decision with 4+ candidates of games ``seeds``: ``evaluate`` (one compiled call,
    ``search.halve``) against the kit's ``sequential_halving`` fed a round at a time. The
    same candidate kept, the same means bit for bit, the Generator left at the same state;
    ``halve``'s outcomes by count."""
    outcomes, halve = Counter(), search_module.halve

    def counted_halve(*args):
        result = halve(*args)
        outcomes[int(result[0])] += 1
        return result

    monkeypatch.setattr(search_module, "halve", counted_halve)
    agent, prior_rng = make_agent("search", budget=24), generator(9)
    for state, observation in _positions(rules, seeds, lambda s, o: True):
        actions, _ = agent.choices(observation, state.legal_actions(), None)
        if len(actions) < 4:
            continue
        number = sum(outcomes.values())
        prior = None if number % 2 else list(prior_rng.random(len(actions)) * 0.05)
        fast, slow = generator(number), generator(number)
        kept, means = agent.evaluate(observation, actions, fast, prior)
        expected_kept, expected_means = agent.halve_by_rounds(observation, actions, slow, prior)
        assert kept == expected_kept and means.tolist() == expected_means.tolist()
        assert fast.bit_generator.state == slow.bit_generator.state
    return outcomes


@pytest.mark.parametrize("trump_reveal", ["after_kitty", "before_auction"])
def test_the_compiled_halving_keeps_and_draws_what_the_kits_halving_does(
    trump_reveal, monkeypatch
):
    outcomes = _compare_halvings(Rules(trump_reveal=trump_reveal), [1], monkeypatch)  # shipped
    assert outcomes[search_module.HALVED] >= 40


def test_when_rejection_keeps_too_few_the_kits_halving_takes_over(monkeypatch):
    # One rejection draw per filling: most rounds keep too few, halve says UNFILLED and the
    # search halves a round at a time, the exact sampler making up the fillings.
    monkeypatch.setattr(sampling, "REJECTION_TRIES", 1)
    monkeypatch.setattr(sampling, "REJECTION_PROBE", 1)
    outcomes = _compare_halvings(Rules(), [3], monkeypatch)
    assert outcomes[search_module.UNFILLED] >= 10 and outcomes[search_module.HALVED] >= 1


def test_a_search_may_model_any_compiled_policy():
    """Modelling the heuristic: its playouts are the heuristic (no score features to turn off),
    its candidates start from the heuristic's choice, and its games are legal and seeded."""
    heuristic = HeuristicAgent()
    search = AuctionHouseSearchAgent(8, model=heuristic)
    assert search.rollout_agents(Rules()) == [heuristic] * 4
    state, rng = new_game(Rules(deals=1), seed=6), generator(6)
    while state.to_play is not None:
        observation, legal = state.observation(state.to_play), state.legal_actions()
        assert search.choices(observation, legal, rng)[0][0] == heuristic(observation, legal, rng)
        state = state.apply(search(observation, legal, rng))
    lineup = [search, "heuristic", "random", "heuristic"]
    first = simulate(Rules(deals=2), lineup, games=2, seed=3, progress=False)
    again = simulate(Rules(deals=2), lineup, games=2, seed=3, progress=False)
    assert first[0].equals(again[0]) and first[1].equals(again[1])
