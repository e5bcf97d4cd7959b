"""Where Auction House's ``search`` finds its edge over ``fitted`` (issue 19's one unmet target:
a lone search gains as much against a fitted table as against a heuristic one).

1. Restricted search: one seat searches (default budget) only in some of its decisions (by
   phase, early or late tricks of a deal, early or late deals of the game, the last deal) and
   plays the fitted policy in the rest, against three fitted players; seats rotated, every
   restriction on the same deals (game g: seed + g, the searching seat g mod 4). Its win share
   (ties split) with a 95% Wilson interval; the fair share is 0.25.
2. Agreement on card play: at every play decision of a lone search (with at least two cards
   worth searching), a second search on the same observation (other random numbers) and the
   fitted policy's card, each compared with the first search's card. If the fitted policy
   agrees with the search about as often as the search agrees with itself, most disagreements
   are the search's sampling noise and the edge sits in a few positions.
3. One deal both ways: everyone plays fitted up to deal d (default 6, 12 and 13); from that
   same position the lone seat plays the deal's cards once by the fitted policy and once by
   search (the others fitted, the same random numbers). How often it takes the kitty each way,
   and each trick by its number: what the search's card play wins, deal by deal.
4. What the voids are worth to the search: part 1's "everywhere" again, the search's sampler
   now blind to the suits each seat has shown void in (it may place a card of such a suit in
   that hand), on the same deals. The difference is what reading the voids wins the search.
5. Lookahead at the table: part 1's lone search (searching everywhere) against three seats
   that play the fitted policy but search where a restriction says (their last two or four
   tricks, the last deal's play, all their card play; ``--tables``), on the same deals: what
   a table with that much lookahead would take back from the lone search. The lone search
   still models the table as the fitted policy, so it plays against seats stronger than its
   model: its gain here is an optimistic reading for the table (a table that searched would
   be modelled as it plays). ``--table-budget`` sets the table seats' playouts a decision.
6. What such lookahead costs: at every decision with a choice from trick ``--from-trick`` on
   (default 6; any seat) of fitted games, ``--worlds`` rows filled by the search's sampler
   and every candidate card played on each to the deal's end by the compiled playouts
   (``play_round``); seconds a decision and a deal (medians of 5), with the sampler and for
   the playouts alone.
7. Mixed card play: the fitted policy's cards drawn at each of ``--temperatures`` (the
   shipped fit's weights; 0 plays the highest weighted sum always): part 1's lone search
   against three such players, modelling them as they play, on the same deals; with
   ``--argmax-model`` also, at each temperature above 0, a lone search that models them as if
   they always played their favourite card (a best response that ignores the mixing); and the
   fitted policy at each temperature alone against three heuristic players
   (``--strength-games``, seats rotated, compiled): what mixing costs the table. The fitted
   agent plays at ``CARD_TEMPERATURE`` (0).

    python bench/auction_house_search_edge.py             # 1,000 games per restriction
    python bench/auction_house_search_edge.py --games 200 --agreement-games 20 --deal-games 200
    python bench/auction_house_search_edge.py --parts 5 --games 1000   # part 5 alone
    python bench/auction_house_search_edge.py --parts 6 --cost-games 30 --worlds 8
    python bench/auction_house_search_edge.py --parts 7 --games 4000 --seed 700 --argmax-model

Local processes on every core (restrictions, agreement games and deals spread over them).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from workbench.designer.executors import local_processes
from workbench.designer.exploitability import lone_shares
from workbench.games.auction_house import agents, hidden, sampling, search
from workbench.games.auction_house.engine import new_game
from workbench.games.auction_house.game import GAME, make_agent
from workbench.games.auction_house.rules import PLAYERS, TRICKS, Rules
from workbench.games.auction_house.search import candidates
from workbench.kit.seeding import seed_sequence
from workbench.kit.streams import state_of
from workbench.stats import proportion_interval

#: Tricks of a deal counted as early (the first five); the rest are late.
EARLY_TRICKS = 5
#: The first of the game's late deals (9 to 13 of the rulebook's 13), where the scores matter.
LATE_DEAL = 9

#: name -> whether the searching seat searches this decision (else it plays the fitted policy).
RESTRICTIONS: dict[str, Callable[[Any], bool]] = {
    "everywhere": lambda observation: True,
    "play only": lambda observation: observation.phase == "play",
    "auction, offer, take, kitty only": lambda observation: observation.phase != "play",
    "kitty only": lambda observation: observation.phase == "kitty",
    "auction, offer, take only": lambda observation: (
        observation.phase in ("auction", "offer", "take")
    ),
    f"play, tricks 1-{EARLY_TRICKS} only": lambda observation: (
        observation.phase == "play" and len(observation.tricks) < EARLY_TRICKS
    ),
    f"play, tricks {EARLY_TRICKS + 1}-9 only": lambda observation: (
        observation.phase == "play" and len(observation.tricks) >= EARLY_TRICKS
    ),
    f"deals 1-{LATE_DEAL - 1} only": lambda observation: observation.deal < LATE_DEAL,
    f"deals {LATE_DEAL}-13 only": lambda observation: observation.deal >= LATE_DEAL,
    "deal 13 only": lambda observation: observation.deal == observation.rules.deals,
    "deal 13, play only": lambda observation: (
        observation.deal == observation.rules.deals and observation.phase == "play"
    ),
}


def _fitted() -> Any:
    """The fitted policy at the rulebook's rules (the shipped fit)."""
    return make_agent("fitted").policy_for(Rules())


def _lone_shares(player: Any, plays: Callable[[Any], bool], others: Any, first: int,
                 count: int, seed: int) -> list[float]:  # fmt: skip
    """The lone seat's win share (ties split) in games ``first`` .. ``first + count - 1``:
    ``player`` where ``plays(observation)``, ``others`` for every other decision."""
    shares = []
    for game in range(first, first + count):
        me, rng = game % PLAYERS, np.random.default_rng([seed, game])
        state = _play(new_game(Rules(), seed=seed + game), me, player, plays, others, rng)
        scores = np.array(state.scores)
        top = scores == scores.max()
        shares.append(float(top[me] / top.sum()))
    return shares


def restricted_shares(restriction: str, first: int, count: int, seed: int) -> list[float]:
    """The searching seat's win share, searching where ``restriction`` says (part 1)."""
    return _lone_shares(make_agent("search"), RESTRICTIONS[restriction], _fitted(), first, count,
                        seed)  # fmt: skip


@contextmanager
def _blind_to_voids() -> Iterator[None]:
    """The search's sampler (every module that reads ``read_hidden``) told no seat is void."""
    modules, read = (agents, hidden, sampling, search), hidden.read_hidden

    def blind(observation: Any) -> hidden.Hidden:
        return read(observation)._replace(voids=(0,) * (PLAYERS - 1))

    for module in modules:
        module.read_hidden = blind
    try:
        yield
    finally:
        for module in modules:
            module.read_hidden = read


def void_blind_shares(first: int, count: int, seed: int) -> list[float]:
    """``restricted_shares("everywhere", ...)`` with the search's sampler blind to voids."""
    with _blind_to_voids():
        return restricted_shares("everywhere", first, count, seed)


#: Part 5's tables: where the three table seats search (else they play the fitted policy).
TABLE_RESTRICTIONS: dict[str, Callable[[Any], bool]] = {
    "play, tricks 8-9 only": lambda observation: (
        observation.phase == "play" and len(observation.tricks) >= TRICKS - 2
    ),
    **{name: RESTRICTIONS[name]
       for name in (f"play, tricks {EARLY_TRICKS + 1}-9 only", "deal 13, play only", "play only")},
}  # fmt: skip


def table_lookahead_shares(restriction: str, budget: int, first: int, count: int, seed: int
                          ) -> list[float]:  # fmt: skip
    """The lone search's win share when the table's seats search where ``restriction`` says,
    with ``budget`` playouts a decision (part 5)."""
    fitted, table_search = _fitted(), make_agent("search", budget=budget)
    searches = TABLE_RESTRICTIONS[restriction]

    def table(observation: Any, legal: Any, rng: np.random.Generator) -> Any:
        return (table_search if searches(observation) else fitted)(observation, legal, rng)

    return _lone_shares(make_agent("search"), RESTRICTIONS["everywhere"], table, first, count,
                        seed)  # fmt: skip


def _tempered(temperature: float) -> Any:
    """The shipped fit's policy with its cards drawn at ``temperature``."""
    return agents.FittedPolicy(_fitted().params, temperature=temperature)


def mixed_table_shares(temperature: float, model_temperature: float, first: int, count: int,
                       seed: int) -> list[float]:  # fmt: skip
    """The lone search's win share against three players drawing their cards at
    ``temperature``, modelling them as drawing at ``model_temperature`` (part 7)."""
    player = make_agent("search", model=_tempered(model_temperature))
    return _lone_shares(player, RESTRICTIONS["everywhere"], _tempered(temperature), first,
                        count, seed)  # fmt: skip


def mixed_strength(temperature: float, games: int, seed: int) -> list[float]:
    """The policy at ``temperature`` alone against three heuristic players, seats rotated,
    compiled: its win share in each game (part 7)."""
    return list(lone_shares(GAME, Rules(), _tempered(temperature), agents.HeuristicAgent(),
                            games, seed_sequence(seed)))  # fmt: skip


def lookahead_cost(games: int, worlds: int, first_trick: int, seed: int
                   ) -> tuple[int, int, float, float]:  # fmt: skip
    """(decisions with a choice from trick ``first_trick`` on, deals, median seconds for all of
    them with the sampler, and for the playouts alone): part 6, in this process."""
    rules, fitted, searcher = Rules(), _fitted(), make_agent("search")
    kinds, params, assignment, draw_uniforms = searcher.compiled_rollouts(rules)
    rng, decisions = np.random.default_rng(seed), []
    for game in range(games):
        state = new_game(rules, seed=seed + game)
        while not state.is_over:
            observation, legal = state.observation(state.to_play), state.legal_actions()
            if observation.phase == "play" and len(observation.tricks) >= first_trick - 1:
                choices = candidates(observation, legal, fitted)
                if len(choices) > 1:
                    decisions.append((observation.player, *search._encoded(observation, choices)))
            state = state.apply(fitted(observation, legal, rng))

    def filled(stream: np.ndarray) -> list[np.ndarray]:
        return [sampling.fill(position, worlds, stream, rng)[0] for _, position, *_ in decisions]

    def playouts(stream: np.ndarray, rows: list[np.ndarray]) -> None:
        for (me, position, starts, cards, suits), world in zip(decisions, rows, strict=True):
            search.play_round(stream, world, position.trump_order, position.turned, me, starts,
                              cards, suits, kinds, params, assignment[:worlds], rules.deals,
                              False, draw_uniforms)  # fmt: skip

    def median_seconds(work: Callable[[], Any]) -> float:
        times = []
        for _ in range(5):
            started = time.perf_counter()
            work()
            times.append(time.perf_counter() - started)
        return float(np.median(times))

    stream = state_of(np.random.default_rng(seed))
    rows = filled(stream)
    playouts(stream, rows)  # compiled (and warmed) before timing
    with_sampler = median_seconds(lambda: playouts(stream, filled(stream)))
    alone = median_seconds(lambda: playouts(stream, rows))
    return len(decisions), games * rules.deals, with_sampler, alone


def agreement(first: int, count: int, seed: int) -> tuple[int, int, int]:
    """(play decisions compared, a second search agreeing, the fitted policy agreeing)."""
    fitted, search = _fitted(), make_agent("search")
    compared = again = same = 0
    for game in range(first, first + count):
        state, me = new_game(Rules(), seed=seed + game), game % PLAYERS
        rng = np.random.default_rng([seed, game])
        second = np.random.default_rng([seed, game, 1])
        while not state.is_over:
            seat = state.to_play
            observation, legal = state.observation(seat), state.legal_actions()
            if seat != me:
                state = state.apply(fitted(observation, legal, rng))
                continue
            action = search(observation, legal, rng)
            if observation.phase == "play" and len(candidates(observation, legal, fitted)) > 1:
                compared += 1
                again += search(observation, legal, second) == action
                same += fitted(observation, legal, second) == action
            state = state.apply(action)
    return compared, again, same


def _play(state: Any, me: int, player: Any, plays: Callable[[Any], bool], fitted: Any,
          rng: np.random.Generator, to_deal_end: bool = False) -> Any:  # fmt: skip
    """``state`` played to the game's end (or its deal's): seat ``me``'s decisions where
    ``plays(observation)`` by ``player``, every other decision by ``fitted``."""
    deal = state.deal
    while not state.is_over and not (to_deal_end and state.deal != deal):
        seat = state.to_play
        observation, legal = state.observation(seat), state.legal_actions()
        agent = player if seat == me and plays(observation) else fitted
        state = state.apply(agent(observation, legal, rng))
    return state


def _in_play(observation: Any) -> bool:
    return observation.phase == "play"


def one_deal(deal: int, first: int, count: int, seed: int) -> np.ndarray:
    """Deal ``deal`` played from the same position both ways (module docstring, 3): per way
    (fitted, search) the kitties the lone seat took, then its tricks by trick number."""
    fitted, search = _fitted(), make_agent("search")
    taken = np.zeros((2, 1 + TRICKS))
    for game in range(first, first + count):
        state, me = new_game(Rules(), seed=seed + game), game % PLAYERS
        rng = np.random.default_rng([seed, game])
        while state.deal < deal:
            state = _play(state, me, fitted, _in_play, fitted, rng, to_deal_end=True)
        for way, player in enumerate((fitted, search)):
            again = np.random.default_rng([seed, game, 1])
            played = _play(state, me, player, _in_play, fitted, again, to_deal_end=True)
            record = played.history[deal - 1]
            taken[way, 0] += record.kitty_winner == me
            taken[way, 1:] += [trick.winner == me for trick in record.tricks]
    return taken


def _blocks(games: int, workers: int) -> list[tuple[int, int]]:
    """Games split into (first, count) blocks, a few per worker, whole rotations of seats."""
    size = max(PLAYERS, -(-games // (2 * workers)) // PLAYERS * PLAYERS)
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def _line(label: str, successes: float, trials: int) -> str:
    low, high = proportion_interval(successes, trials)
    return f"  {label:<34} {successes / trials:.3f} [{low:.3f}, {high:.3f}] over {trials:,}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per restriction")
    parser.add_argument("--agreement-games", type=int, default=40)
    parser.add_argument("--deal-games", type=int, default=2000, help="games per deal, part 3")
    parser.add_argument("--deals", type=int, nargs="+", default=[6, 12, 13])
    parser.add_argument("--parts", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6, 7],
                        choices=range(1, 8), help="which parts to run (default: all seven)")
    parser.add_argument("--tables", nargs="+", default=list(TABLE_RESTRICTIONS),
                        choices=list(TABLE_RESTRICTIONS), metavar="TABLE",
                        help=f"part 5's tables (default: all of {list(TABLE_RESTRICTIONS)})")
    parser.add_argument("--table-budget", type=int, default=search.BUDGET,
                        help="playouts a decision of part 5's searching table seats")
    parser.add_argument("--cost-games", type=int, default=30, help="fitted games, part 6")
    parser.add_argument("--worlds", type=int, default=8, help="rows a decision, part 6")
    parser.add_argument("--from-trick", type=int, default=EARLY_TRICKS + 1, choices=range(1, 10),
                        help="part 6 looks ahead from this trick of a deal on")
    parser.add_argument("--temperatures", type=float, nargs="+",
                        default=[0.0, 0.05, 0.2],
                        help="part 7's card temperatures (default: 0, 0.05 and 0.2)")
    parser.add_argument("--argmax-model", action="store_true",
                        help="part 7: also searches modelling each mixed table at 0")
    parser.add_argument("--strength-games", type=int, default=20_000,
                        help="part 7: games of each temperature alone against 3 heuristic")
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    if arguments.games < PLAYERS or arguments.agreement_games < 1 or arguments.deal_games < 1:
        parser.error(f"--games must be at least {PLAYERS}, --agreement-games and --deal-games "
                     "at least 1")  # fmt: skip
    if not all(t >= 0 for t in arguments.temperatures) or arguments.strength_games < PLAYERS:
        parser.error(f"--temperatures must be >= 0 and --strength-games at least {PLAYERS}")
    if not all(1 <= deal <= Rules().deals for deal in arguments.deals):
        parser.error(f"--deals must be deals of the game, 1 to {Rules().deals}")
    parts, seed = set(arguments.parts), arguments.seed
    started = time.perf_counter()
    with local_processes(arguments.workers) as pool:

        def spread(function: Callable[..., Any], *head: Any, games: int = arguments.games,
                   at: int = seed) -> list[Any]:  # fmt: skip
            return [pool.submit(function, *head, first, count, at)
                    for first, count in _blocks(games, arguments.workers)]  # fmt: skip

        jobs = {name: spread(restricted_shares, name) for name in RESTRICTIONS if 1 in parts}
        if 4 in parts:
            jobs["everywhere, blind to voids"] = spread(void_blind_shares)
        tables = {name: spread(table_lookahead_shares, name, arguments.table_budget)
                  for name in arguments.tables if 5 in parts}  # fmt: skip
        mixed = {}
        for temperature in arguments.temperatures if 7 in parts else []:
            mixed[f"cards at {temperature:g}, modelled so"] = spread(
                mixed_table_shares, temperature, temperature)
            if arguments.argmax_model and temperature > 0:
                mixed[f"cards at {temperature:g}, modelled at 0"] = spread(
                    mixed_table_shares, temperature, 0.0)
        strengths = {temperature: pool.submit(mixed_strength, temperature,
                                              arguments.strength_games, seed)
                     for temperature in (arguments.temperatures if 7 in parts else [])}  # fmt: skip
        agreements = spread(agreement, games=arguments.agreement_games, at=seed + 1_000_000
                            ) if 2 in parts else []  # fmt: skip
        deals = {deal: spread(one_deal, deal, games=arguments.deal_games)
                 for deal in arguments.deals if 3 in parts}  # fmt: skip
        if jobs:
            print("Search (default budget) alone against 3 fitted, searching only where named:")
        for name, futures in jobs.items():
            shares = [share for future in futures for share in future.result()]
            print(_line(name, sum(shares), len(shares)))
        if tables:
            print("Search (everywhere) alone against 3 fitted seats that search where named "
                  f"({arguments.table_budget} playouts a decision):")
        for name, futures in tables.items():
            shares = [share for future in futures for share in future.result()]
            print(_line(f"table: {name}", sum(shares), len(shares)))
        if mixed:
            print("Search (everywhere) alone against 3 fitted players drawing their cards at a "
                  "temperature:")
        for name, futures in mixed.items():
            shares = [share for future in futures for share in future.result()]
            print(_line(f"table: {name}", sum(shares), len(shares)))
        if strengths:
            print("The fitted policy at a temperature alone against 3 heuristic players:")
        for temperature, future in strengths.items():
            shares = future.result()
            print(_line(f"cards at {temperature:g}", sum(shares), len(shares)))
        if agreements:
            compared, again, same = np.sum([f.result() for f in agreements], axis=0)
            print(f"Play decisions with two or more cards worth searching "
                  f"({arguments.agreement_games} games): the first search's card chosen again by")
            print(_line("a second search", int(again), int(compared)))
            print(_line("the fitted policy", int(same), int(compared)))
        taken = {deal: np.sum([f.result() for f in futures], axis=0)
                 for deal, futures in deals.items()}  # fmt: skip
    games = arguments.deal_games
    if taken:
        print(f"One deal from the same position ({games:,} games), the lone seat's cards by:")
    for deal, counts in taken.items():
        for way, name in enumerate(("fitted", "search")):
            print(_line(f"deal {deal}, {name}: kitty taken", counts[way, 0], games))
            tricks = " ".join(f"{share:.2f}" for share in counts[way, 1:] / games)
            print(f"    tricks taken by trick number: {tricks}")
    if 6 in parts:
        decisions, timed_deals, with_sampler, alone = lookahead_cost(
            arguments.cost_games, arguments.worlds, arguments.from_trick, seed
        )
        print(f"Lookahead from trick {arguments.from_trick} ({decisions:,} decisions with a "
              f"choice in {timed_deals:,} deals, {decisions / timed_deals:.1f} a deal; "
              f"{arguments.worlds} rows a decision, every candidate card on each):")  # fmt: skip
        for label, seconds in (("sampler and playouts", with_sampler), ("playouts alone", alone)):
            print(f"  {label:<22} {seconds / decisions * 1e6:6.0f} µs a decision, "
                  f"{seconds / timed_deals * 1e3:.2f} ms a deal (median of 5)")
    print(f"({time.perf_counter() - started:.0f} s, {arguments.workers} processes)")


if __name__ == "__main__":
    main()
