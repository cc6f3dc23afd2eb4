"""Compiled helpers shared by the engines for their `obs[4, BOBS.SIZE]` / `obs[4, ROBS.SIZE]` table state.

Each seat's row repeats the public information, so a public change is written to all four rows.
`points_at` is the offset of the four seats' points in the engine's observation layout.
"""

import numba as nb
from numba import types

from tsumolab.sims.bloodshed.columns import MC

M_MATCH, M_SEAT, M_POINTS, M_RANK, M_BUSTED, M_HANDS = (
    MC["match_id"], MC["seat"], MC["final_points"], MC["rank"], MC["busted"], MC["hands_played"])


@nb.njit(cache=True, inline="always")
def pub_add(obs, offset, delta):
    """Add `delta` to a public field in every seat's row."""
    for s in range(4):
        obs[s, offset] += delta


@nb.njit(cache=True, inline="always")
def pub_set(obs, offset, value):
    """Set a public field in every seat's row."""
    for s in range(4):
        obs[s, offset] = value


@nb.njit(cache=True, inline="always")
def next_active(obs, won_at, seat):
    """Next seat after `seat` in turn order that has not won (B-12, S-3, S-4); `won_at` is the offset of the
    four seats' won flags in the engine's observation layout."""
    for k in range(1, 4):
        s = (seat + k) % 4
        if obs[0, won_at + s] == 0:
            return s
    return seat


# Explicit signatures: `points_at` is each engine's offset of the points (BOBS.points in Bloodshed, ROBS.points in
# riichi); without them a literal offset would compile one specialization per engine and per seat integer type.
_OBS = types.int32[:, ::1]


@nb.njit(types.int64(_OBS, types.int64, types.int64), cache=True)
def rank_of(obs, points_at, seat):
    """Rank 1..4 of `seat` by points, ties broken by seat order (B-4, R-2)."""
    rank = 1
    for p in range(4):
        if obs[0, points_at + p] > obs[0, points_at + seat] or \
                (obs[0, points_at + p] == obs[0, points_at + seat] and p < seat):
            rank += 1
    return rank


@nb.njit(types.void(_OBS, types.int64, _OBS, types.int64, types.int64, types.boolean, types.int64), cache=True)
def write_match_rows(obs, points_at, match_rows, first_row, match_id, busted, hands_played):
    """The four `matches` rows of a finished match (layout sims.bloodshed.columns.MATCH_COLUMNS)."""
    for s in range(4):
        row = first_row + s
        match_rows[row, M_MATCH] = match_id
        match_rows[row, M_SEAT] = s
        match_rows[row, M_POINTS] = obs[0, points_at + s]
        match_rows[row, M_RANK] = rank_of(obs, points_at, s)
        match_rows[row, M_BUSTED] = 1 if (busted and obs[0, points_at + s] < 0) else 0
        match_rows[row, M_HANDS] = hands_played
