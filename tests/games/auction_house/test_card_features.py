"""The card scorer's features (``card_features``) against a plain Python reading of the same
definitions from the Observation (not the compiled row), on every card play of mixed games;
``scored_card`` picks the highest weighted sum at temperature 0, the lowest card on a tie, and
above 0 draws each card with its softmax chance; and the fitted agent plays the favoured card
with its shipped weights."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.games.auction_house import Rules, make_agent, new_game
from workbench.games.auction_house.card_features import (
    FEATURE_NAMES,
    FEATURES,
    RUFFABLE_MASTER,
    feature_table,
    scored_card,
    trick_context,
)
from workbench.games.auction_house.cards import DECK, SUIT_SIZE
from workbench.games.auction_house.compiled import legal_of
from workbench.games.auction_house.layout import HANDS, PLAYED, TRUMP
from workbench.games.auction_house.policies import CARD_TEMPERATURE, FIRST_WEIGHT
from workbench.games.auction_house.positions import observation_row
from workbench.kit.seeding import generator


def _key(card: str, trump: str | None, led: str) -> int:
    rank = DECK.index(card) % SUIT_SIZE
    if card[-1] == trump:
        return 100 + rank
    return rank if card[-1] == led else -1


def reference_features(observation, card: str) -> list[float]:
    """``FEATURE_NAMES`` for ``card``, read off the Observation as the module docstring says."""
    obs, me = observation, observation.player
    trump, hand = obs.trump if obs.trump_shown else None, set(obs.hand)
    seen = hand | set(obs.played) | ({obs.own_kitty} if obs.own_kitty else set())
    suit, rank = card[-1], DECK.index(card) % SUIT_SIZE
    unseen_suit = [c for c in DECK if c[-1] == suit and c not in seen]
    master = float(all(DECK.index(c) % SUIT_SIZE < rank for c in unseen_suit))
    length = sum(1 for c in hand if c[-1] == suit)
    position, trick = len(obs.trick), len(obs.tricks)
    won = obs.tricks_won
    race = won[me] - max(won[s] for s in range(4) if s != me)
    is_trump, no_trump, lead = float(suit == trump), float(trump is None), float(position == 0)
    progress, scaled = trick / 8.0, rank / 9.0
    if position:
        led = obs.trick[0][-1]
        keys = [_key(c, trump, led) for c in obs.trick]
        best = max(keys)
        winner = (obs.leader + keys.index(best)) % 4
        wins = float(_key(card, trump, led) > best)
        sure = wins if position == 3 else wins * master
        discard = float(suit not in (led, trump))
        ruff = float(suit == trump and led != trump)
        block = won[winner] - won[me]
    else:
        wins = discard = ruff = block = 0.0
        sure = master * (1.0 if suit == trump or trump is None else RUFFABLE_MASTER)
    return [
        wins, sure, is_trump, scaled, master, length / 9,
        lead * master, lead * is_trump, lead * length / 9, lead * scaled,
        wins * progress, wins * race, wins * block, wins * (position == 3), discard * scaled,
        discard * length / 9, ruff, wins * scaled, sure * progress, lead * master * progress,
        (1 - wins) * scaled * (1 - lead), float(length == 1 and suit != trump),
        wins * (9 - trick + race) / 9, lead * len(unseen_suit) / 10,
        no_trump * wins, no_trump * lead * master, lead * scaled * progress,
        wins * race * progress, sure * no_trump * progress, lead * is_trump * progress,
    ]  # fmt: skip


def card_plays(rules: Rules, games: int, seed: int):
    """(observation, row, legal cards) at every card play of ``games`` mixed games."""
    agents = [make_agent(name) for name in ("heuristic", "random", "heuristic", "random")]
    for game in range(games):
        state, rng = new_game(rules, seed=seed + game), generator(seed, game)
        while (player := state.to_play) is not None:
            observation, legal = state.observation(player), state.legal_actions()
            if observation.phase == "play":
                yield observation, observation_row(observation), legal
            state = state.apply(agents[player](observation, legal, rng))


@pytest.mark.parametrize("rules", [Rules(), Rules(trump_reveal="before_auction", deals=13)])
def test_features_are_the_definitions_read_off_the_observation(rules):
    checked = 0
    for observation, row, legal in card_plays(rules, 4, 31):
        me = observation.player
        cards, table = feature_table(row, me, legal_of(row, me))
        assert [DECK[c] for c in cards] == sorted((a.card for a in legal), key=DECK.index)
        expected = [reference_features(observation, DECK[c]) for c in cards]
        np.testing.assert_allclose(table, expected, atol=1e-12)
        checked += 1
    assert checked > 4 * 13 * 30  # every deal's 36 plays, give or take


def test_the_deal_without_trump_is_read_as_no_trump():
    rules = Rules(deals=13)
    for observation, row, _ in card_plays(rules, 1, 5):
        if observation.deal == 13 and observation.trick:
            me = observation.player
            _, table = feature_table(row, me, legal_of(row, me))
            assert (table[:, FEATURE_NAMES.index("trump")] == 0).all()
            assert (table[:, FEATURE_NAMES.index("no_trump*wins")]
                    == table[:, FEATURE_NAMES.index("wins")]).all()  # fmt: skip
            return
    raise AssertionError("no trick of the last deal was seen")


@pytest.mark.parametrize("weights", ["random", "shipped fit"])
def test_scored_card_is_the_highest_weighted_sum_lowest_card_on_ties(weights):
    """``scored_card`` regroups the sum for speed; it picks the card the plain sum picks."""
    rng = generator(4)
    shipped = make_agent("fitted").policy_for(Rules()).params[FIRST_WEIGHT:]
    plays = list(card_plays(Rules(trump_reveal="before_auction"), 3, 11))
    for observation, row, _ in plays:
        me = observation.player
        mask = legal_of(row, me)
        cards, table = feature_table(row, me, mask)
        vector = rng.normal(size=FEATURES) if weights == "random" else np.array(shipped)
        position = len(observation.trick)
        hand, trump, played = row[HANDS + me], row[TRUMP], row[PLAYED]
        _, led, best_key, _, _, block = trick_context(row, me, position, hand, trump, played)
        trick = (row, me, position, hand, mask, trump, played, led, best_key, block)
        chosen = scored_card(vector[None, :], 0, 0, *trick)
        assert chosen == cards[int(np.argmax(table @ vector))]
        assert scored_card(np.zeros((1, FEATURES)), 0, 0, *trick) == cards[0]  # all equal


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    """Each card's chance: proportional to exp(score / temperature)."""
    weights = np.exp((scores - scores.max()) / temperature)
    return weights / weights.sum()


@pytest.mark.parametrize("temperature", [0.2, 1.0])
def test_scored_card_draws_each_card_with_its_softmax_chance(temperature):
    """Above temperature 0 the card is a function of the uniform ``u``: over an even grid of
    ``u`` each legal card takes its softmax share of the plain weighted sums (the single-pass
    draw splits [0, 1) into at most 2**8 pieces a card, so the grid's error is below 0.013)."""
    rng = generator(5)
    grid = (np.arange(20_000) + 0.5) / 20_000
    checked = 0
    for observation, row, _ in list(card_plays(Rules(), 2, 13))[::7]:
        me = observation.player
        mask = legal_of(row, me)
        cards, table = feature_table(row, me, mask)
        if len(cards) < 2:
            continue
        vector = rng.normal(scale=0.5, size=FEATURES)
        hand, trump, played = row[HANDS + me], row[TRUMP], row[PLAYED]
        position = len(observation.trick)
        _, led, best_key, _, _, block = trick_context(row, me, position, hand, trump, played)
        trick = (row, me, position, hand, mask, trump, played, led, best_key, block)
        drawn = np.array([scored_card(vector[None, :], 0, 0, *trick, temperature, u)
                          for u in grid])  # fmt: skip
        shares = np.array([(drawn == card).mean() for card in cards])
        assert set(drawn) <= set(cards)
        np.testing.assert_allclose(shares, softmax(table @ vector, temperature), atol=0.013)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("rules", [Rules(), Rules(trump_reveal="before_auction")])
def test_the_fitted_agent_plays_the_card_its_weighted_features_favour(rules):
    """What the fit learns is what is played: at every card play of fitted games (the shipped
    fits, through the agent's own decision path; its temperature is 0), the card is the argmax
    of the features the labels are made of, weighted by the fit's card weights."""
    agent = make_agent("fitted")
    weights = np.array(agent.policy_for(rules).params[FIRST_WEIGHT:])
    assert weights.any() and CARD_TEMPERATURE == 0
    checked = 0
    for game in range(3):
        state, rng = new_game(rules, seed=70 + game), generator(70, game)
        while (player := state.to_play) is not None:
            observation, legal = state.observation(player), state.legal_actions()
            action = agent(observation, legal, rng)
            if observation.phase == "play" and len(legal) > 1:
                row = observation_row(observation)
                cards, table = feature_table(row, player, legal_of(row, player))
                assert DECK.index(action.card) == cards[int(np.argmax(table @ weights))]
                checked += 1
            state = state.apply(action)
    assert checked > 3 * 13 * 25
