"""The designer's bench: what a rule change does to balance, for every game in the registry.

Balance metrics over ``simulate`` frames (``balance``), baseline-vs-variant comparisons on
common random numbers, rule sweeps, tournaments, executors and the command line. Everything
here reaches a game only through the contract in docs/design.md, so a new game gets the bench
with no edit here.
"""

from workbench.designer.balance import (
    COMMON_METRICS,
    balance_metrics,
    metric_catalogue,
    per_game_metrics,
)
from workbench.designer.moments import Moments

__all__ = ["COMMON_METRICS", "Moments", "balance_metrics", "metric_catalogue", "per_game_metrics"]
