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
draws from the stream ``(seed, g, s)``, in the step engine and in the compiled fast engine alike
(which plays the random, coverage and fitted agents): both engines give identical frames for
the same seed, each built once from a recording of the played games."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import polars as pl

from workbench.games.shared_budget.compiled import PlayedBatch, tables
from workbench.games.shared_budget.engine import BUY, State, new_game
from workbench.games.shared_budget.positions import play_batch
from workbench.games.shared_budget.rules import TEAM_NAMES, Rules
from workbench.kit.frames import agent_column, typed_frame
from workbench.kit.seeding import derive_seed, generator
from workbench.kit.selfplay import FastEngine, Frame, SelfPlay

#: The frames' columns that are not Int64.
_TYPES = {
    **dict.fromkeys(("team", "agent", "cards", "functions", "card", "written"), pl.String),
    **dict.fromkeys(("won", "invalid", "won_card"), pl.Boolean), "win_share": pl.Float64,
}  # fmt: skip


def _typed(columns: dict[str, object]) -> pl.DataFrame:
    """A frame of ``columns``, in their order, each cast to its type."""
    return typed_frame(columns, {name: _TYPES.get(name, pl.Int64) for name in columns})


#: Games per yielded chunk of ``simulate_batches`` (step engine) and per fast-engine batch.
#: Every game has its own streams, so the batch size never changes a game.
BATCH_SIZE = 1024
FAST_BATCH_SIZE = 8192


def _streams(
    game_seed: np.random.SeedSequence, players: int
) -> tuple[int, list[np.random.Generator]]:
    """The deal's seed and one generator per seat: game g's seat s draws from (seed, g, s)."""
    return derive_seed(game_seed), [generator(game_seed, seat) for seat in range(players)]


def recorded(rules: Rules, states: list[State]) -> PlayedBatch:
    """Finished step-engine games as the recording the compiled loop makes, with what each
    team wrote and whether it was read as a pass."""
    games, rounds, players = len(states), rules.rounds, rules.players
    bids = np.zeros((games, rounds, players), dtype=np.int16)
    winners = np.full((games, rounds), -1, dtype=np.int8)
    written = np.empty((games, rounds, players), dtype=object)
    invalid = np.zeros((games, rounds, players), dtype=bool)
    held = np.zeros((games, players), dtype=np.int64)
    classroom = rules.variant == "classroom"
    for game, state in enumerate(states):
        for index, record in enumerate(state.history):
            slips = [text == BUY for text in record.written] if classroom else record.bids
            bids[game, index] = slips
            written[game, index] = record.written
            invalid[game, index] = [reason is not None for reason in record.invalid]
            if record.winner is not None:
                winners[game, index] = record.winner
                held[game, record.winner] |= 1 << index
    budgets = np.array([state.budgets for state in states], dtype=np.int64)
    coverage = np.array([state.coverage for state in states], dtype=np.int64)
    return PlayedBatch(rules, bids, winners, budgets, coverage, held, written, invalid)


def _team_column(rules: Rules, seats: np.ndarray) -> pl.Series:
    names = ["group"] if rules.variant == "classroom" else list(TEAM_NAMES[: rules.players])
    return pl.Series(names, dtype=pl.String).gather(seats)


def _joined(masks: np.ndarray, names: tuple[str, ...]) -> pl.Series:
    """Each bit mask as its '+'-joined names (bit i = names[i]): a table of every mask when
    there are few names, else built once per distinct mask."""
    if len(names) <= _TABLE_BITS:
        return _mask_texts(names).gather(masks.ravel())
    distinct, inverse = np.unique(masks.ravel(), return_inverse=True)
    texts = ["+".join(n for i, n in enumerate(names) if int(m) >> i & 1) for m in distinct]
    return pl.Series(texts, dtype=pl.String).gather(inverse.ravel())


_TABLE_BITS = 10


@lru_cache(maxsize=64)
def _mask_texts(names: tuple[str, ...]) -> pl.Series:
    masks = range(1 << len(names))
    texts = ["+".join(n for i, n in enumerate(names) if m >> i & 1) for m in masks]
    return pl.Series(texts, dtype=pl.String)


@lru_cache(maxsize=8)
def _number_texts(largest: int) -> pl.Series:
    return pl.Series([str(n) for n in range(largest + 1)], dtype=pl.String)


def _bit_counts(masks: np.ndarray) -> np.ndarray:
    return np.bitwise_count(masks).astype(np.int64)


def standings_arrays(
    rules: Rules, scores: np.ndarray, budgets: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Ranks (1 = best) and win shares of final scores and budgets (last axis: teams), as
    ``rules.standings`` ranks them; the classroom group wins when it covers every function."""
    if rules.variant == "classroom":
        won = scores == len(rules.functions)
        return np.ones_like(scores), won.astype(np.float64)
    keys = scores * (budgets.max(initial=0) + 1)
    if rules.final_tiebreak == "budget":
        keys = keys + budgets
    ranks = 1 + (keys[..., None, :] > keys[..., :, None]).sum(axis=-1)
    won = ranks == 1
    return ranks, np.where(won, 1.0 / won.sum(axis=-1, keepdims=True), 0.0)


def batch_games_frame(played: PlayedBatch, labels: list[str], first: int) -> pl.DataFrame:
    """The games frame of a recording (one row per game x team)."""
    rules = played.rules
    games, players = played.budgets.shape
    scores = _bit_counts(played.coverage)
    ranks, shares = standings_arrays(rules, scores, played.budgets)
    seats = np.tile(np.arange(players), games)
    return _typed({
        "game": np.repeat(np.arange(first, first + games), players), "seat": seats,
        "team": _team_column(rules, seats), "agent": agent_column(labels, seats),
        "score": scores.ravel(), "rank": ranks.ravel(), "won": (shares > 0).ravel(),
        "win_share": shares.ravel(), "budget_left": played.budgets.ravel(),
        "spent": rules.budget - played.budgets.ravel(),
        "cards_won": _bit_counts(played.held).ravel(),
        "cards": _joined(played.held, tuple(p.name for p in rules.projects)),
        "functions": _joined(played.coverage, rules.functions),
    })  # fmt: skip


def batch_rounds_frame(played: PlayedBatch, labels: list[str], first: int) -> pl.DataFrame:
    """The rounds frame of a recording (one row per game x round x team)."""
    rules, table = played.rules, tables(played.rules)
    games, rounds, players = played.bids.shape
    bids = played.bids.astype(np.int64)
    won = played.winners[:, :, None] == np.arange(players)
    invalid = played.invalid if played.invalid is not None else np.zeros(bids.shape, bool)
    if table.classroom:
        bids = bids * table.prices[None, :, None]
        written = pl.Series(["pass", "buy"], dtype=pl.String).gather(played.bids.ravel())
    else:
        written = _number_texts(rules.budget).gather(played.bids.ravel())
    if played.written is not None:
        written = pl.Series(played.written.ravel(), dtype=pl.String)
    paid = np.where(won, bids, 0)
    budget_after = rules.budget - np.cumsum(paid, axis=1)
    gained = np.where(won, table.masks[None, :, None], 0)
    coverage_after = np.bitwise_or.accumulate(gained, axis=1)
    functions_after = _bit_counts(coverage_after)
    functions_before = np.zeros_like(functions_after)
    functions_before[:, 1:] = functions_after[:, :-1]
    priority_rank = np.argsort(table.priorities, axis=1) + 1
    seats = np.tile(np.arange(players), games * rounds)
    round_of_row = np.tile(np.repeat(np.arange(rounds), players), games)
    return _typed({
        "game": np.repeat(np.arange(first, first + games), rounds * players),
        "round": round_of_row + 1,
        "card": pl.Series([p.name for p in rules.projects], dtype=pl.String).gather(round_of_row),
        "seat": seats, "team": _team_column(rules, seats), "agent": agent_column(labels, seats),
        "priority_rank": np.tile(priority_rank.ravel(), games), "written": written,
        "bid": bids.ravel(), "invalid": invalid.ravel(), "won_card": won.ravel(),
        "paid": paid.ravel(), "budget_before": (budget_after + paid).ravel(),
        "budget_after": budget_after.ravel(), "functions_before": functions_before.ravel(),
        "functions_gained": (functions_after - functions_before).ravel(),
        "score_after": functions_after.ravel(),
    })  # fmt: skip


FAST_ENGINE = FastEngine(
    FAST_BATCH_SIZE, play_batch,
    win_shares=lambda played: standings_arrays(
        played.rules, _bit_counts(played.coverage), played.budgets
    )[1],
)
SELF_PLAY = SelfPlay(
    "shared_budget", Rules, new_game, fast=FAST_ENGINE, frames_doc=__doc__,
    frames=(Frame("games", batch_games_frame), Frame("rounds", batch_rounds_frame)),
    step_chunk=BATCH_SIZE, streams=_streams, recorded=recorded,
)  # fmt: skip
