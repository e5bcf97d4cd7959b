"""Where Auction House's ``search`` finds its edge over ``fitted`` (issue 19's one unmet target:
a lone search gains as much against a fitted table as against a heuristic one).

1. Restricted search: one seat searches (default budget) only in some of its decisions (by
   phase, early or late tricks of a deal, early or late deals of the game) and plays the fitted
   policy in the rest, against three fitted players; seats rotated, every
   restriction on the same deals (game g: seed + g, the searching seat g mod 4). Its win share
   (ties split) with a 95% Wilson interval; the fair share is 0.25.
2. Agreement on card play: at every play decision of a lone search (with at least two cards
   worth searching), a second search on the same observation (other random numbers) and the
   fitted policy's card, each compared with the first search's card. If the fitted policy
   agrees with the search about as often as the search agrees with itself, most disagreements
   are the search's sampling noise and the edge sits in a few positions.

    python bench/auction_house_search_edge.py             # 1,000 games per restriction
    python bench/auction_house_search_edge.py --games 200 --agreement-games 20   # a quick look

Local processes on every core (restrictions and agreement games spread over them).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from workbench.designer.executors import local_processes
from workbench.games.auction_house.engine import new_game
from workbench.games.auction_house.rules import PLAYERS, Rules
from workbench.games.auction_house.search import (
    AuctionHouseSearchAgent,
    candidates,
    rollout_agents,
)
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
}


def _fitted() -> Any:
    """The fitted policy at the rulebook's rules (the shipped fit)."""
    return rollout_agents(Rules())[0]


def restricted_shares(restriction: str, first: int, count: int, seed: int) -> list[float]:
    """The searching seat's win share in games ``first`` .. ``first + count - 1``."""
    searches = RESTRICTIONS[restriction]
    fitted, search, shares = _fitted(), AuctionHouseSearchAgent(), []
    for game in range(first, first + count):
        state, me = new_game(Rules(), seed=seed + game), game % PLAYERS
        rng = np.random.default_rng([seed, game])
        while not state.is_over:
            seat = state.to_play
            observation, legal = state.observation(seat), state.legal_actions()
            use_search = seat == me and searches(observation)
            agent = search if use_search else fitted
            state = state.apply(agent(observation, legal, rng))
        scores = np.array(state.scores)
        top = scores == scores.max()
        shares.append(float(top[me] / top.sum()))
    return shares


def agreement(first: int, count: int, seed: int) -> tuple[int, int, int]:
    """(play decisions compared, a second search agreeing, the fitted policy agreeing)."""
    fitted, search = _fitted(), AuctionHouseSearchAgent()
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
            if observation.phase == "play" and len(candidates(observation, legal)) > 1:
                compared += 1
                again += search(observation, legal, second) == action
                same += fitted(observation, legal, second) == action
            state = state.apply(action)
    return compared, again, same


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
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    arguments = parser.parse_args()
    if arguments.games < PLAYERS or arguments.agreement_games < 1:
        parser.error(f"--games must be at least {PLAYERS} and --agreement-games at least 1")
    started = time.perf_counter()
    with local_processes(arguments.workers) as pool:
        jobs = {
            name: [pool.submit(restricted_shares, name, first, count, arguments.seed)
                   for first, count in _blocks(arguments.games, arguments.workers)]
            for name in RESTRICTIONS
        }  # fmt: skip
        agreements = [
            pool.submit(agreement, first, count, arguments.seed + 1_000_000)
            for first, count in _blocks(arguments.agreement_games, arguments.workers)
        ]
        print("Search (default budget) alone against 3 fitted, searching only where named:")
        for name, futures in jobs.items():
            shares = [share for future in futures for share in future.result()]
            print(_line(name, sum(shares), len(shares)))
        compared, again, same = np.sum([f.result() for f in agreements], axis=0)
    print(f"Play decisions with two or more cards worth searching ({arguments.agreement_games} "
          "games): the first search's card chosen again by")  # fmt: skip
    print(_line("a second search", int(again), int(compared)))
    print(_line("the fitted policy", int(same), int(compared)))
    print(f"({time.perf_counter() - started:.0f} s, {arguments.workers} processes)")


if __name__ == "__main__":
    main()
