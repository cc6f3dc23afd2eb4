"""Python edge of the riichi match kernel shared by every riichi-based mode: seat hooks in, record rows
(sims.riichi.columns) and the event log out."""

from __future__ import annotations

import numpy as np

from tsumolab.sims.riichi.rules import MAX_HANDS, RiichiRules

ROWS_PER_MATCH = 4 * MAX_HANDS
EVENTS_PER_MATCH = 3_000             # event rows per match for a typical match (about 10 hands)
EVENTS_LONGEST_MATCH = 400 * MAX_HANDS  # room for the longest possible match


def play(root_seed: int, match_ids, seats, rules: RiichiRules, counters=None, record_events: bool = False,
         events_per_match: int = EVENTS_PER_MATCH):
    """(hand_rows int32[n, N_HAND_COLS], match_rows int32[4m, N_MATCH_COLS], events int32[e, 8]).

    When the event log overflows (unusually long matches), the matches are replayed one by one with room for
    the longest possible match; play is the same, as every wall and decision depends only on the keys."""
    from tsumolab.sims.family import record_buffers
    from tsumolab.sims.riichi import engine
    from tsumolab.sims.riichi.bundles import PlayLog, RuleArrays, Seating
    from tsumolab.sims.riichi.columns import N_HAND_COLS, N_MATCH_COLS
    from tsumolab.sims.seating import seat_hooks

    match_ids = np.ascontiguousarray(match_ids, dtype=np.int64)
    hooks, params = seat_hooks(seats, "riichi")
    hand_rows, match_rows, events = record_buffers(match_ids, ROWS_PER_MATCH, N_HAND_COLS, N_MATCH_COLS,
                                                   events_per_match * match_ids.size if record_events else 0)
    if counters is None:
        counters = np.zeros(engine.N_COUNTERS, np.int64)
    n = engine.play_matches(int(root_seed) & 0x7FFF_FFFF_FFFF_FFFF, match_ids, Seating.of(hooks, params),
                            RuleArrays.of(rules), hand_rows, match_rows, PlayLog(counters, events))
    n_events = int(counters[engine.CNT_EVENTS])
    if record_events and n_events >= events.shape[0]:
        if events_per_match >= EVENTS_LONGEST_MATCH:
            raise RuntimeError("event log overflow: raise sims.riichi.play.EVENTS_LONGEST_MATCH")
        parts = [play(root_seed, match_ids[i:i + 1], seats, rules, None, True, EVENTS_LONGEST_MATCH)[2]
                 for i in range(match_ids.size)]
        return hand_rows[:n], match_rows, np.concatenate(parts)
    return hand_rows[:n], match_rows, events[:n_events]
