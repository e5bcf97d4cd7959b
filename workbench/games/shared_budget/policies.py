"""The shared budget auction's compiled policies: ``choose``, one seat's sealed bid (classroom:
1 buy / 0 pass), for the kinds ``RANDOM``, ``COVERAGE`` (``CoverageHeuristic``) and ``FITTED``
(a target capped at a bid that surely wins, spread over target +/- jitter by one uniform draw),
``EQUILIBRIUM`` (two teams' exact equilibrium, read from the solver's table) and
``SUBGAME_PERFECT`` (three teams' pure subgame-perfect equilibrium, from ``three_teams``).

The fitted target (B: own budget; added / missing: functions the card adds / still lacks) is
share x B x added / missing + scarce x B / (1 + later suppliers of the scarcest added function)
+ contest x B x rivals it helps / rivals + rival x the richest such rival's budget + bias, or
last x B when an added function has no later supplier; capped at the richest helped rival's
budget, or ``wanton`` x the richest's if more, + ``margin`` without priority. A card adding
nothing gets ``spoil`` x that cap when it helps a rival. The start values give the coverage
heuristic's bid."""

from __future__ import annotations

import numba
import numpy as np

from workbench.kit.streams import integers, random

#: Policy kinds.
RANDOM, COVERAGE, FITTED, EQUILIBRIUM, SUBGAME_PERFECT = 0, 1, 2, 3, 4
#: The coverage heuristic's parameters, in vector order.
COVERAGE_PARAMETERS = ("jitter", "share", "margin")
#: The fitted policy's parameters, in vector order, and their hand-written (heuristic) values.
FITTED_PARAMETERS = (
    "jitter", "share", "margin", "last", "scarce", "contest", "rival", "bias", "wanton",
    "spoil",
)  # fmt: skip
FITTED_START = (2.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)


@numba.njit(cache=True)
def bit_count(mask: int) -> int:
    """The number of set bits (functions in a mask)."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@numba.njit(cache=True)
def coverage_target(
    parameters: np.ndarray, seat: int, round_index: int, budgets: np.ndarray,
    coverage: np.ndarray, players: int, first: int, masks: np.ndarray, later: np.ndarray,
    full: int,
) -> tuple[int, int, int]:  # fmt: skip
    """(target, highest bid, jitter) of ``CoverageHeuristic`` (its docstring); target 0: a pass
    (its highest bid is then 0)."""
    jitter, share, margin = int(parameters[0]), parameters[1], int(parameters[2])
    missing = full & ~coverage[seat]
    adds = masks[round_index] & missing
    if adds == 0:
        return 0, 0, jitter
    budget, richest = budgets[seat], -1
    for other in range(players):
        if other != seat and budgets[other] > richest:
            richest = budgets[other]
    sure = budget if richest < 0 else max(1, richest + (0 if first == seat else margin))
    if adds & ~later[round_index]:
        want = budget
    else:
        want = min(budget, int(np.ceil(share * budget * bit_count(adds) / bit_count(missing))))
    return min(want, sure), min(budget, sure), jitter


@numba.njit(cache=True)
def fitted_target(
    parameters: np.ndarray, seat: int, round_index: int, budgets: np.ndarray,
    coverage: np.ndarray, players: int, first: int, masks: np.ndarray, full: int,
) -> tuple[int, int, int]:  # fmt: skip
    """(target, highest bid, jitter) of the fitted policy (module docstring); target 0: pass."""
    jitter, share, margin = int(parameters[0] + 0.5), parameters[1], int(parameters[2] + 0.5)
    last, scarce, contest, rival = parameters[3], parameters[4], parameters[5], parameters[6]
    bias, wanton, spoil = parameters[7], parameters[8], parameters[9]
    budget = budgets[seat]
    card = masks[round_index]
    wanting, richest_wanting, richest = 0, 0, 0
    for other in range(players):
        if other == seat:
            continue
        richest = max(richest, budgets[other])
        if card & full & ~coverage[other]:
            wanting += 1
            richest_wanting = max(richest_wanting, budgets[other])
    if players == 1:
        cap = budget
    else:
        cap = max(richest_wanting, int(wanton * richest + 0.5))
        cap = max(1, cap + (0 if first == seat else margin))
    high = min(budget, cap)
    missing = full & ~coverage[seat]
    adds = card & missing
    if adds == 0:
        if wanting == 0 or spoil <= 0.0:
            return 0, high, jitter
        return min(high, int(spoil * high + 0.5)), high, jitter
    fewest, orphan, remaining = 1 << 30, False, adds
    while remaining:
        bit = remaining & -remaining
        remaining &= remaining - 1
        supply = 0
        for later in range(round_index + 1, masks.shape[0]):
            if masks[later] & bit:
                supply += 1
        fewest = min(fewest, supply)
        if supply == 0:
            orphan = True
    if orphan:
        want = last * budget
    else:
        want = share * budget * bit_count(adds) / bit_count(missing)
        want += scarce * budget / (1 + fewest)
        if players > 1:
            want += contest * budget * wanting / (players - 1)
        want += rival * richest_wanting + bias
    target = min(budget, int(np.ceil(want - 1e-9)))
    return max(0, min(target, high)), high, jitter


# Inlined into the loops: a numba call taking this many arrays costs more than the decision.
@numba.njit(cache=True, inline="always")
def bid_target(
    kind: int, parameters: np.ndarray, seat: int, round_index: int, budgets: np.ndarray,
    coverage: np.ndarray, players: int, first: int, masks: np.ndarray, later: np.ndarray,
    full: int,
) -> tuple[int, int, int]:  # fmt: skip
    """(target, highest bid, jitter) of a coverage or fitted policy in the auction."""
    if kind == FITTED:
        return fitted_target(parameters, seat, round_index, budgets, coverage, players, first,
                             masks, full)  # fmt: skip
    return coverage_target(parameters, seat, round_index, budgets, coverage, players, first,
                           masks, later, full)  # fmt: skip


@numba.njit(cache=True)
def jittered(target: int, jitter: int, high: int, stream: np.ndarray) -> int:
    """``target`` spread uniformly over target +/- jitter, each bid clipped to [1, high] and
    equal bids merged, by one uniform draw (none when the spread is one bid); 0 passes."""
    if target == 0:
        return 0
    weight = 1.0 / (2 * jitter + 1)
    lowest = min(max(target - jitter, 1), high)
    highest = min(max(target + jitter, 1), high)
    if lowest == highest:
        return lowest
    total, group, previous = 0.0, 0.0, lowest
    for offset in range(-jitter, jitter + 1):
        bid = min(max(target + offset, 1), high)
        if bid != previous:
            total += group
            group, previous = 0.0, bid
        group += weight
    total += group
    point = random(stream) * total
    cumulative, group, previous = 0.0, 0.0, lowest
    for offset in range(-jitter, jitter + 1):
        bid = min(max(target + offset, 1), high)
        if bid != previous:
            cumulative += group
            if point < cumulative:
                return previous
            group, previous = 0.0, bid
        group += weight
    return highest


@numba.njit(cache=True)
def equilibrium_bid(
    table: np.ndarray, seat: int, round_index: int, rounds: int, budgets: np.ndarray,
    coverage: np.ndarray, stream: np.ndarray,
) -> int:  # fmt: skip
    """Two teams' exact equilibrium bid, read from ``solver.Solution.policy_vector``: a pure
    entry as it is, a mixed one drawn from its cumulative probabilities by one uniform."""
    n, sets = int(table[0]), int(table[1])
    index = (seat * rounds + round_index) * sets + coverage[0]
    index = ((index * sets + coverage[1]) * n + budgets[0]) * n + budgets[1]
    entry = table[2 + index]
    if entry >= 0:
        return int(entry)
    start, point = int(-entry - 1), random(stream)
    for bid in range(budgets[seat]):
        if point < table[start + bid]:
            return bid
    return budgets[seat]


@numba.njit(cache=True)
def subgame_perfect_bid(
    table: np.ndarray, seat: int, round_index: int, rounds: int, budgets: np.ndarray,
    coverage: np.ndarray,
) -> int:  # fmt: skip
    """Three teams' equilibrium bid, read from ``ThreeTeamSolution.policy_vector``: the
    position's layer by its coverage masks, then its three bids packed by budget triple."""
    n, sets, per = int(table[0]), int(table[1]), int(table[2])
    layer = int(table[3 + ((round_index * sets + coverage[0]) * sets + coverage[1]) * sets
                      + coverage[2]])  # fmt: skip
    if layer < 0:  # no play reaches these masks
        return 0
    cells = n * n * n
    position = (budgets[0] * n + budgets[1]) * n + budgets[2]
    width = (cells + per - 1) // per
    entry = np.int64(table[3 + rounds * sets**3 + layer * width + position // per])
    code = (entry // cells ** (position % per)) % cells
    return int((code // n**seat) % n)


@numba.njit(cache=True, inline="always")  # inlined, as bid_target
def choose(
    kind: int, parameters: np.ndarray, seat: int, round_index: int, budgets: np.ndarray,
    coverage: np.ndarray, players: int, first: int, masks: np.ndarray, later: np.ndarray,
    prices: np.ndarray, full: int, classroom: bool, stream: np.ndarray,
) -> int:  # fmt: skip
    """One seat's action: the bid, or in the classroom 1 (buy) / 0 (pass); the classroom's
    coverage and fitted groups buy what adds a missing function when affordable."""
    if classroom:
        affordable = prices[round_index] <= budgets[0]
        if kind == RANDOM:  # int(): the kit's integers() is typed float64 (exact below 2**53)
            return int(integers(stream, 2 if affordable else 1))
        return 1 if affordable and masks[round_index] & ~coverage[0] else 0
    if kind == RANDOM:
        return int(integers(stream, budgets[seat] + 1))
    if kind == EQUILIBRIUM:
        return equilibrium_bid(parameters, seat, round_index, masks.shape[0], budgets, coverage,
                               stream)  # fmt: skip
    if kind == SUBGAME_PERFECT:
        return subgame_perfect_bid(parameters, seat, round_index, masks.shape[0], budgets,
                                   coverage)  # fmt: skip
    target, high, jitter = bid_target(
        kind, parameters, seat, round_index, budgets, coverage, players, first, masks, later,
        full,
    )  # fmt: skip
    return jittered(target, jitter, high, stream)


__all__ = [
    "COVERAGE", "COVERAGE_PARAMETERS", "EQUILIBRIUM", "FITTED", "FITTED_PARAMETERS",
    "FITTED_START", "RANDOM", "SUBGAME_PERFECT", "bid_target", "bit_count", "choose",
    "coverage_target", "equilibrium_bid", "fitted_target", "jittered", "subgame_perfect_bid",
]  # fmt: skip
