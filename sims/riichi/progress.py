"""How far the riichi field's concealed hands have come, and hands dealt to a shanten drawn from play.

A hand dealt uniformly from the hidden tiles is three or four tiles from ready; the hands a field has built after
some draws are much closer, and rollouts from uniform hands let the deciding seat win far too often and the
hands end in exhaustive draws far too often. The progress table counts the shanten (sims.shanten, riichi shapes)
of the opponents of simulated play, seat by seat at every decision, by (live wall tiles left // WALL_BUCKET, melds
capped at MELD_CAP), for seats that are not in riichi (riichi seats are dealt tenpai), have not won and hold
13 − 3·melds tiles. It ships as package data, one file per mode and field policy
(`progress-<mode>-<policy>.npy`), rebuilt by `python -m tsumolab.analyzer.advise.riichi_progress`.
`draw_shanten` samples a shanten from a row; sims.riichi.determinize walks the seat's hidden tiles to it.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from tsumolab.sims.progress_table import cumulative, draw_outcome, load_counts
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS

WALL_BUCKET, N_WALL_BUCKETS = 4, 18   # the live wall holds 70 tiles after the deal
MELD_CAP = 3
N_SHANTEN = 8                         # s = 0 .. 7 (7: seven or more)
TABLE_SHAPE = (N_WALL_BUCKETS, MELD_CAP + 1, N_SHANTEN)
WALK_STEPS = 4_000                    # exchanges allowed to reach the drawn shanten
MIX_STEPS = 60                        # exchanges proposed once there
FIELD_FILE = "progress-{mode}-{policy}.npy"
UNIFORM = np.zeros((0, 0, 0))
"""the empty table: the uniform re-deal"""
_CUMULATIVE: dict = {}


@nb.njit(cache=True)
def row_of(wall_left, n_melds):
    """(wall bucket, meld bucket) of the table."""
    return min(max(wall_left, 0) // WALL_BUCKET, N_WALL_BUCKETS - 1), min(n_melds, MELD_CAP)


@nb.njit(cache=True)
def count_progress(obs, tables, counts):
    """Add to `counts` (TABLE_SHAPE, int64) the shanten of every seat that is not in riichi, has not won and
    holds 13 − 3·melds concealed tiles, in the row of the live wall tiles left and its melds."""
    for p in range(4):
        if obs[0, ROBS.riichi + p] > 0 or obs[0, ROBS.won + p] == 1:
            continue
        n_melds = obs[0, ROBS.n_melds + p]
        hand = np.zeros(34, np.int32)
        size = 0
        for k in range(34):
            hand[k] = obs[p, ROBS.hand + k]
            size += hand[k]
        if size != 13 - 3 * n_melds:
            continue
        s = shanten(hand, n_melds, RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:])
        w, m = row_of(obs[0, ROBS.wall_left], n_melds)
        counts[w, m, min(max(s, 0), N_SHANTEN - 1)] += 1


@nb.njit(cache=True)
def draw_shanten(cum, wall_left, n_melds, state):
    """A shanten drawn from the table row of (wall_left, n_melds); cum as sims.progress_table.cumulative gives."""
    w, m = row_of(wall_left, n_melds)
    return draw_outcome(cum, w, m, state)


def table_path(mode: str, policy: str):
    from importlib.resources import files

    return files("tsumolab.sims.riichi").joinpath(FIELD_FILE.format(mode=mode, policy=policy))


def field_progress(mode: str, policy: str = "baseline") -> np.ndarray:
    """The cumulative progress table of a mode's field policy (loaded once per process); ValueError if none
    ships."""
    key = (mode, policy)
    if key not in _CUMULATIVE:
        counts = load_counts(table_path(mode, policy), TABLE_SHAPE,
                             f"python -m tsumolab.analyzer.advise.riichi_progress --mode {mode} --policy {policy}")
        _CUMULATIVE[key] = cumulative(counts)
    return _CUMULATIVE[key]
