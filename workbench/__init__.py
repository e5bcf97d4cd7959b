"""Strategy analysis workbench for four auction card games.

Each game lives in ``workbench.games.<id>`` and keeps the same contract (see DESIGN.md):
``Rules`` -> ``new_game`` -> ``State`` -> ``simulate`` -> analyses returning polars frames.
"""

from workbench import games
from workbench.errors import IllegalAction

__all__ = ["IllegalAction", "games"]
__version__ = "0.1.0"
