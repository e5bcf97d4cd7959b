"""The game kit: the skeleton every game shares, written once.

A game supplies its own parts (Rules, engines, agents, metrics, frame columns) through small
hooks, and the kit does the rest: seeding (``seeding``), line-ups of agents (``lineup``),
progress bars (``progress``), the batch-agent plumbing (``batching``) and self-play
(``selfplay``: ``simulate``, ``simulate_batches``, ``play_game``). docs/adding-a-game.md lists
the hooks.
"""
