"""Inference from real observations against an independent brute force over geek deals, bids
and blind peeks, with a test policy whose bids depend on its geek and on its peek."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from workbench.games.rubbish import Auction, Bid, Peek, Rules, infer, new_game


class PeekyAgent:
    """A test policy whose bids depend on its geek and on its peek (exact probabilities)."""

    name = "peeky"

    def action_probabilities(self, observation, legal):
        weights = []
        for action in legal:
            weight = 1.0
            if isinstance(action, Bid):
                peek = observation.peek
                if peek is not None and peek.card is not None and peek.card in action.cards:
                    weight += 2.0
                if observation.item in observation.destined:
                    weight += action.total / 5
            elif action.item in observation.destined:
                weight += 3.0
            weights.append(weight)
        total = sum(weights)
        return {action: w / total for action, w in zip(legal, weights, strict=True)}

    def __call__(self, observation, legal, rng):
        probabilities = self.action_probabilities(observation, legal)
        return legal[rng.choice(len(legal), p=list(probabilities.values()))]


def brute_force_infer(observation, agent):
    """Joint enumeration for a round-1 observation: every deal of the opponents' geeks, every
    hidden bid with the public count and every physical card a hidden peek could pick."""
    rules = observation.rules
    me = observation.player
    others = [g for g in range(len(rules.geeks)) if g != observation.geek]
    opponents = [s for s in range(rules.players) if s != me]
    bidders = [s for s in observation.order if observation.held_out[s] is not None]
    start = new_game(rules, seed=0, starting_auctioneer=observation.auctioneer)
    auction = Auction(observation.item, observation.first_bidder)

    def options(seat):
        if seat == me:
            return [observation.own_bid]
        return [
            b for b in start.apply(auction).legal_actions() if b.count == observation.held_out[seat]
        ]

    def pool(seat, bid):  # physical cards a peek at this bid picks from
        if bid.count >= 2:
            return list(bid.cards)
        available = list(rules.money_cards)
        for card in bid.cards:
            available.remove(card)
        return available

    cache = {}

    def policy(seat, geek, earlier, peek):
        key = (seat, geek, earlier, peek)
        if key not in cache:
            state = start.apply(auction)
            for bid in earlier:
                state = state.apply(bid)
            seen = dataclasses.replace(state.observation(seat), geek=geek, peek=peek)
            cache[key] = agent.action_probabilities(seen, state.legal_actions())
        return cache[key]

    bid_mass = {s: {} for s in bidders if s != me}
    geek_mass = {s: dict.fromkeys(others, 0.0) for s in opponents}
    total = 0.0
    for deal in itertools.permutations(others, len(opponents)):
        geek_of = dict(zip(opponents, deal, strict=True))
        weight = 1.0
        if observation.auctioneer != me:
            seen = dataclasses.replace(
                start.observation(observation.auctioneer), geek=geek_of[observation.auctioneer]
            )
            weight = agent.action_probabilities(seen, start.legal_actions())[auction]
        for bids in itertools.product(*(options(s) for s in bidders)):
            picks = []
            for j in range(1, len(bidders)):
                picks.append(range(len(pool(bidders[j - 1], bids[j - 1]))))
            for pick in itertools.product(*picks):
                w = weight
                for j, seat in enumerate(bidders):
                    peek = None
                    if j:
                        cards = pool(bidders[j - 1], bids[j - 1])
                        source = "held_out" if bids[j - 1].count >= 2 else "unused"
                        peek = Peek(bidders[j - 1], cards[pick[j - 1]], source)
                        w /= len(cards)
                    if seat == me:
                        if peek is not None and peek != observation.peek:
                            w = 0.0
                        continue
                    w *= policy(seat, geek_of[seat], bids[:j], peek).get(bids[j], 0.0)
                if me not in bidders and observation.peek is not None:
                    cards = pool(bidders[-1], bids[-1])
                    w *= sum(c == observation.peek.card for c in cards) / len(cards)
                total += w
                for s, geek in geek_of.items():
                    geek_mass[s][geek] += w
                for j, seat in enumerate(bidders):
                    if seat != me:
                        mass = bid_mass[seat]
                        mass[bids[j].total] = mass.get(bids[j].total, 0.0) + w
    return (
        {s: {t: m / total for t, m in masses.items()} for s, masses in bid_mass.items()},
        {s: {g: m / total for g, m in masses.items()} for s, masses in geek_mass.items()},
    )


def round_one_observation(players, first, bids, observer, seed):
    """Round 1: seat 0 auctions item 2 naming ``first`` First Bidder; the first seats in order
    hold out ``bids``; what ``observer`` sees then."""
    state = new_game(Rules(players=players), seed=seed, starting_auctioneer=0)
    state = state.apply(Auction(2, first))
    for cards in bids:
        state = state.apply(Bid(cards))
    return state.observation(observer)


SCENARIOS = {
    # Observer last, has not bid: its peek looked at the second bid; the second bidder's own
    # peek at the first bid is hidden and changes its (peek-sensitive) choice.
    "observer to play last": (3, 0, [(5, 2, 1), (2, 1)], 2, 4),
    # Observer second, has bid; the bidder after it peeked at the observer's known bid.
    "observer bid in the middle": (4, 3, [(5,), (2, 2), (10,)], 0, 5),
    # Observer First Bidder, no peek of its own; both later bids hidden, chained by peeks.
    "observer first bidder": (4, 1, [(5,), (2, 1), (10, 2, 2)], 1, 6),
}


@pytest.mark.parametrize("case", SCENARIOS.values(), ids=SCENARIOS.keys())
def test_infer_matches_brute_force_with_a_peek_sensitive_policy(case):
    players, first, bids, observer, seed = case
    observation = round_one_observation(players, first, bids, observer, seed)
    agent = PeekyAgent()
    expected_bids, expected_geeks = brute_force_infer(observation, agent)
    for seat, expected in expected_bids.items():
        result = infer(observation, seat, prior=agent)
        got = dict(zip(result.bids["total"], result.bids["probability"], strict=True))
        assert got == pytest.approx(expected, abs=1e-12)
        geeks = {
            (row["seat"], row["geek"]): row["probability"]
            for row in result.geeks.iter_rows(named=True)
        }
        for s, masses in expected_geeks.items():
            for geek, p in masses.items():
                assert geeks[(s, geek)] == pytest.approx(p, abs=1e-12)


def test_infer_is_deterministic_for_sampled_policies():
    observation = round_one_observation(3, 0, [(5, 2, 1), (2, 1)], 2, 4)
    def sampled(observation, legal, rng):  # no action_probabilities: estimated by sampling
        return legal[int(rng.random() * len(legal))]

    kwargs = dict(prior=sampled, samples=30, bootstrap=20, history=False)
    first = infer(observation, 1, **kwargs)
    again = infer(observation, 1, **kwargs)
    assert first.bids.equals(again.bids) and first.geeks.equals(again.geeks)
    assert first.bids["low"].is_not_null().all()
    topics = first.assumptions["topic"].to_list()
    assert "interval" in topics
    assert "ESTIMATED from 30 seeded samples" in first.assumptions["assumption"].str.join(" ")[0]
    np.testing.assert_allclose(first.bids["probability"].sum(), 1)
