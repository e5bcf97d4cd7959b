"""Self-play, written once for every game: ``simulate``, ``simulate_batches``, ``play_game``.

A game describes itself in a ``SelfPlay`` (its Rules type, agents, ``new_game``, how finished
games become frames, and optionally its fast batch engine); ``SelfPlay.functions()`` returns
the game's public ``simulate``, ``simulate_batches`` and ``play_game``. Everything else is here:
argument checks, agent line-ups, choosing the engine, batching, seeding and progress.

Seeding (the same for every game, so a seed always gives the same games): game g of a run draws
from the stream ``(seed, g)``; within it ``streams`` says which sub-streams the deal and each
seat's agent use. The fast engine's batch b draws from the stream ``(seed, b)``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from workbench.checks import choice, flag, instance_or_default, whole_number
from workbench.kit.frames import shares as win_shares_of
from workbench.kit.lineup import agent_label, seated_agents
from workbench.kit.policies import (
    plays_compiled,
    policy_table,
    resolve_mixtures,
    seat_component,
    split_seed,
)
from workbench.kit.progress import progress_bar
from workbench.kit.seeding import SeedLike, generator, seed_sequence

#: The frames ``simulate`` may return, in order: always games, then rounds (None when
#: ``rounds=False``), then each of the game's extra frames it was asked for.
Frames = tuple[pl.DataFrame | None, ...]
#: Which frames a run wants: {"rounds": bool, <extra frame>: bool, ...}.
Wanted = Mapping[str, bool]
#: How ``simulate`` may play: the batch engine when every agent can ("auto"), always ("fast"),
#: or the step engine, one ``State.apply`` at a time ("step").
ENGINES = ("auto", "fast", "step")


def standard_streams(
    game_seed: np.random.SeedSequence, players: int
) -> tuple[np.random.SeedSequence, list[np.random.Generator]]:
    """The deal from sub-stream 0 of the game's stream; seat s's agent from sub-stream 1 + s."""
    return seed_sequence(game_seed, 0), [generator(game_seed, 1 + s) for s in range(players)]


@dataclass(frozen=True)
class Frame:
    """One result frame: its name ("games", "rounds", or an extra frame's flag) and
    ``from_batch(played, labels, first_game)``, which builds it from a recording of played
    games (the fast engine's, or ``SelfPlay.record``'s of finished States)."""

    name: str
    from_batch: Callable[..., pl.DataFrame]


@dataclass
class FastEngine:
    """A game's compiled loop as self-play drives it.

    ``play(rules, table, assignment, size, rng, first_game, wanted)`` plays ``size`` new games
    and returns the played batch the frames are built from: seat s of game g plays row
    ``assignment[g, s]`` of ``table`` (a ``PolicyTable``), drawing from ``rng``, recording only
    what the ``wanted`` frames need. ``width``: the least parameter-vector width the loop reads.
    """

    batch_size: int
    play: Callable[..., Any]
    #: ``win_shares(played)`` -> each game's win share per seat, (games, seats), read straight
    #: off a played batch (what fitting needs, without building frames); None: from the frame.
    win_shares: Callable[[Any], np.ndarray] | None = None
    width: int = 1

    def play_lineup(
        self, rules: Any, agents: Sequence[Any], size: int, rng: np.random.Generator,
        first_game: int, wanted: dict[str, bool],
    ) -> Any:  # fmt: skip
        """``size`` new games (``first_game`` on) with one agent or mixture per seat, as
        self-play plays a batch from its stream ``rng``."""
        table = policy_table(agents, width=self.width)
        run_seed, _ = split_seed(rng.bit_generator.seed_seq)  # the batch's stream is (seed, b)
        return self.play(rules, table, table.assignment(size, run_seed, first_game), size, rng,
                         first_game, wanted)  # fmt: skip

    def supports(self, agents: Sequence[Any]) -> bool:
        """Can this engine play every one of these agents (every component of a mixture)?"""
        return all(plays_compiled(agent) for agent in agents)


@dataclass(frozen=True)
class SelfPlay:
    """What a game supplies for self-play (see docs/adding-a-game.md)."""

    #: The game's id, as in ``workbench.games`` (progress bars and messages).
    game: str
    rules_type: type
    #: ``new_game(rules, seed=...)`` -> State.
    new_game: Callable[..., Any]
    #: The result frames: games, rounds, then optional extra frames, each a keyword flag of
    #: ``simulate`` (False by default) that appends its frame to the result.
    frames: tuple[Frame, ...]
    #: What the frames hold, for the ``simulate`` docstring: the simulate module's docstring
    #: (its title paragraph is dropped).
    frames_doc: str = ""
    fast: FastEngine | None = None
    #: Finished States kept alive per yielded batch by the step engine: few, for memory.
    step_chunk: int = 64
    #: ``streams(game_seed, players)`` -> (the deal's seed for ``new_game``, one generator
    #: per seat's agent).
    streams: Callable[..., tuple[Any, list[np.random.Generator]]] = standard_streams
    #: ``recorded(rules, states)`` -> the step engine's finished States as the recording the
    #: frames are built from (the fast engine's played batch), so each frame is built once,
    #: from one kind of recording; None: the frames read the States themselves.
    recorded: Callable[[Any, list[Any]], Any] | None = None

    @property
    def extra_frames(self) -> tuple[str, ...]:
        """The optional frames' names (beyond games and rounds)."""
        return tuple(frame.name for frame in self.frames[2:])

    def wanted(self, rounds: bool = True, **extras: bool) -> dict[str, bool]:
        """Which frames a run builds: rounds unless told not to, extra frames only when asked."""
        return {"rounds": rounds, **dict.fromkeys(self.extra_frames, False), **extras}

    # -- the pieces ------------------------------------------------------------------------

    def checked_rules(self, rules: object) -> Any:
        """``rules``, or the rulebook's when None; a TypeError for anything else."""
        article = "an" if self.game[0] in "aeiou" else "a"
        allowed = f"{article} {self.game} Rules or None"
        return instance_or_default("rules", rules, self.rules_type, self.rules_type, allowed)

    def resolve_agents(self, rules: Any, agents: Sequence[Any] | Any) -> list[Any]:
        """One agent per seat from agent objects (a game's record also resolves names)."""
        return seated_agents(agents, rules.players)

    def record(self, rules: Any, states: list[Any]) -> Any:
        """Finished step-engine States as the recording the frames read (``recorded``)."""
        return states if self.recorded is None else self.recorded(rules, states)

    def supports_fast(self, agents: Sequence[Any]) -> bool:
        """Can the game's fast engine play these agents?"""
        return self.fast is not None and self.fast.supports(agents)

    def play_resolved(self, rules: Any, agents: Sequence[Any], game_seed: SeedLike) -> Any:
        """One game through the step engine with checked rules and resolved agents. An agent
        with ``act_on_view(player, view, rng)``, in a game whose State has ``view(player)``,
        decides from that view instead of an Observation: the same decision and draws, cheaper.
        A mixed seat plays its ``seat_component`` (what the compiled loop draws)."""
        deal_seed, rngs = self.streams(seed_sequence(game_seed), rules.players)
        agents = resolve_mixtures(agents, seed_sequence(game_seed))
        state = self.new_game(rules, seed=deal_seed)
        viewers = [getattr(agent, "act_on_view", None) for agent in agents]
        if not hasattr(state, "view"):
            viewers = [None] * len(agents)
        while (player := state.to_play) is not None:
            viewer = viewers[player]
            if viewer is not None:
                action = viewer(player, state.view(player), rngs[player])
            else:
                action = agents[player](state.observation(player), state.legal_actions(),
                                        rngs[player])  # fmt: skip
            state = state.apply(action)
        return state

    def played_batches(
        self,
        rules: Any,
        agents: Sequence[Any] | Any | None,
        *,
        games: int,
        seed: SeedLike,
        progress: bool = False,
        engine: str = "auto",
        wanted: Wanted | None = None,
        resolve: Callable[[Any, Any], list[Any]] | None = None,
    ) -> Iterator[tuple[list[str], int, Any]]:
        """The played games batch by batch: (agent labels, first game number, finished States
        or the fast engine's played batch). Every argument is checked before a game is played.
        ``resolve(rules, agents)`` makes the line-up (default: agent objects only)."""
        rules = self.checked_rules(rules)
        agents = (resolve or self.resolve_agents)(rules, agents)
        games = whole_number("games", games, low=1, allowed="a positive whole number")
        seed_sequence(seed)  # validates the seed before any work
        progress = flag("progress", progress)
        if engine == "fast" and self.fast is None:
            raise ValueError(f"{self.game} has no fast engine: engine must be 'auto' or 'step'")
        labels = [agent_label(a) for a in agents]
        agents = [playing_agent(a, rules) for a in agents]
        fast = use_fast_engine(engine, agents, self.supports_fast)
        wanted = self.wanted() if wanted is None else wanted
        return self._played(rules, agents, labels, games, seed, progress, fast, wanted)

    def _played(
        self,
        rules: Any,
        agents: list[Any],
        labels: list[str],
        games: int,
        seed: SeedLike,
        progress: bool,
        fast: bool,
        wanted: Wanted,
    ) -> Iterator[tuple[list[str], int, Any]]:
        bar = progress_bar(games, enabled=progress, description=self.game)
        try:
            if fast:
                assert self.fast is not None  # use_fast_engine said the engine plays them
                size_of_batch = self.fast.batch_size
                for start in range(0, games, size_of_batch):
                    size = min(size_of_batch, games - start)
                    rng = generator(seed, start // size_of_batch)
                    yield labels, start, self.fast.play_lineup(rules, agents, size, rng, start,
                                                               wanted)  # fmt: skip
                    bar.update(size)
            else:
                for start in range(0, games, self.step_chunk):
                    stop = min(games, start + self.step_chunk)
                    states = [
                        self.play_resolved(rules, agents, seed_sequence(seed, g))
                        for g in range(start, stop)
                    ]
                    yield labels, start, self.record(rules, states)
                    bar.update(stop - start)
        finally:
            bar.close()

    def seat_win_shares(
        self, rules: Any, agents: Sequence[Any], *, games: int, seed: SeedLike
    ) -> np.ndarray:
        """Each game's win share per seat, (games, seats), for the games ``simulate`` plays
        with these arguments, without building the other frames: what the fitter reads."""
        wanted = self.wanted(rounds=False)
        return np.concatenate([
            self._win_shares(rules, played, first) for _, first, played in
            self.played_batches(rules, agents, games=games, seed=seed, wanted=wanted)
        ])  # fmt: skip

    def assigned_win_shares(
        self, rules: Any, population: Sequence[Any], assignment: np.ndarray, seed: SeedLike
    ) -> np.ndarray:
        """Each game's win shares, (games, seats), when seat s of game g plays
        ``population[assignment[g, s]]`` (an equilibrium fit's meta-games): in the compiled
        loop's batches where it plays every member (batch b from ``generator(seed, b)``), else
        game by game in the step engine (game g from the stream (seed, g))."""
        assignment = np.asarray(assignment, dtype=np.int64)
        population = [playing_agent(agent, rules) for agent in population]
        if self.supports_fast(population):
            assert self.fast is not None
            table = policy_table(population, width=self.fast.width)
            rows = np.ascontiguousarray(table.seats[assignment])
            wanted, parts, size = self.wanted(rounds=False), [], self.fast.batch_size
            for start in range(0, len(rows), size):
                batch = rows[start : start + size]
                played = self.fast.play(rules, table, batch, len(batch),
                                        generator(seed, start // size), start, wanted)  # fmt: skip
                parts.append(self._win_shares(rules, played, start))
            return np.concatenate(parts)
        shares = np.empty(assignment.shape)
        for game, members in enumerate(assignment):
            lineup = [population[member] for member in members]
            state = self.play_resolved(rules, lineup, seed_sequence(seed, game))
            shares[game] = win_shares_of(state.result().ranks)
        return shares

    def _win_shares(self, rules: Any, played: Any, first: int) -> np.ndarray:
        """A played batch's win shares per game and seat (``FastEngine.win_shares``, else the
        games frame's)."""
        if self.fast is not None and not isinstance(played, list) and self.fast.win_shares:
            return np.asarray(self.fast.win_shares(played), dtype=float)
        labels = [""] * rules.players
        frame = _build(self.frames[0], labels, first, played).sort("game", "seat")
        return frame["win_share"].to_numpy().reshape(-1, rules.players)

    def frame_batches(
        self,
        rules: Any,
        agents: Sequence[Any] | Any | None,
        *,
        games: int,
        seed: SeedLike,
        progress: bool,
        engine: str,
        rounds: bool,
        resolve: Callable[[Any, Any], list[Any]] | None = None,
        **extras: bool,
    ) -> Iterator[Frames]:
        """The frames batch by batch (what ``simulate_batches`` yields)."""
        wanted = self.wanted(
            rounds=flag("rounds", rounds), **{name: flag(name, on) for name, on in extras.items()}
        )
        batches = self.played_batches(rules, agents, games=games, seed=seed, progress=progress,
                                      engine=engine, wanted=wanted, resolve=resolve)  # fmt: skip
        return self._frames(batches, wanted)

    def _frames(
        self, batches: Iterator[tuple[list[str], int, Any]], wanted: Wanted
    ) -> Iterator[Frames]:
        games, rounds, *extras = self.frames
        for batch in batches:
            yield (
                _build(games, *batch),
                _build(rounds, *batch) if wanted["rounds"] else None,
                *(_build(frame, *batch) for frame in extras if wanted[frame.name]),
            )

    # -- the game's public functions -------------------------------------------------------

    def functions(
        self, resolve: Callable[[Any, Any], list[Any]], default_agent: str, names: Sequence[str]
    ) -> tuple[Callable[..., Any], ...]:
        """The game's ``simulate``, ``simulate_batches`` and ``play_game``, documented and
        signed for this game; ``resolve(rules, agents)`` makes a line-up (the Game record's)."""
        spec = self
        signature = self._signature()

        def simulate(*args: Any, **kwargs: Any) -> Frames:
            parts = list(simulate_batches(*args, **kwargs))
            return tuple(
                None if parts[0][i] is None else pl.concat([part[i] for part in parts])
                for i in range(len(parts[0]))
            )

        def simulate_batches(*args: Any, **kwargs: Any) -> Iterator[Frames]:
            arguments = signature.bind(*args, **kwargs)
            arguments.apply_defaults()
            return spec.frame_batches(**arguments.arguments, resolve=resolve)

        def play_game(rules: Any, agents: Any, *, seed: SeedLike) -> Any:
            rules = spec.checked_rules(rules)
            return spec.play_resolved(rules, resolve(rules, agents), seed)

        extras = "".join(f", {name}=False" for name in self.extra_frames)
        simulate.__doc__ = (
            f"Play ``games`` seeded games of {self.game}; returns (games frame, rounds frame or "
            f"None{extras and ', then each extra frame asked for'}).\n\n"
            f"Agents: None ({default_agent} everywhere), one name or agent for every seat, "
            f"or one per seat ({', '.join(names)}). engine: 'auto' (the fast engine "
            "when every agent can play there), 'fast' or 'step'. Same arguments -> identical "
            f"frames.\n\n{_after_first_paragraph(self.frames_doc)}"
        )
        simulate_batches.__doc__ = (
            "Like ``simulate`` but yields the frames batch by batch, so memory stays bounded. "
            "Every argument is checked when this is called, before any game is played."
        )
        play_game.__doc__ = (
            "One game through the step engine (``agents`` as for ``simulate``); the deal and "
            "each seat's agent draw from their own sub-streams of ``seed``."
        )
        for function in (simulate, simulate_batches):
            function.__signature__ = signature  # type: ignore[attr-defined]
        for function in (simulate, simulate_batches, play_game):
            function.__qualname__ = function.__name__
        return simulate, simulate_batches, play_game

    def _signature(self) -> inspect.Signature:
        """``simulate``'s signature: the common arguments, then a flag per extra frame."""
        keyword = inspect.Parameter.KEYWORD_ONLY
        common = [
            inspect.Parameter("rules", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
            inspect.Parameter("agents", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
            inspect.Parameter("games", keyword, annotation=int),
            inspect.Parameter("seed", keyword, annotation=SeedLike),
            inspect.Parameter("progress", keyword, default=True, annotation=bool),
            inspect.Parameter("engine", keyword, default="auto", annotation=str),
            inspect.Parameter("rounds", keyword, default=True, annotation=bool),
        ]
        extras = [
            inspect.Parameter(name, keyword, default=False, annotation=bool)
            for name in self.extra_frames
        ]
        return inspect.Signature(common + extras)


def use_fast_engine(
    engine: str, agents: Sequence[Any], supports_fast: Callable[[Sequence[Any]], bool]
) -> bool:
    """Whether ``simulate`` runs the fast engine for ``engine`` and these agents; asking
    for "fast" with agents that only play step by step is an error naming them."""
    choice("engine", engine, ENGINES)
    fast = supports_fast(agents)
    if engine == "fast" and not fast:
        slow = sorted({agent_label(a) for a in agents if not supports_fast([a])})
        raise ValueError(f"engine='fast' needs batch agents; these are step-only: {slow}")
    return fast and engine != "step"


def playing_agent(agent: Any, rules: Any) -> Any:
    """What plays a seat under ``rules``: a fitted agent's policy for them (so it plays in the
    fast engine like any compiled policy), any other agent itself."""
    return agent.policy_for(rules) if hasattr(agent, "policy_for") else agent


def agent_for_game(agent: Any, rules: Any, game_seed: SeedLike, seat: int) -> Any:
    """What plays ``seat`` through one game seeded ``game_seed`` outside self-play (a review,
    the play-along table): ``playing_agent``, a mixture's component drawn as self-play does."""
    return seat_component(playing_agent(agent, rules), seed_sequence(game_seed), seat)


def _build(frame: Frame, labels: list[str], first: int, played: Any) -> pl.DataFrame:
    """A frame of a batch of played games, from its recording."""
    return frame.from_batch(played, labels, first)


def _after_first_paragraph(doc: str | None) -> str:
    """A module docstring without its title paragraph (what a game's frames hold)."""
    return (doc or "").split("\n\n", 1)[-1].strip()
