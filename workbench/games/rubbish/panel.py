"""The Rubbish Auction panel of the play-along table: your chances with every bid now, each
opponent's bid and geek posteriors (under the opponent model you choose), every opponent's
maximum bid, and after the game what the agents could have inferred about you. While the game
is on it reads only your observation."""

from __future__ import annotations

from typing import Any

import altair as alt
import ipywidgets as widgets
import polars as pl

from workbench.charts import WIDTH
from workbench.games.rubbish.engine import Auction, Observation
from workbench.games.rubbish.inference import infer, max_bid_table, observations_before_last_bid
from workbench.games.rubbish.outcomes import UNIFORM, BidOutcomes, model_names
from workbench.panels import CELL, LEFT, Panel, escape, section

#: Share of uniform play mixed into a policy model when asking what the agents could infer
#: about you: your own play need not be an agent's, and a model that gives it probability 0
#: would explain nothing.
ABOUT_YOU_EPSILON = 0.05


def _bar(p: float, width: int = 80) -> str:
    filled = max(0, min(width, round(p * width)))
    return (
        f"<span style='display:inline-block;width:{filled}px;height:9px;background:#4c78a8'>"
        f"</span><span style='display:inline-block;width:{width - filled}px;height:9px;"
        "background:#e8eef5'></span>"
    )


def _p(p: float | None, exact: str | None = None) -> str:
    if p is None:
        return "–"
    text = f"{p:.3f}"
    if exact is not None and exact not in ("0", "1"):
        text += f" <span style='color:#666'>({escape(exact)})</span>"
    return text


def _error(message: str) -> str:
    return f"<span style='color:#b00'>{escape(message)}</span>"


def _grid(columns: list[str], rows: Any, cell: Any) -> str:
    """A table of ``rows`` (value tuples) under the ``columns``' names, ``cell(value)`` each."""
    head = "".join(f"<th style='{CELL}'>{escape(c.replace('_', ' '))}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td style='{CELL}'>{cell(v)}</td>" for v in row) + "</tr>"
        for row in rows
    )
    return f"<table style='border-collapse:collapse'><tr>{head}</tr>{body}</table>"


class RubbishPanel(Panel):
    """The panel for an opponent ``model`` (``outcomes.model_names``). After ``update`` its
    frames (``outcomes``, ``bids``, ``geeks``, ``max_bids``, ``about_you``, ``final_geeks``;
    None where not shown) and ``errors`` (sections that could not be computed) are set."""

    def __init__(self, session: Any, model: str = UNIFORM) -> None:
        if model not in model_names():
            raise ValueError(
                f"unknown opponent model {model!r}; the panel offers {', '.join(model_names())}"
            )
        self.session = session
        self.model = widgets.Dropdown(
            options=list(model_names()), value=model, description="opponents play like"
        )
        self.model.style.description_width = "initial"
        self.model.add_class("wb-panel-model")
        self.model.observe(lambda _change: self.update(self.session), names="value")
        self.view = widgets.HTML()
        self.view.add_class("wb-panel-view")
        self._outcome_caches: dict[str, BidOutcomes] = {}
        self._results: dict[tuple[int, str], dict[str, Any]] = {}
        self._about: dict[str, dict[int, dict[str, Any]]] = {}
        self._clear()
        title = widgets.HTML("<b>What the analyses know</b> (Rubbish Auction)")
        super().__init__([title, self.model, self.view])
        self.add_class("wb-panel")

    def _clear(self) -> None:
        self.outcomes = self.bids = self.geeks = self.max_bids = None
        self.about_you = self.final_geeks = None
        self.errors: dict[str, str] = {}

    def update(self, session: Any) -> None:
        """Recompute for the session's current position (cached per position and model)."""
        self.session = session
        key = (session.step, self.model.value)
        if key not in self._results:
            self._results[key] = self._compute(session, self.model.value)
        self._clear()
        for name, value in self._results[key].items():
            setattr(self, name, value)
        self.view.value = self._draw(session)

    def _compute(self, session: Any, model: str) -> dict[str, Any]:
        found: dict[str, Any] = {"errors": {}}
        if session.is_over:
            self._compute_after(session, model, found)
            return found
        observation: Observation = session.observation()
        found["max_bids"] = max_bid_table(observation)
        bidders = [
            seat
            for seat in observation.order
            if seat != observation.player and observation.held_out[seat] is not None
        ]
        try:
            frames = [infer(observation, seat, prior=model) for seat in bidders]
            if not frames:
                frames = [infer(observation, None, prior=model)]
            found["bids"] = pl.concat([f.bids for f in frames]) if bidders else None
            found["geeks"] = frames[0].geeks
        except ValueError as exc:
            found["errors"]["inference"] = str(exc)
        if observation.phase == "bid" and session.my_turn:
            cache = self._outcome_caches.setdefault(model, BidOutcomes(model))
            try:
                found["outcomes"] = cache.compute(observation)
            except ValueError as exc:
                found["errors"]["outcomes"] = str(exc)
        self._about_you(session, model, {})  # prepared now, shown after the game
        return found

    def _compute_after(self, session: Any, model: str, found: dict[str, Any]) -> None:
        state = session.state
        me = session.seat
        found["about_you"] = self._about_you(session, model, found["errors"])
        if model == UNIFORM:
            return  # the uniform model ignores geeks: every geek stays equally likely
        rows = []
        true_geek = state.rules.geeks[state.deal.geeks[me]].name
        try:
            for seat in range(state.rules.players):
                if seat == me:
                    continue
                observation = state.observation(seat)
                geeks = infer(observation, prior=model, epsilon=ABOUT_YOU_EPSILON).geeks
                mine = geeks.filter(pl.col("seat") == me)
                rows.append({
                    "observer": seat, "true_geek": true_geek,
                    "p_true_geek": mine.filter(pl.col("name") == true_geek)["probability"].item(),
                    "most_likely": mine.sort("probability", descending=True)["name"][0],
                })  # fmt: skip
            found["final_geeks"] = pl.DataFrame(rows)
        except ValueError as exc:
            found["errors"]["final_geeks"] = str(exc)

    def _about_you(self, session: Any, model: str, errors: dict[str, str]) -> pl.DataFrame:
        """Round by round, what the last opponent to bid knew of you just before it bid (kept
        per model; shown only after the game, since it reads that opponent's peek)."""
        done = self._about.setdefault(model, {})
        state, me = session.state, session.seat
        epsilon = 0.0 if model == UNIFORM else ABOUT_YOU_EPSILON
        geek = state.rules.geeks[state.deal.geeks[me]].name
        seen = zip(observations_before_last_bid(state), state.history, strict=True)
        for observation, record in seen:
            if observation.player == me or record.round in done:
                continue
            try:
                inference = infer(observation, me, prior=model, epsilon=epsilon)
            except ValueError as exc:
                errors["about_you"] = str(exc)
                continue
            bids, bid = inference.bids, record.bids[me]
            truth = bids.filter(pl.col("total") == bid.total)["probability"]
            mine = inference.geeks.filter((pl.col("seat") == me) & (pl.col("name") == geek))
            done[record.round] = {
                "round": record.round, "observer": observation.player, "held_out": bid.count,
                "true_total": bid.total, "p_true_total": truth.item() if truth.len() else 0.0,
                "most_likely": bids.sort("probability", descending=True)["total"][0],
                "true_geek": geek, "p_true_geek": mine["probability"].item(),
            }  # fmt: skip
        schema = {
            "round": pl.Int64, "observer": pl.Int64, "held_out": pl.Int64,
            "true_total": pl.Int64, "p_true_total": pl.Float64, "most_likely": pl.Int64,
            "true_geek": pl.String, "p_true_geek": pl.Float64,
        }  # fmt: skip
        return pl.DataFrame([done[r] for r in sorted(done)], schema=schema)

    def _draw(self, session: Any) -> str:
        model = self.model.value
        how = "exact fractions" if model == UNIFORM else (
            "exact, floating point (the agent's stated probabilities)"
        )
        assumption = (
            f"Opponent model: <b>{escape(model)}</b> — {how}; their geeks dealt uniformly from "
            "the ones you do not hold, every deal enumerated."
        )
        if session.is_over:
            return assumption + self._draw_after(session)
        parts = [assumption, self._draw_outcomes(session), self._draw_bids(), self._draw_max()]
        parts.append(self._draw_geeks())
        return "".join(parts)

    def _draw_outcomes(self, session: Any) -> str:
        title = "Your bids now: chance to win the item / to be the cheapskate"
        if "outcomes" in self.errors:
            return section(title, _error(self.errors["outcomes"]))
        if self.outcomes is None:
            return section(title, "<i>when it is your turn to bid</i>")
        rows = "".join(
            f"<tr><td style='{LEFT}'>{escape(r['bid'])}</td>"
            f"<td style='{CELL}'>{_p(r['p_win'], r['exact_win'])}</td>"
            f"<td style='{LEFT}'>{_bar(r['p_win'])}</td>"
            f"<td style='{CELL}'>{_p(r['p_cheapskate'], r['exact_cheapskate'])}</td>"
            f"<td style='{LEFT}'>{_bar(r['p_cheapskate'])}</td>"
            f"<td style='{LEFT}'>{'over your fame' if r['overspend'] else ''}</td></tr>"
            for r in self.outcomes.iter_rows(named=True)
        )
        head = (
            f"<tr><th style='{LEFT}'>bid</th><th style='{CELL}'>P(win)</th><th></th>"
            f"<th style='{CELL}'>P(cheapskate)</th><th></th><th></th></tr>"
        )
        return section(
            title,
            f"<table class='wb-panel-outcomes' style='border-collapse:collapse'>{head}{rows}"
            "</table>",
        )

    def _draw_bids(self) -> str:
        title = "Opponents' bids this round (posterior over the total held out)"
        if "inference" in self.errors:
            advice = " In this panel: choose the uniform model, which explains any play."
            return section(title, _error(self.errors["inference"] + advice))
        if self.bids is None or self.bids.is_empty():
            return section(title, "<i>nobody else has held out cards yet this round</i>")
        blocks = []
        for (seat,), frame in self.bids.group_by("seat", maintain_order=True):
            rows = "".join(
                f"<tr><td style='{CELL}'>{r['total']}</td>"
                f"<td style='{CELL}'>{_p(r['probability'], r['exact'])}</td>"
                f"<td style='{LEFT}'>{_bar(r['probability'])}</td>"
                f"<td style='{LEFT}'>{escape(r['combinations'])}</td></tr>"
                for r in frame.iter_rows(named=True)
            )
            blocks.append(
                f"<div>seat {seat} ({escape(self.session.label(seat))})"
                f"<table style='border-collapse:collapse'>{rows}</table></div>"
            )
        return section(title, "".join(blocks))

    def _draw_max(self) -> str:
        frame = self.max_bids
        title = "Maximum bids (public: locked cards and counts)"
        if frame is None:
            return ""
        columns = ["seat", "locked", "max_bid", "held_out", "max_now", "to_beat"]
        table = _grid(columns, frame.select(columns).iter_rows(),
                      lambda v: "–" if v is None else escape(v))  # fmt: skip
        note = (
            "<div style='color:#666'>to beat: the smallest total that surely beats that seat "
            "from your place (ties go to whoever bids earlier)</div>"
        )
        return section(title, table + note)

    def _draw_geeks(self) -> str:
        title = "Opponents' geeks (posterior)"
        if self.geeks is None:
            return ""
        names = self.geeks.unique("name", maintain_order=True)["name"].to_list()
        head = "".join(f"<th style='{CELL}'>{escape(n)}</th>" for n in names)
        rows = ""
        for (seat,), frame in self.geeks.group_by("seat", maintain_order=True):
            by_name = dict(zip(frame["name"], frame["probability"], strict=True))
            cells = ""
            for name in names:
                p = by_name.get(name, 0.0)
                shade = f"rgba(76,120,168,{p:.2f})"
                color = "white" if p > 0.5 else "black"
                cells += f"<td style='{CELL};background:{shade};color:{color}'>{p:.2f}</td>"
            rows += f"<tr><th style='{LEFT}'>seat {seat}</th>{cells}</tr>"
        table = f"<table style='border-collapse:collapse'><tr><th></th>{head}</tr>{rows}</table>"
        if self.model.value == UNIFORM:
            table += (
                "<div style='color:#666'>The uniform model ignores geeks: they stay equally "
                "likely. Choose the heuristic to read them from the play.</div>"
            )
        return section(title, table)

    def _draw_after(self, session: Any) -> str:
        title = "What the agents could have inferred about you"
        parts = []
        if "about_you" in self.errors:
            parts.append(_error(self.errors["about_you"]))
        elif self.about_you is not None:
            if self.about_you.is_empty():
                parts.append("<i>you bid last in every round: nobody saw your count first</i>")
            else:
                table = _grid(
                    self.about_you.columns, self.about_you.iter_rows(),
                    lambda v: f"{v:.3f}" if isinstance(v, float) else escape(v),
                )  # fmt: skip
                parts.append(
                    "<div>Each round, the last opponent to bid, just before it bid: the "
                    "probability it gave your true total and your true geek (rounds where you "
                    "bid last are left out: nobody bid after you).</div>" + table
                )
        if "final_geeks" in self.errors:
            parts.append(_error(self.errors["final_geeks"]))
        elif self.final_geeks is not None:
            rows = "".join(
                f"<tr><td style='{CELL}'>seat {r['observer']}</td>"
                f"<td style='{CELL}'>{r['p_true_geek']:.3f}</td>"
                f"<td style='{LEFT}'>{escape(r['most_likely'])}</td></tr>"
                for r in self.final_geeks.iter_rows(named=True)
            )
            parts.append(
                f"<div style='margin-top:4px'>At the end, every bid revealed: each opponent's "
                f"probability for your true geek ({escape(self.final_geeks['true_geek'][0])})"
                "</div><table style='border-collapse:collapse'><tr><th>observer</th>"
                "<th>P(your geek)</th><th>its best guess</th></tr>"
                f"{rows}</table>"
            )
        if self.model.value == UNIFORM:
            parts.append(
                "<div style='color:#666'>The uniform model ignores geeks, so it learns nothing "
                "about yours: choose the heuristic to see what a geek-driven player reads from "
                "your choices.</div>"
            )
        else:
            parts.append(
                f"<div style='color:#666'>The {escape(self.model.value)} model is mixed with "
                f"{ABOUT_YOU_EPSILON:g} uniform play here, so that your own choices, which need "
                "not be an agent's, keep a chance.</div>"
            )
        return section(title, "".join(parts))

    def label(self, group: str | None, field: str | None, value: Any) -> str | None:
        """Item names for items, 'seat n (you)' for seats, the game's own text for bids."""
        session = self.session
        rules = session.rules
        if group == "Auction" and field == "item":
            destined = session.observation().destined
            star = " ★ your geek's" if value in destined else ""
            return f"{rules.items[value]} (item {value}){star}"
        if group == "Auction" and field == "first_bidder":
            return f"seat {value} ({session.label(value)})"
        if group == "Auction" and field is None and isinstance(value, Auction):
            item = self.label(group, "item", value.item)
            return f"{item}; First Bidder seat {value.first_bidder}"
        return None

    def prompt(self, observation: Observation) -> str | None:
        """What you choose now, in the game's words."""
        if observation.phase == "auction":
            return "You are the Next Auctioneer: put an item up and name the First Bidder"
        if observation.phase == "bid":
            item = observation.rules.items[observation.item]
            return f"Hold out money cards for the {item} (toggle them, then play)"
        return None

    def describe(self, observation: Observation) -> str | None:
        """Your geek and what it wants, your usable cards and fame, and the round's state."""
        rules = observation.rules
        me = observation.player
        geek = rules.geeks[observation.geek]
        wanted = " & ".join(rules.items[i] for i in geek.destined)
        locked = observation.locked[me]
        cards = ", ".join(str(c) for c in observation.available(me))
        lines = [
            f"Round {min(observation.round, rules.rounds)} of {rules.rounds}. You hold geek "
            f"<b>{escape(geek.name)}</b> (wants {escape(wanted)}); fame {observation.fame[me]}; "
            f"usable cards {cards}" + (f" (your {locked} is locked)" if locked else "") + "."
        ]
        if observation.phase == "bid":
            item = rules.items[observation.item]
            mark = " — destined to your geek" if observation.item in geek.destined else ""
            order = ", ".join(f"seat {s}" for s in observation.order)
            lines.append(f"On offer: <b>{escape(item)}</b>{mark}. Bidding order: {order}.")
            if observation.peek is not None:
                peek = observation.peek
                seen = "nothing" if peek.card is None else f"a {peek.card}"
                where = peek.source.replace("_", "-")
                lines.append(f"Your blind peek at seat {peek.target}'s {where} cards: {seen}.")
        return "<div style='margin-bottom:4px'>" + "<br>".join(lines) + "</div>"


def make_panel(session: Any, model: str = UNIFORM) -> RubbishPanel:
    """The Rubbish Auction panel for a table session (``model``: the opponent model)."""
    return RubbishPanel(session, model=model)


def outcomes_chart(frame: pl.DataFrame, *, series: str | None = None, title: str = "") -> alt.Chart:
    """P(win the item) and P(be the cheapskate) of every bid from a ``bid_outcomes`` frame,
    by bid total (bids of equal total can differ when the opponents' model reads the number
    of cards held out). ``series``: a column (e.g. the opponent model) to draw side by side."""
    needed = ["total", "bid", "p_win", "p_cheapskate"] + ([series] if series else [])
    missing = [c for c in needed if c not in frame.columns]
    if missing:
        raise ValueError(f"outcomes_chart needs columns {missing}; the frame has {frame.columns}")
    index = ["bid", "total"] + ([series] if series else [])
    long = frame.unpivot(
        index=index, on=["p_win", "p_cheapskate"], variable_name="outcome", value_name="probability"
    ).with_columns(
        pl.col("outcome").replace({"p_win": "win the item", "p_cheapskate": "be the cheapskate"})
    )
    chart = (
        alt.Chart(long)
        .mark_point(filled=True, size=60)
        .encode(
            x=alt.X("total:Q", title="your bid total (thousands)"),
            y=alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("outcome:N", title=None), shape=alt.Shape("outcome:N", title=None),
            tooltip=["bid", "outcome", "probability"],
        )
        .properties(width=WIDTH // 2 + 40 if series else WIDTH, height=220)
    )
    if series:
        chart = chart.facet(column=alt.Column(f"{series}:N", title=series.replace("_", " ")))
    return chart.properties(title=title)
