"""The play-along table: sit at a seat of any game of the registry against the workbench's
agents (``workbench.table``), with the game's panel of live analyses beside it.

``session`` holds the game (engine states, seeded agents, save and replay) and needs no
widgets; ``actions`` reads legal actions as controls; ``form``, ``render``, ``panel`` and
``table`` draw it with ipywidgets.
"""
