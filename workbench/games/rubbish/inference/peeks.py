"""What a blind peek can show: where it looks, how likely each sight is given the bid, and
what a peek argument means."""

from __future__ import annotations

from fractions import Fraction

from workbench.checks import is_whole_number
from workbench.games.rubbish.cards import Bid, peek_odds, peek_pool, peek_source
from workbench.games.rubbish.engine import Peek
from workbench.games.rubbish.inference.arguments import _text

PeekLike = Peek | tuple[int | None, str] | int | None
SOURCES = ("held_out", "unused")


def _peek(peek: PeekLike, cards: tuple[int, ...], n_cards: int) -> tuple[int | None, str] | None:
    """A peek as (card, source); a bare card value takes the source the rules imply."""
    if peek is None:
        return None
    expected = peek_source(n_cards)
    if isinstance(peek, Peek):
        card, source = peek.card, peek.source
    elif is_whole_number(peek):
        card, source = int(peek), expected
    elif isinstance(peek, tuple) and len(peek) == 2:
        card, source = peek
    else:
        raise TypeError(
            f"peek must be (card, source), a Peek, a card value or None; got {peek!r}; source "
            f"is one of {SOURCES}"
        )
    if card is not None and not is_whole_number(card):
        raise TypeError(f"peek: the card seen must be a card value or None, got {card!r}")
    if not isinstance(source, str) or source not in SOURCES:
        raise ValueError(f"peek source must be one of {SOURCES}, got {source!r}")
    if source != expected:
        raise ValueError(
            f"a peek among the {source.replace('_', '-')} cards cannot have happened with "
            f"{n_cards} card(s) held out: the peeker looks among the held-out cards only when 2 "
            f"or more are held out, else among the unused ones (source {expected!r})"
        )
    if card is not None and not (is_whole_number(card) and int(card) in cards):
        raise ValueError(
            f"peeked card {card!r} cannot have happened: it is not among the available cards "
            f"{_text(cards)}"
        )
    return (None if card is None else int(card), source)


def likelihood(
    available: tuple[int, ...], bid: tuple[int, ...], card: int | None, source: str
) -> Fraction:
    """Exact P(a blind peek shows ``card`` from ``source`` | the bidder held out ``bid``)
    (``cards.peek_odds``); ``card`` None: nothing to see."""
    return Fraction(*peek_odds(available, bid, card, source))


def peek_chances(target: int, available: tuple[int, ...], bid: Bid) -> list[tuple[Peek, Fraction]]:
    """What the next bidder's blind peek at ``bid`` (by ``target``, who could use
    ``available``) shows, with its probability (``cards.peek_pool``)."""
    pool, source = peek_pool(available, bid.cards)
    if not pool:
        return [(Peek(target, None, source), Fraction(1))]
    return [
        (Peek(target, card, source), Fraction(pool.count(card), len(pool)))
        for card in sorted(set(pool), reverse=True)
    ]


def _none_first(card: int | None) -> int:
    """Sort key for a card seen or None (nothing seen): nothing first, then low to high."""
    return -1 if card is None else card
