"""A scripted bidding decision to study: the bidder's observation a policy prior needs in
``bid_posterior`` (used by the bid inference explorer)."""

from __future__ import annotations

from workbench.checks import is_whole_number, whole_number
from workbench.games.rubbish.cards import bid_table
from workbench.games.rubbish.engine import Auction, Observation, new_game
from workbench.games.rubbish.inference.arguments import _rules
from workbench.games.rubbish.rules import Rules


def bidding_situation(
    rules: Rules | None = None, *, locked: int | None = None, bidder: int = 1
) -> Observation:
    """A bidder's observation at a scripted decision, a concrete situation for a policy prior:
    round 1, ``bidder`` bids last and ends with ``locked`` locked (None: nothing), the others
    bid their cheapest; round 2, ``bidder`` is First Bidder. A ValueError if impossible."""
    rules = _rules(rules)
    n = rules.players
    bidder = whole_number("bidder", bidder, low=0, high=n - 1, allowed=f"a seat 0–{n - 1}")
    if rules.rounds < 2:
        raise ValueError("a round-2 situation needs at least 2 items")
    if locked is not None and not (is_whole_number(locked) and locked in rules.money_cards):
        raise ValueError(
            f"locked must be None or one of the money cards {list(rules.money_cards)}, "
            f"got {locked!r}"
        )
    locked = None if locked is None else int(locked)
    table = bid_table(rules.money_cards)
    everywhere = max(rules.bid_minimums)  # fewest cards legal at every position
    for others in ("cheapest legal", "legal everywhere"):
        for own in table.legal(0, rules.min_cards_at(n - 1)):
            if locked is not None and own.highest != locked:
                continue
            state = new_game(rules, seed=0, starting_auctioneer=0)
            state = state.apply(Auction(0, (bidder + 1) % n))
            while state.phase == "bid":
                fewest = rules.min_cards_at(len(state.bids))
                if others == "legal everywhere":
                    fewest = everywhere
                state = state.apply(own if state.to_play == bidder else table.legal(0, fewest)[0])
            wanted_role = state.history[-1].cheapskate == bidder
            if state.locked[bidder] == locked and wanted_role == (locked is None):
                return state.apply(Auction(1, bidder)).observation(bidder)
    raise ValueError(
        f"with bid_minimum {rules.bid_minimum!r} no round-1 script leaves seat {bidder} with "
        f"{'nothing' if locked is None else f'its {locked}'} locked (a bid whose top card is "
        f"{locked} cannot keep it from being the cheapskate)"
    )
