"""The game kit: self-play written once, and the helpers every game's skeleton uses."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from workbench import games as registry
from workbench.games import going_gone, rubbish
from workbench.kit.frames import common_game_columns, shares, typed_frame
from workbench.kit.game import Game
from workbench.kit.lineup import DecidesOnView, agent_repr, make_named_agent
from workbench.kit.seeding import generator, seed_sequence
from workbench.kit.selfplay import SelfPlay, standard_streams
from workbench.kit.state import checked_positions, fields_of, standings


@pytest.mark.parametrize("game_id", registry.available())
def test_every_game_declares_one_record_and_its_self_play_comes_from_the_kit(game_id):
    game = registry.get(game_id)
    package = importlib.import_module(f"workbench.games.{game_id}")
    assert isinstance(game, Game) and package.GAME is game and game.id == game_id
    assert isinstance(game.selfplay, SelfPlay) and game.selfplay.game == game_id
    assert package.simulate is game.simulate and package.AGENTS is game.agents
    assert game.default_agent in game.agents and game.Rules is package.Rules
    parameters = inspect.signature(game.simulate).parameters
    assert list(parameters)[:7] == [
        "rules", "agents", "games", "seed", "progress", "engine", "rounds",
    ]  # fmt: skip
    assert [p for p in parameters if p not in game.selfplay.extra_frames][7:] == []
    assert registry.get(game) is game  # a record passes through as it is


@pytest.mark.parametrize("game_id", registry.available())
def test_a_record_pickles_as_the_module_name_that_holds_it(game_id):
    game = registry.get(game_id)
    assert game.module == f"workbench.games.{game_id}.game"
    assert pickle.loads(pickle.dumps(game)) is game


def test_a_game_added_with_register_reaches_a_process_that_never_registered_it(example):
    # What a worker process receives: the record rebuilt by importing its module, no registry.
    probe = (
        "import pickle, sys\n"
        "from workbench import games\n"
        "record = pickle.loads(sys.stdin.buffer.read())\n"
        "print(record.id, *record.agents, 'example' in games.available())\n"
    )
    arrived = subprocess.run(
        [sys.executable, "-c", probe], input=pickle.dumps(example.GAME), capture_output=True,
        check=True, env={**os.environ, "PYTHONPATH": str(Path(example.__file__).parents[1])},
    )  # fmt: skip
    assert arrived.stdout.decode().split() == ["example", *example.GAME.agents, "False"]


def test_a_record_no_module_file_holds_is_refused_before_it_travels(toy, example):
    with pytest.raises(pickle.PicklingError, match="'toy_cups' cannot be sent to another process"):
        pickle.dumps(toy.GAME)
    made_elsewhere = Game(**{**_init_fields(toy.GAME), "module": "tests_nowhere"})
    with pytest.raises(pickle.PicklingError, match="no name in its module 'tests_nowhere'"):
        pickle.dumps(made_elsewhere)
    # A record made in a notebook (here: python -c) would reach no worker: said before it runs.
    script = (
        "import pickle, example_game\n"
        "from workbench.kit.game import Game\n"
        "from dataclasses import fields\n"
        "g = example_game.GAME\n"
        "MINE = Game(**{f.name: getattr(g, f.name) for f in fields(g) if f.init and "
        "f.name != 'module'})\n"
        "try:\n    pickle.dumps(MINE)\nexcept pickle.PicklingError as e:\n    print(e)\n"
    )
    said = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(Path(example.__file__).parents[1])},
    ).stdout  # fmt: skip
    assert "its module '__main__' is a notebook's or a session's, not a file" in said
    assert "executor=SerialExecutor()" in said


def _init_fields(game: Game) -> dict:
    return {f.name: getattr(game, f.name) for f in dataclasses.fields(game) if f.init}


def test_extra_frames_are_keyword_flags_and_unknown_ones_are_refused():
    assert "lots" in inspect.signature(going_gone.simulate).parameters
    games, rounds, lots = going_gone.simulate(games=3, seed=0, progress=False, lots=True)
    assert (games.height, rounds.height) == (12, 3 * 4 * going_gone.Rules().rounds)
    assert lots["game"].unique().sort().to_list() == [0, 1, 2]
    with pytest.raises(TypeError, match="lots"):
        rubbish.simulate(games=3, seed=0, progress=False, lots=True)
    with pytest.raises(TypeError, match="games"):
        rubbish.simulate(seed=0)


@pytest.mark.parametrize("game_id", registry.available())
def test_rounds_false_leaves_the_rounds_frame_out_in_every_game(game_id):
    game = registry.get(game_id)
    games, rounds = game.simulate(games=2, seed=1, progress=False, rounds=False)
    assert rounds is None and games.height == 2 * game.Rules().players


def test_play_game_is_game_g_of_a_run_on_the_stream_seed_g():
    """Game g of ``simulate(seed=s)`` is ``play_game(seed=(s, g))``: same scores, any engine."""
    games, _ = rubbish.simulate(None, "random", games=4, seed=7, engine="step", progress=False)
    state = rubbish.play_game(None, "random", seed=seed_sequence(7, 3))
    assert games.filter(pl.col("game") == 3)["score"].to_list() == list(state.result().scores)


def test_standard_streams_give_the_deal_sub_stream_0_and_seat_s_sub_stream_1_plus_s():
    deal, rngs = standard_streams(seed_sequence(5, 2), 3)
    assert deal.spawn_key == (2, 0)
    assert rngs[1].random() == generator(5, 2, 2).random()


def test_shares_and_standings_split_a_tie():
    assert standings([5, 9, 9]) == ((3, 1, 1), (1, 2))
    assert shares([3, 1, 1]) == [0.0, 0.5, 0.5]
    assert standings([(1, 2), (1, 3)]) == ((2, 1), (1,))  # tuple keys, left to right


def test_frames_built_by_the_kit():
    columns = common_game_columns(
        ["x", "y"], 10, np.array([[3, 1], [2, 2]]), np.array([[1, 2], [1, 1]]),
        np.array([[1.0, 0.0], [0.5, 0.5]]),
    )  # fmt: skip
    frame = typed_frame(columns, {"game": pl.Int64, "agent": pl.String, "win_share": pl.Float64})
    assert frame.rows() == [(10, "x", 1.0), (10, "y", 0.0), (11, "x", 0.5), (11, "y", 0.5)]


def test_agents_are_made_by_name_and_show_their_settings():
    agent = make_named_agent(
        going_gone.AGENTS, "valuation", {"reserve": 3}, game="going_gone"
    )
    assert agent_repr(agent) == "ValuationAgent(bid_share=0.6, last_share=0.85, reserve=3)"
    assert repr(rubbish.make_agent("random")) == "RandomAgent()"
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['cap'\] for the valuation agent"):
        make_named_agent(going_gone.AGENTS, "valuation", {"cap": 3}, game="going_gone")
    with pytest.raises(ValueError, match="unknown agent 'best'; agents: random, valuation"):
        make_named_agent(going_gone.AGENTS, "best", {}, game="going_gone")
    with pytest.raises(TypeError, match="rules must be a going_gone Rules or None, got Rules "
                                        r"from workbench\.games\.rubbish\.rules"):
        going_gone.make_agent("random", rubbish.Rules())
    with pytest.raises(TypeError, match=r"rules must be a going_gone Rules or None, got int$"):
        going_gone.make_agent("random", 4)


def test_fields_of_copies_named_fields():
    class Source:
        a, b, c = 1, 2, 3

    assert fields_of(Source(), "a", "c") == {"a": 1, "c": 3}


def test_an_agent_deciding_in_its_own_call_loses_the_view():
    # The step engine's loop prefers act_on_view; a subclass that decides in __call__ alone
    # must not inherit it (the view would bypass its decision), one that defines both keeps it.
    class Compiled(DecidesOnView):
        def __call__(self, observation, legal_actions, rng):
            return "call"

        def act_on_view(self, player, view, rng):
            return "view"

    class Own(Compiled):
        def __call__(self, observation, legal_actions, rng):
            return legal_actions[0]

    class Both(Own):
        def act_on_view(self, player, view, rng):
            return "own view"

    class Plain(Compiled):
        pass

    assert Own.act_on_view is None and Own()(None, ["first"], None) == "first"
    assert Both().act_on_view(0, None, None) == "own view"
    assert Plain().act_on_view(0, None, None) == "view"


def test_a_log_says_who_saw_each_line_and_marks_what_no_seat_saw():
    from workbench.kit.state import EVERYONE, NOBODY, UNSEEN, lines_for

    log = [(EVERYONE, "deal"), (0, "seat 0 sees A"), (NOBODY, "unused: K"), (1, "seat 1 sees B")]
    assert lines_for(log, 0) == ["deal", "seat 0 sees A"]
    assert lines_for(log, 1) == ["deal", "seat 1 sees B"]
    assert lines_for(log, None) == ["deal", "seat 0 sees A", UNSEEN + "unused: K", "seat 1 sees B"]


class _Position:
    """A stand-in State: only its rules matter to ``checked_positions``."""

    def __init__(self, rules: object) -> None:
        self.rules = rules


@pytest.mark.parametrize(
    ("states", "playouts", "error", "message"),
    [
        ([], 1, TypeError, "states must be a toy State or a non-empty sequence of them"),
        (["not a state"], 1, TypeError, "states must be a toy State"),
        ([_Position(1), _Position(2)], 1, ValueError, "every state must be played under the same"),
        (_Position(1), 0, ValueError, "playouts must be a positive whole number, got 0"),
        (_Position(1), 1.5, TypeError, "playouts must be a positive whole number"),
    ],
)
def test_play_from_arguments_are_checked_once_for_every_game(states, playouts, error, message):
    with pytest.raises(error, match=message):
        checked_positions(states, _Position, "toy", playouts)


class _OtherPosition:
    """Another game's State: the same class name in another module."""

    def __init__(self, rules: object) -> None:
        self.rules = rules


_OtherPosition.__name__ = _OtherPosition.__qualname__ = "_Position"


@pytest.mark.parametrize(
    ("states", "given"),
    [
        (_OtherPosition(1), f"got _Position from {__name__}"),  # was: not iterable
        ([_Position(1), _OtherPosition(1)], f"got _Position from {__name__}"),
        (5, "got int"),  # was: 'int' object is not iterable
        ("a state", "got str"),
        (None, "got NoneType"),
    ],
)
def test_checked_positions_names_what_it_was_given_instead_of_a_state(states, given):
    with pytest.raises(TypeError) as raised:
        checked_positions(states, _Position, "toy", 1)
    message = str(raised.value)
    assert message.startswith("states must be a toy State or a non-empty sequence of them")
    assert message.endswith(given)


def test_checked_positions_lists_one_state_and_keeps_a_sequence():
    one, two = _Position(1), _Position(1)
    assert checked_positions(one, _Position, "toy", np.int64(3)) == ([one], 3)
    assert checked_positions((one, two), _Position, "toy", 2) == ([one, two], 2)
