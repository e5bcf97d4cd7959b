"""An Auction House game's chance: the ``Deal`` (first dealer, trump deck order, every deal's
shuffle), drawn from a seed or checked when given by hand, and the hands a shuffle deals."""

from __future__ import annotations

from typing import NamedTuple

from workbench.games.auction_house.cards import DECK, TRUMP_DECK
from workbench.games.auction_house.rules import PLAYERS, Rules
from workbench.kit.seeding import SeedLike, generator


class Deal(NamedTuple):
    """A game's chance: the first dealer, the trump deck top first, and each deal's shuffle
    (the 40 card indices in dealing order: one at a time clockwise from the dealer's left)."""

    first_dealer: int
    trump_cards: tuple[str, ...]
    shuffles: tuple[tuple[int, ...], ...]


def draw_deal(rules: Rules, seed: SeedLike) -> Deal:
    """The chance of one game from ``seed``: always 13 shuffles and the whole trump deck, so
    the same seed deals the same cards whatever the rule options."""
    rng = generator(seed)
    first = int(rng.integers(PLAYERS))
    trump_cards = tuple(TRUMP_DECK[i] for i in rng.permutation(len(TRUMP_DECK)))
    shuffles = tuple(tuple(int(c) for c in rng.permutation(len(DECK))) for _ in range(13))
    if rules.first_dealer != "random":
        first = rules.first_dealer
    return Deal(first, trump_cards, shuffles)


def check_deal(rules: Rules, deal: Deal) -> Deal:
    """``deal`` as plain tuples, once it holds a first dealer, the whole trump deck and a full
    shuffle for every deal of ``rules``; TypeError or ValueError saying what is wrong."""
    if not isinstance(deal, Deal):
        raise TypeError(f"deal must be an auction_house Deal, got {type(deal).__name__}")
    if deal.first_dealer not in range(PLAYERS):
        raise ValueError(f"deal.first_dealer must be a seat 0–3, got {deal.first_dealer!r}")
    if sorted(deal.trump_cards) != sorted(TRUMP_DECK):
        raise ValueError(
            f"deal.trump_cards must be the 12 trump cards in some order, got {deal.trump_cards!r}"
        )
    if len(deal.shuffles) < rules.deals or any(
        sorted(s) != list(range(len(DECK))) for s in deal.shuffles[: rules.deals]
    ):
        raise ValueError(f"deal.shuffles must hold {rules.deals} orderings of the 40 card indices")
    return Deal(int(deal.first_dealer), tuple(deal.trump_cards), tuple(map(tuple, deal.shuffles)))


def dealt_hands(shuffle: tuple[int, ...], dealer: int) -> tuple[int, ...]:
    """Each seat's hand when ``dealer`` deals ``shuffle`` one card at a time from its left."""
    hands = [0] * PLAYERS
    for position, card in enumerate(shuffle):
        hands[(dealer + 1 + position) % PLAYERS] |= 1 << card
    return tuple(hands)
