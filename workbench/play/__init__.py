"""The play-along table: sit at a seat of any game of the registry against the workbench's
agents (``workbench.table``), with the game's panel of live analyses beside it.

``session`` holds the game (engine states, seeded agents, save and replay) and needs no
widgets; ``actions`` reads legal actions as controls; ``form``, ``render`` and ``table`` draw
it with ipywidgets. A game's panel comes from its module's optional ``make_panel`` hook
(built on ``workbench.panels``), so no game imports the table.
"""
