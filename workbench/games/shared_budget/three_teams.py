"""A pure subgame-perfect equilibrium of the three-team shared budget auction, by backward
induction: at every position the three bids are a pure Nash equilibrium of the round's stage
game over the positions it leads to, so no team gains by leaving it, at any point of the game.

With three teams the game is general-sum and has many such equilibria; this one is chosen so:
- Teams rank outcomes by win share, then by functions covered: a team that cannot change its
  chance of winning still covers what it can instead of crowning a rival at random. The second
  criterion never outweighs the first (every outcome is certain, shares differ by at least 1/6,
  and a function weighs 1/(8 x functions), so scores move a value by at most 1/8).
- In a stage game: nobody buys if that is an equilibrium, else the lowest winning price, then
  the winner earliest in the round's priority, losers bidding the most that still loses, then
  (if the winner would rather bid otherwise) less, the first loser's bid falling first.
Positions are keyed canonically (functions no remaining card supplies only count as a score)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from workbench.checks import instance_or_default
from workbench.games.shared_budget.engine import resolve_round
from workbench.games.shared_budget.rules import Rules, priority_order, standings

TEAMS = 3
#: Seconds ``solve_three`` may take by default (``estimate_three`` is checked first).
MAX_SECONDS = 60.0
#: The work model behind ``estimate_three``: seconds per stage layer and per position in one.
_LAYER_SECONDS, _POSITION_SECONDS = 2e-3, 1.5e-6
_TOLERANCE = 1e-9

Key = tuple[int, ...]  # live coverage of A, B, C, then functions each has settled


@numba.njit(cache=True)
def _value(team, winner, price, a, b, c, after, nobody):  # type: ignore[no-untyped-def]
    """``team``'s value when ``winner`` (-1: nobody) takes the card at ``price``."""
    if winner < 0:
        return nobody[team, a, b, c]
    if winner == 0:
        return after[0, team, a - price, b, c]
    if winner == 1:
        return after[1, team, a, b - price, c]
    return after[2, team, a, b, c - price]


@numba.njit(cache=True)
def _award(bids, rank):  # type: ignore[no-untyped-def]
    """(winner, price): the single highest positive bid, ties to the lowest ``rank``."""
    winner, price = -1, 0
    for team in range(TEAMS):
        if bids[team] > price or (bids[team] == price > 0 and rank[team] < rank[winner]):
            winner, price = team, bids[team]
    return winner, price


@numba.njit(cache=True)
def _winner_keeps(winner, price, bids, budgets, rank, after, nobody, best):  # type: ignore[no-untyped-def]
    """Does ``winner`` gain nothing by another bid of its own, the losers' ``bids`` standing?
    Above ``price`` it still wins, dearer; below, it wins down to the losers' top bid and under
    that hands the card to the loser holding it."""
    a, b, c = budgets[0], budgets[1], budgets[2]
    kept = _value(winner, winner, price, a, b, c, after, nobody) + _TOLERANCE
    if price < budgets[winner] and best[winner, price + 1] > kept:
        return False
    top, holder = 0, -1  # the losers' highest bid and who holds it, ties by priority
    for team in range(TEAMS):
        if team != winner and (
            bids[team] > top or (bids[team] == top > 0 and rank[team] < rank[holder])
        ):
            top, holder = bids[team], team
    lowest_winning = 1 if holder < 0 else (top if rank[winner] < rank[holder] else top + 1)
    for bid in range(lowest_winning, price):
        if _value(winner, winner, bid, a, b, c, after, nobody) > kept:
            return False
    return _value(winner, holder, top, a, b, c, after, nobody) <= kept


@numba.njit(cache=True)
def _best_wins(budgets, after, best):  # type: ignore[no-untyped-def]
    """best[team, m]: the most ``team`` can get by winning at a price of m or more (-inf past
    its budget), so that a loser's check is one look-up."""
    a, b, c = budgets[0], budgets[1], budgets[2]
    for team in range(TEAMS):
        best[team, budgets[team] + 1] = -np.inf
        for price in range(budgets[team], 0, -1):
            won = _value(team, team, price, a, b, c, after, after[0])  # never reads nobody
            best[team, price] = max(won, best[team, price + 1])


@numba.njit(cache=True)
def _losers_content(winner, price, budgets, rank, after, nobody, best):  # type: ignore[no-untyped-def]
    """Would no other team rather win the card than see ``winner`` take it at ``price`` (or
    nobody)? A loser changes the outcome only by winning, whatever the others bid."""
    a, b, c = budgets[0], budgets[1], budgets[2]
    for team in range(TEAMS):
        if team == winner:
            continue
        cheapest = 1 if winner < 0 else (price if rank[team] < rank[winner] else price + 1)
        if cheapest > budgets[team]:
            continue
        if best[team, cheapest] > _value(team, winner, price, a, b, c, after, nobody) + _TOLERANCE:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _highest_losing(team, winner, price, budgets, rank):  # type: ignore[no-untyped-def]
    """The most ``team`` can bid and still lose to ``winner`` bidding ``price``."""
    return min(price if rank[team] > rank[winner] else price - 1, budgets[team])


@numba.njit(cache=True)
def _solve_position(budgets, rank, order, after, nobody, bids, best):  # type: ignore[no-untyped-def]
    """Fill ``bids`` with the chosen pure equilibrium (module docstring); False if none. Every
    pure equilibrium is some (winner, price) that its losers accept, with losing bids under
    which the winner keeps its bid, so trying them all in this order finds one if any exists."""
    bids[:] = 0
    _best_wins(budgets, after, best)
    if _losers_content(-1, 0, budgets, rank, after, nobody, best):
        return True
    for price in range(1, budgets.max() + 1):
        for winner in order:
            if budgets[winner] < price:
                continue
            if not _losers_content(winner, price, budgets, rank, after, nobody, best):
                continue
            first, second = (1, 2) if winner == 0 else ((0, 2) if winner == 1 else (0, 1))
            bids[winner] = price
            for x in range(_highest_losing(first, winner, price, budgets, rank), -1, -1):
                for y in range(_highest_losing(second, winner, price, budgets, rank), -1, -1):
                    bids[first], bids[second] = x, y
                    if _winner_keeps(winner, price, bids, budgets, rank, after, nobody, best):
                        return True
    return False


@numba.njit(cache=True)  # not parallel: GNU OpenMP would make a later fork() fatal
def _solve_layer(after, nobody, rank, values, bids):  # type: ignore[no-untyped-def]
    """Every budget triple's equilibrium bids and values; True at a triple without a pure
    equilibrium, in ``failed[a, b, c]``."""
    n = nobody.shape[1]
    order = np.argsort(rank)
    failed = np.zeros((n, n, n), np.bool_)
    budgets = np.zeros(TEAMS, np.int64)
    chosen = np.zeros(TEAMS, np.int64)
    best = np.empty((TEAMS, n + 1))
    for a in range(n):
        for b in range(n):
            for c in range(n):
                budgets[0], budgets[1], budgets[2] = a, b, c
                if not _solve_position(budgets, rank, order, after, nobody, chosen, best):
                    failed[a, b, c] = True
                    continue
                winner, price = _award(chosen, rank)
                for team in range(TEAMS):
                    bids[team, a, b, c] = chosen[team]
                    values[team, a, b, c] = _value(team, winner, price, a, b, c, after, nobody)
    return failed


@dataclass(frozen=True)
class ThreeTeamEstimate:
    """The stage ``layers`` a solve visits and its ESTIMATED ``seconds`` (one core)."""

    layers: int
    positions: int
    seconds: float


class ThreeTeamSolution:
    """The solved game: each team's win share at the opening (``value``), every position's bids
    (``bids_at``), and the table the compiled loop plays (``policy_vector``)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.budget = rules.budget
        self.card_masks = rules.card_masks()
        self._remaining = rules.remaining_masks()
        self.score_weight = 1.0 / (8 * len(rules.functions))
        self._values: dict[tuple[int, Key], np.ndarray] = {}
        self._bids: dict[tuple[int, Key], np.ndarray] = {}
        self.value: tuple[float, ...] = ()
        self.seconds = 0.0

    def __repr__(self) -> str:
        value = ", ".join(f"{v:.3f}" for v in self.value)
        return (f"ThreeTeamSolution(value=({value}), stage layers={len(self._bids)}, "
                f"{self.seconds:.1f} s)")  # fmt: skip

    def key(self, round_index: int, masks: tuple[int, ...], settled: Key = (0, 0, 0)) -> Key:
        """The canonical key of a position at the start of ``round_index`` (0-based)."""
        live = self._remaining[round_index]
        counts = tuple(s + (m & ~live).bit_count() for m, s in zip(masks, settled, strict=True))
        return tuple(m & live for m in masks) + counts

    def bids_at(
        self, round_index: int, budgets: tuple[int, ...], masks: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The three equilibrium bids at a position (budgets and full coverage masks)."""
        bids = self._bids[(round_index, self.key(round_index, masks))]
        return tuple(int(bids[team][tuple(budgets)]) for team in range(TEAMS))

    def win_shares_at(
        self, round_index: int, budgets: tuple[int, ...], masks: tuple[int, ...]
    ) -> tuple[float, ...]:
        """Each team's win share under equilibrium play from a position (``round_index`` up to
        rounds: the end), by playing its line."""
        for k in range(round_index, self.rules.rounds):
            bids = self.bids_at(k, budgets, masks)
            _, _, budgets, masks = resolve_round(self.rules, k, budgets, masks, bids)
        scores = [mask.bit_count() for mask in masks]
        return tuple(standings(scores, budgets, self.rules.final_tiebreak)[2])

    def strategy(
        self, round_index: int, budgets: tuple[int, ...], masks: tuple[int, ...]
    ) -> tuple[dict[int, float], ...]:
        """Each team's {bid: probability} at a position (always one bid: the play is pure)."""
        return tuple({bid: 1.0} for bid in self.bids_at(round_index, budgets, masks))

    def reachable_positions(self) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Every (round index, budgets, coverage masks) at the start of a round that some play
        of the game reaches from the opening, in order."""
        layer = {(self.budget,) * TEAMS: {(0, 0, 0)}}
        found = []
        for k, card in enumerate(self.card_masks):
            found += [(k, b, m) for b in sorted(layer) for m in sorted(layer[b])]
            following: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
            for budgets, coverages in layer.items():
                following.setdefault(budgets, set()).update(coverages)  # nobody buys
                for team, price in ((t, p) for t in range(TEAMS) for p in range(1, budgets[t] + 1)):
                    paid = tuple(b - price * (t == team) for t, b in enumerate(budgets))
                    following.setdefault(paid, set()).update(
                        _covered(masks, card, team) for masks in coverages
                    )
            layer = following
        return found

    def policy_vector(self) -> np.ndarray:
        """The table ``policies.subgame_perfect_bid`` reads: budget + 1, the coverage masks'
        count, positions packed per entry, then each (round, mask A, B, C)'s layer (-1: none
        reachable), then every layer's bids, each position's three as one base-(budget + 1)
        number, ``per`` of them to a float (exact below 2**53)."""
        n, sets, rounds = self.budget + 1, 1 << len(self.rules.functions), self.rules.rounds
        per = _packed_per_entry(n)
        layers = {key: index for index, key in enumerate(sorted(self._bids))}
        lookup = np.full((rounds, sets, sets, sets), -1.0)
        for k, *masks in np.ndindex(rounds, sets, sets, sets):
            found = layers.get((k, self.key(k, tuple(masks))))
            if found is not None:
                lookup[(k, *masks)] = found
        codes = np.empty((len(layers), n**3), dtype=np.int64)
        for (k, key), index in layers.items():
            bids = self._bids[(k, key)].astype(np.int64)
            codes[index] = (bids[0] + n * bids[1] + n * n * bids[2]).ravel()
        width = -(-(n**3) // per)
        padded = np.zeros((len(layers), width * per), dtype=np.int64)
        padded[:, : n**3] = codes
        packed = (padded.reshape(len(layers), width, per) * (n**3) ** np.arange(per)).sum(axis=2)
        return np.concatenate([[n, sets, per], lookup.ravel(), packed.ravel().astype(np.float64)])

    # -- internals -----------------------------------------------------------------------------

    def _layer(self, k: int, key: Key) -> np.ndarray:
        found = self._values.get((k, key))
        if found is not None:
            return found
        found = self._terminal(key[TEAMS:]) if k == self.rules.rounds else self._solve(k, key)
        self._values[(k, key)] = found
        return found

    def _terminal(self, scores: Key) -> np.ndarray:
        """[team, a, b, c]: win share by the rules' standings, plus the score's small weight."""
        n = self.budget + 1
        budgets = np.stack(np.meshgrid(*[np.arange(n)] * TEAMS, indexing="ij"))
        if self.rules.final_tiebreak == "shared":
            budgets[:] = 0
        ranking = np.array(scores)[:, None, None, None] * (n + 1) + budgets
        winners = ranking == ranking.max(axis=0)
        shares = winners / winners.sum(axis=0)
        return shares + self.score_weight * np.array(scores, dtype=float)[:, None, None, None]

    def _solve(self, k: int, key: Key) -> np.ndarray:
        masks, settled = key[:TEAMS], key[TEAMS:]
        card = self.card_masks[k]
        after = np.stack([self._layer(k + 1, self.key(k + 1, _covered(masks, card, w), settled))
                          for w in range(TEAMS)])  # fmt: skip
        nobody = self._layer(k + 1, self.key(k + 1, masks, settled))
        rank = np.empty(TEAMS, dtype=np.int64)
        rank[list(priority_order(self.rules, k))] = np.arange(TEAMS)
        n = self.budget + 1
        values, bids = np.empty((TEAMS, n, n, n)), np.empty((TEAMS, n, n, n), dtype=np.int16)
        failed = np.argwhere(_solve_layer(after, nobody, rank, values, bids))
        if len(failed):
            raise ValueError(
                f"round {k + 1} with budgets {tuple(failed[0])} has no pure equilibrium under "
                "these rules: solve_three plays pure equilibria only; estimate play with simulate"
            )
        self._bids[(k, key)] = bids
        return values


def _covered(masks: tuple[int, ...], card: int, winner: int) -> tuple[int, ...]:
    """The coverage masks after ``winner`` (-1: nobody) takes a card supplying ``card``."""
    return tuple(m | card if t == winner else m for t, m in enumerate(masks))


def _packed_per_entry(n: int) -> int:
    """Positions per float of the packed table: base n**3 digits below 2**53."""
    per = 1
    while n ** (3 * (per + 1)) <= 2**53:
        per += 1
    return per


def _stage_keys(rules: Rules) -> int:
    """Stage layers (round, canonical key) the solve visits from the opening."""
    solution = ThreeTeamSolution(rules)
    frontier, count = {solution.key(0, (0, 0, 0))}, 0
    for k, card in enumerate(solution.card_masks):
        count += len(frontier)
        frontier = {
            solution.key(k + 1, _covered(key[:TEAMS], card, w), key[TEAMS:])
            for key in frontier for w in range(-1, TEAMS)
        }  # fmt: skip
    return count


def estimate_three(rules: Rules | None = None) -> ThreeTeamEstimate:
    """The work of ``solve_three(rules)`` and its ESTIMATED time on one core, without solving
    (``bench/shared_budget.py`` prints it beside the measured time)."""
    rules = _three_teams(rules)
    layers = _stage_keys(rules)
    positions = layers * (rules.budget + 1) ** TEAMS
    return ThreeTeamEstimate(
        layers, positions, layers * _LAYER_SECONDS + positions * _POSITION_SECONDS
    )


def solve_three(
    rules: Rules | None = None, *, max_seconds: float = MAX_SECONDS
) -> ThreeTeamSolution:
    """The pure subgame-perfect equilibrium of the three-team game (module docstring); refused
    when ``estimate_three`` puts it above ``max_seconds``, or when a position has no pure
    equilibrium (none found at any rule set tried)."""
    rules = _three_teams(rules)
    estimate = estimate_three(rules)
    if estimate.seconds > max_seconds:
        raise ValueError(
            f"solve_three would take about {estimate.seconds:.0f} s ({estimate.layers:,} layers x "
            f"{(rules.budget + 1) ** TEAMS:,} budget triples), above max_seconds={max_seconds:g}: "
            "use a smaller budget, pass a larger max_seconds, or estimate play with simulate"
        )
    started = time.perf_counter()
    solution = ThreeTeamSolution(rules)
    solution._layer(0, solution.key(0, (0, 0, 0)))
    solution._values.clear()  # only the bids are kept (a layer's values are 3 x budgets**3)
    solution.value = solution.win_shares_at(0, (rules.budget,) * TEAMS, (0, 0, 0))
    solution.seconds = time.perf_counter() - started
    return solution


def _three_teams(rules: object) -> Rules:
    rules = instance_or_default("rules", rules, Rules, Rules, "a shared_budget Rules or None")
    if rules.teams != TEAMS or rules.variant != "auction":
        raise ValueError(
            f"solve_three plays the sealed-bid auction of exactly 3 teams, got "
            f"teams={rules.teams}, variant={rules.variant!r} (two teams: solve)"
        )
    return rules
