"""Tournaments: agents meet at the table in every seat, win rates and head-to-head results with
95% intervals.

With k entrants at a table of n seats, the schedule is balanced: every entrant sits in every
seat equally often, and every two entrants meet in equally many games.

- k >= n: every n-entrant table (each combination), each played in its n cyclic seat
  rotations, so every entrant sits in every seat of every table it plays;
- k < n: every entrant is at every table, with n // k seats each and one more seat for each of
  r = n % k entrants: one table for each choice of those r entrants (all of them alike when k
  divides n), the entrants seated in turn (A, B, A, B for two at four seats; A, B, C, A for
  three at four with A's extra seat), each table played in its distinct cyclic rotations. Which
  entrants sit next to each other is not balanced; an entrant with two seats plays against
  itself there.

Each seating plays ``games`` games from its own seed, derived as a sweep cell's is (the game,
the rules' changes from the rulebook, the line-up seat by seat), so a seating re-run alone, or
as a sweep cell, gives the same numbers.

Per game, an entrant's *win share* is the sum of its seats' win shares (a k-way shared win
counts 1/k per seat), and its *place* is the best rank among its seats. ``standings``: the mean
win share over the games the entrant played (Wilson interval) beside its fair share (its seats
per game, on average, over the table size). ``pairwise``: for two entrants who met, the share
of those games in which the first finished ahead of the second (better place; an equal place
counts 1/2), Wilson interval. ``by_seat``: each entrant's win rate in each seat.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any, NamedTuple

import polars as pl

from workbench.designer.balance import seat_table
from workbench.designer.cells import (
    InvalidCells,
    cell_seed,
    check_base_rules,
    check_run,
    lineup_label,
    resolve_agents,
    rules_label,
)
from workbench.designer.executors import report_progress, run_tasks
from workbench.designer.moments import Moments
from workbench.kit.game import Game
from workbench.kit.store import RunStore, StorePath, unit_type


class Tournament(NamedTuple):
    """A tournament's tables (see the module docstring for every definition)."""

    standings: pl.DataFrame
    pairwise: pl.DataFrame
    by_seat: pl.DataFrame
    seatings: pl.DataFrame


class SeatingTask(NamedTuple):
    """One seating to play: the agents (made, one per seat), entrant index per seat, games,
    seed and the line-up's label."""

    game: Game
    rules: Any
    agents: tuple[Any, ...]
    entrants: tuple[int, ...]
    games: int
    seed: int
    label: str


@unit_type
class SeatingResult(NamedTuple):
    """Moments of per-game values: win share by entrant and by seat, score by pair (a, b)."""

    by_entrant: dict[int, Moments]
    by_seat: dict[int, Moments]
    by_pair: dict[tuple[int, int], Moments]


def seatings(entrants: int, players: int) -> list[tuple[int, ...]]:
    """Entrant index per seat for every seating of the tournament (module docstring)."""
    if entrants >= players:
        tables = list(itertools.combinations(range(entrants), players))
    else:
        base, extra = divmod(players, entrants)
        tables = [
            _in_turn([base + (e in group) for e in range(entrants)])
            for group in itertools.combinations(range(entrants), extra)
        ]
    result: list[tuple[int, ...]] = []
    for table in tables:
        for shift in range(players):
            rotated = table[shift:] + table[:shift]
            if rotated not in result:
                result.append(rotated)
    return result


def _in_turn(seats_of: list[int]) -> tuple[int, ...]:
    """Entrants seated in turn, entrant e taking ``seats_of[e]`` seats (0, 1, 2, 0, 1 ...)."""
    return tuple(
        e for turn in range(max(seats_of)) for e, count in enumerate(seats_of) if count > turn
    )


def play_seating(task: SeatingTask, report: Any = None) -> SeatingResult:
    """Play one seating and keep the moments of every per-game value."""
    game = task.game
    entrants = sorted(set(task.entrants))
    seats_of = {e: [s for s, who in enumerate(task.entrants) if who == e] for e in entrants}
    by_entrant: dict[int, Moments] = {}
    by_seat: dict[int, Moments] = {}
    by_pair: dict[tuple[int, int], Moments] = {}
    for games_frame, _ in game.simulate_batches(
        task.rules, list(task.agents), games=task.games, seed=task.seed, progress=False
    ):
        _, _, ranks, shares = seat_table(games_frame)
        report_progress(report, ranks.shape[0])
        place = {e: ranks[:, seats].min(axis=1) for e, seats in seats_of.items()}
        for e, seats in seats_of.items():
            by_entrant[e] = by_entrant.get(e, Moments()) + Moments.of(shares[:, seats].sum(axis=1))
        for seat in range(shares.shape[1]):
            by_seat[seat] = by_seat.get(seat, Moments()) + Moments.of(shares[:, seat])
        for a, b in itertools.combinations(entrants, 2):
            score = (place[a] < place[b]) + 0.5 * (place[a] == place[b])
            by_pair[a, b] = by_pair.get((a, b), Moments()) + Moments.of(score)
    return SeatingResult(by_entrant, by_seat, by_pair)


def tournament(
    game: str | Game,
    rules: Any = None,
    agents: Sequence[Any] = (),
    *,
    games: int,
    seed: int,
    executor: Executor | None = None, progress: bool = True, confidence: float = 0.95,
    store: StorePath = None, resume: bool = False, overwrite: bool = False,
) -> Tournament:
    """Play ``agents`` (two or more names or agents) against each other with seats rotated,
    ``games`` games per seating: the module docstring's tables, each with n and a 95% interval,
    then the game, the rules and the base seed; ``seatings`` lists each seating's line-up, own
    seed and games. ``store``/``resume``/``overwrite`` keep finished seatings as for ``sweep``."""
    game, games, seed = check_run(game, games, seed, confidence)
    rules = check_base_rules(game, rules, "rules")
    entrants, names = check_entrants(game, agents, "entrants")
    plan = seatings(len(entrants), rules.players)
    tasks = seating_tasks(game, rules, entrants, plan, games, seed)
    results = play_seatings(
        "tournament", game, rules, names, tasks, seed=seed, executor=executor,
        progress=progress, store=store, resume=resume, overwrite=overwrite,
    )  # fmt: skip
    return _tables(game, rules, names, tasks, results, confidence, seed)


def check_entrants(game: Any, agents: Any, what: str) -> tuple[list[Any], list[str]]:
    """The entrants (two or more names or agents, with distinct names) and their names."""
    if isinstance(agents, str) or not isinstance(agents, Sequence) or len(agents) < 2:
        raise ValueError(
            f"agents must list two or more {what} (names or agents), got {agents!r}; "
            f"{game.id} agents: {', '.join(game.agents)}"
        )
    entrants = list(agents)
    unknown = [agent for agent in entrants if isinstance(agent, str) and agent not in game.agents]
    if unknown:  # said once, not once for every seating it would sit in
        raise ValueError(f"unknown {what} {unknown}; {game.id} agents: {', '.join(game.agents)}")
    names = [lineup_label(agent) for agent in entrants]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"{what} must have distinct names; repeated: {', '.join(repeated)}")
    return entrants, names


def seating_tasks(
    game: Any,
    rules: Any,
    entrants: Sequence[Any],
    plan: Sequence[tuple[int, ...]],
    games: int,
    seed: int,
) -> list[SeatingTask]:
    """A task per seating of ``plan`` (entrant index per seat), its agents made and its own
    seed; every seating whose agents cannot be made is reported at once."""
    problems, tasks = [], []
    for seating in plan:
        lineup = [entrants[e] for e in seating]
        made, problem = resolve_agents(game, rules, lineup)
        if problem:
            problems.append(f"seating {lineup_label(lineup)}: {problem}")
        own_seed = cell_seed(seed, game, rules, lineup)
        label = lineup_label(lineup)
        tasks.append(SeatingTask(game, rules, tuple(made or ()), seating, games, own_seed, label))
    if problems:
        raise InvalidCells(problems)
    return tasks


def play_seatings(
    command: str,
    game: Any,
    rules: Any,
    names: list[str],
    tasks: list[SeatingTask],
    *,
    seed: int,
    executor: Executor | None,
    progress: bool,
    store: StorePath, resume: bool, overwrite: bool,
) -> list[SeatingResult]:
    """Play every seating on ``executor``, keeping each in ``store`` as ``sweep`` keeps cells."""
    kept = None
    if store is not None:
        identity = {
            "command": command,
            "game": game.id,
            "rules": rules_label(game, rules),
            "entrants": names,
            "games": tasks[0].games,
            "seed": seed,
            "units": [[task.label, task.seed] for task in tasks],
        }
        kept = RunStore.open(store, identity, resume=resume, overwrite=overwrite)
    return run_tasks(
        play_seating,
        tasks,
        executor=executor,
        weights=[task.games for task in tasks],
        progress=progress,
        description=f"{command} {game.id}",
        store=kept,
    )


def _tables(
    game: Any,
    rules: Any,
    names: list[str],
    tasks: list[SeatingTask],
    results: list[SeatingResult],
    confidence: float,
    seed: int,
) -> Tournament:
    players = rules.players
    entrant_totals: dict[int, Moments] = {}
    seats_played: dict[int, int] = {}  # seat-games: seats per game times games, summed
    pair_totals: dict[tuple[int, int], Moments] = {}
    seat_totals: dict[tuple[int, int], Moments] = {}
    for task, result in zip(tasks, results, strict=True):
        for e, moments in result.by_entrant.items():
            entrant_totals[e] = entrant_totals.get(e, Moments()) + moments
            seats_played[e] = seats_played.get(e, 0) + task.entrants.count(e) * moments.count
        for pair, moments in result.by_pair.items():
            pair_totals[pair] = pair_totals.get(pair, Moments()) + moments
        for seat, moments in result.by_seat.items():
            key = (task.entrants[seat], seat)
            seat_totals[key] = seat_totals.get(key, Moments()) + moments

    def estimate(moments: Moments) -> dict[str, Any]:
        low, high = moments.wilson_interval(confidence)
        return {"games": moments.count, "value": moments.mean, "low": low, "high": high}

    standings = pl.DataFrame(
        [
            {
                "entrant": names[e],
                "seats_per_game": seats_played[e] / moments.count,
                "fair_share": seats_played[e] / moments.count / players,
                **estimate(moments),
            }
            for e, moments in sorted(entrant_totals.items())
        ]
    ).rename({"value": "win_rate"})
    pair_rows = []
    for (a, b), moments in sorted(pair_totals.items()):
        flipped = Moments(moments.count, 1 - moments.mean, moments.m2)
        pair_rows.append({"entrant": names[a], "opponent": names[b], **estimate(moments)})
        pair_rows.append({"entrant": names[b], "opponent": names[a], **estimate(flipped)})
    pairwise = pl.DataFrame(pair_rows).rename({"value": "ahead_rate"}).sort("entrant", "opponent")
    by_seat = (
        pl.DataFrame(
            [
                {"entrant": names[e], "seat": seat, **estimate(moments)}
                for (e, seat), moments in seat_totals.items()
            ]
        )
        .rename({"value": "win_rate"})
        .sort("entrant", "seat")
    )
    seating_frame = pl.DataFrame(
        {
            "seating": list(range(len(tasks))),
            "lineup": [task.label for task in tasks],
            "seed": [task.seed for task in tasks],
            "games": [task.games for task in tasks],
        },
        schema={"seating": pl.Int64, "lineup": pl.String, "seed": pl.Int64, "games": pl.Int64},
    )
    context = {"game": pl.lit(game.id), "rules": pl.lit(rules_label(game, rules))}
    base_seed = pl.lit(seed, pl.Int64)  # the seatings frame lists each seating's own seed
    return Tournament(
        *(
            frame.with_columns(**context, seed=base_seed)
            for frame in (standings, pairwise, by_seat)
        ),
        seating_frame.with_columns(**context),
    )


__all__ = [
    "Tournament",
    "check_entrants",
    "play_seating",
    "play_seatings",
    "seating_tasks",
    "seatings",
    "tournament",
]
