"""What one Auction House seat may see: the ``Observation`` agents decide from (built by
``State.observation``), and how its phase and progress read in a compiled row."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.games.auction_house.actions import PHASES
from workbench.games.auction_house.records import DealRecord, Trick
from workbench.games.auction_house.rules import PLAYERS, Rules


@dataclass(slots=True)
class Observation:
    """Exactly what ``player`` may know: the public record, its own hand, its own offer until
    the reveal, its own kitty card, and trump once turned."""

    player: int
    rules: Rules
    deal: int  # 1-based deal in progress (rules.deals + 1 once over)
    dealer: int
    phase: str
    to_play: int | None
    hand: tuple[str, ...]
    scores: tuple[int, ...]
    carried_in: int
    trump_shown: bool
    trump_card: str | None  # None before it is turned, and in a deal with no trump
    trump: str | None
    revealed_trumps: tuple[str, ...]  # trump cards turned so far this game, this deal's included
    passes: tuple[int, ...]
    starter: int | None
    face_up: str | None
    called: str | None
    offered: tuple[bool, ...]  # by seat: has put an offer face down
    offers: tuple[str | None, ...]  # by seat, once revealed (all None before)
    own_offer: str | None
    taken: str | None
    taken_from: int | None
    kitty_placed: tuple[bool, ...]
    own_kitty: str | None
    leader: int | None
    trick: tuple[str, ...]  # the trick in progress, in play order
    tricks: tuple[Trick, ...]  # this deal's finished tricks
    tricks_won: tuple[int, ...]
    history: tuple[DealRecord, ...]

    @property
    def played(self) -> tuple[str, ...]:
        """Every card played this deal, finished tricks first."""
        return tuple(card for trick in self.tricks for card in trick.cards) + self.trick

    def plays(self) -> list[tuple[int, str, str]]:
        """Every card played this deal, in order, as (seat, card, suit led)."""
        rounds = [(t.leader, t.cards) for t in self.tricks]
        if self.trick:
            rounds.append((self.leader, self.trick))
        return [
            ((leader + position) % PLAYERS, card, cards[0][-1])
            for leader, cards in rounds
            for position, card in enumerate(cards)
        ]

    def voids(self) -> tuple[frozenset[str], ...]:
        """By seat: suits it has shown it no longer holds (it did not follow them)."""
        shown: list[set[str]] = [set() for _ in range(PLAYERS)]
        for seat, card, led in self.plays():
            if card[-1] != led:
                shown[seat].add(led)
        return tuple(frozenset(s) for s in shown)

    def known_holdings(self) -> tuple[frozenset[str], ...]:
        """By seat: cards the whole table knows that seat holds (in hand, or put in the kitty)
        and has not played: the face-up card, revealed offers, the swapped cards."""
        known: list[set[str]] = [set() for _ in range(PLAYERS)]
        if self.starter is not None:
            if self.taken is None:
                known[self.starter].add(self.face_up)
            for seat, card in enumerate(self.offers):
                if card is not None:
                    known[seat].add(card)
            if self.taken is not None:
                known[self.taken_from].discard(self.taken)
                known[self.taken_from].add(self.face_up)
                known[self.starter].add(self.taken)
        played = set(self.played)
        return tuple(frozenset(cards - played) for cards in known)


#: A phase's code in the compiled engine's row (``layout``: the step engine's PHASES order).
PHASE_CODE = {name: code for code, name in enumerate(PHASES)}


def step_of(phase: str, passes: int, offered: int, placed: int, played: int) -> int:
    """The row's STEP: decisions already taken in the phase (plays: cards played this deal)."""
    return {"auction": passes, "offer": offered, "kitty": placed, "play": played}.get(phase, 0)
