"""What an Auction House game records: each finished deal with its auction and tricks as the
table saw them, the log's entries, and the final ``Result``."""

from __future__ import annotations

from typing import NamedTuple


class AuctionRecord(NamedTuple):
    """A deal's auction as the table saw it once the offers were revealed."""

    starter: int
    face_up: str
    called: str
    offers: tuple[str | None, ...]  # by seat; None for the starter
    taken: str
    taken_from: int
    forced: bool  # True: the highest offered card of the called suit had to be taken


class Trick(NamedTuple):
    """A finished trick: the seat that led, the cards in play order, the seat that won it."""

    leader: int
    cards: tuple[str, ...]  # in play order
    winner: int


class DealRecord(NamedTuple):
    """A finished deal, as every player saw it (the kitty is revealed at scoring, as a pile)."""

    deal: int
    dealer: int
    trump_card: str | None
    trump: str | None
    passes: tuple[int, ...]
    auction: AuctionRecord | None
    kitty: tuple[str, ...]
    kitty_points: int  # this deal's four cards
    carried_in: int
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    kitty_winner: int | None
    carried_out: int
    lost: int
    scores_after: tuple[int, ...]

    @property
    def at_stake(self) -> int:
        """Points the deal's trick leader would score: its kitty plus what was carried in."""
        return self.kitty_points + self.carried_in


class LogEntry(NamedTuple):
    """One line of the log: ``text`` is the full record; ``seat`` (when set) is the only seat
    that saw it so, others see ``hidden`` instead ("" = nothing)."""

    deal: int
    kind: str
    seat: int | None
    text: str
    hidden: str | None = None


class Result(NamedTuple):
    """Final standings. Ranks are 1 for the best; tied players share a rank and the win."""

    scores: tuple[int, ...]
    kitties_won: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    lost: int  # points lost to a tie in the last deal
