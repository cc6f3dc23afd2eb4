"""Bloodshed Skirmish (赤羽之战): the mode's public entry points over the compiled engine.

Rules: sims/bloodshed/rules.py (options) and RULES.md B-1 … B-25; scoring: scoring.py; exhaustive-draw
settlement: settlement.py; the match kernel: engine.py.
"""

from __future__ import annotations

import numpy as np

from sims.bloodshed.rules import BloodshedRules

RULES = BloodshedRules
SLUG = "bloodshed"
ROWS_PER_MATCH = 16  # 4 hands × 4 seats at most


def lookup_tables() -> np.ndarray:
    """The shanten tables as one uint8 array (suit rows, then honor rows), built once per process."""
    global _TABLES
    if _TABLES is None:
        from sims.shanten_tables import get_tables

        _TABLES = np.ascontiguousarray(np.concatenate(get_tables()))
    return _TABLES


_TABLES = None


def warm_up(seats) -> None:
    """Load (or compile) the engine and the seats' hooks, and the lookup tables, before workers fan out."""
    simulate(0, np.zeros(1, np.int64), seats)


def simulate(root_seed: int, match_ids, seats, rules: BloodshedRules | None = None, counters=None):
    """Play the matches `match_ids` with four seat policies.

    Returns (hand_rows int32[n, N_HAND_COLS], match_rows int32[4 * len(match_ids), N_MATCH_COLS]) laid
    out as in sims.records. `counters`, if given, is an int64 array of engine.N_COUNTERS slots that
    accumulates engine diagnostics (illegal answers, hands, tile-count errors).
    """
    hand_rows, match_rows, _ = _play(root_seed, match_ids, seats, rules, counters, record_events=False)
    return hand_rows, match_rows


def simulate_events(root_seed: int, match_ids, seats, rules: BloodshedRules | None = None):
    """`simulate` that also returns the event log: int32[n_events, sims.events.N_EVENT_COLS]."""
    return _play(root_seed, match_ids, seats, rules, None, record_events=True)


def _play(root_seed, match_ids, seats, rules, counters, record_events):
    from sims.bloodshed import engine
    from sims.events import EVENTS_PER_MATCH, N_EVENT_COLS
    from sims.records import N_HAND_COLS, N_MATCH_COLS
    from sims.seating import seat_hooks

    rules = rules or BloodshedRules()
    match_ids = np.ascontiguousarray(match_ids, dtype=np.int64)
    hooks, params = seat_hooks(seats)
    hand_rows = np.zeros((ROWS_PER_MATCH * match_ids.size, N_HAND_COLS), np.int32)
    match_rows = np.zeros((4 * match_ids.size, N_MATCH_COLS), np.int32)
    events = np.zeros((EVENTS_PER_MATCH * match_ids.size if record_events else 0, N_EVENT_COLS), np.int32)
    if counters is None:
        counters = np.zeros(engine.N_COUNTERS, np.int64)
    n = engine.play_matches(int(root_seed) & 0x7FFF_FFFF_FFFF_FFFF, match_ids, *hooks, params, rules.to_array(),
                            lookup_tables(), hand_rows, match_rows, counters, events)
    n_events = int(counters[engine.CNT_EVENTS])
    if record_events and n_events >= events.shape[0]:
        raise RuntimeError("event log overflow: raise sims.events.EVENTS_PER_MATCH")
    return hand_rows[:n], match_rows, events[:n_events]
