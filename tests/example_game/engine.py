"""The example game step by step: sealed bids (ints from 0 to the seat's budget) collected one
seat at a time, hidden until all are in, then revealed together and the item awarded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from workbench.checks import is_whole_number, whole_number
from workbench.errors import IllegalAction
from workbench.kit.seeding import SeedLike, generator
from workbench.kit.state import EVERYONE, Evolving, Standings, fields_of, lines_for

from .rules import Rules, award


class RoundRecord(NamedTuple):
    """One revealed round: the item (0-based), every bid, the winner (None: unsold), price."""

    item: int
    bids: tuple[int, ...]
    winner: int | None
    price: int


@dataclass(frozen=True)
class Observation:
    """What one seat knows: its own values, every budget, who has bid, its own sealed bid."""

    rules: Rules
    player: int
    round: int
    my_values: tuple[int, ...]
    budgets: tuple[int, ...]
    has_bid: tuple[bool, ...]
    my_bid: int | None
    history: tuple[RoundRecord, ...]

    @property
    def value(self) -> int:  # of the item on offer (0 once the game is over)
        return self.my_values[self.round - 1] if self.round <= len(self.my_values) else 0


class State(Evolving):
    """The values, the revealed rounds and this round's sealed bids (budgets and items won
    follow); ``apply`` returns the next State (``Evolving``), ``log`` (who saw it, line) pairs."""

    def __init__(self, rules: Rules, values: tuple[tuple[int, ...], ...],
                 history: tuple[RoundRecord, ...] = (), sealed: tuple[int | None, ...] = (),
                 log: tuple[tuple[int | str, str], ...] = ()) -> None:  # fmt: skip
        self.rules, self.values, self.history = rules, values, history  # values[seat][item]
        self.sealed = sealed or (None,) * rules.players
        self.log = log

    @property
    def budgets(self) -> tuple[int, ...]:
        return tuple(self.rules.budget - sum(r.price for r in self.history if r.winner == seat)
                     for seat in range(self.rules.players))  # fmt: skip

    @property
    def items(self) -> tuple[tuple[int, ...], ...]:  # won, per seat
        return tuple(tuple(r.item for r in self.history if r.winner == seat)
                     for seat in range(self.rules.players))  # fmt: skip

    @property
    def is_over(self) -> bool:
        return len(self.history) >= self.rules.items

    @property
    def to_play(self) -> int | None:
        return None if self.is_over else self.sealed.index(None)

    def legal_actions(self) -> tuple[int, ...]:
        return () if self.is_over else tuple(range(self.budgets[self.to_play] + 1))

    def apply(self, action: object) -> State:
        player = self.to_play
        if player is None:
            raise IllegalAction(action, "the game is over")
        if not is_whole_number(action):
            raise TypeError(f"a bid is a whole number, got {action!r} ({type(action).__name__})")
        bid = int(action)  # type: ignore[call-overload]
        if not 0 <= bid <= self.budgets[player]:
            raise IllegalAction(action, f"seat {player} may bid 0 to its budget "
                                f"{self.budgets[player]}", self.legal_actions())  # fmt: skip
        sealed = (*self.sealed[:player], bid, *self.sealed[player + 1 :])
        log = (*self.log, (EVERYONE, f"seat {player} writes a sealed bid"),
               (player, f"seat {player} bids {bid} (sealed)"))  # fmt: skip
        state = self._evolve(sealed=sealed, log=log)
        return state if None in sealed else state._reveal(sealed)  # type: ignore[arg-type]

    def _reveal(self, bids: tuple[int, ...]) -> State:
        item = len(self.history)
        winner = award(bids, self.rules.priority(item))
        price = 0 if winner is None else bids[winner]
        line = f"round {item + 1}: bids {list(bids)}; " + (
            f"item {item + 1} goes unsold" if winner is None
            else f"seat {winner} wins item {item + 1} for {price}"
            + (" (a tie, broken by the rule)" if bids.count(price) > 1 else ""))  # fmt: skip
        return self._evolve(
            sealed=(None,) * len(bids), log=(*self.log, (EVERYONE, line)),
            history=(*self.history, RoundRecord(item, bids, winner, price)),
        )  # fmt: skip

    def observation(self, player: int) -> Observation:
        player = whole_number("player", player, low=0, high=self.rules.players - 1)
        return Observation(
            player=player, round=len(self.history) + 1, my_values=self.values[player],
            has_bid=tuple(b is not None for b in self.sealed), my_bid=self.sealed[player],
            **fields_of(self, "rules", "budgets", "history"),
        )  # fmt: skip

    def result(self) -> Standings:
        if not self.is_over:
            raise ValueError(f"the game is not over: round {len(self.history) + 1} is on")
        scores = tuple(budget + sum(self.values[seat][i] for i in self.items[seat])
                       for seat, budget in enumerate(self.budgets))  # fmt: skip
        return Standings.of(scores)

    def log_for(self, player: int | None) -> list[str]:  # what ``player`` saw; None: all
        if player is not None:
            whole_number("player", player, low=0, high=self.rules.players - 1)
        return lines_for(self.log, player)


def new_game(rules: Rules | None = None, *, seed: SeedLike) -> State:
    """The start: values drawn from ``seed``'s generator, full budgets, item 1 on offer."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be an example Rules, got {type(rules).__name__}")
    drawn = generator(seed).integers(1, rules.max_value + 1, size=(rules.players, rules.items))
    values = tuple(tuple(int(v) for v in row) for row in drawn)
    log = ((EVERYONE, f"{rules.players} seats, {rules.items} items, budget {rules.budget} each"),
           *((seat, f"seat {seat}'s values: {list(row)}") for seat, row in enumerate(values)))
    return State(rules, values, log=log)
