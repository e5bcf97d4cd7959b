"""Exact equilibrium of the two-team shared budget auction, by backward induction: each round
is a zero-sum sealed-bid matrix game over the values of the positions it leads to (solved by
``workbench.matrix_games``), kept per round over every budget pair. Positions are keyed
canonically (functions no remaining card supplies only count as a lead); among optimal pure
bids the one best against a uniformly random opponent, then the lowest, is played."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from workbench.checks import choice, instance_or_default, whole_number
from workbench.games.shared_budget.rules import (
    MAX_BUDGET,
    Rules,
    _award,
    _standings,
    priority_order,
)
from workbench.matrix_games import TOLERANCE, MatrixGameSolution, solve_matrix_game

OBJECTIVES = ("win", "score")
METHODS = ("auto", "lp")
#: ``solve`` refuses a rule set whose estimated solve time is longer than this (seconds),
#: unless it is given a larger ``max_seconds``.
MAX_SECONDS = 60.0
#: Estimated solves at least this long (seconds) show a progress bar.
PROGRESS_SECONDS = 3.0
#: The work model behind ``estimate_solve``: a (round, coverage) layer solves the stage games
#: of all (budget + 1)**2 budget pairs at once, about _LAYER_SECONDS + _ENTRY_SECONDS *
#: (budget + 1)**4; a linear programme about _LP_SECONDS + _LP_CELL_SECONDS * its entries.
#: ``bench/shared_budget.py`` prints the estimate beside the measured time, to recalibrate.
_LAYER_SECONDS = 1.5e-4
_ENTRY_SECONDS = 1e-8
_LP_SECONDS = 1e-3
_LP_CELL_SECONDS = 5e-7
#: Budget values handled per vectorised block: at most this many payoff entries at once.
_BLOCK_ENTRIES = 2_000_000

Key = tuple[int, int, int]
#: Both teams' budgets, and both teams' covered functions (names, or '+'-joined text).
Budgets = tuple[int, int]
Coverages = tuple[Iterable[str], Iterable[str]]


@dataclass(frozen=True)
class StageGame:
    """One position's stage game and its solution: ``payoffs[x, y]`` is A's value when A bids x
    and B bids y (continuation included); ``strategies`` each team's probabilities over bids
    0..budget; ``optimal_bids`` the pure bids that alone guarantee the value."""

    round: int
    card: str
    budgets: tuple[int, int]
    coverage: tuple[tuple[str, ...], tuple[str, ...]]
    priority: tuple[int, ...]
    payoffs: np.ndarray
    value: float
    strategies: tuple[np.ndarray, np.ndarray]
    optimal_bids: tuple[tuple[int, ...], tuple[int, ...]]
    method: str

    def bid_distribution(self, team: int) -> dict[int, float]:
        """{bid: probability} of ``team`` (0 = A, 1 = B) over the bids it may play."""
        return _distribution(self.strategies[team])


@dataclass
class _Layer:
    """A round x canonical coverage key: values and pure equilibrium bids over (budget A, budget
    B), -1 where the stage game is mixed (solved in ``mixed``)."""

    value: np.ndarray
    bids: tuple[np.ndarray, np.ndarray] | None = None
    mixed: dict[tuple[int, int], MatrixGameSolution] = field(default_factory=dict)


class Solution:
    """The solved game: ``value`` for the first team, and each position's stage game."""

    def __init__(self, rules: Rules, objective: str, method: str) -> None:
        self.rules = rules
        self.objective = objective
        self.method = method
        self.budget = rules.budget
        self.card_masks = rules.card_masks()
        self._remaining = rules.remaining_masks()
        self._layers: dict[tuple[int, Key], _Layer] = {}
        self._winner_matrices: dict[tuple[int, ...], np.ndarray] = {}
        self.stage_games_saddle = 0
        self.stage_games_lp = 0
        self.seconds = 0.0
        self.value = float("nan")
        self._progress: Any = None  # a progress bar advanced once per solved layer

    def __repr__(self) -> str:
        return (
            f"Solution(objective={self.objective!r}, value={self.value:.6g}, "
            f"layers={len(self._layers)}, stage games: {self.stage_games_saddle} saddle, "
            f"{self.stage_games_lp} lp, {self.seconds:.2f} s)"
        )

    # -- queries -------------------------------------------------------------------------------

    def value_at(
        self, round: int = 1, budgets: Budgets | None = None, coverage: Coverages = ((), ())
    ) -> float:
        """The first team's value at the start of ``round`` (1-based; rounds + 1 = the end)."""
        k, a, b, masks = self._position(round, budgets, coverage, allow_end=True)
        return float(self._layer(k, self._key(k, *masks)).value[a, b])

    def values(self, round: int = 1, coverage: Coverages = ((), ())) -> np.ndarray:
        """The first team's value at the start of ``round`` for every budget pair:
        ``values[a, b]`` with A holding a credits and B holding b (a copy)."""
        k, _, _, masks = self._position(round, None, coverage, allow_end=True)
        return self._layer(k, self._key(k, *masks)).value.copy()

    def stage(
        self, round: int = 1, budgets: Budgets | None = None, coverage: Coverages = ((), ())
    ) -> StageGame:
        """The stage game at the start of ``round`` with these budgets and coverages, solved."""
        k, a, b, masks = self._position(round, budgets, coverage, allow_end=False)
        key = self._key(k, *masks)
        layer = self._layer(k, key)
        payoffs = self._payoffs(k, key, a, b)
        strategies = self._strategies(layer, a, b)
        value = float(layer.value[a, b])
        rows = tuple(int(x) for x in np.flatnonzero(payoffs.min(axis=1) >= value - TOLERANCE))
        cols = tuple(int(y) for y in np.flatnonzero(payoffs.max(axis=0) <= value + TOLERANCE))
        return StageGame(
            round=k + 1,
            card=self.rules.projects[k].name,
            budgets=(a, b),
            coverage=(self.rules.names(masks[0]), self.rules.names(masks[1])),
            priority=priority_order(self.rules, k),
            payoffs=payoffs,
            value=value,
            strategies=strategies,
            optimal_bids=(rows, cols),
            method="lp" if (a, b) in layer.mixed else "saddle",
        )

    def strategy(
        self, round_index: int, budgets: tuple[int, int], coverage: tuple[int, int]
    ) -> tuple[dict[int, float], dict[int, float]]:
        """Equilibrium {bid: probability} of A and of B at a position given by masks (fast)."""
        layer = self._layer(round_index, self._key(round_index, *coverage))
        a, b = budgets
        bid_a, bid_b = layer.bids  # type: ignore[misc]
        if bid_a[a, b] >= 0:
            return {int(bid_a[a, b]): 1.0}, {int(bid_b[a, b]): 1.0}
        mixed = layer.mixed[(a, b)]
        return _distribution(mixed.row_strategy), _distribution(mixed.column_strategy)

    def position_value(
        self, round_index: int, budgets: tuple[int, int], coverage: tuple[int, int]
    ) -> float:
        """The first team's value at a position given by masks (fast; round 0-based)."""
        layer = self._layer(round_index, self._key(round_index, *coverage))
        return float(layer.value[budgets[0], budgets[1]])

    def reachable_positions(self) -> Iterator[tuple[int, int, int, int, int]]:
        """Every (round index, budget A, budget B, coverage mask A, mask B) at the start of a
        round that some play of the game reaches from the opening position."""
        start = np.zeros((self.budget + 1, self.budget + 1), dtype=bool)
        start[self.budget, self.budget] = True
        frontier = {(0, 0): start}
        for k in range(self.rules.rounds):
            for (mask_a, mask_b), reach in sorted(frontier.items()):
                for a, b in zip(*np.nonzero(reach), strict=True):
                    yield k, int(a), int(b), mask_a, mask_b
            frontier = _advance(frontier, self.card_masks[k])

    def policy_vector(self) -> np.ndarray:
        """Every position's equilibrium play, flat, as the compiled loop reads it
        (``policies.equilibrium_bid``): budget + 1, the coverage masks' count, then each team's
        bid at [team, round, coverage A, coverage B, budget A, budget B], a mixed stage game's
        entry -1 - (the start of its bids' cumulative probabilities, appended after)."""
        n, sets = self.budget + 1, 1 << len(self.rules.functions)
        bids = np.zeros((2, self.rules.rounds, sets, sets, n, n))  # policy_entries(rules) of them
        cumulative: list[np.ndarray] = []
        for k, mask_a, mask_b in np.ndindex(self.rules.rounds, sets, sets):
            layer = self._layer(k, self._key(k, mask_a, mask_b))
            for team in (0, 1):
                bids[team, k, mask_a, mask_b] = layer.bids[team]  # type: ignore[index]
            for (a, b), solved in layer.mixed.items():
                for team, strategy in enumerate((solved.row_strategy, solved.column_strategy)):
                    start = 2 + bids.size + n * len(cumulative)
                    bids[team, k, mask_a, mask_b, a, b] = -1 - start
                    running = np.ones(n)  # bids above this team's budget: never drawn
                    running[: len(strategy)] = np.minimum(np.cumsum(strategy), 1.0)
                    cumulative.append(running)
        return np.concatenate([[n, sets], bids.ravel(), *cumulative])

    @property
    def layers(self) -> int:
        """Solved (round, canonical coverage) layers, each over every budget pair."""
        return len(self._layers)

    @property
    def stage_layers(self) -> int:
        """Solved layers with a stage game (all but the end-of-game layers): the work unit of
        ``estimate_solve``."""
        return sum(1 for k, _ in self._layers if k < self.rules.rounds)

    # -- internals -----------------------------------------------------------------------------

    def _position(
        self, round: int, budgets: Budgets | None, coverage: Coverages, *, allow_end: bool
    ) -> tuple[int, int, int, tuple[int, int]]:
        last = self.rules.rounds + (1 if allow_end else 0)
        round = whole_number("round", round, low=1, high=last, allowed=f"an int from 1 to {last}")
        allowed = f"two ints from 0 to the budget {self.budget}"
        budgets = (self.budget, self.budget) if budgets is None else budgets
        if isinstance(budgets, str) or not isinstance(budgets, Sequence) or len(budgets) != 2:
            raise TypeError(f"budgets must be {allowed}, got {budgets!r}")
        a, b = (
            whole_number("budgets", v, low=0, high=self.budget, allowed=allowed) for v in budgets
        )
        if isinstance(coverage, str) or not isinstance(coverage, Sequence) or len(coverage) != 2:
            raise TypeError(
                f"coverage must give two teams' functions (names, or '+'-joined text), got "
                f"{coverage!r}"
            )
        masks = (self.rules.mask(coverage[0]), self.rules.mask(coverage[1]))
        return round - 1, a, b, masks

    def _key(self, k: int, mask_a: int, mask_b: int, lead: int = 0) -> Key:
        """Canonical key: coverage of functions still on offer, and the lead in the others."""
        live = self._remaining[k]
        settled = (mask_a & ~live).bit_count() - (mask_b & ~live).bit_count()
        return mask_a & live, mask_b & live, lead + settled

    def _continuations(self, k: int, key: Key) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The values after round k when A takes the card, B takes it, nobody does."""
        return tuple(self._layer(k + 1, c).value for c in self._children(k, key))  # type: ignore[return-value]

    def _children(self, k: int, key: Key) -> tuple[Key, Key, Key]:
        """Keys after round k: A takes the card, B takes it, nobody does."""
        mask_a, mask_b, lead = key
        card = self.card_masks[k]
        return (
            self._key(k + 1, mask_a | card, mask_b, lead),
            self._key(k + 1, mask_a, mask_b | card, lead),
            self._key(k + 1, mask_a, mask_b, lead),
        )

    def _winner_matrix(self, k: int) -> np.ndarray:
        """winner[x, y] in {0 (A), 1 (B), -1 (nobody)} for bids x, y: the rules' own award."""
        priority = priority_order(self.rules, k)
        if priority not in self._winner_matrices:
            n = self.budget + 1
            matrix = np.array(
                [
                    [-1 if (w := _award((x, y), priority)) is None else w for y in range(n)]
                    for x in range(n)
                ],
                dtype=np.int8,
            )
            self._winner_matrices[priority] = matrix
        return self._winner_matrices[priority]

    def _layer(self, k: int, key: Key) -> _Layer:
        found = self._layers.get((k, key))
        if found is None:
            if k == self.rules.rounds:
                found = _Layer(self._terminal_values(key[2]))
            else:
                found = self._solve_layer(k, key)
                if self._progress is not None:
                    self._progress.update(1)
            self._layers[(k, key)] = found
        return found

    def _terminal_values(self, lead: int) -> np.ndarray:
        n = self.budget + 1
        if self.objective == "score":
            return np.full((n, n), float(lead))
        scores = (max(lead, 0), max(-lead, 0))
        tiebreak = self.rules.final_tiebreak
        return np.array(
            [[_standings(scores, (a, b), tiebreak)[2][0] for b in range(n)] for a in range(n)]
        )

    def _payoffs(self, k: int, key: Key, a: int, b: int) -> np.ndarray:
        """The stage game at one position: rows A's bids 0..a, columns B's bids 0..b."""
        after_a, after_b, after_none = self._continuations(k, key)
        winner = self._winner_matrix(k)[: a + 1, : b + 1]
        x = np.arange(a + 1)[:, None]
        y = np.arange(b + 1)[None, :]
        when_b = np.where(winner == 1, after_b[a, b - y], after_none[a, b])
        return np.where(winner == 0, after_a[a - x, b], when_b)

    def _strategies(self, layer: _Layer, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        if (a, b) in layer.mixed:
            mixed = layer.mixed[(a, b)]
            return mixed.row_strategy, mixed.column_strategy
        row, col = np.zeros(a + 1), np.zeros(b + 1)
        row[layer.bids[0][a, b]] = 1.0  # type: ignore[index]
        col[layer.bids[1][a, b]] = 1.0  # type: ignore[index]
        return row, col

    def _solve_layer(self, k: int, key: Key) -> _Layer:
        after_a, after_b, after_none = self._continuations(k, key)
        n = self.budget + 1
        bids = np.arange(n)
        winner = self._winner_matrix(k)
        b_wins, nobody = winner == 1, winner == -1
        spent = np.clip(bids[:, None] - bids[None, :], 0, None)  # [budget, bid] -> budget - bid
        valid = bids[None, :] <= bids[:, None]  # [budget, bid]: the bid is affordable
        value = np.empty((n, n))
        bid_a = np.empty((n, n), dtype=np.int16)
        bid_b = np.empty((n, n), dtype=np.int16)
        layer = _Layer(value, (bid_a, bid_b))
        block = max(1, _BLOCK_ENTRIES // n**3)
        for start in range(0, n, block):
            rows = bids[start : start + block]  # budgets of A in this block
            # payoffs[a, b, x, y] for every budget pair (a, b) and bid pair (x, y)
            when_a = after_a[spent[rows]].transpose(0, 2, 1)[:, :, :, None]
            when_b = after_b[rows][:, spent][:, :, None, :]
            when_none = after_none[rows][:, :, None, None]
            payoffs = np.empty((len(rows), n, n, n))
            payoffs[...] = when_a
            np.copyto(payoffs, when_b, where=b_wins)
            np.copyto(payoffs, when_none, where=nobody)
            ok_x = valid[rows][:, None, :]  # [a, 1, x]
            ok_y = valid[None, :, :]  # [1, b, y]
            # Among optimal pure bids: best against a uniformly random opponent, then lowest.
            vs_random_a = np.einsum("abxy,by->abx", payoffs, ok_y[0].astype(float))
            vs_random_a /= (bids + 1)[None, :, None]
            vs_random_b = np.einsum("abxy,ax->aby", payoffs, ok_x[:, 0].astype(float))
            vs_random_b /= (rows + 1)[:, None, None]
            # Unaffordable bids drop out: +inf for B's in a row minimum, -inf for A's in a
            # column maximum (entries where both are unaffordable are never read).
            np.copyto(payoffs, np.inf, where=ok_x[..., None] & ~ok_y[:, :, None, :])
            np.copyto(payoffs, -np.inf, where=~ok_x[..., None])
            row_min = payoffs.min(axis=3)
            col_max = payoffs.max(axis=2)
            lower = np.where(ok_x, row_min, -np.inf).max(axis=2)
            upper = np.where(ok_y, col_max, np.inf).min(axis=2)
            good_a = ok_x & (row_min >= lower[..., None] - TOLERANCE)
            good_b = ok_y & (col_max <= upper[..., None] + TOLERANCE)
            bid_a[rows] = np.argmax(np.where(good_a, np.round(vs_random_a, 12), -np.inf), axis=2)
            bid_b[rows] = np.argmin(np.where(good_b, np.round(vs_random_b, 12), np.inf), axis=2)
            value[rows] = lower
            saddle = upper - lower <= TOLERANCE
            if self.method == "lp":
                saddle[:] = False
            self.stage_games_saddle += int(saddle.sum())
            for i, b in zip(*np.nonzero(~saddle), strict=True):
                a = int(rows[i])
                game = payoffs[i, b, : a + 1, : b + 1]
                solved = solve_matrix_game(game, check_saddle=self.method == "auto")
                layer.mixed[(a, int(b))] = solved
                value[a, b] = solved.value
                bid_a[a, b] = bid_b[a, b] = -1
                self.stage_games_lp += 1
        return layer


class SolveEstimate(NamedTuple):
    """How much work ``solve`` would do, before doing it: ``layers`` (None past
    ``counted_up_to``), ``stage_games``, ESTIMATED ``seconds`` on one core (a lower bound when
    not all counted) and the ``largest_budget`` that fits in ``max_seconds`` (0: none)."""

    layers: int | None
    counted_up_to: int
    budget: int
    stage_games: int | None
    seconds: float
    max_seconds: float
    largest_budget: int

    @property
    def fits(self) -> bool:
        return self.layers is not None and self.seconds <= self.max_seconds

    def describe(self) -> str:
        if self.layers is None:
            work = f"more than {self.counted_up_to:,} (round, coverage) layers"
            time_text = f"at least {_duration(self.seconds)}"
        else:
            work = (
                f"{self.layers:,} (round, coverage) layers x {(self.budget + 1) ** 2:,} budget "
                f"pairs = {self.stage_games:,} stage games"
            )
            time_text = f"about {_duration(self.seconds)}"
        return f"{work}, each over up to {(self.budget + 1) ** 2:,} bid pairs: {time_text}"


def estimate_solve(
    rules: Rules | None = None, *, method: str = "auto", max_seconds: float = MAX_SECONDS
) -> SolveEstimate:
    """Estimate the work and time of ``solve(rules, method=method)`` without solving: the
    (round, coverage) layers it visits (the budget does not change them) under the work model.
    An estimate, not a promise: mixed stage games (rare with "auto") add about 1 ms each."""
    rules = _solvable(rules)
    method = choice("method", method, METHODS)
    max_seconds = _positive_seconds(max_seconds)
    # Counting stops once even the smallest budget could not fit: the answer is then "no".
    cap = int(max_seconds / _layer_seconds(1, method)) + 1
    layers = _count_layers(rules, cap)
    n = rules.budget + 1
    if layers is None:
        seconds = (cap + 1) * _layer_seconds(rules.budget, method)
        largest = 0
    else:
        seconds = layers * _layer_seconds(rules.budget, method)
        largest = 0
        while largest < MAX_BUDGET and layers * _layer_seconds(largest + 1, method) <= max_seconds:
            largest += 1
    return SolveEstimate(
        layers=layers,
        counted_up_to=cap,
        budget=rules.budget,
        stage_games=None if layers is None else layers * n * n,
        seconds=seconds,
        max_seconds=max_seconds,
        largest_budget=largest,
    )


def _layer_seconds(budget: int, method: str) -> float:
    """Estimated seconds to solve one layer at this budget (see the work model)."""
    n = budget + 1
    seconds = _LAYER_SECONDS + _ENTRY_SECONDS * n**4
    if method == "lp":  # a linear programme for every stage game, of (a + 1) x (b + 1) bids
        seconds += n * n * (_LP_SECONDS + _LP_CELL_SECONDS * ((n + 1) / 2) ** 2)
    return seconds


def _count_layers(rules: Rules, cap: int) -> int | None:
    """Layers with a stage game that the solve visits from the opening, or None past ``cap``."""
    counter = Solution(rules, "win", "auto")
    frontier = {counter._key(0, 0, 0)}
    count = 0
    for k in range(rules.rounds):
        count += len(frontier)
        if count > cap:
            return None
        frontier = {child for key in frontier for child in counter._children(k, key)}
    return count


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def solve(
    rules: Rules | None = None,
    objective: str = "win",
    *,
    method: str = "auto",
    max_seconds: float = MAX_SECONDS,
    progress: bool | None = None,
) -> Solution:
    """Solve the two-team game exactly: the first team's value and every position's equilibrium.

    objective: "win" (1 win, 1/2 shared, 0 loss; the rulebook's result) or "score" (the first
    team's functions covered minus the second's). method: "auto" (saddle point first, linear
    programme otherwise) or "lp" (a linear programme for every stage game: a slow cross-check).
    The work is estimated first (``estimate_solve``): a rule set estimated to take longer than
    ``max_seconds`` is refused with the estimate and the largest budget that would fit; a solve
    estimated at ``PROGRESS_SECONDS`` or more shows a progress bar (``progress`` True/False
    forces it on or off).
    """
    rules = _solvable(rules)
    objective = choice("objective", objective, OBJECTIVES)
    method = choice("method", method, METHODS)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None (automatic), got {progress!r}")
    estimate = estimate_solve(rules, method=method, max_seconds=max_seconds)
    if not estimate.fits:
        fit = (
            f"budget={estimate.largest_budget} or less fits for these cards and functions"
            if estimate.largest_budget
            else "no budget fits these cards and functions: use fewer cards or functions"
        )
        raise ValueError(
            f"solve would take too long: {estimate.describe()} (limit max_seconds="
            f"{estimate.max_seconds:g}). {fit}; or pass a larger max_seconds, or estimate "
            "play with simulate(rules, agents, ...)"
        )
    started = time.perf_counter()
    solution = Solution(rules, objective, method)
    show = estimate.seconds >= PROGRESS_SECONDS if progress is None else progress
    if show:
        from tqdm.auto import tqdm

        solution._progress = tqdm(
            total=estimate.layers, unit="layer", desc="shared_budget solve", leave=False
        )
    try:
        n = rules.budget
        solution.value = float(solution._layer(0, solution._key(0, 0, 0)).value[n, n])
    finally:
        if solution._progress is not None:
            solution._progress.close()
            solution._progress = None
    solution.seconds = time.perf_counter() - started
    return solution


def policy_entries(rules: Rules) -> int:
    """The pure entries of ``Solution.policy_vector`` for ``rules``: each team's bid at every
    round, pair of coverages and pair of budgets."""
    return 2 * rules.rounds * 4 ** len(rules.functions) * (rules.budget + 1) ** 2


def _solvable(rules: object) -> Rules:
    """``rules`` (None: the defaults) if ``solve`` can play them: two teams, the auction."""
    rules = instance_or_default("rules", rules, Rules, Rules, "a shared_budget Rules or None")
    if rules.variant != "auction":
        raise ValueError(
            "solve plays the sealed-bid auction; the classroom variant is one group at fixed "
            "prices: see classroom_plans(rules) for its exact best plans"
        )
    if rules.teams != 2:
        raise ValueError(
            f"solve needs exactly 2 teams, got teams={rules.teams}: with more than two the game "
            "is general-sum (one team's loss is not a single rival's gain), so no minimax value "
            "defines play; at 3 teams solve_three finds a subgame-perfect equilibrium, else "
            "estimate with simulate(rules, agents, ...)"
        )
    return rules


def _positive_seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"max_seconds must be a positive number of seconds, got {value!r}")
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"max_seconds must be a positive number of seconds, got {value!r}")
    return float(value)


def _distribution(probabilities: np.ndarray) -> dict[int, float]:
    return {int(bid): float(p) for bid, p in enumerate(probabilities) if p > 0}


def _advance(
    frontier: dict[tuple[int, int], np.ndarray], card: int
) -> dict[tuple[int, int], np.ndarray]:
    """Positions reachable one round later: the card goes to A (paying 1..a), B, or nobody."""
    reached: dict[tuple[int, int], np.ndarray] = {}

    def add(key: tuple[int, int], reach: np.ndarray) -> None:
        reached[key] = reached[key] | reach if key in reached else reach

    for (mask_a, mask_b), reach in frontier.items():
        add((mask_a, mask_b), reach)
        # budgets strictly below some reachable budget (the winner paid at least 1)
        below_a = np.zeros_like(reach)
        below_a[:-1] = np.logical_or.accumulate(reach[::-1], axis=0)[::-1][1:]
        below_b = np.zeros_like(reach)
        below_b[:, :-1] = np.logical_or.accumulate(reach[:, ::-1], axis=1)[:, ::-1][:, 1:]
        add((mask_a | card, mask_b), below_a)
        add((mask_a, mask_b | card), below_b)
    return reached
