"""The ``fitted`` agent's parametrised bid, compiled: the coverage heuristic's target with more
features, each weighted by a named parameter whose start value gives the heuristic's bid back.

The bid for a card is a target, then capped at what surely beats the rivals that matter, then
spread by ``jitter`` exactly as the coverage heuristic spreads its bid (one uniform draw). The
target, in credits (B: own budget; added / missing: functions the card adds / still lacks):

    share x B x added / missing                (the heuristic's budget share)
  + scarce x B / (1 + cards after this one supplying the scarcest added function)
  + contest x B x (rivals the card adds a function for) / (rivals)
  + rival x (the richest such rival's budget)
  + bias
  or, when an added function has no later supplier, last x B.

The cap is the richest rival's budget among those the card helps, or ``wanton`` x the richest
rival's budget when that is more (``wanton`` 1: every rival, the heuristic), plus ``margin``
without tie priority. A card adding nothing to the team gets ``spoil`` x that cap when it helps
some rival (0 at the start: the heuristic passes). ``jitter`` and ``margin`` are rounded to
whole credits.
"""

from __future__ import annotations

import numba
import numpy as np

from workbench.kit.streams import random

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
def fitted_target(
    parameters: np.ndarray, seat: int, round_index: int, budgets: np.ndarray,
    coverage: np.ndarray, players: int, first: int, masks: np.ndarray, full: int,
) -> tuple[int, int, int]:  # fmt: skip
    """(target, highest bid, jitter) of the fitted policy (module docstring); target 0: pass.
    Only the cards from ``round_index`` on matter (the later supply is counted from masks)."""
    share, last, scarce = parameters[1], parameters[3], parameters[4]
    contest, rival, bias = parameters[5], parameters[6], parameters[7]
    wanton, spoil = parameters[8], parameters[9]
    jitter = int(parameters[0] + 0.5)
    margin = int(parameters[2] + 0.5)
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
    fewest = 1 << 30
    orphan = False
    remaining = adds
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


@numba.njit(cache=True)
def jittered(target: int, jitter: int, high: int, stream: np.ndarray) -> int:
    """``target`` spread uniformly over target +/- jitter, each bid clipped to [1, high] and
    equal bids merged (as the agents' step call samples it: one uniform draw, none when the
    spread is one bid); a target of 0 passes."""
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
