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

import numpy as np
import polars as pl

from workbench.games.going_gone.actions import Allocation, DoneSelling, Sell
from workbench.games.going_gone.compiled import (
    SALES,
    SEATS,
    Recording,
    Totals,
    empty_rounds,
    play_positions,
)
from workbench.games.going_gone.engine import State, new_game
from workbench.games.going_gone.holdings import exact_values, items_of, mask_of, tables_of
from workbench.games.going_gone.policies import PARAMETERS
from workbench.games.going_gone.positions import checked_table, new_positions
from workbench.games.going_gone.rules import Rules
from workbench.kit.frames import (
    GAME_COLUMNS,
    ROUND_COLUMNS,
    agent_column,
    common_game_columns,
    common_round_columns,
    typed_frame,
)
from workbench.kit.policies import PolicyTable
from workbench.kit.search import split_wins
from workbench.kit.selfplay import FastEngine, Frame, SelfPlay, Wanted
from workbench.kit.streams import state_of, store

#: Games per batch of the fast engine. Fixed, so a seed always gives the same games.
BATCH_SIZE = 8192
DEFAULT_AGENT = "valuation"


def play_new(
    rules: Rules, table: PolicyTable, assignment: np.ndarray, size: int,
    rng: np.random.Generator, first: int, wanted: Wanted,
) -> Recording:  # fmt: skip
    """``size`` new games dealt by ``rng`` and played to the end by the compiled loop, seat s
    of game g playing row ``assignment[g, s]`` of ``table``, drawing from ``rng``'s stream (the
    kit's ``FastEngine.play``); each round recorded when the rounds or lots frame is wanted."""
    checked_table(table)
    positions, first_auctioneer = new_positions(rules, size, rng)
    rounds = empty_rounds(rules, size) if wanted["rounds"] or wanted.get("lots") else None
    stream = state_of(rng)
    scores, totals = play_positions(rules, tables_of(rules), table, assignment, positions,
                                    stream=stream, rounds=rounds)  # fmt: skip
    store(rng, stream)
    return Recording(rules, positions.deck, first_auctioneer, positions.bucks, positions.holdings,
                     scores, totals, rounds)  # fmt: skip


def recorded(rules: Rules, states: list[State]) -> Recording:
    """Finished step-engine games as the recording the compiled loop makes of them."""
    games, n = len(states), rules.players
    rounds = empty_rounds(rules, games)
    totals = Totals(*np.zeros((6, games, n), np.int64))
    results = [state.result() for state in states]
    for g, state in enumerate(states):
        logged = 0
        for r, record in enumerate(state.history):
            rounds.bids[g, r] = [allocation.bids for allocation in record.bids]
            totals.times_auctioneer[g, record.auctioneer] += 1
            for cup, (lot, winner, price) in enumerate(
                zip(record.lots, record.winners, record.prices, strict=True)
            ):
                rounds.prices[g, r, cup] = price
                if winner is not None:
                    rounds.winners[g, r, cup] = winner
                    rounds.spent[g, r, winner] += price
                    rounds.lots_won[g, r, winner] += 1
                    rounds.items_won[g, r, winner] += len(lot)
            for seat, sale in enumerate(record.sales):
                rounds.sales_made[g, r, seat] = len(sale)
                rounds.sale_bucks[g, r, seat] = sum(rules.sale_value(len(c)) for c in sale)
                for k, collection in enumerate(sale):
                    rounds.sales[g, logged] = mask_of(rules, collection)
                    rounds.sale_keys[g, logged] = (r * SEATS + seat) * SALES + k
                    logged += 1
            rounds.bucks_after[g, r] = record.bucks_after
            rounds.holdings_after[g, r] = [mask_of(rules, h) for h in record.holdings_after]
    values = exact_values(rounds.holdings_after, rules)
    rounds.score_after[:] = rounds.bucks_after + values
    for name in ("spent", "lots_won", "items_won", "sales_made", "sale_bucks"):
        getattr(totals, name)[:] = getattr(rounds, name).sum(axis=1)
    return Recording(
        rules,
        np.array([state.deal.deck for state in states], np.int64).reshape(games, -1),
        np.array([state.deal.first_auctioneer for state in states], np.int64),
        np.array([result.bucks for result in results], np.int64).reshape(games, n),
        np.array([[mask_of(rules, h) for h in state.holdings] for state in states],
                 np.uint64).reshape(games, n),
        np.array([result.scores for result in results], np.int64).reshape(games, n),
        totals,
        rounds,
    )  # fmt: skip


def replay_recorded_game(rules: Rules, recording: Recording, game: int) -> State:
    """Game ``game`` of a recording replayed through ``State.apply``, action by action (what
    ties the compiled loop to the step engine; also gives a compiled game's readable log)."""
    rounds = recording.rounds
    state = new_game(
        rules,
        seed=0,
        deck=tuple(int(i) for i in recording.deck[game]),
        first_auctioneer=int(recording.first_auctioneer[game]),
    )
    sales: dict[int, list[int]] = {}
    for mask, key in zip(rounds.sales[game].tolist(), rounds.sale_keys[game].tolist(),
                         strict=True):  # fmt: skip
        if key >= 0:
            sales.setdefault(key // SALES, []).append(mask)
    for round_index in range(rules.rounds):
        while state.phase == "bid":
            bids = rounds.bids[game, round_index, state.to_play]
            state = state.apply(Allocation(tuple(int(b) for b in bids)))
        while state.phase == "sell" and state.round == round_index + 1:
            for mask in sales.get(round_index * SEATS + state.to_play, ()):
                state = state.apply(Sell(items_of(rules, mask)))
            state = state.apply(DoneSelling())
    return state


_GAME_SCHEMA = {
    **GAME_COLUMNS, "bucks": pl.Int32, "collection_value": pl.Int32, "items_held": pl.Int8,
    "items_won": pl.Int8, "lots_won": pl.Int8, "times_auctioneer": pl.Int8, "sales": pl.Int8,
    "sale_bucks": pl.Int32, "spent": pl.Int32,
}  # fmt: skip
_ROUND_SCHEMA = {
    **ROUND_COLUMNS, "is_auctioneer": pl.Boolean, "bid_total": pl.Int16, "lots_won": pl.Int8,
    "items_won": pl.Int8, "spent": pl.Int16, "sales": pl.Int8, "sale_bucks": pl.Int16,
    "bucks_after": pl.Int32, "items_held": pl.Int8, "lots_discarded": pl.Int8,
}  # fmt: skip
_LOT_SCHEMA = {
    "game": pl.Int64, "round": pl.Int8, "cup": pl.Int8, "lot_size": pl.Int8,
    "items": pl.List(pl.Int16), "auctioneer": pl.Int8, "bids": pl.List(pl.Int16),
    "bidders": pl.Int8, "winner": pl.Int8, "winner_agent": pl.String, "price": pl.Int16,
    "runner_up": pl.Int16, "tie": pl.Boolean, "auctioneer_tie_win": pl.Boolean,
}  # fmt: skip


def games_frame(recording: Recording, labels: Sequence[str], first_game: int) -> pl.DataFrame:
    """The games frame of a recording."""
    scores, totals = recording.scores, recording.totals
    ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    columns = {
        **common_game_columns(labels, first_game, scores, ranks, split_wins(scores)),
        "bucks": recording.bucks.ravel(),
        "collection_value": (scores - recording.bucks).ravel(),
        "items_held": np.bitwise_count(recording.holdings).ravel(),
        "items_won": totals.items_won.ravel(),
        "lots_won": totals.lots_won.ravel(),
        "times_auctioneer": totals.times_auctioneer.ravel(),
        "sales": totals.sales_made.ravel(),
        "sale_bucks": totals.sale_bucks.ravel(),
        "spent": totals.spent.ravel(),
    }
    return typed_frame(columns, _GAME_SCHEMA)


def rounds_frame(recording: Recording, labels: Sequence[str], first_game: int) -> pl.DataFrame:
    """The rounds frame of a recording."""
    rounds = recording.rounds
    _, count, n = rounds.bucks_after.shape
    auctioneer = (recording.first_auctioneer[:, None] + np.arange(count)[None, :]) % n
    columns = {
        **common_round_columns(labels, first_game, rounds.score_after),
        "is_auctioneer": (auctioneer[:, :, None] == np.arange(n)).ravel(),
        "bid_total": rounds.bids.sum(axis=3).ravel(),
        "lots_won": rounds.lots_won.ravel(),
        "items_won": rounds.items_won.ravel(),
        "spent": rounds.spent.ravel(),
        "sales": rounds.sales_made.ravel(),
        "sale_bucks": rounds.sale_bucks.ravel(),
        "bucks_after": rounds.bucks_after.ravel(),
        "items_held": np.bitwise_count(rounds.holdings_after).ravel(),
        "lots_discarded": np.repeat((rounds.winners < 0).sum(axis=2).ravel(), n),
    }
    return typed_frame(columns, _ROUND_SCHEMA)


def lots_frame(recording: Recording, labels: Sequence[str], first_game: int) -> pl.DataFrame:
    """The lots frame of a recording."""
    rules, rounds = recording.rules, recording.rounds
    games, count, n, _ = rounds.bids.shape
    auctioneer = (recording.first_auctioneer[:, None].astype(np.int64) + np.arange(count)) % n
    parts = []
    start = 0
    for cup, size in enumerate(rules.lot_sizes):
        offsets = (np.arange(count) * rules.items_per_round)[:, None] + start + np.arange(size)
        items = np.sort(recording.deck[:, offsets].astype(np.int64), axis=2)  # (G, R, size)
        start += size
        bids = rounds.bids[:, :, :, cup].astype(np.int64)  # (G, R, n)
        winner = rounds.winners[:, :, cup].astype(np.int64)
        ordered = np.sort(bids, axis=2)
        top, second = ordered[..., -1], ordered[..., -2]
        tie = (top > 0) & (top == second)
        rows = games * count
        parts.append(pl.DataFrame({
            "game": np.repeat(np.arange(first_game, first_game + games), count),
            "round": np.tile(np.arange(1, count + 1), games), "cup": np.full(rows, cup + 1),
            "lot_size": np.full(rows, size),
            "items": pl.Series(items.reshape(rows, size)).cast(pl.List(pl.Int16)),
            "auctioneer": auctioneer.ravel(),
            "bids": pl.Series(bids.reshape(rows, n)).cast(pl.List(pl.Int16)),
            "bidders": (bids > 0).sum(axis=2).ravel(),
            "winner": pl.Series(winner.ravel()).replace(-1, None),
            "winner_agent": agent_column(labels, np.maximum(winner.ravel(), 0)),
            "price": rounds.prices[:, :, cup].ravel(),
            "runner_up": np.where(top > 0, second, 0).ravel(), "tie": tie.ravel(),
            "auctioneer_tie_win": (tie & (winner == auctioneer)).ravel(),
        }).with_columns(
            pl.when(pl.col("winner").is_null()).then(None).otherwise(pl.col("winner_agent"))
            .alias("winner_agent")
        ))  # fmt: skip
    frame = pl.concat(parts).sort(["game", "round", "cup"])
    return frame.cast(_LOT_SCHEMA)  # type: ignore[arg-type]


FAST_ENGINE = FastEngine(
    BATCH_SIZE, play_new,
    win_shares=lambda played: split_wins(played.scores), width=PARAMETERS,
)
SELF_PLAY = SelfPlay(
    "going_gone", Rules, new_game, fast=FAST_ENGINE, frames_doc=__doc__, recorded=recorded,
    frames=(Frame("games", games_frame), Frame("rounds", rounds_frame), Frame("lots", lots_frame)),
)  # fmt: skip


__all__ = [
    "BATCH_SIZE", "DEFAULT_AGENT", "SELF_PLAY", "games_frame", "lots_frame", "play_new",
    "recorded", "replay_recorded_game", "rounds_frame",
]  # fmt: skip
