"""The play-along table: a seat at any game of the registry against the workbench's agents,
with the game's panel (if it has one) beside it.

``table(game, rules, seat=..., opponents=..., seed=...)`` returns a ``Table`` widget: the
seat's observation, the legal actions as controls, the log of what this seat saw, and at the
end the result, the full hidden record and a review of the seat's decisions (``review``);
``hint=True`` turns on the hint: the search's evaluation of each action at every decision.
``table.play(action)`` plays from code (the notebooks' scripted choices); ``table.save(path)``
and ``load_table(path)`` store and replay a game (seed, rules, seat, opponents and every action).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from workbench.errors import IllegalAction
from workbench.kit.game import Game
from workbench.panels import Panel, escape
from workbench.play.form import ActionForm
from workbench.play.render import log_html, observation_html, result_html
from workbench.play.review import HintView, ReviewView
from workbench.sessions.actions import match
from workbench.sessions.session import Session, load
from workbench.widgets import SavedCopy


def find_panel(game: Game) -> Callable[..., Panel] | None:
    """The game's panel hook: its record's ``make_panel`` (see ``workbench.panels``), or None
    when the game has none (the table plays without a panel)."""
    return game.make_panel if game.panel is not None else None


class Table(SavedCopy, widgets.HBox):
    """A session drawn as widgets: the table on the left, the game's panel on the right.

    ``form`` is the current decision's controls (None while it is not the seat's turn);
    ``panel`` the game's panel (None if it has none or ``panel=False``); ``hint_view`` the hint
    (off unless ``hint``) and ``review_view`` the review offered once the game is over
    (``review_budget``: its playouts per action, None: the game's default). A click whose
    decision is no longer current, or that arrives while a move is being played, does nothing.
    """

    def __init__(
        self, session: Session, *, panel: bool = True, hint: bool = False,
        review_budget: int | None = None, **panel_options: Any,
    ) -> None:  # fmt: skip
        if not isinstance(session, Session):
            raise TypeError(f"session must be a Session, got {type(session).__name__}")
        self.session = session
        self.panel: Panel | None = None
        make_panel = find_panel(session.game) if panel else None
        if make_panel is not None:
            self.panel = make_panel(session, **panel_options)
        elif panel_options:
            raise ValueError(
                f"{session.game} has no panel, so it takes no panel options "
                f"({sorted(panel_options)})"
            )
        self.form: ActionForm | None = None
        self.hint_view = HintView(session, enabled=hint)
        self.review_view = ReviewView(session, budget=review_budget)
        self.last_decision_seconds: float | None = None
        self.error: str | None = None
        self._busy = False
        self._log_seen = 0

        lineup = ", ".join(
            f"seat {s}: {escape(session.label(s))}" for s in range(session.rules.players)
        )
        self.header = widgets.HTML(
            f"<b>{escape(session.game.id)}</b> · you are seat {session.seat} · {lineup} · "
            f"seed {session.seed}"
        )
        self.status = widgets.HTML()
        self.status.add_class("wb-table-status")
        self.since = widgets.HTML()
        self.controls = widgets.VBox()
        self.observation_view = widgets.HTML()
        self.log_view = widgets.HTML()
        self.result_view = widgets.HTML()
        self.save_path = widgets.Text(
            value=f"{session.game}-seed{session.seed}.json",
            description="save as",
            layout=widgets.Layout(width="22em"),
        )
        self.save_button = widgets.Button(description="save game")
        self.save_button.on_click(lambda _b: self._save_clicked())
        self.save_message = widgets.HTML()
        left = widgets.VBox(
            [
                self.header,
                self.status,
                self.since,
                self.controls,
                self.hint_view,
                self.result_view,
                self.observation_view,
                self.log_view,
                widgets.HBox([self.save_path, self.save_button, self.save_message]),
            ],
            layout=widgets.Layout(flex="0 1 540px", min_width="380px", margin="0 16px 0 0"),
        )
        children: list[widgets.Widget] = [left]
        if self.panel is not None:  # beside the table when there is room, else below it
            self.panel.layout.flex = "1 1 460px"
            self.panel.layout.min_width = "380px"
            children.append(self.panel)
        # the review, once the game is over, below both at the whole width
        self.review_view.layout.flex = "1 1 100%"
        children.append(self.review_view)
        super().__init__(children, layout=widgets.Layout(flex_flow="row wrap"))
        self.add_class("wb-table")
        self.refresh()

    def saved_copy(self) -> tuple[str, str]:
        """What the table shows as a static copy where it cannot be live (an untrusted or
        static view of a saved notebook): the position it was displayed at."""
        note = "A saved copy of the table as it was shown. Run the notebook to play."
        views = [self.header, self.status, self.result_view, self.observation_view, self.log_view]
        body = "".join(f"<div>{view.value}</div>" for view in views if view.value)
        text = f"{self.session.game} table, seat {self.session.seat}, seed {self.session.seed}"
        html = f"<p style='margin:2px 0'><i style='color:#666'>{note}</i></p>{body}"
        return html, f"{text}\n{note}"

    # -- playing ---------------------------------------------------------------------------

    def play(self, action: Any) -> Any:
        """Play ``action`` for the seat from code (as the controls would), then let the agents
        move and redraw; IllegalAction (nothing changed) if it is not legal now."""
        if self._busy:
            raise RuntimeError("a move is being played; wait for it to finish")
        return self._play(action)

    def autoplay(self, agent: Any, decisions: int | None = None) -> None:
        """Let ``agent`` (a name or an agent) choose for the seat (``decisions`` times, or to
        the end), redrawing after every decision."""
        self.session.autoplay(agent, decisions, after_each=self.refresh)

    def _play(self, action: Any) -> Any:
        started = time.perf_counter()
        self._busy = True
        try:
            if self.form is not None:
                self.form.close_controls()
            chosen = self.session.play(action)
        except IllegalAction:
            if self.form is not None:  # nothing was played: the same decision stays open
                self._build_form()
            raise
        finally:
            self._busy = False
        self.refresh()
        self.last_decision_seconds = time.perf_counter() - started
        return chosen

    def _submit(self, decision: int, action: Any) -> None:
        """A click: play ``action`` if ``decision`` is still the current one; else nothing."""
        session = self.session
        if self._busy or decision != session.step or not session.my_turn:
            return
        if match(action, session.state.legal_actions()) is None:
            return
        try:
            self._play(action)
        except (IllegalAction, ValueError) as exc:  # a game's or agent's fault, shown not raised
            self.error = str(exc)
            self.status.value = f"<span style='color:#b00'>{escape(exc)}</span>"

    # -- drawing ---------------------------------------------------------------------------

    def refresh(self) -> None:
        """Redraw everything from the session (and update the panel)."""
        session = self.session
        state = session.state
        seen_lines = state.log_for(session.seat)
        new_lines = seen_lines[self._log_seen :]
        self._log_seen = len(seen_lines)
        self.since.value = log_html(new_lines, title="Since your last move", height="9em")
        observation = session.observation()
        summary = self.panel.describe(observation) if self.panel is not None else None
        self.observation_view.value = (summary or "") + observation_html(observation)
        self._build_form()
        if session.is_over:
            self.status.value = (
                f"<b>Game over</b> after {session.step} actions: the result and the full record "
                "are below."
            )
            labels = [session.label(s) for s in range(session.rules.players)]
            self.result_view.value = result_html(state.result(), session.rules.players, labels)
            self.log_view.value = log_html(
                state.log_for(None), title="The full record (hidden information included)"
            )
        else:
            self.status.value = (
                f"<b>Your turn</b> (decision after {session.step} actions)."
                if session.my_turn
                else f"Seat {state.to_play} is to play."
            )
            self.result_view.value = ""
            self.log_view.value = log_html(seen_lines, title="What you have seen")
        if self.panel is not None:
            self.panel.update(session)
        self.hint_view.update(session)
        self.review_view.update(session)

    def review(self) -> Any:
        """Review the finished game now (the review view's button): the seat's decisions as
        ``workbench.review`` scores them, drawn below the result; returns the Review."""
        return self.review_view.run()

    def _build_form(self) -> None:
        session = self.session
        if session.is_over or not session.my_turn:
            self.form = None
            self.controls.children = []
            return
        labeller = self.panel.label if self.panel is not None else None
        prompt = self.panel.prompt(session.observation()) if self.panel is not None else None
        self.form = ActionForm(
            session.state.legal_actions(),
            decision=session.step,
            submit=self._submit,
            labeller=labeller,
            prompt=prompt or "Your move",
        )
        self.controls.children = [self.form]

    # -- saving ----------------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Save the game (seed, rules, seat, opponents, every action) as JSON at ``path``."""
        return self.session.save(path)

    def _save_clicked(self) -> None:
        try:
            saved = self.save(self.save_path.value)
        except (OSError, ValueError) as exc:
            self.save_message.value = f"<span style='color:#b00'>{escape(exc)}</span>"
            return
        self.save_message.value = f"saved {escape(saved.name)} ({self.session.step} actions)"


def table(
    game: str | Game,
    rules: Any = None,
    *,
    seat: int = 0,
    opponents: Any = None,
    seed: int,
    panel: bool = True,
    hint: bool = False,
    review_budget: int | None = None,
    **panel_options: Any,
) -> Table:
    """A play-along table: you play ``seat`` of ``game`` (a registry id) against agents.

    ``opponents`` as ``Session`` takes them (None: the strongest agent the rules allow).
    ``seed`` fixes the deal and the agents' choices: the same seed and the same choices replay
    the same game. ``panel_options`` go to the game's panel (e.g. ``model="heuristic"`` for
    Rubbish). ``hint``: show the search's evaluation of each action at every decision (about a
    second each; it can be switched at the table). ``review_budget``: as ``Table`` takes it.
    """
    session = Session(game, rules, seat=seat, opponents=opponents, seed=seed)
    return Table(session, panel=panel, hint=hint, review_budget=review_budget, **panel_options)


def load_table(
    path: str | os.PathLike[str], *, panel: bool = True, hint: bool = False,
    review_budget: int | None = None, **panel_options: Any,
) -> Table:  # fmt: skip
    """The game saved at ``path``, replayed (ValueError if the replay diverges) and drawn; a
    finished game offers its review at once."""
    return Table(load(path), panel=panel, hint=hint, review_budget=review_budget,
                 **panel_options)  # fmt: skip
