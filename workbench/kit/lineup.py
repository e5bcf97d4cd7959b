"""Agent line-ups: what every game's ``simulate`` accepts as ``agents``, turned into one agent
per seat.

Accepted: None (the game's default agent in every seat), one agent name or agent object for
every seat, or a sequence with one name or agent per seat. Names are made with the game's
``make_agent``, once per distinct name, so a batch engine sees one instance per policy.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from workbench.checks import instance_or_default


def resolve_lineup(
    agents: Sequence[Any] | Any | None,
    *,
    players: int,
    make_agent: Callable[..., Any],
    known: Sequence[str],
    default: str,
    rules: Any = None,
) -> list[Any]:
    """One agent per seat from ``agents`` (module docstring), or an error saying what is
    allowed; ``make_agent(name, rules)`` makes the ``known`` names."""
    if agents is None:
        agents = default
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        agents = [agents] * players
    agents = list(agents)
    if len(agents) != players:
        raise ValueError(
            f"agents must give one agent per seat: {players} for these rules, got {len(agents)}"
        )
    made: dict[str, Any] = {}
    lineup = []
    for seat, agent in enumerate(agents):
        if isinstance(agent, str):
            if agent not in known:
                raise ValueError(
                    f"unknown agent {agent!r} for seat {seat}; agents: {', '.join(known)}"
                )
            if agent not in made:
                made[agent] = make_agent(agent, rules)
            agent = made[agent]
        elif isinstance(agent, type):
            raise TypeError(
                f"the agent for seat {seat} is the class {agent.__name__}, not an agent: "
                f"pass an instance ({agent.__name__}()) or a name ({', '.join(known)})"
            )
        elif not callable(agent):
            raise TypeError(
                f"the agent for seat {seat} must be a name ({', '.join(known)}) or callable as "
                f"agent(observation, legal_actions, rng); got {agent!r}"
            )
        lineup.append(agent)
    return lineup


def seated_agents(agents: Sequence[Any] | Any, players: int) -> list[Any]:
    """One agent object per seat, from one for every seat or one per seat (names are a game
    record's to resolve)."""
    listed = [agents] if isinstance(agents, str) or not isinstance(agents, Sequence) else agents
    named = [agent for agent in listed if isinstance(agent, str) or agent is None]
    if named:
        raise TypeError(
            f"agents must be agent objects here, got {named[0]!r}: a game's record makes agents "
            "by name (workbench.games.get(game).resolve_agents)"
        )
    return resolve_lineup(agents, players=players, make_agent=_unnamed, known=(), default="")


def _unnamed(name: str, rules: Any) -> Any:
    raise AssertionError("unreachable: names are refused first")


def agent_label(agent: Any) -> str:
    """An agent's display name: its ``name`` attribute, else its function or class name."""
    name = getattr(agent, "name", None)
    if isinstance(name, str):
        return name
    return str(getattr(agent, "__name__", type(agent).__name__))


def make_named_agent(
    agents: Mapping[str, Any],
    name: object,
    options: Mapping[str, object],
    *,
    game: str,
    rules: object = None,
    rules_type: type | None = None,
) -> Any:
    """``agents[name](**options)``, refusing an unknown name, rules of another game, or an
    option the agent does not take, saying what is allowed."""
    if not isinstance(name, str) or name not in agents:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(agents)}")
    if rules is not None and rules_type is not None:
        instance_or_default("rules", rules, rules_type, rules_type, f"a {game} Rules or None")
    accepted = [p for p in inspect.signature(agents[name]).parameters if p != "self"]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        raise TypeError(
            f"unknown option(s) {unknown} for the {name} agent; its options: "
            f"{', '.join(accepted) or 'none'}"
        )
    return agents[name](**options)


def agent_repr(agent: Any) -> str:
    """``Class(setting=value, ...)`` from the agent's ``__init__`` parameters, each kept as an
    attribute of the same name (so the repr rebuilds the agent)."""
    parameters = inspect.signature(type(agent).__init__).parameters.values()
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    settings = [p.name for p in parameters if p.kind in named and p.name != "self"]
    shown = ", ".join(f"{name}={getattr(agent, name)!r}" for name in settings)
    return f"{type(agent).__name__}({shown})"


class DecidesOnView:
    """Base of agents that can also decide from ``State.view(player)`` through
    ``act_on_view(player, view, rng)`` (the step engine's loop then skips the Observation). A
    subclass that decides in its own ``__call__`` and not in ``act_on_view`` loses
    ``act_on_view``: the view would bypass its decision."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "__call__" in cls.__dict__ and "act_on_view" not in cls.__dict__:
            cls.act_on_view = None
