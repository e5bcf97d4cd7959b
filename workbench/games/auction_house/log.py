"""The Auction House log: the game as readable events (``LogEntry``), deal by deal, and the
lines one seat saw (others' hands, offers and kitty cards face down)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from workbench.games.auction_house.cards import DECK, SUIT_NAMES, card_names
from workbench.games.auction_house.records import AuctionRecord, DealRecord, LogEntry, Result, Trick
from workbench.games.auction_house.rules import PLAYERS, Rules


class DealSoFar(NamedTuple):
    """A deal as the log tells it, cards in notation (None: not yet): in progress, or ``told``."""

    deal: int
    dealer: int
    dealt: tuple[int, ...]  # hand masks as dealt
    kitty: tuple[int | None, ...]  # kitty card index by seat
    trump_card: str | None
    trump_shown: bool
    passes: tuple[int, ...]
    starter: int | None
    face_up: str | None
    called: str | None
    offers: tuple[str | None, ...]  # by seat
    offers_made: int
    auction: AuctionRecord | None  # once the starter has taken a card
    tricks: tuple[Trick, ...]
    leader: int
    trick: tuple[str, ...]  # the trick in progress


def told(record: DealRecord, dealt: tuple[int, ...], kitty: tuple[int, ...]) -> DealSoFar:
    """A finished deal as the log tells it (with its private dealt hands and kitty cards)."""
    auction = record.auction
    return DealSoFar(
        record.deal, record.dealer, dealt, kitty, record.trump_card, True, record.passes,
        auction and auction.starter, auction and auction.face_up, auction and auction.called,
        auction.offers if auction else (None,) * PLAYERS, PLAYERS - 1 if auction else 0,
        auction, record.tricks, 0, (),
    )  # fmt: skip


def lines_for(entries: Iterable[LogEntry], player: int | None) -> list[str]:
    """The text of ``entries`` as seat ``player`` (already checked) saw them: another seat's
    private entry as its ``hidden`` text, or not at all; ``None``: the full record."""
    lines = []
    for entry in entries:
        if player is None or entry.hidden is None or entry.seat == player:
            lines.append(entry.text)
        elif entry.hidden:
            lines.append(entry.hidden)
    return lines


def log_entries(
    rules: Rules, history: Sequence[DealRecord], hands: Sequence[tuple[int, ...]],
    kitties: Sequence[tuple[int, ...]], current: DealSoFar | None, result: Result | None,
) -> Iterator[LogEntry]:  # fmt: skip
    """The game so far as readable events (the full record): the finished deals (their records,
    dealt hands and kitty cards by seat), the deal in progress, and the result once over."""
    for record, dealt, kitty in zip(history, hands, kitties, strict=True):
        yield from _deal_entries(rules, told(record, dealt, kitty), record)
    if current is not None:
        yield from _deal_entries(rules, current, None)
    if result is not None:
        names = ", ".join(f"seat {s}" for s in result.winners)
        shared = " (shared win)" if len(result.winners) > 1 else ""
        text = f"game over: {names} wins{shared}; scores {list(result.scores)}"
        yield LogEntry(rules.deals, "end", None, text)


def _deal_entries(rules: Rules, so_far: DealSoFar, record: DealRecord | None) -> Iterator[LogEntry]:
    deal, dealer, starter, auction = so_far.deal, so_far.dealer, so_far.starter, so_far.auction
    yield LogEntry(deal, "deal", None, f"deal {deal} of {rules.deals}: seat {dealer} deals")
    for seat in range(PLAYERS):
        dealt = " ".join(card_names(so_far.dealt[seat]))
        yield LogEntry(deal, "hand", seat, f"seat {seat} is dealt {dealt}", "")
    turned = _trump_line(deal, dealer, so_far.trump_card)
    if rules.trump_reveal == "before_auction" and so_far.trump_shown:
        yield turned
    for seat in so_far.passes:
        yield LogEntry(deal, "pass", seat, f"seat {seat} passes")
    if starter is not None:
        called = so_far.called
        yield LogEntry(deal, "start", starter, f"seat {starter} starts the auction: puts "
                       f"{so_far.face_up} face up and calls {SUIT_NAMES[called]}")  # fmt: skip
        order = [(starter + k) % PLAYERS for k in range(1, PLAYERS)]
        offers = so_far.offers
        for seat in order[: so_far.offers_made]:
            yield LogEntry(deal, "offer", seat, f"seat {seat} offers {offers[seat]} face down",
                           f"seat {seat} puts an offer face down")  # fmt: skip
        if so_far.offers_made == PLAYERS - 1:
            shown = ", ".join(f"seat {s} {offers[s]}" for s in order)
            yield LogEntry(deal, "reveal", None, f"offers revealed: {shown}")
        if auction is not None:
            if auction.forced:
                how = f"must take {auction.taken}, the highest {SUIT_NAMES[called][:-1]} offered"
            else:
                how = f"was offered no {SUIT_NAMES[called][:-1]} and chooses {auction.taken}"
            yield LogEntry(deal, "take", starter, f"seat {starter} {how}: seat "
                           f"{auction.taken_from} gets {so_far.face_up}")  # fmt: skip
    for k in range(PLAYERS):
        seat = (dealer + 1 + k) % PLAYERS
        if so_far.kitty[seat] is not None:
            yield LogEntry(deal, "kitty", seat,
                           f"seat {seat} puts {DECK[so_far.kitty[seat]]} in the kitty",
                           f"seat {seat} puts a card in the kitty")  # fmt: skip
    if rules.trump_reveal == "after_kitty" and so_far.trump_shown:
        yield turned
    for number, trick in enumerate(so_far.tricks, start=1):
        text = f"trick {number}: {_plays(trick.leader, trick.cards)} -> seat {trick.winner} wins"
        yield LogEntry(deal, "trick", trick.winner, text)
    if so_far.trick:
        plays = _plays(so_far.leader, so_far.trick)
        yield LogEntry(deal, "trick", None, f"trick {len(so_far.tricks) + 1} so far: {plays}")
    if record is not None:
        yield _score_line(record)


def _plays(leader: int, cards: Sequence[str]) -> str:
    """A trick's cards as "seat 2 5H; seat 3 AH; ...", from its leader on."""
    return "; ".join(f"seat {(leader + p) % PLAYERS} {card}" for p, card in enumerate(cards))


def _score_line(record: DealRecord) -> LogEntry:
    counts = "-".join(str(t) for t in record.tricks_won)
    head = (
        f"kitty revealed: {' '.join(record.kitty)} ({record.kitty_points} points"
        + (f" + {record.carried_in} carried in" if record.carried_in else "")
        + f"); tricks by seat {counts}: "
    )
    if record.kitty_winner is not None:
        w = record.kitty_winner
        tail = f"seat {w} took most tricks and scores {record.at_stake} -> {record.scores_after[w]}"
    elif record.lost:
        tail = f"tie for most tricks in the last deal: {record.lost} points are lost"
    else:
        tail = f"tie for most tricks: {record.carried_out} points carry over to the next kitty"
    return LogEntry(record.deal, "score", record.kitty_winner, head + tail)


def _trump_line(deal: int, dealer: int, trump_card: str | None) -> LogEntry:
    turner = (dealer + 1) % PLAYERS
    if trump_card is None:
        return LogEntry(deal, "trump", None, f"deal {deal}: the trump deck is empty, no trump")
    text = f"seat {turner} turns up {trump_card}: {SUIT_NAMES[trump_card[-1]]} are trump"
    return LogEntry(deal, "trump", turner, text)
