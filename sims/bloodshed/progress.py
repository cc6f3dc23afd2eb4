"""How far a Bloodshed seat's concealed hand has progressed, and hands dealt to match a progress drawn from play.

A seat's progress is the pair (v, s): v its concealed tiles of its void suit, s the shanten (sims.shanten,
Bloodshed shapes) of its other concealed tiles with its melds. Void tiles must leave before a win (B-7), so
they count as missing tiles in s. A hand dealt uniformly from the hidden tiles holds about a third of void
tiles and is several tiles from winning; the hands the field has built after some draws are much closer.

The progress table counts (v, s) over the opponents of simulated play, seat by seat at every decision, by
(wall tiles left // WALL_BUCKET, melds capped at MELD_CAP), for seats that have declared their void, have not
won and hold 13 - 3·melds tiles. It ships as package data, one file per field policy (`progress-<policy>.npy`),
rebuilt by `python -m tsumolab.analyzer.advise.bloodshed_progress`. `draw_progress` samples (v, s) from its row and
`deal_hand` fills
hand slots from the hidden pool to have that progress: random tiles, then exchanges with the pool that never
move the shanten away from the target until it is reached, then MIX_STEPS proposed exchanges kept only when
the shanten stays at the target (a random walk spreading the hand over the hands of that progress).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims.bloodshed.observation import BOBS
from tsumolab.sims.progress_table import cumulative, draw_outcome, load_counts
from tsumolab.sims.shanten import BLOODSHED_SHAPES, shanten
from tsumolab.sims.shanten_walk import walk_to_shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS

WALL_BUCKET, N_WALL_BUCKETS = 4, 14   # the live wall holds 55 tiles after the deal
MELD_CAP = 3
N_VOID = 15                           # v = 0 .. 14
N_SHANTEN = 16                        # s = -1 .. 14, stored at s + 1
TABLE_SHAPE = (N_WALL_BUCKETS, MELD_CAP + 1, N_VOID, N_SHANTEN)
WALK_STEPS = 4_000                    # exchanges allowed to reach the target shanten
MIX_STEPS = 60                        # exchanges proposed once there


@nb.njit(cache=True)
def row_of(wall_left, n_melds):
    """(wall bucket, meld bucket) of the table."""
    return min(wall_left // WALL_BUCKET, N_WALL_BUCKETS - 1), min(n_melds, MELD_CAP)


@nb.njit(cache=True)
def progress_of(obs, p, tables):
    """(v, s) of seat p's concealed hand in the state's observation block (see the module doc)."""
    void = obs[0, BOBS.void + p]
    counts = np.zeros(34, np.int32)
    v = 0
    for k in range(27):
        if k // 9 == void:
            v += obs[p, BOBS.hand + k]
        else:
            counts[k] = obs[p, BOBS.hand + k]
    s = shanten(counts, obs[0, BOBS.n_melds + p], BLOODSHED_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:])
    return v, s


@nb.njit(cache=True)
def count_progress(S_obs, wall_left, tables, counts):
    """Add to `counts` (TABLE_SHAPE, int64) the progress of every seat that has declared its void, has not won
    and holds 13 - 3·melds concealed tiles."""
    for p in range(4):
        if S_obs[0, BOBS.void + p] < 0 or S_obs[0, BOBS.won + p] == 1:
            continue
        size = 0
        for k in range(27):
            size += S_obs[p, BOBS.hand + k]
        if size != 13 - 3 * S_obs[0, BOBS.n_melds + p]:
            continue
        v, s = progress_of(S_obs, p, tables)
        w, m = row_of(wall_left, S_obs[0, BOBS.n_melds + p])
        counts[w, m, min(v, N_VOID - 1), min(s + 1, N_SHANTEN - 1)] += 1


@nb.njit(cache=True)
def draw_progress(cum, wall_left, n_melds, state):
    """(v, s) drawn from the table row of (wall_left, n_melds); cum as `cumulative` returns it."""
    w, m = row_of(wall_left, n_melds)
    i = draw_outcome(cum, w, m, state)
    return i // N_SHANTEN, i % N_SHANTEN - 1


@nb.njit(cache=True)
def deal_hand(copies, first, size, void, v, target, n_melds, state, tables):
    """Make copies[first:first+size] a hand with at most v void tiles (as many as the rest of the pool allows)
    and the shanten `target` over its other tiles, by exchanges with copies[first+size:] (the rest of the pool,
    in random order). Returns the shanten reached (the target unless the walk ran out of steps)."""
    end = first + size
    # v void tiles: the first void tiles found in the rest swap with non-void tiles of the hand
    have = 0
    for i in range(first, end):
        if copies[i] // 9 == void:
            have += 1
    j = end
    i = first
    while have < v and j < copies.size:
        if copies[j] // 9 == void:
            while i < end and copies[i] // 9 == void:
                i += 1
            if i == end:
                break
            copies[i], copies[j] = copies[j], copies[i]
            have += 1
        j += 1
    i = first
    j = end
    while have > v and i < end:
        if copies[i] // 9 == void:
            while j < copies.size and copies[j] // 9 == void:
                j += 1
            if j == copies.size:
                break
            copies[i], copies[j] = copies[j], copies[i]
            have -= 1
        i += 1
    counts = np.zeros(34, np.int32)
    for i in range(first, end):
        if copies[i] // 9 != void:
            counts[copies[i]] += 1
    return walk_to_shanten(copies, first, size, 1, void, counts, n_melds, BLOODSHED_SHAPES, target, False,
                           WALK_STEPS, MIX_STEPS, state, tables)


FIELD_FILE = "progress-{policy}.npy"
"""the table of one field policy, package data beside this module"""
_CUMULATIVE: dict = {}


def table_path(policy: str):
    from importlib.resources import files

    return files("tsumolab.sims.bloodshed").joinpath(FIELD_FILE.format(policy=policy))


def field_progress(policy: str = "baseline") -> np.ndarray:
    """The cumulative progress table of a field policy (loaded once per process); ValueError if none ships."""
    if policy not in _CUMULATIVE:
        counts = load_counts(table_path(policy), TABLE_SHAPE,
                             f"python -m tsumolab.analyzer.advise.bloodshed_progress --policy {policy}")
        _CUMULATIVE[policy] = cumulative(counts)
    return _CUMULATIVE[policy]


UNIFORM = np.zeros((0, 0, 0))
"""the empty table: the uniform re-deal"""
