"""The Bloodshed hand state: one flat int32 block that holds everything a hand in progress needs.

The engine (sims.bloodshed.engine) keeps no hand state anywhere else, so a copy of the block taken when
the engine stops at a decision is a position: it can be resumed (same result as never stopping),
rearranged (determinized, sims.bloodshed.determinize) or written out (analyzer.advise.bloodshed_position).

`ST` gives the offsets (sims.layout); `phase` says where play resumes:

- PH_DEAL: deal 13 tiles each and the dealer's 14th (B-5), then PH_EXCHANGE.
- PH_EXCHANGE: every seat chooses three tiles (B-6); decisions D_EXCHANGE of seats 0..3 in order.
- PH_VOID: every seat declares a void suit (B-7); decisions D_VOID of seats 0..3.
- PH_DRAW: seat `cur` draws when `need_draw` (or the hand ends on an empty wall, B-13), then PH_TURN.
- PH_TURN: seat `cur` decides its turn (D_TURN: discard, kan, tsumo).
- PH_REACT: the other seats react to the discard `tile` of `cur` in turn order (D_REACT).
- PH_ROB: the other seats may rob the added kan of kind `tile` by `cur` (D_ROB, B-17).
- PH_END: the exhaustive-draw settlement where due (B-20 … B-23) and the hand's record; then PH_DONE.

A stop at a decision leaves the block at the *start* of the phase that asks it (no seat of that phase has
answered yet; their answers are hidden from each other), with `pend_seat` naming the seat whose decision
was reached. Resuming replays the phase: seats before it answer again exactly as they did (same tiles,
same random streams), so resuming the true state with the recorded answer reproduces the recorded hand.
"""

from __future__ import annotations

from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims.jit import inline
from tsumolab.sims.layout import declare
from tsumolab.sims.bloodshed.columns import N_HAND_COLS

N_WALL = 108

ST = declare("BloodshedState", [
    ("obs", 4 * BOBS.SIZE, "the four seats' observation rows (BOBS layout): own concealed tiles, "
                          "own random stream and a copy of all public information"),
    ("wall", N_WALL, "the tiles in draw order; wall[pos:] is the live wall (hidden)"),
    ("rec", 4 * N_HAND_COLS, "the hand's record row per seat (sims.bloodshed.columns.HAND_COLUMNS) being filled"),
    ("phase", 1, "PH_* where play resumes"),
    ("pos", 1, "next wall index to draw"),
    ("direction", 1, "exchange direction of this hand: 0 next, 1 previous, 2 across (B-6)"),
    ("cur", 1, "seat whose turn it is (or who discarded / adds the kan in PH_REACT / PH_ROB)"),
    ("drawn", 1, "tile `cur` drew this turn, -1 after a pon"),
    ("need_draw", 1, "1 when `cur` draws before its turn"),
    ("kan_draw", 1, "1 when `cur`'s tile is a kan replacement draw (B-16)"),
    ("after_call", 1, "1 when `cur`'s turn follows its own pon"),
    ("any_call", 1, "1 once anybody made a pon or kan this hand (地和, B-19a)"),
    ("last_kan_seat", 1, "seat whose next discard counts for 杠上炮, -1 none"),
    ("winners", 1, "wins so far this hand"),
    ("first_winner", 1, "first winner of the hand (next dealer, B-3), -1 none"),
    ("robbed_tiles", 1, "added-kan tiles removed by robbing (B-17)"),
    ("robbed_kind", 3, "kind of each robbed added-kan tile"),
    ("end", 1, "END_* code once the hand is over"),
    ("tile", 1, "the discard under reaction (PH_REACT) or the added-kan kind (PH_ROB)"),
    ("kan_discard", 1, "1 when that discard follows the discarder's own kan (杠上炮)"),
    ("delta", 4, "points won or lost by each seat this hand"),
    ("kan_ledger", 16, "kan income per (receiver, payer), for the refund (B-18, B-21)"),
    ("draws", 4, "draws made by each seat this hand"),
    ("claimants", 3, "seats claiming the current discard or added tile, in turn order"),
    ("given", 12, "the three tiles each seat passes in the exchange"),
    ("choices", 4, "each seat's void-suit choice before it is revealed"),
    ("n_decisions", 1, "decisions asked so far in this hand (all seats)"),
    ("pend_seat", 1, "after a stop: seat whose decision was reached, -1 none"),
    ("force_seat", 1, "seat whose next answer is replaced by force_answer, -1 none"),
    ("force_answer", 1, "the forced answer (its hook is still asked, so its random stream advances as usual)"),
    ("watch_seat", 1, "run_hand returns early once this seat has won and its points can no longer change this "
                      "hand (it paid no kan money a refund could return, B-12, B-21); -1 never"),
])

PH_DEAL, PH_EXCHANGE, PH_VOID, PH_DRAW, PH_TURN, PH_REACT, PH_ROB, PH_END, PH_DONE = range(9)
PHASE_NAMES = ("deal", "exchange", "void", "draw", "turn", "react", "rob", "end", "done")


@inline
def obs_of(S):
    """The four observation rows, a view into the block."""
    return S[ST.obs:ST.obs + 4 * BOBS.SIZE].reshape((4, BOBS.SIZE))


@inline
def rec_of(S):
    """The four record rows being filled, a view into the block."""
    return S[ST.rec:ST.rec + 4 * N_HAND_COLS].reshape((4, N_HAND_COLS))
