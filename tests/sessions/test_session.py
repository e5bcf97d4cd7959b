"""A seat at a game: seeded agents, legality, saving and replaying (no widgets)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import IllegalAction
from workbench.games import rubbish, shared_budget
from workbench.kit.seeding import generator
from workbench.sessions.saved_game import decode_action, decode_rules, encode_action, encode_rules
from workbench.sessions.session import AGENT_STREAM, Session, load

# -- rules and actions as JSON ---------------------------------------------------------------

RULES = {
    "rubbish defaults": rubbish.Rules(),
    "rubbish variant": rubbish.Rules(players=3, bid_minimum="one", overspend="keep"),
    "rubbish own geeks": rubbish.Rules(
        players=2, geeks=(rubbish.Geek("Ann", (0, 1)), rubbish.Geek("Bo", (2,)))
    ),
    "shared budget defaults": shared_budget.Rules(),
    "shared budget own cards": shared_budget.Rules(
        budget=9, cards=(("Bench", "rest", 2), ("Sign", "welcome+explore", 4))
    ),
}


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_rules_survive_json(rules):
    saved = json.loads(json.dumps(encode_rules(rules)))
    assert decode_rules(type(rules), saved) == rules


def test_only_fields_that_differ_from_the_defaults_are_saved():
    assert encode_rules(rubbish.Rules()) == {}
    variant = rubbish.Rules(players=3, bid_minimum="one")
    assert encode_rules(variant) == {"players": 3, "bid_minimum": "one"}
    assert encode_rules(shared_budget.Rules(budget=12)) == {"budget": 12}


def test_bad_saved_rules_are_reported():
    with pytest.raises(ValueError, match=r"unknown field\(s\) \['colour'\]"):
        decode_rules(rubbish.Rules, {"colour": 3})
    with pytest.raises(ValueError, match="players must be 2–5"):
        decode_rules(rubbish.Rules, {"players": 9})


def test_actions_survive_json():
    legal = rubbish.new_game(seed=0).apply(rubbish.Auction(0, 0)).legal_actions()
    for action in (rubbish.Bid((5, 2, 1)), rubbish.Bid(())):
        encoded = json.loads(json.dumps(encode_action(action)))
        assert decode_action(encoded, legal) == action
    assert encode_action(np.int64(7)) == 7 and decode_action(7, range(10)) == 7
    with pytest.raises(ValueError, match="the game offers Bid"):
        decode_action({"type": "Auction", "fields": {"item": 0, "first_bidder": 0}}, legal)
    with pytest.raises(ValueError, match="whole number, a string or an object"):
        decode_action(2.0, range(10))


# -- playing ---------------------------------------------------------------------------------


def scripted(session: Session) -> None:
    """The same choices every time: the first legal action at every decision."""
    while not session.is_over:
        session.play(session.legal_actions()[0])


def test_same_seed_same_choices_same_game():
    first, second = (Session("rubbish", seed=7, opponents="heuristic") for _ in range(2))
    scripted(first)
    scripted(second)
    assert [m.action for m in first.moves] == [m.action for m in second.moves]
    assert first.state.log_for(None) == second.state.log_for(None)


def test_agents_draw_from_their_own_seeded_stream():
    session = Session("rubbish", seed=7, opponents="random")
    rng = generator(7, AGENT_STREAM, 1)  # seat 1's stream: it acts first after our auction
    session.play(rubbish.Auction(0, 1))
    state = session.states[1]
    expected = rubbish.make_agent("random")(state.observation(1), state.legal_actions(), rng)
    assert session.moves[1].action == expected and session.moves[1].seat == 1


def test_the_session_plays_the_agents_up_to_the_seats_turn():
    session = Session("shared_budget", seed=0, seat=1, opponents="coverage")
    # Team A (the agent) writes first; the seat at the table is to play at once.
    assert session.my_turn and [m.seat for m in session.moves] == [0]
    session.play(5)
    assert session.my_turn and [m.seat for m in session.moves] == [0, 1, 0]
    assert session.moves[1] == session.moves[1].__class__(1, 1, 5, True)


def test_illegal_actions_change_nothing():
    session = Session("rubbish", seed=3, opponents="heuristic")
    before = (session.step, session.state)
    for bad in (rubbish.Bid((5,)), rubbish.Auction(9, 0), True, "item 3"):
        with pytest.raises(IllegalAction):
            session.play(bad)
        assert (session.step, session.state) == before
    played = session.play(rubbish.Auction(np.int64(2), np.int64(1)))
    assert played == rubbish.Auction(2, 1)


def test_a_bid_in_any_card_order_is_the_legal_bid():
    session = Session("rubbish", seed=3, opponents="heuristic")
    session.play(rubbish.Auction(0, 0))
    assert session.play(rubbish.Bid((1, 5))) == rubbish.Bid((5, 1))


def test_after_the_end_nothing_is_legal():
    session = Session("shared_budget", seed=1, opponents="random")
    scripted(session)
    assert session.is_over and session.legal_actions() == ()
    with pytest.raises(IllegalAction, match="the game is over"):
        session.play(0)
    # The log is then the full record: the seat saw every line of it anyway here.
    assert session.log() == session.state.log_for(None)


BAD_ARGUMENTS = {
    "unknown game": (dict(game="poker"), ValueError, "unknown game 'poker'"),
    "rules of another game": (
        dict(rules=shared_budget.Rules()),
        TypeError,
        "rules must be a rubbish Rules",
    ),
    "seat a bool": (dict(seat=True), TypeError, "seat must be a whole number"),
    "seat too high": (dict(seat=4), ValueError, "seat must be 0–3"),
    "negative seed": (dict(seed=-1), ValueError, "seed must be a non-negative int"),
    "unknown agent": (dict(opponents="genius"), ValueError, "unknown agent 'genius' for seat 1"),
    "too few agents": (dict(opponents=["random"]), ValueError, "one agent per other seat"),
    "seat map missing": (dict(opponents={1: "random"}), ValueError, "map each other seat"),
    "agent class": (dict(opponents=rubbish.RandomAgent), TypeError, "an agent name"),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS.values(), ids=BAD_ARGUMENTS.keys())
def test_bad_arguments(case):
    changes, error, message = case
    arguments = dict(game="rubbish", seed=1) | changes
    with pytest.raises(error, match=message):
        Session(arguments.pop("game"), **arguments)


def test_default_opponents_are_the_strongest_the_rules_allow():
    assert set(Session("rubbish", seed=0).agent_names.values()) == {"search"}
    assert Session("shared_budget", seed=0).agent_names == {1: "equilibrium"}
    # Two and three teams solve: four teams get the next strongest, search.
    three = Session("shared_budget", shared_budget.Rules(teams=3), seed=0)
    assert set(three.agent_names.values()) == {"equilibrium"}
    four = Session("shared_budget", shared_budget.Rules(teams=4), seed=0)
    assert set(four.agent_names.values()) == {"search"}


def test_opponents_by_seat():
    session = Session(
        "rubbish", seed=0, seat=2, opponents={0: "random", 1: "heuristic", 3: "random"}
    )
    assert [session.label(s) for s in range(4)] == ["random", "heuristic", "you", "random"]


# -- saving and replaying --------------------------------------------------------------------


def test_a_finished_game_saves_and_reloads(tmp_path):
    rules = rubbish.Rules(players=3)
    session = Session("rubbish", rules, seat=1, opponents="heuristic", seed=11)
    session.autoplay("random")
    path = session.save(tmp_path / "game.json")
    saved = json.loads(path.read_text())
    assert saved["rules"] == {"players": 3} and saved["seat"] == 1 and saved["finished"]
    assert saved["opponents"] == {"0": "heuristic", "2": "heuristic"}
    assert len(saved["actions"]) == session.step == 7 * 4  # an auction and 3 bids a round
    reloaded = load(path)
    assert reloaded.state.log_for(None) == session.state.log_for(None)
    assert reloaded.state.result() == session.state.result()
    assert [m.by_table for m in reloaded.moves] == [m.by_table for m in session.moves]


def test_a_game_in_progress_reloads_and_plays_on(tmp_path):
    session = Session("shared_budget", seed=4, seat=1, opponents="coverage")
    session.play(3)
    session.play(7)
    reloaded = load(session.save(tmp_path / "half.json"))
    assert reloaded.step == session.step and reloaded.my_turn
    # The agents' generators pick up where they were: the rest plays out the same.
    for game in (session, reloaded):
        scripted(game)
    assert reloaded.state.log_for(None) == session.state.log_for(None)


def test_a_replay_that_diverges_is_refused(tmp_path):
    session = Session("rubbish", seed=5, opponents="heuristic")
    scripted(session)
    record = session.record()
    agent_step = next(i for i, a in enumerate(record["actions"]) if not a["by_table"])
    tampered = json.loads(json.dumps(record))
    tampered["actions"][agent_step]["action"] = {"type": "Bid", "fields": {"cards": [10, 5]}}
    with pytest.raises(ValueError, match=f"diverges at action {agent_step}: the file records"):
        Session.from_record(tampered)
    other_seed = dict(record, seed=6)
    with pytest.raises(ValueError, match="diverges at action"):
        Session.from_record(other_seed)
    other_agents = dict(record, opponents={"1": "random", "2": "random", "3": "random"})
    with pytest.raises(ValueError, match="diverges at action"):
        Session.from_record(other_agents)
    too_long = dict(record, actions=[*record["actions"], record["actions"][-1]])
    with pytest.raises(ValueError, match="already over"):
        Session.from_record(too_long)


def test_files_that_are_not_saved_games(tmp_path):
    (tmp_path / "notes.json").write_text('{"hello": 1}')
    with pytest.raises(ValueError, match="not a saved table game"):
        load(tmp_path / "notes.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match="not JSON"):
        load(tmp_path / "broken.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")  # not even text
    with pytest.raises(ValueError, match=r"binary\.json is not a saved game"):
        load(tmp_path / "binary.json")


def _damage_first_action(record, **changes):
    record["actions"][0]["action"].update(changes)


DAMAGED_RECORDS = {
    "an action type that is not a name": (
        lambda r: _damage_first_action(r, type=["Auction"]),
        r"diverges at action 0: a saved action's type must be a name, got \['Auction'\]",
    ),
    "an action field the game refuses": (
        lambda r: r["actions"][0]["action"]["fields"].update(item="ab"),
        "diverges at action 0: the saved Auction .* is not valid: Auction item must be a whole",
    ),
    "a seat as text": (
        lambda r: r["actions"][0].update(seat="0"),
        "diverges at action 0: the file says seat '0' played",
    ),
    "by_table as text": (
        lambda r: r["actions"][0].update(by_table="no"),
        "action 0 has by_table 'no'; it must be true or false",
    ),
    "version true": (lambda r: r.update(version=True), "saved game version True; .* reads 1"),
    "finished, actions missing": (
        lambda r: r.update(actions=r["actions"][:-5]),
        "marked finished, but its .* actions replay to a game in progress",
    ),
    "another result": (
        lambda r: r["result"]["scores"].__setitem__(0, r["result"]["scores"][0] + 1),
        "the saved game's result .* is not the replay's",
    ),
}


@pytest.mark.parametrize("damage", DAMAGED_RECORDS.values(), ids=DAMAGED_RECORDS.keys())
def test_a_damaged_saved_game_says_what_is_wrong(damage):
    change, message = damage
    session = Session("rubbish", seed=5, opponents="heuristic")
    scripted(session)
    record = json.loads(json.dumps(session.record()))
    assert session.moves[0].by_table and record["actions"][0]["seat"] == 0
    change(record)
    with pytest.raises(ValueError, match=message):
        Session.from_record(record)


def test_a_saved_game_read_as_another_game_is_refused():
    session = Session("rubbish", seed=5, opponents="heuristic")
    record = json.loads(json.dumps(session.record()))
    with pytest.raises(ValueError, match="a saved game of 'rubbish', not of shared_budget"):
        Session.from_record(record, game="shared_budget")
    assert Session.from_record(record, game="rubbish").step == session.step


def test_saving_to_a_folder_names_the_folder(tmp_path):
    session = Session("rubbish", seed=5, opponents="heuristic")
    with pytest.raises(IsADirectoryError, match="it is a folder; give a file path"):
        session.save(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_agent_objects_cannot_be_saved(tmp_path):
    session = Session("rubbish", seed=1, opponents=rubbish.HeuristicAgent(max_wanted_bid=9))
    with pytest.raises(ValueError, match=r"seat\(s\) \[1, 2, 3\] are agent objects"):
        session.save(tmp_path / "game.json")
    assert not (tmp_path / "game.json").exists()


def test_a_failed_save_leaves_no_file(tmp_path, monkeypatch):
    session = Session("shared_budget", seed=1, opponents="coverage")
    monkeypatch.setattr(
        "workbench.sessions.session.os.replace",
        lambda *_: (_ for _ in ()).throw(OSError("disk full")),
    )
    with pytest.raises(OSError, match="disk full"):
        session.save(tmp_path / "game.json")
    assert list(tmp_path.iterdir()) == []


# -- the contract alone ----------------------------------------------------------------------


def test_a_game_outside_the_registry_plays_from_the_contract(toy, tmp_path):
    session = Session(toy, seed=2, opponents="greedy")
    session.play(toy.Split((1, 2)))
    session.play("pass")
    assert session.is_over
    # Greedy puts all 3 tokens in one cup: it wins that cup; round 1 we win the other.
    assert session.state.result().scores == (1, 2)
    record = json.loads(json.dumps(session.record()))
    replayed = Session.from_record(record, game=toy)
    assert replayed.state.result() == session.state.result()


def test_rules_dataclass_fields_only():
    @dataclasses.dataclass(frozen=True)
    class Odd:
        when: object = None

    with pytest.raises(ValueError, match="cannot save a rules value of type"):
        encode_rules(Odd(when=object()))


# -- invariants ------------------------------------------------------------------------------


@settings(max_examples=25)
@given(
    game=st.sampled_from(["rubbish", "shared_budget"]),
    seed=st.integers(0, 10_000),
    seat=st.integers(0, 1),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40),
)
def test_any_game_saved_at_any_point_replays_the_same(game, seed, seat, picks):
    session = Session(game, seed=seed, seat=seat, opponents="random")
    for pick in picks:
        if session.is_over:
            break
        legal = session.legal_actions()
        session.play(legal[pick % len(legal)])
    replayed = Session.from_record(json.loads(json.dumps(session.record())))
    assert replayed.step == session.step
    assert [m.action for m in replayed.moves] == [m.action for m in session.moves]
    assert replayed.state.log_for(None) == session.state.log_for(None)
    assert replayed.my_turn == session.my_turn
