"""The keyed random streams of the riichi engine and its modes, by name: every random draw comes from
sims.rng.key_seed(root seed, match, hand, STREAM_*), one stream per use.

The numbers are part of every result: changing one changes the tables for the same seeds, so they are fixed
here once and never derived from anything else (an option slot, a seat count). A new mode that needs a stream
takes an unused number and adds it below.
"""

from __future__ import annotations

STREAM_WALL = 0        # the hand's wall order
STREAM_DIRECTION = 1   # S-2: the exchange direction
STREAM_SEAT = 2        # 2..5: each seat's policy stream (seat 0 … 3)
STREAM_FANTASY = 21    # FL: the match's cards (drawn with hand number 0)
STREAM_EYE = 41        # DE: the seats the eye goes to

STREAMS = {"wall": STREAM_WALL, "direction": STREAM_DIRECTION, "seat 0": STREAM_SEAT, "seat 1": STREAM_SEAT + 1,
           "seat 2": STREAM_SEAT + 2, "seat 3": STREAM_SEAT + 3, "fantasy": STREAM_FANTASY, "eye": STREAM_EYE}
