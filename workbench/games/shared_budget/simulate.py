"""Batch self-play through the engine -> tidy polars frames (one per game x team, one per
game x round x team). Identical arguments give identical frames: game g's state is seeded with
``derive_seed(seed, g)`` and seat s's agent draws from the stream ``(seed, g, s)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import polars as pl
from tqdm.auto import tqdm

from workbench.checks import flag, whole_number
from workbench.games.shared_budget.agents import AGENTS, make_agent
from workbench.games.shared_budget.engine import new_game
from workbench.games.shared_budget.rules import Rules
from workbench.kit.lineup import agent_label, resolve_lineup
from workbench.kit.seeding import derive_seed, generator

Agent = Callable[[Any, Sequence[Any], np.random.Generator], Any]

GAMES_SCHEMA = {
    "game": pl.Int64,
    "seat": pl.Int64,
    "team": pl.String,
    "agent": pl.String,
    "score": pl.Int64,
    "rank": pl.Int64,
    "won": pl.Boolean,
    "win_share": pl.Float64,
    "budget_left": pl.Int64,
    "spent": pl.Int64,
    "cards_won": pl.Int64,
    "cards": pl.String,
    "functions": pl.String,
}
ROUNDS_SCHEMA = {
    "game": pl.Int64,
    "round": pl.Int64,
    "card": pl.String,
    "seat": pl.Int64,
    "team": pl.String,
    "agent": pl.String,
    "priority_rank": pl.Int64,
    "written": pl.String,
    "bid": pl.Int64,
    "invalid": pl.Boolean,
    "won_card": pl.Boolean,
    "paid": pl.Int64,
    "budget_before": pl.Int64,
    "budget_after": pl.Int64,
    "functions_before": pl.Int64,
    "functions_gained": pl.Int64,
    "score_after": pl.Int64,
}


#: Games per yielded chunk of ``simulate_batches``: fixed, so a seed always gives the same games.
BATCH_SIZE = 1024


def resolve_agents(rules: Rules, agents: Sequence[Agent | str] | Agent | str | None) -> list[Agent]:
    """One agent per seat (names, agents, one for all seats, or None: the coverage heuristic)."""
    return resolve_lineup(
        agents,
        players=rules.players,
        make_agent=make_agent,
        known=tuple(AGENTS),
        default="coverage",
        rules=rules,
    )


def simulate(
    rules: Rules | None = None,
    agents: Sequence[Agent | str] | Agent | str | None = None,
    *,
    games: int,
    seed: int,
    progress: bool = True,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play ``games`` games with ``agents[seat]`` in each seat -> (games frame, rounds frame).

    ``agents``: one agent or name per seat ('random', 'coverage', 'equilibrium'), one for every
    seat, or None (the coverage heuristic everywhere).
    games frame, one row per game x team: game, seat, team, agent, score (functions covered),
    rank (1 = best), won (among the winners: the best score, then the larger remaining
    budget), win_share (1 for a sole win, 1/k for a win shared by k teams, 0 otherwise; the
    classroom group wins when its plan covers every function), budget_left, spent,
    cards_won, cards and functions ('+'-joined names).
    rounds frame, one row per game x round x team: the card, the team's place in the round's
    priority (1 = first), what it wrote, the bid as read (0 for a pass), whether the written
    bid was invalid (read as a pass), whether it won the card and what it paid, its budget
    before and after, functions covered before and gained, and score_after (functions
    covered after the round).
    """
    parts = list(simulate_batches(rules, agents, games=games, seed=seed, progress=progress))
    return pl.concat([g for g, _ in parts]), pl.concat([r for _, r in parts])


def simulate_batches(
    rules: Rules | None = None,
    agents: Sequence[Agent | str] | Agent | str | None = None,
    *,
    games: int,
    seed: int,
    progress: bool = True,
) -> Iterator[tuple[pl.DataFrame, pl.DataFrame]]:
    """Like ``simulate`` but yields the frames ``BATCH_SIZE`` games at a time (bounded memory).
    Every argument is checked when this is called, before any game is played."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a shared_budget Rules or None, got {type(rules).__name__}")
    agents = resolve_agents(rules, agents)
    games = whole_number("games", games, low=1, allowed="a positive int")
    seed = whole_number("seed", seed, low=0, allowed="a non-negative int")
    progress = flag("progress", progress)
    return _batches(rules, agents, games, seed, progress)


def _batches(
    rules: Rules, agents: list[Agent], games: int, seed: int, progress: bool
) -> Iterator[tuple[pl.DataFrame, pl.DataFrame]]:
    names = [agent_label(agent) for agent in agents]
    teams = [rules.team_name(seat) for seat in range(rules.players)]
    with tqdm(total=games, disable=not progress, desc="shared_budget", unit="game") as bar:
        for start in range(0, games, BATCH_SIZE):
            stop = min(games, start + BATCH_SIZE)
            yield _play_chunk(rules, agents, names, teams, range(start, stop), seed)
            bar.update(stop - start)


def _play_chunk(
    rules: Rules,
    agents: Sequence[Agent],
    names: Sequence[str],
    teams: Sequence[str],
    game_numbers: range,
    seed: int,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    game_rows: dict[str, list[Any]] = {column: [] for column in GAMES_SCHEMA}
    round_rows: dict[str, list[Any]] = {column: [] for column in ROUNDS_SCHEMA}
    for game in game_numbers:
        rngs = [generator(seed, game, seat) for seat in range(rules.players)]
        state = new_game(rules, seed=derive_seed(seed, game))
        while not state.is_over:
            seat = state.to_play
            action = agents[seat](state.observation(seat), state.legal_actions(), rngs[seat])
            state = state.apply(action)
        result = state.result()
        for seat in range(rules.players):
            _append(
                game_rows,
                game=game,
                seat=seat,
                team=teams[seat],
                agent=names[seat],
                score=result.scores[seat],
                rank=result.ranks[seat],
                won=seat in result.winners,
                win_share=result.shares[seat],
                budget_left=result.budgets[seat],
                spent=rules.budget - result.budgets[seat],
                cards_won=len(result.cards[seat]),
                cards="+".join(result.cards[seat]),
                functions="+".join(result.coverage[seat]),
            )
        for record in state.history:
            for seat in range(rules.players):
                won_card = record.winner == seat
                before = record.coverage_before[seat].bit_count()
                after = record.coverage_after[seat].bit_count()
                _append(
                    round_rows,
                    game=game,
                    round=record.round,
                    card=record.card,
                    seat=seat,
                    team=teams[seat],
                    agent=names[seat],
                    priority_rank=record.priority.index(seat) + 1,
                    written=record.written[seat],
                    bid=record.bids[seat],
                    invalid=record.invalid[seat] is not None,
                    won_card=won_card,
                    paid=record.price if won_card else 0,
                    budget_before=record.budgets_before[seat],
                    budget_after=record.budgets_after[seat],
                    functions_before=before,
                    functions_gained=after - before,
                    score_after=after,
                )
    return (
        pl.DataFrame(game_rows, schema=GAMES_SCHEMA),
        pl.DataFrame(round_rows, schema=ROUNDS_SCHEMA),
    )


def _append(rows: dict[str, list[Any]], **values: Any) -> None:
    for column, value in values.items():
        rows[column].append(value)
