"""The hidden-information sampler (sampling.py) against exact enumeration on small rules, the
step engine on sampled States, and exact marginals on a rulebook position."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.games.going_gone import Rules, make_agent, new_game, sampling
from workbench.games.going_gone.holdings import items_of
from workbench.games.going_gone.sampling import SALES_ITEMS, sales_counts
from workbench.kit.search import step_play_from, uniformity_p_value
from workbench.kit.seeding import generator

#: 2 types x 3 countries: lines of 2 (a country) and 3 (a type), so sales come in every shape.
SMALL_ITEMS = (("car", "de"), ("car", "jp"), ("car", "us"), ("toy", "de"), ("toy", "jp"),
               ("toy", "us"))  # fmt: skip
SMALL = {
    "secret": Rules(players=3, starting_bucks=2, rounds=2, lot_sizes=(1, 1), items=SMALL_ITEMS),
    "pairs": Rules(
        players=3, starting_bucks=2, rounds=2, lot_sizes=(1, 2), items=SMALL_ITEMS, cube_limit=None
    ),
    "open": Rules(
        players=3,
        starting_bucks=2,
        rounds=2,
        lot_sizes=(1, 1),
        items=SMALL_ITEMS,
        open_collections=True,
    ),
    "duo": Rules(
        players=2, starting_bucks=3, rounds=3, lot_sizes=(1, 1), items=SMALL_ITEMS, cube_limit=2
    ),
}


def positions(rules: Rules, seed: int) -> list:
    """Every decision position of one seeded game with random agents, in order."""
    agents = [make_agent("random", rules) for _ in range(rules.players)]
    rng = generator(seed)
    state, found = new_game(rules, seed=seed), []
    while (seat := state.to_play) is not None:
        found.append(state)
        state = state.apply(agents[seat](state.observation(seat), state.legal_actions(), rng))
    found.append(state)
    return found


def small_cases():
    for name, rules in SMALL.items():
        for seed in range(3):
            for index, state in enumerate(positions(rules, seed)):
                yield pytest.param(rules, state, id=f"{name}-g{seed}-{index}")


CASES = list(small_cases())


@pytest.mark.parametrize(("rules", "state"), CASES)
def test_every_enumerated_filling_is_consistent_and_the_truth_is_one(rules, state):
    for player in range(rules.players):
        observation = state.observation(player)
        fillings = list(sampling.consistent_fillings(observation))
        assert len(set(fillings)) == len(fillings)
        assert sampling.filling_of(state, player) in fillings


@pytest.mark.parametrize(("rules", "state"), CASES)
def test_the_sampler_is_uniform_over_every_consistent_filling(rules, state):
    player = state.to_play if state.to_play is not None else 0
    observation = state.observation(player)
    consistent = list(sampling.consistent_fillings(observation))
    if len(consistent) > 400:
        pytest.skip(f"{len(consistent)} fillings: too many to draw 40 of each here")
    sampled = sampling.sample_states(observation, generator(len(consistent)), 40 * len(consistent))
    assert all(s.observation(player) == observation for s in sampled)
    fillings = [sampling.filling_of(s, player) for s in sampled]
    assert uniformity_p_value(fillings, consistent) > 0.001


@pytest.mark.parametrize(("rules", "state"), CASES[::7])
def test_sampled_states_play_on_to_the_end(rules, state):
    if state.is_over:
        return
    observation = state.observation(state.to_play)
    sampled = sampling.sample_states(observation, generator(3), 4)
    agents = [make_agent("random", rules) for _ in range(rules.players)]
    moved = [s.apply(s.legal_actions()[len(s.legal_actions()) // 2]) for s in sampled]
    scores = step_play_from(moved, agents, playouts=2, seed=9)
    assert scores.shape == (4, 2, rules.players)
    final = step_play_from(moved[0], agents, playouts=1, seed=9)[0, 0]
    assert (final == scores[0, 0]).all()


def hidden_sale_position():
    """A small-rules selling position where an earlier seller's sale is sealed from the seat
    to act and holdings are secret."""
    for seed in range(40):
        for state in positions(SMALL["pairs"], seed):
            if state.phase != "sell":
                continue
            frame = sampling._frame(state.observation(state.to_play))
            sizes = {len(state.holdings[s]) for s in frame.pending_seats}
            if sizes and max(sizes) >= 3:
                return state
    raise AssertionError("no selling position with a hidden sale of 3+ items in 40 games")


def test_the_check_catches_a_sampler_that_ignores_how_many_sales_a_holding_allows(monkeypatch):
    state = hidden_sale_position()
    observation = state.observation(state.to_play)
    consistent = list(sampling.consistent_fillings(observation))
    draws = 200 * len(consistent)  # the bias is a few points per filling: draw enough to see it
    fair = [sampling.filling_of(s, observation.player)
            for s in sampling.sample_states(observation, generator(1), draws)]  # fmt: skip
    assert uniformity_p_value(fair, consistent) > 0.001
    # accepting every proposal draws holdings uniformly, not weighted by their sales
    monkeypatch.setattr(sampling, "_mask_sales", lambda holding: 1)
    monkeypatch.setattr(sampling, "_holding_sales", lambda masks: [1] * len(masks))
    monkeypatch.setattr(sampling, "_bell", lambda n: 1)
    biased = [sampling.filling_of(s, observation.player)
              for s in sampling.sample_states(observation, generator(1), draws)]  # fmt: skip
    assert uniformity_p_value(biased, consistent) < 1e-6


@pytest.mark.parametrize(
    ("holding", "expected"),
    [
        ((), 1),
        ((0,), 2),  # unsold or sold alone
        ((0, 4), 4),  # car/de and toy/jp share nothing: each unsold or alone
        ((0, 1), 5),  # a pair of cars: partial partitions of 2 items, Bell(3)
        ((0, 1, 2), 15),  # three cars: Bell(4)
        ((0, 1, 3), 12),  # car/de pairs with car/jp or toy/de: 8 sales of singles only, 2 with
        # the car pair (toy/de unsold or alone), 2 with the de pair
    ],
)
def test_sale_counts_by_hand(holding, expected):
    assert sampling.sale_count(SMALL["secret"], holding) == expected
    assert len(set(sampling._all_sales(SMALL["secret"], holding))) == expected


@pytest.mark.parametrize("holding", [(0, 1, 3), (0, 1, 2, 3, 4), (0, 1, 2, 3, 4, 5)])
def test_a_drawn_sale_is_uniform_over_every_sale(holding):
    """The sale drawer (counts on holding masks) against the enumeration of every sale
    (``_all_sales``, on item positions), and the counts against the enumeration's size."""
    rules = SMALL["secret"]
    every = set(sampling._all_sales(rules, holding))
    assert sampling.sale_count(rules, holding) == len(every)
    rng = generator(len(holding))
    mask = sampling.mask_of(rules, holding)
    drawn = [tuple(sorted(items_of(rules, c) for c in sampling._draw_sale(mask, rng)))
             for _ in range(60 * len(every))]  # fmt: skip
    assert uniformity_p_value(drawn, every) > 0.001


def test_rulebook_marginals_match_the_exact_values():
    """On a rulebook bidding position (round 3, seats 2, 3, 0 have bid), each unseen
    card is in a given opponent's hand with probability count / unseen, at a given deck place
    with 1 / unseen; a sealed bid puts b in cup 1 with C(B - b + 4, 4) / C(B + 5, 5)."""
    rules = Rules()
    state = positions(rules, 4)
    state = next(s for s in state if s.round == 3 and s.phase == "bid" and s.to_play == 1)
    observation = state.observation(3)  # seat 3 sees its own bid; seats 2 and 0 are sealed
    frame = sampling._frame(observation)
    unseen = len(frame.pool)
    draws = 4000
    sampled = sampling.sample_states(observation, generator(7), draws)
    card = frame.pool[0]
    for seat in (0, 1, 2):
        share = np.mean([card in s.holdings[seat] for s in sampled])
        expected = observation.item_counts[seat] / unseen
        assert abs(share - expected) <= 5 * math.sqrt(expected * (1 - expected) / draws) + 1e-9
    first_future = 3 * rules.items_per_round
    share = np.mean([s.deal.deck[first_future] == card for s in sampled])
    assert abs(share - 1 / unseen) < 5 * math.sqrt((1 / unseen) / draws)
    for seat in frame.sealed_seats:
        budget = min(observation.bucks[seat], 40)
        cup_one = np.array([s.bids[seat].bids[0] for s in sampled])
        for b in (0, 1, budget // 2):
            expected = math.comb(budget - b + 4, 4) / math.comb(budget + 5, 5)
            assert abs(np.mean(cup_one == b) - expected) < 5 * math.sqrt(expected / draws) + 1e-9


def test_bad_input_is_refused():
    state = new_game(SMALL["secret"], seed=0)
    with pytest.raises(TypeError, match="Observation"):
        sampling.sample_states("seat 0", generator(0), 3)
    with pytest.raises(ValueError, match="count"):
        sampling.sample_states(state.observation(0), generator(0), -1)
    with pytest.raises(TypeError, match="State"):
        sampling.filling_of(state.observation(0), 0)


def test_compiled_sale_counts_are_the_recursive_counts():
    """``sampling.sales_counts`` (what the rejection step uses) against ``_mask_sales`` on
    seeded random holdings of the rulebook's grid; -1 above ``SALES_ITEMS`` items."""
    rules = Rules()
    rng = generator(5)
    holdings = [rng.choice(49, size=size, replace=False) for size in range(0, 30) for _ in range(4)]
    masks = np.array([sampling.mask_of(rules, h.tolist()) for h in holdings], np.uint64)
    counts = sales_counts(masks.reshape(-1, 2))
    assert counts.shape == (len(masks) // 2, 2)
    for mask, count in zip(masks.tolist(), counts.ravel().tolist(), strict=True):
        expected = sampling._mask_sales(mask) if mask.bit_count() <= SALES_ITEMS else -1
        assert count == expected, mask


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), SMALL["pairs"]])
def test_proposed_holdings_hold_the_lots_won_and_the_counted_items(rules):
    """The compiled proposals (``sampling.proposal_masks``): every other seat holds the lots
    its split gives it plus its slice of the shuffled pool, exactly its counted items."""
    bits = sampling.item_bits(rules)
    for state in positions(rules, seed=2)[:-1:3]:
        observation = state.observation(state.to_play)
        sampler = sampling.Sampler(observation)
        picks, shuffled, masks = sampler._propose(generator(9), 20)
        for row in range(20):
            for k, seat in enumerate(sampler.others):
                pick, start, end = (
                    picks[row],
                    sampler.starts[picks[row], k],
                    sampler.ends[picks[row], k],
                )
                past = np.bitwise_or.reduce(bits[shuffled[row, start:end]], initial=np.uint64(0))
                assert masks[row, seat] == sampler.won[pick, k] | past
                assert int(masks[row, seat]).bit_count() == observation.item_counts[seat]
