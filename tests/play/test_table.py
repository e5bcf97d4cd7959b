"""The table widget, driven through its controls in Python (no browser): complete seeded games
of every registry game, illegal choices impossible, stale and repeated clicks harmless."""

from __future__ import annotations

import html
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench
from workbench.errors import IllegalAction
from workbench.games import rubbish
from workbench.kit.seeding import generator
from workbench.play.table import Table, load_table, table


def click_through(t: Table, choose) -> list:
    """Play a whole game through the controls: ``choose(form)`` sets them and returns the
    widget to click. Returns the actions the seat played."""
    played = []
    while not t.session.is_over:
        form = t.form
        before = t.session.step
        target = choose(form)
        expected = form.action if target is form.play_button else None
        target.click()
        assert t.session.step > before
        mine = [m for m in t.session.moves[before:] if m.by_table]
        assert len(mine) == 1 and (expected is None or mine[0].action == expected)
        played.append(mine[0].action)
    return played


def rubbish_choice(form):
    """Auctions: the last item up, naming seat 1; bids: the two smallest cards offered."""
    group = form.groups[0].spec
    if group.label == "Auction" and group.kind == "form":
        form.set(item=group.fields[0].values[-1], first_bidder=1)
        return form.play_button
    if group.kind == "buttons":
        return next(iter(form.groups[0].buttons.values()))
    cards = group.fields[0].values
    form.set(cards=cards[-2:])
    return form.play_button


def test_a_complete_rubbish_game_through_the_controls():
    t = table("rubbish", seed=21, opponents="heuristic")
    played = click_through(t, rubbish_choice)
    # The same seed and the same choices, straight through the engine, give the same game.
    state = rubbish.new_game(seed=21)
    agents = {s: rubbish.make_agent("heuristic") for s in (1, 2, 3)}
    rngs = {s: generator(21, 1, s) for s in agents}
    mine = iter(played)
    while not state.is_over:
        seat = state.to_play
        if seat == 0:
            action = next(mine)
        else:
            action = agents[seat](state.observation(seat), state.legal_actions(), rngs[seat])
        state = state.apply(action)
    assert state.result() == t.session.state.result()
    assert "Game over" in t.status.value and "Winner(s)" in t.result_view.value
    # The full hidden record is shown at the end: every peek, not only the seat's.
    full = state.log_for(None)
    assert len(full) > len(state.log_for(0))
    assert all(html.escape(line) in t.log_view.value for line in full)
    assert t.form is None and t.controls.children == ()


def test_while_playing_the_log_shows_only_what_the_seat_saw():
    t = table("rubbish", seed=21, opponents="heuristic")
    t.form.set(item=0, first_bidder=1)  # seat 0 bids last: three peeks happen before it
    t.form.play_button.click()
    state = t.session.state
    hidden = [line for line in state.log_for(None) if line not in state.log_for(0)]
    assert hidden and all("peeks" in line for line in hidden)
    assert not any(line in t.log_view.value for line in hidden)
    seen = state.log_for(0)
    assert seen[-2] == "seat 3 holds out 4 cards" and html.escape(seen[-2]) in t.since.value
    # The seat's own peek, before it bids, is in its log and its observation (the panel words it).
    peek = t.session.observation().peek
    assert seen[-1] == f"seat 0 peeks blind at one of seat 3's held-out cards: a {peek.card}"
    assert peek.target == 3 and "Your blind peek at seat 3" in t.observation_view.value


def test_a_complete_shared_budget_game_through_the_controls():
    t = table("shared_budget", seed=2, seat=1, opponents="equilibrium")
    bids = iter([6, 3, 0, 4, 2, 1])

    def choose(form):
        form.set(value=min(next(bids), form.groups[0].spec.high))
        return form.play_button

    played = click_through(t, choose)
    assert played == [6, 3, 0, 4, 2, 1][: len(played)] and len(played) == 6
    history = t.session.state.history
    assert [r.bids[1] for r in history] == played
    assert "Game over" in t.status.value


def test_a_game_outside_the_registry_gets_the_generic_table(toy):
    t = table(toy, seed=3, opponents="greedy")
    assert t.panel is None
    form = t.form
    # The lazy legal sequence lists the splits first, then "pass": two kinds, chosen apart.
    assert [(g.spec.label, g.spec.kind) for g in form.groups] == [
        ("Split", "form"),
        ("choice", "buttons"),
    ]
    form.select("Split")
    form.set(cups=(2, 1))
    assert form.action == toy.Split((2, 1))
    form.set(cups=(3, 3))  # more tokens than there are: bounded per cup, but not legal
    assert form.action is None and form.play_button.disabled
    form.play_button.click()  # a programmatic click on the disabled button does nothing
    assert t.session.step == 0
    form.set(cups=(1, 2))  # whichever cup Greedy fills, we take the other
    form.play_button.click()
    t.form.button_for("pass").click()
    assert t.session.is_over and t.session.state.result().scores == (1, 2)


def test_a_repeated_click_plays_once():
    t = table("shared_budget", seed=0, opponents="coverage")
    form = t.form
    form.set(value=6)
    form.play_button.click()
    after_one = (t.session.step, t.session.state)
    form.play_button.click()  # the same button again: its decision is gone
    assert (t.session.step, t.session.state) == after_one
    assert form.play_button.disabled and form.closed


def test_a_stale_click_after_the_game_moved_on_changes_nothing():
    t = table("rubbish", seed=9, opponents="heuristic")
    first = t.form
    first.set(item=2, first_bidder=0)
    first.play_button.click()
    second = t.form
    second.set(cards=(5,))
    second.play_button.click()
    snapshot = (t.session.step, t.session.state)
    # Old forms, re-enabled as a browser might still show them, click into a later decision.
    for old in (first, second):
        old.closed = False
        old.play_button.disabled = False
        old.play_button.click()
        t._submit(old.decision, old.legal[0])
    assert (t.session.step, t.session.state) == snapshot


def test_a_click_while_a_move_is_played_is_ignored():
    t = table("shared_budget", seed=0, opponents="coverage")
    t._busy = True
    t.form.set(value=3)
    t.form.play_button.click()
    assert t.session.step == 0
    t._busy = False


def test_a_click_after_the_end_changes_nothing():
    t = table("shared_budget", seed=0, opponents="coverage")
    last_form = None
    while not t.session.is_over:
        last_form = t.form
        last_form.set(value=0)
        last_form.play_button.click()
    end = (t.session.step, t.session.state)
    last_form.closed = False
    last_form.play_button.click()
    t._submit(end[0], 0)
    assert (t.session.step, t.session.state) == end


def test_illegal_choices_cannot_be_made_from_the_controls():
    # With a one-card minimum, holding out nothing is not a bid: play stays disabled.
    t = table("rubbish", rubbish.Rules(bid_minimum="one"), seed=4, opponents="heuristic")
    t.form.set(item=0, first_bidder=0)
    t.form.play_button.click()
    form = t.form
    assert form.action is None and form.play_button.disabled
    assert "not a legal choice" in form.message.value
    form.play_button.click()
    assert t.session.my_turn and t.session.step == 1
    with pytest.raises(ValueError, match="cannot make"):
        form.set(cards=(10, 10))  # there is one 10
    form.set(cards=(1,))
    assert form.action == rubbish.Bid((1,)) and not form.play_button.disabled


def test_numbers_are_bounded_by_the_budget():
    t = table("shared_budget", seed=0, opponents="coverage")
    number = t.form.groups[0].fields["value"]
    assert (number.min, number.max) == (0, 20)
    number.value = 99  # what typing 99 does: the box clamps it
    assert number.value == 20 and t.form.action == 20
    with pytest.raises(ValueError, match="takes 0–20"):
        t.form.set(value=21)
    with pytest.raises(ValueError, match="whole number"):
        t.form.set(value=2.5)


def test_play_from_code_raises_on_illegal_actions_and_keeps_the_decision_open():
    t = table("rubbish", seed=4, opponents="heuristic")
    with pytest.raises(IllegalAction):
        t.play(rubbish.Bid((5,)))
    assert t.session.step == 0 and t.form is not None and not t.form.closed
    t.play(rubbish.Auction(1, 0))
    assert t.session.step >= 1 and t.last_decision_seconds is not None


def test_save_button_and_reload(tmp_path):
    t = table("rubbish", rubbish.Rules(players=3), seed=8, opponents="random")
    t.autoplay("heuristic", decisions=5)
    t.save_path.value = str(tmp_path / "game.json")
    t.save_button.click()
    assert "saved game.json" in t.save_message.value
    again = load_table(tmp_path / "game.json")
    assert again.session.step == t.session.step
    assert again.session.state.log_for(None) == t.session.state.log_for(None)
    t.save_path.value = str(tmp_path / "missing" / "\0bad")
    t.save_button.click()
    assert "color:#b00" in t.save_message.value  # shown, not raised


def test_workbench_table_is_the_factory(tmp_path):
    t = workbench.table("shared_budget", seed=1, opponents="random")
    assert isinstance(t, Table) and t.panel is not None
    path = t.save(tmp_path / "g.json")
    assert json.loads(path.read_text())["game"] == "shared_budget"
    assert isinstance(workbench.load_table(path), Table)


def test_panel_options_need_a_panel(toy):
    with pytest.raises(ValueError, match="has no panel"):
        table(toy, seed=0, opponents="greedy", model="uniform")
    bare = table("rubbish", seed=0, opponents="random", panel=False)
    # the table and, below it, its review (hidden until the game is over)
    assert bare.panel is None and bare.children[1:] == (bare.review_view,)


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10**6), max_size=12))
def test_every_legal_action_can_be_made_from_the_controls(seed, picks):
    """At decisions reached by random play, each legal action is one setting of the controls
    (or one button) away, and that setting shows exactly that action."""
    t = table("rubbish", rubbish.Rules(players=3), seed=seed, opponents="random", panel=False)
    for pick in [*picks, 0]:
        if t.session.is_over:
            break
        form = t.form
        for action in t.session.legal_actions():
            group = next(g for g in form.groups if g.spec.type is type(action))
            form.select(group.spec.label)
            if group.spec.kind == "buttons":
                assert form.button_for(action) is not None
            else:
                form.set(**action._asdict())
                assert form.action == action
        legal = t.session.legal_actions()
        t.play(legal[pick % len(legal)])


def test_short_lists_of_records_are_buttons_worded_by_the_panel():
    # Two players; we always hold out the least we may, so we are the cheapskate and auction
    # again; with four items left an Auction is one of eight buttons, named by the panel.
    t = table("rubbish", rubbish.Rules(players=2), seed=1, opponents="random")
    while len(t.session.legal_actions()) > 8 or t.session.state.phase != "auction":
        t.play(t.session.legal_actions()[0])
    form = t.form
    assert [g.spec.kind for g in form.groups] == ["buttons"]
    action = t.session.legal_actions()[-1]
    button = form.button_for(action)
    item = t.panel.label("Auction", "item", action.item)
    assert item.startswith(f"{t.session.rules.items[action.item]} (item {action.item})")
    assert button.description == f"{item}; First Bidder seat 1"
    before = t.session.step
    button.click()
    button.click()  # the decision is gone: nothing more happens
    assert t.session.moves[before].action == action
    assert sum(m.by_table for m in t.session.moves[before:]) == 1


@pytest.mark.parametrize(
    ("game", "opponents"), [("auction_house", "heuristic"), ("going_gone", "valuation")]
)
def test_a_complete_game_of_the_later_games_through_the_generic_controls(game, opponents):
    """Games that landed after the table get it with no per-game code: a whole seeded game
    played through the controls (a seeded pick among the legal actions at every decision)
    equals the same choices played straight through the engine."""
    module = workbench.games.get(game)
    pick = generator(5, 99)

    def choose(form):
        legal = t.session.legal_actions()
        action = legal[int(pick.integers(len(legal)))]
        group = next(g for g in form.groups if g.spec.type is type(action))
        form.select(group.spec.label)
        if group.spec.kind == "buttons":
            return form.button_for(action)
        form.set(**action._asdict())
        assert form.action == action
        return form.play_button

    t = table(game, seed=8, opponents=opponents)
    played = click_through(t, choose)
    state = module.new_game(seed=8)
    agents = {s: module.make_agent(opponents) for s in range(1, state.rules.players)}
    rngs = {s: generator(8, 1, s) for s in agents}
    mine = iter(played)
    while not state.is_over:
        seat = state.to_play
        if seat == 0:
            action = next(mine)
        else:
            action = agents[seat](state.observation(seat), state.legal_actions(), rngs[seat])
        state = state.apply(action)
    assert next(mine, None) is None
    assert state.result() == t.session.state.result()
    assert "Game over" in t.status.value and "Winner(s)" in t.result_view.value
    assert all(html.escape(line) in t.log_view.value for line in state.log_for(None))
