"""Strategy analysis workbench for auction card games.

Each game lives in ``workbench.games.<id>`` and keeps the same contract (see docs/design.md):
``Rules`` -> ``new_game`` -> ``State`` -> ``simulate`` -> analyses returning polars frames.
The designer's bench works on every game: ``compare``, ``robust_compare``, ``sweep``,
``tune``, ``tournament``, ``ladder``, ``exploitability`` and ``balance_metrics``
(``workbench.designer``; ``python -m workbench`` for batch runs).
``workbench.table(game, ...)`` seats you at any of them against the agents;
``workbench.review(game, ...)`` scores every decision of a seat in a game (or a saved table).
"""

from workbench import games
from workbench.errors import IllegalAction
from workbench.lazy import lazy_exports

# The bench loads polars and the games, the table ipywidgets: each on first use.
__getattr__ = lazy_exports(
    globals(),
    {
        "workbench.designer": (
            "SerialExecutor",
            "balance_metrics",
            "compare",
            "exploitability",
            "ladder",
            "robust_compare",
            "sweep",
            "tournament",
            "tune",
        ),
        "workbench.play.table": ("load_table", "table"),
        "workbench.reviews.core": ("review",),
    },
)

__all__ = [
    "IllegalAction",
    "SerialExecutor",
    "balance_metrics",
    "compare",
    "exploitability",
    "games",
    "ladder",
    "load_table",
    "review",
    "robust_compare",
    "sweep",
    "table",
    "tournament",
    "tune",
]
__version__ = "0.1.0"
