"""Interactive explorers for the Rubbish Auction analyses (``workbench.widgets.Explorer``): set
the controls and ``explorer.frame`` and ``explorer.chart`` are recomputed by the package's own
analyses; a bad combination shows the ValueError's message (``explorer.error``).
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from functools import lru_cache
from typing import Any

import altair as alt
import ipywidgets as widgets
import numpy as np
import polars as pl

from workbench.charts import WIDTH
from workbench.checks import instance_or_default, whole_number
from workbench.games.rubbish.agents import HeuristicAgent, RandomAgent, SamplingAgent
from workbench.games.rubbish.cards import without
from workbench.games.rubbish.charts import (
    bid_posterior_chart,
    cheapskate_chart,
    cheapskate_win_rate_chart,
)
from workbench.games.rubbish.cheapskate import cheapskate_frequency
from workbench.games.rubbish.inference.arguments import _text
from workbench.games.rubbish.inference.posterior import bid_posterior
from workbench.games.rubbish.inference.situation import bidding_situation
from workbench.games.rubbish.rules import BID_MINIMUMS, MAX_PLAYERS, MIN_PLAYERS, Rules
from workbench.widgets import Explorer

#: The priors the bid explorer offers. The sampling agent is estimated (seeded sampling) with
#: few rollouts and samples so that one update takes well under a second.
PRIORS = ("uniform", "random", "heuristic", "sampling")
EXPLORER_SAMPLES = 16
EXPLORER_ROLLOUTS = 4

#: Seat line-ups the cheapskate explorer offers.
LINEUPS = ("heuristic", "random", "heuristic vs random")
#: How the cheapskate explorer names the readings of the bid minimum (First Bidder, later).
BID_MINIMUM_LABELS = {
    "first_any_later_one": "First Bidder 0, later 1 (rulebook)", "any": "0 for everyone",
    "one": "1 for everyone",
}  # fmt: skip
#: Games per re-run the cheapskate explorer offers (the first is the default: under a second).
GAME_COUNTS = (5_000, 1_000, 20_000, 50_000)


class _Remembered:
    """An agent whose calls are remembered: the same observation, legal actions and generator
    state give the same action and leave the generator where the first call did, so it plays
    exactly like the agent, faster when the explorer asks again."""

    def __init__(self, agent: Any, size: int = 4096) -> None:
        self.agent = agent
        self.size = size
        self._memo: OrderedDict[tuple[bytes, tuple, str], tuple[Any, dict]] = OrderedDict()

    def __repr__(self) -> str:
        return repr(self.agent)

    def __call__(self, observation: Any, legal_actions: Any, rng: np.random.Generator) -> Any:
        key = (pickle.dumps(observation), tuple(legal_actions), repr(rng.bit_generator.state))
        if key in self._memo:
            self._memo.move_to_end(key)
            action, state = self._memo[key]
            rng.bit_generator.state = state
            return action
        action = self.agent(observation, legal_actions, rng)
        self._memo[key] = (action, rng.bit_generator.state)
        while len(self._memo) > self.size:
            self._memo.popitem(last=False)
        return action


def _remembered(agent: Any) -> _Remembered:
    # Named like the agent's class: inference names the model in its messages by class name.
    return type(type(agent).__name__, (_Remembered,), {})(agent)


@lru_cache(maxsize=32)
def _prior_agent(prior: str) -> Any:
    """One agent per prior, kept (agents cache their action tables; the sampling agent's calls
    are remembered)."""
    if prior == "uniform":
        return "uniform"
    if prior == "random":
        return RandomAgent()
    if prior == "heuristic":
        return HeuristicAgent()
    if prior == "sampling":
        return _remembered(SamplingAgent(samples=EXPLORER_ROLLOUTS))
    raise ValueError(f"unknown prior {prior!r}; priors: {', '.join(PRIORS)}")


@lru_cache(maxsize=64)
def _situation(rules: Rules, locked: int | None) -> Any:
    """The scripted round-2 situation for a policy prior (the same for every peek and count)."""
    return bidding_situation(rules, locked=locked)


def bid_inference_explorer(rules: Rules | None = None, *, seed: int = 0) -> Explorer:
    """Pick the bidder's locked card, its card count, your peek and a prior: the posterior
    over its bid total (chart) and every card combination (table); a policy prior plays
    ``bidding_situation``. Starts at the rulebook's example: the 10 locked, 3 cards, no peek."""
    rules = instance_or_default("rules", rules, Rules, Rules, "a rubbish Rules or None")
    seed = whole_number("seed", seed, low=0)
    values = sorted(set(rules.money_cards), reverse=True)
    bidders = [("the First Bidder", 0), ("a later bidder", 1)]
    controls = {
        "locked": widgets.Dropdown(options=[("nothing", None), *((str(v), v) for v in values)],
                                   value=values[0], description="locked"),
        "position": widgets.Dropdown(options=bidders, value=0, description="bidder is"),
        "held_out": widgets.IntSlider(value=min(3, len(rules.money_cards) - 1),
                                      min=rules.min_cards_at(0), max=len(rules.money_cards),
                                      description="held out"),
        "peek": widgets.Dropdown(options=[("no peek", None), *((f"a {v}", v) for v in values)],
                                 value=None, description="peek saw"),
        "prior": widgets.Dropdown(options=list(PRIORS), value="uniform", description="prior"),
        "epsilon": widgets.FloatSlider(value=0.0, min=0.0, max=0.5, step=0.05,
                                       description="epsilon"),
        "seed": _seed_control(seed),
    }  # fmt: skip

    def usable(locked: int | None) -> tuple[int, ...]:
        return rules.money_cards if locked is None else without(rules.money_cards, (locked,))

    def adapt(locked: int | None, position: int, prior: str, **_: Any) -> dict[str, dict]:
        cards = usable(locked)
        seen = sorted(set(cards), reverse=True)
        return {
            # A policy prior plays the scripted situation, where the bidder is First Bidder.
            "position": {"options": bidders if prior == "uniform" else bidders[:1]},
            "held_out": {"min": rules.min_cards_at(position), "max": len(cards)},
            "peek": {"options": [("no peek", None), *((f"a {v}", v) for v in seen)]},
            "epsilon": {"disabled": prior == "uniform"},
            "seed": {"disabled": prior != "sampling"},
        }

    def compute(
        locked: int | None, position: int, held_out: int, peek: int | None, prior: str,
        epsilon: float, seed: int,
    ) -> tuple[pl.DataFrame, alt.TopLevelMixin]:  # fmt: skip
        available = usable(locked)
        options: dict[str, Any] = {"rules": rules, "position": position}
        if prior != "uniform":
            options = {"situation": _situation(rules, locked), "epsilon": epsilon,
                       "samples": EXPLORER_SAMPLES, "seed": seed}  # fmt: skip
        agent = _prior_agent(prior)
        by_total = bid_posterior(available, held_out, peek, agent, **options)
        combinations = bid_posterior(available, held_out, peek, agent, by="combination", **options)
        seen = "no peek" if peek is None else f"the peek saw a {peek}"
        if prior == "uniform":
            model = "every card set equally likely (exact)"
        elif prior == "sampling":
            model = f"sampling-agent prior, epsilon {epsilon:.2f}, seed {seed} (estimate)"
        else:
            model = f"{prior}-agent prior, epsilon {epsilon:.2f}"
        who = next(label for label, value in bidders if value == position)
        cards = _text(available)
        title = f"{who[0].upper()}{who[1:]} holds out {held_out} of {cards}, {seen}"
        chart = bid_posterior_chart(by_total, title=title)
        chart = chart.properties(title=alt.Title(title, subtitle=_subtitle(chart, model)))
        columns = ["cards", "total", "ways", "prior", "likelihood", "probability", "exact"]
        if combinations["low"].is_not_null().any():
            columns += ["low", "high"]
        return combinations.select(columns), chart

    return Explorer(controls, compute, title="Hidden-bid inference", adapt=adapt, pick=("total",))


def _subtitle(chart: alt.TopLevelMixin, first: str) -> list[str]:
    """``first`` above the chart's own subtitle (its key to the marks), if it has one."""
    title = chart.title
    own = getattr(title, "subtitle", alt.Undefined)
    return [first] if own is alt.Undefined or not own else [first, own]


def _seed_control(seed: int) -> widgets.BoundedIntText:
    return widgets.BoundedIntText(
        value=seed, min=0, max=2**31 - 1, description="seed", layout={"width": "170px"}
    )


def _lineup(lineup: str, players: int) -> list[str] | str:
    if lineup not in LINEUPS:
        raise ValueError(f"unknown line-up {lineup!r}; line-ups: {', '.join(LINEUPS)}")
    if lineup == "heuristic vs random":
        return ["heuristic" if seat % 2 == 0 else "random" for seat in range(players)]
    return lineup


def cheapskate_explorer(
    rules: Rules | None = None, *, games: int = GAME_COUNTS[0], seed: int = 0
) -> Explorer:
    """Change the rules (player count, destined bonus, starting fame, bid minimum, who starts
    as auctioneer), the seat line-up, the number of games and the seed, and re-run the seeded
    games: each seat's mean times cheapskate with 95% intervals beside the fair share, and its
    win rate beside the even share; the table adds the final-round rate and streaks."""
    rules = instance_or_default("rules", rules, Rules, Rules, "a rubbish Rules or None")
    games, seed = whole_number("games", games, low=1), whole_number("seed", seed, low=0)
    counts = tuple(dict.fromkeys((games, *GAME_COUNTS)))
    controls = {
        "players": widgets.IntSlider(value=rules.players, min=MIN_PLAYERS, max=MAX_PLAYERS,
                                     description="players"),
        "destined_bonus": widgets.IntSlider(value=rules.destined_bonus, min=0, max=60, step=5,
                                            description="destined bonus"),
        "starting_fame": widgets.IntSlider(value=rules.starting_fame, min=0, max=60, step=5,
                                           description="starting fame"),
        "bid_minimum": widgets.Dropdown(
            options=[(BID_MINIMUM_LABELS.get(name, name), name) for name in BID_MINIMUMS],
            value=rules.bid_minimum, description="bid minimum"),
        "starting_auctioneer": widgets.Dropdown(
            options=[("seat 0", 0), ("drawn at random", "random")],
            value=rules.starting_auctioneer if rules.starting_auctioneer == "random" else 0,
            description="first auctioneer"),
        "lineup": widgets.Dropdown(options=list(LINEUPS), value="heuristic", description="seats"),
        "games": widgets.Dropdown(options=[(f"{n:,}", n) for n in counts], value=games,
                                  description="games"),
        "seed": _seed_control(seed),
    }  # fmt: skip

    def compute(
        players: int, destined_bonus: int, starting_fame: int, bid_minimum: str,
        starting_auctioneer: int | str, lineup: str, games: int, seed: int,
    ) -> tuple[pl.DataFrame, alt.TopLevelMixin]:  # fmt: skip
        variant = rules.replace(
            players=players, destined_bonus=destined_bonus, starting_fame=starting_fame,
            bid_minimum=bid_minimum, starting_auctioneer=starting_auctioneer,
        )  # fmt: skip
        report = cheapskate_frequency(variant, _lineup(lineup, players), games=games, seed=seed)
        first = "seat 0" if starting_auctioneer == 0 else "drawn at random"
        setting = (
            f"{players} players, destined bonus {destined_bonus}, starting fame "
            f"{starting_fame}, bid minimum {BID_MINIMUM_LABELS[bid_minimum]}, first auctioneer "
            f"{first}"
        )
        played = f"{lineup} line-up, {games:,} games, seed {seed}"
        times = cheapskate_chart(report.summary, title="Times cheapskate per game")
        wins = cheapskate_win_rate_chart(report.summary, title="Win rate")
        chart = alt.hconcat(times.properties(width=WIDTH // 2), wins.properties(width=WIDTH // 2))
        chart = chart.properties(
            title=alt.Title(setting, subtitle=played, anchor="start", fontSize=13)
        )
        frame = report.summary.select(
            "seat", "agent", "times_mean", "times_low", "times_high", "fair_share",
            "final_round_rate", "streak_mean", "win_rate", "win_low", "win_high",
        )  # fmt: skip
        return frame, chart

    return Explorer(controls, compute, title="Cheapskate frequency", pick=("seat",))


__all__ = ["bid_inference_explorer", "cheapskate_explorer"]
