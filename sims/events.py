"""Event log of simulated hands: one int32 row per event, written by the engines when asked to.

Row layout: (match_id, hand, kind, seat, tile, a, b, c). The meaning of seat/tile/a/b/c per kind is in
EVENT_FIELDS. Recording is off when the buffer has no rows, so plain runs pay nothing for it.
"""

import numba as nb
from numba import types

EV_START, EV_DEAL, EV_EXCHANGE, EV_VOID, EV_DRAW, EV_DISCARD, EV_PON, EV_KAN = range(8)
EV_PASS, EV_WIN, EV_PAY, EV_DRAW_STATE, EV_SETTLE, EV_END = range(8, 14)
N_EVENT_COLS = 8
EVENTS_PER_MATCH = 1400  # generous bound for a 4-hand bloodshed match

# point movements (EV_PAY reason)
PAY_RON, PAY_TSUMO, PAY_CLOSED_KAN, PAY_OPEN_KAN, PAY_ADDED_KAN = 1, 2, 3, 4, 5
PAY_REASONS = {PAY_RON: "ron", PAY_TSUMO: "tsumo", PAY_CLOSED_KAN: "closed_kan", PAY_OPEN_KAN: "open_kan",
               PAY_ADDED_KAN: "added_kan"}

EVENT_FIELDS = {
    EV_START: ("start", "seat = dealer, a = exchange direction (0 next, 1 prev, 2 across)"),
    EV_DEAL: ("deal", "seat receives tile in the deal"),
    EV_EXCHANGE: ("exchange", "seat gives tiles tile, a, b to seat c"),
    EV_VOID: ("void", "seat declares suit a void"),
    EV_DRAW: ("draw", "seat draws tile; a = 1 for a kan replacement draw"),
    EV_DISCARD: ("discard", "seat discards tile"),
    EV_PON: ("pon", "seat pons tile discarded by seat a"),
    EV_KAN: ("kan", "seat makes a kan of tile; a = meld type (sims.tiles MINKAN/ANKAN/KAKAN), b = discarder or -1"),
    EV_PASS: ("pass_win", "seat passes a win on tile worth a fan; b = 1 for tsumo"),
    EV_WIN: ("win", "seat wins on tile with a fan, pattern code b (records.PATTERN_LABELS), "
                    "c = 1 ron, 2 tsumo, 3 robbed kan"),
    EV_PAY: ("pay", "seat pays a points to seat tile; b = reason (PAY_REASONS)"),
    EV_DRAW_STATE: ("draw_state", "at the exhaustive draw seat is tenpai (tile = 1) or a flower pig (tile = 2), "
                                  "max value a"),
    EV_SETTLE: ("settle", "exhaustive-draw settlement of seat: a = refund, b = 查花猪, c = 查大叫 (net points)"),
    EV_END: ("end", "hand ends: a = end code (records.HAND_ENDS), b = winners"),
}


# One explicit signature: the engines call this with literal constants in many places, and numba would
# otherwise compile a specialization for every combination of literal and integer argument types (94 of
# them in one test session).
_LOG_EVENT_SIG = types.void(types.int32[:, ::1], types.int64[::1], types.int64, types.int64, types.int64,
                            types.int64, types.int64, types.int64)


@nb.njit(_LOG_EVENT_SIG, cache=True)
def log_event(events, state, kind, seat, tile, a, b, c):
    """Append one event (jit-compiled). state = [count, match_id, hand]; a no-op when events has no rows."""
    i = state[0]
    if i >= events.shape[0]:
        return
    events[i, 0] = state[1]
    events[i, 1] = state[2]
    events[i, 2] = kind
    events[i, 3] = seat
    events[i, 4] = tile
    events[i, 5] = a
    events[i, 6] = b
    events[i, 7] = c
    state[0] = i + 1
