"""Auction House's self-play (the kit's ``SelfPlay``) and its result frames, each built once
from a recording: the compiled engine's, or the step engine's finished States made one.

games frame, one row per game × seat: game, seat, agent, score, rank, won, win_share,
kitties_won, tricks, auctions_started, points_lost (lost to a tie in the last deal; the same
for every seat). rounds frame, one row per game × deal × seat: game, round (the deal,
1-based), seat, agent, score_after, dealer, trump (null: none), auction_role (none, starter,
seller: the starter took its offer, offerer), tricks, kitty_card_points (of the card it put
in), kitty_points (the deal's four cards), carried_in, kitty_won, points_won, carried_out,
lost. The kitty analyses read a third frame, deals (game × deal), from ``played_batches``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import polars as pl

from workbench.games.auction_house.actions import Kitty, Offer, Pass, Play, Start, Take
from workbench.games.auction_house.cards import DECK, POINTS, SUITS, TRUMP_DECK, card_index
from workbench.games.auction_house.chance import Deal
from workbench.games.auction_house.compiled import Recording
from workbench.games.auction_house.engine import State, new_game
from workbench.games.auction_house.policies import WIDTH
from workbench.games.auction_house.positions import (
    PlayedBatch,
    final_scores,
    play_dealt,
    state_chance,
)
from workbench.games.auction_house.rules import PLAYERS, Rules
from workbench.kit.frames import (
    GAME_COLUMNS,
    ROUND_COLUMNS,
    common_game_columns,
    common_round_columns,
    typed_frame,
)
from workbench.kit.policies import PolicyTable
from workbench.kit.selfplay import FastEngine, Frame, SelfPlay, Wanted

#: Games per batch of the fast engine. Fixed, so a seed always gives the same games.
BATCH_SIZE = 4096
ROLES = ("none", "starter", "seller", "offerer")
ROLE_TYPE = pl.Enum(list(ROLES))
SUIT_TYPE = pl.Enum(list(SUITS))


def _play_fast(
    rules: Rules, table: PolicyTable, assignment: np.ndarray, size: int, rng: np.random.Generator,
    first: int, wanted: Wanted,
) -> tuple[PlayedBatch, Recording]:  # fmt: skip
    return play_dealt(rules, table, assignment, size, rng)


# -- frames -------------------------------------------------------------------------------------

I8, I16 = pl.Int8, pl.Int16
_GAME_SCHEMA = {**GAME_COLUMNS, "kitties_won": I8, "tricks": I16, "auctions_started": I8,
                "points_lost": I16}  # fmt: skip
_ROUND_SCHEMA = {
    **ROUND_COLUMNS, "dealer": I8, "trump": SUIT_TYPE, "auction_role": ROLE_TYPE, "tricks": I8,
    "kitty_card_points": I8, "kitty_points": I16, "carried_in": I16, "kitty_won": pl.Boolean,
    "points_won": I16, "carried_out": I16, "lost": I16,
}  # fmt: skip
_DEAL_SCHEMA = {
    "game": pl.Int64, "deal": I8, "dealer": I8, "trump": SUIT_TYPE, "auction": pl.Boolean,
    "starter": I8, "face_up": pl.String, "called": SUIT_TYPE, "taken": pl.String,
    "taken_from": I8, "forced": pl.Boolean, "kitty_points": I16, "carried_in": I16,
    "at_stake": I16, **{f"tricks_{seat}": I8 for seat in range(PLAYERS)}, "most_tricks": I8,
    "tied": I8, "kitty_winner": I8, "carried_out": I16, "lost": I16, "chain": I8,
}  # fmt: skip


def _named(values: np.ndarray, names: Sequence[Any] | None = None) -> list[Any]:
    """Each value (or its name in ``names``), None where it is negative (none)."""
    return [None if v < 0 else v if names is None else names[v] for v in values.ravel().tolist()]


def games_frame(
    batch: PlayedBatch, recording: Recording, labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The games frame of played games."""
    winners = recording.kitty_winner
    kitties = (winners[:, :, None] == np.arange(PLAYERS)).sum(axis=1)
    auctions = (recording.starter[:, :, None] == np.arange(PLAYERS)).sum(axis=1)
    columns = {
        **common_game_columns(labels, first_game, *final_scores(batch)),
        "kitties_won": kitties.ravel(),
        "tricks": recording.tricks_won.astype(np.int64).sum(axis=1).ravel(),
        "auctions_started": auctions.ravel(),
        "points_lost": np.repeat(recording.lost[:, -1], PLAYERS),
    }
    return typed_frame(columns, _GAME_SCHEMA)


def rounds_frame(recording: Recording, labels: Sequence[str], first_game: int) -> pl.DataFrame:
    """The rounds frame of played games (one row per game × deal × seat)."""
    games, deals = recording.dealer.shape
    seats = np.tile(np.arange(PLAYERS), games * deals)
    per_deal = lambda a: np.repeat(a.ravel(), PLAYERS)  # noqa: E731
    starter, taken_from = per_deal(recording.starter), per_deal(recording.taken_from)
    role = np.where(starter < 0, 0,
                    np.where(seats == starter, 1, np.where(seats == taken_from, 2, 3)))  # fmt: skip
    winner = per_deal(recording.kitty_winner)
    stake = per_deal(recording.kitty_points.astype(np.int64) + recording.carried_in)
    kitty_cards = recording.kitty.ravel()
    columns = {
        **common_round_columns(labels, first_game, recording.scores_after),
        "dealer": per_deal(recording.dealer),
        "trump": _named(per_deal(recording.trump), SUITS),
        "auction_role": pl.Series(ROLES).gather(role),
        "tricks": recording.tricks_won.ravel(),
        "kitty_card_points": np.array([*POINTS, 0])[kitty_cards],
        "kitty_points": per_deal(recording.kitty_points),
        "carried_in": per_deal(recording.carried_in),
        "kitty_won": winner == seats,
        "points_won": np.where(winner == seats, stake, 0),
        "carried_out": per_deal(recording.carried_out),
        "lost": per_deal(recording.lost),
    }
    return typed_frame(columns, _ROUND_SCHEMA)


def deals_frame(recording: Recording, first_game: int) -> pl.DataFrame:
    """One row per game × deal: the kitty's story (see ``kitty.kitty_outcomes``)."""
    games, deals = recording.dealer.shape
    tricks = recording.tricks_won.astype(np.int64)
    most = tricks.max(axis=2)
    tied = (tricks == most[:, :, None]).sum(axis=2)
    columns = {
        "game": np.repeat(np.arange(first_game, first_game + games), deals),
        "deal": np.tile(np.arange(1, deals + 1), games),
        "dealer": recording.dealer.ravel(),
        "trump": _named(recording.trump, SUITS),
        "auction": recording.starter.ravel() >= 0,
        "starter": _named(recording.starter),
        "face_up": _named(recording.face_up, DECK),
        "called": _named(recording.called, SUITS),
        "taken": _named(recording.taken, DECK),
        "taken_from": _named(recording.taken_from),
        "forced": _named(np.where(recording.starter >= 0, recording.forced, -1), (False, True)),
        "kitty_points": recording.kitty_points.ravel(),
        "carried_in": recording.carried_in.ravel(),
        "at_stake": (recording.kitty_points.astype(np.int64) + recording.carried_in).ravel(),
        **{f"tricks_{seat}": tricks[:, :, seat].ravel() for seat in range(PLAYERS)},
        "most_tricks": most.ravel(),
        "tied": tied.ravel(),
        "kitty_winner": _named(recording.kitty_winner),
        "carried_out": recording.carried_out.ravel(),
        "lost": recording.lost.ravel(),
        "chain": _chains(recording.kitty_winner < 0).ravel(),
    }
    return typed_frame(columns, _DEAL_SCHEMA)


def _chains(tied: np.ndarray) -> np.ndarray:
    """Per game and deal: how many kitties this deal's pot holds (1 + the tied deals in a row
    just before it)."""
    chain = np.ones(tied.shape, np.int64)
    for d in range(1, tied.shape[1]):
        chain[:, d] = np.where(tied[:, d - 1], chain[:, d - 1] + 1, 1)
    return chain


def recorded(rules: Rules, states: Sequence[State]) -> tuple[PlayedBatch, Recording]:
    """Finished step-engine games as the compiled engine records them (their chance, scores
    and every deal), so both engines' frames come from one builder each."""
    rec = Recording.empty(len(states), rules.deals)
    for g, state in enumerate(states):
        for d, (record, kitty) in enumerate(zip(state.history, state.kitty_history, strict=True)):
            a = record.auction  # the block's columns in layout.RECORDED's order, then by seat
            auction = (-1, -1, -1, -1, -1, 0) if a is None else (
                a.starter, card_index(a.face_up), SUITS.index(a.called), card_index(a.taken),
                a.taken_from, a.forced)  # fmt: skip
            offers = [-1] * PLAYERS if a is None else [
                -1 if card is None else card_index(card) for card in a.offers]  # fmt: skip
            rec.block[g, d] = (
                record.dealer, SUITS.index(record.trump) if record.trump else -1, *auction,
                -1 if record.kitty_winner is None else record.kitty_winner, record.kitty_points,
                record.carried_in, record.carried_out, record.lost, *offers, *kitty,
                *record.tricks_won, *record.scores_after,
                *(card_index(c) for trick in record.tricks for c in trick.cards),
            )  # fmt: skip
    chances = [state_chance(state) for state in states]
    batch = PlayedBatch(
        np.array([state.chance.first_dealer for state in states], np.int64),
        np.array([trump for trump, _ in chances], np.int8).reshape(len(states), -1),
        np.array([shuffles for _, shuffles in chances], np.int8).reshape(len(states), -1, 40),
        np.array([state.scores for state in states], np.int64).reshape(len(states), PLAYERS),
    )
    return batch, rec


# -- replay -------------------------------------------------------------------------------------


def batch_deal(batch: PlayedBatch, game: int) -> Deal:
    """The chance of game ``game`` of a batch, for ``new_game(deal=...)``."""
    return Deal(
        int(batch.first_dealer[game]),
        tuple(TRUMP_DECK[int(i)] for i in batch.trump_cards[game]),
        tuple(tuple(int(c) for c in shuffle) for shuffle in batch.shuffles[game]),
    )


def recorded_actions(
    rules: Rules, recording: Recording, game: int, first_deal: int = 1
) -> Iterator[Any]:
    """Every action of recorded game ``game`` from deal ``first_deal`` on, in the order the
    step engine asks for them."""
    for d in range(first_deal - 1, rules.deals):
        dealer = int(recording.dealer[game, d])
        starter = int(recording.starter[game, d])
        for k in range(PLAYERS):
            seat = (dealer + 1 + k) % PLAYERS
            if seat == starter:
                face_up = DECK[int(recording.face_up[game, d])]
                yield Start(face_up, SUITS[int(recording.called[game, d])])
                break
            yield Pass()
        if starter >= 0:
            for k in range(1, PLAYERS):
                yield Offer(DECK[int(recording.offers[game, d, (starter + k) % PLAYERS])])
            if not recording.forced[game, d]:
                yield Take(DECK[int(recording.taken[game, d])])
        for k in range(PLAYERS):
            yield Kitty(DECK[int(recording.kitty[game, d, (dealer + 1 + k) % PLAYERS])])
        for card in recording.plays[game, d]:
            yield Play(DECK[int(card)])


def replay_recorded_game(
    rules: Rules, batch: PlayedBatch, recording: Recording, game: int
) -> State:
    """Replay game ``game`` of a recorded fast batch through ``State.apply``, action by action
    (what ties the fast engine to the step engine; also gives a fast game's readable log)."""
    state = new_game(rules, seed=0, deal=batch_deal(batch, game))
    for action in recorded_actions(rules, recording, game):
        state = state.apply(action)
    return state


# -- the game's self-play ---------------------------------------------------------------------

#: An agent plays in the compiled engine when it offers the kit's ``compiled_policy()``.
FAST_ENGINE = FastEngine(BATCH_SIZE, _play_fast,
                         win_shares=lambda played: final_scores(played[0])[2],
                         width=WIDTH)  # fmt: skip
SELF_PLAY = SelfPlay(
    "auction_house", Rules, new_game, fast=FAST_ENGINE, frames_doc=__doc__, recorded=recorded,
    frames=(
        Frame("games", lambda played, *at: games_frame(*played, *at)),
        Frame("rounds", lambda played, *at: rounds_frame(played[1], *at)),
    ),
    step_chunk=32,
)  # fmt: skip
played_batches = SELF_PLAY.played_batches
supports_fast = SELF_PLAY.supports_fast


__all__ = ["SELF_PLAY", "deals_frame", "games_frame", "recorded", "replay_recorded_game",
           "rounds_frame"]  # fmt: skip
