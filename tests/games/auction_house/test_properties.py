"""Invariants over rule variants, seeds and random play: 9 tricks per deal, every card once
per deal, points conserved, scores never falling, and no observation leak."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.games.auction_house import Deal, RandomAgent, Rules, State, new_game
from workbench.games.auction_house.cards import DECK, card_index
from workbench.games.auction_house.positions import play_new_games
from workbench.kit.seeding import generator

rule_variants = st.builds(
    Rules,
    deals=st.integers(1, 4),
    trump_reveal=st.sampled_from(["after_kitty", "before_auction"]),
    first_dealer=st.sampled_from([0, 3, "random"]),
)


def random_game(rules: Rules, seed: int, deal: Deal | None = None) -> tuple[list[State], list]:
    """Every state of one game played by random agents, and the actions."""
    agent = RandomAgent()
    rng = generator(seed, 99)
    states = [new_game(rules, seed=seed, deal=deal)]
    actions = []
    while not states[-1].is_over:
        state = states[-1]
        action = agent(state.observation(state.to_play), state.legal_actions(), rng)
        actions.append(action)
        states.append(state.apply(action))
    return states, actions


@settings(max_examples=40)
@given(rules=rule_variants, seed=st.integers(0, 2**32))
def test_game_invariants(rules, seed):
    states, _ = random_game(rules, seed)
    final = states[-1]
    assert len(final.history) == rules.deals
    put_in = 0
    for record, kitty in zip(final.history, final.kitty_history, strict=True):
        assert len(record.tricks) == 9 and sum(record.tricks_won) == 9
        played = [card for trick in record.tricks for card in trick.cards]
        assert Counter(played + [DECK[c] for c in kitty]) == Counter(DECK)  # each card once
        put_in += record.kitty_points
    scored = sum(final.scores)
    lost = final.history[-1].lost
    assert scored + lost + final.carried_in == put_in  # nothing created, nothing vanishes
    assert final.carried_in == 0
    for earlier, later in itertools.pairwise(states):
        assert all(b >= a for a, b in zip(earlier.scores, later.scores, strict=True))
    result = final.result()
    assert set(result.winners) == {s for s in range(4) if result.scores[s] == max(result.scores)}


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), stop=st.integers(0, 60), player=st.integers(0, 3))
def test_no_observation_leak(seed, stop, player):
    """Swap two same-suit cards between two other seats' hands in the deal in progress (cards
    the table has not seen): the game replays identically and ``player`` sees exactly the same
    observation, log and legal actions."""
    rules = Rules(deals=1)
    states, actions = random_game(rules, seed)
    state = states[min(stop, len(states) - 1)]
    if state.is_over:
        return
    observation = state.observation(player)
    seen = set(observation.played) | {observation.face_up} | set(observation.offers)
    seen |= {c for held in observation.known_holdings() for c in held}
    swap = _hidden_same_suit_pair(state, player, seen)
    if swap is None:
        return
    _check_twin(rules, state, actions[: min(stop, len(states) - 1)], player, swap)


def test_no_observation_leak_in_a_pinned_position():
    """The same check at a fixed point (mid-trick in the first deal), so it surely runs."""
    rules = Rules(deals=1)
    states, actions = random_game(rules, 12)
    state = states[30]
    observation = state.observation(1)
    seen = set(observation.played) | {observation.face_up} | set(observation.offers)
    seen |= {c for held in observation.known_holdings() for c in held}
    swap = _hidden_same_suit_pair(state, 1, seen)
    assert swap is not None
    _check_twin(rules, state, actions[:30], 1, swap)


def _hidden_same_suit_pair(state: State, player: int, seen: set) -> tuple[int, int] | None:
    """Two cards of one suit held by two other seats that the table has not seen."""
    others = [s for s in range(4) if s != player]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for card_a in state.hand(a):
                for card_b in state.hand(b):
                    hidden = card_a not in seen and card_b not in seen
                    offered = (
                        card_index(card_a) in state.offers or card_index(card_b) in state.offers
                    )
                    if card_a[-1] == card_b[-1] and hidden and not offered:
                        return card_index(card_a), card_index(card_b)
    return None


def _check_twin(rules: Rules, state: State, actions: list, player: int, swap) -> None:
    observation = state.observation(player)
    shuffle = list(state.chance.shuffles[0])
    i, j = shuffle.index(swap[0]), shuffle.index(swap[1])
    shuffle[i], shuffle[j] = shuffle[j], shuffle[i]
    twin_deal = state.chance._replace(shuffles=(tuple(shuffle), *state.chance.shuffles[1:]))
    twin = new_game(rules, seed=0, deal=twin_deal)
    for action in actions:
        twin = twin.apply(action)
    assert twin.hands != state.hands
    assert twin.observation(player) == observation
    assert twin.log_for(player) == state.log_for(player)
    if twin.to_play == player:
        assert twin.legal_actions() == state.legal_actions()


@settings(max_examples=10)
@given(rules=rule_variants, seed=st.integers(0, 2**32))
def test_compiled_engine_invariants(rules, seed):
    rng = generator(seed)
    games = 64
    batch, recording = play_new_games(rules, [RandomAgent()] * 4, games, rng)
    assert (recording.tricks_won.sum(axis=2) == 9).all()
    plays = np.sort(np.concatenate([recording.plays, recording.kitty], axis=2), axis=2)
    assert (plays == np.arange(40)).all()
    put_in = recording.kitty_points.sum(axis=1)
    assert (batch.scores.sum(axis=1) + recording.lost[:, -1] == put_in).all()
    assert (np.diff(recording.scores_after, axis=1) >= 0).all()
