"""Compiled policies behind one interface: what an agent must offer to play inside a game's
compiled loop, and the table of policies a loop reads.

An agent plays compiled when it has ``compiled_policy() -> CompiledPolicy``: an integer kind
(which of the game's policy functions decides) and a float64 parameter vector (its constants,
named by the agent). A game's compiled loop reads a ``PolicyTable``: every distinct policy of a
line-up as a row (``kinds[k]``, ``parameters[k]``), and per game and seat the row that seat
plays (``assignment[g, s]``), so one loop serves fixed line-ups and seats whose policy is drawn
per game alike.

A ``Mixture`` is a mixed strategy: a seat playing it plays one of its components, drawn afresh
for each game (the fitted agents' equilibrium play is one), by the step engine when the game
starts and by a compiled loop from ``PolicyTable.assignment``: the same draw either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from workbench.kit.lineup import agent_label
from workbench.kit.seeding import seed_sequence
from workbench.kit.streams import keyed_uniforms

#: The sub-stream (of a batch's or a game's stream) that mixed seats draw their policies from,
#: apart from every other draw, so a line-up without a mixture plays exactly as before.
MIXTURE_STREAM = 0x313


class CompiledPolicy(NamedTuple):
    """A policy as a compiled loop plays it: the game's policy ``kind`` and its parameters (a
    large table, such as a solved equilibrium's, may give them as a float64 array, copied
    once instead of converted float by float)."""

    kind: int
    parameters: tuple[float, ...] | np.ndarray = ()

    def same_as(self, other: CompiledPolicy) -> bool:
        """The same kind and parameters (arrays compared by value)."""
        mine, theirs = self.parameters, other.parameters
        if self.kind != other.kind or len(mine) != len(theirs):
            return False
        if isinstance(mine, np.ndarray) or isinstance(theirs, np.ndarray):
            return mine is theirs or bool(np.array_equal(mine, theirs))
        return mine == theirs


def plays_compiled(agent: Any) -> bool:
    """Has ``agent`` a ``compiled_policy()`` (every component, for a mixture)?"""
    if isinstance(agent, Mixture):
        return all(plays_compiled(component) for component in agent.components)
    return callable(getattr(agent, "compiled_policy", None)) and not isinstance(agent, type)


def likeliest(agent: Any) -> Any:
    """``agent``, or a mixture's component of greatest weight: what a search anchors on when
    it models a mixed seat (whose component it cannot see)."""
    if not isinstance(agent, Mixture):
        return agent
    return agent.components[int(np.argmax(agent.weights))]


class Mixture:
    """A mixed strategy: each game, a seat playing it plays ``components[k]`` (agents) with
    probability ``weights[k]`` (normalised). It does not decide by itself: self-play draws its
    component for each game, ``for_game(rng)`` for a game played elsewhere."""

    def __init__(self, components: Sequence[Any], weights: Sequence[float],
                 name: str = "mixture") -> None:  # fmt: skip
        weights = np.asarray(weights, dtype=float)
        if not len(components) or len(components) != len(weights):
            raise ValueError(f"a mixture needs one weight per component, got {len(components)} "
                             f"components and {len(weights)} weights")  # fmt: skip
        if not np.all(np.isfinite(weights)) or (weights < 0).any() or weights.sum() <= 0:
            raise ValueError(f"mixture weights must be finite, >= 0 and not all 0, got {weights}")
        self.components = tuple(components)
        self.weights = tuple(float(w) for w in weights / weights.sum())
        self.name = name

    def __repr__(self) -> str:
        shown = ", ".join(f"{w:.3f} {agent_label(a)}" for a, w in zip(
            self.components, self.weights, strict=True))  # fmt: skip
        return f"Mixture({shown})"

    def draw(self, uniform: float) -> int:
        """The component a uniform draw in [0, 1) picks (inverse of the weights' CDF)."""
        index = int(np.searchsorted(np.cumsum(self.weights), uniform, side="right"))
        return min(index, len(self.components) - 1)

    def for_game(self, rng: np.random.Generator) -> Any:
        """The component one game is played with, drawn from ``rng``."""
        return self.components[self.draw(float(rng.random()))]

    def action_probabilities(self, observation: Any, legal_actions: Sequence[Any]) -> dict:
        """The weighted mixture of the components' exact action distributions (each must
        have ``action_probabilities``): what exact inference uses as a prior."""
        mixed: dict[Any, float] = {}
        for component, weight in zip(self.components, self.weights, strict=True):
            for action, p in component.action_probabilities(observation, legal_actions).items():
                mixed[action] = mixed.get(action, 0.0) + weight * p
        return mixed

    def __call__(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        raise TypeError(
            f"{self!r} plays one component per game: self-play draws it when the game starts; "
            "to seat it in one game yourself, seat mixture.for_game(rng)"
        )


def split_seed(game_seed: np.random.SeedSequence) -> tuple[np.random.SeedSequence, int]:
    """``seed_sequence(seed, g)`` as (``seed``, g); a seed without a game key is game 0 of
    itself."""
    keys = game_seed.spawn_key
    if not keys:
        return game_seed, 0
    return np.random.SeedSequence(game_seed.entropy, spawn_key=keys[:-1]), int(keys[-1])


def mixture_uniforms(run_seed: np.random.SeedSequence, games: Any, seats: int) -> np.ndarray:
    """The uniform each seat of each game (indices ``games``) of the run ``run_seed`` draws its
    mixture's component with, (games, seats): counter-based (counter game x 1024 + seat), so a
    game draws the same played alone by the step engine or in a compiled loop's batch."""
    key = np.random.SeedSequence(run_seed.entropy, spawn_key=(*run_seed.spawn_key,
                                                              MIXTURE_STREAM))  # fmt: skip
    counters = np.asarray(games, np.uint64).reshape(-1, 1) * np.uint64(1024)
    return keyed_uniforms(key.generate_state(1, np.uint64)[0],
                          counters + np.arange(seats, dtype=np.uint64))  # fmt: skip


def seat_component(agent: Any, game_seed: np.random.SeedSequence, seat: int) -> Any:
    """``agent``, or the component a mixture plays at ``seat`` in the game seeded ``game_seed``
    (``mixture_uniforms`` of its run and index: what a compiled loop draws)."""
    if not isinstance(agent, Mixture):
        return agent
    run_seed, game = split_seed(game_seed)
    uniform = float(mixture_uniforms(run_seed, [game], seat + 1)[0, seat])
    return agent.components[agent.draw(uniform)]


def resolve_mixtures(agents: Sequence[Any], game_seed: np.random.SeedSequence) -> list[Any]:
    """``agents``, each mixture replaced by its ``seat_component``."""
    return [seat_component(agent, game_seed, seat) for seat, agent in enumerate(agents)]


@dataclass(frozen=True)
class PolicyTable:
    """The policies of a line-up as a compiled loop reads them: ``kinds`` (K,) int64,
    ``parameters`` (K, W) float64 (zero-padded), and per seat the rows it may play with their
    weights (``choices``)."""

    kinds: np.ndarray
    parameters: np.ndarray
    choices: tuple[tuple[tuple[int, ...], tuple[float, ...]], ...]
    #: Each row's agent, by label (for messages that name the agent behind a row).
    labels: tuple[str, ...] = ()
    #: Each row's policy as its agent gave it (its own parameter count, before padding).
    policies: tuple[CompiledPolicy, ...] = ()

    @property
    def seats(self) -> np.ndarray:
        """The row each seat plays (its most likely one, where a seat is mixed)."""
        return np.array([rows[int(np.argmax(weights))] for rows, weights in self.choices])

    @property
    def mixed(self) -> bool:
        return any(len(rows) > 1 for rows, _ in self.choices)

    def assignment(
        self, games: int, run_seed: np.random.SeedSequence | None = None, first: int = 0
    ) -> np.ndarray:
        """The row each seat plays in games ``first`` .. ``first + games - 1`` of the run
        ``run_seed``, (games, n); a mixed seat's drawn with ``mixture_uniforms``."""
        assignment = np.ascontiguousarray(np.tile(self.seats, (games, 1)))
        if not self.mixed:
            return assignment
        if run_seed is None:
            raise ValueError("a mixed seat's policies are drawn per game: pass the run's seed")
        uniforms = mixture_uniforms(run_seed, np.arange(first, first + games), len(self.choices))
        for seat, (rows, weights) in enumerate(self.choices):
            if len(rows) > 1:
                picked = np.searchsorted(np.cumsum(weights), uniforms[:, seat], side="right")
                assignment[:, seat] = np.asarray(rows)[np.minimum(picked, len(rows) - 1)]
        return assignment

    def playout_assignment(self, states: int, playouts: int, seed: Any) -> np.ndarray:
        """The rows of ``playouts`` continuations of each of ``states`` positions (row
        ``i * playouts + p``), each continuation a game of the run (``seed``, i) as the kit's
        step-engine ``play_from`` plays it."""
        return np.ascontiguousarray(np.concatenate([
            self.assignment(playouts, seed_sequence(seed, i)) for i in range(states)
        ]))  # fmt: skip


def policy_table(agents: Sequence[Any], *, width: int = 1) -> PolicyTable:
    """The table of ``agents``, one per seat (a policy seated twice is one row, a mixture gets
    a row per component); a TypeError naming every agent that has no compiled policy.
    ``width``: at least this many parameters."""
    names = [agent for agent in agents if isinstance(agent, str)]
    if names:
        raise TypeError(
            f"a compiled loop plays agent objects, got the names {names}: make them with the "
            "game's make_agent"
        )
    seated = [agent.components if isinstance(agent, Mixture) else (agent,) for agent in agents]
    step_only = sorted({agent_label(a) for group in seated for a in group if not plays_compiled(a)})
    if step_only:
        raise TypeError(
            f"a compiled loop plays agents with a compiled policy; these play step by step "
            f"only: {step_only}"
        )
    rows: list[CompiledPolicy] = []
    labels: list[str] = []
    choices = []
    for agent, group in zip(agents, seated, strict=True):
        indices = []
        for member in group:
            kind, parameters = member.compiled_policy()
            if not isinstance(parameters, np.ndarray):
                parameters = tuple(map(float, parameters))
            policy = CompiledPolicy(int(kind), parameters)
            found = next((i for i, row in enumerate(rows) if row.same_as(policy)), None)
            if found is None:
                found = len(rows)
                rows.append(policy)
                labels.append(agent_label(member))
            indices.append(found)
        weights = agent.weights if isinstance(agent, Mixture) else (1.0,)
        choices.append((tuple(indices), tuple(weights)))
    width = max(width, *(len(policy.parameters) for policy in rows))
    parameters = np.zeros((len(rows), width), np.float64)
    for row, policy in enumerate(rows):
        parameters[row, : len(policy.parameters)] = policy.parameters
    kinds = np.array([policy.kind for policy in rows], np.int64)
    return PolicyTable(kinds, parameters, tuple(choices), tuple(labels), tuple(rows))


__all__ = [
    "MIXTURE_STREAM", "CompiledPolicy", "Mixture", "PolicyTable", "likeliest", "plays_compiled",
    "policy_table", "resolve_mixtures", "seat_component",
]  # fmt: skip
