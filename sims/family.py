"""The engine-family interface: what the layers above may ask of an engine, whichever family plays the mode.

Two families implement it: Bloodshed (sims.bloodshed.family) and the riichi family (sims.riichi.family), which
plays every riichi-based mode under that mode's rule options. A mode (sims.modes) is a rules class over one
family; code above sims asks the family, never the mode's name, what differs between engines.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

WON, DEALT_IN, EXHAUSTIVE = 1, 2, 4
"""the outcome bits of the deciding seat in a family's paired rollouts (sims.bloodshed.rollout,
sims.riichi.rollout): it won, it dealt in, the hand ended in an exhaustive draw without its win"""


@dataclass(frozen=True)
class EngineFamily:
    """One compiled engine and the facts about its output that the analysis layer needs."""

    name: str
    hand_columns: list
    """the `hands` record layout: (name, polars dtype name, meaning, labels) per int32 column"""
    match_columns: list
    """the `matches` record layout, the same columns in every family"""
    event_fields: dict
    """event code → (name, meaning of the fields) of the event log"""
    rows_per_match: int
    """hand rows a match writes at most"""
    points_unit: int
    """the smallest payment: the unit of the economy metrics' standard errors"""
    play: Callable
    """play(root_seed, match_ids, seats, rules, counters=None, record_events=False) →
    (hand_rows, match_rows, events)"""
    start_points: Callable
    """start_points(rules) → each seat's points at the start of a match"""
    engine_module: str
    """the module whose import compiles (or loads from the kernel cache) the engine's kernels"""

    def compile(self) -> None:
        """Compile the engine's kernels, or load them from the kernel cache (the policy hooks apart)."""
        importlib.import_module(self.engine_module)


def record_buffers(match_ids: np.ndarray, rows_per_match: int, n_hand_cols: int, n_match_cols: int,
                   event_rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed (hand_rows, match_rows, events) for a family's play kernel: rows for the matches `match_ids` and
    `event_rows` event rows (0: no event log)."""
    from tsumolab.sims.events import N_EVENT_COLS

    return (np.zeros((rows_per_match * match_ids.size, n_hand_cols), np.int32),
            np.zeros((4 * match_ids.size, n_match_cols), np.int32),
            np.zeros((event_rows, N_EVENT_COLS), np.int32))
