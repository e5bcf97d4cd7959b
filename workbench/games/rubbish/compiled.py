"""Rubbish Auction's compiled core (numba): the rules of a round and the compiled agents.

This is the second implementation of the rules (the first, the readable reference, is
``engine.State``); ``fast.py`` drives it. A test replays every recorded fast game through
``State.apply`` and checks both give the same rounds and results.

Games are played one after another, each from wherever it stands (``Positions``: a new game, or
a mid-game position with every hidden fact filled in), to the end. Every decision reads one
uniform number ``uniforms[d, g]``: decision ``d`` of game ``g`` counted from where it started,
so a batch of new games reads them in exactly the order the old lockstep numpy engine drew them
(one ``rng.random(games)`` per decision) and a seed gives the same games as before.

A compiled agent is a policy kind (``RANDOM``, ``HEURISTIC``) and a float64 parameter vector
per seat, dispatched here; the step-by-step call of the same agent runs the same functions on
a one-game ``Positions`` built from its observation (``choose_one``). ``deal_new`` deals a batch
of new games (self-play); ``play_round`` plays one round of the search agent's sequential
halving.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, typeof

#: Policy kinds of the compiled agents.
RANDOM, HEURISTIC = 0, 1
#: Heuristic parameters, in the order of its parameter vector.
MAX_WANTED_BID, GAIN_SHARE, CHEAPSKATE_SHARE, LAST_ROUND_SHARE = 0, 1, 2, 3
ROLE_WINNER, ROLE_CHEAPSKATE, ROLE_GAINER = 0, 1, 2


class Tables(NamedTuple):
    """One rule set as arrays: the bid table (per lock option ``o`` and bid ``k``, see
    ``cards.BidTable``), the heuristic's preferred bids and the rule numbers."""

    totals: np.ndarray  # (options, width) int32
    counts: np.ndarray  # (options, width) int8: cards held out
    lock_after: np.ndarray  # (options, width) int8: lock option after playing the bid
    n_bids: np.ndarray  # (options,) int32
    available_totals: np.ndarray  # (options,) int32
    top_sums: np.ndarray  # (options, cards + 1) int32: largest total of exactly c cards
    #: [min_cards, o, t + 1]: the preferred bid of total <= t (-1: none); see agents.py
    best_at_most: np.ndarray
    #: [min_cards, o, t]: the preferred bid of total >= t (-1: none)
    cheapest_at_least: np.ndarray
    destined: np.ndarray  # (geeks, items) bool
    min_cards: np.ndarray  # (players,) int64: fewest cards at each bidding position
    players: int
    rounds: int
    destined_bonus: int
    keep_overspent: bool


class Positions(NamedTuple):
    """Games, each at some position (arrays with one row per game); mutated as they play.

    ``position`` is the next bidding position (-1: the auctioneer is to choose; ``item`` and
    ``first`` are -1 then). ``bid_index`` (by seat, -1: not yet bid) indexes the bid table of
    that seat's ``lock`` option; ``held`` is the number of cards it holds out (public).
    """

    geek: np.ndarray  # (G, n) int16
    fame: np.ndarray  # (G, n) int32
    lock: np.ndarray  # (G, n) int8
    remaining: np.ndarray  # (G, items) bool
    auctioneer: np.ndarray  # (G,) int8
    cheapskates: np.ndarray  # (G, n) int16
    items_won: np.ndarray  # (G, n) int16
    destined_won: np.ndarray  # (G, n) int16
    rounds_done: np.ndarray  # (G,) int16
    item: np.ndarray  # (G,) int8
    first: np.ndarray  # (G,) int8
    position: np.ndarray  # (G,) int8
    bid_index: np.ndarray  # (G, n) int16
    held: np.ndarray  # (G, n) int8


class Recording(NamedTuple):
    """Per-round facts of played games, for the rounds frame and for replay through the
    engine (arrays (G, R) or (G, R, n); empty when not recording)."""

    item: np.ndarray
    first: np.ndarray
    bid_index: np.ndarray  # index into the bid table of ``lock_before``
    lock_before: np.ndarray  # lock option each seat bid under
    total: np.ndarray
    cards: np.ndarray
    role: np.ndarray  # ROLE_*
    fame_after: np.ndarray
    score_after: np.ndarray  # fame + destined bonus for the destined items won so far
    kept: np.ndarray


# -- the agents --------------------------------------------------------------------------------
# The loop and its helpers take plain arrays and run without numba's reference counting
# (``_nrt=False``: they never allocate): counting the references of every array passed on every
# call cost more than the decisions themselves. The helpers are inlined into the loop.


@njit(cache=True, _nrt=False, inline="always")
def _next_seat(seat, steps, n):  # type: ignore[no-untyped-def]
    """The seat ``steps`` (0 <= steps <= n) after ``seat`` (0 <= seat < n) round the table:
    ``(seat + steps) % n`` without a division."""
    later = seat + steps
    return later - n if later >= n else later


@njit(cache=True, _nrt=False, inline="always")
def _nth_remaining(remaining, g, nth):  # type: ignore[no-untyped-def]
    """The ``nth`` (0-based) item still up in game ``g``; 0 if there are fewer (as the numpy
    engine's argmax said; only a uniform within 2**-53 of 1 gets there)."""
    found = seen = 0
    for item in range(remaining.shape[1]):  # without branches: which items are up is random
        up = remaining[g, item]
        found = item if (seen == nth) & up else found
        seen += up
    return found


@njit(cache=True, _nrt=False, inline="always")
def _auction(kind, remaining, destined, geek, g, actor, n, u, up):  # type: ignore[no-untyped-def]
    """(item, First Bidder) with ``up`` items remaining. Random: uniform among every (item,
    seat), the pick-th of the items in order, then seats. Heuristic: its first wanted item
    naming itself First Bidder, else a random unwanted item naming the seat on its left."""
    if kind == HEURISTIC:
        for item in range(remaining.shape[1]):
            if remaining[g, item] and destined[geek[g, actor], item]:
                return item, actor
        # No wanted item is left, so the unwanted items are exactly the remaining ones.
        return _nth_remaining(remaining, g, int(u * up)), _next_seat(actor, 1, n)
    # The item whose n picks [low, low + n) hold the pick, and the seat at pick - low: the
    # pick-th of up * n (item, seat) pairs, without a division or a branch. pick < up * n
    # (u < 1, and u * m rounds below any whole m).
    pick = int(u * (up * n))
    found = seat = low = 0
    for item in range(remaining.shape[1]):
        is_up = remaining[g, item]
        hit = is_up & (pick >= low) & (pick < low + n)
        found = item if hit else found
        seat = pick - low if hit else seat
        low += n * is_up
    return found, seat


@njit(cache=True, _nrt=False, inline="always")
def _heuristic_bid(  # type: ignore[no-untyped-def]
    parameters, best_at_most, cheapest_at_least, totals, available_totals, top_sums,
    lock, held, fame, g, actor, n, wanted, share_kind,
):  # fmt: skip
    """The rulebook's hints (see ``agents.HeuristicAgent``); ``best_at_most`` and
    ``cheapest_at_least`` are the preferred-bid tables of this bidding position's minimum."""
    top = best_at_most.shape[1] - 2  # the largest total any bid can reach
    own = lock[g, actor]
    lowest = cheapest_at_least[own, 0]
    # Each opponent's cap: all its usable money, or once it has held out c cards its c
    # largest usable cards. sure_win beats every cap (an equal total beats the seats bidding
    # after the actor: ties go to whoever bid earlier, the seats that hold cards out already).
    sure_win = most_others = -1
    for seat in range(n):
        if seat == actor:
            cap = -1
        elif held[g, seat] < 0:
            cap = available_totals[lock[g, seat]]
        else:
            cap = top_sums[lock[g, seat], held[g, seat]]
        sure_win = max(sure_win, cap + (1 if held[g, seat] >= 0 else 0))
        most_others = max(most_others, cap)
    if wanted:
        budget = min(min(int(parameters[MAX_WANTED_BID]), fame[g, actor]), top)
        cheapest_win = cheapest_at_least[own, min(sure_win, top + 1)]
        if cheapest_win >= 0 and totals[own, cheapest_win] <= budget:
            return cheapest_win
        best_effort = best_at_most[own, budget + 1]
        return best_effort if best_effort >= 0 else lowest
    target = min(int(np.floor(parameters[share_kind] * available_totals[own])), most_others - 1)
    gaining = best_at_most[own, min(max(target, -1), top) + 1]
    return gaining if gaining >= 0 else lowest


@njit(cache=True, _nrt=False, inline="always")
def _bid(  # type: ignore[no-untyped-def]
    kind, parameters, t_totals, t_n_bids, t_available_totals, t_top_sums, t_best_at_most,
    t_cheapest_at_least, t_destined, t_min_cards, rounds,
    geek, fame, lock, held, g, auctioneer, rounds_done, item, first, position, actor, n, u,
):  # fmt: skip
    """The bid index (into the bid table of the actor's lock) of the seat to bid in game g
    (``auctioneer`` ... ``position``: that game's scalars)."""
    fewest = t_min_cards[position]
    if kind != HEURISTIC:
        return fewest + int(u * (t_n_bids[lock[g, actor]] - fewest))
    share_kind = CHEAPSKATE_SHARE if auctioneer == actor else GAIN_SHARE
    if rounds_done == 0:
        share_kind = GAIN_SHARE
    if rounds_done == rounds - 1:
        share_kind = LAST_ROUND_SHARE
    return _heuristic_bid(
        parameters, t_best_at_most[fewest], t_cheapest_at_least[fewest], t_totals,
        t_available_totals, t_top_sums, lock, held, fame, g, actor, n,
        t_destined[geek[g, actor], max(item, 0)], share_kind,
    )  # fmt: skip


@njit(cache=True)
def choose_one(kind, parameters, tables, pos, u):  # type: ignore[no-untyped-def]
    """The choice of a compiled agent in game 0 of ``pos``: (item, First Bidder) while the
    auctioneer chooses, else (bid index, -1). What the step-by-step call runs."""
    n = tables.players
    if pos.position[0] < 0:
        actor = pos.auctioneer[0]
        up = 0
        for item in range(pos.remaining.shape[1]):
            up += pos.remaining[0, item]
        return _auction(kind, pos.remaining, tables.destined, pos.geek, 0, actor, n, u, up)
    actor = _next_seat(pos.first[0], pos.position[0], n)
    bid = _bid(
        kind, parameters, tables.totals, tables.n_bids, tables.available_totals,
        tables.top_sums, tables.best_at_most, tables.cheapest_at_least, tables.destined,
        tables.min_cards, tables.rounds, pos.geek, pos.fame, pos.lock, pos.held, 0,
        pos.auctioneer[0], pos.rounds_done[0], pos.item[0], pos.first[0], pos.position[0],
        actor, n, u,
    )  # fmt: skip
    return bid, -1


_ENTRIES: dict = {}


def call_direct(function, *args):  # type: ignore[no-untyped-def]
    """``function(*args)`` straight at its compiled entry point for these argument types,
    found on the first call: the dispatcher spends more time than a small call itself working
    out the types of named tuples of arrays. Only for call sites whose arguments always have
    the same types (``fast.tables_for``, positions of ``fast.empty_positions``' dtypes,
    float64 parameters and uniforms, Python ints and floats)."""
    entry = _ENTRIES.get(function)
    if entry is None:
        result = function(*args)
        types = tuple(typeof(value) for value in args)
        _ENTRIES[function] = function.overloads[types].entry_point
        return result
    return entry(*args)


# -- the rules ---------------------------------------------------------------------------------


@njit(cache=True)
def play(kinds, parameters, tables, pos, uniforms, rec, record):  # type: ignore[no-untyped-def]
    """Play every game of ``pos`` to the end with the seats' compiled agents (``kinds[s]``,
    ``parameters[s]``); game g's d-th decision reads ``uniforms[d, g]``. Records each round in
    ``rec`` when ``record``."""
    t = tables
    _play(
        kinds, parameters, t.totals, t.counts, t.lock_after, t.n_bids, t.available_totals,
        t.top_sums, t.best_at_most, t.cheapest_at_least, t.destined, t.min_cards, t.players,
        t.rounds, t.destined_bonus, t.keep_overspent,
        pos.geek, pos.fame, pos.lock, pos.remaining, pos.auctioneer, pos.cheapskates,
        pos.items_won, pos.destined_won, pos.rounds_done, pos.item, pos.first, pos.position,
        pos.bid_index, pos.held, uniforms,
        rec.item, rec.first, rec.bid_index, rec.lock_before, rec.total, rec.cards, rec.role,
        rec.fame_after, rec.score_after, rec.kept, record, np.empty(t.players, np.int64),
    )  # fmt: skip


@njit(cache=True)
def deal_new(starting_fame, geek_draws, auctioneers, pos):  # type: ignore[no-untyped-def]
    """New games dealt into ``pos`` (whatever it held): game g's seats get the geeks of its
    ``geek_draws[g]`` in increasing order of the draws (the first ``players`` of
    ``np.argsort(geek_draws[g])``), ``auctioneers[g]`` starts. (Apart from ``play``: a
    compiled function calling ``play`` would compile the whole engine a second time.)"""
    games, n = pos.fame.shape
    geeks = geek_draws.shape[1]
    draws = np.empty(geeks)
    for g in range(games):
        for geek in range(geeks):
            draws[geek] = geek_draws[g, geek]
        for seat in range(n):  # the smallest draw left (the first of equal ones), then drop it
            smallest, least = 0, draws[0]
            for geek in range(1, geeks):
                lower = draws[geek] < least
                smallest = geek if lower else smallest
                least = draws[geek] if lower else least
            pos.geek[g, seat] = smallest
            draws[smallest] = np.inf
        for seat in range(n):
            pos.fame[g, seat] = starting_fame
            pos.lock[g, seat] = 0
            pos.cheapskates[g, seat] = 0
            pos.items_won[g, seat] = 0
            pos.destined_won[g, seat] = 0
            pos.bid_index[g, seat] = -1
            pos.held[g, seat] = -1
        for item in range(pos.remaining.shape[1]):
            pos.remaining[g, item] = True
        pos.auctioneer[g] = auctioneers[g]
        pos.rounds_done[g] = 0
        pos.item[g] = pos.first[g] = pos.position[g] = -1


@njit(cache=True, _nrt=False)
def _play(  # type: ignore[no-untyped-def]
    kinds, parameters, totals, counts, lock_after, n_bids, available_totals, top_sums,
    best_at_most, cheapest_at_least, destined, min_cards, n, rounds, destined_bonus,
    keep_overspent,
    geek, fame, lock, remaining, auctioneer, cheapskates, items_won, destined_won, rounds_done,
    item, first, position, bid_index, held, uniforms,
    r_item, r_first, r_bid_index, r_lock_before, r_total, r_cards, r_role, r_fame_after,
    r_score_after, r_kept, record, seat_total,
):  # fmt: skip
    """``play`` on plain arrays; ``seat_total`` (n,) holds each seat's bid total during a
    reveal."""
    for g in range(fame.shape[0]):
        # This game's scalars live in locals while it plays (written back at the end).
        d = 0
        game_auctioneer, r = auctioneer[g], rounds_done[g]
        game_item, game_first, game_position = item[g], first[g], position[g]
        up = 0  # items remaining (one goes each round)
        for one in range(remaining.shape[1]):
            up += remaining[g, one]
        while r < rounds:
            if game_position < 0:
                game_item, game_first = _auction(
                    kinds[game_auctioneer], remaining, destined, geek, g, game_auctioneer, n,
                    uniforms[d, g], up,
                )  # fmt: skip
                d += 1
                game_position = 0
            while game_position < n:
                actor = _next_seat(game_first, game_position, n)
                bid = _bid(
                    kinds[actor], parameters[actor], totals, n_bids, available_totals, top_sums,
                    best_at_most, cheapest_at_least, destined, min_cards, rounds,
                    geek, fame, lock, held, g, game_auctioneer, r, game_item, game_first,
                    game_position, actor, n, uniforms[d, g],
                )  # fmt: skip
                d += 1
                bid_index[g, actor] = bid
                held[g, actor] = counts[lock[g, actor], bid]
                game_position += 1
            # The reveal (docs/rules.md): the highest total wins (ties: closest to the First
            # Bidder), the lowest is the cheapskate (ties: farthest from the First Bidder).
            winner = cheapskate = game_first
            best = worst = totals[lock[g, game_first], bid_index[g, game_first]]
            seat_total[game_first] = best
            for offset in range(1, n):
                seat = _next_seat(game_first, offset, n)
                total = totals[lock[g, seat], bid_index[g, seat]]
                seat_total[seat] = total
                if total > best:
                    winner, best = seat, total
                if total <= worst:
                    cheapskate, worst = seat, total
            # Every seat locks its top card and gains its total, then the cheapskate's and the
            # winner's own rules override (no branch per seat: who wins is random).
            winner_fame, cheapskate_fame = fame[g, winner], fame[g, cheapskate]
            for seat in range(n):
                before, bid = lock[g, seat], bid_index[g, seat]
                total = seat_total[seat]
                if record:
                    r_bid_index[g, r, seat] = bid
                    r_lock_before[g, r, seat] = before
                    r_total[g, r, seat] = total
                    r_cards[g, r, seat] = counts[before, bid]
                bid_index[g, seat] = -1
                held[g, seat] = -1
                lock[g, seat] = lock_after[before, bid]
                fame[g, seat] += total
            lock[g, cheapskate] = 0  # the cheapskate locks nothing and gains nothing
            fame[g, cheapskate] = cheapskate_fame
            after = winner_fame - best  # the winner pays (never the cheapskate: n >= 2)
            kept = (after >= 0) | keep_overspent
            fame[g, winner] = max(after, 0)
            items_won[g, winner] += kept
            destined_won[g, winner] += kept & destined[geek[g, winner], game_item]
            cheapskates[g, cheapskate] += 1
            remaining[g, game_item] = False
            up -= 1
            if record:
                r_item[g, r] = game_item
                r_first[g, r] = game_first
                r_kept[g, r] = kept
                for seat in range(n):
                    role = ROLE_GAINER
                    if seat == winner:
                        role = ROLE_WINNER
                    elif seat == cheapskate:
                        role = ROLE_CHEAPSKATE
                    r_role[g, r, seat] = role
                    r_fame_after[g, r, seat] = fame[g, seat]
                    r_score_after[g, r, seat] = (
                        fame[g, seat] + destined_bonus * destined_won[g, seat]
                    )
            game_auctioneer = cheapskate
            r += 1
            game_item = game_first = game_position = -1
        auctioneer[g], rounds_done[g] = game_auctioneer, r
        item[g], first[g], position[g] = game_item, game_first, game_position


def standings(tables: Tables, pos: Positions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, ranks, win shares) per game and seat of finished games: ranks 1 = best, ties on
    score broken by items won, still tied share the rank and the win (as ``engine.score``).
    One compiled pass over the games (``_standings``)."""
    games, n = pos.fame.shape
    scores = np.empty((games, n), np.int32)
    ranks = np.empty((games, n), np.int8)
    shares = np.empty((games, n), np.float64)
    _standings(pos.fame, pos.destined_won, pos.items_won, tables.destined_bonus, tables.rounds,
               scores, ranks, shares, np.empty(n, np.int64))  # fmt: skip
    return scores, ranks, shares


@njit(cache=True, _nrt=False)
def _standings(  # type: ignore[no-untyped-def]
    fame, destined_won, items_won, bonus, rounds, scores, ranks, shares, keys
):
    """Each seat's score, its rank (1 + the seats whose (score, items won) is above its own)
    and its share of the win (1/k for each of k seats ranked 1), into the arrays given;
    ``keys`` (n,) holds a game's (score, items won) as one number."""
    games, n = fame.shape
    for g in range(games):
        for seat in range(n):
            score = fame[g, seat] + bonus * destined_won[g, seat]
            scores[g, seat] = score
            keys[seat] = np.int64(score) * (rounds + 1) + items_won[g, seat]
        top = keys[0]
        for seat in range(1, n):
            top = max(top, keys[seat])
        winners = 0
        for seat in range(n):
            above = 0
            for other in range(n):
                above += keys[other] > keys[seat]
            ranks[g, seat] = 1 + above
            winners += keys[seat] == top
        for seat in range(n):
            shares[g, seat] = 1.0 / winners if keys[seat] == top else 0.0


# -- the search agent's rounds ---------------------------------------------------------------
# The hidden-card sampler's draws turned into positions (``fill_samples``: what
# ``sampling.PositionSampler`` draws) and one whole round of the search agent's sequential
# halving (``play_round``). Here, beside ``_play``, so that numba's cache of them is renewed
# whenever the rules' code changes (it follows only the file a cached function is in).


@njit(cache=True)
def fill_samples(  # type: ignore[no-untyped-def]
    template, pos, u, count, copies, geek_pool, geek_seats, destined,
    bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative,
):  # fmt: skip
    """Rows ``k * count + f`` (k < ``copies``) of ``pos``: game 0 of ``template`` with filling f
    drawn from ``u[f]``: the other seats' geeks by a partial Fisher-Yates shuffle of
    ``geek_pool`` (one uniform each, in ``geek_seats`` order), then each bid made this round,
    known or drawn by inverting its cumulative weights (one uniform per hidden bid).

    Bid b is seat ``bid_seats[b]``'s, its candidates ``bid_indices[bid_starts[b]:bid_starts[b +
    1]]`` (bid table indices) with cumulative weights at the same places when ``bid_hidden[b]``.
    """
    games = count * copies
    n = template.geek.shape[1]
    items = template.remaining.shape[1]
    for row in range(games):
        for seat in range(n):
            pos.geek[row, seat] = template.geek[0, seat]
            pos.fame[row, seat] = template.fame[0, seat]
            pos.lock[row, seat] = template.lock[0, seat]
            pos.cheapskates[row, seat] = template.cheapskates[0, seat]
            pos.items_won[row, seat] = template.items_won[0, seat]
            pos.destined_won[row, seat] = template.destined_won[0, seat]
            pos.bid_index[row, seat] = template.bid_index[0, seat]
            pos.held[row, seat] = template.held[0, seat]
        for item in range(items):
            pos.remaining[row, item] = template.remaining[0, item]
        pos.auctioneer[row] = template.auctioneer[0]
        pos.rounds_done[row] = template.rounds_done[0]
        pos.item[row] = template.item[0]
        pos.first[row] = template.first[0]
        pos.position[row] = template.position[0]
    size = geek_pool.shape[0]
    pool = np.empty(size, geek_pool.dtype)
    for f in range(count):
        for slot in range(size):
            pool[slot] = geek_pool[slot]
        for k in range(geek_seats.shape[0]):  # the partial Fisher-Yates of sampling._Plan.state
            pick = int(u[f, k] * (size - k))
            geek = pool[pick]
            pool[pick] = pool[size - 1 - k]
            seat = geek_seats[k]
            for copy in range(copies):
                pos.geek[copy * count + f, seat] = geek
                pos.destined_won[copy * count + f, seat] = destined[seat, geek]
        k = geek_seats.shape[0]
        for b in range(bid_seats.shape[0]):
            start, stop = bid_starts[b], bid_starts[b + 1]
            chosen = start
            if bid_hidden[b]:  # bisect_right: the first cumulative weight above u
                while chosen < stop - 1 and bid_cumulative[chosen] <= u[f, k]:
                    chosen += 1
                k += 1
            for copy in range(copies):
                pos.bid_index[copy * count + f, bid_seats[b]] = bid_indices[chosen]


@njit(cache=True)
def play_round(  # type: ignore[no-untyped-def]
    kinds, parameters, tables, template, pos, rec, u, count, geek_pool, geek_seats, destined,
    bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative,
    me, auction, action_a, action_b, alive, drawn, uniforms, scores, ranks, shares,
):  # fmt: skip
    """One round of sequential halving: ``count`` fillings (``fill_samples``) once per
    surviving candidate ``alive[k]`` (rows ``k * count + f``), each row taking its candidate's
    action (auction: item ``action_a``, First Bidder ``action_b``; bid: bid table index
    ``action_a`` holding out ``action_b`` cards, by seat ``me``), played to the end with
    ``drawn[d, f]`` as decision d's uniform in every copy of filling f; the standings of the
    rows are written into the first rows of ``scores``, ``ranks`` and ``shares``."""
    copies = alive.shape[0]
    games = count * copies
    fill_samples(template, pos, u, count, copies, geek_pool, geek_seats, destined,
                 bid_seats, bid_hidden, bid_starts, bid_indices, bid_cumulative)  # fmt: skip
    for copy in range(copies):
        action = alive[copy]
        for f in range(count):
            row = copy * count + f
            if auction:  # as State.apply: the item is up, bidding starts at position 0
                pos.item[row] = action_a[action]
                pos.first[row] = action_b[action]
                pos.position[row] = 0
            else:
                pos.bid_index[row, me] = action_a[action]
                pos.held[row, me] = action_b[action]
                pos.position[row] += 1
            for d in range(drawn.shape[0]):
                uniforms[d, row] = drawn[d, f]
    t = tables
    _play(
        kinds, parameters, t.totals, t.counts, t.lock_after, t.n_bids, t.available_totals,
        t.top_sums, t.best_at_most, t.cheapest_at_least, t.destined, t.min_cards, t.players,
        t.rounds, t.destined_bonus, t.keep_overspent,
        pos.geek[:games], pos.fame[:games], pos.lock[:games], pos.remaining[:games],
        pos.auctioneer[:games], pos.cheapskates[:games], pos.items_won[:games],
        pos.destined_won[:games], pos.rounds_done[:games], pos.item[:games], pos.first[:games],
        pos.position[:games], pos.bid_index[:games], pos.held[:games], uniforms,
        rec.item, rec.first, rec.bid_index, rec.lock_before, rec.total, rec.cards, rec.role,
        rec.fame_after, rec.score_after, rec.kept, False, np.empty(t.players, np.int64),
    )  # fmt: skip
    _standings(
        pos.fame[:games], pos.destined_won[:games], pos.items_won[:games], t.destined_bonus,
        t.rounds, scores[:games], ranks[:games], shares[:games], np.empty(t.players, np.int64),
    )  # fmt: skip
