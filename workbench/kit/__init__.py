"""The game kit: the skeleton every game shares, written once.

A game supplies its own parts (Rules, engines, agents, metrics, frame columns) through small
hooks, and the kit does the rest (docs/adding-a-game.md lists the hooks):

- ``selfplay``: ``SelfPlay``, from which each game gets ``simulate``, ``simulate_batches`` and
  ``play_game`` (argument checks, line-ups, engine choice, batching, seeding, progress);
- ``seeding``: labelled random streams; ``lineup``: agents by name, one per seat;
- ``frames``: result frames' common columns and builders; ``state``: what step engines share;
- ``store``: the results store that lets long runs resume; ``progress``: progress bars.
"""
