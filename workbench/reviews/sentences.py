"""Finding sentences written from a review's numbers, so that a re-run that moves a number
changes (or refuses) the sentence: a notebook prints these, never its own wording of them.

Each sentence names what it holds under: the players reviewed and the search's model that
judges them (hidden cards filled in uniformly over what the seat saw, every seat then playing
the search's playout policy). Comparisons say "more" only when the 95% interval of the paired
difference over games excludes 0, else "not measurably different".
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import polars as pl

from workbench.reviews.summary import total_loss
from workbench.stats import mean_interval

#: What every loss is measured under, appended to the sentences.
MODEL = ("judged by the search's model: hidden cards uniform over what the seat saw, every "
         "seat then playing the fitted policy")  # fmt: skip


#: Characters per printed line (a notebook's text output wraps beyond about 120).
LINE_WIDTH = 100


def say(*sentences: str) -> None:
    """Print each sentence wrapped to ``LINE_WIDTH`` characters, so that no output line wraps in
    a notebook (later lines of a sentence indented)."""
    for sentence in sentences:
        print(textwrap.fill(sentence, LINE_WIDTH, subsequent_indent="  "))


def _interval(value: float, low: float, high: float) -> str:
    return f"{value:.3f} (95% interval {low:.3f} to {high:.3f})"


def game_sentence(decisions: pl.DataFrame, player: str) -> str:
    """One reviewed game in a sentence: how many decisions, how they were labelled, the
    costliest one with its interval, and the win chance lost in all."""
    if decisions.is_empty():
        return f"The {player} seat had no decision with more than one legal action."
    rated = decisions.filter(pl.col("label").is_not_null())
    if rated.is_empty():
        return (
            f"The {player} seat made {decisions.height} decisions, none of which the playouts "
            f"could rate ({MODEL})."
        )
    counts = rated["label"].value_counts(sort=True)
    labelled = ", ".join(f"{n} {label}" for label, n in counts.iter_rows())
    worst = rated.sort("loss", descending=True).row(0, named=True)
    return (
        f"The {player} seat made {decisions.height} decisions ({labelled}; labels by the "
        f"interval's low end); its costliest was decision {worst['decision']}, "
        f"{worst['action']} where {worst['best_action']} was best found, losing "
        f"{_interval(worst['loss'], worst['low'], worst['high'])} of a win; in all it gave up "
        f"{_interval(*total_loss(decisions))} of a win ({MODEL})."
    )


def where_lost_sentence(losses: pl.DataFrame, agent: str, by: str | Sequence[str]) -> str:
    """Where ``agent`` loses most (``loss_by``'s frame): its top group, and whether it loses
    measurably more there than in the next (their intervals apart) or not."""
    keys = [by] if isinstance(by, str) else list(by)
    part = losses.filter(pl.col("agent") == agent).sort("loss_per_game", descending=True)
    if part.height < 2:
        raise ValueError(f"where_lost_sentence needs two groups of {agent!r}, got {part.height}")
    top, second = part.row(0, named=True), part.row(1, named=True)
    name = ", ".join(str(top[k]) for k in keys)
    other = ", ".join(str(second[k]) for k in keys)
    apart = top["low"] > second["high"]
    verb = "more than" if apart else "not measurably more than (the intervals overlap)"
    return (
        f"{agent.capitalize()} players lose most win chance per game in decisions of {name}: "
        f"{_interval(top['loss_per_game'], top['low'], top['high'])}, {verb} in {other}: "
        f"{_interval(second['loss_per_game'], second['low'], second['high'])} "
        f"({top['games']} games; {MODEL})."
    )


def agent_difference(
    reviews: pl.DataFrame, first: str, second: str, by: str | Sequence[str] = "phase"
) -> pl.DataFrame:
    """Per group of ``by``: ``first``'s win chance lost per game minus ``second``'s, paired by
    game (both sit at every game of ``review_games``), with a 95% t interval over games."""
    keys = [by] if isinstance(by, str) else list(by)
    missing = [c for c in ["game", "agent", "seat", "loss", *keys] if c not in reviews.columns]
    if missing:
        raise ValueError(f"agent_difference needs columns {missing} (review_games' frame); got "
                         f"{reviews.columns}")  # fmt: skip
    agents = sorted(set(reviews["agent"]))
    unknown = [agent for agent in (first, second) if agent not in agents]
    if unknown:
        raise ValueError(f"agent_difference: no seat of the reviews was played by {unknown}; "
                         f"their agents are {agents}")  # fmt: skip
    seats = reviews.group_by("game", "agent").agg(pl.col("seat").n_unique().alias("seats"))
    lost = (
        reviews.group_by("game", "agent", *keys).agg(pl.col("loss").sum())
        .join(seats, on=["game", "agent"])
        .with_columns(pl.col("loss") / pl.col("seats"))
    )  # fmt: skip
    games = reviews.select("game").unique()
    rows = []
    for group in reviews.select(*keys).unique().sort(keys).iter_rows(named=True):
        per_game = []
        for agent in (first, second):
            mine = lost.filter(agent=agent, **group)
            per_game.append(games.join(mine.select("game", "loss"), on="game", how="left")
                            .fill_null(0.0).sort("game")["loss"].to_numpy())  # fmt: skip
        mean, low, high = mean_interval(per_game[0] - per_game[1])
        rows.append({**group, "difference": mean, "low": low, "high": high,
                     "games": games.height})  # fmt: skip
    return pl.DataFrame(rows)


def difference_sentence(difference: pl.DataFrame, first: str, second: str, by: str) -> str:
    """``agent_difference``'s frame in a sentence: where ``first`` loses measurably more (or
    less) than ``second``, and where the difference is not measurable."""
    more, less, unclear = [], [], []
    for r in difference.iter_rows(named=True):
        text = f"{r[by]} {_interval(r['difference'], r['low'], r['high'])}"
        (more if r["low"] > 0 else less if r["high"] < 0 else unclear).append(text)
    clauses = []
    if more:
        clauses.append(f"lose more win chance per game than {second} players in "
                       + "; ".join(more))  # fmt: skip
    if less:
        lead = "less" if more else f"lose less win chance per game than {second} players"
        clauses.append(f"{lead} in " + "; ".join(less))
    if unclear:
        lead = ("not measurably more or less" if clauses
                else f"lose win chance per game not measurably differently from {second} "
                "players")  # fmt: skip
        clauses.append(f"{lead} in " + "; ".join(unclear))
    games = difference["games"][0] if difference.height else 0
    return (f"{first.capitalize()} players {', and '.join(clauses) or 'have no group'} (the "
            f"difference per game, paired by game over {games} games, {MODEL}).")  # fmt: skip


__all__ = ["LINE_WIDTH", "MODEL", "agent_difference", "difference_sentence", "game_sentence",
           "say", "where_lost_sentence"]  # fmt: skip
