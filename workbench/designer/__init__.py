"""The designer's bench: what a rule change does to balance, for every game in the registry.

- ``balance_metrics``: every balance metric of a ``simulate`` run, with n and a 95% interval
  (``workbench.designer.balance`` defines each one).
- ``compare``: baseline vs variant on common random numbers, with paired differences.
- ``robust_compare``: the same under several strengths of play, with a verdict per metric.
- ``fit``: a game's ``fitted`` agent fitted to a rule set (cached).
- ``tune``: rule settings that put chosen metrics inside target bands (optuna, successive
  halving over a budget of games).
- ``sweep``: every combination of a grid of rule values and line-ups, per-cell seeds.
- ``tournament``: agents against each other with seats rotated (any number of entrants).
- ``ladder``: every agent alone against a table of every other: ratings with intervals and
  each agent's best-response gain.
- executors: local processes by default, any ``concurrent.futures.Executor`` (Dask's too), or
  ``SerialExecutor``.

Everything here reaches a game only through the contract in docs/design.md, so a game added
to the registry gets the bench with no edit here.
"""

from workbench.designer.balance import (
    COMMON_METRICS,
    balance_metrics,
    metric_catalogue,
    per_game_metrics,
)
from workbench.designer.cells import InvalidCells
from workbench.designer.comparison import compare
from workbench.designer.executors import SerialExecutor, local_processes
from workbench.designer.exploitability import exploitability
from workbench.designer.fits import fit
from workbench.designer.ladder import Ladder, ladder
from workbench.designer.moments import Moments
from workbench.designer.robust import robust_compare
from workbench.designer.sweeps import plan_sweep, run_sweep, sweep
from workbench.designer.tournaments import Tournament, tournament
from workbench.designer.tuning import tune
from workbench.lazy import lazy_exports

# Charts and the dashboard import altair and ipywidgets: loaded on first use.
__getattr__ = lazy_exports(
    globals(),
    {
        "workbench.designer.charts": (
            "compare_chart", "ladder_chart", "robust_chart", "sweep_chart",
        ),
        "workbench.designer.widgets": ("designer_dashboard",),
    },
)

__all__ = [
    "COMMON_METRICS",
    "InvalidCells",
    "Ladder",
    "Moments",
    "SerialExecutor",
    "Tournament",
    "balance_metrics",
    "compare",
    "compare_chart",
    "designer_dashboard",
    "exploitability",
    "fit",
    "ladder",
    "ladder_chart",
    "local_processes",
    "metric_catalogue",
    "per_game_metrics",
    "plan_sweep",
    "robust_chart",
    "robust_compare",
    "run_sweep",
    "sweep",
    "sweep_chart",
    "tournament",
    "tune",
]
