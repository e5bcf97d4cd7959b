"""Strategy analysis workbench for four auction card games.

Each game lives in ``workbench.games.<id>`` and keeps the same contract (see DESIGN.md):
``Rules`` -> ``new_game`` -> ``State`` -> ``simulate`` -> analyses returning polars frames.
``workbench.table(game, ...)`` seats you at any of them against the agents (ipywidgets, loaded
on first use).
"""

from workbench import games
from workbench.errors import IllegalAction
from workbench.lazy import lazy_exports

# The play-along table imports ipywidgets: loaded on first use.
__getattr__ = lazy_exports(globals(), {"workbench.play.table": ("load_table", "table")})

__all__ = ["IllegalAction", "games", "load_table", "table"]
__version__ = "0.1.0"
