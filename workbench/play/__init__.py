"""The play-along table: sit at a seat of any game of the registry against the workbench's
agents (``workbench.table``), with the game's panel of live analyses beside it.

The game itself (engine states, seeded agents, save and replay, legal actions read as
controls) is a ``workbench.sessions`` session, which needs no widgets; ``form``, ``render``
and ``table`` draw it with ipywidgets, and ``review`` adds the review view and hint. A game's
panel comes from its record's ``panel`` (built on ``workbench.panels``), so no game imports
the table.
"""
