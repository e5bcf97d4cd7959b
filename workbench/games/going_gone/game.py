"""Going, Going, GONE!'s record: what the registry returns (``workbench.games.get(id)``)."""

from workbench.games.going_gone.agents import CollectorAgent, RandomAgent, ValuationAgent
from workbench.games.going_gone.engine import new_game
from workbench.games.going_gone.fitted import GoingGoneFittedAgent
from workbench.games.going_gone.metrics import GAME_METRICS, game_metrics
from workbench.games.going_gone.positions import play_from
from workbench.games.going_gone.rules import Rules
from workbench.games.going_gone.search import GoingGoneSearchAgent
from workbench.games.going_gone.simulate import DEFAULT_AGENT, SELF_PLAY
from workbench.kit.game import Game

GAME = Game(
    id="going_gone",
    summary=(
        "Going, Going, GONE!: 2–6 players bid Bucks in five cups at once for lots of "
        "collectible items, and score Bucks plus the best arrangement of what they hold."
    ),
    Rules=Rules, new_game=new_game,
    # Weakest first, as the strength ladder at the rulebook's rules orders them (search, too
    # slow to rate well, is not shown stronger than fitted: docs/reference/agents.md).
    agents={"random": RandomAgent, "valuation": ValuationAgent, "collector": CollectorAgent,
            "search": GoingGoneSearchAgent, "fitted": GoingGoneFittedAgent},
    default_agent=DEFAULT_AGENT, reference_agent="fitted",
    selfplay=SELF_PLAY, metrics=GAME_METRICS, game_metrics=game_metrics, play_from=play_from,
    panel="workbench.games.going_gone.panel:make_panel",
    docs="docs/rules.md#going-going-gone-going_gone",
)  # fmt: skip
AGENTS, make_agent, simulate, simulate_batches, play_game = GAME.entry_points()

__all__ = ["AGENTS", "GAME", "make_agent", "play_game", "simulate", "simulate_batches"]
