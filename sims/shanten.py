"""Compiled shanten, completeness, waits and ukeire kernels over `int8[34]` counts of the concealed tiles.

Shanten = (minimum number of tiles missing to a complete hand) - 1, so -1 means complete, 0 tenpai.
Fixed melds are given only as their number `n_melds`: a regular hand needs 4 - n_melds sets and a pair
from the concealed tiles. Each of the four groups (m, p, s suits and honors) looks up its row of
`sims.shanten_tables` (tiles missing for m sets + p pairs) by base-5 index; the rows are combined by
a min-plus product over (m, p). Special shapes, chosen by the `hand_flags` bitmask, only count for
closed hands of 13 or 14 tiles. All `@njit` kernels take the tables as arguments so that other compiled
code can call them; `hand_shanten` and `hand_waits` are Python conveniences that fetch the tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tsumolab.sims.shanten_tables import get_tables
from tsumolab.sims.tiles import N_KINDS, TileError
from tsumolab.sims.jit import allocates, step

SHAPE_PAIRS = 1       # seven pairs
SHAPE_ORPHANS = 2     # thirteen orphans
IDENTICAL_PAIRS = 4   # B-10: four of a kind counts as two of the seven pairs
BLOODSHED_SHAPES = SHAPE_PAIRS | IDENTICAL_PAIRS
RIICHI_SHAPES = SHAPE_PAIRS | SHAPE_ORPHANS

NOT_APPLICABLE = 99   # shanten of a shape the hand cannot take (open hand, wrong tile count)

POW5 = np.array([5**i for i in range(9)], np.int64)
ORPHAN_KINDS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], np.int64)
IS_ORPHAN = np.zeros(N_KINDS, np.bool_)
IS_ORPHAN[ORPHAN_KINDS] = True
ALL_KINDS = np.ones(N_KINDS, np.int8)   # `wanted` of the after-each kernels: every kind

# Helpers that take arrays are inlined by numba (inline="always"): calling a separate jitted function
# with array arguments costs reference counting that LLVM cannot remove (about 2x slower). Helpers over
# scalars and tuples stay plain @njit: LLVM inlines them anyway, and numba-level inlining of them
# multiplies compile time.


# ---------------------------------------------------------------------------------------------- regular

@njit(cache=True, inline="always")
def _group_index(counts, group):
    base = 9 * group
    top = base + (7 if group == 3 else 9) - 1
    idx = 0
    for k in range(top, base - 1, -1):
        idx = idx * 5 + counts[k]
    return idx


@step
def suit_index(counts, group):
    """Base-5 row index of group 0..2 (m, p, s: 9 kinds) or 3 (honors: 7 kinds) (jit-compiled).

    Drawing or discarding rank r of the group changes the index by +-POW5[r]."""
    return _group_index(counts, group)


@njit(cache=True, inline="always")
def _row(table, idx):
    return (
        np.int64(table[idx, 0]), np.int64(table[idx, 1]), np.int64(table[idx, 2]), np.int64(table[idx, 3]),
        np.int64(table[idx, 4]), np.int64(table[idx, 5]), np.int64(table[idx, 6]), np.int64(table[idx, 7]),
        np.int64(table[idx, 8]), np.int64(table[idx, 9]),
    )


@njit(cache=True)
def _combine(a, b):
    """Min-plus product of two rows: entry 2*m+p = min over splits of (m, p) between the groups.

    Entry 0 (no set, no pair) is 0 in every row, which drops the terms that would add it.
    """
    return (
        a[0],
        min(a[1], b[1]),
        min(a[2], b[2]),
        min(a[3], b[3], a[2] + b[1], a[1] + b[2]),
        min(a[4], b[4], a[2] + b[2]),
        min(a[5], b[5], a[4] + b[1], a[1] + b[4], a[3] + b[2], a[2] + b[3]),
        min(a[6], b[6], a[4] + b[2], a[2] + b[4]),
        min(a[7], b[7], a[6] + b[1], a[1] + b[6], a[5] + b[2], a[2] + b[5], a[4] + b[3], a[3] + b[4]),
        min(a[8], b[8], a[6] + b[2], a[2] + b[6], a[4] + b[4]),
        min(a[9], b[9], a[8] + b[1], a[1] + b[8], a[7] + b[2], a[2] + b[7], a[6] + b[3], a[3] + b[6],
            a[5] + b[4], a[4] + b[5]),
    )


@njit(cache=True)
def _missing(a, b, n_sets):
    """Tiles missing for n_sets sets + 1 pair split between two combined rows."""
    if n_sets == 4:
        return min(a[0] + b[9], a[1] + b[8], a[2] + b[7], a[3] + b[6], a[4] + b[5],
                   a[5] + b[4], a[6] + b[3], a[7] + b[2], a[8] + b[1], a[9] + b[0])
    best = 99
    for m in range(n_sets + 1):
        j = 2 * (n_sets - m)
        best = min(best, a[2 * m] + b[j + 1], a[2 * m + 1] + b[j])
    return best


@njit(cache=True, inline="always")
def _regular_from_indices(idx_m, idx_p, idx_s, idx_z, n_melds, suit_t, honor_t):
    ab = _combine(_row(suit_t, idx_m), _row(suit_t, idx_p))
    cd = _combine(_row(suit_t, idx_s), _row(honor_t, idx_z))
    return _missing(ab, cd, 4 - n_melds) - 1


@njit(cache=True, inline="always")
def _regular(counts, n_melds, suit_t, honor_t):
    return _regular_from_indices(_group_index(counts, 0), _group_index(counts, 1), _group_index(counts, 2),
                                 _group_index(counts, 3), n_melds, suit_t, honor_t)


@step
def shanten_from_indices(idx_m, idx_p, idx_s, idx_z, n_melds, suit_t, honor_t):
    """Regular-shape shanten from the four group indices (see `suit_index`, `POW5`) (jit-compiled)."""
    return _regular_from_indices(idx_m, idx_p, idx_s, idx_z, n_melds, suit_t, honor_t)


@step
def shanten_regular(counts, n_melds, suit_t, honor_t):
    """Shanten of the regular shape: 4 - n_melds sets and a pair from the concealed tiles (jit-compiled)."""
    return _regular(counts, n_melds, suit_t, honor_t)


# ------------------------------------------------------------------------------------- special shapes

@njit(cache=True, inline="always")
def _pair_stats(counts):
    """(tiles, kinds with >= 2 copies, kinds present, sum of copies // 2)."""
    tiles = 0
    pairs = 0
    kinds = 0
    halves = 0
    for k in range(N_KINDS):
        c = counts[k]
        tiles += c
        pairs += c >= 2
        kinds += c >= 1
        halves += c >> 1
    return tiles, pairs, kinds, halves


@njit(cache=True)
def _pairs_from_stats(pairs, kinds, halves, identical_pairs):
    if identical_pairs:
        return 6 - min(7, halves)
    return 6 - pairs + max(0, 7 - kinds)


@step
def shanten_pairs(counts, identical_pairs):
    """Seven-pairs shanten of a closed 13/14-tile hand, NOT_APPLICABLE for other tile counts (jit-compiled).

    Riichi: seven distinct kinds. `identical_pairs` (B-10): four of a kind counts as two pairs.
    """
    tiles, pairs, kinds, halves = _pair_stats(counts)
    if tiles != 13 and tiles != 14:
        return NOT_APPLICABLE
    return _pairs_from_stats(pairs, kinds, halves, identical_pairs)


@njit(cache=True, inline="always")
def _orphan_stats(counts):
    """(terminal/honor kinds present, terminal/honor kinds with >= 2 copies)."""
    present = 0
    paired = 0
    for k in ORPHAN_KINDS:
        present += counts[k] >= 1
        paired += counts[k] >= 2
    return present, paired


@step
def shanten_orphans(counts):
    """Thirteen-orphans shanten of a closed 13/14-tile hand, NOT_APPLICABLE otherwise (jit-compiled)."""
    tiles = 0
    for k in range(N_KINDS):
        tiles += counts[k]
    if tiles != 13 and tiles != 14:
        return NOT_APPLICABLE
    present, paired = _orphan_stats(counts)
    return 13 - present - (paired > 0)


@njit(cache=True, inline="always")
def _special_shanten(counts, n_melds, hand_flags):
    """Best shanten over the special shapes enabled in hand_flags (NOT_APPLICABLE if none apply)."""
    best = NOT_APPLICABLE
    if n_melds != 0 or (hand_flags & (SHAPE_PAIRS | SHAPE_ORPHANS)) == 0:
        return best
    tiles, pairs, kinds, halves = _pair_stats(counts)
    if tiles != 13 and tiles != 14:
        return best
    if hand_flags & SHAPE_PAIRS:
        best = _pairs_from_stats(pairs, kinds, halves, (hand_flags & IDENTICAL_PAIRS) != 0)
    if hand_flags & SHAPE_ORPHANS:
        present, paired = _orphan_stats(counts)
        best = min(best, 13 - present - (paired > 0))
    return best


@njit(cache=True, inline="always")
def _shanten(counts, n_melds, hand_flags, suit_t, honor_t):
    return min(_regular(counts, n_melds, suit_t, honor_t), _special_shanten(counts, n_melds, hand_flags))


@step
def shanten(counts, n_melds, hand_flags, suit_t, honor_t):
    """Shanten over the regular shape and the special shapes enabled in `hand_flags` (jit-compiled)."""
    return _shanten(counts, n_melds, hand_flags, suit_t, honor_t)


@step
def is_complete(counts, n_melds, hand_flags, suit_t, honor_t):
    """True if the concealed tiles with n_melds fixed melds form a winning shape (jit-compiled)."""
    return _shanten(counts, n_melds, hand_flags, suit_t, honor_t) == -1


# --------------------------------------------------------------------------- one tile added or removed

@njit(cache=True, inline="always")
def _special_after_change(counts, k, delta, tiles, pairs, kinds, halves, present, paired, n_melds, hand_flags):
    """Special-shape shanten after adding (delta=+1) or removing (delta=-1) one tile of kind k."""
    if n_melds != 0 or tiles + delta < 13 or tiles + delta > 14:
        return NOT_APPLICABLE
    before = counts[k]
    after = before + delta
    best = NOT_APPLICABLE
    if hand_flags & SHAPE_PAIRS:
        pairs2 = pairs + (after >= 2) - (before >= 2)
        kinds2 = kinds + (after >= 1) - (before >= 1)
        halves2 = halves + (after >> 1) - (before >> 1)
        best = _pairs_from_stats(pairs2, kinds2, halves2, (hand_flags & IDENTICAL_PAIRS) != 0)
    if hand_flags & SHAPE_ORPHANS:
        if IS_ORPHAN[k]:
            present += (after >= 1) - (before >= 1)
            paired += (after >= 2) - (before >= 2)
        best = min(best, 13 - present - (paired > 0))
    return best


@njit(cache=True, inline="always")
def _regular_after_each_in_group(counts, base, n_kinds, idx, others, table, n_sets, delta, wanted, out):
    """out[base + r] for one group: its row index moves by delta * 5**r, the other groups stay combined."""
    for r in range(n_kinds):
        c = counts[base + r]
        if (delta > 0 and c >= 4) or (delta < 0 and c <= 0) or wanted[base + r] == 0:
            out[base + r] = NOT_APPLICABLE
        else:
            out[base + r] = _missing(_row(table, idx + delta * POW5[r]), others, n_sets) - 1


@njit(cache=True, inline="always")
def _shanten_after_each(counts, n_melds, hand_flags, suit_t, honor_t, delta, wanted, out):
    """out[k] = shanten after adding (delta=+1) or removing (delta=-1) one tile of kind k, for every kind
    where that is possible (count < 4, resp. > 0) and wanted[k] != 0; NOT_APPLICABLE elsewhere."""
    n_sets = 4 - n_melds
    i0, i1 = _group_index(counts, 0), _group_index(counts, 1)
    i2, i3 = _group_index(counts, 2), _group_index(counts, 3)
    r0, r1, r2, r3 = _row(suit_t, i0), _row(suit_t, i1), _row(suit_t, i2), _row(honor_t, i3)
    r01, r23 = _combine(r0, r1), _combine(r2, r3)
    _regular_after_each_in_group(counts, 0, 9, i0, _combine(r1, r23), suit_t, n_sets, delta, wanted, out)
    _regular_after_each_in_group(counts, 9, 9, i1, _combine(r0, r23), suit_t, n_sets, delta, wanted, out)
    _regular_after_each_in_group(counts, 18, 9, i2, _combine(r01, r3), suit_t, n_sets, delta, wanted, out)
    _regular_after_each_in_group(counts, 27, 7, i3, _combine(r01, r2), honor_t, n_sets, delta, wanted, out)
    if n_melds != 0 or (hand_flags & (SHAPE_PAIRS | SHAPE_ORPHANS)) == 0:
        return
    tiles, pairs, kinds, halves = _pair_stats(counts)
    present, paired = _orphan_stats(counts)
    for k in range(N_KINDS):
        if out[k] != NOT_APPLICABLE:
            out[k] = min(out[k], _special_after_change(counts, k, delta, tiles, pairs, kinds, halves,
                                                       present, paired, n_melds, hand_flags))


@step
def discard_shanten(counts, n_melds, hand_flags, suit_t, honor_t, out):
    """out[k] = shanten after discarding one tile of kind k (NOT_APPLICABLE for kinds not held);
    returns the best of them (jit-compiled)."""
    _shanten_after_each(counts, n_melds, hand_flags, suit_t, honor_t, -1, counts, out)
    best = NOT_APPLICABLE
    for k in range(N_KINDS):
        best = min(best, out[k])
    return best


@step
def draw_shanten(counts, n_melds, hand_flags, suit_t, honor_t, out):
    """out[k] = shanten after drawing one tile of kind k (NOT_APPLICABLE where 4 are already in hand)
    (jit-compiled)."""
    _shanten_after_each(counts, n_melds, hand_flags, suit_t, honor_t, 1, ALL_KINDS, out)


@step
def draw_shanten_among(counts, n_melds, hand_flags, wanted, suit_t, honor_t, out):
    """`draw_shanten` for the kinds with wanted[k] != 0 only (NOT_APPLICABLE elsewhere), e.g. the kinds with
    copies left to draw (jit-compiled)."""
    _shanten_after_each(counts, n_melds, hand_flags, suit_t, honor_t, 1, wanted, out)


@allocates
def winning_tiles(counts13, n_melds, hand_flags, held, suit_t, honor_t, out_mask):
    """Set out_mask[k] = 1 for each kind k completing the 13 - 3*n_melds tile hand, else 0; a kind of which
    `held` (hand and melds) has 4 copies is not a winning tile (B-20). Returns the number of waits
    (jit-compiled)."""
    after = np.empty(N_KINDS, np.int64)
    _shanten_after_each(counts13, n_melds, hand_flags, suit_t, honor_t, 1, ALL_KINDS, after)
    n_waits = 0
    for k in range(N_KINDS):
        wins = after[k] == -1 and held[k] < 4
        out_mask[k] = wins
        n_waits += wins
    return n_waits


@allocates
def ukeire(counts, n_melds, hand_flags, unseen, suit_t, honor_t):
    """Number of unseen tiles (unseen: copies not visible to the player, per kind) whose draw lowers the
    shanten of this 13 - 3*n_melds tile hand (jit-compiled)."""
    return ukeire_into(counts, n_melds, hand_flags, unseen, suit_t, honor_t, np.empty(N_KINDS, np.int64))


@step
def ukeire_into(counts, n_melds, hand_flags, unseen, suit_t, honor_t, after):
    """`ukeire` with the caller's scratch array `after` (int64[34], overwritten; kinds with no unseen copy are
    not evaluated) (jit-compiled)."""
    _shanten_after_each(counts, n_melds, hand_flags, suit_t, honor_t, 1, unseen, after)
    base = _shanten(counts, n_melds, hand_flags, suit_t, honor_t)
    total = 0
    for k in range(N_KINDS):
        if after[k] < base:
            total += unseen[k]
    return total


# ----------------------------------------------------------------------------------- Python wrappers

def _as_counts(counts) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.shape != (N_KINDS,):
        raise ValueError(f"a hand is {N_KINDS} tile counts, got shape {arr.shape}")
    if arr.min() < 0 or arr.max() > 4:
        raise TileError("tile counts must be between 0 and 4")
    return np.ascontiguousarray(arr, dtype=np.int8)


def hand_shanten(counts, n_melds: int = 0, hand_flags: int = RIICHI_SHAPES) -> int:
    """Shanten of concealed `counts` (34 kinds) with `n_melds` fixed melds; -1 = complete."""
    suit_t, honor_t = get_tables()
    return int(shanten(_as_counts(counts), n_melds, hand_flags, suit_t, honor_t))


def hand_waits(counts, n_melds: int = 0, hand_flags: int = RIICHI_SHAPES, held=None) -> list[int]:
    """Kinds completing the 13 - 3*n_melds tile hand; `held` (hand + melds, default the hand) excludes
    kinds with all 4 copies already held."""
    suit_t, honor_t = get_tables()
    hand = _as_counts(counts)
    held_arr = hand if held is None else _as_counts(held)
    mask = np.zeros(N_KINDS, np.int8)
    winning_tiles(hand, n_melds, hand_flags, held_arr, suit_t, honor_t, mask)
    return [int(k) for k in np.nonzero(mask)[0]]
