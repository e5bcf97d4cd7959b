"""An Auction House game's chance: the ``Deal`` (first dealer, trump deck order, every deal's
shuffle), drawn from a seed or checked when given by hand, and the hands a shuffle deals."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from workbench.checks import whole_entries, whole_number
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
    """``deal`` as plain tuples of ints, once it holds a first dealer, the whole trump deck and a
    full shuffle for every deal of ``rules``; TypeError or ValueError saying what is wrong."""
    if not isinstance(deal, Deal):
        raise TypeError(f"deal must be an auction_house Deal, got {type(deal).__name__}")
    first = whole_number("deal.first_dealer", deal.first_dealer, low=0, high=PLAYERS - 1,
                         allowed=f"a seat 0–{PLAYERS - 1}")  # fmt: skip
    trump_cards = deal.trump_cards
    listed = () if isinstance(trump_cards, str) else tuple(_or_empty(trump_cards))
    if not all(isinstance(card, str) for card in listed) or sorted(listed) != sorted(TRUMP_DECK):
        raise ValueError(
            f"deal.trump_cards must be the 12 trump cards in some order, got {trump_cards!r}"
        )
    wanted = f"deal.shuffles must hold {rules.deals} orderings of the 40 card indices (0–39)"
    shuffles = () if isinstance(deal.shuffles, str) else tuple(_or_empty(deal.shuffles))
    if len(shuffles) < rules.deals:
        raise ValueError(f"{wanted}, got {len(shuffles) if shuffles else repr(deal.shuffles)}")

    def error(given: object, bad: list[object] | None) -> str:
        shown = given if bad is None else bad[0]
        return f"{wanted}, got {shown!r} ({type(shown).__name__})"

    plain = tuple(tuple(int(c) for c in whole_entries(s, error)) for s in shuffles)
    wrong = next((d for d, s in enumerate(plain[: rules.deals], 1) if sorted(s) != _ORDER), None)
    if wrong is not None:
        raise ValueError(f"{wanted}; deal {wrong}'s is not one: {plain[wrong - 1]!r}")
    return Deal(first, tuple(map(str, listed)), plain)


_ORDER = list(range(len(DECK)))


def _or_empty(value: object) -> Iterable[object]:
    """``value`` if it can be iterated over, else nothing (then a check says what is wanted)."""
    return value if isinstance(value, Iterable) else ()


def dealt_hands(shuffle: tuple[int, ...], dealer: int) -> tuple[int, ...]:
    """Each seat's hand when ``dealer`` deals ``shuffle`` one card at a time from its left."""
    hands = [0] * PLAYERS
    for position, card in enumerate(shuffle):
        hands[(dealer + 1 + position) % PLAYERS] |= 1 << card
    return tuple(hands)
