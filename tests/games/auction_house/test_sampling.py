"""The Auction House sampler of hidden information (sampling.py) against exact enumeration:
the true filling is always possible, the count matches a brute force and an independent replay
of the public record, draws are uniform (chi-square), marginals on rulebook positions match an
independent exact count, and sampled States look the same to the seat and play on to the end.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.errors import IllegalAction
from workbench.games.auction_house import (
    Deal,
    HeuristicAgent,
    Kitty,
    Offer,
    Pass,
    Play,
    RandomAgent,
    Rules,
    Start,
    Take,
    new_game,
)
from workbench.games.auction_house import hidden as hidden_module
from workbench.games.auction_house import sampling as sampling_module
from workbench.games.auction_house.cards import DECK, TRUMP_DECK, card_bits
from workbench.games.auction_house.chance import dealt_hands
from workbench.kit.search import step_play_from, uniformity_p_value
from workbench.kit.seeding import generator

consistent_fillings = hidden_module.consistent_fillings
count_fillings = hidden_module.count_fillings
filling_of = hidden_module.filling_of
read_hidden = hidden_module.read_hidden
sample_states = sampling_module.sample_states

TABLE = [HeuristicAgent(), RandomAgent(), HeuristicAgent(), RandomAgent()]


def _game_states(rules: Rules, seed: int):
    """Every decision point of a seeded game (mixed heuristic and random seats)."""
    state = new_game(rules, seed=seed)
    rng = generator(1000 + seed)
    while state.to_play is not None:
        yield state
        seat = state.to_play
        state = state.apply(TABLE[seat](state.observation(seat), state.legal_actions(), rng))


def _hidden_size(observation) -> int:
    hidden = read_hidden(observation)
    return len(hidden.unseen) + sum(map(len, hidden.known))


def _late_positions(seeds, most_hidden: int):
    """Play-phase positions (as the seat to play sees them) with few enough hidden cards."""
    for seed in seeds:
        for state in _game_states(Rules(deals=1), seed):
            observation = state.observation(state.to_play)
            if state.phase == "play" and _hidden_size(observation) <= most_hidden:
                yield state, observation


# -- exact enumeration -----------------------------------------------------------------------


def test_counts_match_brute_force_and_the_truth_is_always_possible():
    positions = list(_late_positions(range(6), most_hidden=10))
    assert len(positions) > 40
    for state, observation in positions:
        consistent = list(consistent_fillings(observation))
        assert len(consistent) == len(set(consistent)) == count_fillings(observation)
        assert filling_of(state, observation.player) in consistent


def _replay_consistent(state, observation) -> set:
    """Every filling for which the public record replays legally through the step engine from
    the deal's start and shows the seat exactly ``observation``: placements are tried by hand
    sizes alone (no voids, no auction inference), so this checks what sampling.py infers."""
    me, dealer = observation.player, observation.dealer
    others = [s for s in range(4) if s != me]
    played = [0] * 4
    tricks = [(t.leader, t.cards) for t in observation.tricks] + [
        (observation.leader, observation.trick)
    ]
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            played[(leader + position) % 4] |= 1 << DECK.index(card)
    mine = {DECK.index(c) for c in (*observation.hand, *observation.played, observation.own_kitty)}
    hidden_cards = [c for c in range(40) if c not in mine]
    sizes = [10 - 1 - bin(played[s]).count("1") for s in others]
    found = set()

    def placements(index, left):
        if index == 3:
            yield [], []
            return
        for kitty in left:
            rest = [c for c in left if c != kitty]
            for hand in itertools.combinations(rest, sizes[index]):
                remaining = [c for c in rest if c not in hand]
                for hands, kitties in placements(index + 1, remaining):
                    yield [sum(1 << c for c in hand), *hands], [kitty, *kitties]

    for hands, kitties in placements(0, hidden_cards):
        current = [0] * 4
        kitty = [None] * 4
        current[me] = sum(1 << DECK.index(c) for c in observation.hand)
        kitty[me] = DECK.index(observation.own_kitty)
        for i, seat in enumerate(others):
            current[seat], kitty[seat] = hands[i], kitties[i]
        dealt = [current[s] | played[s] | 1 << kitty[s] for s in range(4)]
        if observation.taken is not None:
            taken, face_up = DECK.index(observation.taken), DECK.index(observation.face_up)
            dealt[observation.starter] ^= 1 << taken | 1 << face_up
            dealt[observation.taken_from] ^= 1 << taken | 1 << face_up
        if any(bin(d).count("1") != 10 for d in dealt):
            continue
        cards = [card_bits(d) for d in dealt]
        shuffle = tuple(cards[(dealer + 1 + i) % 4][i // 4] for i in range(40))
        replay = new_game(
            observation.rules, deal=Deal(dealer, state.chance.trump_cards, (shuffle,) * 13),
            seed=0,
        )  # fmt: skip
        assert dealt_hands(shuffle, dealer) == tuple(dealt)
        plays = list(observation.played)
        try:
            while not (replay.phase == "play" and len(replay.trick) + 4 * len(replay.tricks)
                       == len(observation.played)):  # fmt: skip
                seat = replay.to_play
                if replay.phase == "auction":
                    action = (Start(observation.face_up, observation.called)
                              if seat == observation.starter else Pass())  # fmt: skip
                elif replay.phase == "offer":
                    action = Offer(observation.offers[seat])
                elif replay.phase == "take":
                    action = Take(observation.taken)
                elif replay.phase == "kitty":
                    action = Kitty(DECK[kitty[seat]])
                else:
                    action = Play(plays.pop(0))
                replay = replay.apply(action)
        except IllegalAction:
            continue
        if replay.observation(me) == observation:
            found.add(filling_of(replay, me))
    return found


def test_consistency_is_exactly_what_replaying_the_public_record_allows():
    positions = [
        (state, observation)
        for state, observation in _late_positions(range(12), most_hidden=8)
        if observation.starter is not None
    ]  # positions with an auction: its revealed cards constrain the placements
    assert len(positions) >= 8
    for state, observation in positions[:8]:
        assert _replay_consistent(state, observation) == set(consistent_fillings(observation))


# -- uniformity --------------------------------------------------------------------------------


def _uniformity_positions():
    """Late positions small enough for ~40 draws per filling, one per seed and trick count."""
    chosen, seen = [], set()
    for state, observation in _late_positions(range(10), most_hidden=10):
        key = (state.chance.shuffles[0][:3], len(state.tricks))
        if key not in seen and 2 <= count_fillings(observation) <= 150:
            seen.add(key)
            chosen.append((state, observation))
    return chosen


def test_the_sampler_is_uniform_over_every_consistent_filling():
    positions = _uniformity_positions()
    assert len(positions) >= 12
    assert {len(state.tricks) for state, _ in positions} >= {6, 7, 8}
    rng = generator(19)
    for _state, observation in positions:
        consistent = list(consistent_fillings(observation))
        sampled = sample_states(observation, rng, 40 * len(consistent))
        fillings = [filling_of(s, observation.player) for s in sampled]
        assert uniformity_p_value(fillings, consistent) > 0.001


def _greedy_probabilities(consistent: list) -> np.ndarray:
    """A natural but biased sampler, as the chance of each filling: place the hidden cards one
    at a time, each at a place drawn uniformly from those still leaving a consistent filling
    (not weighted by how many fillings each leaves)."""

    def place(filling, card):
        for i, hand in enumerate(filling.hands):
            if hand >> card & 1:
                return i
        return 3 + filling.kitty.index(card)

    cards = sorted({c for f in consistent for hand in f.hands for c in card_bits(hand)})
    chance = np.zeros(len(consistent))

    def walk(left: list[int], index: int, p: float) -> None:
        if index == len(cards):
            chance[left] += p / len(left)
            return
        by_place: dict[int, list[int]] = {}
        for k in left:
            by_place.setdefault(place(consistent[k], cards[index]), []).append(k)
        for group in by_place.values():
            walk(group, index + 1, p / len(by_place))

    walk(list(range(len(consistent))), 0, 1.0)
    return chance


def test_the_check_catches_a_greedy_sampler_on_a_real_position():
    rng = generator(4)
    caught = 0
    for _state, observation in _uniformity_positions()[:6]:
        consistent = list(consistent_fillings(observation))
        chance = _greedy_probabilities(consistent)
        assert abs(chance.sum() - 1) < 1e-9 and chance.min() > 0  # biased, yet consistent
        picks = rng.choice(len(consistent), size=40 * len(consistent), p=chance)
        draws = [consistent[k] for k in picks]
        caught += uniformity_p_value(draws, consistent) < 1e-6
    assert caught >= 3


# -- marginals on rulebook positions ----------------------------------------------------------


def _exact_locations(observation) -> dict:
    """P(card in each place) for every hidden card, counted exactly and independently of
    sampling.py: places are filled one at a time (each kitty slot, then each hand) choosing
    how many cards of each group of alike cards it takes, binomial ways each."""
    me = observation.player
    others = [s for s in range(4) if s != me]
    voids = observation.voids()
    holdings = observation.known_holdings()
    played_by = Counter()
    for trick in observation.tricks:
        for position in range(4):
            played_by[(trick.leader + position) % 4] += 1
    for position in range(len(observation.trick)):
        played_by[(observation.leader + position) % 4] += 1
    places = [("kitty", s) for s in others if observation.kitty_placed[s]] + [
        ("hand", s) for s in others
    ]
    room = {("kitty", s): 1 for s in others}
    room.update({("hand", s): 10 - observation.kitty_placed[s] - played_by[s] for s in others})
    seen = {*observation.hand, *observation.played, observation.own_kitty}
    known = {card: seat for seat in others for card in holdings[seat]}

    def accepts(card):
        seat = known.get(card)
        return frozenset(
            place for place in places
            if (seat is None or place[1] == seat)
            and not (place[0] == "hand" and card[-1] in voids[place[1]])
        )  # fmt: skip

    hidden = [c for c in DECK if c not in seen]
    group_of = {card: accepts(card) for card in hidden}
    groups = sorted(set(group_of.values()), key=sorted)

    def count(sizes: tuple, caps: dict) -> int:
        memo: dict = {}

        def fill(index: int, left: tuple) -> int:
            if index == len(places):
                return int(not any(left))
            key = (index, left)
            if key not in memo:
                place = places[index]
                options = [g for g, group in enumerate(groups) if place in group]
                total = 0
                for takes in itertools.product(*(range(left[g] + 1) for g in options)):
                    if sum(takes) != caps[place]:
                        continue
                    ways, rest = 1, list(left)
                    for g, take in zip(options, takes, strict=True):
                        ways *= math.comb(left[g], take)
                        rest[g] -= take
                    total += ways * fill(index + 1, tuple(rest))
                memo[key] = total
            return memo[key]

        return fill(0, sizes)

    sizes = tuple(sum(group_of[c] == group for c in hidden) for group in groups)
    total = count(sizes, room)
    exact = {}
    for card in hidden:
        g = groups.index(group_of[card])
        for place in places:
            if place in group_of[card]:
                fewer = tuple(n - (i == g) for i, n in enumerate(sizes))
                caps = {**room, place: room[place] - 1}
                exact[card, place] = count(fewer, caps) / total
    return exact


def _rulebook_positions():
    """Mid-deal play positions with some voids shown, in deals 1-3 of rulebook games."""
    out = []
    for seed in (3, 8):
        for state in _game_states(Rules(deals=3), seed):
            observation = state.observation(state.to_play)
            if (state.phase == "play" and 2 <= len(state.tricks) <= 5 and len(state.trick) == 1
                    and sum(map(len, observation.voids())) >= 2):  # fmt: skip
                out.append(observation)
    return out[::4][:3]


def test_marginals_match_exact_counts_on_rulebook_positions():
    observations = _rulebook_positions()
    assert len(observations) == 3
    rng = generator(23)
    draws = 4000
    for observation in observations:
        exact = _exact_locations(observation)
        assert any(0.02 < p < 0.98 and abs(p - 1 / 3) > 0.05 for p in exact.values())
        hits = Counter()
        seats = [s for s in range(4) if s != observation.player]
        for state in sample_states(observation, rng, draws):
            for seat in seats:
                for card in card_bits(state.hands[seat]):
                    hits[DECK[card], ("hand", seat)] += 1
                if state.kitty[seat] is not None:
                    hits[DECK[state.kitty[seat]], ("kitty", seat)] += 1
        assert set(hits) <= set(exact)  # no card is ever where it cannot be
        for key, p in exact.items():
            share = hits[key] / draws
            assert abs(share - p) <= 4.5 * math.sqrt(p * (1 - p) / draws) + 1e-12, (key, p)


def test_early_marginals_follow_room_before_any_void():
    """At the first trick nothing but room tells the places apart: a card nobody has seen is
    in each other hand with probability hand size / hidden places."""
    rules = Rules(deals=1, first_dealer=0)
    state = next(s for s in _game_states(rules, 5) if s.phase == "play")
    observation = state.observation(state.to_play)
    hidden = read_hidden(observation)
    places = sum(hidden.room) + sum(hidden.has_kitty)
    unknown = [c for c in hidden.unseen]
    hits = np.zeros((3, 40))
    draws = 3000
    for sampled in sample_states(observation, generator(2), draws):
        for i, seat in enumerate(hidden.seats):
            for card in card_bits(sampled.hands[seat]):
                hits[i, card] += 1
    for i, room in enumerate(hidden.room):
        p = room / places
        assert np.abs(hits[i, unknown] / draws - p).max() <= 4.5 * math.sqrt(p * (1 - p) / draws)


# -- sampled States -----------------------------------------------------------------------------


@pytest.mark.parametrize("reveal", ["after_kitty", "before_auction"])
def test_sampled_states_show_every_seat_what_it_saw(reveal):
    rules = Rules(deals=2, trump_reveal=reveal)
    rng = generator(7)
    phases = Counter()
    for index, state in enumerate(_game_states(rules, 31 if reveal == "before_auction" else 2)):
        if index % 3:
            continue
        for seat in (state.to_play, (state.to_play + 1) % 4):
            observation = state.observation(seat)
            phases[state.phase] += 1
            for sampled in sample_states(observation, rng, 3):
                assert sampled.observation(seat) == observation
                assert sampled.to_play == state.to_play
                assert sampled.legal_actions() == state.legal_actions() or seat != state.to_play
                deal = state.deal - 1
                assert dealt_hands(sampled.chance.shuffles[deal], state.dealer) == sampled.dealt
                for hands, kitty, record in zip(sampled.hands_history, sampled.kitty_history,
                                                state.history, strict=True):  # fmt: skip
                    assert sum(hands) == (1 << 40) - 1 and sorted(DECK[c] for c in kitty) == \
                        sorted(record.kitty)  # fmt: skip
                    assert all(hands[s] >> kitty[s] & 1 for s in range(4))
    assert set(phases) >= {"auction", "kitty", "play"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 60), seat=st.integers(0, 3))
def test_any_position_samples_states_the_seat_cannot_tell_apart(seed, moves, seat):
    *_, state = itertools.islice(_game_states(Rules(deals=1), seed), moves + 1)
    observation = state.observation(seat)
    for sampled in sample_states(observation, generator(seed), 4):
        assert sampled.observation(seat) == observation
        truth = filling_of(sampled, seat)
        for i, other in enumerate(s for s in range(4) if s != seat):
            assert truth.hands[i] == sampled.hands[other]


def test_sampled_states_play_on_to_the_end():
    rules = Rules(deals=2)
    rng = generator(13)
    starts = []
    for index, state in enumerate(_game_states(rules, 17)):
        if index % 11 == 0:
            starts += sample_states(state.observation(state.to_play), rng, 1)
    assert {s.phase for s in starts} >= {"auction", "play"}
    agents = [RandomAgent()] * 4
    scores = step_play_from(starts, agents, playouts=2, seed=3)
    assert scores.shape == (len(starts), 2, 4)
    for start in starts[:6]:
        state = start
        arng = generator(5)
        while state.to_play is not None:
            state = state.apply(agents[state.to_play](state.observation(state.to_play),
                                                      state.legal_actions(), arng))  # fmt: skip
        for record in state.history[start.deal - 1 :]:
            dealt = {c for trick in record.tricks for c in trick.cards} | set(record.kitty)
            assert dealt == set(DECK)  # every card of the deal was played or in the kitty
        kitties = sum(record.kitty_points for record in state.history)
        assert sum(state.scores) + state.result().lost == kitties  # two deals, none carried


def test_a_hidden_trump_card_is_one_not_yet_turned_each_equally_likely():
    state = next(s for s in _game_states(Rules(deals=2), 9) if s.deal == 2)
    observation = state.observation(state.to_play)
    assert not observation.trump_shown and len(observation.revealed_trumps) == 1
    drawn = Counter(
        filling_of(s, observation.player).trump_card
        for s in sample_states(observation, generator(8), 2200)
    )
    options = [c for c in TRUMP_DECK if c not in observation.revealed_trumps]
    assert uniformity_p_value(list(drawn.elements()), options) > 0.001


def test_face_down_offers_are_cards_of_their_owners_hands():
    for seed in range(40):
        state = next((s for s in _game_states(Rules(deals=1), seed)
                      if s.phase == "offer" and s.n_offers == 2), None)  # fmt: skip
        if state is not None:
            break
    me = state.to_play
    observation = state.observation(me)
    offerers = [s for s in range(4) if observation.offered[s] and s != me]
    assert len(offerers) == 2
    position = [s for s in range(4) if s != me].index(offerers[0])
    ranks = Counter()
    for sampled in sample_states(observation, generator(3), 600):
        offer = sampled.offers[offerers[0]]
        assert sampled.hands[offerers[0]] >> offer & 1
        ranks[card_bits(sampled.hands[offerers[0]]).index(offer)] += 1
        assert filling_of(sampled, me).offers[position] == offer
    assert uniformity_p_value(list(ranks.elements()), range(10)) > 0.001


# -- bad input -----------------------------------------------------------------------------------


def test_bad_input_gets_a_clear_error():
    state = new_game(Rules(deals=1), seed=0)
    observation = state.observation(0)
    with pytest.raises(TypeError, match="Observation"):
        sample_states("seat 0", generator(0), 1)
    with pytest.raises(ValueError, match="count"):
        sample_states(observation, generator(0), -1)
    with pytest.raises(TypeError, match="Generator"):
        sample_states(observation, 5, 1)
    assert sample_states(observation, generator(0), 0) == []
    final = state
    while final.to_play is not None:
        final = final.apply(final.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        sample_states(final.observation(1), generator(0), 1)


def test_an_impossible_observation_is_refused():
    state = next(s for s in _game_states(Rules(deals=1), 0) if s.phase == "play" and s.tricks)
    observation = state.observation(state.to_play)
    hand = list(observation.hand)
    observation.hand = tuple(hand[:-1])  # a card vanished: the other seats cannot hold it all
    with pytest.raises(ValueError, match="inconsistent"):
        sample_states(observation, generator(0), 1)
