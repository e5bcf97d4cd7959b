"""The game review: every decision of one seat scored by what it cost in win chance
(``docs/review.md``: how, why, the columns and the labels). Only the game contract is used:
the record, the State / Observation API, and the search agent's ``Searching`` (sampler,
playouts, candidates) through ``workbench.kit.evaluation``.

Each decision (a position where the seat had two or more legal actions) is reviewed in two
stages, from what the seat could see:

1. *Screen*: every evaluated action (all legal actions when there are at most
   ``ALL_LEGAL``, else the search's candidates and the action taken) is played from the same
   ``budget`` fillings of the hidden information with the same playout seeds. The best action
   is the one with the highest mean win share (the action taken when it ties for it).
2. *Measure*: the action taken and that best action are played again on ``budget`` fresh
   fillings, shared by the two. The loss is the mean paired difference, with its interval; the
   win chances are these playouts' means with Wilson intervals. Measuring on playouts that did
   not pick the best keeps the noise that picked it out of the loss.

Decision ``step`` (the number of actions before it) draws both stages from the stream
``(seed, REVIEW_STREAM, step)``: the same seed gives the same review, and a decision's review
does not depend on which other decisions are reviewed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from workbench.checks import checked_seat, whole_number
from workbench.kit.evaluation import (
    Evaluator,
    evaluate_actions,
    paired_loss,
    win_chance,
)
from workbench.kit.game import Game
from workbench.kit.lineup import agent_label
from workbench.kit.seeding import SeedLike, generator, seed_sequence
from workbench.kit.selfplay import agent_for_game
from workbench.reviews.knowledge import Knowledge
from workbench.reviews.labels import labels
from workbench.sessions.actions import is_record, value_text
from workbench.sessions.session import Session, load

#: Seeding label of the review's own draws: decision ``step`` uses ``(seed, 100, step)``, apart
#: from the deal and the agents' streams (the kit's ``(seed, 0)`` and ``(seed, 1 + seat)``, the
#: table's ``(seed, 1, seat)``).
REVIEW_STREAM = 100
#: Every legal action is evaluated when there are at most this many; beyond, the search's
#: candidates and the action taken.
ALL_LEGAL = 24
#: Playouts per action and stage when ``budget`` is None, chosen so that one game is reviewed
#: within the speed targets on one core (``bench/review.py``; ``docs/review.md``).
DEFAULT_BUDGETS = {"rubbish": 512, "shared_budget": 512, "going_gone": 512, "auction_house": 192}
#: The budget of a game not in ``DEFAULT_BUDGETS``.
FALLBACK_BUDGET = 64

#: The decisions frame's columns and types.
DECISION_SCHEMA = {
    "decision": pl.Int64,
    "step": pl.Int64,
    "round": pl.Int64,
    "phase": pl.String,
    "kind": pl.String,
    "seat": pl.Int64,
    "action": pl.String,
    "best_action": pl.String,
    "win_chance": pl.Float64,
    "win_low": pl.Float64,
    "win_high": pl.Float64,
    "best_win_chance": pl.Float64,
    "loss": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "label": pl.String,
    "label_high": pl.String,
    "n": pl.Int64,
    "evaluated": pl.Int64,
    "legal": pl.Int64,
    "knew": pl.String,
}
#: The columns a decision the playouts cannot rate leaves null.
_RATED = ("win_chance", "win_low", "win_high", "best_win_chance", "loss", "low", "high", "label",
          "label_high")  # fmt: skip
#: A win chance with its Wilson interval (``chance_columns``), in every frame of estimates.
CHANCE_SCHEMA = {"win_chance": pl.Float64, "low": pl.Float64, "high": pl.Float64}
#: Every evaluated action of every decision (the screen).
ACTION_SCHEMA = {
    "decision": pl.Int64,
    "action": pl.String,
    **CHANCE_SCHEMA,
    "n": pl.Int64,
    "taken": pl.Boolean,
    "best": pl.Boolean,
}
#: Each seat's win chance at each reviewed decision (after the action taken), then the result.
TRACK_SCHEMA = {
    "decision": pl.Int64,
    "seat": pl.Int64,
    "player": pl.String,
    **CHANCE_SCHEMA,
    "n": pl.Int64,
}


@dataclass(frozen=True)
class Played:
    """A finished game as the review reads it: every State before each action, who played
    what, and each seat's label."""

    game: Game
    rules: Any
    states: tuple[Any, ...]
    players: tuple[int, ...]
    actions: tuple[Any, ...]
    labels: tuple[str, ...]
    seed: SeedLike


@dataclass(frozen=True)
class Review:
    """One seat's review: ``decisions`` (one row per decision, ``DECISION_SCHEMA``), ``actions``
    (every evaluated action's screen estimate), ``track`` (every seat's win chance through the
    game as the reviewed seat could estimate it, then the result) and how it was made."""

    game: Game
    seat: int
    seed: SeedLike
    budget: int
    labels: tuple[str, ...]
    decisions: pl.DataFrame
    actions: pl.DataFrame
    track: pl.DataFrame
    scores: tuple[float, ...] = field(default=())
    winners: tuple[int, ...] = field(default=())


def review(
    game: Any,
    rules: Any = None,
    agents: Any = None,
    *,
    seed: int = 0,
    seat: int | None = None,
    budget: int | None = None,
) -> pl.DataFrame:
    """Every decision of ``seat`` scored: one row per decision (``DECISION_SCHEMA``; the
    module docstring says how). ``game``: a game id or record (with ``rules``, ``agents`` as
    ``simulate`` takes them and ``seed``: the game ``play_game`` plays; ``seat`` 0 by default),
    a saved table file's path, or a table session (``seat``: the seat at the table by default;
    ``rules`` and ``agents`` are the file's). ``budget``: playouts per action and stage
    (``DEFAULT_BUDGETS``)."""
    return review_details(game, rules, agents, seed=seed, seat=seat, budget=budget).decisions


def review_details(
    game: Any,
    rules: Any = None,
    agents: Any = None,
    *,
    seed: int = 0,
    seat: int | None = None,
    budget: int | None = None,
    progress: Any = None,
) -> Review:
    """``review`` with everything it found (``Review``); ``progress(done, total)`` is called
    after each decision (a table's status line)."""
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a function progress(done, total) or None, got "
                        f"{progress!r}")  # fmt: skip
    session = _session_of(game)
    played = played_game(game if session is None else session, rules, agents, seed=seed)
    if seat is None:  # the seat at a saved table, else 0
        seat = session.seat if session is not None else 0
    seat = checked_seat(seat, played.rules.players)
    budget = checked_budget(played.game, budget)
    return review_played(played, seat=seat, seed=seed, budget=budget, progress=progress)


def played_game(game: Any, rules: Any = None, agents: Any = None, *, seed: int = 0) -> Played:
    """The game to review: a saved table (path or session) or the seeded game of ``agents``."""
    session = _session_of(game)
    if session is not None:
        if rules is not None or agents is not None:
            raise ValueError(
                "a saved table brings its own rules and agents: give only the path (or the "
                "session), and seat / seed / budget"
            )
        if not session.is_over:
            raise ValueError(
                f"the table's game is not over ({session.step} actions played): finish it first"
            )
        states = tuple(session.states)
        labels_ = tuple(session.label(s) for s in range(session.rules.players))
        return Played(
            session.game, session.rules, states,
            tuple(m.seat for m in session.moves), tuple(m.action for m in session.moves),
            labels_, session.seed,
        )  # fmt: skip
    from workbench import games  # the registry (the review sits above the games)

    record = games.get(game)
    rules = record.checked_rules(rules)
    seed_sequence(seed)  # a clear error for a bad seed
    seated = record.resolve_agents(rules, agents)
    lineup = [agent_for_game(agent, rules, seed_sequence(seed), seat)
              for seat, agent in enumerate(seated)]  # fmt: skip
    deal_seed, rngs = record.selfplay.streams(seed_sequence(seed), rules.players)
    state = record.new_game(rules, seed=deal_seed)
    states, players, actions = [state], [], []
    while (player := state.to_play) is not None:
        action = lineup[player](state.observation(player), state.legal_actions(), rngs[player])
        state = state.apply(action)
        states.append(state)
        players.append(player)
        actions.append(action)
    names = tuple(agent_label(agent) for agent in seated)
    return Played(record, rules, tuple(states), tuple(players), tuple(actions), names, seed)


def review_played(
    played: Played, *, seat: int, seed: int, budget: int, progress: Any = None
) -> Review:
    """Review ``seat``'s decisions in a played game (``review``'s work)."""
    game, rules = played.game, played.rules
    evaluator = evaluator_for(game, rules)
    knowledge = Knowledge(game, seat)
    steps = [
        step for step, player in enumerate(played.players)
        if player == seat and len(played.states[step].legal_actions()) > 1
    ]  # fmt: skip
    rows, action_rows, track_rows = [], [], []
    for number, step in enumerate(steps, start=1):
        state, taken = played.states[step], played.actions[step]
        found = review_decision(evaluator, state, seat, taken, budget=budget,
                                rng=generator(seed, REVIEW_STREAM, step))  # fmt: skip
        knew = knowledge.text(state)
        rows.append({"decision": number, "step": step, **found.row, "knew": knew})
        action_rows += [{"decision": number, **row} for row in found.screen]
        track_rows += [
            {"decision": number, "seat": s, "player": played.labels[s], **estimate}
            for s, estimate in enumerate(found.track)
        ]
        if progress is not None:
            progress(number, len(steps))
    final = played.states[-1].result()
    winners = tuple(int(s) for s in final.winners)
    for s in range(rules.players):
        share = 1.0 / len(winners) if s in winners else 0.0
        track_rows.append({"decision": len(steps) + 1, "seat": s, "player": played.labels[s],
                           "win_chance": share, "low": share, "high": share, "n": 0})  # fmt: skip
    return Review(
        game=game, seat=seat, seed=seed, budget=budget, labels=played.labels,
        decisions=pl.DataFrame(rows, schema=DECISION_SCHEMA),
        actions=pl.DataFrame(action_rows, schema=ACTION_SCHEMA),
        track=pl.DataFrame(track_rows, schema=TRACK_SCHEMA),
        scores=tuple(float(s) for s in final.scores), winners=winners,
    )  # fmt: skip


@dataclass(frozen=True)
class Reviewed:
    """One decision's findings: its frame row (without decision, step and knew), its screen
    (one row per evaluated action) and every seat's win chance after the action taken."""

    row: dict[str, Any]
    screen: list[dict[str, Any]]
    track: list[dict[str, Any]]


def review_decision(
    evaluator: Evaluator, state: Any, seat: int, taken: Any, *, budget: int,
    rng: np.random.Generator,
) -> Reviewed:  # fmt: skip
    """The two stages (module docstring) at ``state``, where ``seat`` played ``taken``. An
    action the playouts cannot continue after (``evaluate_actions``) is left out; when it is
    the action taken, the decision is unrated (its numbers and label null)."""
    observation = state.observation(seat)
    legal = state.legal_actions()
    actions = evaluated_actions(evaluator, observation, legal, taken, rng)
    screen = evaluate_actions(evaluator, observation, actions, fillings=budget, rng=rng)
    means = screen[:, :, seat].mean(axis=1)
    valid = ~np.isnan(means)
    taken_index = actions.index(taken)
    best_index = taken_index
    if valid.any():
        best = int(np.nanargmax(means))
        if not valid[taken_index] or means[best] > means[taken_index]:
            best_index = best
    pair = [taken_index] if best_index == taken_index else [taken_index, best_index]
    measured = evaluate_actions(evaluator, observation, [actions[i] for i in pair],
                                fillings=budget, rng=rng)  # fmt: skip
    row = {
        "round": _whole(getattr(observation, "round", getattr(observation, "deal", None))),
        "phase": str(getattr(observation, "phase", type(taken).__name__)),
        "kind": type(taken).__name__,
        "seat": seat,
        "action": action_text(taken),
        "best_action": action_text(actions[best_index]),
        **dict.fromkeys(_RATED),
        "n": budget,
        "evaluated": int(valid.sum()),
        "legal": len(legal),
    }
    track: list[dict[str, Any]] = []
    if not np.isnan(measured).any():
        taken_chance = win_chance(measured[0, :, seat])
        best_chance = taken_chance if len(pair) == 1 else win_chance(measured[1, :, seat])
        loss = None if len(pair) == 1 else paired_loss(measured[1, :, seat], measured[0, :, seat])
        values = (0.0, 0.0, 0.0) if loss is None else (loss.value, loss.low, loss.high)
        label, label_high = labels(loss is None, values[1], values[2])
        row.update(
            win_chance=taken_chance.value, win_low=taken_chance.low, win_high=taken_chance.high,
            best_win_chance=best_chance.value, loss=values[0], low=values[1], high=values[2],
            label=label, label_high=label_high,
        )  # fmt: skip
        track = [chance_columns(measured[0, :, s]) for s in range(measured.shape[-1])]
    screened = [
        {
            "action": action_text(action),
            **chance_columns(screen[index, :, seat]),
            "taken": index == taken_index,
            "best": index == best_index,
        }
        for index, action in enumerate(actions)
        if valid[index]
    ]
    return Reviewed(row, screened, track)


def chance_columns(shares: np.ndarray) -> dict[str, Any]:
    """The win chance of one action's playout shares (``win_chance``) as a frame row's
    ``win_chance``, ``low``, ``high`` and ``n``."""
    estimate = win_chance(shares)
    return {
        "win_chance": estimate.value,
        "low": estimate.low,
        "high": estimate.high,
        "n": estimate.n,
    }


def action_text(action: Any) -> str:
    """An action as a review shows it: the game's own wording when it has one (a bid's
    '10+5 = 15'), else its type and fields ('Play(card 9S)', 'Pass'), else plain text."""
    text = value_text(action)
    if is_record(action) and type(action).__str__ is tuple.__str__:
        return f"{type(action).__name__}({text})" if text else type(action).__name__
    return text


def evaluated_actions(
    evaluator: Evaluator, observation: Any, legal: Sequence[Any], taken: Any,
    rng: np.random.Generator,
) -> list[Any]:  # fmt: skip
    """Every legal action when there are at most ``ALL_LEGAL``; else the search's candidates,
    with ``taken`` added last when they leave it out (None: no action taken, a hint)."""
    if len(legal) <= ALL_LEGAL:
        return list(legal)
    actions = []
    for action in evaluator.candidates(observation, legal, rng):
        if action not in actions:
            actions.append(action)
    if taken is not None and taken not in actions:
        actions.append(taken)
    return actions


_EVALUATORS: dict[tuple[str, Any], Evaluator] = {}


def evaluator_for(game: Game, rules: Any) -> Evaluator:
    """The evaluator of ``game``'s search agent for ``rules`` (made once per rule set)."""
    key = (game.id, rules)
    if key not in _EVALUATORS:
        if "search" not in game.agents:
            raise ValueError(f"{game.id} has no search agent: reviews and hints play it out")
        _EVALUATORS[key] = Evaluator.from_search(game.make_agent("search", rules), rules)
    return _EVALUATORS[key]


def default_budget(game: Game) -> int:
    """Playouts per action and stage for ``game`` when none is given."""
    return DEFAULT_BUDGETS.get(game.id, FALLBACK_BUDGET)


def checked_budget(game: Game, budget: int | None) -> int:
    """``budget`` checked (a whole number from 2 to 100,000), or ``game``'s default when None."""
    if budget is None:
        return default_budget(game)
    return whole_number("budget", budget, low=2, high=100_000)


def _session_of(game: Any) -> Any:
    """The table session ``game`` stands for (a saved file's path, replayed; a Session or a
    Table), or None for a game id or record."""
    if isinstance(game, Session):
        return game
    if isinstance(getattr(game, "session", None), Session):
        return game.session
    if isinstance(game, os.PathLike) or (isinstance(game, str) and _looks_like_path(game)):
        path = Path(os.fspath(game))
        if not path.is_file():
            raise ValueError(f"no saved table at {str(path)!r} (a game id or a saved table's path)")
        return load(path)
    return None


def _looks_like_path(text: str) -> bool:
    from workbench import games

    return text not in games.available() and (
        text.endswith(".json") or os.sep in text or Path(text).is_file()
    )


def _whole(value: Any) -> int | None:
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


__all__ = [
    "ALL_LEGAL", "DEFAULT_BUDGETS", "REVIEW_STREAM", "Review", "action_text", "checked_budget",
    "default_budget", "evaluated_actions", "evaluator_for", "played_game", "review",
    "review_decision", "review_details", "review_played",
]  # fmt: skip
