"""Interactive explorers for the Rubbish Auction analyses, built on ``workbench.widgets.Explorer``.

Each builder returns an ``Explorer``: set its controls (in a notebook, or ``explorer.set(...)``
in a test) and it recomputes ``explorer.frame`` and ``explorer.chart`` with the package's own
analysis functions; a bad combination shows the ValueError's message (``explorer.error``).
"""

from __future__ import annotations

from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl

from workbench.games.rubbish.agents import HeuristicAgent, RandomAgent, SamplingAgent
from workbench.games.rubbish.cards import without
from workbench.games.rubbish.charts import bid_posterior_chart, cheapskate_chart
from workbench.games.rubbish.cheapskate import cheapskate_frequency
from workbench.games.rubbish.inference import bid_posterior, bidding_situation
from workbench.games.rubbish.rules import BID_MINIMUMS, MAX_PLAYERS, MIN_PLAYERS, Rules
from workbench.widgets import Explorer

#: The priors the bid explorer offers. The sampling agent is estimated (seeded sampling) with
#: few rollouts and samples so that one update takes about a second.
PRIORS = ("uniform", "random", "heuristic", "sampling")
EXPLORER_SAMPLES = 16
EXPLORER_ROLLOUTS = 4

#: Seat line-ups the cheapskate explorer offers.
LINEUPS = ("heuristic", "random", "heuristic vs random")


def _prior_agent(prior: str) -> Any:
    if prior == "uniform":
        return "uniform"
    if prior == "random":
        return RandomAgent()
    if prior == "heuristic":
        return HeuristicAgent()
    if prior == "sampling":
        return SamplingAgent(samples=EXPLORER_ROLLOUTS)
    raise ValueError(f"unknown prior {prior!r}; priors: {', '.join(PRIORS)}")


def bid_inference_explorer(rules: Rules | None = None, *, seed: int = 0) -> Explorer:
    """Pick the bidder's locked card, how many cards it holds out, the card your blind peek
    showed and a prior: see the posterior over its bid total (bar chart) and every card
    combination with its prior, peek likelihood and posterior (table).

    The uniform prior is exact. A policy prior (random, heuristic, sampling agent) needs a
    situation: ``bidding_situation`` — round 2, the bidder is First Bidder and has the chosen
    card locked; its geek uniform over all geeks; ``epsilon`` mixes in that share of uniform
    play. The sampling agent is an estimate (``EXPLORER_SAMPLES`` seeded calls per geek, with a
    bootstrap interval). Starts at the rulebook's example: the 10 locked, 3 cards, no peek.
    """
    rules = Rules() if rules is None else rules
    values = list(rules.card_values)
    controls = {
        "locked": widgets.Dropdown(
            options=[("nothing", None), *((str(v), v) for v in values)],
            value=values[0],
            description="locked",
        ),
        "held_out": widgets.IntSlider(
            value=min(3, len(rules.money_cards)),
            min=0,
            max=len(rules.money_cards),
            description="held out",
        ),
        "peek": widgets.Dropdown(
            options=[("no peek", None), *((f"a {v}", v) for v in values)],
            value=None,
            description="peek saw",
        ),
        "prior": widgets.Dropdown(options=list(PRIORS), value="uniform", description="prior"),
        "epsilon": widgets.FloatSlider(
            value=0.0, min=0.0, max=0.5, step=0.05, description="epsilon"
        ),
    }

    def compute(
        locked: int | None, held_out: int, peek: int | None, prior: str, epsilon: float
    ) -> tuple[pl.DataFrame, alt.TopLevelMixin]:
        available = rules.money_cards if locked is None else without(rules.money_cards, (locked,))
        options: dict[str, Any] = {"rules": rules}
        if prior != "uniform":
            options = {
                "situation": bidding_situation(rules, locked=locked),
                "epsilon": epsilon,
                "samples": EXPLORER_SAMPLES,
                "seed": seed,
            }
        agent = _prior_agent(prior)
        by_total = bid_posterior(available, held_out, peek, agent, **options)
        combinations = bid_posterior(available, held_out, peek, agent, by="combination", **options)
        seen = "no peek" if peek is None else f"peek saw a {peek}"
        title = f"{held_out} card(s) from {'+'.join(map(str, sorted(available)))}, {seen}"
        chart = bid_posterior_chart(by_total, title=f"{title} ({prior} prior)")
        columns = ["cards", "total", "ways", "prior", "likelihood", "probability", "exact"]
        if combinations["low"].is_not_null().any():
            columns += ["low", "high"]
        return combinations.select(columns), chart

    return Explorer(controls, compute, title="Hidden-bid inference")


def cheapskate_explorer(
    rules: Rules | None = None, *, games: int = 20_000, seed: int = 0
) -> Explorer:
    """Change the rules (player count, destined bonus, starting fame, bid minimum) and the seat
    line-up, and re-run ``games`` seeded games (about a second): mean times cheapskate per seat
    with 95% intervals beside the fair share, the final-round rate, streaks and win rate."""
    rules = Rules() if rules is None else rules
    controls = {
        "players": widgets.IntSlider(
            value=rules.players, min=MIN_PLAYERS, max=MAX_PLAYERS, description="players"
        ),
        "destined_bonus": widgets.IntSlider(
            value=rules.destined_bonus, min=0, max=60, step=5, description="destined bonus"
        ),
        "starting_fame": widgets.IntSlider(
            value=rules.starting_fame, min=0, max=60, step=5, description="starting fame"
        ),
        "bid_minimum": widgets.Dropdown(
            options=list(BID_MINIMUMS), value=rules.bid_minimum, description="bid minimum"
        ),
        "lineup": widgets.Dropdown(options=list(LINEUPS), value="heuristic", description="seats"),
    }

    def compute(
        players: int, destined_bonus: int, starting_fame: int, bid_minimum: str, lineup: str
    ) -> tuple[pl.DataFrame, alt.TopLevelMixin]:
        variant = rules.replace(
            players=players,
            destined_bonus=destined_bonus,
            starting_fame=starting_fame,
            bid_minimum=bid_minimum,
        )
        if lineup not in LINEUPS:
            raise ValueError(f"unknown line-up {lineup!r}; line-ups: {', '.join(LINEUPS)}")
        if lineup == "heuristic vs random":
            agents = ["heuristic" if seat % 2 == 0 else "random" for seat in range(players)]
        else:
            agents = lineup
        report = cheapskate_frequency(variant, agents, games=games, seed=seed)
        chart = cheapskate_chart(
            report.summary, title=f"{players} players, {games:,} games (seed {seed})"
        )
        frame = report.summary.select(
            "seat",
            "agent",
            "times_mean",
            "times_low",
            "times_high",
            "fair_share",
            "final_round_rate",
            "streak_mean",
            "win_rate",
        )
        return frame, chart

    return Explorer(controls, compute, title="Cheapskate frequency")


__all__ = ["bid_inference_explorer", "cheapskate_explorer"]
