"""The example game step by step: sealed bids collected one seat at a time (seat order),
hidden until all are in, then revealed together and the item awarded.

Actions are bids: ints from 0 to the seat's remaining budget. A bid outside that range raises
``IllegalAction``; a value that is no whole number (a float, a str, a bool) ``TypeError``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from workbench.checks import is_whole_number, whole_number
from workbench.errors import IllegalAction
from workbench.kit.seeding import SeedLike, generator

from .rules import Rules, award


@dataclass(frozen=True)
class RoundRecord:
    """One revealed round: the item (0-based), every bid, the winner (None: unsold), price."""

    round: int
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
    def value(self) -> int:
        """This seat's value for the item on offer (0 once the game is over)."""
        return self.my_values[self.round - 1] if self.round <= len(self.my_values) else 0


@dataclass(frozen=True)
class Result:
    """Final standings: score, rank (1 = best, ties share), budget left, items won per seat."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[float, ...]
    budgets: tuple[int, ...]
    items: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class State:
    """A position; ``apply`` returns the next one and never changes this one."""

    rules: Rules
    values: tuple[tuple[int, ...], ...]  # values[seat][item]
    round_index: int
    budgets: tuple[int, ...]
    items: tuple[tuple[int, ...], ...]  # items won, per seat
    sealed: tuple[int | None, ...]
    history: tuple[RoundRecord, ...]
    log: tuple[tuple[int | None, str], ...]  # (seat that saw it, None: everyone; line)

    @property
    def is_over(self) -> bool:
        return self.round_index >= self.rules.items

    @property
    def to_play(self) -> int | None:
        return None if self.is_over else self.sealed.index(None)

    def legal_actions(self) -> tuple[int, ...]:
        player = self.to_play
        return () if player is None else tuple(range(self.budgets[player] + 1))

    def apply(self, action: object) -> State:
        player = self.to_play
        if player is None:
            raise IllegalAction(action, "the game is over")
        if not is_whole_number(action):
            raise TypeError(f"a bid is a whole number, got {action!r} ({type(action).__name__})")
        bid = int(action)  # type: ignore[call-overload]
        if not 0 <= bid <= self.budgets[player]:
            reason = f"seat {player} may bid 0 to its budget {self.budgets[player]}"
            raise IllegalAction(action, reason, self.legal_actions())
        sealed = (*self.sealed[:player], bid, *self.sealed[player + 1 :])
        mine = (player, f"seat {player} bids {bid} (sealed)")
        log = (*self.log, (None, f"seat {player} writes a sealed bid"), mine)
        if None in sealed:
            return replace(self, sealed=sealed, log=log)
        return replace(self, log=log)._reveal(sealed)  # type: ignore[arg-type]

    def _reveal(self, bids: tuple[int, ...]) -> State:
        rules, item = self.rules, self.round_index
        winner = award(bids, rules.priority(item))
        price = 0 if winner is None else bids[winner]
        budgets, items = self.budgets, self.items
        line = f"round {item + 1}: bids {list(bids)}; "
        if winner is None:
            line += f"item {item + 1} goes unsold"
        else:
            budgets = tuple(b - price if s == winner else b for s, b in enumerate(budgets))
            items = tuple((*held, item) if s == winner else held for s, held in enumerate(items))
            line += f"seat {winner} wins item {item + 1} for {price}"
            line += " (a tie, broken by the rule)" if bids.count(price) > 1 else ""
        record = RoundRecord(item + 1, item, bids, winner, price)
        state = replace(
            self, round_index=item + 1, budgets=budgets, items=items, sealed=(None,) * len(bids),
            history=(*self.history, record), log=(*self.log, (None, line)),
        )  # fmt: skip
        if not state.is_over:
            return state
        result = state.result()
        final = f"final scores {list(result.scores)}; winner(s) {list(result.winners)}"
        return replace(state, log=(*state.log, (None, final)))

    def observation(self, player: int) -> Observation:
        player = whole_number("player", player, low=0, high=self.rules.players - 1)
        return Observation(
            self.rules, player, self.round_index + 1, self.values[player], self.budgets,
            tuple(b is not None for b in self.sealed), self.sealed[player], self.history,
        )  # fmt: skip

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError(f"the game is not over: round {self.round_index + 1} is on")
        scores = tuple(
            budget + sum(self.values[seat][i] for i in self.items[seat])
            for seat, budget in enumerate(self.budgets)
        )
        ranks = tuple(1 + sum(other > score for other in scores) for score in scores)
        winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
        shares = tuple(1 / len(winners) if rank == 1 else 0.0 for rank in ranks)
        return Result(scores, ranks, winners, shares, self.budgets, self.items)

    def log_for(self, player: int | None) -> list[str]:
        """What ``player`` saw (its own values and bids, and everything public); None: all."""
        if player is not None:
            whole_number("player", player, low=0, high=self.rules.players - 1)
        return [line for seen, line in self.log if player is None or seen in (None, player)]


def new_game(rules: Rules | None = None, *, seed: SeedLike) -> State:
    """The start: values drawn from ``seed``'s generator, full budgets, item 1 on offer."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be an example Rules, got {type(rules).__name__}")
    drawn = generator(seed).integers(1, rules.max_value + 1, size=(rules.players, rules.items))
    values = tuple(tuple(int(v) for v in row) for row in drawn)
    log = [(None, f"{rules.players} seats, {rules.items} items, budget {rules.budget} each")]
    log += [(seat, f"seat {seat}'s values: {list(row)}") for seat, row in enumerate(values)]
    return State(
        rules, values, 0, (rules.budget,) * rules.players, ((),) * rules.players,
        (None,) * rules.players, (), tuple(log),
    )  # fmt: skip
