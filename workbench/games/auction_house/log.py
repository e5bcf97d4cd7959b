"""The readable Auction House log: a game's events as ``LogEntry`` lines (the full record), and
the lines one seat saw (others' hands, offers and kitty cards face down)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from workbench.games.auction_house.cards import DECK, SUIT_NAMES, SUITS
from workbench.games.auction_house.hands import card_names
from workbench.games.auction_house.records import AuctionRecord, DealRecord, LogEntry
from workbench.games.auction_house.rules import PLAYERS, Rules

if TYPE_CHECKING:
    from workbench.games.auction_house.engine import State


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


def log_entries(state: State) -> Iterator[LogEntry]:
    """The game so far as readable events, deal by deal (the full record)."""
    for index, record in enumerate(state.history):
        yield from _deal_entries(
            state,
            record.deal,
            record.dealer,
            state.hands_history[index],
            record,
            state.kitty_history[index],
        )
    if not state.is_over:
        yield from _deal_entries(state, state.deal, state.dealer, state.dealt, None, state.kitty)
    else:
        result = state.result()
        names = ", ".join(f"seat {s}" for s in result.winners)
        shared = " (shared win)" if len(result.winners) > 1 else ""
        yield LogEntry(
            state.rules.deals,
            "end",
            None,
            f"game over: {names} wins{shared}; scores {list(result.scores)}",
        )


def _deal_entries(
    state: State,
    deal: int,
    dealer: int,
    dealt: tuple[int, ...],
    record: DealRecord | None,
    kitty: tuple[int | None, ...],
) -> Iterator[LogEntry]:
    rules = state.rules
    yield LogEntry(deal, "deal", None, f"deal {deal} of {rules.deals}: seat {dealer} deals")
    for seat in range(PLAYERS):
        yield LogEntry(
            deal, "hand", seat, f"seat {seat} is dealt {' '.join(card_names(dealt[seat]))}", ""
        )
    if record is not None:
        trump_card, passes, auction = record.trump_card, record.passes, record.auction
        trump_shown, tricks = True, record.tricks
        offers = auction.offers if auction else (None,) * PLAYERS
        starter = auction.starter if auction else None
        offers_made = PLAYERS - 1 if auction else 0
    else:
        trump_card = state.trump_card
        trump_shown = state.trump_shown
        passes = state.passes
        auction = None
        starter = state.starter
        offers = tuple(None if c is None else DECK[c] for c in state.offers)
        offers_made = state.n_offers
        tricks = state.public_tricks
        if state.taken is not None:
            auction = AuctionRecord(
                starter,
                DECK[state.face_up],
                SUITS[state.called],
                offers,
                DECK[state.taken],
                state.taken_from,
                state.forced,
            )
    turned = _trump_line(deal, dealer, trump_card, rules)
    if rules.trump_reveal == "before_auction" and trump_shown:
        yield turned
    for seat in passes:
        yield LogEntry(deal, "pass", seat, f"seat {seat} passes")
    if starter is not None:
        face_up = auction.face_up if auction else DECK[state.face_up]
        called = auction.called if auction else SUITS[state.called]
        yield LogEntry(
            deal,
            "start",
            starter,
            f"seat {starter} starts the auction: puts {face_up} face up and calls "
            f"{SUIT_NAMES[called]}",
        )
        order = [(starter + k) % PLAYERS for k in range(1, PLAYERS)]
        for seat in order[:offers_made]:
            yield LogEntry(
                deal,
                "offer",
                seat,
                f"seat {seat} offers {offers[seat]} face down",
                f"seat {seat} puts an offer face down",
            )
        if offers_made == PLAYERS - 1:
            shown = ", ".join(f"seat {s} {offers[s]}" for s in order)
            yield LogEntry(deal, "reveal", None, f"offers revealed: {shown}")
        if auction is not None:
            if auction.forced:
                how = f"must take {auction.taken}, the highest {SUIT_NAMES[called][:-1]} offered"
            else:
                how = f"was offered no {SUIT_NAMES[called][:-1]} and chooses {auction.taken}"
            yield LogEntry(
                deal,
                "take",
                starter,
                f"seat {starter} {how}: seat {auction.taken_from} gets {face_up}",
            )
    for k in range(PLAYERS):
        seat = (dealer + 1 + k) % PLAYERS
        if kitty[seat] is not None:
            yield LogEntry(
                deal,
                "kitty",
                seat,
                f"seat {seat} puts {DECK[kitty[seat]]} in the kitty",
                f"seat {seat} puts a card in the kitty",
            )
    if rules.trump_reveal == "after_kitty" and trump_shown:
        yield turned
    for number, trick in enumerate(tricks, start=1):
        plays = "; ".join(
            f"seat {(trick.leader + p) % PLAYERS} {card}" for p, card in enumerate(trick.cards)
        )
        yield LogEntry(
            deal, "trick", trick.winner, f"trick {number}: {plays} -> seat {trick.winner} wins"
        )
    if record is None and state.trick:
        plays = "; ".join(
            f"seat {(state.leader + p) % PLAYERS} {DECK[c]}" for p, c in enumerate(state.trick)
        )
        yield LogEntry(deal, "trick", None, f"trick {len(tricks) + 1} so far: {plays}")
    if record is not None:
        counts = "-".join(str(t) for t in record.tricks_won)
        head = (
            f"kitty revealed: {' '.join(record.kitty)} ({record.kitty_points} points"
            + (f" + {record.carried_in} carried in" if record.carried_in else "")
            + f"); tricks by seat {counts}: "
        )
        if record.kitty_winner is not None:
            w = record.kitty_winner
            tail = (
                f"seat {w} took most tricks and scores {record.at_stake} "
                f"-> {record.scores_after[w]}"
            )
        elif record.lost:
            tail = f"tie for most tricks in the last deal: {record.lost} points are lost"
        else:
            tail = f"tie for most tricks: {record.carried_out} points carry over to the next kitty"
        yield LogEntry(deal, "score", record.kitty_winner, head + tail)


def _trump_line(deal: int, dealer: int, trump_card: str | None, rules: Rules) -> LogEntry:
    turner = (dealer + 1) % PLAYERS
    if trump_card is None:
        return LogEntry(deal, "trump", None, f"deal {deal}: the trump deck is empty, no trump")
    return LogEntry(
        deal,
        "trump",
        turner,
        f"seat {turner} turns up {trump_card}: {SUIT_NAMES[trump_card[-1]]} are trump",
    )
