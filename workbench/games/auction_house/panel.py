"""The Auction House panel of the play-along table: what the analyses know at your decisions.

- each opponent's hand by suit as the uniform sampler sees it: the expected number of cards of
  each suit (and the cards the table saw it keep), over every deal of the hidden cards that
  agrees with what you have seen, each equally likely: exact, from the sampler's own counting
  (``expected_holdings``; checked against enumeration in the tests);
- the exact trump odds (``trump_odds``): the face-down trump card's suit while it is hidden,
  and the next deal's;
- the kitty so far: the points carried in, the cards placed (yours known, the others' exact
  expected points);
- what the auction is worth: each role's change in the chance of winning the kitty, its
  tricks and points, every deal played with and without the auction by fitted players
  (``auction_value``, an estimate with its interval and number of deals).

While the game is on the panel reads only your observation; after it, the full record.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import polars as pl

from workbench.games.auction_house.cards import DECK, POINTS, SUIT_NAMES, SUITS
from workbench.games.auction_house.hidden import Holding, expected_holdings
from workbench.games.auction_house.kitty import auction_value, trump_odds
from workbench.games.auction_house.observation import Observation
from workbench.games.auction_house.rules import PLAYERS, Rules
from workbench.panels import CELL, LEFT, Panel, escape, section

#: Deals played (each twice: with and without the auction) for "what the auction is worth".
AUCTION_DEALS = 13_000
#: Its seed (fixed: the panel shows the same figures every time for a rule set).
AUCTION_SEED = 20240611


def holdings_frame(holdings: Sequence[Holding]) -> pl.DataFrame:
    """``expected_holdings`` as a frame: one row per seat and suit (expected cards, exact as
    text), with the seat's cards in hand and the cards seen with it."""
    rows = [
        {
            "seat": h.seat, "suit": SUIT_NAMES[suit], "expected": float(count),
            "exact": str(count), "cards": h.cards, "seen": " ".join(h.known),
        }
        for h in holdings
        for suit, count in zip(SUITS, h.suits, strict=True)
    ]
    schema = {"seat": pl.Int64, "suit": pl.String, "expected": pl.Float64, "exact": pl.String,
              "cards": pl.Int64, "seen": pl.String}  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


@functools.lru_cache(maxsize=8)
def auction_worth(rules: Rules) -> pl.DataFrame:
    """``auction_value`` for ``rules`` with fitted players (``AUCTION_DEALS`` deals, fixed
    seed), once per rule set."""
    return auction_value(rules, "fitted", deals=AUCTION_DEALS, seed=AUCTION_SEED)


def trump_lines(observation: Observation) -> list[str]:
    """The trump odds in words: this deal's face-down card while hidden, then the next deal."""
    rules, deal = observation.rules, observation.deal
    lines = []
    if deal <= rules.deals:
        if not rules.has_trump(deal):
            lines.append("This deal has no trump.")
        elif observation.trump_shown:
            lines.append(f"Trump this deal: <b>{SUIT_NAMES[observation.trump]}</b> "
                         f"({escape(observation.trump_card)}).")  # fmt: skip
        else:
            lines.append("This deal's face-down trump card: " + _odds(
                trump_odds(observation.revealed_trumps)))  # fmt: skip
    following = deal + 1
    if following <= rules.deals:
        if not rules.has_trump(following):
            lines.append(f"Deal {following} has no trump.")
        else:
            seen = list(observation.revealed_trumps)
            if rules.has_trump(deal) and not observation.trump_shown:
                lines.append(f"Deal {following}: as this deal's, until its card is turned.")
            else:
                lines.append(f"Deal {following}: " + _odds(trump_odds(seen)))
    return lines


def _odds(odds: dict[str, Fraction]) -> str:
    return ", ".join(f"{SUIT_NAMES.get(s, s)} {p}" for s, p in odds.items() if p) + " (exact)"


def knowledge(observation: Observation) -> str:
    """What the seat knew, for a review's row: its hand by suit, trump and the kitty's stake."""
    by_suit: dict[str, list[str]] = {}
    for card in observation.hand:
        by_suit.setdefault(card[-1], []).append(card[:-1])
    hand = " ".join(f"{s}:{','.join(ranks)}" for s, ranks in sorted(by_suit.items()))
    trump = observation.trump or ("none" if not observation.rules.has_trump(observation.deal)
                                  else "face down")  # fmt: skip
    parts = [
        f"deal {observation.deal}, {observation.phase}", f"hand {hand or 'empty'}",
        f"trump {trump}", f"carried in {observation.carried_in}",
        f"tricks {list(observation.tricks_won)}", f"scores {list(observation.scores)}",
    ]
    return "; ".join(parts)


class AuctionHousePanel(Panel):
    """The panel (see the module docstring). After ``update``: ``holdings`` (the opponents'
    hands by suit, a ``holdings_frame``; None once the game is over), ``auction`` (what the
    auction is worth, ``auction_value``'s frame) and ``errors``."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.view = widgets.HTML()
        self.view.add_class("wb-panel-view")
        self.holdings: pl.DataFrame | None = None
        self.auction: pl.DataFrame | None = None
        self.errors: dict[str, str] = {}
        self._cache: dict[int, pl.DataFrame | None] = {}
        title = widgets.HTML("<b>What the analyses know</b> (Auction House)")
        super().__init__([title, self.view])
        self.add_class("wb-panel")

    def update(self, session: Any) -> None:
        """Recompute for the current position (the holdings once per position)."""
        self.session = session
        self.errors = {}
        observation: Observation = session.observation()
        self.auction = auction_worth(session.rules)
        if session.is_over:
            self.holdings = None
        else:
            if session.step not in self._cache:
                try:
                    self._cache[session.step] = holdings_frame(expected_holdings(observation))
                except ValueError as exc:
                    self._cache[session.step] = None
                    self.errors["holdings"] = str(exc)
            self.holdings = self._cache[session.step]
        self.view.value = self._draw(observation)

    def _draw(self, observation: Observation) -> str:
        parts = []
        if self.holdings is not None:
            parts.append(self._draw_holdings())
        elif "holdings" in self.errors:
            parts.append(f"<span style='color:#b00'>{escape(self.errors['holdings'])}</span>")
        if observation.deal <= observation.rules.deals:
            parts.append(section("Trump odds", "<br>".join(trump_lines(observation))))
            parts.append(section("The kitty so far", self._draw_kitty(observation)))
        parts.append(section("What the auction is worth", self._draw_auction(observation)))
        return "".join(parts)

    def _draw_holdings(self) -> str:
        frame = self.holdings
        head = "".join(f"<th style='{CELL}'>{SUIT_NAMES[s]}</th>" for s in SUITS)
        rows = ""
        for (seat,), part in frame.group_by("seat", maintain_order=True):
            cells = "".join(f"<td style='{CELL}'>{value:.2f}</td>" for value in part["expected"])
            seen = part["seen"][0]
            rows += (
                f"<tr><th style='{LEFT}'>seat {seat} ({escape(self.session.label(seat))})</th>"
                f"{cells}<td style='{CELL}'>{part['cards'][0]}</td>"
                f"<td style='{LEFT}'>{escape(seen) or '–'}</td></tr>"
            )
        table = (
            f"<table class='wb-panel-holdings' style='border-collapse:collapse'><tr><th></th>"
            f"{head}<th style='{CELL}'>cards</th><th style='{LEFT}'>seen with it</th></tr>"
            f"{rows}</table>"
        )
        note = ("<div style='color:#666'>expected cards of each suit in hand: exact, every deal "
                "of the unseen cards that fits what you saw (voids shown, cards seen kept) "
                "counted once</div>")  # fmt: skip
        return section("Opponents' hands by suit (as the uniform sampler sees them)", table + note)

    def _draw_kitty(self, observation: Observation) -> str:
        me = observation.player
        placed = []
        expected = {}
        if self.holdings is not None and any(observation.kitty_placed):
            for holding in expected_holdings(observation):
                if holding.kitty_points is not None:
                    expected[holding.seat] = holding.kitty_points
        for seat in range(PLAYERS):
            if not observation.kitty_placed[seat]:
                continue
            if seat == me:
                card = observation.own_kitty
                placed.append(f"yours {escape(card)} ({POINTS[DECK.index(card)]} points)")
            elif seat in expected:
                placed.append(f"seat {seat}: about {float(expected[seat]):.1f} points "
                              "(exact expectation)")  # fmt: skip
            else:
                placed.append(f"seat {seat}: face down")
        cards = "; ".join(placed) or "no card placed yet"
        return (f"Carried in: <b>{observation.carried_in}</b> points. Cards placed: {cards}. "
                f"Tricks so far: {list(observation.tricks_won)}.")  # fmt: skip

    def _draw_auction(self, observation: Observation) -> str:
        frame = self.auction
        role = None
        if observation.starter is not None:
            me = observation.player
            role = ("starter" if observation.starter == me
                    else "seller" if observation.taken_from == me else "offerer")  # fmt: skip
        rows = ""
        for r in frame.iter_rows(named=True):
            mark = " style='background:#fff3bf'" if r["role"] == role else ""
            rows += (
                f"<tr{mark}><td style='{LEFT}'>{r['role']}</td>"
                + "".join(
                    f"<td style='{CELL}'>{r[c]:+.3f} <span style='color:#666'>"
                    f"[{r[c + '_low']:+.3f}, {r[c + '_high']:+.3f}]</span></td>"
                    for c in ("win_change", "tricks_change", "points_change")
                )
                + "</tr>"
            )
        head = "".join(f"<th style='{CELL}'>{h}</th>" for h in
                       ("role", "kitty won", "tricks", "kitty points"))  # fmt: skip
        deals = int(frame["deals"][0])
        note = (f"<div style='color:#666'>the change an auction makes, per deal, for each role "
                f"(95% intervals): {deals:,} deals of fitted players, each played with and "
                "without the auction on the same cards; your role highlighted</div>")  # fmt: skip
        return f"<table style='border-collapse:collapse'><tr>{head}</tr>{rows}</table>{note}"

    def describe(self, observation: Observation) -> str | None:
        """Your hand by suit, trump and the deal's state."""
        if observation.phase == "over":
            return None
        return f"<div style='margin-bottom:4px'>{escape(knowledge(observation))}</div>"


def make_panel(session: Any) -> AuctionHousePanel:
    """The Auction House panel for a table session."""
    return AuctionHousePanel(session)


__all__ = ["AuctionHousePanel", "Holding", "expected_holdings", "holdings_frame", "knowledge",
           "make_panel", "trump_lines"]  # fmt: skip
