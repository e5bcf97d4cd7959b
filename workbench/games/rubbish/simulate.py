"""Self-play: many seeded games -> tidy polars frames (one row per game × seat, and per round).

Two engines give the same frames' columns: "fast" (the numpy batch engine, for agents written
over batches) and "step" (``State.apply`` one action at a time, for any agent). ``simulate``
picks "fast" whenever every agent supports it. Memory stays bounded for any number of games
with ``simulate_batches`` (frames per batch) or ``rounds=False``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import polars as pl

from workbench.kit.batching import use_fast_engine
from workbench.checks import flag, whole_number
from workbench.games.rubbish.agents import AGENTS, make_agent
from workbench.games.rubbish.batch import (
    ROLES,
    BatchState,
    Recording,
    final_scores,
    new_batch,
    play,
)
from workbench.games.rubbish.cards import bid_table
from workbench.games.rubbish.engine import Auction, State, new_game
from workbench.games.rubbish.rules import Rules
from workbench.kit.lineup import agent_label, resolve_lineup
from workbench.kit.progress import progress_bar
from workbench.kit.seeding import SeedLike, generator, seed_sequence

#: Games per batch of the fast engine. Fixed, so a seed always gives the same games.
BATCH_SIZE = 8192

ROLE_TYPE = pl.Enum(list(ROLES))


def resolve_agents(rules: Rules, agents: Sequence[Any] | Any | None) -> list[Any]:
    """One agent per seat: a sequence (agents or names), one agent or name for every seat, or
    None (heuristic agents everywhere); see ``workbench.kit.lineup``."""
    return resolve_lineup(
        agents,
        players=rules.players,
        make_agent=make_agent,
        known=tuple(AGENTS),
        default="heuristic",
        rules=rules,
    )


def supports_fast(agents: Sequence[Any]) -> bool:
    """Can the numpy batch engine play these agents?"""
    return all(hasattr(a, "choose_bids") and hasattr(a, "choose_auctions") for a in agents)


def simulate(
    rules: Rules | None = None,
    agents: Sequence[Any] | Any | None = None,
    *,
    games: int,
    seed: SeedLike,
    progress: bool = True,
    engine: str = "auto",
    rounds: bool = True,
) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """Play ``games`` seeded games; returns (games frame, rounds frame or None).

    games frame, one row per game × seat: game, seat, agent, geek, score, fame, rank, won,
    win_share (1/k for a k-way shared victory), items_won, destined_won, times_cheapskate.
    rounds frame, one row per game × round × seat: game, round, seat, agent, item,
    first_bidder, position (in bidding order), bid_total, cards_held_out, role (winner /
    cheapskate / gainer), fame_after, score_after (fame plus the destined bonus for the
    destined items won so far: the score if the game ended now). Same arguments -> identical
    frames.
    """
    parts = list(
        simulate_batches(
            rules, agents, games=games, seed=seed, progress=progress, engine=engine, rounds=rounds
        )
    )
    games_frame = pl.concat([g for g, _ in parts])
    rounds_frame = pl.concat([r for _, r in parts]) if rounds else None
    return games_frame, rounds_frame


def simulate_batches(
    rules: Rules | None = None,
    agents: Sequence[Any] | Any | None = None,
    *,
    games: int,
    seed: SeedLike,
    progress: bool = True,
    engine: str = "auto",
    rounds: bool = True,
) -> Iterator[tuple[pl.DataFrame, pl.DataFrame | None]]:
    """Like ``simulate`` but yields the frames batch by batch, so memory stays bounded. Every
    argument is checked when this is called, before any game is played."""
    rules = _checked_rules(rules)
    agents = resolve_agents(rules, agents)
    games = whole_number("games", games, low=1, allowed="a positive whole number")
    seed_sequence(seed)  # validates the seed before any work
    progress = flag("progress", progress)
    rounds = flag("rounds", rounds)
    use_fast = use_fast_engine(engine, agents, supports_fast)
    return _batches(rules, agents, games, seed, progress, use_fast, rounds)


def _checked_rules(rules: object) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a rubbish Rules or None, got {type(rules).__name__}")
    return rules


def _batches(
    rules: Rules,
    agents: list[Any],
    games: int,
    seed: SeedLike,
    progress: bool,
    use_fast: bool,
    rounds: bool,
) -> Iterator[tuple[pl.DataFrame, pl.DataFrame | None]]:
    labels = [agent_label(a) for a in agents]
    bar = progress_bar(games, enabled=progress, description="rubbish")
    try:
        if use_fast:
            for start in range(0, games, BATCH_SIZE):
                size = min(BATCH_SIZE, games - start)
                rng = generator(seed, start // BATCH_SIZE)
                batch = new_batch(rules, size, rng)
                recording = Recording.empty(size, rules.rounds, rules.players) if rounds else None
                if recording is not None:
                    recording.starting_auctioneer[:] = batch.auctioneer
                play(batch, agents, rng, recording, first_game=start)
                yield (
                    batch_games_frame(batch, labels, start),
                    batch_rounds_frame(recording, labels, start) if recording else None,
                )
                bar.update(size)
        else:
            chunk = 64  # finished States kept alive per batch: few, for memory and GC
            for start in range(0, games, chunk):
                states = [
                    _play_resolved(rules, agents, seed_sequence(seed, g))
                    for g in range(start, min(games, start + chunk))
                ]
                yield (
                    states_games_frame(states, labels, start),
                    states_rounds_frame(states, labels, start) if rounds else None,
                )
                bar.update(len(states))
    finally:
        bar.close()


def play_game(rules: Rules | None, agents: Sequence[Any] | Any | None, *, seed: SeedLike) -> State:
    """One game through the step-by-step engine (``agents`` as for ``simulate``). The deal
    uses stream (seed, 0); seat s's agent draws from its own stream (seed, 1 + s)."""
    rules = _checked_rules(rules)
    agents = resolve_agents(rules, agents)
    return _play_resolved(rules, agents, seed)


def _play_resolved(rules: Rules, agents: Sequence[Any], seed: SeedLike) -> State:
    state = new_game(rules, seed=seed_sequence(seed, 0))
    rngs = [generator(seed, 1 + seat) for seat in range(rules.players)]
    while (player := state.to_play) is not None:
        legal = state.legal_actions()
        action = agents[player](state.observation(player), legal, rngs[player])
        state = state.apply(action)
    return state


# -- frames -------------------------------------------------------------------------------------


def _agent_column(labels: Sequence[str], seats: np.ndarray) -> pl.Series:
    return pl.Series("agent", list(labels), dtype=pl.String).gather(seats)


def batch_games_frame(batch: BatchState, labels: Sequence[str], first_game: int) -> pl.DataFrame:
    """The games frame of a finished batch."""
    scores, ranks, share = final_scores(batch)
    games, n = scores.shape
    seats = np.tile(np.arange(n), games)
    return pl.DataFrame(
        {
            "game": np.repeat(np.arange(first_game, first_game + games, dtype=np.int64), n),
            "seat": seats.astype(np.int8),
            "agent": _agent_column(labels, seats),
            "geek": batch.geek.ravel().astype(np.int8),
            "score": scores.ravel().astype(np.int32),
            "fame": batch.fame.ravel().astype(np.int32),
            "rank": ranks.ravel().astype(np.int8),
            "won": (ranks == 1).ravel(),
            "win_share": share.ravel(),
            "items_won": batch.items_won.ravel().astype(np.int8),
            "destined_won": batch.destined_won.ravel().astype(np.int8),
            "times_cheapskate": batch.cheapskates.ravel().astype(np.int8),
        }
    )


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
            "seat": seats.astype(np.int8),
            "agent": _agent_column(labels, seats),
            "item": np.repeat(recording.item.ravel(), n).astype(np.int8),
            "first_bidder": first.astype(np.int8),
            "position": position.astype(np.int8),
            "bid_total": recording.total.ravel().astype(np.int16),
            "cards_held_out": recording.cards.ravel().astype(np.int8),
            "role": pl.Series(list(ROLES), dtype=ROLE_TYPE).gather(recording.role.ravel()),
            "fame_after": recording.fame_after.ravel().astype(np.int16),
            "score_after": recording.score_after.ravel().astype(np.int16),
        }
    )


def states_games_frame(
    states: Sequence[State], labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The games frame of finished engine games (same columns as the fast engine's)."""
    rows: dict[str, list] = {key: [] for key in _GAME_COLUMNS}
    for offset, state in enumerate(states):
        result = state.result()
        winners = len(result.winners)
        for seat in range(state.rules.players):
            won = result.ranks[seat] == 1
            values = (
                first_game + offset,
                seat,
                labels[seat],
                state.deal.geeks[seat],
                result.scores[seat],
                result.fame[seat],
                result.ranks[seat],
                won,
                1 / winners if won else 0.0,
                result.items_won[seat],
                result.destined_won[seat],
                state.cheapskate_counts[seat],
            )
            for key, value in zip(_GAME_COLUMNS, values, strict=True):
                rows[key].append(value)
    return pl.DataFrame(rows, schema=_GAME_SCHEMA)


def states_rounds_frame(
    states: Sequence[State], labels: Sequence[str], first_game: int
) -> pl.DataFrame:
    """The rounds frame of finished engine games (same columns as the fast engine's)."""
    records = [
        (first_game + offset, record)
        for offset, state in enumerate(states)
        for record in state.history
    ]
    n = len(labels)
    seats = range(n)
    role_codes = {"winner": 0, "cheapskate": 1, "gainer": 2}
    columns = {
        "game": [game for game, _ in records for _ in seats],
        "round": [r.round for _, r in records for _ in seats],
        "seat": [seat for _ in records for seat in seats],
        "agent": [labels[seat] for _ in records for seat in seats],
        "item": [r.item for _, r in records for _ in seats],
        "first_bidder": [r.first_bidder for _, r in records for _ in seats],
        "position": [(seat - r.first_bidder) % n for _, r in records for seat in seats],
        "bid_total": [bid.total for _, r in records for bid in r.bids],
        "cards_held_out": [len(bid.cards) for _, r in records for bid in r.bids],
        "role": [role_codes[r.role(seat)] for _, r in records for seat in seats],
        "fame_after": [fame for _, r in records for fame in r.fame_after],
        "score_after": [score for _, scores in _running_scores(states) for score in scores],
    }
    roles = pl.Series(list(ROLES), dtype=ROLE_TYPE).gather(pl.Series(columns.pop("role")))
    return pl.DataFrame(
        columns, schema={k: v for k, v in _ROUND_SCHEMA.items() if k != "role"}
    ).insert_column(9, roles.alias("role"))


def _running_scores(states: Sequence[State]) -> Iterator[tuple[int, tuple[int, ...]]]:
    """(round, score per seat after it) for every round of every game: fame plus the destined
    bonus for the destined items won so far."""
    for state in states:
        rules = state.rules
        destined = [0] * rules.players
        for record in state.history:
            if record.kept and record.item in rules.destined_to(state.deal.geeks[record.winner]):
                destined[record.winner] += 1
            yield (
                record.round,
                tuple(
                    fame + rules.destined_bonus * count
                    for fame, count in zip(record.fame_after, destined, strict=True)
                ),
            )


_GAME_SCHEMA = {
    "game": pl.Int64,
    "seat": pl.Int8,
    "agent": pl.String,
    "geek": pl.Int8,
    "score": pl.Int32,
    "fame": pl.Int32,
    "rank": pl.Int8,
    "won": pl.Boolean,
    "win_share": pl.Float64,
    "items_won": pl.Int8,
    "destined_won": pl.Int8,
    "times_cheapskate": pl.Int8,
}
_GAME_COLUMNS = tuple(_GAME_SCHEMA)
_ROUND_SCHEMA = {
    "game": pl.Int64,
    "round": pl.Int8,
    "seat": pl.Int8,
    "agent": pl.String,
    "item": pl.Int8,
    "first_bidder": pl.Int8,
    "position": pl.Int8,
    "bid_total": pl.Int16,
    "cards_held_out": pl.Int8,
    "role": ROLE_TYPE,
    "fame_after": pl.Int16,
    "score_after": pl.Int16,
}
_ROUND_COLUMNS = tuple(_ROUND_SCHEMA)


def replay_recorded_game(rules: Rules, recording: Recording, geeks: np.ndarray, game: int) -> State:
    """Replay game ``game`` of a recorded fast batch through ``State.apply``, action by action
    (what ties the fast engine to the step engine; also gives a fast game's readable log)."""
    table = bid_table(rules.money_cards)
    state = new_game(
        rules,
        seed=0,
        geeks=tuple(int(g) for g in geeks[game]),
        starting_auctioneer=int(recording.starting_auctioneer[game]),
    )
    for round_index in range(rules.rounds):
        first = int(recording.first[game, round_index])
        state = state.apply(Auction(int(recording.item[game, round_index]), first))
        for offset in range(rules.players):
            seat = (first + offset) % rules.players
            option = int(recording.lock_before[game, round_index, seat])
            bid = table.bids[option][int(recording.bid_index[game, round_index, seat])]
            state = state.apply(bid)
    return state
