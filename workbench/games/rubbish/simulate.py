"""Rubbish Auction's self-play (the kit's ``SelfPlay``) and its result frames.

games frame, one row per game × seat: game, seat, agent, geek, score, fame, rank, won,
win_share (1/k for a k-way shared victory), items_won, destined_won, times_cheapskate.
rounds frame, one row per game × round × seat: game, round, seat, agent, item, first_bidder,
position (in bidding order), bid_total, cards_held_out, role (winner / cheapskate / gainer),
fame_after, score_after (fame plus the destined bonus for the destined items won so far: the
score if the game ended now).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial

import numpy as np
import polars as pl

from workbench.games.rubbish.cards import bid_table
from workbench.games.rubbish.compiled import Positions, Recording, standings
from workbench.games.rubbish.engine import Auction, State, new_game
from workbench.games.rubbish.positions import (
    deal_and_play,
    empty_recording,
    positions_of_states,
    tables_for,
)
from workbench.games.rubbish.rules import Rules
from workbench.kit.frames import agent_column
from workbench.kit.policies import PolicyTable
from workbench.kit.selfplay import FastEngine, Frame, SelfPlay, Wanted

#: Games per batch of the fast engine. Fixed, so a seed always gives the same games.
BATCH_SIZE = 8192

ROLES = ("winner", "cheapskate", "gainer")  # compiled.ROLE_* in order
ROLE_TYPE = pl.Enum(list(ROLES))


@dataclass
class PlayedBatch:
    """A batch of finished games: where each ended, its standings, and the ``recording`` of its
    rounds (None when the rounds frame is not wanted; from States, made when first read)."""

    positions: Positions
    standings: tuple[np.ndarray, np.ndarray, np.ndarray]  # scores, ranks, win shares
    starting_auctioneer: np.ndarray
    rounds: Recording | Callable[[], Recording] | None

    @cached_property
    def recording(self) -> Recording | None:
        return self.rounds() if callable(self.rounds) else self.rounds


def play_fast(
    rules: Rules, table: PolicyTable, assignment: np.ndarray, size: int,
    rng: np.random.Generator, first: int, wanted: Wanted,
) -> PlayedBatch:  # fmt: skip
    """``size`` new games played by the compiled engine (the kit's ``FastEngine.play``)."""
    recording = empty_recording(size, rules.rounds, rules.players) if wanted["rounds"] else None
    positions, standings, starting_auctioneer = deal_and_play(rules, table, assignment, size,
                                                              rng, recording)  # fmt: skip
    return PlayedBatch(positions, standings, starting_auctioneer, recording)


def batch_games_frame(batch: PlayedBatch, labels: Sequence[str], first_game: int) -> pl.DataFrame:
    """The games frame of a finished batch."""
    scores, ranks, share = batch.standings
    positions = batch.positions
    game, seat, agent = _seat_columns(tuple(labels), scores.shape[0])
    return pl.DataFrame(
        {
            "game": game + first_game if first_game else game, "seat": seat, "agent": agent,
            "geek": positions.geek.ravel().astype(np.int8), "score": scores.ravel(),
            "fame": positions.fame.ravel(), "rank": ranks.ravel(), "won": (ranks == 1).ravel(),
            "win_share": share.ravel(), "items_won": positions.items_won.ravel().astype(np.int8),
            "destined_won": positions.destined_won.ravel().astype(np.int8),
            "times_cheapskate": positions.cheapskates.ravel().astype(np.int8),
        }
    )


@lru_cache(maxsize=8)
def _seat_columns(labels: tuple[str, ...], games: int) -> tuple[np.ndarray, pl.Series, pl.Series]:
    """The games frame's game (from 0), seat and agent columns, made once per batch size."""
    n = len(labels)
    seats = np.tile(np.arange(n), games)
    game = np.repeat(np.arange(games, dtype=np.int64), n)
    game.flags.writeable = False
    return game, pl.Series("seat", seats.astype(np.int8)), agent_column(labels, seats)


def batch_rounds_frame(
    recording: Recording, labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The rounds frame of a recorded batch."""
    games, rounds, n = recording.total.shape
    game = np.repeat(np.arange(first_game, first_game + games, dtype=np.int64), rounds * n)
    seats = np.tile(np.arange(n), games * rounds)
    first = np.repeat(recording.first.ravel(), n).astype(np.int64)
    position = (seats - first) % n
    return pl.DataFrame(
        {
            "game": game,
            "round": np.tile(np.repeat(np.arange(1, rounds + 1), n), games).astype(np.int8),
            "seat": seats.astype(np.int8), "agent": agent_column(labels, seats),
            "item": np.repeat(recording.item.ravel(), n).astype(np.int8),
            "first_bidder": first.astype(np.int8), "position": position.astype(np.int8),
            "bid_total": recording.total.ravel().astype(np.int16),
            "cards_held_out": recording.cards.ravel().astype(np.int8),
            "role": pl.Series(list(ROLES), dtype=ROLE_TYPE).gather(recording.role.ravel()),
            "fame_after": recording.fame_after.ravel().astype(np.int16),
            "score_after": recording.score_after.ravel().astype(np.int16),
        }
    )


def recorded(rules: Rules, states: Sequence[State]) -> PlayedBatch:
    """Finished step-engine games as the played batch the compiled loop makes of its own."""
    positions = positions_of_states(states)
    starting = np.array([state.deal.starting_auctioneer for state in states], np.int8)
    rounds = partial(_recording, rules, states)
    return PlayedBatch(positions, standings(tables_for(rules), positions), starting, rounds)


def _recording(rules: Rules, states: Sequence[State]) -> Recording:
    """Every round of finished States, as the compiled loop records its own."""
    table = bid_table(rules.money_cards)
    codes = {role: code for code, role in enumerate(ROLES)}
    rounds, seats = [], []
    for state in states:
        destined, lock = [0] * rules.players, [0] * rules.players
        for record in state.history:
            if record.kept and record.item in rules.destined_to(state.deal.geeks[record.winner]):
                destined[record.winner] += 1
            rounds.append((record.item, record.first_bidder, record.kept))
            for seat, (bid, fame) in enumerate(zip(record.bids, record.fame_after, strict=True)):
                seats.append((table.index[lock[seat]][bid], lock[seat], bid.total, bid.count,
                              codes[record.role(seat)], fame,
                              fame + rules.destined_bonus * destined[seat]))  # fmt: skip
            lock = [table.lock_option(card) for card in record.locked_next]
    recording = empty_recording(len(states), rules.rounds, rules.players)
    by_round = np.array(rounds).reshape(len(states), rules.rounds, 3)
    recording.item[:], recording.first[:], recording.kept[:] = np.moveaxis(by_round, -1, 0)
    by_seat = np.moveaxis(np.array(seats).reshape(*recording.total.shape, 7), -1, 0)
    fields = ("bid_index", "lock_before", "total", "cards", "role", "fame_after", "score_after")
    for name, column in zip(fields, by_seat, strict=True):
        getattr(recording, name)[:] = column
    return recording


def replay_recorded_game(rules: Rules, batch: PlayedBatch, game: int) -> State:
    """Game ``game`` of a recorded batch replayed through ``State.apply`` (its readable log)."""
    state = new_game(
        rules, seed=0, geeks=tuple(int(g) for g in batch.positions.geek[game]),
        starting_auctioneer=int(batch.starting_auctioneer[game]),
    )  # fmt: skip
    assert batch.recording is not None, "replay needs a recorded batch"
    return replay_rounds(state, batch.recording, game)


def replay_rounds(state: State, recording: Recording, game: int) -> State:
    """``state`` continued through ``State.apply`` with the recorded rounds of ``game``."""
    rules = state.rules
    table = bid_table(rules.money_cards)
    for round_index in range(state.rounds_done, rules.rounds):
        first = int(recording.first[game, round_index])
        if state.phase == "auction":
            state = state.apply(Auction(int(recording.item[game, round_index]), first))
        for offset in range(len(state.bids), rules.players):
            seat = (first + offset) % rules.players
            option = int(recording.lock_before[game, round_index, seat])
            bid = table.bids[option][int(recording.bid_index[game, round_index, seat])]
            state = state.apply(bid)
    return state


FAST_ENGINE = FastEngine(
    BATCH_SIZE, play_fast, win_shares=lambda played: played.standings[2]
)
SELF_PLAY = SelfPlay(
    "rubbish", Rules, new_game, fast=FAST_ENGINE, frames_doc=__doc__, recorded=recorded,
    frames=(
        Frame("games", batch_games_frame),
        Frame("rounds", lambda played, *at: batch_rounds_frame(played.recording, *at)),
    ),
)  # fmt: skip
