"""Auction House actions (Pass, Start, Offer, Take, Kitty, Play), the phases that ask for them,
and the reading of an action's card that the step engine checks before applying it."""

from __future__ import annotations

from typing import NamedTuple

from workbench.errors import IllegalAction
from workbench.games.auction_house.cards import INDEX, card_index


class Pass(NamedTuple):
    """Decline to start the auction."""


class Start(NamedTuple):
    """Start the auction: put ``card`` face up and call ``suit`` (not the card's own suit)."""

    card: str
    suit: str


class Offer(NamedTuple):
    """Put ``card`` face down as an offer to the auction's starter."""

    card: str


class Take(NamedTuple):
    """The starter's free choice among the offered cards (when none is of the called suit)."""

    card: str


class Kitty(NamedTuple):
    """Put ``card`` face down into the kitty."""

    card: str


class Play(NamedTuple):
    """Play ``card`` to the trick."""

    card: str


Action = Pass | Start | Offer | Take | Kitty | Play
PHASES = ("auction", "offer", "take", "kitty", "play", "over")
#: The one action each card phase asks for.
ACTION_OF_PHASE = {"offer": Offer, "take": Take, "kitty": Kitty, "play": Play}

def quick_index(text: object) -> int:
    """The index of a card written exactly as in ``DECK``, else -1 (then ``card_of`` reads it
    or says what is wrong): the common case without the full parse."""
    return INDEX.get(text, -1) if isinstance(text, str) else -1


def card_of(action: object, text: object, what: str, legal: list[Action]) -> int:
    """The index of the card ``text`` names; IllegalAction (saying ``what`` was asked, with the
    legal actions) when it names no playing card."""
    try:
        return card_index(text)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise IllegalAction(action, f"{what}: {exc}", legal) from None
