"""The example game's self-play (the kit's ``SelfPlay``): step engine only, standard streams.

games frame, one row per game x seat: game, seat, agent, score, rank, won, win_share,
budget_left, items_won, value_won (values of the items won) and surplus (value_won minus what
was paid). rounds frame, one row per game x round x seat: game, round, seat, agent,
score_after (budget left + values won so far), value (the seat's value for the item), bid,
won_item, paid and top_tied (the top positive bid was tied, so the tie-break chose). Game g's
values come from sub-stream 0 of the stream (seed, g); seat s's agent draws from sub-stream
1 + s.
"""

from __future__ import annotations

import polars as pl

from workbench.kit.frames import FrameRows
from workbench.kit.selfplay import Frame, SelfPlay

from .engine import State, new_game
from .rules import Rules

_TYPES = {"agent": pl.String, "won": pl.Boolean, "win_share": pl.Float64,
          "won_item": pl.Boolean, "top_tied": pl.Boolean}  # fmt: skip
GAMES = ("game", "seat", "agent", "score", "rank", "won", "win_share", "budget_left",
         "items_won", "value_won", "surplus")  # fmt: skip
ROUNDS = ("game", "round", "seat", "agent", "score_after", "value", "bid", "won_item", "paid",
          "top_tied")  # fmt: skip
GAMES_SCHEMA = {column: _TYPES.get(column, pl.Int64) for column in GAMES}
ROUNDS_SCHEMA = {column: _TYPES.get(column, pl.Int64) for column in ROUNDS}


def games_frame(states: list[State], labels: list[str], first: int) -> pl.DataFrame:
    rows = FrameRows(GAMES_SCHEMA)
    for game, state in enumerate(states, start=first):
        result, budget = state.result(), state.rules.budget
        for seat in range(state.rules.players):
            value = sum(state.values[seat][i] for i in result.items[seat])
            rows.add(game, seat, labels[seat], result.scores[seat], result.ranks[seat],
                     seat in result.winners, result.shares[seat], result.budgets[seat],
                     len(result.items[seat]), value, result.scores[seat] - budget)  # fmt: skip
    return rows.frame()


def rounds_frame(states: list[State], labels: list[str], first: int) -> pl.DataFrame:
    rows = FrameRows(ROUNDS_SCHEMA)
    for game, state in enumerate(states, start=first):
        players = state.rules.players
        budgets, gained = [state.rules.budget] * players, [0] * players
        for record in state.history:
            tied = record.winner is not None and record.bids.count(record.price) > 1
            for seat in range(players):
                won, value = record.winner == seat, state.values[seat][record.item]
                if won:
                    budgets[seat] -= record.price
                    gained[seat] += value
                rows.add(game, record.round, seat, labels[seat], budgets[seat] + gained[seat],
                         value, record.bids[seat], won, record.price if won else 0, tied)
    return rows.frame()


SELF_PLAY = SelfPlay(
    "example", Rules, new_game, frames_doc=__doc__,
    frames=(Frame("games", None, games_frame), Frame("rounds", None, rounds_frame)),
)  # fmt: skip
