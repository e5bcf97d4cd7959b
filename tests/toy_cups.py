"""A toy game that keeps the game contract and nothing more, for the generic table: two cups,
each round every player either passes or splits up to ``tokens`` tokens over the cups
(a lazy, positional ``Split`` action space beside a plain "pass"); the most tokens in a cup
scores a point. It is a game the registry does not know: the table must work from its record
alone, with no per-game code and no panel. The ``toy`` fixture (tests/conftest.py) offers it."""

from __future__ import annotations

import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import polars as pl

from workbench.errors import IllegalAction
from workbench.kit.game import Game
from workbench.kit.selfplay import Frame, SelfPlay


class Split(NamedTuple):
    """Tokens put in each cup."""

    cups: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    players: int = 2
    tokens: int = 3
    cups: int = 2
    rounds: int = 2


class Splits(Sequence):
    """Every Split of at most ``tokens`` over ``cups``, computed on demand (a lazy sequence)."""

    def __init__(self, tokens: int, cups: int) -> None:
        self.tokens, self.cups = tokens, cups
        self._all = [
            Split((a, b)) for a in range(tokens + 1) for b in range(tokens + 1) if a + b <= tokens
        ]

    def __len__(self) -> int:
        return len(self._all) + 1

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            index += len(self)
        if index == len(self._all):
            return "pass"
        return self._all[index]

    def __contains__(self, action: object) -> bool:
        return action == "pass" or (isinstance(action, Split) and action in self._all)

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))


@dataclass
class Observation:
    player: int
    rules: Rules
    round: int
    scores: tuple[int, ...]
    my_split: Split | str | None
    history: tuple[tuple[Any, ...], ...]


class Result(NamedTuple):
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]


class State:
    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self.round = 0
        self.choices: tuple[Any, ...] = ()
        self.scores = (0,) * rules.players
        self.history: tuple[tuple[Any, ...], ...] = ()

    @property
    def to_play(self) -> int | None:
        return None if self.round >= self.rules.rounds else len(self.choices)

    def legal_actions(self) -> Sequence[Any]:
        return () if self.to_play is None else Splits(self.rules.tokens, self.rules.cups)

    def apply(self, action: Any) -> State:
        if self.to_play is None:
            raise IllegalAction(action, "the game is over")
        if action not in self.legal_actions():
            raise IllegalAction(action, "not a split of the tokens or 'pass'")
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        new.choices = (*self.choices, action)
        if len(new.choices) == self.rules.players:
            scores = list(self.scores)
            for cup in range(self.rules.cups):
                amounts = [0 if c == "pass" else c.cups[cup] for c in new.choices]
                if max(amounts) > 0 and amounts.count(max(amounts)) == 1:
                    scores[amounts.index(max(amounts))] += 1
            new.scores, new.history = tuple(scores), (*self.history, new.choices)
            new.round, new.choices = self.round + 1, ()
        return new

    def observation(self, player: int) -> Observation:
        mine = self.choices[player] if player < len(self.choices) else None
        return Observation(player, self.rules, self.round + 1, self.scores, mine, self.history)

    def result(self) -> Result:
        if self.to_play is not None:
            raise ValueError("the game is not over")
        ranks = tuple(1 + sum(o > s for o in self.scores) for s in self.scores)
        return Result(self.scores, ranks, tuple(s for s, r in enumerate(ranks) if r == 1))

    def log_for(self, player: int | None) -> list[str]:
        lines = []
        for number, choices in enumerate(self.history, 1):
            lines.append(f"round {number}: " + ", ".join(map(str, choices)))
        if self.choices:
            lines.append(f"round {self.round + 1}: {len(self.choices)} player(s) chose")
        return lines


def new_game(rules: Rules | None = None, *, seed: int) -> State:
    return State(Rules() if rules is None else rules, seed)


class Greedy:
    """All tokens in one random cup."""

    def __call__(self, observation: Observation, legal: Sequence[Any], rng: np.random.Generator):
        cup = int(rng.integers(observation.rules.cups))
        cups = [0] * observation.rules.cups
        cups[cup] = observation.rules.tokens
        return Split(tuple(cups))


def _no_frame(states: Sequence[State], labels: Sequence[str], first: int) -> pl.DataFrame:
    raise NotImplementedError("the toy game is played at the table, never simulated")


def toy_package() -> types.SimpleNamespace:
    """The toy game as a package would offer it: its record (``GAME``) and its action type."""
    frames = (Frame("games", _no_frame), Frame("rounds", _no_frame))
    record = Game(
        id="toy_cups", summary="Two cups.", Rules=Rules, new_game=new_game,
        agents={"greedy": Greedy}, default_agent="greedy",
        selfplay=SelfPlay("toy_cups", Rules, new_game, frames=frames),
    )  # fmt: skip
    return types.SimpleNamespace(GAME=record, Rules=Rules, Split=Split)
