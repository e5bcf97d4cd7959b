"""The shared budget auction's self-play (the kit's ``SelfPlay``) and its result frames.

games frame, one row per game x team: game, seat, team, agent, score (functions covered),
rank (1 = best), won (among the winners: the best score, then the larger remaining budget),
win_share (1 for a sole win, 1/k for a win shared by k teams, 0 otherwise; the classroom group
wins when its plan covers every function), budget_left, spent, cards_won, cards and functions
('+'-joined names). rounds frame, one row per game x round x team: the card, the team's place
in the round's priority (1 = first), what it wrote, the bid as read (0 for a pass), whether the
written bid was invalid (read as a pass), whether it won the card and what it paid, its budget
before and after, functions covered before and gained, and score_after (functions covered
after the round). Game g's state is seeded with ``derive_seed(seed, g)`` and seat s's agent
draws from the stream ``(seed, g, s)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import polars as pl

from workbench.games.shared_budget.agents import AGENTS, make_agent
from workbench.games.shared_budget.engine import State, new_game
from workbench.games.shared_budget.rules import Rules
from workbench.kit.frames import FrameRows
from workbench.kit.seeding import derive_seed, generator
from workbench.kit.selfplay import Frame, SelfPlay

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


def _streams(
    game_seed: np.random.SeedSequence, players: int
) -> tuple[int, list[np.random.Generator]]:
    return derive_seed(game_seed), [generator(game_seed, seat) for seat in range(players)]


def states_games_frame(states: list[State], labels: list[str], first: int) -> pl.DataFrame:
    """The games frame of finished games (one row per game x team)."""
    rows = FrameRows(GAMES_SCHEMA)
    for game, state in enumerate(states, start=first):
        rules, result = state.rules, state.result()
        for seat in range(rules.players):
            rows.add_named(
                game=game,
                seat=seat,
                team=rules.team_name(seat),
                agent=labels[seat],
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
    return rows.frame()


def states_rounds_frame(states: list[State], labels: list[str], first: int) -> pl.DataFrame:
    """The rounds frame of finished games (one row per game x round x team)."""
    rows = FrameRows(ROUNDS_SCHEMA)
    for game, state in enumerate(states, start=first):
        rules = state.rules
        for record in state.history:
            for seat in range(rules.players):
                won_card = record.winner == seat
                before = record.coverage_before[seat].bit_count()
                after = record.coverage_after[seat].bit_count()
                rows.add_named(
                    game=game,
                    round=record.round,
                    card=record.card,
                    seat=seat,
                    team=rules.team_name(seat),
                    agent=labels[seat],
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
    return rows.frame()


SELF_PLAY = SelfPlay(
    "shared_budget", Rules, AGENTS, make_agent, "coverage", new_game,
    frames=(Frame("games", None, states_games_frame), Frame("rounds", None, states_rounds_frame)),
    step_chunk=BATCH_SIZE, streams=_streams,
)  # fmt: skip
simulate, simulate_batches, play_game = SELF_PLAY.functions(__name__)
resolve_agents = SELF_PLAY.resolve_agents
