"""The functions every riichi-based mode module exposes (sims.modes), built once for a mode's rules dataclass.

A thin mode module is `RULES`, `SLUG`, the shared columns/event fields and `warm_up, simulate, simulate_events =
mode_functions(RULES)`.
"""

from __future__ import annotations

import numpy as np

from sims.riichi.play import play
from sims.riichi.table import RiichiTable


def mode_functions(rules_cls: type[RiichiTable]):
    """(warm_up, simulate, simulate_events) playing the riichi engine under `rules_cls()` unless rules are given."""

    def simulate(root_seed: int, match_ids, seats, rules: RiichiTable | None = None, counters=None):
        """Play the matches `match_ids` with four seat policies → (hand_rows, match_rows) laid out as in
        sims.riichi.columns. `counters` (int64[engine.N_COUNTERS]) accumulates engine diagnostics."""
        hand_rows, match_rows, _ = play(root_seed, match_ids, seats, rules or rules_cls(), counters)
        return hand_rows, match_rows

    def simulate_events(root_seed: int, match_ids, seats, rules: RiichiTable | None = None):
        """`simulate` that also returns the event log: int32[n_events, sims.events.N_EVENT_COLS]."""
        return play(root_seed, match_ids, seats, rules or rules_cls(), None, record_events=True)

    def warm_up(seats) -> None:
        """Load (or compile) the engine and the seats' hooks before workers fan out."""
        simulate(0, np.zeros(1, np.int64), seats)

    return warm_up, simulate, simulate_events
