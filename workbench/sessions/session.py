"""One seat at a game of the registry, the workbench's agents in the others: the engine states,
who played what, and saving and replaying the game. No widgets (``workbench.play.table``
draws a session).

Only the game contract is used (``docs/design.md``): ``Rules``, ``new_game``, the State's
``to_play``, ``legal_actions``, ``apply``, ``observation``, ``result`` and ``log_for``, and
``AGENTS`` / ``make_agent``. The game's chance comes from ``new_game(rules, seed=seed)``; the
agent in seat ``s`` draws from its own generator ``seeding.generator(seed, AGENT_STREAM, s)``,
so the same seed and the same choices of the seat replay the same game.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench import games
from workbench.checks import checked_seat, is_whole_number
from workbench.errors import IllegalAction
from workbench.kit.game import Game
from workbench.kit.lineup import agent_label
from workbench.kit.seeding import generator, seed_sequence
from workbench.kit.selfplay import agent_for_game
from workbench.sessions.actions import match
from workbench.sessions.saved_game import (
    FORMAT,
    VERSION,
    decode_action,
    decode_rules,
    encode_action,
    encode_rules,
)

#: Seeding label of the agents' generators: seat ``s`` draws from ``generator(seed, 1, s)``.
AGENT_STREAM = 1


@dataclass(frozen=True)
class Move:
    """One action of the game: its number (0 first), the seat that played it, the action, and
    whether the seat at the table (not an agent) chose it."""

    step: int
    seat: int
    action: Any
    by_table: bool


def game_record(game: Any) -> Game:
    """The record of a game: a registry id, a game's package, or a record itself (a game kept
    elsewhere)."""
    if not isinstance(game, str) and not hasattr(game, "selfplay") and not hasattr(game, "GAME"):
        raise TypeError(
            f"game must be a game id ({', '.join(games.available())}) or a game record, "
            f"got {game!r}"
        )
    return games.get(game)


def default_opponent(game: Game, rules: Any) -> tuple[str, Any]:
    """The strongest of the game's agents (its record lists them weakest first) that these
    rules allow: (name, agent)."""
    problems = []
    for name in reversed(list(game.agents)):
        try:
            return name, game.make_agent(name, rules)
        except ValueError as exc:  # e.g. an exact solver for two teams only
            problems.append(f"{name}: {exc}")
    raise ValueError(f"no agent of {game.id} plays these rules: {'; '.join(problems)}")


class Session:
    """A game in progress at one seat. ``play`` takes the seat's action and lets the agents
    move until the seat is to play again or the game is over.

    ``opponents``: None (the strongest agent the rules allow, in every other seat), one agent
    name or agent for all of them, a sequence with one per other seat (in seat order), or a
    mapping seat -> name or agent.
    """

    def __init__(
        self,
        game: str | Game,
        rules: Any = None,
        *,
        seat: int = 0,
        opponents: Any = None,
        seed: int,
    ) -> None:
        game = game_record(game)
        rules = game.checked_rules(rules)
        seed_sequence(seed)  # validates: a non-negative whole number
        self.game = game
        self.rules = rules
        self.seat = checked_seat(seat, rules.players)
        self.seed = int(seed)
        self.seated, self.agent_names = self._lineup(opponents)
        # what plays: a fitted seat's policy; a mixed one's component drawn for this game
        self.agents = {s: agent_for_game(a, rules, self.seed, s) for s, a in self.seated.items()}
        self.generators = {s: generator(self.seed, AGENT_STREAM, s) for s in self.agents}
        #: the generator of an agent choosing for the seat itself (``autoplay``)
        self.seat_generator = generator(self.seed, AGENT_STREAM, self.seat)
        self.states = [game.new_game(rules, seed=self.seed)]
        self.moves: list[Move] = []
        self.advance()

    # -- set-up ----------------------------------------------------------------------------

    def _lineup(self, opponents: Any) -> tuple[dict[int, Any], dict[int, str | None]]:
        """Agent and saved name (None: an agent object, not a name) for every other seat."""
        others = [s for s in range(self.rules.players) if s != self.seat]
        if opponents is None:
            name, agent = default_opponent(self.game, self.rules)
            return dict.fromkeys(others, agent), dict.fromkeys(others, name)
        if isinstance(opponents, Mapping):
            if set(opponents) != set(others):
                raise ValueError(
                    f"opponents must map each other seat {others} to an agent, got seats "
                    f"{sorted(opponents)}"
                )
            given = [opponents[s] for s in others]
        elif isinstance(opponents, str) or not isinstance(opponents, Sequence):
            given = [opponents] * len(others)
        else:
            given = list(opponents)
            if len(given) != len(others):
                raise ValueError(
                    f"opponents must give one agent per other seat ({len(others)}: seats "
                    f"{others}), got {len(given)}"
                )
        made: dict[str, Any] = {}
        agents, names = {}, {}
        for seat, spec in zip(others, given, strict=True):
            if isinstance(spec, str):
                if spec not in self.game.agents:
                    raise ValueError(
                        f"unknown agent {spec!r} for seat {seat}; {self.game} agents: "
                        f"{', '.join(self.game.agents)}"
                    )
                if spec not in made:
                    made[spec] = self.game.make_agent(spec, self.rules)
                agents[seat], names[seat] = made[spec], spec
            elif callable(spec) and not isinstance(spec, type):
                agents[seat], names[seat] = spec, None
            else:
                raise TypeError(
                    f"the opponent in seat {seat} must be an agent name "
                    f"({', '.join(self.game.agents)}) or an agent, got {spec!r}"
                )
        return agents, names

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The current engine state."""
        return self.states[-1]

    @property
    def step(self) -> int:
        """How many actions have been played (what a stale control compares against)."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return self.state.to_play is None

    @property
    def my_turn(self) -> bool:
        """True when the seat at the table is to play."""
        return self.state.to_play == self.seat

    def observation(self) -> Any:
        """What the seat at the table knows now."""
        return self.state.observation(self.seat)

    def legal_actions(self) -> Sequence[Any]:
        """The seat's legal actions now (empty when it is not its turn)."""
        return self.state.legal_actions() if self.my_turn else ()

    def log(self) -> list[str]:
        """The game so far as this seat saw it; the full hidden record once it is over."""
        return self.state.log_for(None if self.is_over else self.seat)

    def label(self, seat: int) -> str:
        """'you' for the seat at the table, else the agent's name."""
        if seat == self.seat:
            return "you"
        name = self.agent_names[seat]
        return name if name is not None else agent_label(self.seated[seat])

    # -- playing ---------------------------------------------------------------------------

    def play(self, action: Any) -> Any:
        """Play ``action`` for the seat, then let the agents move; returns the action played
        (the legal action it stands for). IllegalAction, with nothing changed, if it is not
        legal now (or it is not the seat's turn)."""
        if self.is_over:
            raise IllegalAction(action, "the game is over")
        if not self.my_turn:  # only reachable when an agent raised part-way through
            raise IllegalAction(
                action, f"seat {self.state.to_play} is to play, not seat {self.seat}"
            )
        legal = self.state.legal_actions()
        chosen = match(action, legal)
        if chosen is None:
            raise IllegalAction(action, f"not a legal action for seat {self.seat} now", legal)
        self._apply(chosen, by_table=True)
        self.advance()
        return chosen

    def advance(self) -> None:
        """Let the agents play until the seat at the table is to play or the game is over."""
        while not self.is_over and not self.my_turn:
            seat = self.state.to_play
            self._apply(self._agent_action(seat), by_table=False)

    def autoplay(
        self,
        agent: Any,
        decisions: int | None = None,
        *,
        after_each: Callable[[], None] | None = None,
    ) -> None:
        """Let ``agent`` (a name or an agent) choose for the seat: ``decisions`` times, or to
        the end. Its choices are recorded as the seat's, as if clicked; ``after_each`` is
        called after each one (a table redraws). Its generator is the seat's own stream,
        kept from call to call."""
        if isinstance(agent, str):
            if agent not in self.game.agents:
                raise ValueError(
                    f"unknown agent {agent!r}; {self.game} agents: {', '.join(self.game.agents)}"
                )
            agent = self.game.make_agent(agent, self.rules)
        elif not callable(agent) or isinstance(agent, type):
            raise TypeError(f"agent must be an agent name or an agent, got {agent!r}")
        agent = agent_for_game(agent, self.rules, self.seed, self.seat)
        if decisions is not None and (not is_whole_number(decisions) or decisions < 0):
            raise ValueError(f"decisions must be a whole number >= 0 or None, got {decisions!r}")
        done = 0
        while not self.is_over and (decisions is None or done < decisions):
            legal = self.state.legal_actions()
            self.play(agent(self.observation(), legal, self.seat_generator))
            done += 1
            if after_each is not None:
                after_each()

    def _agent_action(self, seat: int) -> Any:
        agent = self.agents[seat]
        legal = self.state.legal_actions()
        action = agent(self.state.observation(seat), legal, self.generators[seat])
        chosen = match(action, legal)
        if chosen is None:
            raise IllegalAction(
                action,
                f"the agent in seat {seat} ({self.label(seat)}) chose an action that is not legal",
                legal,
            )
        return chosen

    def _apply(self, action: Any, *, by_table: bool) -> None:
        seat = self.state.to_play
        self.states.append(self.state.apply(action))
        self.moves.append(Move(len(self.moves), seat, action, by_table))

    # -- saving and replaying --------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game as a JSON-ready dict: game, rules (non-default fields), seat, seed, the
        opponents by name and every action. ValueError if an opponent is not a named agent."""
        unnamed = sorted(s for s, name in self.agent_names.items() if name is None)
        if unnamed:
            raise ValueError(
                f"cannot save: the opponent(s) in seat(s) {unnamed} are agent objects, not named "
                f"agents ({', '.join(self.game.agents)}), so a reload could not rebuild them"
            )
        record: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.id,
            "rules": encode_rules(self.rules),
            "seat": self.seat,
            "seed": self.seed,
            "opponents": {str(s): name for s, name in sorted(self.agent_names.items())},
            "actions": [
                {"seat": m.seat, "action": encode_action(m.action), "by_table": m.by_table}
                for m in self.moves
            ],
            "finished": self.is_over,
        }
        if self.is_over:
            record["result"] = self._result()
        return record

    def _result(self) -> dict[str, list[Any]]:
        """The finished game's result as saved: scores and winners."""
        result = self.state.result()
        return {
            "scores": [_jsonable(s) for s in result.scores],
            "winners": [int(s) for s in result.winners],
        }

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the record as JSON to ``path`` (whole or not at all); returns the path."""
        target = Path(path)
        if target.is_dir():
            raise IsADirectoryError(
                f"cannot save to {str(target)!r}: it is a folder; give a file path, e.g. "
                f"{str(target / 'game.json')!r}"
            )
        text = json.dumps(self.record(), indent=1)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text + "\n")
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return target

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, game: Game | None = None) -> Session:
        """Replay a saved game: same seed, same rules, the seat's actions as saved; every
        agent's action must come out as saved, else ValueError saying where it diverged (or
        when a finished game's result comes out otherwise). ``game``: the game's record, for a
        game outside the registry; it must be the game the file names."""
        if not isinstance(record, Mapping) or record.get("format") != FORMAT:
            raise ValueError(f"not a saved table game (no 'format': {FORMAT!r} field)")
        if not is_whole_number(record.get("version")) or record.get("version") != VERSION:
            raise ValueError(
                f"saved game version {record.get('version')!r}; this workbench reads {VERSION}"
            )
        missing = [
            key
            for key in ("game", "rules", "seat", "seed", "opponents", "actions")
            if key not in record
        ]
        if missing:
            raise ValueError(f"the saved game lacks {missing}")
        game = game_record(game if game is not None else record["game"])
        if record["game"] != game.id:
            raise ValueError(f"the file is a saved game of {record['game']!r}, not of {game.id}")
        rules = decode_rules(game.Rules, record["rules"])
        opponents = record["opponents"]
        try:
            lineup = {int(seat): name for seat, name in opponents.items()}
        except (AttributeError, TypeError, ValueError):
            raise ValueError(
                f"saved opponents must map seats to agent names, got {opponents!r}"
            ) from None
        session = cls(game, rules, seat=record["seat"], opponents=lineup, seed=record["seed"])
        session._replay(record["actions"])
        if record.get("finished") is True and not session.is_over:
            raise ValueError(
                f"the saved game is marked finished, but its {len(record['actions'])} actions "
                f"replay to a game in progress (seat {session.state.to_play} to play): actions "
                "are missing from the file"
            )
        if session.is_over and "result" in record and record["result"] != session._result():
            raise ValueError(
                f"the saved game's result {record['result']!r} is not the replay's "
                f"{session._result()!r} (other rules or workbench version?)"
            )
        return session

    def _replay(self, actions: Any) -> None:
        # The constructor has already let the agents open the game: rebuild step by step.
        self.states, self.moves = self.states[:1], []
        self.generators = {s: generator(self.seed, AGENT_STREAM, s) for s in self.agents}
        if not isinstance(actions, list):
            raise ValueError(f"saved actions must be a list, got {type(actions).__name__}")
        for step, saved in enumerate(actions):
            state = self.state
            if state.to_play is None:
                raise ValueError(
                    f"the saved game diverges at action {step}: the replayed game is already "
                    f"over, but the file records {len(actions) - step} more action(s)"
                )
            if not isinstance(saved, Mapping) or not {"seat", "action"} <= set(saved):
                raise ValueError(
                    f"saved action {step} must hold 'seat' and 'action', got {saved!r}"
                )
            seat = state.to_play
            if saved["seat"] != seat:
                raise ValueError(
                    f"the saved game diverges at action {step}: the file says seat "
                    f"{saved['seat']!r} played, the replay has seat {seat} to play"
                )
            legal = state.legal_actions()
            try:
                recorded = match(decode_action(saved["action"], legal), legal)
            except ValueError as exc:
                raise ValueError(f"the saved game diverges at action {step}: {exc}") from None
            if seat == self.seat:
                if recorded is None:
                    raise ValueError(
                        f"the saved game diverges at action {step}: the seat's saved action "
                        f"{saved['action']!r} is not legal in the replayed game"
                    )
                by_table = saved.get("by_table", True)
                if not isinstance(by_table, bool):
                    raise ValueError(
                        f"the saved game's action {step} has by_table {by_table!r}; it must be "
                        "true or false"
                    )
                self._apply(recorded, by_table=by_table)
                continue
            replayed = self._agent_action(seat)
            if recorded != replayed:
                raise ValueError(
                    f"the saved game diverges at action {step}: the file records "
                    f"{saved['action']!r} for seat {seat} ({self.label(seat)}), the replay plays "
                    f"{encode_action(replayed)!r} (other rules, agents or workbench version?)"
                )
            self._apply(replayed, by_table=False)
        self.advance()

    def __repr__(self) -> str:
        where = "over" if self.is_over else f"seat {self.state.to_play} to play"
        return (
            f"<Session {self.game}: seat {self.seat}, seed {self.seed}, {self.step} actions, "
            f"{where}>"
        )


def load(path: str | os.PathLike[str]) -> Session:
    """Replay the game saved at ``path`` (see ``Session.from_record``)."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:  # not text, or not JSON
        raise ValueError(f"{path} is not a saved game (not JSON: {exc})") from None
    return Session.from_record(record)


def _jsonable(value: Any) -> Any:
    if is_whole_number(value):
        return int(value)
    if isinstance(value, float):
        return value
    return str(value)
