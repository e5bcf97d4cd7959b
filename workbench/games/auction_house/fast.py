"""The compiled engine's Python side: new games for self-play (``play_new_games``), what a
played batch records (``Recording``), and the compiled policies of a line-up.

Randomness is drawn from the batch's numpy generator in a fixed order before the compiled loop
runs: the first dealers, every game's trump deck order, its 13 shuffles (always 13, so rule
variants share the deals; drawn by ``workbench.kit.streams.shuffle_rows``, number for number what
``rng.permuted`` draws), then one block of uniforms per deal (``layout.SLOTS`` per game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from workbench.errors import IllegalAction
from workbench.games.auction_house import compiled as c
from workbench.games.auction_house import layout
from workbench.games.auction_house.cards import DECK, TRUMP_DECK
from workbench.games.auction_house.engine import PHASES
from workbench.games.auction_house.policies import KIND_NAMES, PARAMETERS
from workbench.games.auction_house.rules import MAX_DEALS, PLAYERS, Rules
from workbench.kit.lineup import agent_label
from workbench.kit.streams import shuffle_rows


@dataclass(frozen=True)
class Policy:
    """A compiled policy: its kind (``policies.RANDOM``, ``HEURISTIC``), its parameter vector,
    and whether it may start an auction (False: it passes every time, plays as ``kind``)."""

    kind: int
    params: tuple[float, ...] = ()
    starts: bool = True


def lineup_policies(agents: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per seat: policy kind (int64), parameters (float64, PARAMETERS wide), may start (bool)."""
    kinds = np.zeros(PLAYERS, np.int64)
    params = np.zeros((PLAYERS, PARAMETERS), np.float64)
    starts = np.ones(PLAYERS, bool)
    for seat, agent in enumerate(agents):
        policy: Policy = agent.policy
        kinds[seat] = policy.kind
        params[seat, : len(policy.params)] = policy.params
        starts[seat] = policy.starts
    return kinds, params, starts


@dataclass
class Recording:
    """Per-deal facts of played games (arrays shaped (games, deals, ...), views of one int16
    block): for the frames, the kitty analyses and replay. -1: none (no auction, a tie)."""

    dealer: np.ndarray
    trump: np.ndarray
    starter: np.ndarray
    face_up: np.ndarray
    called: np.ndarray
    offers: np.ndarray  # (G, D, 4) by seat
    taken: np.ndarray
    taken_from: np.ndarray
    forced: np.ndarray
    kitty: np.ndarray  # (G, D, 4) by seat
    plays: np.ndarray  # (G, D, 36) card by play step
    tricks_won: np.ndarray  # (G, D, 4)
    kitty_winner: np.ndarray
    kitty_points: np.ndarray  # this deal's four cards
    carried_in: np.ndarray
    carried_out: np.ndarray
    lost: np.ndarray
    scores_after: np.ndarray  # (G, D, 4)

    @classmethod
    def of_block(cls, block: np.ndarray) -> Recording:
        """The named views of a (games, deals, ``layout.RECORD``) block."""
        wide = {
            "offers": layout.R_OFFERS,
            "kitty": layout.R_KITTY,
            "tricks_won": layout.R_WON,
            "scores_after": layout.R_SCORES_AFTER,
        }
        columns = {
            "dealer": layout.R_DEALER, "trump": layout.R_TRUMP, "starter": layout.R_STARTER,
            "face_up": layout.R_FACE_UP, "called": layout.R_CALLED, "taken": layout.R_TAKEN,
            "taken_from": layout.R_TAKEN_FROM, "forced": layout.R_FORCED,
            "kitty_winner": layout.R_KITTY_WINNER, "kitty_points": layout.R_KITTY_POINTS,
            "carried_in": layout.R_CARRIED_IN, "carried_out": layout.R_CARRIED_OUT,
            "lost": layout.R_LOST,
        }  # fmt: skip
        views = {name: block[:, :, at] for name, at in columns.items()}
        views |= {name: block[:, :, at : at + PLAYERS] for name, at in wide.items()}
        views["plays"] = block[:, :, layout.R_PLAYS : layout.R_PLAYS + PLAYERS * layout.TRICKS]
        return cls(**{f.name: views[f.name] for f in fields(cls)})

    @classmethod
    def empty(cls, games: int, deals: int) -> Recording:
        """A block of ``games`` x ``deals`` deals, every entry -1 until played."""
        return cls.of_block(np.full((games, deals, layout.RECORD), -1, np.int16))

    @property
    def block(self) -> np.ndarray:
        """The int16 block every field is a view of."""
        return self.dealer.base


@dataclass
class PlayedBatch:
    """Played new games: their chance (for replay) and final scores."""

    first_dealer: np.ndarray  # (G,)
    trump_cards: np.ndarray  # (G, 12) indices into TRUMP_DECK, top first
    shuffles: np.ndarray  # (G, 13, 40) card indices in dealing order
    scores: np.ndarray  # (G, 4)

    @property
    def games(self) -> int:
        return len(self.first_dealer)


def draw_chance(
    rules: Rules, games: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """First dealers, trump deck orders and 13 shuffles for ``games`` new games."""
    first = rng.integers(PLAYERS, size=games)
    if rules.first_dealer != "random":
        first = np.full(games, rules.first_dealer)
    trump_cards = np.empty((games, len(TRUMP_DECK)), np.int8)
    shuffle_rows(rng, trump_cards)  # as rng.permuted of tiled aranges would, faster
    shuffles = np.empty((games, MAX_DEALS, len(DECK)), np.int8)
    shuffle_rows(rng, shuffles.reshape(-1, len(DECK)))
    return first.astype(np.int64), trump_cards, shuffles


def raise_refused(error: np.ndarray, agents: Sequence[Any], deal: int) -> None:
    """Raise IllegalAction for a refused choice reported by ``compiled.play_rows``."""
    row, seat, phase, card, kind = (int(v) for v in error)
    if row < 0:
        return
    shown = DECK[card] if 0 <= card < len(DECK) else card
    kind_name = KIND_NAMES[kind] if 0 <= kind < len(KIND_NAMES) else f"unknown kind {kind}"
    raise IllegalAction(
        shown,
        f"agent {agent_label(agents[seat])!r} (policy {kind_name}) chose an illegal "
        f"{PHASES[phase]} choice in game {row} (deal {deal}, seat {seat})",
        [],
    )


def play_new_games(
    rules: Rules, agents: Sequence[Any], games: int, rng: np.random.Generator
) -> tuple[PlayedBatch, Recording]:
    """Play ``games`` new games with one compiled-policy agent per seat, drawing their chance
    and every decision's uniform from ``rng`` (see the module docstring for the order)."""
    first, trump_cards, shuffles = draw_chance(rules, games, rng)
    u = rng.random((rules.deals, games, layout.SLOTS))
    rows = np.zeros((games, layout.ROW), np.int64)
    rows[:, layout.DEALER] = first
    recording = Recording.empty(games, rules.deals)
    kinds, params, starts = lineup_policies(agents)
    error = c.play_rows(
        rows, trump_cards, shuffles, u, 1, kinds, params, starts,
        rules.deals, rules.trump_reveal == "before_auction", False, recording.block, True,
    )  # fmt: skip
    if error[0] >= 0:
        raise_refused(error, agents, int(rows[error[0], layout.DEAL]))
    scores = rows[:, layout.SCORES : layout.SCORES + PLAYERS].copy()
    return PlayedBatch(first, trump_cards, shuffles, scores), recording


def final_scores(batch: PlayedBatch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, ranks, win share) per game and seat; ties share a rank and the win."""
    scores = batch.scores
    ranks = 1 + (scores[:, None, :] > scores[:, :, None]).sum(axis=2)
    winners = ranks == 1
    share = winners / winners.sum(axis=1, keepdims=True)
    return scores, ranks, share
