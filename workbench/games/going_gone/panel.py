"""The Going, Going, GONE! panel of the play-along table: what the analyses know at your
decisions.

- your holding's best arrangement into collections and its value (``best_collections``,
  exact);
- what each lot on offer adds to you (``lot_values``, exact: the value with it minus without,
  were the game to end now) and to each opponent: exact when collections are open; when they
  are secret, the mean over ``OPPONENT_SAMPLES`` holdings drawn by the uniform sampler from
  what you can see (each opponent's item count, what is out of play), with its 95% interval;
- every seat's Bucks and the most it can bid (``budget_of``: its Bucks, at most the cube
  limit).

While the game is on the panel reads only your observation.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np
import polars as pl

from workbench.games.going_gone.actions import budget_of
from workbench.games.going_gone.collection_values import best_collections, lot_values
from workbench.games.going_gone.engine import Observation
from workbench.games.going_gone.holdings import exact_values, mask_of
from workbench.games.going_gone.sampling import Sampler
from workbench.kit.seeding import generator, seed_sequence
from workbench.panels import CELL, LEFT, Panel, escape, section
from workbench.stats import mean_interval

#: Holdings drawn per position to value the lots for an opponent whose items are secret.
OPPONENT_SAMPLES = 1000
#: Seed of those draws (with the step: the same position shows the same figures).
SAMPLE_SEED = 20240611


#: ``lot_gains``' columns and types.
GAIN_SCHEMA = {
    "lot": pl.Int64,
    "items": pl.String,
    "seat": pl.Int64,
    "gain": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "n": pl.Int64,
    "exact": pl.Boolean,
}


def lot_gains(
    observation: Observation, *, samples: int = OPPONENT_SAMPLES, seed: Any = 0
) -> pl.DataFrame:
    """What each lot on offer adds to every seat's collection value, one row per lot and seat:
    exact for the observer and for open collections (``n`` 0); otherwise the mean over
    ``samples`` holdings of that seat drawn uniformly from the observer's view, with a 95% t
    interval. Empty outside the bidding."""
    rules, me = observation.rules, observation.player
    if observation.phase != "bid":
        return pl.DataFrame(schema=GAIN_SCHEMA)
    names = [" + ".join(rules.item_name(i) for i in lot) for lot in observation.lots]
    lot_masks = np.array([mask_of(rules, lot) for lot in observation.lots], dtype=np.uint64)
    rows = []
    drawn = None
    for seat in range(rules.players):
        known = observation.holdings[seat] if seat != me else observation.holding
        if known is not None:
            frame = lot_values(known, observation.lots, rules=rules)
            for lot, gain in enumerate(frame["marginal"].to_list()):
                rows.append({"lot": lot + 1, "items": names[lot], "seat": seat,
                             "gain": float(gain), "low": float(gain), "high": float(gain),
                             "n": 0, "exact": True})  # fmt: skip
            continue
        if drawn is None:
            drawn = Sampler(observation).draw(generator(seed), samples).masks
        held = drawn[:, seat]
        without = exact_values(held, rules)
        for lot, lot_mask in enumerate(lot_masks):
            gains = exact_values(held | lot_mask, rules) - without
            mean, low, high = mean_interval(gains.astype(float))
            if not np.isfinite(low):
                low = high = mean
            rows.append({"lot": lot + 1, "items": names[lot], "seat": seat, "gain": mean,
                         "low": low, "high": high, "n": samples, "exact": False})  # fmt: skip
    return pl.DataFrame(rows, schema=GAIN_SCHEMA)


def bucks_frame(observation: Observation) -> pl.DataFrame:
    """Every seat's Bucks, items and the most it can bid now (``budget_of``)."""
    rules = observation.rules
    return pl.DataFrame(
        {
            "seat": list(range(rules.players)),
            "bucks": list(observation.bucks),
            "items": list(observation.item_counts),
            "most_bid": [budget_of(rules, b) for b in observation.bucks],
        }
    )


def knowledge(observation: Observation) -> str:
    """What the seat knew, for a review's row: its items and their value, the Bucks each seat
    may bid, the lots on offer."""
    rules = observation.rules
    arrangement = best_collections(observation.holding, rules=rules)
    items = ", ".join(rules.item_name(i) for i in observation.holding) or "none"
    bids = ", ".join(f"seat {s} {budget_of(rules, b)}" for s, b in enumerate(observation.bucks))
    parts = [
        f"round {min(observation.round, rules.rounds)}, {observation.phase}",
        f"your items {items} (worth {arrangement.value})",
        f"most each can bid: {bids}",
    ]
    if observation.phase == "bid":
        lots = "; ".join(" + ".join(rules.item_name(i) for i in lot) for lot in observation.lots)
        parts.append(f"lots {lots}")
    return "; ".join(parts)


class GoingGonePanel(Panel):
    """The panel (see the module docstring). After ``update``: ``arrangement`` (your best
    arrangement), ``gains`` (``lot_gains``) and ``bucks`` (``bucks_frame``)."""

    def __init__(self, session: Any, samples: int = OPPONENT_SAMPLES) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
            raise ValueError(f"samples must be a whole number >= 2, got {samples!r}")
        self.session = session
        self.samples = samples
        self.view = widgets.HTML()
        self.view.add_class("wb-panel-view")
        self.arrangement: Any = None
        self.gains: pl.DataFrame | None = None
        self.bucks: pl.DataFrame | None = None
        self._cache: dict[int, pl.DataFrame] = {}
        title = widgets.HTML("<b>What the analyses know</b> (Going, Going, GONE!)")
        super().__init__([title, self.view])
        self.add_class("wb-panel")

    def update(self, session: Any) -> None:
        """Recompute for the current position (the lot values once per position)."""
        self.session = session
        observation: Observation = session.observation()
        rules = observation.rules
        self.arrangement = best_collections(observation.holding, rules=rules)
        self.bucks = bucks_frame(observation)
        if session.step not in self._cache:
            seed = seed_sequence(SAMPLE_SEED, session.seed, session.step)
            self._cache[session.step] = lot_gains(observation, samples=self.samples, seed=seed)
        self.gains = self._cache[session.step]
        self.view.value = self._draw(observation)

    def _draw(self, observation: Observation) -> str:
        rules = observation.rules
        arrangement = self.arrangement
        collections = "".join(
            f"<tr><td style='{LEFT}'>{escape(c.line)} ({c.kind})</td>"
            f"<td style='{LEFT}'>{escape(', '.join(rules.item_name(i) for i in c.items))}</td>"
            f"<td style='{CELL}'>{c.value}</td></tr>"
            for c in arrangement.collections
        )
        parts = [section(
            f"Your holding: best arrangement worth {arrangement.value} (exact)",
            f"<table class='wb-panel-arrangement' style='border-collapse:collapse'>"
            f"{collections}</table>" if collections else "<i>no items yet</i>",
        )]  # fmt: skip
        if self.gains is not None and not self.gains.is_empty():
            parts.append(self._draw_gains(observation))
        head = "".join(f"<th style='{CELL}'>{h}</th>" for h in
                       ("seat", "Bucks", "items", "most it can bid"))  # fmt: skip
        rows = "".join(
            f"<tr><td style='{LEFT}'>seat {r['seat']} ({escape(self.session.label(r['seat']))})"
            f"</td><td style='{CELL}'>{r['bucks']}</td><td style='{CELL}'>{r['items']}</td>"
            f"<td style='{CELL}'>{r['most_bid']}</td></tr>"
            for r in self.bucks.iter_rows(named=True)
        )
        limit = ("no cube limit" if rules.cube_limit is None
                 else f"cube limit {rules.cube_limit}")  # fmt: skip
        parts.append(section(f"Bucks (the most a seat can bid: its Bucks, {limit})",
                              f"<table class='wb-panel-bucks' style='border-collapse:collapse'>"
                              f"<tr>{head}</tr>{rows}</table>"))  # fmt: skip
        return "".join(parts)

    def _draw_gains(self, observation: Observation) -> str:
        me = observation.player
        seats = sorted(set(self.gains["seat"].to_list()))
        head = "".join(
            f"<th style='{CELL}'>{'you' if s == me else f'seat {s}'}</th>" for s in seats
        )
        rows = ""
        for (lot,), part in self.gains.group_by("lot", maintain_order=True):
            cells = ""
            for r in part.iter_rows(named=True):
                text = f"{r['gain']:.0f}" if r["exact"] else (
                    f"{r['gain']:.1f} <span style='color:#666'>[{r['low']:.1f}, "
                    f"{r['high']:.1f}]</span>")  # fmt: skip
                cells += f"<td style='{CELL}'>{text}</td>"
            rows += (f"<tr><td style='{LEFT}'>lot {lot}: {escape(part['items'][0])}</td>"
                     f"{cells}</tr>")  # fmt: skip
        sampled = self.gains.filter(~pl.col("exact"))
        note = "exact: collections are open" if sampled.is_empty() else (
            f"yours exact; an opponent's items are secret: the mean over "
            f"{sampled['n'][0]:,} holdings drawn uniformly from what you can see, with 95% "
            "intervals")  # fmt: skip
        return section(
            "What each lot adds to a collection's value (were the game to end now)",
            f"<table class='wb-panel-gains' style='border-collapse:collapse'><tr><th></th>"
            f"{head}</tr>{rows}</table><div style='color:#666'>{note}</div>",
        )

    def describe(self, observation: Observation) -> str | None:
        """Your items, the Bucks each seat may bid and the lots."""
        if observation.phase == "over":
            return None
        return f"<div style='margin-bottom:4px'>{escape(knowledge(observation))}</div>"


def make_panel(session: Any, samples: int = OPPONENT_SAMPLES) -> GoingGonePanel:
    """The Going, Going, GONE! panel for a table session (``samples``: holdings drawn to value
    the lots for an opponent whose collection is secret)."""
    return GoingGonePanel(session, samples=samples)


__all__ = ["GoingGonePanel", "bucks_frame", "knowledge", "lot_gains", "make_panel"]
