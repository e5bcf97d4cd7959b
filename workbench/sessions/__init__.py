"""A game at a table, with no widgets: one seat at a game of the registry and the workbench's
agents in the others (``session``), the saved game's JSON (``saved_game``), and legal actions
read as the controls that can express them (``actions``). The play-along table
(``workbench.play``) draws a session; game review (``workbench.reviews``) reviews a finished
one, or a saved game's file.
"""
