"""The example game's self-play (the kit's ``SelfPlay``): step engine only, standard streams.

games frame, one row per game x seat: game, seat, agent, score, rank, won, win_share,
budget_left, items_won, value_won and surplus (value_won minus what was paid). rounds frame,
one row per game x round x seat: game, round, seat, agent, score_after, value (the seat's for
the item), bid, won_item, paid, top_tied (the top positive bid was tied)."""

from __future__ import annotations

import polars as pl

from workbench.kit.frames import FrameRows, shares
from workbench.kit.selfplay import Frame, SelfPlay

from .engine import State, new_game
from .rules import Rules

_TYPES = {"agent": pl.String, "won": pl.Boolean, "win_share": pl.Float64,
          "won_item": pl.Boolean, "top_tied": pl.Boolean}  # fmt: skip
GAMES = ("game", "seat", "agent", "score", "rank", "won", "win_share", "budget_left",
         "items_won", "value_won", "surplus")  # fmt: skip
ROUNDS = ("game", "round", "seat", "agent", "score_after", "value", "bid", "won_item", "paid",
          "top_tied")  # fmt: skip


def games_frame(states: list[State], labels: list[str], first: int) -> pl.DataFrame:
    rows = FrameRows({column: _TYPES.get(column, pl.Int64) for column in GAMES})
    for game, state in enumerate(states, start=first):
        result = state.result()
        for seat, share in enumerate(shares(result.ranks)):
            value = sum(state.values[seat][i] for i in state.items[seat])
            rows.add(game, seat, labels[seat], result.scores[seat], result.ranks[seat],
                     share > 0, share, state.budgets[seat], len(state.items[seat]), value,
                     result.scores[seat] - state.rules.budget)  # fmt: skip
    return rows.frame()


def rounds_frame(states: list[State], labels: list[str], first: int) -> pl.DataFrame:
    rows = FrameRows({column: _TYPES.get(column, pl.Int64) for column in ROUNDS})
    for game, state in enumerate(states, start=first):
        score = [state.rules.budget] * state.rules.players  # budget left + values won so far
        for record in state.history:
            tied = record.winner is not None and record.bids.count(record.price) > 1
            for seat, bid in enumerate(record.bids):
                won, value = record.winner == seat, state.values[seat][record.item]
                score[seat] += value - record.price if won else 0
                rows.add(game, record.item + 1, seat, labels[seat], score[seat], value, bid, won,
                         record.price if won else 0, tied)  # fmt: skip
    return rows.frame()


# Step engine only: the finished States are the recording both frames are built from.
SELF_PLAY = SelfPlay("example", Rules, new_game, frames_doc=__doc__,
                     frames=(Frame("games", games_frame), Frame("rounds", rounds_frame)))
