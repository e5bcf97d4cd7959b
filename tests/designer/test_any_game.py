"""A game the bench has never seen, keeping only the contract of docs/design.md, gets every
part of the bench with no edit: sweep, compare, tournament and the command line.

The toy game: each round every seat flips a coin that lands heads with probability ``bias``
(seat 0's coin with ``first_bias``); heads scores a point. Most points wins; ties share.
"""

from __future__ import annotations

import dataclasses
import sys
from types import ModuleType

import numpy as np
import polars as pl
import pytest

from workbench import SerialExecutor, balance_metrics, compare, sweep, tournament
from workbench import games as registry
from workbench.designer import cli
from workbench.kit.lineup import agent_label, resolve_lineup
from workbench.kit.seeding import generator
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


AGENTS = {"flipper": Flipper, "other": Flipper}


def make_agent(name, rules=None, **options):
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}")
    return Flipper(name)


def simulate_batches(rules=None, agents=None, *, games, seed, progress=True):
    rules = Rules() if rules is None else rules
    lineup = resolve_lineup(
        agents,
        players=rules.players,
        make_agent=make_agent,
        known=tuple(AGENTS),
        default="flipper",
        rules=rules,
    )
    labels = [agent_label(a) for a in lineup]
    for start in range(0, games, 50):
        rows, round_rows = [], []
        for game in range(start, min(games, start + 50)):
            rng = generator(seed, game)
            chance = np.array([rules.first_bias] + [rules.bias] * (rules.players - 1))
            heads = rng.random((rules.rounds, rules.players)) < chance
            running = heads.cumsum(axis=0)
            final = running[-1]
            ranks = 1 + (final[None, :] > final[:, None]).sum(axis=1)
            winners = ranks == 1
            for r in range(rules.rounds):
                for s in range(rules.players):
                    round_rows.append(
                        {
                            "game": game,
                            "round": r + 1,
                            "seat": s,
                            "agent": labels[s],
                            "score_after": int(running[r, s]),
                        }
                    )
            for s in range(rules.players):
                rows.append(
                    {
                        "game": game,
                        "seat": s,
                        "agent": labels[s],
                        "score": int(final[s]),
                        "rank": int(ranks[s]),
                        "won": bool(winners[s]),
                        "win_share": float(winners[s] / winners.sum()),
                    }
                )
        yield pl.DataFrame(rows), pl.DataFrame(round_rows)


def simulate(rules=None, agents=None, *, games, seed, progress=True):
    parts = list(simulate_batches(rules, agents, games=games, seed=seed, progress=progress))
    return pl.concat([g for g, _ in parts]), pl.concat([r for _, r in parts])


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


@pytest.fixture
def coins(monkeypatch):
    """The toy game, registered as 'coins' for this test only."""
    module = ModuleType("workbench.games.coins")
    module.__doc__ = "Coins: flip, count heads."
    for name in (
        "Rules",
        "AGENTS",
        "make_agent",
        "simulate",
        "simulate_batches",
        "GAME_METRICS",
        "game_metrics",
    ):
        setattr(module, name, globals()[name])
    known, get = registry.available, registry.get
    monkeypatch.setattr(registry, "available", lambda: [*known(), "coins"])
    monkeypatch.setattr(registry, "get", lambda g: module if g == "coins" else get(g))
    monkeypatch.setitem(sys.modules, "workbench.games.coins", module)
    return module


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


@pytest.mark.parametrize("game_id", registry.available())
def test_every_registered_game_keeps_the_contract_the_bench_reads(game_id):
    """Each real game's frames carry the common columns and its own metrics, one value per
    game, so every metric of the catalogue is summarised over the games that were played."""
    module = registry.get(game_id)
    games, rounds = module.simulate(games=12, seed=3, progress=False)
    for column in ("game", "seat", "agent", "score", "rank", "won", "win_share"):
        assert column in games.columns
    for column in ("game", "round", "seat", "agent", "score_after"):
        assert column in rounds.columns
    assert games.group_by("game").agg(pl.col("win_share").sum())["win_share"].round(
        9
    ).unique().to_list() == [1.0]
    own = module.game_metrics(games, rounds)
    assert own.height == 12 and set(own.columns) == {"game"} | {m.name for m in module.GAME_METRICS}
    summary = balance_metrics(games, rounds, game=game_id)
    assert set(summary["metric"]) >= {m.name for m in module.GAME_METRICS}
    assert (
        summary.filter(pl.col("metric").is_in([m.name for m in module.GAME_METRICS]))["n"] == 12
    ).all()
