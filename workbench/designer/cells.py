"""Cells: one rule set and one agent line-up of one game, simulated from one seed.

Everything here reaches a game through the contract only (``workbench.games.get``, ``Rules``
and ``dataclasses.replace``, ``AGENTS``/``make_agent``, ``simulate_batches``). Bad input is
found before anything runs: ``build_rules`` and ``resolve_agents`` return the problem as text
so that a sweep can list every bad cell at once.

**Per-cell seeds.** A cell's seed is derived from the base seed and the cell's parameters, not
from its position in a grid: the game id, every rule field whose value differs from the game's
default ``Rules()`` (name and ``repr`` of the value), and the line-up as given (agent names, or
each agent's label; ``None`` is "default"). These are hashed (SHA-256) into four 32-bit words
that label a ``SeedSequence`` stream of the base seed (``workbench.kit.seeding.derive_seed``). The
same cell re-run alone, or inside another grid, gets the same seed and so the same numbers.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from workbench import games as registry
from workbench.checks import whole_number
from workbench.designer.balance import GameValues, game_values
from workbench.designer.executors import report_progress
from workbench.designer.moments import Moments
from workbench.kit.game import Game
from workbench.kit.lineup import agent_label, resolve_lineup
from workbench.kit.seeding import derive_seed, seed_sequence
from workbench.kit.store import unit_type
from workbench.stats import check_confidence

#: The grid key that varies the agent line-up instead of a rule field.
AGENTS_AXIS = "agents"


def designer_lineup(game: Game, agents: Any) -> Any:
    """``agents``, or when None the designer's default: the game's reference agent in every
    seat (``fitted`` to each rule set, so a finding is judged under play adapted to the rules,
    not one hand-written agent's habits), else None (the game's own default agent)."""
    return game.reference_agent if agents is None else agents


@lru_cache(maxsize=16)
def default_rules(game: Game) -> Any:
    """The game's rulebook ``Rules()``."""
    return game.Rules()


def rule_fields(game: Game) -> tuple[str, ...]:
    """The rule options a designer may set: ``Rules``' init fields, in declaration order."""
    return tuple(f.name for f in dataclasses.fields(game.Rules) if f.init)


def positive_count(name: str, value: Any) -> int:
    """``value`` as an int >= 1 (numpy integers accepted; bools, floats and strings refused)."""
    return whole_number(name, value, low=1)


#: The largest seed a run takes: its results keep the seed in a 64-bit column.
MAX_SEED = 2**63 - 1


def check_seed(seed: Any) -> int:
    """A non-negative int seed below 2**63 (numpy integers accepted: the results' ``seed``
    column holds 64-bit integers); the error names ``seed``."""
    if isinstance(seed, np.random.SeedSequence):
        raise TypeError("seed must be a non-negative int here (cells derive their own seeds)")
    seed_sequence(seed)
    if seed > MAX_SEED:
        raise ValueError(
            f"seed must be at most 2**63 - 1 = {MAX_SEED} (the results' seed column holds 64-bit "
            f"integers), got {seed}"
        )
    return int(seed)


def check_run(game: Any, games: Any, seed: Any, confidence: Any = 0.95) -> tuple[Game, int, int]:
    """What every run of the bench checks first: (the game's record, ``games`` >= 1, ``seed``),
    and the intervals' ``confidence``, before any game is played. Where a game enters the
    bench, it is resolved here once."""
    check_confidence(confidence)
    return registry.get(game), positive_count("games", games), check_seed(seed)


def plain(value: Any) -> Any:
    """A grid or rule value as the ``Rules`` class expects it: numpy scalars become Python
    scalars (so ``np.arange`` grids work), lists become tuples (so values are hashable)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return tuple(plain(v) for v in value.tolist())
    if isinstance(value, list | tuple) and not hasattr(value, "_fields"):
        return tuple(plain(v) for v in value)
    return value


def value_label(value: Any) -> str:
    """A short readable label: 'none', a string as is, anything else its repr."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    return repr(value)


def check_fields(game: Game, names: Sequence[str], what: str = "rule field") -> list[str]:
    """A problem per name that is not a rule option of the game."""
    fields = rule_fields(game)
    return [
        f"unknown {what} {name!r} for {game.id}; rule fields: {', '.join(fields)}"
        for name in names
        if name not in fields
    ]


def build_rules(game: Game, base: Any, changes: Mapping[str, Any]) -> tuple[Any, str]:
    """(``base`` with ``changes`` applied, '') or (None, the ``Rules``' own error message)."""
    try:
        return dataclasses.replace(base, **{k: plain(v) for k, v in changes.items()}), ""
    except (ValueError, TypeError) as exc:
        return None, str(exc)


def check_base_rules(game: Game, rules: Any, name: str = "base_rules") -> Any:
    """``rules`` as the game's Rules (None: the rulebook's)."""
    if rules is None:
        return game.Rules()
    if not isinstance(rules, game.Rules):
        raise TypeError(
            f"{name} must be {game.id}.Rules (or None for the rulebook's), got "
            f"{type(rules).__module__}.{type(rules).__name__}"
        )
    return rules


def resolve_rules(game: Game, rules: Any, base: Any, name: str) -> tuple[Any, list[str]]:
    """(rules, problems) for rules given as Rules, None (``base``) or a mapping of changes to
    ``base``."""
    if rules is None:
        return base, []
    if isinstance(rules, Mapping):
        unknown = check_fields(game, list(rules))
        if unknown:
            return None, [f"{name}: {problem}" for problem in unknown]
        built, problem = build_rules(game, base, rules)
        return built, [f"{name}: {problem}"] if problem else []
    return check_base_rules(game, rules, name), []


def require_variant(game: Game, variant: Any) -> None:
    """A ValueError for a comparison given no variant, naming the fields of the game's rules."""
    if variant is None:
        raise ValueError(
            f"variant is missing: give the variant's {game.id} Rules, or its changes to the "
            "baseline as a mapping of fields to values (the fields: "
            f"{', '.join(rule_fields(game))})"
        )


def baseline_and_variant(game: Game, baseline: Any, variant: Any) -> tuple[Any, Any, list[str]]:
    """(baseline, variant, problems): the baseline as ``resolve_rules`` reads it against the
    rulebook's, the variant against the baseline (the rulebook's where the baseline is bad)."""
    rulebook = game.Rules()
    base, problems = resolve_rules(game, baseline, rulebook, "baseline")
    changed, more = resolve_rules(game, variant, rulebook if base is None else base, "variant")
    return base, changed, problems + more


def lineup_label(agents: Any) -> str:
    """The line-up as given, as short text for tables and titles ('default' for None)."""
    if agents is None:
        return "default"
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        return _agent_name(agents)
    return ",".join(_agent_name(agent) for agent in agents)


def lineup_key(agents: Any, players: int) -> str:
    """The line-up seat by seat, so that 'heuristic' and four times 'heuristic' are one cell."""
    if agents is not None and (isinstance(agents, str) or not isinstance(agents, Sequence)):
        agents = [agents] * players
    return lineup_label(agents)


def _agent_name(agent: Any) -> str:
    return agent if isinstance(agent, str) else agent_label(agent)


def resolve_agents(
    game: Game, rules: Any, agents: Any, *, progress: bool = True
) -> tuple[list[Any] | None, str]:
    """(one agent per seat, '') for a valid line-up, made once here so that workers need not
    make them again (an equilibrium agent solves the game when made, a fitted agent fits to
    ``rules`` or reads its fit from the cache); (None, problem) for a wrong length, an unknown
    name, or an agent these rules refuse. None stays None: the game's default agent, made
    where the cell runs."""
    if agents is None:
        return None, ""
    try:
        made = resolve_lineup(
            agents,
            players=rules.players,
            make_agent=game.make_agent,
            known=tuple(game.agents),
            default="",
            rules=rules,
        )
    except (ValueError, TypeError) as exc:
        return None, str(exc)
    for agent in made:  # the fit travels with the agent to the workers
        if hasattr(agent, "policy_for"):
            agent.policy_for(rules, progress=progress)
    return made, ""


def check_lineup(game: Game, rules: Any, agents: Any, *, progress: bool = True) -> str:
    """'' when ``agents`` gives the game a valid line-up for ``rules``, else the problem."""
    return resolve_agents(game, rules, agents, progress=progress)[1]


def changed_fields(game: Game, rules: Any, reference: Any = None) -> dict[str, Any]:
    """Rule fields whose value differs from ``reference`` (default: the rulebook's Rules())."""
    reference = default_rules(game) if reference is None else reference
    return {
        name: getattr(rules, name)
        for name in rule_fields(game)
        if getattr(rules, name) != getattr(reference, name)
    }


def rules_label(game: Game, rules: Any, reference: Any = None) -> str:
    """'destined_bonus=40, bid_minimum=one', or 'rulebook' (or 'baseline' against a reference)."""
    changes = changed_fields(game, rules, reference)
    if not changes:
        return "rulebook" if reference is None else "same as baseline"
    return ", ".join(f"{name}={value_label(value)}" for name, value in changes.items())


def cell_seed(seed: int, game: Game, rules: Any, agents: Any) -> int:
    """The seed of the cell (``rules``, ``agents``) under base ``seed`` (module docstring)."""
    changes = tuple((name, repr(value)) for name, value in changed_fields(game, rules).items())
    key = repr((game.id, changes, lineup_key(agents, rules.players))).encode()
    digest = hashlib.sha256(key).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]
    return derive_seed(seed, *words)


class InvalidCells(ValueError):
    """Problems found before a run started (nothing was run): ``problems`` lists each one."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        listed = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"{len(self.problems)} problem(s), nothing was run:\n{listed}")


class CellTask(NamedTuple):
    """What a worker needs to run one cell (``agents``: made, one per seat; None for the
    game's default)."""

    game: Game
    rules: Any
    agents: Any
    games: int
    seed: int


@unit_type
class CellSummary(NamedTuple):
    """A cell's moments per metric, its table size and the line-up's labels as its frames
    name them."""

    moments: dict[str, Moments]
    players: int
    lineup: tuple[str, ...]


def _batches(task: CellTask):
    game = task.game
    return game, game.simulate_batches(
        task.rules, task.agents, games=task.games, seed=task.seed, progress=False
    )


def _lineup(games_frame: Any) -> tuple[str, ...]:
    first = games_frame.filter(games_frame["game"] == games_frame["game"].min()).sort("seat")
    return tuple(first["agent"].to_list())


def summarise_cell(task: CellTask, report: Any = None) -> CellSummary:
    """Run one cell batch by batch, keeping only each metric's moments (bounded memory)."""
    game, batches = _batches(task)
    totals: dict[str, Moments] = {}
    players, lineup = 0, ()
    for games_frame, rounds_frame in batches:
        values = game_values(games_frame, rounds_frame, game)
        for name, array in values.values.items():
            totals[name] = totals.get(name, Moments()) + Moments.of(array)
        if not lineup:
            players, lineup = values.players, _lineup(games_frame)
        report_progress(report, values.games.size)
    return CellSummary(totals, players, lineup)


def cell_values(task: CellTask, report: Any = None) -> tuple[GameValues, tuple[str, ...]]:
    """Run one cell and keep every game's metric values (for paired comparisons)."""
    game, batches = _batches(task)
    parts = []
    lineup: tuple[str, ...] = ()
    for games_frame, rounds_frame in batches:
        parts.append(game_values(games_frame, rounds_frame, game))
        lineup = lineup or _lineup(games_frame)
        report_progress(report, parts[-1].games.size)
    return GameValues.concat(parts), lineup


__all__ = [
    "AGENTS_AXIS",
    "CellSummary",
    "CellTask",
    "InvalidCells",
    "baseline_and_variant",
    "build_rules",
    "cell_seed",
    "cell_values",
    "changed_fields",
    "check_base_rules",
    "check_fields",
    "check_lineup",
    "check_run",
    "check_seed",
    "designer_lineup",
    "lineup_key",
    "lineup_label",
    "plain",
    "positive_count",
    "resolve_agents",
    "resolve_rules",
    "rule_fields",
    "rules_label",
    "summarise_cell",
    "value_label",
]
