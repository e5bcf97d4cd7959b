"""Reference agents for Going, Going, GONE!, weakest to strongest.

Every agent is called as ``agent(observation, legal_actions, rng) -> action``. All of them are
written once, over batches (``choose_allocations`` / ``choose_sales`` on a ``View``), and the
step-by-step call runs the same code on a batch of one, so the fast engine and ``State.apply``
play exactly the same policy. A batch agent plans its whole sale at once; the step call returns
the plan's next collection (or ``DoneSelling()``), recomputing the same plan from facts that do
not change while the sale is sealed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from workbench.games.going_gone.actions import (
    Action,
    Allocation,
    DoneSelling,
    Sell,
    allocation_count,
    unrank_allocations,
)
from workbench.games.going_gone.arrangement import batch_values
from workbench.games.going_gone.batch import Draw, View
from workbench.games.going_gone.bits import (
    GRID,
    bit_counts,
    collection_counts,
    item_bits,
    items_of,
    mask_of,
    masks_of_bytes,
    nth_collection,
    popcount,
    transpose,
    type_bytes,
)
from workbench.games.going_gone.engine import Observation
from workbench.games.going_gone.rules import Rules
from workbench.kit.batching import BatchWrittenAgent
from workbench.kit.lineup import make_named_agent


def view_of(observation: Observation) -> View:
    """A batch of one: the observing seat's view, for the batch-written agents."""
    rules = observation.rules
    open_ = rules.open_collections

    def masks(per_seat: Sequence[object]) -> np.ndarray:
        return np.array([[_mask(rules, entry) for entry in per_seat]], dtype=np.uint64)

    return View(
        rules=rules,
        phase="sell" if observation.phase == "sell" else "bid",
        rounds_done=observation.round - 1,
        seat=np.array([observation.player]),
        auctioneer=np.array([observation.auctioneer]),
        lots=np.array([[mask_of(rules, lot) for lot in observation.lots]], dtype=np.uint64),
        bucks=np.array([observation.bucks], dtype=np.int64),
        item_counts=np.array([observation.item_counts], dtype=np.int64),
        holding=np.array([mask_of(rules, observation.holding)], dtype=np.uint64),
        holdings=masks(observation.holdings) if open_ else None,
        sold=masks(observation.sold) if open_ else None,
    )


def _mask(rules: Rules, entry: object) -> int:
    if entry is None:
        return 0
    items: list[int] = []
    for part in entry:  # a holding (item ids) or sold collections (tuples of ids)
        items.extend(part if isinstance(part, tuple) else (part,))
    return mask_of(rules, items)


class _BatchWrittenAgent(BatchWrittenAgent):
    """Going, Going, GONE!'s batch methods (allocations, sales); the step call runs them on a
    batch of one."""

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        view = view_of(observation)
        if observation.phase == "bid":
            bids = self.choose_allocations(view, lambda k: rng.random((1, k)))[0]
            return Allocation(tuple(int(b) for b in bids))
        plan = [m for m in self.choose_sales(view, lambda k: rng.random((1, k)))[0] if m]
        done = len(observation.pending_sale)
        if done < len(plan):
            return Sell(items_of(observation.rules, plan[done]))
        return DoneSelling()


class RandomAgent(_BatchWrittenAgent):
    """Uniformly random among the legal actions (the baseline every other agent must beat).

    Bidding: one of all allocations of at most its budget, each equally likely (so it usually
    spends most of its budget). Selling: at each step ``DoneSelling()`` or one of the
    collections it could still sell, each equally likely.
    """

    name = "random"
    policy_kind = 0
    policy_params = np.zeros(6)

    def choose_allocations(self, view: View, draw: Draw) -> np.ndarray:
        cups = view.rules.cups
        budget = view.budget
        counts = np.array([allocation_count(int(b), cups) for b in budget], dtype=np.int64)
        return unrank_allocations((draw(1)[:, 0] * counts).astype(np.int64), budget, cups)

    def choose_sales(self, view: View, draw: Draw) -> np.ndarray:
        available = view.holding.copy()
        active = np.ones(view.size, bool)
        chosen = []
        while active.any():
            options = collection_counts(available)
            pick = (draw(1)[:, 0] * (options + 1)).astype(np.int64)
            selling = active & (pick > 0)
            collection = np.where(
                selling, nth_collection(available, np.maximum(pick - 1, 0)), np.uint64(0)
            )
            chosen.append(collection)
            available &= ~collection
            active = selling
        return np.stack(chosen, axis=1) if chosen else np.zeros((view.size, 0), np.uint64)

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        # The batch formulas reduce to this on one seat (both engines list legal actions in the
        # same order); a test checks the two agree.
        return legal_actions[int(rng.random() * len(legal_actions))]


class ValuationAgent(_BatchWrittenAgent):
    """Bids by the exact marginal value of each lot, spreads its Bucks, sells for Bucks.

    - Bidding: the marginal value of lot j is ``best(holding + lot) - best(holding)`` (exact).
      It bids ``bid_share`` of it (at least 1 Buck on a lot worth anything; ``last_share`` in the
      last round, where a lot's marginal value is final), and if those bids exceed its budget
      scales them all down in proportion.
    - Selling: a sale never beats holding at the end (the best arrangement can always include
      the sold collection), so it sells only when it needs Bucks: before the last round, while
      it has fewer than ``reserve`` Bucks, it sells a collection of its arrangement — the one
      paying most per Bucks of value given up, then the most Bucks (with the rulebook's table,
      its largest collection).

    Its values come from ``greedy_arrangement`` (every item in the longer of its two lines):
    quick enough for 10,000 games a second, and exact for most holdings a player builds, but a
    lower bound on the best arrangement in general; the collector agent uses exact values.
    """

    name = "valuation"

    def __init__(self, bid_share: float = 0.6, last_share: float = 0.85, reserve: int = 8) -> None:
        for label, share in (("bid_share", bid_share), ("last_share", last_share)):
            if isinstance(share, bool) or not isinstance(share, int | float) or not 0 < share <= 1:
                raise ValueError(f"{label} must be a number in (0, 1], got {share!r}")
        if isinstance(reserve, bool) or not isinstance(reserve, int | np.integer) or reserve < 0:
            raise ValueError(f"reserve must be a whole number >= 0, got {reserve!r}")
        self.bid_share = float(bid_share)
        self.last_share = float(last_share)
        self.reserve = int(reserve)
        self.policy_kind = 1
        self.policy_params = np.array([self.bid_share, self.last_share, self.reserve, 0, 0, 0.0])


    def choose_allocations(self, view: View, draw: Draw) -> np.ndarray:
        best = np.asarray(view.rules.best_line_values)
        marginal = insertion_marginals(greedy_lines(view.holding), view, best)
        share = self.last_share if view.rounds_left == 0 else self.bid_share
        return bid_shares(marginal, share, view, draw)

    def choose_sales(self, view: View, draw: Draw) -> np.ndarray:
        if view.rounds_left == 0:
            return np.zeros((view.size, 0), np.uint64)
        return sell_arranged(view, self.reserve, max_sales=3)


class CollectorAgent(_BatchWrittenAgent):
    """Values lots by the collections they can grow into, and keeps Bucks to bid with.

    - Lot value: ``1 - projection`` parts its exact marginal value now plus ``projection``
      parts its projected marginal value: each line's count is raised by ``capture`` times the
      items of that line it expects to be dealt later (the line's unseen items times the share
      of unseen cards still to come; with open collections, other players' items and sold
      collections are seen too), and each item of the lot joins the line where it adds most to
      that projection (collection values interpolated between sizes). In the last round the
      projection is zero.
    - Bidding: ``bid_share`` of that value (``last_share`` in the last round), at least 1 Buck
      on a lot worth anything, scaled down in proportion to fit its budget.
    - Selling: before the last round, while it has fewer than ``reserve`` Bucks, the whole line
      that gives up least value per Buck received (exact values).

    ``exact_values=False`` uses the quick arrangement of ``greedy_lines`` instead of the exact
    solver (faster, a little weaker).
    """

    name = "collector"

    def __init__(
        self,
        bid_share: float = 0.6,
        last_share: float = 0.85,
        reserve: int = 15,
        projection: float = 0.5,
        capture: float = 0.5,
        exact_values: bool = True,
    ) -> None:
        self.bid_share = _fraction("bid_share", bid_share)
        self.last_share = _fraction("last_share", last_share)
        self.reserve = _whole("reserve", reserve)
        self.projection = _fraction("projection", projection, zero=True)
        self.capture = _fraction("capture", capture, zero=True)
        if not isinstance(exact_values, bool):
            raise ValueError(f"exact_values must be True or False, got {exact_values!r}")
        self.exact_values = exact_values
        self.policy_kind = 2
        self.policy_params = np.array([self.bid_share, self.last_share, self.reserve,
            self.projection, self.capture, float(exact_values)])


    def choose_allocations(self, view: View, draw: Draw) -> np.ndarray:
        best = np.asarray(view.rules.best_line_values)
        counts = greedy_lines(view.holding)
        if self.exact_values:
            marginal = lot_marginals(view).astype(np.float64)
        else:
            marginal = insertion_marginals(counts, view, best).astype(np.float64)
        if view.rounds_left > 0 and self.projection > 0:
            projected = projected_marginals(counts, view, best, self.capture)
            marginal = (1 - self.projection) * marginal + self.projection * projected
            share = self.bid_share
        else:
            share = self.last_share
        return bid_shares(marginal, share, view, draw)

    def choose_sales(self, view: View, draw: Draw) -> np.ndarray:
        if view.rounds_left == 0:
            return np.zeros((view.size, 0), np.uint64)
        value = batch_values if self.exact_values else greedy_value
        return sell_for_bucks(view, self.reserve, max_sales=3, value=value)


def projected_marginals(
    counts: np.ndarray, view: View, best: np.ndarray, capture: float
) -> np.ndarray:
    """(N, cups): each lot's value to line counts raised by the items each line can expect to
    win later (see ``CollectorAgent``); items counted independently, values interpolated."""
    rules = view.rules
    seen = view.holding | np.bitwise_or.reduce(view.lots, axis=1)
    if view.holdings is not None:
        seen = seen | np.bitwise_or.reduce(view.holdings, axis=1)
    if view.sold is not None:
        seen = seen | np.bitwise_or.reduce(view.sold, axis=1)
    unseen = np.uint64(int(np.bitwise_or.reduce(item_bits(rules)))) & ~seen
    by_line = np.concatenate(
        [bit_counts(type_bytes(unseen)), bit_counts(type_bytes(transpose(unseen)))], axis=1
    )
    to_come = rules.items_per_round * view.rounds_left
    dealt_share = to_come / np.maximum(popcount(unseen), 1)
    projected = counts + capture * by_line * np.minimum(dealt_share, 1)[:, None]
    sizes = np.arange(len(best))
    types, countries, present = lot_lines(view)
    value = np.zeros(types.shape[:2])
    for i in range(types.shape[2]):
        gains = []
        for lines in (types[..., i], countries[..., i]):
            at = np.take_along_axis(projected, lines, axis=1)
            gains.append(np.interp(at + 1, sizes, best) - np.interp(at, sizes, best))
        value += np.where(present[..., i], np.maximum(*gains), 0)
    return value


def _fraction(name: str, value: object, *, zero: bool = False) -> float:
    low = "[0, 1]" if zero else "(0, 1]"
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | np.integer | np.floating)
        or not (0 <= value <= 1 if zero else 0 < value <= 1)
    ):
        raise ValueError(f"{name} must be a number in {low}, got {value!r}")
    return float(value)


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    return int(value)


def greedy_arrangement(holding: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A quick arrangement: every item joins the longer of its type and country lines (the
    type on a tie). Returns (counts, lines): (N, 16) item counts and item masks per line, types
    0-7 then countries 0-7. Exact when no item has company in both of its lines, a lower bound
    otherwise (``arrangement`` is exact)."""
    rows = type_bytes(holding)
    type_sizes = np.bitwise_count(rows)  # uint8: small arrays, fast comparisons
    country_sizes = np.bitwise_count(type_bytes(transpose(holding)))
    # shorter_or_equal[n, r]: the countries whose line is no longer than r, as a byte
    thresholds = np.arange(GRID + 1, dtype=np.uint8)[None, :, None]
    shorter_or_equal = np.packbits(
        country_sizes[:, None, :] <= thresholds, axis=2, bitorder="little"
    )[:, :, 0]
    to_type = rows & np.take_along_axis(shorter_or_equal, type_sizes, axis=1)
    to_country = masks_of_bytes(rows & ~to_type)
    by_country = type_bytes(transpose(to_country))
    counts = np.concatenate([bit_counts(to_type), bit_counts(by_country)], axis=1)
    shifts = (np.uint64(GRID) * np.arange(GRID, dtype=np.uint64))[None, :]
    type_lines = to_type.astype(np.uint64) << shifts
    country_lines = transpose(by_country.astype(np.uint64) << shifts)
    return counts, np.concatenate([type_lines, country_lines], axis=1)


def greedy_lines(holding: np.ndarray) -> np.ndarray:
    """(N, 16) item counts per line of ``greedy_arrangement``."""
    return greedy_arrangement(holding)[0]


def lot_lines(view: View) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(type line, country line, present) of each item of each lot: (N, cups, k) each, k the
    largest lot size; country lines are numbered 8-15 like ``greedy_lines``' columns."""
    k = max(view.rules.lot_sizes)
    rest = view.lots.copy()
    positions = np.zeros((*rest.shape, k), np.int64)
    present = np.zeros((*rest.shape, k), bool)
    for i in range(k):
        low = rest & (~rest + np.uint64(1))  # lowest set bit
        present[..., i] = low != 0
        positions[..., i] = np.log2(np.maximum(low, np.uint64(1)).astype(np.float64)).astype(
            np.int64
        )
        rest ^= low
    return positions // GRID, GRID + positions % GRID, present


def insertion_marginals(counts: np.ndarray, view: View, best: np.ndarray) -> np.ndarray:
    """(N, cups): the most each lot adds to the line counts ``counts`` (N, 16) when its items
    join their type or country lines, nothing else moving (a lower bound on the exact
    marginal value when ``counts`` come from an optimal arrangement)."""
    types, countries, present = lot_lines(view)
    top = len(best) - 1
    k = types.shape[2]
    if k <= 2:
        return _pair_insertion(counts, types, countries, present, best)
    found = np.zeros(types.shape[:2], np.int64)
    for option in range(1 << k):
        lines = np.where((option >> np.arange(k)) & 1 == 1, countries, types)  # (N, cups, k)
        before = np.take_along_axis(counts, lines.reshape(len(counts), -1), axis=1).reshape(
            lines.shape
        )
        # items sharing a line: the first of them counts the line's whole gain
        same = (lines[..., :, None] == lines[..., None, :]) & present[..., None, :]
        joining = same.sum(axis=-1)  # items of this lot on each item's line
        earlier = np.triu(np.ones((k, k), bool), 1).T  # earlier[i, j]: j < i
        first = present & ~(same & earlier).any(axis=-1)
        gain = best[np.minimum(before + joining, top)] - best[np.minimum(before, top)]
        found = np.maximum(found, np.where(first, gain, 0).sum(axis=-1))
    return found


def _pair_insertion(
    counts: np.ndarray,
    types: np.ndarray,
    countries: np.ndarray,
    present: np.ndarray,
    best: np.ndarray,
) -> np.ndarray:
    """``insertion_marginals`` for lots of one or two items, elementwise (the common case)."""
    top = len(best) - 1
    width = counts.shape[1]
    flat = counts.ravel()
    offset = (np.arange(len(counts)) * width)[:, None]
    one = best[np.minimum(np.arange(top + 1) + 1, top)] - best  # gain of one more item
    two = best[np.minimum(np.arange(top + 1) + 2, top)] - best
    first_lines = (types[..., 0], countries[..., 0])
    if types.shape[2] == 1:
        first = [one[flat.take(offset + line)] for line in first_lines]
        return np.where(present[..., 0], np.maximum(*first), 0)
    second_lines = (types[..., 1], countries[..., 1])
    has_second = present[..., 1]
    found = np.zeros(types.shape[:2], np.int64)
    for l1 in first_lines:
        n1 = flat.take(offset + l1)
        for l2 in second_lines:
            n2 = flat.take(offset + l2)
            apart = one[n1] + np.where(has_second, one[n2], 0)
            gain = np.where(has_second & (l1 == l2), two[n1], apart)
            np.maximum(found, gain, out=found)
    return np.where(present[..., 0], found, 0)


def lot_marginals(view: View) -> np.ndarray:
    """(N, cups): exact marginal value of winning each lot, alone, on top of the own holding."""
    best = view.rules.best_line_values
    holdings = np.concatenate([view.holding[:, None], view.holding[:, None] | view.lots], axis=1)
    values = batch_values(holdings, best)
    return values[:, 1:] - values[:, :1]


def bid_shares(marginal: np.ndarray, share: float, view: View, draw: Draw) -> np.ndarray:
    """``share`` of each lot's marginal value as whole Bucks, rounded up or down at random in
    proportion (0.6 x 5 = 3.0 bids 3; 0.6 x 6 = 3.6 bids 4 with chance 0.6, so equal agents do
    not always tie), at least 1 where the lot adds value, spread within the budget."""
    wanted = np.floor(share * marginal + draw(view.rules.cups))
    wanted = np.where(marginal > 0, np.maximum(wanted, 1), 0)
    return spread(wanted.astype(np.int64), view.budget)


def spread(wanted: np.ndarray, budget: np.ndarray) -> np.ndarray:
    """Bids ``wanted`` scaled down in proportion (rounded down) where they exceed the budget."""
    total = wanted.sum(axis=1)
    over = total > budget
    scaled = (wanted * budget[:, None]) // np.maximum(total, 1)[:, None]
    return np.where(over[:, None], scaled, wanted)


def line_masks(holding: np.ndarray) -> np.ndarray:
    """(N, 16): the held items of each type line (0-7), then of each country line (8-15)."""
    rows = type_bytes(holding).astype(np.uint64)
    shifts = (np.uint64(8) * np.arange(8, dtype=np.uint64))[None, :]
    by_type = rows << shifts
    columns = type_bytes(transpose(holding)).astype(np.uint64)
    by_country = transpose(columns << shifts)
    return np.concatenate([by_type, by_country], axis=1)


def greedy_value(holdings: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Value of the quick arrangement of ``greedy_lines`` (a lower bound on the exact value)."""
    shape = holdings.shape
    return best[greedy_lines(holdings.ravel())].sum(axis=1).reshape(shape)


def sell_arranged(view: View, reserve: int, max_sales: int) -> np.ndarray:
    """Up to ``max_sales`` collections of the quick arrangement sold, one at a time, while a
    seat has fewer than ``reserve`` Bucks: each time the one paying most per Buck of value it
    held (``collection_values[n] / best_line_values[n]``), then the most Bucks."""
    rules = view.rules
    values = np.array((0, *rules.collection_values), np.float64)
    best = np.asarray(rules.best_line_values, np.float64)
    counts, lines = greedy_arrangement(view.holding)
    size = np.minimum(counts, len(best) - 1)
    pays = values[size]
    key = np.where(counts > 0, pays / np.maximum(best[size], 1) * 1e6 + pays, -np.inf)
    bucks = view.own_bucks.copy()
    rows = np.arange(view.size)
    chosen = []
    for _ in range(max_sales):
        pick = np.argmax(key, axis=1)
        selling = (bucks < reserve) & np.isfinite(key[rows, pick])
        if not selling.any():
            break
        chosen.append(np.where(selling, lines[rows, pick], np.uint64(0)))
        bucks = bucks + np.where(selling, pays[rows, pick], 0).astype(np.int64)
        key[rows, pick] = np.where(selling, -np.inf, key[rows, pick])
    if not chosen:
        return np.zeros((view.size, 0), np.uint64)
    return np.stack(chosen, axis=1)


def sell_for_bucks(
    view: View,
    reserve: int,
    max_sales: int,
    value: Callable[[np.ndarray, np.ndarray], np.ndarray] = batch_values,
) -> np.ndarray:
    """Up to ``max_sales`` whole lines sold, one at a time, while a seat has fewer than
    ``reserve`` Bucks: each time the line losing least value per Buck received (by ``value``:
    exact ``batch_values`` or an estimate)."""
    rules = view.rules
    best = np.asarray(rules.best_line_values)
    values = np.array((0, *rules.collection_values), np.int64)
    holding = view.holding.copy()
    bucks = view.own_bucks.copy()
    chosen = []
    for _ in range(max_sales):
        needy = (bucks < reserve) & (holding != 0)
        if not needy.any():
            break
        rows = np.flatnonzero(needy)
        lines = line_masks(holding[rows])  # (M, 16)
        sizes = popcount(lines)
        worth = value(np.concatenate([holding[rows, None], holding[rows, None] & ~lines], 1), best)
        lost = worth[:, :1] - worth[:, 1:]
        paid = values[sizes]
        # least value lost per Buck; ties: more Bucks; empty lines never
        cost = np.where(sizes > 0, lost / np.maximum(paid, 1), np.inf)
        key = np.where(sizes > 0, cost - paid * 1e-6, np.inf)
        pick = np.argmin(key, axis=1)
        sale = np.zeros(view.size, np.uint64)
        sale[rows] = lines[np.arange(len(rows)), pick]
        chosen.append(sale)
        holding &= ~sale
        bucks = bucks + np.where(sale != 0, values[popcount(sale)], 0)
    if not chosen:
        return np.zeros((view.size, 0), np.uint64)
    return np.stack(chosen, axis=1)


AGENTS = {"random": RandomAgent, "valuation": ValuationAgent, "collector": CollectorAgent}


def make_agent(name: str, rules: Rules | None = None, **options: object) -> object:
    """An agent by name (``AGENTS``: weakest first); ``rules`` is accepted for the common
    contract (these agents read the rules from each observation); ``options`` are the agent's
    own settings, validated when it is made."""
    return make_named_agent(AGENTS, name, options, game="going_gone", rules=rules, rules_type=Rules)
