"""Going, Going, GONE!'s self-play (the kit's ``SelfPlay``) and its result frames.

Frames (one row per ...):

- games, game × seat: game, seat, agent, score, rank, won, win_share (1/k for a k-way shared
  win), bucks, collection_value (best arrangement of the items held at the end), items_held,
  items_won, lots_won, times_auctioneer, sales (collections sold), sale_bucks, spent.
- rounds, game × round × seat: game, round, seat, agent, score_after (Bucks + best
  arrangement if the game ended after this round), is_auctioneer (this seat held the paddle),
  bid_total, lots_won, items_won, spent, sales, sale_bucks, bucks_after, items_held,
  lots_discarded (lots nobody bid on this round; the same for every seat).
- lots (with ``lots=True``), game × round × cup: game, round, cup, lot_size, items (item ids),
  auctioneer, bids (by seat), bidders, winner (seat; null: nobody bid, discarded),
  winner_agent, price, runner_up (the highest losing bid), tie (two or more seats bid the top),
  auctioneer_tie_win (a tie the Auctioneer won by the tie rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from workbench.games.going_gone.actions import Allocation, DoneSelling, Sell
from workbench.games.going_gone.bits import items_of, mask_of, popcount
from workbench.games.going_gone.compiled import many_exact, tables_of
from workbench.games.going_gone.engine import State, new_game
from workbench.games.going_gone.fast import FastBatch, Recording, final_scores, new_batch, play
from workbench.games.going_gone.rules import Rules
from workbench.kit.frames import (
    GAME_COLUMNS,
    ROUND_COLUMNS,
    FrameRows,
    agent_column,
    common_game_columns,
    common_round_columns,
    seat_rows,
    shares,
    typed_frame,
)
from workbench.kit.selfplay import FastEngine, Frame, SelfPlay, Wanted

#: Games per batch of the fast engine. Fixed, so a seed always gives the same games.
BATCH_SIZE = 8192
DEFAULT_AGENT = "valuation"


def _play_fast(
    rules: Rules, agents: list[Any], size: int, rng: np.random.Generator, first: int, wanted: Wanted
) -> tuple[Rules, FastBatch, Recording | None]:
    batch = new_batch(rules, size, rng)
    recording = Recording.empty(rules, size) if wanted["rounds"] or wanted["lots"] else None
    play(batch, agents, rng, recording)
    return rules, batch, recording


def replay_recorded_game(rules: Rules, recording: Recording, game: int) -> State:
    """Game ``game`` of a recorded fast batch replayed through ``State.apply``, action by action
    (what ties the fast engine to the step engine; also gives a fast game's readable log)."""
    state = new_game(
        rules,
        seed=0,
        deck=tuple(int(i) for i in recording.deck[game]),
        first_auctioneer=int(recording.first_auctioneer[game]),
    )
    for round_index in range(rules.rounds):
        while state.phase == "bid":
            seat = state.to_play
            bids = recording.bids[game, round_index, seat]
            state = state.apply(Allocation(tuple(int(b) for b in bids)))
        while state.phase == "sell" and state.round == round_index + 1:
            seat = state.to_play
            for mask in recording.sales[round_index][game, seat]:
                if mask:
                    state = state.apply(Sell(items_of(rules, int(mask))))
            state = state.apply(DoneSelling())
    return state


# -- frames -------------------------------------------------------------------------------------

_GAME_SCHEMA = {
    **GAME_COLUMNS,
    "bucks": pl.Int32,
    "collection_value": pl.Int32,
    "items_held": pl.Int8,
    "items_won": pl.Int8,
    "lots_won": pl.Int8,
    "times_auctioneer": pl.Int8,
    "sales": pl.Int8,
    "sale_bucks": pl.Int32,
    "spent": pl.Int32,
}
_ROUND_SCHEMA = {
    **ROUND_COLUMNS,
    "is_auctioneer": pl.Boolean,
    "bid_total": pl.Int16,
    "lots_won": pl.Int8,
    "items_won": pl.Int8,
    "spent": pl.Int16,
    "sales": pl.Int8,
    "sale_bucks": pl.Int16,
    "bucks_after": pl.Int32,
    "items_held": pl.Int8,
    "lots_discarded": pl.Int8,
}
_LOT_SCHEMA = {
    "game": pl.Int64,
    "round": pl.Int8,
    "cup": pl.Int8,
    "lot_size": pl.Int8,
    "items": pl.List(pl.Int16),
    "auctioneer": pl.Int8,
    "bids": pl.List(pl.Int16),
    "bidders": pl.Int8,
    "winner": pl.Int8,
    "winner_agent": pl.String,
    "price": pl.Int16,
    "runner_up": pl.Int16,
    "tie": pl.Boolean,
    "auctioneer_tie_win": pl.Boolean,
}


def batch_games_frame(batch: FastBatch, labels: Sequence[str], first_game: int) -> pl.DataFrame:
    """The games frame of a finished batch."""
    values, scores, ranks, share = final_scores(batch)
    columns = {
        **common_game_columns(labels, first_game, scores, ranks, share),
        "bucks": batch.bucks.ravel(),
        "collection_value": values.ravel(),
        "items_held": popcount(batch.holdings).ravel(),
        "items_won": batch.items_won.ravel(),
        "lots_won": batch.lots_won.ravel(),
        "times_auctioneer": batch.times_auctioneer.ravel(),
        "sales": batch.sales_made.ravel(),
        "sale_bucks": batch.sale_bucks.ravel(),
        "spent": batch.spent.ravel(),
    }
    return typed_frame(columns, _GAME_SCHEMA)


def batch_rounds_frame(
    recording: Recording, batch: FastBatch, labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The rounds frame of a recorded batch."""
    _, rounds, n = recording.bucks_after.shape
    auctioneer = (
        batch.first_auctioneer[:, None] + np.arange(rounds)[None, :]
    ) % n  # (G, R): the paddle passes clockwise every round
    columns = {
        **common_round_columns(labels, first_game, recording.score_after),
        "is_auctioneer": (auctioneer[:, :, None] == np.arange(n)).ravel(),
        "bid_total": recording.bids.sum(axis=3).ravel(),
        "lots_won": recording.lots_won.ravel(),
        "items_won": recording.items_won.ravel(),
        "spent": recording.spent.ravel(),
        "sales": recording.sales_made.ravel(),
        "sale_bucks": recording.sale_bucks.ravel(),
        "bucks_after": recording.bucks_after.ravel(),
        "items_held": popcount(recording.holdings_after).ravel(),
        "lots_discarded": np.repeat((recording.winners < 0).sum(axis=2).ravel(), n),
    }
    return typed_frame(columns, _ROUND_SCHEMA)


def batch_lots_frame(
    recording: Recording, rules: Rules, labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The lots frame of a recorded batch."""
    games, rounds, n, _ = recording.bids.shape
    auctioneer = (recording.first_auctioneer[:, None].astype(np.int64) + np.arange(rounds)) % n
    parts = []
    start = 0
    for cup, size in enumerate(rules.lot_sizes):
        offsets = (np.arange(rounds) * rules.items_per_round)[:, None] + start + np.arange(size)
        items = np.sort(recording.deck[:, offsets].astype(np.int64), axis=2)  # (G, R, size)
        start += size
        bids = recording.bids[:, :, :, cup].astype(np.int64)  # (G, R, n)
        winner = recording.winners[:, :, cup].astype(np.int64)
        ordered = np.sort(bids, axis=2)
        top, second = ordered[..., -1], ordered[..., -2]
        tie = (top > 0) & (top == second)
        rows = games * rounds
        parts.append(
            pl.DataFrame(
                {
                    "game": np.repeat(np.arange(first_game, first_game + games), rounds),
                    "round": np.tile(np.arange(1, rounds + 1), games),
                    "cup": np.full(rows, cup + 1),
                    "lot_size": np.full(rows, size),
                    "items": pl.Series(items.reshape(rows, size)).cast(pl.List(pl.Int16)),
                    "auctioneer": auctioneer.ravel(),
                    "bids": pl.Series(bids.reshape(rows, n)).cast(pl.List(pl.Int16)),
                    "bidders": (bids > 0).sum(axis=2).ravel(),
                    "winner": pl.Series(winner.ravel()).replace(-1, None),
                    "winner_agent": agent_column(labels, np.maximum(winner.ravel(), 0)),
                    "price": recording.prices[:, :, cup].ravel(),
                    "runner_up": np.where(top > 0, second, 0).ravel(),
                    "tie": tie.ravel(),
                    "auctioneer_tie_win": (tie & (winner == auctioneer)).ravel(),
                }
            ).with_columns(
                pl.when(pl.col("winner").is_null())
                .then(None)
                .otherwise(pl.col("winner_agent"))
                .alias("winner_agent")
            )
        )
    frame = pl.concat(parts).sort(["game", "round", "cup"])
    return frame.cast(_LOT_SCHEMA)  # type: ignore[arg-type]


def states_games_frame(
    states: Sequence[State], labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The games frame of finished step-engine games: Bucks, collections, lots, sales."""
    return seat_rows(states, labels, first_game, _GAME_SCHEMA, _seat_results)


def _seat_results(state: State) -> list[tuple]:
    result, n = state.result(), state.rules.players
    spent, sales, sale_bucks, lots_won, items_won = _totals(state)
    times = [sum(record.auctioneer == seat for record in state.history) for seat in range(n)]
    share = shares(result.ranks)
    return [
        (result.scores[seat], result.ranks[seat], result.ranks[seat] == 1, share[seat],
         result.bucks[seat], result.collection_values[seat], len(state.holdings[seat]),
         items_won[seat], lots_won[seat], times[seat], sales[seat], sale_bucks[seat], spent[seat])
        for seat in range(n)
    ]  # fmt: skip


def _totals(state: State) -> tuple[list[int], ...]:
    """Per seat over the whole game: spent, collections sold, sale Bucks, lots won, items won."""
    n = state.rules.players
    totals = [[0] * n for _ in range(5)]
    for record in state.history:
        for per_round, total in zip(_round_facts(state.rules, record), totals, strict=False):
            for seat in range(n):
                total[seat] += per_round[seat]
    return tuple(totals)


def _round_facts(rules: Rules, record: Any) -> tuple[list[int], ...]:
    """Per seat in one round: spent, collections sold, sale Bucks, lots won, items won, bid."""
    n = rules.players
    spent, lots_won, items_won = [0] * n, [0] * n, [0] * n
    for lot, winner, price in zip(record.lots, record.winners, record.prices, strict=True):
        if winner is not None:
            spent[winner] += price
            lots_won[winner] += 1
            items_won[winner] += len(lot)
    sales = [len(c) for c in record.sales]
    sale_bucks = [sum(rules.sale_value(len(x)) for x in c) for c in record.sales]
    bid = [record.bids[seat].total for seat in range(n)]
    return spent, sales, sale_bucks, lots_won, items_won, bid


def states_rounds_frame(
    states: Sequence[State], labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The rounds frame of finished engine games (same columns as the fast engine's)."""
    rows = FrameRows(_ROUND_SCHEMA)
    for offset, state in enumerate(states):
        rules = state.rules
        values = iter(_values_after(state))
        for record in state.history:
            spent, sales, sale_bucks, lots_won, items_won, bid = _round_facts(rules, record)
            for seat in range(rules.players):
                holding = record.holdings_after[seat]
                value = next(values)
                rows.add(
                    first_game + offset,
                    record.round,
                    seat,
                    labels[seat],
                    record.bucks_after[seat] + value,
                    record.auctioneer == seat,
                    bid[seat],
                    lots_won[seat],
                    items_won[seat],
                    spent[seat],
                    sales[seat],
                    sale_bucks[seat],
                    record.bucks_after[seat],
                    len(holding),
                    sum(winner is None for winner in record.winners),
                )
    return rows.frame()


def _values_after(state: State) -> list[int]:
    """The exact value of every seat's holding after every round, round after round (compiled:
    ``compiled.many_exact``, tied to the solver by tests)."""
    rules, tables = state.rules, tables_of(state.rules)
    masks = [mask_of(rules, h) for record in state.history for h in record.holdings_after]
    return many_exact(np.array(masks, np.uint64), tables.best, tables.low, tables.high).tolist()


def states_lots_frame(
    states: Sequence[State], labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The lots frame of finished engine games (same columns as the fast engine's)."""
    rows = FrameRows(_LOT_SCHEMA)
    for offset, state in enumerate(states):
        for record in state.history:
            for cup, (lot, winner, price) in enumerate(
                zip(record.lots, record.winners, record.prices, strict=True)
            ):
                bids = [allocation.bids[cup] for allocation in record.bids]
                ordered = sorted(bids)
                top, second = ordered[-1], ordered[-2]
                tie = top > 0 and top == second
                rows.add(
                    first_game + offset,
                    record.round,
                    cup + 1,
                    len(lot),
                    list(lot),
                    record.auctioneer,
                    bids,
                    sum(b > 0 for b in bids),
                    winner,
                    None if winner is None else labels[winner],
                    price,
                    second if top > 0 else 0,
                    tie,
                    tie and winner == record.auctioneer,
                )
    return rows.frame()


# -- the game's self-play ---------------------------------------------------------------------

FAST_ENGINE = FastEngine(
    BATCH_SIZE, ("policy_kind", "policy_params"), _play_fast,
    win_shares=lambda played: final_scores(played[1])[3],
)  # fmt: skip
SELF_PLAY = SelfPlay(
    "going_gone", Rules, new_game, fast=FAST_ENGINE, frames_doc=__doc__,
    frames=(
        Frame("games", lambda p, *at: batch_games_frame(p[1], *at), states_games_frame),
        Frame("rounds", lambda p, *at: batch_rounds_frame(p[2], p[1], *at), states_rounds_frame),
        Frame("lots", lambda p, *at: batch_lots_frame(p[2], p[0], *at), states_lots_frame),
    ),
)  # fmt: skip


__all__ = [
    "BATCH_SIZE",
    "DEFAULT_AGENT",
    "SELF_PLAY",
    "batch_games_frame",
    "batch_lots_frame",
    "batch_rounds_frame",
    "replay_recorded_game",
    "states_games_frame",
    "states_lots_frame",
    "states_rounds_frame",
]
