"""Analyses of the shared budget auction, each returning a polars frame: the solved
equilibrium (line of play, bid distributions, values over budgets and rule variants), agents
against it (exact and simulated), results by seat, and the rulebook's debrief question. Exact
results carry no interval; simulated ones their sample size and a 95% interval (Wilson for
win shares, Welch t for differences of mean bids)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import polars as pl

from workbench.checks import flag, whole_number
from workbench.games.shared_budget.agents import EquilibriumAgent
from workbench.games.shared_budget.engine import State, new_game, resolve_round
from workbench.games.shared_budget.game import GAME, simulate
from workbench.games.shared_budget.rules import MAX_BUDGET, Rules
from workbench.games.shared_budget.solver import Solution, StageGame, solve
from workbench.games.shared_budget.three_teams import ThreeTeamSolution
from workbench.kit.lineup import agent_label
from workbench.kit.seeding import derive_seed
from workbench.stats import difference_interval, proportion_interval


def _solution(solution: object) -> Solution:
    if not isinstance(solution, Solution):
        raise TypeError(
            f"solution must be a Solution from solve(rules), got {type(solution).__name__}"
        )
    return solution


def _frame(name: str, frame: object, columns: Sequence[str], source: str = "simulate"
           ) -> pl.DataFrame:  # fmt: skip
    """``frame`` if it is a polars DataFrame with ``columns`` (``source``'s frame has them)."""
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"{name} must be a polars DataFrame, got {type(frame).__name__}")
    missing = [column for column in columns if column not in frame.columns]
    if missing:
        raise ValueError(f"{name} lacks the columns {missing} (a {source} frame has them)")
    return frame


def _functions(rules: Rules, mask: int) -> str:
    return "+".join(rules.names(mask)) or "-"


def _position(solution: Solution, k: int, a: int, b: int, mask_a: int, mask_b: int) -> dict:
    """A position's columns: both budgets, both coverages and the value for A."""
    rules = solution.rules
    return {"budget_a": a, "budget_b": b, "coverage_a": _functions(rules, mask_a),
            "coverage_b": _functions(rules, mask_b),
            "value": solution.position_value(k, (a, b), (mask_a, mask_b))}  # fmt: skip


# -- the equilibrium ---------------------------------------------------------------------------


def equilibrium_path(solution: Solution) -> pl.DataFrame:
    """Equilibrium play from the opening, exactly: one row per reached position and bid pair,
    with its probability (a single line when every strategy on the way is pure)."""
    rules = _solution(solution).rules
    nodes: dict[tuple[int, int, int, int], float] = {(rules.budget, rules.budget, 0, 0): 1.0}
    rows = []
    for k in range(rules.rounds):
        following: dict[tuple[int, int, int, int], float] = {}
        for (a, b, mask_a, mask_b), reach in sorted(nodes.items()):
            bids_a, bids_b = solution.strategy(k, (a, b), (mask_a, mask_b))
            position = _position(solution, k, a, b, mask_a, mask_b)
            for (x, px), (y, py) in itertools.product(bids_a.items(), bids_b.items()):
                probability = reach * px * py
                winner, price, budgets, coverage = resolve_round(
                    rules, k, (a, b), (mask_a, mask_b), (x, y)
                )
                rows.append(
                    {
                        "round": k + 1,
                        "card": rules.projects[k].name,
                        "first_priority": rules.team_name(rules.priority_order(k)[0]),
                        **position,
                        "bid_a": x,
                        "bid_b": y,
                        "probability": probability,
                        "winner": "-" if winner is None else rules.team_name(winner),
                        "price": price,
                    }
                )
                child = (*budgets, *coverage)
                following[child] = following.get(child, 0.0) + probability
        nodes = following
    return pl.DataFrame(rows)


def three_team_line(solution: ThreeTeamSolution) -> pl.DataFrame:
    """Three teams' subgame-perfect play from the opening (pure, so one line): per round the
    card, who has priority, the budgets and coverage before, each team's bid and the winner."""
    if not isinstance(solution, ThreeTeamSolution):
        raise TypeError("three_team_line needs a solution from solve_three(), got "
                        f"{type(solution).__name__}")
    rules = solution.rules
    budgets, coverage = (rules.budget,) * 3, (0, 0, 0)
    rows = []
    for k in range(rules.rounds):
        bids = solution.bids_at(k, budgets, coverage)
        winner, price, after, covered = resolve_round(rules, k, budgets, coverage, bids)
        rows.append({
            "round": k + 1, "card": rules.projects[k].name,
            "first_priority": rules.team_name(rules.priority_order(k)[0]),
            **{f"budget_{t.lower()}": budgets[s] for s, t in enumerate("ABC")},
            **{f"covers_{t.lower()}": _functions(rules, coverage[s]) for s, t in enumerate("ABC")},
            **{f"bid_{t.lower()}": bids[s] for s, t in enumerate("ABC")},
            "winner": "-" if winner is None else rules.team_name(winner), "price": price,
        })  # fmt: skip
        budgets, coverage = after, covered
    return pl.DataFrame(rows)


def bid_distributions(solution: Solution) -> pl.DataFrame:
    """Each team's equilibrium bid distribution on each card, over equilibrium play:
    round, card, team, bid, probability (summing to 1 per card and team)."""
    path = equilibrium_path(_solution(solution))
    long = pl.concat(
        [
            path.select(
                "round",
                "card",
                pl.lit(team).alias("team"),
                pl.col(f"bid_{team.lower()}").alias("bid"),
                "probability",
            )
            for team in ("A", "B")
        ]
    )
    return (
        long.group_by("round", "card", "team", "bid")
        .agg(pl.col("probability").sum())
        .sort("round", "team", "bid")
    )


def equilibrium_bids(
    solution: Solution, round: int, coverage: tuple[Sequence[str], Sequence[str]] | None = None
) -> pl.DataFrame:
    """Equilibrium bids on one card for every budget pair: the expected bid, the lowest and
    highest pure bids that alone guarantee the value, whether the stage game is mixed, the
    value; ``coverage`` defaults to the most likely on the equilibrium path at that round."""
    rules = _solution(solution).rules
    round = whole_number(
        "round", round, low=1, high=rules.rounds, allowed=f"an int from 1 to {rules.rounds}"
    )
    if coverage is None:
        path = equilibrium_path(solution).filter(pl.col("round") == round)
        if path.is_empty():
            raise ValueError(f"round must be from 1 to {rules.rounds}, got {round!r}")
        top = path.sort("probability", descending=True).row(0, named=True)
        coverage = tuple(  # type: ignore[assignment]
            () if top[f"coverage_{t}"] == "-" else tuple(top[f"coverage_{t}"].split("+"))
            for t in ("a", "b")
        )
    rows = []
    for a, b in itertools.product(range(rules.budget + 1), repeat=2):
        stage = solution.stage(round, (a, b), coverage)  # type: ignore[arg-type]
        for team, strategy, optimal in zip(
            ("A", "B"), stage.strategies, stage.optimal_bids, strict=True
        ):
            rows.append(
                {
                    "round": round,
                    "card": rules.projects[round - 1].name,
                    "budget_a": a,
                    "budget_b": b,
                    "team": team,
                    "bid": float(np.dot(np.arange(strategy.size), strategy)),
                    "optimal_low": min(optimal, default=None),
                    "optimal_high": max(optimal, default=None),
                    "mixed": stage.method == "lp",
                    "value": stage.value,
                }
            )
    return pl.DataFrame(rows)


def stage_table(stage: StageGame) -> pl.DataFrame:
    """One position's equilibrium: a row per team and bid it plays (team, bid, probability),
    with ``optimal`` (the bid alone guarantees the team the value) and the value for A."""
    if not isinstance(stage, StageGame):
        raise TypeError("stage must be a StageGame (solution.stage(...)), got "
                        f"{type(stage).__name__}")
    rows = []
    for team, strategy, optimal in zip(
        ("A", "B"), stage.strategies, stage.optimal_bids, strict=True
    ):
        for bid, p in enumerate(strategy):
            if p > 0:
                rows.append(
                    {
                        "team": team,
                        "bid": bid,
                        "probability": float(p),
                        "optimal": bid in optimal,
                        "value": stage.value,
                    }
                )
    return pl.DataFrame(rows)


def reachable_states(solution: Solution) -> pl.DataFrame:
    """Every position some play reaches, with its value and each team's equilibrium bid
    (``bid_a``/``bid_b`` are expected bids; ``mixed`` marks a mixed stage game)."""
    rules = _solution(solution).rules
    rows = []
    for k, a, b, mask_a, mask_b in solution.reachable_positions():
        bids_a, bids_b = solution.strategy(k, (a, b), (mask_a, mask_b))
        rows.append(
            {
                "round": k + 1,
                "card": rules.projects[k].name,
                **_position(solution, k, a, b, mask_a, mask_b),
                "bid_a": sum(x * p for x, p in bids_a.items()),
                "bid_b": sum(y * p for y, p in bids_b.items()),
                "mixed": len(bids_a) > 1 or len(bids_b) > 1,
            }
        )
    return pl.DataFrame(rows)


def start_values(solution: Solution) -> pl.DataFrame:
    """The first team's value for every pair of starting budgets (budget_a, budget_b, value):
    read from one solve, since a game with smaller budgets is part of the solved one."""
    values = _solution(solution).values(1)
    n = solution.rules.budget + 1
    a, b = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    return pl.DataFrame(
        {
            "budget_a": a.ravel(),
            "budget_b": b.ravel(),
            "value": values.ravel(),
        }
    )


def value_by_budget(rules: Rules | None, budgets: Sequence[int]) -> pl.DataFrame:
    """Value of the win for team A at equal starting budgets, with A first in the tie
    priority (the rulebook) and with B first; ``priority_worth`` is the difference."""
    rules = GAME.checked_rules(rules)
    if isinstance(budgets, str) or not isinstance(budgets, Iterable):
        raise TypeError(f"budgets must be a sequence of positive ints, got {budgets!r}")
    budgets = sorted(
        {
            whole_number("budgets", b, low=1, high=MAX_BUDGET, allowed="positive ints")
            for b in budgets
        }
    )
    if not budgets:
        raise ValueError("budgets must name at least one budget")
    top = replace(rules, budget=max(budgets))
    a_first = solve(replace(top, first_priority=0)).values(1)
    b_first = solve(replace(top, first_priority=1)).values(1)
    return pl.DataFrame(
        {
            "budget": budgets,
            "value_a_first": [float(a_first[b, b]) for b in budgets],
            "value_b_first": [float(b_first[b, b]) for b in budgets],
        }
    ).with_columns((pl.col("value_a_first") - pl.col("value_b_first")).alias("priority_worth"))


def variant_values(variants: Mapping[str, Rules], objective: str = "win") -> pl.DataFrame:
    """Solve each named rule variant: variant, value (first team's), and ``functions``, the
    functions of the cards in offer order."""
    if not isinstance(variants, Mapping) or not all(
        isinstance(rules, Rules) for rules in variants.values()
    ):
        raise TypeError(f"variants must map names to Rules, got {variants!r}")
    rows = []
    for name, rules in variants.items():
        rows.append(
            {
                "variant": name,
                "value": solve(rules, objective).value,
                "functions": " > ".join("+".join(p.functions) or "-" for p in rules.projects),
            }
        )
    return pl.DataFrame(rows)


def card_order_variants(rules: Rules | None = None) -> dict[str, Rules]:
    """The rulebook order, its reverse, and each card moved to the front."""
    rules = GAME.checked_rules(rules)
    projects = rules.projects
    variants = {"rulebook order": rules, "reversed": replace(rules, cards=projects[::-1])}
    for i, project in enumerate(projects[1:], start=1):
        order = (project, *projects[:i], *projects[i + 1 :])
        variants[f"{project.name} first"] = replace(rules, cards=order)
    return variants


def priority_variants(rules: Rules | None = None) -> dict[str, Rules]:
    """Tie priority rotating from A (the rulebook) or from B, or fixed on A or on B."""
    rules = GAME.checked_rules(rules)
    return {
        "rotating, A first (rulebook)": replace(rules, tie_priority="rotating", first_priority=0),
        "rotating, B first": replace(rules, tie_priority="rotating", first_priority=1),
        "fixed, A always first": replace(rules, tie_priority="fixed", first_priority=0),
        "fixed, B always first": replace(rules, tie_priority="fixed", first_priority=1),
    }


def function_table_variants(rules: Rules | None = None) -> dict[str, Rules]:
    """Alternative function tables for the same six cards (the rulebook prints none)."""
    rules = GAME.checked_rules(rules)
    if rules.rounds != 6:
        raise ValueError(
            f"function_table_variants rewrites the six rulebook cards; these rules have "
            f"{rules.rounds} cards"
        )
    tables = {
        "default table": None,
        "single functions only": ("rest", "welcome", "explore", "rest", "explore", "welcome"),
        "doubles everywhere": (
            "rest+welcome",
            "welcome+explore",
            "explore+rest",
            "rest+welcome",
            "explore+rest",
            "welcome+explore",
        ),
        "Neighborhood map covers all": (
            "rest",
            "welcome",
            "explore",
            "rest+welcome",
            "explore",
            "welcome+rest+explore",
        ),
        "no second explore": ("rest", "welcome", "explore", "rest+welcome", "rest", "welcome"),
    }
    variants = {}
    for name, table in tables.items():
        if table is None:
            variants[name] = rules
        else:
            cards = tuple((p.name, f, p.price) for p, f in zip(rules.projects, table, strict=True))
            variants[name] = replace(rules, cards=cards)
    return variants


# -- agents: exact and simulated ---------------------------------------------------------------


def expected_outcome(rules: Rules | None, agents: Sequence[Any]) -> pl.DataFrame:
    """Exact expected win share, score and budget left of each seat when these agents play.
    Every agent gives ``probabilities(observation, legal_actions)`` from the position (round,
    budgets, coverage) alone, as all shipped agents do: each position is computed once."""
    rules = GAME.checked_rules(rules)
    agents = GAME.resolve_agents(rules, agents)
    missing = [agent_label(a) for a in agents if not hasattr(a, "probabilities")]
    if missing:
        raise ValueError(f"agents without exact probabilities cannot be scored exactly: {missing}")
    memo: dict[tuple[Any, ...], np.ndarray] = {}
    players = rules.players

    def outcome(state: State) -> np.ndarray:
        """Expected (share, score, budget) per seat from the start of a round."""
        if state.is_over:
            result = state.result()
            return np.array([result.shares, result.scores, result.budgets], dtype=float)
        key = (state.round_index, state.budgets, state.coverage)
        if key not in memo:
            total = np.zeros((3, players))
            branches = [(state, 1.0)]
            for seat in range(players):
                grown = []
                for partial, weight in branches:
                    legal = partial.legal_actions()
                    distribution = agents[seat].probabilities(partial.observation(seat), legal)
                    grown += [(partial.apply(act), weight * p) for act, p in distribution.items()]
                branches = grown
            for child, weight in branches:
                total += weight * outcome(child)
            memo[key] = total
        return memo[key]

    expected = outcome(new_game(rules, seed=0))
    return pl.DataFrame(
        {
            "seat": list(range(players)),
            "team": [rules.team_name(s) for s in range(players)],
            "agent": [agent_label(a) for a in agents],
            "win_share": expected[0],
            "score": expected[1],
            "budget_left": expected[2],
        }
    )


def seat_results(games: pl.DataFrame) -> pl.DataFrame:
    """Win share by seat and agent from a games frame, with its 95% Wilson interval and the
    sample size; mean score and remaining budget alongside, and ``even_share`` = 1 / seats."""
    columns = ("seat", "team", "agent", "win_share", "score", "budget_left")
    games = _frame("games", games, columns)
    if games.is_empty():
        raise ValueError("the games frame is empty")
    summary = (
        games.group_by("seat", "team", "agent")
        .agg(
            pl.len().alias("games"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("win_share").mean(),
            pl.col("score").mean(),
            pl.col("budget_left").mean(),
        )
        .sort("seat", "agent")
    )
    intervals = [proportion_interval(w, n) for w, n in summary.select("wins", "games").rows()]
    seats = games["seat"].n_unique()
    return summary.with_columns(
        pl.Series("low", [lo for lo, _ in intervals]),
        pl.Series("high", [hi for _, hi in intervals]),
        pl.lit(1.0 / seats).alias("even_share"),
    ).select(
        "seat",
        "team",
        "agent",
        "games",
        "win_share",
        "low",
        "high",
        "even_share",
        "score",
        "budget_left",
    )


def versus_equilibrium(
    solution: Solution, agents: Sequence[Any], *, games: int, seed: int, exact: bool = True
) -> pl.DataFrame:
    """Each agent in each seat against the equilibrium agent: simulated win share with a 95%
    interval, the seat's value (no agent can expect more), the exact share (when ``exact``),
    the shortfall, and ``above_value`` for an interval wholly above the seat's value."""
    equilibrium = EquilibriumAgent(_solution(solution))
    exact = flag("exact", exact)
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        raise TypeError(f"agents must be a sequence of agents or agent names, got {agents!r}")
    agents = [GAME.resolve_agents(solution.rules, agent)[0] for agent in agents]
    rows = []
    for i, (agent, seat) in enumerate(itertools.product(agents, (0, 1))):
        seats = [agent, equilibrium] if seat == 0 else [equilibrium, agent]
        frame, _ = simulate(
            solution.rules, seats, games=games, seed=derive_seed(seed, i), progress=False
        )
        won = frame.filter(pl.col("seat") == seat)["win_share"]
        low, high = proportion_interval(float(won.sum()), won.len())
        seat_value = solution.value if seat == 0 else 1.0 - solution.value
        exact_share = (
            float(expected_outcome(solution.rules, seats)["win_share"][seat]) if exact else math.nan
        )
        rows.append(
            {
                "agent": agent_label(agent),
                "seat": seat,
                "team": "AB"[seat],
                "games": won.len(),
                "win_share": float(won.mean()),
                "low": low,
                "high": high,
                "seat_value": seat_value,
                "exact_share": exact_share,
                "shortfall": seat_value - exact_share,
                "above_value": low > seat_value + 1e-12,
            }
        )
    return pl.DataFrame(rows)


# -- the debrief: which early purchase changed later choices -----------------------------------


def purchase_effects(rounds: pl.DataFrame, *, early_rounds: int = 3) -> pl.DataFrame:
    """For each early card (rounds 1..early_rounds) and later card: the mean later bid of teams
    that bought the early card and of those that did not, the shift and its 95% interval."""
    rounds = _frame("rounds", rounds, ("game", "seat", "round", "card", "won_card", "bid"))
    if rounds.is_empty():
        raise ValueError("the rounds frame is empty")
    last = int(rounds["round"].max())
    if last < 2:
        raise ValueError("purchase_effects needs rounds after the early ones: one round played")
    early_rounds = whole_number(
        "early_rounds", early_rounds, low=1, high=last - 1, allowed=f"an int from 1 to {last - 1}"
    )
    bought = rounds.filter(pl.col("won_card")).select("game", "seat", "round")
    rows = []
    cards = dict(rounds.select("round", "card").unique().iter_rows())
    for early in range(1, early_rounds + 1):
        buyers = bought.filter(pl.col("round") == early).select("game", "seat")
        later = (
            rounds.filter(pl.col("round") > early)
            .join(
                buyers.with_columns(pl.lit(True).alias("bought")), on=["game", "seat"], how="left"
            )
            .with_columns(pl.col("bought").fill_null(False))
        )
        for late in range(early + 1, last + 1):
            bids = later.filter(pl.col("round") == late)
            yes = bids.filter(pl.col("bought"))["bid"].to_numpy().astype(float)
            no = bids.filter(~pl.col("bought"))["bid"].to_numpy().astype(float)
            shift, low, high = difference_interval(yes, no)
            rows.append(
                {
                    "early_round": early,
                    "early_card": cards[early],
                    "later_round": late,
                    "later_card": cards[late],
                    "bought_n": yes.size,
                    "bought_bid": float(yes.mean()) if yes.size else math.nan,
                    "other_n": no.size,
                    "other_bid": float(no.mean()) if no.size else math.nan,
                    "shift": shift,
                    "low": low,
                    "high": high,
                }
            )
    return pl.DataFrame(rows)


def purchase_effect_summary(effects: pl.DataFrame) -> pl.DataFrame:
    """One row per early card (from ``purchase_effects``): the later card its buyers' bids moved
    most on, with that shift, and the summed absolute shift; largest total first."""
    effects = _frame(
        "effects",
        effects,
        ("early_round", "early_card", "later_card", "shift", "low", "high", "bought_n", "other_n"),
        "purchase_effects",
    )
    known = effects.filter(pl.col("shift").is_not_nan())
    if known.is_empty():
        raise ValueError("no early card has both buyers and non-buyers to compare")
    biggest = (
        known.sort(pl.col("shift").abs(), descending=True)
        .group_by("early_round", maintain_order=True)
        .first()
        .select("early_round", "later_card", "shift", "low", "high", "bought_n", "other_n")
    )
    totals = known.group_by("early_round", "early_card").agg(
        pl.col("shift").abs().sum().alias("total_shift")
    )
    return (
        totals.join(biggest, on="early_round")
        .sort("total_shift", descending=True)
        .rename({"later_card": "most_changed", "shift": "biggest_shift"})
    )


# -- the classroom variant ---------------------------------------------------------------------


def classroom_plans(rules: Rules | None = None) -> pl.DataFrame:
    """Every buy/pass plan of the classroom market of these cards, prices and budget: cost,
    functions covered, credits left; best first (most functions, then most left)."""
    rules = GAME.checked_rules(rules)
    rules = replace(
        rules,
        variant="classroom",
        teams=2,
        tie_priority="rotating",
        first_priority=0,
        final_tiebreak="budget",
    )
    masks = rules.card_masks()
    rows = []
    for choice in itertools.product((False, True), repeat=rules.rounds):
        chosen = [i for i, buy in enumerate(choice) if buy]
        cost = sum(rules.projects[i].price or 0 for i in chosen)
        mask = 0
        for i in chosen:
            mask |= masks[i]
        rows.append(
            {
                "plan": " + ".join(rules.projects[i].name for i in chosen) or "(buy nothing)",
                "cards": len(chosen),
                "cost": cost,
                "affordable": cost <= rules.budget,
                "functions": mask.bit_count(),
                "covers": _functions(rules, mask),
                "left": rules.budget - cost,
            }
        )
    return pl.DataFrame(rows).sort(
        ["affordable", "functions", "left", "cards"], descending=[True, True, True, False]
    )
