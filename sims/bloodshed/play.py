"""Python edge of the Bloodshed match kernel: seat hooks in, record rows (sims.bloodshed.columns) and the
event log out."""

from __future__ import annotations

import numpy as np

from tsumolab.sims.bloodshed.rules import BloodshedRules

ROWS_PER_MATCH = 16  # 4 hands × 4 seats at most


def play(root_seed: int, match_ids, seats, rules: BloodshedRules, counters=None, record_events: bool = False):
    """(hand_rows int32[n, N_HAND_COLS], match_rows int32[4m, N_MATCH_COLS], events int32[e, N_EVENT_COLS]).

    `counters`, if given, is an int64 array of engine.N_COUNTERS slots that accumulates engine diagnostics
    (illegal answers, hands, tile-count errors)."""
    from tsumolab.sims.bloodshed import engine
    from tsumolab.sims.bloodshed.columns import N_HAND_COLS, N_MATCH_COLS
    from tsumolab.sims.events import EVENTS_PER_MATCH
    from tsumolab.sims.family import record_buffers
    from tsumolab.sims.seating import seat_hooks
    from tsumolab.sims.shanten_tables import lookup_tables

    match_ids = np.ascontiguousarray(match_ids, dtype=np.int64)
    hooks, params = seat_hooks(seats)
    hand_rows, match_rows, events = record_buffers(match_ids, ROWS_PER_MATCH, N_HAND_COLS, N_MATCH_COLS,
                                                   EVENTS_PER_MATCH * match_ids.size if record_events else 0)
    if counters is None:
        counters = np.zeros(engine.N_COUNTERS, np.int64)
    n = engine.play_matches(int(root_seed) & 0x7FFF_FFFF_FFFF_FFFF, match_ids, *hooks, params, rules.to_array(),
                            lookup_tables(), hand_rows, match_rows, counters, events)
    n_events = int(counters[engine.CNT_EVENTS])
    if record_events and n_events >= events.shape[0]:
        raise RuntimeError("event log overflow: raise sims.events.EVENTS_PER_MATCH")
    return hand_rows[:n], match_rows, events[:n_events]
