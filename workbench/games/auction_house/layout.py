"""The compiled engine's data layout, shared by the engine (``compiled``) and the policies: a
position is one int64 row of the columns below, a recorded deal one int16 row, and every
decision reads its uniform from a fixed slot of the deal."""

from __future__ import annotations

#: Decision phases (the step engine's PHASES order).
AUCTION, OFFER, TAKE, KITTY, PLAY, OVER = range(6)
PLAYERS, TRICKS, FACES = 4, 9, 3

#: Uniforms per game and deal, one slot per decision: 4 start-or-pass, 3 offers, 1 take,
#: 4 kitty cards, 36 plays.
SLOT_AUCTION, SLOT_OFFER, SLOT_TAKE, SLOT_KITTY, SLOT_PLAY = 0, 4, 7, 8, 12
SLOTS = SLOT_PLAY + PLAYERS * TRICKS

# -- a position's row: hands and cards played are 40-bit masks, cards indices, -1 none -------
DEAL, DEALER, PHASE, STEP, CARRIED, TRUMP, SHOWN = range(7)
STARTER, FACE_UP, CALLED, TAKEN, TAKEN_FROM, FORCED, LEADER, PLAYED = range(7, 15)
SCORES, OFFERS, KITTY_CARDS, TRICK, WON, HANDS = 15, 19, 23, 27, 31, 35  # 4 wide, by seat
ROW = HANDS + PLAYERS  # (TRICK is by position in the trick)

# -- a recorded deal (int16): what the frames, the kitty analyses and replay read ---------------
#: Its one-wide columns from 0, then (from R_BY_SEAT) four-wide ones by seat, then the plays.
RECORDED = ("dealer", "trump", "starter", "face_up", "called", "taken", "taken_from", "forced",
            "kitty_winner", "kitty_points", "carried_in", "carried_out", "lost")  # fmt: skip
RECORDED_BY_SEAT = ("offers", "kitty", "tricks_won", "scores_after")
R_DEALER, R_TRUMP, R_STARTER, R_FACE_UP, R_CALLED, R_TAKEN, R_TAKEN_FROM, R_FORCED = range(8)
R_KITTY_WINNER, R_KITTY_POINTS, R_CARRIED_IN, R_CARRIED_OUT, R_LOST = range(8, 13)
R_BY_SEAT = len(RECORDED)
R_OFFERS, R_KITTY, R_WON, R_SCORES_AFTER = range(R_BY_SEAT, R_BY_SEAT + 4 * PLAYERS, PLAYERS)
R_PLAYS = R_BY_SEAT + PLAYERS * len(RECORDED_BY_SEAT)
RECORD = R_PLAYS + PLAYERS * TRICKS
