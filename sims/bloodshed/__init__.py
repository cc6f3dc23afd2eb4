"""Bloodshed Skirmish (赤羽之战): public entry points of the mode.

PLACEHOLDER while the compiled engine is written: `simulate` returns synthetic rows with the final
layout and the same determinism contract (rows depend only on root seed and match id).
"""

from __future__ import annotations

import numpy as np

from sims.bloodshed.rules import BloodshedRules, START_POINTS
from sims.records import HC, MC, N_HAND_COLS, N_MATCH_COLS

RULES = BloodshedRules


def warm_up(seats) -> None:
    """Compile or load every kernel the seats need (no-op in the placeholder)."""


def simulate(root_seed: int, match_ids: np.ndarray, seats, rules: BloodshedRules | None = None):
    """Play the given matches; returns (hand_rows int32[n, N_HAND_COLS], match_rows int32[4*len, N_MATCH_COLS])."""
    hands, matches = [], []
    for mid in np.asarray(match_ids, np.int64):
        rng = np.random.default_rng([root_seed, int(mid)])
        points = np.full(4, START_POINTS, np.int64)
        for hand in range(1, 5):
            deltas = rng.integers(-8, 9, 4) * 1000
            deltas[3] = -deltas[:3].sum()
            for seat in range(4):
                row = np.zeros(N_HAND_COLS, np.int32)
                row[HC["match_id"]], row[HC["hand"]], row[HC["seat"]] = mid, hand, seat
                row[HC["points_before"]], row[HC["delta"]] = points[seat], deltas[seat]
                hands.append(row)
            points += deltas
        order = sorted(range(4), key=lambda s: (-points[s], s))
        for seat in range(4):
            row = np.zeros(N_MATCH_COLS, np.int32)
            row[MC["match_id"]], row[MC["seat"]], row[MC["final_points"]] = mid, seat, points[seat]
            row[MC["rank"]], row[MC["hands_played"]] = order.index(seat) + 1, 4
            matches.append(row)
    return np.array(hands, np.int32).reshape(-1, N_HAND_COLS), np.array(matches, np.int32).reshape(-1, N_MATCH_COLS)
