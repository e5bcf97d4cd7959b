"""The Game record: everything the rest of the workbench knows about one game, in one object.

Each game declares one ``Game`` in its package's ``game.py`` (the top of the package: it
imports the game's modules, none of them imports it) and the registry
(``workbench.games.get(id)``) returns it. The designer's bench, the command line and the
play-along table take Game records; a game id is resolved to its record once, where it enters.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from workbench.checks import instance_or_default
from workbench.kit.lineup import make_named_agent, resolve_lineup
from workbench.kit.selfplay import SelfPlay


@dataclass(frozen=True, eq=False)
class Game:
    """One game: its rules, engine, agents, self-play, metrics, panel and docs (see
    docs/adding-a-game.md for what each field asks of a game)."""

    #: The registry id, the name of the game's package (``rubbish``).
    id: str
    #: One line: what the game is (``python -m workbench games`` prints it).
    summary: str
    #: The game's ``Rules`` class: its defaults are the rulebook.
    Rules: type
    #: ``new_game(rules=None, *, seed) -> State``.
    new_game: Callable[..., Any]
    #: Agent name -> class, weakest first (the strength order, as measured).
    agents: Mapping[str, type]
    #: The hand-written agent ``simulate`` seats when given no line-up.
    default_agent: str
    #: The game's self-play: engines, seeding and result frames.
    selfplay: SelfPlay
    #: The game's own balance metrics (``workbench.metrics.GameMetric``) and
    #: ``game_metrics(games, rounds)``, one row per game.
    metrics: tuple[Any, ...] = ()
    game_metrics: Callable[..., Any] | None = None
    #: One sentence: what two rule sets played with the same seed share.
    common_randomness: str = ""
    #: ``play_from(states, agents, *, playouts, seed)``: continuations of given positions.
    play_from: Callable[..., Any] | None = None
    #: The agent that stands for competent play: the designer's default line-up and what a
    #: search agent models at the other seats (None: the default agent).
    reference_agent: str | None = None
    #: The play-along table's panel, ``"module:function"``, imported on first use (it loads
    #: ipywidgets); None: the generic table.
    panel: str | None = None
    #: Where the game's rules, as the workbench plays them, are written down.
    docs: str = ""
    #: Agents made from the rules instead of by their class: name -> ``make(rules,
    #: **options)`` (an exact equilibrium solves the rules it will play).
    makers: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    #: The module that holds the record (``GAME`` in a game's ``game.py``; default: the module
    #: that made it, as ``namedtuple`` finds its own): a worker process imports it to get the
    #: record back.
    module: str = ""
    _functions: tuple[Callable[..., Any], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.module:  # frame 0: here; 1: the dataclass's __init__; 2: who made it
            object.__setattr__(self, "module", sys._getframe(2).f_globals.get("__name__", ""))
        object.__setattr__(self, "agents", MappingProxyType(dict(self.agents)))  # read-only
        unknown = [name for name in (self.default_agent, self.reference_agent)
                   if name is not None and name not in self.agents]  # fmt: skip
        if unknown:
            raise ValueError(f"{self.id}: agents {unknown} are not among {list(self.agents)}")
        functions = self.selfplay.functions(self.resolve_agents, self.default_agent,
                                            tuple(self.agents))  # fmt: skip
        object.__setattr__(self, "_functions", functions)

    def __repr__(self) -> str:
        return f"Game({self.id!r})"

    def __str__(self) -> str:
        return self.id

    def __reduce__(self) -> tuple[Callable[[str, str, str], Game], tuple[str, str, str]]:
        # A record travels to worker processes as pickle sends a class: by the module and the
        # name that hold it, so a game added with register() runs there too.
        module = sys.modules.get(self.module)
        names = [name for name, value in vars(module).items() if value is self] if module else []
        if not names:
            problem = f"no name in its module {self.module!r} holds it"
        elif not hasattr(module, "__file__"):
            problem = f"its module {self.module!r} is a notebook's or a session's, not a file"
        else:
            return _declared_game, (self.module, min(names), self.id)
        raise pickle.PicklingError(
            f"the game {self.id!r} cannot be sent to another process: {problem} (declare the "
            "record at the top of a module file, give Game(module=...) the module that does, "
            "or run with executor=SerialExecutor())"
        )

    # -- agents ------------------------------------------------------------------------------

    @property
    def reference(self) -> str:
        """The name of competent play: ``reference_agent``, else the default agent."""
        return self.reference_agent or self.default_agent

    def make_agent(self, name: str, rules: Any = None, **options: Any) -> Any:
        """The agent ``name`` with its ``options``; a search (an agent taking a ``model`` of the
        other seats' play) models the reference agent unless told otherwise."""
        if isinstance(name, str) and name in self.makers:
            if rules is not None:
                instance_or_default("rules", rules, self.Rules, self.Rules,
                                    f"a {self.id} Rules or None")  # fmt: skip
            return self.makers[name](rules, **options)
        if self.models(name) and "model" not in options and name != self.reference:
            options = {**options, "model": self.make_agent(self.reference, rules)}
        return make_named_agent(self.agents, name, options, game=self.id, rules=rules,
                                rules_type=self.Rules)  # fmt: skip

    def resolve_agents(self, rules: Any, agents: Sequence[Any] | Any | None) -> list[Any]:
        """One agent per seat (``workbench.kit.lineup``)."""
        return resolve_lineup(agents, players=rules.players, make_agent=self.make_agent,
                              known=tuple(self.agents), default=self.default_agent,
                              rules=rules)  # fmt: skip

    def models(self, name: str) -> bool:
        """Does the agent ``name`` need a ``model`` of the other seats' play (a search)?"""
        agent = self.agents.get(name)
        parameter = inspect.signature(agent).parameters.get("model") if agent else None
        return parameter is not None and parameter.default is inspect.Parameter.empty

    # -- self-play ---------------------------------------------------------------------------

    @property
    def simulate(self) -> Callable[..., Any]:
        """``simulate(rules=None, agents=None, *, games, seed, ...)``: seeded self-play frames."""
        return self._functions[0]

    @property
    def simulate_batches(self) -> Callable[..., Iterator[Any]]:
        """``simulate`` batch by batch, for bounded memory."""
        return self._functions[1]

    @property
    def play_game(self) -> Callable[..., Any]:
        """``play_game(rules, agents, *, seed) -> State``: one game through the step engine."""
        return self._functions[2]

    def entry_points(self) -> tuple[dict[str, Any], Callable[..., Any], Callable[..., Any],
                                    Callable[..., Any], Callable[..., Any]]:  # fmt: skip
        """What a game's package exports as ``AGENTS``, ``make_agent``, ``simulate``,
        ``simulate_batches`` and ``play_game``."""
        return self.agents, self.make_agent, self.simulate, self.simulate_batches, self.play_game

    def checked_rules(self, rules: Any) -> Any:
        """``rules``, or the rulebook's when None; a TypeError for anything else."""
        return self.selfplay.checked_rules(rules)

    # -- competent play ----------------------------------------------------------------------

    @property
    def fitted(self) -> bool:
        """Does the game have a ``fitted`` agent (a policy fitted to each rule set)?"""
        return "fitted" in self.agents and hasattr(self.agents["fitted"], "fit")

    def fit(self, rules: Any = None, *, seed: int = 0, progress: bool = True) -> Any:
        """The ``fitted`` agent's fit to ``rules`` (None: the rulebook's), cached; a ValueError
        for a game without one."""
        if not self.fitted:
            raise ValueError(f"{self.id} has no fitted agent; its agents: {list(self.agents)}")
        return self.agents["fitted"](seed=seed).fit(rules, progress=progress)

    # -- the table ---------------------------------------------------------------------------

    def make_panel(self, session: Any, **options: Any) -> Any:
        """The play-along table's panel for ``session`` (imported on first use)."""
        if self.panel is None:
            raise ValueError(f"{self.id} has no panel")
        module, function = self.panel.split(":")
        return getattr(importlib.import_module(module), function)(session, **options)


def _declared_game(module: str, name: str, game_id: str) -> Game:
    """The record ``name`` of ``module``, game ``game_id``: a record unpickled."""
    record = getattr(importlib.import_module(module), name, None)
    if not isinstance(record, Game) or record.id != game_id:
        raise ValueError(f"{module}.{name} is not the game {game_id!r} in this process")
    return record


__all__ = ["Game"]
