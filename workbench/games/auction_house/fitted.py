"""Auction House's ``fitted`` agent: the heuristic's policy extended with named features
(``policies.FITTED_PARAMETERS``: the heuristic's three, plus how it weighs a card's use, what it
puts in the kitty and how that follows its high cards, when it draws or leads trumps, which
suit it leads, when it covers and ruffs, when it stops the seat ahead in tricks, and how the
kitty card and the stopping follow the game's scores), with the parameters fitted to the
rules being played by the kit's fitter (``workbench.kit.fitting``:
CMA-ES, common random numbers, alone against the heuristic and against the current fit, every
seat in turn). The hand-written values are the start, so the fit starts as the heuristic.

The policy is compiled (``agents.FittedPolicy``), so the fitted agent plays in the compiled
engine. The rulebook's fit ships in ``data/fits/auction_house/``; other rules fit on first use
(with a progress bar; the rulebook's 13 deals in 40 to 57 s on one core on a machine running
at about half its quiet speed, 29 s for 9 deals) and are cached.
"""

from __future__ import annotations

from typing import Any

from workbench.kit.fitting import FittedAgent, Fitting, Parameter, PolicyClass, fit_function

FITTING = Fitting(
    version="auction_house-features-4",
    parameters=(
        Parameter("give_rank", 3.0, 1.0, 10.0),
        Parameter("long_suit", 4.0, 0.0, 10.0),
        Parameter("trade_rank", 7.0, 1.0, 11.0),
        Parameter("shed_length", 3.0, 0.0, 10.0),
        Parameter("shed_trump", 20.0, 0.0, 40.0),
        Parameter("kitty_rank", 0.0, -3.0, 3.0),
        Parameter("draw_trumps", 0.0, 0.0, 10.0),
        Parameter("lead_long", 1.0, -1.0, 1.0),
        Parameter("cover_from", 3.0, 1.0, 4.0),
        Parameter("ruff_from", 1.0, 1.0, 4.0),
        Parameter("block_weight", 0.0, 0.0, 1.0),
        Parameter("kitty_strength", 0.0, -2.0, 2.0),
        Parameter("lead_trumps", 10.0, 1.0, 10.0),
        Parameter("kitty_standing", 0.0, -3.0, 3.0),
        Parameter("block_standing", 0.0, -1.0, 1.0),
    ),
    policy=PolicyClass("workbench.games.auction_house.agents"),
    opponents=("heuristic",),
    games=300,
    generations=40,
    population=10,
)


class AuctionHouseFittedAgent(FittedAgent):
    """The extended heuristic policy with parameters fitted to the rules being played (see
    the module docstring); ``seed`` picks the fit."""

    def _fitting(self) -> tuple[Any, Fitting]:
        from workbench.games.auction_house.simulate import SELF_PLAY  # simulate imports agents

        return SELF_PLAY, FITTING


fit = fit_function(AuctionHouseFittedAgent)


__all__ = ["FITTING", "AuctionHouseFittedAgent", "fit"]
