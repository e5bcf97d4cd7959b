"""Kitty outcomes: who wins the kitty, how often it carries over, what it is worth, what an
auction is worth and to whom, the trump-reveal house rule compared, and the exact trump odds.
Estimates carry their sample size and a 95% interval, cluster-robust over games (a tie links a
game's deals): a ratio estimator's linearised variance, Student t on games - 1 degrees of
freedom. ``trump_odds`` is exact (fractions).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

import numpy as np
import polars as pl
from scipy import stats as scipy_stats

from workbench.checks import whole_number
from workbench.games.auction_house.agents import CompiledAgent
from workbench.games.auction_house.cards import SUITS, TRUMP_DECK, trump_suit_of
from workbench.games.auction_house.compiled import Recording
from workbench.games.auction_house.game import GAME
from workbench.games.auction_house.policies import passing
from workbench.games.auction_house.rules import MAX_DEALS, PLAYERS, TRUMP_REVEALS, Rules
from workbench.games.auction_house.simulate import (
    deals_frame,
    played_batches,
    supports_fast,
)
from workbench.kit.lineup import agent_label
from workbench.kit.policies import CompiledPolicy
from workbench.kit.seeding import SeedLike, seed_sequence
from workbench.kit.selfplay import playing_agent
from workbench.stats import proportion_interval

PER_SUIT = len(TRUMP_DECK) // len(SUITS)  # 3 trump cards of each suit


# -- intervals over games -----------------------------------------------------------------------


def cluster_ratio(numerator: np.ndarray, denominator: np.ndarray, *,
                  proportion: bool = False) -> tuple[float, float, float]:  # fmt: skip
    """(estimate, low, high): sum(numerator) / sum(denominator) over clusters (games) with a
    95% cluster-robust interval. For a proportion whose estimate is exactly 0 or 1 (no
    variation to measure) the Wilson interval on the pooled count is given instead."""
    numerator, denominator = np.asarray(numerator, float), np.asarray(denominator, float)
    total = denominator.sum()
    if total <= 0:
        return math.nan, math.nan, math.nan
    estimate = float(numerator.sum() / total)
    clusters = len(numerator)
    if proportion and estimate in (0.0, 1.0):
        low, high = proportion_interval(numerator.sum(), round(total))
        return estimate, low, high
    if clusters < 2:
        return estimate, math.nan, math.nan
    residual = numerator - estimate * denominator
    variance = clusters / (clusters - 1) * float((residual**2).sum()) / total**2
    half = float(scipy_stats.t.ppf(0.975, clusters - 1)) * math.sqrt(variance)
    low, high = estimate - half, estimate + half
    if proportion:
        low, high = max(low, 0.0), min(high, 1.0)
    return estimate, low, high


def _ratio_rows(
    frame: pl.DataFrame, value: pl.Expr, by: Sequence[str], *, proportion: bool,
    weight: pl.Expr | None = None,
) -> pl.DataFrame:  # fmt: skip
    """Per group of ``by``: n (total weight; rows by default), games, estimate, low, high of
    sum(value) / sum(weight), clustered by game."""
    den = pl.len() if weight is None else weight.sum()
    # Sorted, so that sums run in one order and the same frame gives bit-identical numbers.
    per_game = frame.group_by([*by, "game"]).agg(num=value.sum(), den=den).sort([*by, "game"])
    rows = []
    groups = per_game.group_by(by, maintain_order=True) if by else [((), per_game)]
    for key, group in groups:
        estimate, low, high = cluster_ratio(group["num"].to_numpy(), group["den"].to_numpy(),
                                            proportion=proportion)  # fmt: skip
        rows.append({**dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True)),
                     "n": int(group["den"].sum()), "games": group.height, "estimate": estimate,
                     "low": low, "high": high})  # fmt: skip
    out = pl.DataFrame(rows, schema_overrides={column: frame.schema[column] for column in by})
    return out.sort(by) if by else out


# -- the outcomes -------------------------------------------------------------------------------


def kitty_outcomes(
    rules: Rules | None = None, agents: Sequence[Any] | Any | None = None, *, deals: int,
    seed: SeedLike, engine: str = "auto", progress: bool = False,
) -> pl.DataFrame:  # fmt: skip
    """One row per deal, ``deals`` rows of whole games (the last one's first deals). Columns:
    game, deal, dealer, trump (null: none), auction, starter, face_up, called, taken,
    taken_from, forced, kitty_points (this deal's four cards), carried_in, at_stake (their
    sum), tricks_0..tricks_3, most_tricks, tied (seats with most), kitty_winner (null: carried
    over or lost), carried_out, lost, chain (kitties in the pot), trump_reveal, agents."""
    rules = GAME.checked_rules(rules)
    deals = whole_number("deals", deals, low=1, allowed="a positive whole number")
    games = -(-deals // rules.deals)
    frames = []
    lineup = None
    for labels, first, played in played_batches(
        rules, agents, games=games, seed=seed, engine=engine, progress=progress,
        resolve=GAME.resolve_agents,
    ):
        lineup = lineup_label(labels)
        frames.append(deals_frame(played[1], first))
    return pl.concat(frames).head(deals).with_columns(
        trump_reveal=pl.lit(rules.trump_reveal, pl.Enum(list(TRUMP_REVEALS))),
        agents=pl.lit(lineup),
    )


def lineup_label(labels: Sequence[str]) -> str:
    """A short name for a line-up: "heuristic x4" when every seat is alike, else the seats'
    agents in seat order."""
    if len(set(labels)) == 1:
        return f"{labels[0]} x{len(labels)}"
    return ", ".join(labels)


def _check_outcomes(outcomes: pl.DataFrame, columns: Iterable[str], what: str,
                    by: Sequence[str] = ()) -> None:  # fmt: skip
    """A frame of ``columns``, not empty, that has the ``by`` columns to group by."""
    if not isinstance(outcomes, pl.DataFrame):
        raise TypeError(f"{what} takes a kitty_outcomes frame, got {type(outcomes).__name__}")
    missing = [c for c in columns if c not in outcomes.columns]
    if missing:
        raise ValueError(
            f"{what} needs a kitty_outcomes frame; columns {missing} are missing "
            f"(it has {outcomes.columns})"
        )
    unknown = [c for c in by if c not in outcomes.columns]
    if unknown:
        raise ValueError(f"{what} groups by columns of its frame; {unknown} are not among them "
                         f"(it has {outcomes.columns})")  # fmt: skip
    if outcomes.is_empty():
        raise ValueError(f"{what} needs at least one deal; the frame is empty")


def _tied() -> pl.Expr:
    return pl.col("kitty_winner").is_null()


def kitty_summary(outcomes: pl.DataFrame, by: str | Sequence[str] = ()) -> pl.DataFrame:
    """The headline numbers with 95% intervals, one row per metric (and group of ``by``):
    carry-over rate, kitty points, points at stake, auction rate, the starter's kitty win
    rate, points lost in the last deal per game."""
    by = [by] if isinstance(by, str) else list(by)
    _check_outcomes(outcomes, ["game", "kitty_winner", "kitty_points", "at_stake"], "summary", by)
    one = None
    last_deal = (pl.col("deal") == pl.col("deal").max()).cast(pl.Int64)
    specs = [
        ("carry-over rate", _tied().cast(pl.Int64), one, True, outcomes),
        ("kitty points (own cards)", pl.col("kitty_points"), one, False, outcomes),
        ("points at stake", pl.col("at_stake"), one, False, outcomes),
        ("auction rate", pl.col("auction").cast(pl.Int64), one, True, outcomes),
        ("starter wins the kitty", (pl.col("kitty_winner") == pl.col("starter")).cast(pl.Int64),
         one, True, outcomes.filter(pl.col("auction"))),
        ("points lost per game", pl.col("lost"), last_deal, False, outcomes),
    ]  # fmt: skip
    frames = []
    for name, value, weight, proportion, frame in specs:
        if frame.is_empty():
            continue
        rows = _ratio_rows(frame, value, by, proportion=proportion, weight=weight)
        frames.append(rows.with_columns(metric=pl.lit(name)))
    columns = ["metric", *by, "n", "games", "estimate", "low", "high"]
    return pl.concat(frames).select(columns)


def carry_over_rate(outcomes: pl.DataFrame, by: str | Sequence[str] = ()) -> pl.DataFrame:
    """Share of deals whose kitty was tied for (carried over, or lost in the last deal), per
    group of ``by`` (e.g. "deal"), with 95% intervals clustered by game."""
    by = [by] if isinstance(by, str) else list(by)
    _check_outcomes(outcomes, ["game", "kitty_winner"], "carry_over_rate", by)
    rows = _ratio_rows(outcomes, _tied().cast(pl.Int64), by, proportion=True)
    return rows.rename({"n": "deals", "estimate": "rate"})


def kitty_value_distribution(outcomes: pl.DataFrame) -> pl.DataFrame:
    """How many points the deal's trick leader could score: deals and share by points at
    stake, split by whether anything was carried in (exact counts of the simulated deals)."""
    _check_outcomes(outcomes, ["at_stake", "carried_in"], "kitty_value_distribution")
    total = outcomes.height
    by_stake = outcomes.group_by("at_stake", carried=pl.col("carried_in") > 0).agg(deals=pl.len())
    return by_stake.with_columns(share=pl.col("deals") / total).sort("at_stake", "carried")


def carry_chains(outcomes: pl.DataFrame, by: str | None = None) -> pl.DataFrame:
    """Runs of consecutive tied deals within a game, by length: how many, their share of all
    runs (95% interval), how many ended lost in the last deal, and the mean pot at the end;
    per value of the column ``by`` when given."""
    columns = ["game", "deal", "kitty_winner", "at_stake", "lost"]
    _check_outcomes(outcomes, columns, "carry_chains", [by] if by else [])
    if by is not None:
        return pl.concat(
            carry_chains(group).select(pl.lit(key[0]).alias(by), pl.all())
            for key, group in outcomes.group_by(by, maintain_order=True)
        ).sort(by, "length")
    frame = outcomes.sort("game", "deal")
    runs = []
    for (game,), group in frame.group_by("game", maintain_order=True):
        tied = group["kitty_winner"].is_null().to_list()
        stakes = group["at_stake"].to_list()
        lost = group["lost"].to_list()
        length = 0
        for is_tied, stake, lost_points in zip(tied, stakes, lost, strict=True):
            if is_tied:
                length += 1
                if lost_points:  # the last deal tied: the run ends with the pot lost
                    runs.append((game, length, True, lost_points))
                    length = 0
            elif length:
                runs.append((game, length, False, stake))
                length = 0
        # a run still open here was cut by the frame's end (deals not a multiple): unresolved
    if not runs:
        return pl.DataFrame(schema={
            "length": pl.Int64, "runs": pl.Int64, "share": pl.Float64, "low": pl.Float64,
            "high": pl.Float64, "ended_lost": pl.Int64, "mean_pot": pl.Float64,
        })  # fmt: skip
    table = pl.DataFrame(runs, schema=["game", "length", "lost", "pot"], orient="row")
    per_game_total = table.group_by("game").agg(total=pl.len())
    rows = []
    for (length,), group in table.group_by("length", maintain_order=True):
        runs_of = group.group_by("game").agg(k=pl.len())
        counts = per_game_total.join(runs_of, on="game", how="left").fill_null(0)
        share, low, high = cluster_ratio(counts["k"].to_numpy(), counts["total"].to_numpy(),
                                         proportion=True)  # fmt: skip
        rows.append({"length": length, "runs": group.height, "share": share, "low": low,
                     "high": high, "ended_lost": int(group["lost"].sum()),
                     "mean_pot": float(group["pot"].mean())})  # fmt: skip
    return pl.DataFrame(rows).sort("length")


def seat_deals(outcomes: pl.DataFrame) -> pl.DataFrame:
    """The outcomes frame long: one row per deal × seat with its tricks and kitty result."""
    _check_outcomes(outcomes, ["game", "deal", "kitty_winner", "tricks_0"], "seat_deals")
    keep = [c for c in ("game", "deal", "trump_reveal", "agents", "kitty_winner", "tied",
                        "most_tricks", "at_stake") if c in outcomes.columns]  # fmt: skip
    long = outcomes.select(*keep, *(f"tricks_{s}" for s in range(PLAYERS))).unpivot(
        index=keep, variable_name="seat", value_name="tricks")  # fmt: skip
    long = long.with_columns(seat=pl.col("seat").str.slice(7).cast(pl.Int8))
    return long.with_columns(won=(pl.col("kitty_winner") == pl.col("seat")).fill_null(False))


def win_by_tricks(outcomes: pl.DataFrame, by: str | Sequence[str] = ()) -> pl.DataFrame:
    """P(winning the kitty | tricks taken), per number of tricks (and group of ``by``), with
    95% intervals clustered by game; also how often that count tied for most."""
    by = [by] if isinstance(by, str) else list(by)
    long = seat_deals(outcomes)
    _check_outcomes(long, [], "win_by_tricks", by)
    rows = _ratio_rows(long, pl.col("won").cast(pl.Int64), [*by, "tricks"], proportion=True)
    ties = long.group_by([*by, "tricks"]).agg(
        tied_for_most=((pl.col("tricks") == pl.col("most_tricks")) & (pl.col("tied") > 1)).mean()
    )
    rows = rows.rename({"n": "seat_deals", "estimate": "p_win"})
    return rows.join(ties, on=[*by, "tricks"]).sort([*by, "tricks"])


# -- what an auction is worth -------------------------------------------------------------------


class _NoAuction(CompiledAgent):
    """Wraps a compiled-policy agent: always passes in the auction phase, plays as the agent
    otherwise (``policies.passing``; the uniforms are used as before)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = f"{agent_label(agent)} (no auction)"

    def compiled_policy(self) -> CompiledPolicy:
        return passing(self.agent.compiled_policy())


def _paired_recordings(
    rules: Rules, arms: Sequence[tuple[Rules, list[Any]]], games: int, seed: SeedLike
) -> list[list[Recording]]:
    """Play the same games (same deals, same random numbers at the same decisions) in every
    arm of compiled agents: per arm, the recordings batch by batch."""
    return [[played[1] for *_, played in played_batches(arm_rules, arm_agents, games=games,
                                                        seed=seed, engine="fast")]
            for arm_rules, arm_agents in arms]  # fmt: skip


def auction_value(
    rules: Rules | None = None, agents: Sequence[Any] | Any | None = None, *, deals: int,
    seed: SeedLike,
) -> pl.DataFrame:  # fmt: skip
    """What starting an auction is worth, and to whom: every deal played twice from the same
    cards and random numbers, as the agents choose and with every seat passing. Where an
    auction was held, per role (starter, seller, offerer) the mean change it makes to the seat's
    kitty wins, tricks and kitty points won, with paired 95% intervals. Compiled agents only."""
    rules = GAME.checked_rules(rules)
    seated = GAME.resolve_agents(rules, agents)
    lineup = [playing_agent(agent, rules) for agent in seated]  # a fitted agent: its policy
    if not supports_fast(lineup):
        slow = sorted({agent_label(a) for a in lineup if not supports_fast([a])})
        raise ValueError(
            f"auction_value needs compiled-policy agents (random, heuristic, fitted); got {slow}"
        )
    deals = whole_number("deals", deals, low=1, allowed="a positive whole number")
    seed_sequence(seed)
    games = -(-deals // rules.deals)
    without = [_NoAuction(a) for a in lineup]
    arms = [(rules, lineup), (rules, without)]
    with_auction, no_auction = _paired_recordings(rules, arms, games, seed)
    rows = []
    offset = 0
    for a, b in zip(with_auction, no_auction, strict=True):
        g, d = a.dealer.shape
        seats = np.arange(PLAYERS)
        held = a.starter >= 0
        role = np.where(seats == a.starter[:, :, None], "starter",
                        np.where(seats == a.taken_from[:, :, None], "seller", "offerer"))
        won_a = a.kitty_winner[:, :, None] == seats
        won_b = b.kitty_winner[:, :, None] == seats
        points_a = np.where(won_a, a.kitty_points[:, :, None], 0)
        points_b = np.where(won_b, b.kitty_points[:, :, None], 0)
        game = np.broadcast_to((offset + np.arange(g))[:, None, None], role.shape)
        deal = np.broadcast_to(np.arange(1, d + 1)[None, :, None], role.shape)
        mask = np.broadcast_to(held[:, :, None], role.shape)
        rows.append(pl.DataFrame({
            "game": game[mask], "deal": deal[mask], "role": role[mask],
            "win_change": (won_a.astype(int) - won_b)[mask],
            "tricks_change": (a.tricks_won.astype(int) - b.tricks_won.astype(int))[mask],
            "points_change": (points_a.astype(int) - points_b)[mask],
        }))  # fmt: skip
        offset += g
    frame = pl.concat(rows).filter(pl.col("game") * rules.deals + pl.col("deal") <= deals)
    label = lineup_label([agent_label(a) for a in seated])
    out = []
    for role in ("starter", "seller", "offerer"):
        part = frame.filter(pl.col("role") == role)
        entry: dict[str, Any] = {"role": role, "seat_deals": part.height}
        for column in ("win_change", "tricks_change", "points_change"):
            ratio = _ratio_rows(part, pl.col(column), [], proportion=False).row(0, named=True)
            entry[column] = ratio["estimate"]
            entry[f"{column}_low"], entry[f"{column}_high"] = ratio["low"], ratio["high"]
        out.append(entry)
    held_deals = frame.filter(pl.col("role") == "starter").height
    return pl.DataFrame(out).with_columns(
        auctions=pl.lit(held_deals),
        deals=pl.lit(min(deals, games * rules.deals)),
        trump_reveal=pl.lit(rules.trump_reveal),
        agents=pl.lit(label),
    )


# -- the house rule -----------------------------------------------------------------------------


def trump_reveal_comparison(
    rules: Rules | None = None, agents: Sequence[Any] | Any | None = None, *, deals: int,
    seed: SeedLike,
) -> pl.DataFrame:  # fmt: skip
    """Both ``trump_reveal`` readings on the same games: per ``kitty_summary`` metric, each
    reading's estimate and 95% interval, and the difference with a paired 95% interval."""
    rules = GAME.checked_rules(rules)
    frames = [
        kitty_outcomes(rules.replace(trump_reveal=reading), agents, deals=deals, seed=seed)
        for reading in TRUMP_REVEALS
    ]
    summary = kitty_summary(pl.concat(frames), by="trump_reveal")
    wide = summary.pivot(
        on="trump_reveal", index="metric", values=["estimate", "low", "high"], sort_columns=False
    )
    differences = []
    after, before = frames
    per_game_specs = {
        "carry-over rate": _tied().cast(pl.Float64).mean(),
        "kitty points (own cards)": pl.col("kitty_points").cast(pl.Float64).mean(),
        "points at stake": pl.col("at_stake").cast(pl.Float64).mean(),
        "auction rate": pl.col("auction").cast(pl.Float64).mean(),
        "points lost per game": pl.col("lost").cast(pl.Float64).sum(),
    }
    for metric, expression in per_game_specs.items():
        a = after.group_by("game").agg(v=expression).sort("game")["v"].to_numpy()
        b = before.group_by("game").agg(v=expression).sort("game")["v"].to_numpy()
        diff = b - a
        mean = float(diff.mean())
        if len(diff) > 1:  # identical games under both readings give an exact 0 +- 0
            spread = float(diff.std(ddof=1)) / math.sqrt(len(diff))
            half = float(scipy_stats.t.ppf(0.975, len(diff) - 1)) * spread
        else:
            half = math.nan
        differences.append({"metric": metric, "difference": mean, "difference_low": mean - half,
                            "difference_high": mean + half})
    return wide.join(pl.DataFrame(differences), on="metric", how="left").with_columns(
        games=pl.lit(after["game"].n_unique()), agents=pl.lit(after["agents"][0])
    )


# -- trump odds ---------------------------------------------------------------------------------


def _revealed_suits(revealed: Iterable[str]) -> list[str]:
    if isinstance(revealed, str):
        raise TypeError(
            "revealed must be a sequence of trump cards or suits (like ['QH', 'JS'] or "
            f"['H', 'S']), not a single string {revealed!r}"
        )
    cards = list(revealed)
    suits = [trump_suit_of(card) for card in cards]
    full = [c.strip().upper() for c in cards if c.strip().upper() in TRUMP_DECK]
    repeated = [c for c, k in Counter(full).items() if k > 1]
    if repeated:
        raise ValueError(f"each trump card is turned once; repeated: {repeated}")
    too_many = [s for s, k in Counter(suits).items() if k > PER_SUIT]
    if too_many:
        raise ValueError(f"the trump deck holds {PER_SUIT} cards of each suit; revealed has "
                         f"more of {too_many}: {cards!r}")  # fmt: skip
    return suits


def trump_odds(revealed: Iterable[str] = ()) -> dict[str, Fraction]:
    """Exact chance of each trump suit for the next deal given the trump cards turned (cards
    like "QH" or suit letters): (3 - k) / (12 - turned) for a suit with k turned, and by
    symmetry for every later deal up to the 12th; {"none": 1} once all 12 are turned."""
    suits = _revealed_suits(revealed)
    left = len(TRUMP_DECK) - len(suits)
    if left == 0:
        return {"none": Fraction(1)}
    counts = Counter(suits)
    return {suit: Fraction(PER_SUIT - counts[suit], left) for suit in SUITS}


def trump_odds_table(revealed: Iterable[str] = (), rules: Rules | None = None) -> pl.DataFrame:
    """The chance of each trump suit for every deal still to come (exact; ``exact`` holds the
    fraction as text), the deals after the 12th having none."""
    rules, suits = GAME.checked_rules(rules), _revealed_suits(revealed)
    odds, rows = trump_odds(suits), []
    for deal in range(len(suits) + 1, rules.deals + 1):
        table = odds if deal <= len(TRUMP_DECK) else {"none": Fraction(1)}
        for suit, p in table.items():
            rows.append({"deal": deal, "suit": suit, "probability": float(p), "exact": str(p)})
    schema = {"deal": pl.Int8, "suit": pl.String, "probability": pl.Float64, "exact": pl.String}
    return pl.DataFrame(rows, schema=schema)


def trump_odds_through(trump_cards: Sequence[str]) -> pl.DataFrame:
    """The odds before each deal's trump card is turned, along one game's trump deck
    (``trump_cards`` top first): per deal and suit, the exact chance, and the suit that came."""
    cards = list(trump_cards)
    _revealed_suits(cards)
    rows = []
    for index in range(min(len(cards), len(TRUMP_DECK))):
        came = trump_suit_of(cards[index])
        for suit, p in trump_odds(cards[:index]).items():
            rows.append({"deal": index + 1, "suit": suit, "probability": float(p), "exact": str(p),
                         "came": suit == came})  # fmt: skip
    return pl.DataFrame(rows)


def trump_odds_brute_force(revealed: Iterable[str] = (), ahead: int = 1) -> dict[str, Fraction]:
    """The chance of each suit ``ahead`` deals after the revealed ones, by counting every
    ordering of the remaining trump deck (an independent check of ``trump_odds``; the
    remaining deck must be small, at most 8 cards)."""
    suits = _revealed_suits(revealed)
    counts = Counter(suits)
    remaining = [s for s in SUITS for _ in range(PER_SUIT - counts[s])]
    if len(remaining) > 8:
        raise ValueError("brute force enumerates orderings: reveal at least 4 cards first")
    if not 1 <= ahead <= len(remaining):
        raise ValueError(f"ahead must be 1–{len(remaining)}, got {ahead}")
    orders = list(permutations(range(len(remaining))))
    tally = Counter(remaining[order[ahead - 1]] for order in orders)
    return {s: Fraction(tally[s], len(orders)) for s in SUITS}


__all__ = [
    "MAX_DEALS", "auction_value", "carry_chains", "carry_over_rate", "cluster_ratio",
    "kitty_outcomes", "kitty_summary", "kitty_value_distribution", "seat_deals", "trump_odds",
    "trump_odds_brute_force", "trump_odds_table", "trump_odds_through",
    "trump_reveal_comparison", "win_by_tricks",
]  # fmt: skip
