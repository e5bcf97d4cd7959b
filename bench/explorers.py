"""How fast each explorer answers a typical change: the median time of ``explorer.set(...)``.

    python bench/explorers.py            # every change in the lists below
    python bench/explorers.py --quick    # the first few of each

Target (issues 8 and 21): a typical change answered in under 1 s, the designer's dashboard's
included (left to choose its games per rule set, for every game). A change is timed from
``set`` to a drawn result: bounds adapted, the analysis run, the chart drawn as PNG and the
table built (a browser adds a local round trip of a few milliseconds). Each change is to a
setting not seen before (the explorer's cache cannot help); returning to settings already seen
is timed separately (answered from the cache).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
os.environ.setdefault("POLARS_MAX_THREADS", "1")

Changes = Sequence[dict[str, Any]]

BID_CHANGES: Changes = [
    {"held_out": 2},
    {"held_out": 1},
    {"peek": 5},
    {"peek": 2},
    {"locked": 5},
    {"held_out": 3},
    {"locked": None, "held_out": 2},
    {"prior": "random"},
    {"prior": "heuristic", "epsilon": 0.1},
    {"held_out": 3, "epsilon": 0.2},
    {"peek": None},
    {"locked": 10},
]
SAMPLING_CHANGES: Changes = [
    {"prior": "sampling"},
    {"held_out": 2},
    {"peek": 5},
    {"seed": 7},
    {"epsilon": 0.1},
]
CHEAPSKATE_CHANGES: Changes = [
    {"players": 3},
    {"players": 5},
    {"destined_bonus": 40},
    {"starting_fame": 20},
    {"bid_minimum": "one"},
    {"starting_auctioneer": "random"},
    {"lineup": "heuristic vs random"},
    {"seed": 11},
    {"players": 2},
    {"lineup": "random"},
]
STATE_CHANGES: Changes = [
    {"round": 2, "coverage_a": ("rest",)},
    {"budget_a": 14},
    {"round": 3, "coverage_b": ("welcome",), "budget_b": 19},
    {
        "round": 4,
        "coverage_a": ("rest", "explore"),
        "coverage_b": ("welcome",),
        "budget_a": 11,
        "budget_b": 19,
    },
    {"budget_a": 5},
    {"budget_b": 12},
    {"round": 6, "coverage_b": ("welcome", "rest", "explore"), "budget_b": 5},
    {"round": 5, "coverage_b": ("welcome", "rest"), "budget_b": 8},
    {"budget_a": 9},
]


GONE_HOLDING = ["cars/Germany", "cars/Canada", "comics/Germany"]
GONE_LOT = ["cars/China"]
#: Holdings and lots by item name (the explorer's controls take item numbers: ``_items``).
GONE_CHANGES: Changes = [
    {"lot": ("toys/Germany",)},
    {"holding": ("cars/Germany", "comics/Germany", "toys/Canada", "toys/China")},
    {"lot": ("cars/China", "comics/China")},
    {"holding": ()},
    {"holding": ("comics/Canada",), "lot": ("comics/China",)},
]


def _items(changes: Changes) -> list[dict[str, Any]]:
    """GONE! changes with item names turned into the item numbers the controls hold."""
    from workbench.games.going_gone import Rules, parse_items

    return [{k: parse_items(v, Rules()) for k, v in change.items()} for change in changes]
KITTY_CHANGES: Changes = [
    {"lineup": "random"},
    {"trump_reveal": "before_auction"},
    {"deals": 3},
    {"lineup": "heuristic vs random"},
    {"games": 1000},
]


def _default_agent(game: str) -> str:
    """The agent a game's ``simulate`` seats when none is named."""
    from workbench import games as registry

    return registry.get(game).default_agent


def _time_changes(
    explorer: Any, changes: Changes
) -> tuple[list[float], list[str], list[dict[str, Any]]]:
    """Seconds per change, the messages of refused settings, and every setting reached."""
    times, errors, settings = [], [], []
    for change in changes:
        started = time.perf_counter()
        explorer.set(**change)
        times.append(time.perf_counter() - started)
        settings.append(explorer.values())
        if explorer.error is not None:
            errors.append(f"{change}: {explorer.error}")
    return times, errors, settings


def _report(name: str, make: Callable[[], Any], changes: Changes) -> None:
    started = time.perf_counter()
    explorer = make()
    first = time.perf_counter() - started
    fresh, errors, settings = _time_changes(explorer, changes)
    # Going back over the same settings: every result is in the cache.
    cached, _, _ = _time_changes(explorer, settings[:-1][::-1])
    new = statistics.median(fresh)
    print(
        f"{name}: first result {first:.2f} s; a new setting: median {new:.2f} s "
        f"(max {max(fresh):.2f}, {len(fresh)} changes); a setting seen before: median "
        f"{statistics.median(cached) * 1000:.0f} ms"
    )
    for error in errors:
        print(f"    shown as a message: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first few changes only")
    args = parser.parse_args()
    cut = 4 if args.quick else None

    import workbench.charts
    from workbench.games import rubbish, shared_budget

    workbench.charts.render(workbench.charts.interval_bars(  # warm-up: vl-convert's engine
        __import__("polars").DataFrame({"a": ["x"], "v": [1.0], "low": [0.5], "high": [1.5]}),
        category="a", value="v",
    ))  # fmt: skip
    solution = shared_budget.solve()
    _report(
        "rubbish bid inference (uniform, random, heuristic priors)",
        lambda: rubbish.bid_inference_explorer(seed=1),
        BID_CHANGES[:cut],
    )
    _report(
        "rubbish bid inference (sampling prior, an estimate)",
        lambda: rubbish.bid_inference_explorer(seed=1),
        SAMPLING_CHANGES[:cut],
    )
    _report(
        "rubbish cheapskate (5,000 games per setting)",
        lambda: rubbish.cheapskate_explorer(seed=1),
        CHEAPSKATE_CHANGES[:cut],
    )
    _report(
        "rubbish cheapskate (20,000 games per setting)",
        lambda: rubbish.cheapskate_explorer(games=20_000, seed=1),
        CHEAPSKATE_CHANGES[:cut],
    )
    _report(
        "shared budget position",
        lambda: shared_budget.state_explorer(solution),
        STATE_CHANGES[:cut],
    )

    from workbench import games as registry
    from workbench.designer import designer_dashboard
    from workbench.games import auction_house, going_gone

    _report(
        "going_gone collections (a holding, a lot, what to sell)",
        lambda: going_gone.collection_explorer(holding=GONE_HOLDING, lot=GONE_LOT),
        _items(GONE_CHANGES[:cut]),
    )
    _report(
        "auction_house kitty (500 games per setting)",
        lambda: auction_house.kitty_explorer(seed=1),
        KITTY_CHANGES[:cut],
    )
    for game in registry.available():
        # Random play and the game's default agent (the hand-written ones, fast); the slower
        # search and fitted line-ups are left to the designer's own choice.
        fast = ["random", _default_agent(game)]
        changes = [
            *({"agents": name} for name in fast),
            {"metric": "first_seat_advantage"},
            {"agents": "default"},
        ]
        _report(
            f"designer's dashboard, {game} (games per rule set chosen for a quick answer)",
            lambda game=game: designer_dashboard(game, seed=1),
            changes[:cut],
        )


if __name__ == "__main__":
    main()
