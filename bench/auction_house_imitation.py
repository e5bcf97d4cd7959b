"""Can a policy without lookahead learn the search's card play? An experiment toward issue 19's
one unmet target (Auction House: the best challenger's gain against a ``fitted`` table must be
at most half its gain against a heuristic one).

1. Labels: a lone ``search`` (``--label-budget`` playouts a decision, the agent's 32 by
   default) plays against three ``fitted`` players, seats rotated; at each of its card plays
   with two or more legal cards the script records the candidates' features
   (``FEATURE_NAMES``: whether the card wins the trick so far, is sure to, is a master or a
   trump, its rank, its suit's length, the trick number, the race for most tricks...) and the
   search's card.
2. Fit: a conditional logit (the chosen card's probability is softmax(weights . features) over
   the legal cards) by maximum likelihood (scipy's L-BFGS, a small L2 penalty); held-out
   accuracy on a fifth of the labels.
   With ``--rounds`` k > 1 the labelling repeats (DAgger): round r's tables are the imitation
   fitted on every earlier round's labels, the labelling seat asks the search but plays the
   imitation's card, and the logit is fitted again on all labels.
3. Judge: the *imitation* agent plays the fitted policy's auction, offers, take and kitty and
   the logit's most likely card; each challenger alone against three imitation players and
   against three fitted players on the same seeds (seat s from ``--seed`` + s), win share
   (ties split) with a 95% Wilson interval.

    python bench/auction_house_imitation.py        # 200 label games a seat, 400 judging
    python bench/auction_house_imitation.py --label-games 100 --games 50   # a quick look
    python bench/auction_house_imitation.py --with-fitted-card  # the fitted card as a feature
    python bench/auction_house_imitation.py --rounds 3          # DAgger, three rounds
    python bench/auction_house_imitation.py --rounds 3 --games 1000 --challengers determinization
    python bench/auction_house_imitation.py --against-search 100   # how exploitable search is

The agent is a Python step-engine agent (a few thousand decisions a second), an experiment
rather than a player of the workbench (stateless: one serves every seat of a table); local
processes on every core.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from scipy.optimize import minimize
from strength import lone_share

from workbench.designer.executors import local_processes
from workbench.games import auction_house as game
from workbench.games.auction_house import layout
from workbench.games.auction_house.actions import Play
from workbench.games.auction_house.cards import DECK, SUIT_SIZE
from workbench.games.auction_house.compiled import legal_of
from workbench.games.auction_house.hands import card_bits
from workbench.games.auction_house.positions import observation_row
from workbench.stats import proportion_interval

FEATURE_NAMES = (
    "wins", "sure", "trump", "rank", "master", "length",
    "lead*master", "lead*trump", "lead*length", "lead*rank",
    "wins*trick", "wins*race", "wins*block", "wins*last_seat", "discard*rank",
    "discard*length", "ruff", "wins*rank", "sure*trick", "lead*master*trick",
    "loses*rank", "makes_void", "wins*catch_up", "lead*suit_out",
    "no_trump*wins", "no_trump*lead*master", "lead*rank*trick", "wins*race*trick",
    "sure*no_trump*trick", "lead*trump*trick",
)  # fmt: skip
FITTED_CARD_NAMES = ("fitted_card", "fitted_card*trick", "fitted_card*lead")
ALL_CARDS = (1 << 40) - 1
#: The challengers judged by default.
CHALLENGERS = ("determinization", "search", "heuristic", "fitted", "imitation")
#: Where the sure-looking lead of a side master may still be ruffed.
RUFFABLE_MASTER = 0.7


def _trick_key(card: int, trump: int, led: int) -> int:
    """How a card ranks in the trick: 100 + rank for a trump, its rank in the suit led, else -1."""
    suit, rank = divmod(card, SUIT_SIZE)
    if suit == trump:
        return 100 + rank
    return rank if suit == led else -1


def features(row: np.ndarray, me: int, fitted_card: int | None = None) -> tuple[list[int], Any]:
    """The legal cards of seat ``me`` on its view ``row`` and one feature row per card
    (``FEATURE_NAMES``, then ``FITTED_CARD_NAMES`` when ``fitted_card`` is given)."""
    hand, played = int(row[layout.HANDS + me]), int(row[layout.PLAYED])
    trump = int(row[layout.TRUMP])
    position, trick = int(row[layout.STEP]) % 4, int(row[layout.STEP]) // 4
    out = ALL_CARDS & ~played & ~hand
    if row[layout.KITTY_CARDS + me] >= 0:
        out &= ~(1 << int(row[layout.KITTY_CARDS + me]))
    won = [int(row[layout.WON + seat]) for seat in range(4)]
    best_other = max(won[seat] for seat in range(4) if seat != me)
    led, best_key, winner = -1, -2, -1
    if position > 0:
        led = int(row[layout.TRICK]) // SUIT_SIZE
        for k in range(position):
            key = _trick_key(int(row[layout.TRICK + k]), trump, led)
            if key > best_key:
                best_key, winner = key, (me - position + k) % 4
    no_trump, lead = float(trump < 0), float(position == 0)
    progress, race = trick / 8.0, won[me] - best_other
    cards = card_bits(int(legal_of(row, me)))
    width = len(FEATURE_NAMES) + (len(FITTED_CARD_NAMES) if fitted_card is not None else 0)
    table = np.zeros((len(cards), width))
    for i, card in enumerate(cards):
        suit, rank = divmod(card, SUIT_SIZE)
        suit_out = (out >> (SUIT_SIZE * suit)) & 1023
        length = bin((hand >> (SUIT_SIZE * suit)) & 1023).count("1")
        master = float(suit_out >> (rank + 1) == 0)
        trump_card = float(suit == trump)
        if position > 0:
            wins = float(_trick_key(card, trump, led) > best_key)
            sure = wins if position == 3 else wins * master
            discard = float(suit != led and suit != trump)
            ruff = float(suit == trump and led != trump)
            block = won[winner] - won[me]
        else:
            wins, discard, ruff, block = 0.0, 0.0, 0.0, 0
            sure = master * (1.0 if suit == trump or trump < 0 else RUFFABLE_MASTER)
        scaled = rank / 9.0
        values = [
            wins, sure, trump_card, scaled, master, length / 9.0,
            lead * master, lead * trump_card, lead * length / 9.0, lead * scaled,
            wins * progress, wins * race, wins * block, wins * (position == 3), discard * scaled,
            discard * length / 9.0, ruff, wins * scaled, sure * progress, lead * master * progress,
            (1 - wins) * scaled * (1 - lead), float(length == 1 and not trump_card),
            wins * (9 - trick + race) / 9.0, lead * bin(suit_out).count("1") / 10.0,
            no_trump * wins, no_trump * lead * master, lead * scaled * progress,
            wins * race * progress, sure * no_trump * progress, lead * trump_card * progress,
        ]  # fmt: skip
        if fitted_card is not None:
            mine = float(card == fitted_card)
            values += [mine, mine * progress, mine * lead]
        table[i] = values
    return cards, table


def _fitted_card(fitted: Any, observation: Any, legal_actions: Any) -> int:
    """The fitted policy's card here (its card play draws no random number that matters)."""
    return DECK.index(fitted(observation, legal_actions, np.random.default_rng(0)).card)


class Recorder:
    """A seat that asks a search at each of its card plays and records (features, the search's
    index); it plays the search's card, or ``player``'s when given (later rounds: the labels
    then come from the positions the imitation reaches)."""

    name = "search"

    def __init__(self, with_fitted_card: bool, budget: int, player: Any = None) -> None:
        self.search = game.make_agent("search", budget=budget)
        self.fitted = game.make_agent("fitted")
        self.with_fitted_card, self.player, self.labels = with_fitted_card, player, []

    def __call__(self, observation: Any, legal_actions: Any, rng: Any) -> Any:
        action = self.search(observation, legal_actions, rng)
        if observation.phase == "play" and len(legal_actions) > 1:
            mine = _fitted_card(self.fitted, observation, legal_actions)
            cards, table = features(observation_row(observation), observation.player,
                                    mine if self.with_fitted_card else None)  # fmt: skip
            self.labels.append((table, cards.index(DECK.index(action.card))))
        if self.player is not None:
            return self.player(observation, legal_actions, rng)
        return action


class ImitationAgent:
    """The fitted policy everywhere but card play, where it plays the logit's likeliest card."""

    name = "imitation"

    def __init__(self, weights: np.ndarray, with_fitted_card: bool) -> None:
        self.weights, self.with_fitted_card = weights, with_fitted_card
        self.fitted = game.make_agent("fitted")

    def __call__(self, observation: Any, legal_actions: Any, rng: Any) -> Any:
        if observation.phase != "play" or len(legal_actions) == 1:
            return self.fitted(observation, legal_actions, rng)
        mine = _fitted_card(self.fitted, observation, legal_actions)
        cards, table = features(observation_row(observation), observation.player,
                                mine if self.with_fitted_card else None)  # fmt: skip
        return Play(DECK[cards[int(np.argmax(table @ self.weights))]])


def collect(seat: int, games: int, seed: int, with_fitted_card: bool, budget: int,
            weights: np.ndarray | None = None) -> list:  # fmt: skip
    """Labels from ``games`` games with the labelling seat in ``seat``: a lone search among
    fitted players, or (``weights`` given) an imitation seat among imitation players."""
    table = "fitted" if weights is None else ImitationAgent(weights, with_fitted_card)
    recorder = Recorder(with_fitted_card, budget, None if weights is None else table)
    lineup: list[Any] = [table] * 4
    lineup[seat] = recorder
    game.simulate(game.Rules(), lineup, games=games, seed=seed, progress=False)
    return recorder.labels


def _negative_log_likelihood(
    weights: np.ndarray, stacked: np.ndarray, group: np.ndarray, chosen: np.ndarray,
    penalty: float,
) -> tuple[float, np.ndarray]:  # fmt: skip
    """The conditional logit's penalised negative log-likelihood and its gradient."""
    groups = len(chosen)
    scores = stacked @ weights
    top = np.full(groups, -np.inf)
    np.maximum.at(top, group, scores)
    exps = np.exp(scores - top[group])
    sums = np.zeros(groups)
    np.add.at(sums, group, exps)
    log_likelihood = (scores[chosen] - top - np.log(sums)).sum()
    residual = exps / sums[group]
    residual[chosen] -= 1.0
    value = -log_likelihood + 0.5 * penalty * weights @ weights
    return value, stacked.T @ residual + penalty * weights


def fit_logit(labels: list, penalty: float = 1.0) -> np.ndarray:
    """The conditional logit's weights (maximum likelihood with an L2 ``penalty``)."""
    sizes = np.array([len(table) for table, _ in labels])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = starts + np.array([index for _, index in labels])
    stacked = np.concatenate([table for table, _ in labels])
    group = np.repeat(np.arange(len(labels)), sizes)
    start = np.zeros(stacked.shape[1])
    result = minimize(_negative_log_likelihood, start, args=(stacked, group, chosen, penalty),
                      jac=True, method="L-BFGS-B")  # fmt: skip
    return result.x


def accuracy(weights: np.ndarray, labels: list) -> float:
    """How often the logit's likeliest card is the search's."""
    return float(np.mean([np.argmax(table @ weights) == index for table, index in labels]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label-games", type=int, default=200, help="label games per seat")
    parser.add_argument("--games", type=int, default=400, help="judging games per seat")
    parser.add_argument("--seed", type=int, default=900)
    parser.add_argument("--with-fitted-card", action="store_true")
    parser.add_argument("--label-budget", type=int, default=32, help="the labelling search's")
    parser.add_argument("--against-search", type=int, default=0, metavar="GAMES",
                        help="first play determinization and search alone against three "
                             "searches, GAMES a seat (seat s from seed 700 + s), and stop")
    parser.add_argument("--challengers", default=",".join(CHALLENGERS),
                        help="judge only the matches of these challengers (comma-separated)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="labelling rounds; from the second, in the imitation's positions")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.against_search:
        judge([("determinization", "search"), ("search", "search")], {}, args.against_search,
              700, started)
        return
    labels: list = []
    weights = None
    for round_ in range(args.rounds):
        with local_processes() as pool:
            parts = [pool.submit(collect, seat, args.label_games, 1000 * (seat + 1) + round_,
                                 args.with_fitted_card, args.label_budget, weights)
                     for seat in range(4)]  # fmt: skip
            labels += [label for part in parts for label in part.result()]
        order = np.random.default_rng(0).permutation(len(labels))
        held = set(order[: len(labels) // 5].tolist())
        train = [label for i, label in enumerate(labels) if i not in held]
        test = [label for i, label in enumerate(labels) if i in held]
        weights = fit_logit(train)
        chance = float(np.mean([1 / len(table) for table, _ in test]))
        print(f"round {round_ + 1}: {len(labels):,} card plays labelled "
              f"({time.perf_counter() - started:.0f} s); held-out accuracy "
              f"{accuracy(weights, test):.3f} (chance {chance:.3f})", flush=True)  # fmt: skip
        weights = fit_logit(labels)
    names = FEATURE_NAMES + (FITTED_CARD_NAMES if args.with_fitted_card else ())
    print("weights: " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(names, weights, strict=True)))
    imitation = ImitationAgent(weights, args.with_fitted_card)
    matches = [
        ("determinization", "imitation"), ("determinization", "fitted"), ("search", "imitation"),
        ("search", "fitted"), ("heuristic", "imitation"), ("fitted", "imitation"),
        ("imitation", "fitted"), ("imitation", "heuristic"),
    ]  # fmt: skip
    chosen = set(args.challengers.split(","))
    matches = [(challenger, table) for challenger, table in matches if challenger in chosen]
    judge(matches, {"imitation": imitation}, args.games, args.seed, started)


def judge(matches: list[tuple[str, str]], makers: dict[str, Any], games: int, seed: int,
          started: float) -> None:  # fmt: skip
    """Print each challenger's share alone against three of each table (seat s from seed
    ``seed`` + s), on every core."""
    with local_processes() as pool:
        futures = {
            (challenger, table): [
                pool.submit(lone_share, "auction_house", None, makers.get(challenger, challenger),
                            makers.get(table, table), seat, games, seed + seat)
                for seat in range(4)
            ]
            for challenger, table in matches
        }  # fmt: skip
        for (challenger, table), seats in futures.items():
            share, total = sum(f.result() for f in seats), 4 * games
            low, high = proportion_interval(share, total)
            elapsed = time.perf_counter() - started
            print(f"{challenger} alone vs {table}: {share / total:.3f} [{low:.3f}, {high:.3f}] "
                  f"over {total:,} ({elapsed:.0f} s)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
