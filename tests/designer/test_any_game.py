"""A game the bench has never seen, keeping only the contract of docs/design.md (a Game record
with a step engine and its frames), gets every part of the bench with no edit: sweep, compare,
tournament and the command line.

The toy game: each round every seat flips a coin that lands heads with probability ``bias``
(seat 0's coin with ``first_bias``); heads scores a point. Most points wins; ties share.
"""

from __future__ import annotations

import dataclasses
import itertools
import types

import numpy as np
import polars as pl
import pytest

from workbench import SerialExecutor, balance_metrics, compare, sweep, tournament, tune
from workbench import games as registry
from workbench.designer import cli
from workbench.kit.game import Game
from workbench.kit.seeding import generator
from workbench.kit.selfplay import Frame, SelfPlay
from workbench.metrics import GameMetric


@dataclasses.dataclass(frozen=True)
class Rules:
    players: int = 2
    rounds: int = 3
    bias: float = 0.5
    first_bias: float = 0.5

    def __post_init__(self) -> None:
        if (
            isinstance(self.players, bool)
            or not isinstance(self.players, int)
            or not 2 <= self.players <= 4
        ):
            raise ValueError(f"players must be 2–4, got {self.players!r}")
        for name in ("bias", "first_bias"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must lie in [0, 1], got {getattr(self, name)!r}")


class Flipper:
    """Flips the coin it is given (an agent only chooses to flip; the coin decides)."""

    def __init__(self, name: str = "flipper") -> None:
        self.name = name

    def __call__(self, observation, legal_actions, rng):
        return legal_actions[0]


class Other(Flipper):
    def __init__(self) -> None:
        super().__init__("other")


@dataclasses.dataclass(frozen=True)
class State:
    """Every seat flips in turn, round after round; the coins were thrown when the game was
    dealt (``heads``), so the State is all there is."""

    rules: Rules
    heads: tuple[tuple[bool, ...], ...]
    flips: int = 0

    @property
    def to_play(self):
        return None if self.is_over else self.flips % self.rules.players

    @property
    def is_over(self):
        return self.flips == self.rules.rounds * self.rules.players

    def legal_actions(self):
        return () if self.is_over else ("flip",)

    def apply(self, action):
        return dataclasses.replace(self, flips=self.flips + 1)

    def observation(self, player):
        return types.SimpleNamespace(player=player, rules=self.rules)

    def result(self):
        scores = np.array(self.heads).sum(axis=0)
        ranks = 1 + (scores[None, :] > scores[:, None]).sum(axis=1)
        return types.SimpleNamespace(scores=tuple(scores.tolist()), ranks=tuple(ranks.tolist()),
                                     winners=tuple(np.flatnonzero(ranks == 1).tolist()))


def new_game(rules=None, *, seed):
    rules = Rules() if rules is None else rules
    chance = np.array([rules.first_bias] + [rules.bias] * (rules.players - 1))
    heads = generator(seed).random((rules.rounds, rules.players)) < chance
    return State(rules, tuple(map(tuple, heads.tolist())))


def games_frame(states, labels, first):
    rows = []
    for game, state in enumerate(states, start=first):
        result = state.result()
        for seat in range(state.rules.players):
            won = seat in result.winners
            rows.append({"game": game, "seat": seat, "agent": labels[seat],
                         "score": result.scores[seat], "rank": result.ranks[seat], "won": won,
                         "win_share": won / len(result.winners)})  # fmt: skip
    return pl.DataFrame(rows)


def rounds_frame(states, labels, first):
    rows = []
    for game, state in enumerate(states, start=first):
        running = np.cumsum(state.heads, axis=0)
        for r, seat in itertools.product(range(state.rules.rounds), range(state.rules.players)):
            rows.append({"game": game, "round": r + 1, "seat": seat, "agent": labels[seat],
                         "score_after": int(running[r, seat])})  # fmt: skip
    return pl.DataFrame(rows)


GAME_METRICS = (GameMetric("heads_rate", "mean", "share of flips that came up heads"),)


def game_metrics(games, rounds):
    last = rounds.filter(pl.col("round") == pl.col("round").max().over("game"))
    flips = rounds.group_by("game").agg(pl.len()).rename({"len": "flips"})
    return (
        last.group_by("game")
        .agg(pl.col("score_after").sum().alias("heads"))
        .join(flips, on="game")
        .select("game", heads_rate=pl.col("heads") / pl.col("flips"))
    )


COINS = Game(
    id="coins", summary="Coins: flip, count heads.", Rules=Rules, new_game=new_game,
    agents={"flipper": Flipper, "other": Other}, default_agent="flipper",
    selfplay=SelfPlay("coins", Rules, new_game, frames=(
        Frame("games", games_frame), Frame("rounds", rounds_frame))),
    metrics=GAME_METRICS, game_metrics=game_metrics,
)  # fmt: skip


@pytest.fixture
def coins():
    """The toy game, registered as 'coins' for this test only."""
    registry.register(COINS)
    yield COINS
    registry.unregister("coins")


def test_a_sweep_finds_a_biased_first_coin(coins):
    frame = sweep(
        "coins",
        grid={"first_bias": [0.5, 0.9]},
        games=400,
        seed=1,
        executor=SerialExecutor(),
        progress=False,
    )
    advantage = frame.filter(pl.col("metric") == "first_seat_advantage")
    fair, biased = advantage["value"].to_list()
    low, high = advantage.filter(pl.col("first_bias") == 0.5).select("low", "high").row(0)
    assert low < 0 < high and fair == pytest.approx(0, abs=0.05)
    assert biased > 0.2  # heads 90% vs 50% over three flips: seat 0 usually wins
    heads = frame.filter(pl.col("metric") == "heads_rate")["value"].to_list()
    assert heads == pytest.approx([0.5, 0.7], abs=0.03)
    assert set(frame["source"]) == {"common", "coins"}


def test_compare_and_tournament_and_the_command_line(coins, tmp_path):
    paired = compare(
        "coins", None, {"bias": 0.6}, games=300, seed=2, executor=SerialExecutor(), progress=False
    )
    assert paired["common_randomness"][0].startswith("not stated by the game")
    assert paired.filter(pl.col("metric") == "heads_rate")["difference"].item() > 0
    result = tournament(
        "coins",
        None,
        ["flipper", "other"],
        games=100,
        seed=3,
        executor=SerialExecutor(),
        progress=False,
    )
    assert result.standings["win_rate"].sum() == pytest.approx(1)
    out = tmp_path / "coins.csv"
    assert (
        cli.main(
            [
                "sweep",
                "coins",
                "--grid",
                "players=2,3",
                "--games",
                "50",
                "--seed",
                "1",
                "--workers",
                "1",
                "--quiet",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert pl.read_csv(out)["players"].unique().sort().to_list() == [2, 3]
    assert (
        cli.main(
            [
                "sweep",
                "coins",
                "--grid",
                "bias=2",
                "--games",
                "5",
                "--seed",
                "1",
                "--out",
                str(tmp_path / "x.csv"),
            ]
        )
        == 2
    )


def test_tune_plays_a_game_without_a_fitted_agent_with_its_own_agent(coins):
    frame = tune("coins", {"bias": (0.2, 0.8)}, {"heads_rate": (0.45, 0.55)}, budget=1000,
                 seed=1, first_games=50, progress=False)  # fmt: skip
    assert set(frame["agents"]) == {"default"} and frame["games"].sum() >= 1000
    best = frame.row(0, named=True)
    assert 0.4 < best["bias"] < 0.6  # heads_rate ~ bias: the band asks for about 0.5


@pytest.mark.parametrize("game_id", registry.available())
def test_every_registered_game_keeps_the_contract_the_bench_reads(game_id):
    """Each real game's frames carry the common columns and its own metrics, one value per
    game, so every metric of the catalogue is summarised over the games that were played."""
    game = registry.get(game_id)
    games, rounds = game.simulate(games=12, seed=3, progress=False)
    for column in ("game", "seat", "agent", "score", "rank", "won", "win_share"):
        assert column in games.columns
    for column in ("game", "round", "seat", "agent", "score_after"):
        assert column in rounds.columns
    assert games.group_by("game").agg(pl.col("win_share").sum())["win_share"].round(
        9
    ).unique().to_list() == [1.0]
    own = game.game_metrics(games, rounds)
    assert own.height == 12 and set(own.columns) == {"game"} | {m.name for m in game.metrics}
    summary = balance_metrics(games, rounds, game=game_id)
    assert set(summary["metric"]) >= {m.name for m in game.metrics}
    assert (
        summary.filter(pl.col("metric").is_in([m.name for m in game.metrics]))["n"] == 12
    ).all()
