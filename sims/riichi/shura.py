"""`shura` 修罗之战 Battle of Shura: the riichi engine with S-1 … S-16 as table options (sims.riichi.table.ShuraRules).

Mode module API (sims.modes): RULES, SLUG, HAND_COLUMNS / MATCH_COLUMNS, EVENT_FIELDS, simulate, simulate_events, warm_up,
lookup_tables.
"""

from __future__ import annotations

import numpy as np

from sims.riichi.columns import HAND_COLUMNS, MATCH_COLUMNS  # noqa: F401
from sims.riichi.events import EVENT_FIELDS  # noqa: F401
from sims.riichi.play import ROWS_PER_MATCH, lookup_tables, play  # noqa: F401
from sims.riichi.table import ShuraRules

RULES = ShuraRules
REPLAY = True  # `tsumolab replay` decodes this log with analyzer.replay_riichi
SLUG = "shura"


def warm_up(seats) -> None:
    """Load (or compile) the engine and the seats' hooks before workers fan out."""
    simulate(0, np.zeros(1, np.int64), seats)


def simulate(root_seed: int, match_ids, seats, rules: ShuraRules | None = None, counters=None):
    """Play the matches `match_ids` with four seat policies → (hand_rows, match_rows) laid out as in
    sims.riichi.columns. `counters` (int64[engine.N_COUNTERS]) accumulates engine diagnostics."""
    hand_rows, match_rows, _ = play(root_seed, match_ids, seats, rules or ShuraRules(), counters)
    return hand_rows, match_rows


def simulate_events(root_seed: int, match_ids, seats, rules: ShuraRules | None = None):
    """`simulate` that also returns the event log: int32[n_events, sims.events.N_EVENT_COLS]."""
    return play(root_seed, match_ids, seats, rules or ShuraRules(), None, record_events=True)
