"""The shared budget auction, step by step: sealed bids collected one team at a time, revealed
together, the card awarded, the ledger updated; a readable log on every state. Actions are bids
(ints, or the text on the slip: ``read_bid``), in the classroom "buy" or "pass"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.checks import instance_or_default, is_whole_number, whole_number
from workbench.errors import IllegalAction
from workbench.games.shared_budget.rules import (
    Project,
    Rules,
    _award,
    _standings,
    coverage_score,
    whole_numbers,
)
from workbench.kit.state import Evolving

BUY, PASS = "buy", "pass"
#: An action: a bid (an int, or the text written on the slip), or the classroom's BUY / PASS.
Action = int | str
#: A written whole number: ASCII digits, optionally negative ("+7" and "٥" are unreadable).
_WHOLE_NUMBER = re.compile(r"-?[0-9]+", re.ASCII)


@dataclass(frozen=True, slots=True)
class SealedBid:
    """A bid as written and as read: ``bid`` is 0 when the written bid counts as a pass."""

    written: str
    bid: int
    invalid: str | None = None


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One revealed round: the card, the priority, what each team wrote and paid."""

    round: int
    card: str
    priority: tuple[int, ...]
    written: tuple[str, ...]
    bids: tuple[int, ...]
    invalid: tuple[str | None, ...]
    winner: int | None
    price: int
    budgets_before: tuple[int, ...]
    budgets_after: tuple[int, ...]
    coverage_before: tuple[int, ...]
    coverage_after: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Observation:
    """What one team may know: the public ledger and record (``coverage`` as bit masks; which
    teams have written this round's bid, ``has_bid``), plus its own sealed bid, ``my_bid``."""

    rules: Rules
    player: int
    round_index: int
    card: Project | None
    upcoming: tuple[Project, ...]
    budgets: tuple[int, ...]
    coverage: tuple[int, ...]
    holdings: tuple[tuple[str, ...], ...]
    priority: tuple[int, ...]
    has_bid: tuple[bool, ...]
    my_bid: int | None
    history: tuple[RoundRecord, ...]

    @property
    def round(self) -> int:
        """The current round, 1-based."""
        return self.round_index + 1

    @property
    def budget(self) -> int:
        """This team's remaining budget."""
        return self.budgets[self.player]

    def coverage_names(self, seat: int | None = None) -> tuple[str, ...]:
        """Functions covered by ``seat`` (default: this team)."""
        return self.rules.names(self.coverage[self.player if seat is None else seat])


@dataclass(frozen=True, slots=True)
class Result:
    """Final standings: per seat score, remaining budget, rank and share of the win."""

    scores: tuple[int, ...]
    budgets: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[float, ...]
    coverage: tuple[tuple[str, ...], ...]
    cards: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class State(Evolving):
    """A position in the game; ``apply`` returns the next state and leaves this one unchanged."""

    rules: Rules
    seed: int
    round_index: int
    budgets: tuple[int, ...]
    holdings: tuple[tuple[int, ...], ...]
    coverage: tuple[int, ...]
    sealed: tuple[SealedBid | None, ...]
    history: tuple[RoundRecord, ...]
    log: tuple[str, ...]

    def __repr__(self) -> str:
        card = self.card
        where = "over" if card is None else f"round {self.round}/{self.rules.rounds} {card.name}"
        player = self.to_play
        to_play = "-" if player is None else self.rules.team_name(player)
        return f"State({where}, budgets {self.budgets}, to play {to_play})"

    @property
    def round(self) -> int:
        """The current round, 1-based (rounds + 1 once the game is over)."""
        return self.round_index + 1

    @property
    def is_over(self) -> bool:
        """True once every card has been offered."""
        return self.round_index >= self.rules.rounds

    @property
    def card(self) -> Project | None:
        """The card on offer, or None when the game is over."""
        return None if self.is_over else self.rules.projects[self.round_index]

    @property
    def to_play(self) -> int | None:
        """The seat to write the next sealed bid (teams in seat order), None when over."""
        if self.is_over:
            return None
        return self.sealed.index(None)

    @property
    def priority(self) -> tuple[int, ...]:
        """This round's tie priority, earliest first."""
        if self.rules.variant == "classroom":
            return (0,)
        return self.rules.priority_order(self.round_index)

    def legal_actions(self) -> tuple[int, ...] | tuple[str, ...]:
        """Bids 0..remaining budget (classroom: 'pass', and 'buy' when affordable)."""
        player = self.to_play
        if player is None:
            return ()
        if self.rules.variant == "classroom":
            price = self.rules.projects[self.round_index].price or 0
            return (PASS, BUY) if price <= self.budgets[0] else (PASS,)
        return tuple(range(self.budgets[player] + 1))

    def apply(self, action: object) -> State:
        """Write the next team's sealed bid (or the group's choice); the state after it."""
        player = self.to_play
        if player is None:
            raise IllegalAction(action, "the game is over", ())
        if self.rules.variant == "classroom":
            return self._apply_classroom(action)
        sealed = _read_bid(action, self.budgets[player])
        if sealed.invalid is not None and self.rules.strict_bids:
            raise IllegalAction(action, f"{sealed.invalid} (strict bids)", self.legal_actions())
        team = self.rules.team_name(player)
        bids = (*self.sealed[:player], sealed, *self.sealed[player + 1 :])
        log = (*self.log, f"{team} writes a sealed bid")
        if None in bids:
            return self._evolve(sealed=bids, log=log)
        return self._evolve(log=log)._reveal(bids)  # type: ignore[arg-type]

    def observation(self, player: int) -> Observation:
        """What ``player`` may know: everything public, plus its own sealed bid this round."""
        last = self.rules.players - 1
        player = whole_number("player", player, low=0, high=last, allowed=f"a seat 0–{last}")
        own = self.sealed[player] if not self.is_over else None
        projects = self.rules.projects
        return Observation(
            self.rules, int(player), self.round_index, self.card,
            projects[self.round_index + 1 :], self.budgets, self.coverage,
            tuple(tuple(projects[i].name for i in held) for held in self.holdings),
            () if self.is_over else self.priority, tuple(bid is not None for bid in self.sealed),
            None if own is None else own.bid, self.history,
        )  # fmt: skip

    def log_for(self, player: int | None) -> list[str]:
        """The log as lines of text, only what ``player`` saw; every line is public (sealed
        amounts appear only once revealed), so it is the full record for any seat or ``None``."""
        if player is not None:
            last = self.rules.players - 1
            whole_number("player", player, low=0, high=last, allowed=f"a seat 0–{last} or None")
        return list(self.log)

    def result(self) -> Result:
        """Final scores (functions covered), remaining budgets, ranks, winners, win shares."""
        if not self.is_over:
            raise ValueError(
                f"the game is not over: round {self.round} of {self.rules.rounds} is being played"
            )
        scores = tuple(coverage_score(mask) for mask in self.coverage)
        if self.rules.variant == "classroom":  # the group's plan succeeds covering every function
            complete = scores[0] == len(self.rules.functions)
            ranks, winners, shares = (1,), ((0,) if complete else ()), (float(complete),)
        else:
            ranks, winners, shares = _standings(scores, self.budgets, self.rules.final_tiebreak)
        projects = self.rules.projects
        return Result(
            scores, self.budgets, ranks, winners, shares,
            tuple(self.rules.names(mask) for mask in self.coverage),
            tuple(tuple(projects[i].name for i in held) for held in self.holdings),
        )  # fmt: skip

    def _reveal(self, sealed: tuple[SealedBid, ...]) -> State:
        rules = self.rules
        card = rules.projects[self.round_index]
        priority = self.priority
        winner, price, budgets, coverage = _resolve_round(
            rules, self.round_index, self.budgets, self.coverage, [s.bid for s in sealed]
        )
        names = [rules.team_name(seat) for seat in range(rules.teams)]
        revealed = ", ".join(f"{name} {s.written}" for name, s in zip(names, sealed, strict=True))
        lines = [f"bids revealed: {revealed}"] + [
            f"{names[seat]}'s bid {s.written} is {s.invalid}: read as a pass"
            for seat, s in enumerate(sealed) if s.invalid is not None
        ]  # fmt: skip
        holdings = self.holdings
        if winner is None:
            lines.append(f"no positive bid: {card.name} stays unallocated")
        else:
            tied = [rules.team_name(t) for t in priority if sealed[t].bid == price]
            if len(tied) > 1:
                lines.append(
                    f"tie at {price} between {', '.join(tied)}: "
                    f"{names[winner]} is earlier in this round's priority"
                )
            lines.append(
                f"{names[winner]} wins {card.name} for {price} "
                f"({names[winner]} {self.budgets[winner]} -> {budgets[winner]})"
            )
            holdings = tuple((*held, self.round_index) if seat == winner else held
                             for seat, held in enumerate(holdings))  # fmt: skip
        return self._next_round(priority, sealed, winner, price, budgets, holdings, coverage, lines)

    def _apply_classroom(self, action: object) -> State:
        rules = self.rules
        card = rules.projects[self.round_index]
        legal = self.legal_actions()
        if not (isinstance(action, str) or is_whole_number(action)):
            raise TypeError(
                f"in the classroom variant the group chooses 'buy' or 'pass' (a str), got "
                f"{action!r} ({type(action).__name__})"
            )
        if action not in legal:
            reason = (f"{card.name} costs {card.price} and the group has {self.budgets[0]}"
                      if action == BUY else "the group may only 'buy' or 'pass'")  # fmt: skip
            raise IllegalAction(action, reason, legal)
        price = (card.price or 0) if action == BUY else 0
        holdings, coverage, budgets = self.holdings, self.coverage, self.budgets
        if action == BUY:
            holdings = ((*holdings[0], self.round_index),)
            coverage = (coverage[0] | rules.card_masks()[self.round_index],)
            budgets = (budgets[0] - price,)
            line = f"the group buys {card.name} for {price} ({self.budgets[0]} -> {budgets[0]})"
        else:
            line = f"the group passes on {card.name} (price {card.price})"
        slip = SealedBid(str(action), price)
        winner = 0 if action == BUY else None
        return self._next_round((0,), (slip,), winner, price, budgets, holdings, coverage, [line])

    def _next_round(
        self, priority: tuple[int, ...], sealed: Sequence[SealedBid], winner: int | None,
        price: int, budgets: tuple[int, ...], holdings: tuple[tuple[int, ...], ...],
        coverage: tuple[int, ...], lines: list[str],
    ) -> State:  # fmt: skip
        """The next round's state once this round is resolved, its record and log added."""
        record = RoundRecord(
            self.round, self.rules.projects[self.round_index].name, priority,
            tuple(s.written for s in sealed), tuple(s.bid for s in sealed),
            tuple(s.invalid for s in sealed), winner, price, self.budgets, budgets,
            self.coverage, coverage,
        )  # fmt: skip
        state = self._evolve(
            round_index=self.round_index + 1, budgets=budgets, holdings=holdings,
            coverage=coverage, sealed=(None,) * self.rules.players,
            history=(*self.history, record), log=(*self.log, *lines),
        )  # fmt: skip
        last = _final_line(state) if state.is_over else _round_header(state)
        return state._evolve(log=(*state.log, last))


def new_game(rules: Rules | None = None, *, seed: int) -> State:
    """The start of a game: every team holds the full budget, the first card is on offer."""
    rules = instance_or_default("rules", rules, Rules, Rules, "a shared_budget Rules or None")
    seed = whole_number("seed", seed, low=0, allowed="a non-negative int")
    players = rules.players
    names = ", ".join(p.label for p in rules.projects)
    start = (
        f"{players} team(s) with {rules.budget} credits each; cards in order: {names}"
        if rules.variant == "auction"
        else f"classroom market: the group has {rules.budget} credits; cards at fixed prices: "
        + ", ".join(f"{p.label} {p.price}" for p in rules.projects)
    )
    state = State(rules, int(seed), 0, (rules.budget,) * players, ((),) * players,
                  (0,) * players, (None,) * players, (), (start,))  # fmt: skip
    return state._evolve(log=(*state.log, _round_header(state)))


#: A round's outcome: (winner or None, price, budgets after, coverage after).
RoundOutcome = tuple[int | None, int, tuple[int, ...], tuple[int, ...]]


def resolve_round(
    rules: Rules, round_index: int, budgets: Sequence[int], coverage: Sequence[int],
    bids: Sequence[int],
) -> RoundOutcome:  # fmt: skip
    """(winner, price, budgets after, coverage after) once the round's valid bids are revealed:
    the winner pays exactly its bid and gains the card's functions; nobody else pays."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a shared_budget Rules, got {type(rules).__name__}")
    budgets, coverage, bids = map(whole_numbers, ("budgets", "coverage", "bids"),
                                  (budgets, coverage, bids))  # fmt: skip
    if not len(budgets) == len(coverage) == len(bids) == rules.teams:
        raise ValueError(
            f"budgets, coverage and bids must give one number per team ({rules.teams}), got "
            f"{budgets!r}, {coverage!r} and {bids!r}"
        )
    if any(not 0 <= bid <= budget for bid, budget in zip(bids, budgets, strict=True)):
        raise ValueError(
            f"bids must be valid bids, each from 0 to its team's budget: {bids!r} with budgets "
            f"{budgets!r}"
        )
    return _resolve_round(rules, round_index, budgets, coverage, bids)


def _resolve_round(
    rules: Rules, round_index: int, budgets: Sequence[int], coverage: Sequence[int],
    bids: Sequence[int],
) -> RoundOutcome:  # fmt: skip
    """``resolve_round`` on arguments already known to be good (the engine's)."""
    winner = _award(bids, rules.priority_order(round_index))
    if winner is None:
        return None, 0, tuple(budgets), tuple(coverage)
    price = int(bids[winner])
    card_mask = rules.card_masks()[round_index]
    new_budgets = tuple(b - price if seat == winner else b for seat, b in enumerate(budgets))
    new_coverage = tuple(c | card_mask if seat == winner else c for seat, c in enumerate(coverage))
    return winner, price, new_budgets, new_coverage


def read_bid(action: object, budget: int) -> SealedBid:
    """A written bid (an int, or the slip's text in digits 0-9) as read: negative, over-budget
    or unreadable ones ("five", "+7") count as a pass, with the reason; a float, bool or None
    is no bid at all (TypeError)."""
    budget = whole_number("budget", budget, low=0, allowed="a non-negative int")
    return _read_bid(action, budget)


def _read_bid(action: object, budget: int) -> SealedBid:
    """``read_bid`` with a budget already known to be good (the engine's)."""
    if is_whole_number(action):
        value: int | None = int(action)  # type: ignore[call-overload]
        written = str(value)
    elif isinstance(action, str):
        text = action.strip()
        value = None
        if _WHOLE_NUMBER.fullmatch(text):  # beyond 18 digits only the sign matters
            value = int(text) if len(text) <= 18 else (-1 if text[0] == "-" else budget + 1)
        written = repr(action)
    else:
        raise TypeError(
            f"a bid must be a whole number (int) or the text written on the slip (str), got "
            f"{action!r} ({type(action).__name__})"
        )
    if value is None:
        return SealedBid(written, 0, "unreadable (not a whole number in digits 0-9)")
    if not 0 <= value <= budget:
        reason = "negative" if value < 0 else f"over the remaining budget {budget}"
        return SealedBid(written, 0, reason)
    return SealedBid(written, value)


def _round_header(state: State) -> str:
    rules = state.rules
    card = rules.projects[state.round_index]
    if rules.variant == "classroom":
        group = state.budgets[0]
        return f"round {state.round}: {card.label} at {card.price}; the group has {group}"
    order = ", ".join(rules.team_name(seat) for seat in state.priority)
    ledger = ", ".join(f"{rules.team_name(s)} {b}" for s, b in enumerate(state.budgets))
    return f"round {state.round}: {card.label}; priority {order}; budgets {ledger}"


def _final_line(state: State) -> str:
    result = state.result()
    rules = state.rules
    parts = ", ".join(f"{rules.team_name(seat)} {score} function(s) ({budget} left)"
                      for seat, (score, budget) in enumerate(zip(result.scores, result.budgets,
                                                                  strict=True)))  # fmt: skip
    if rules.variant == "classroom":
        verdict = "the plan covers every function" if result.winners else "the plan is incomplete"
    elif len(result.winners) == 1:
        verdict = f"{rules.team_name(result.winners[0])} wins"
    else:
        verdict = "shared result: " + ", ".join(rules.team_name(s) for s in result.winners)
    return f"final: {parts}; {verdict}"
