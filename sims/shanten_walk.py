"""The exchange walk both determinizers deal hidden hands with: swaps between a hand's slots and the rest of
the pool that never move the shanten away from a target until it is reached, then proposed swaps kept only when
it stays there (a random walk spreading the hand over the hands at that shanten)."""

from __future__ import annotations

import numba as nb

from tsumolab.sims import rng
from tsumolab.sims.shanten import shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def _distance(s, target, at_most):
    """How far shanten s is from the target: 0 at it (or, with at_most, below it)."""
    return max(s - target, 0) if at_most else abs(s - target)


@nb.njit(cache=True)
def walk_to_shanten(tiles, first, size, per_kind, void, counts, n_melds, shapes, target, at_most, walk_steps,
                    mix_steps, state, tables):
    """Walk tiles[first:first+size] (kind = tile // per_kind; `counts` the kinds it holds that count for the
    shanten) towards `target` by random swaps with tiles[first+size:]: a swap is kept when it leaves the
    shanten no farther from the target (`_distance`); at most walk_steps swaps away from it, then mix_steps
    proposed swaps at it. A swap that brings in or takes out a tile of suit `void` (-1: none) is never made.
    Returns the shanten reached (not at the target only when the walk ran out of steps)."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    now = shanten(counts, n_melds, shapes, suit_t, honor_t)
    rest = tiles.size - first - size
    if rest <= 0:
        return now
    end = first + size
    steps = 0
    mixed = 0
    while mixed < mix_steps:
        if _distance(now, target, at_most) > 0:
            steps += 1
            if steps > walk_steps:
                return now
        else:
            mixed += 1
        i = first + rng.below(state, size)
        j = end + rng.below(state, rest)
        out_kind, in_kind = tiles[i] // per_kind, tiles[j] // per_kind
        if out_kind == in_kind:
            tiles[i], tiles[j] = tiles[j], tiles[i]
            continue
        if out_kind // 9 == void or in_kind // 9 == void:
            continue
        counts[out_kind] -= 1
        counts[in_kind] += 1
        after = shanten(counts, n_melds, shapes, suit_t, honor_t)
        if _distance(after, target, at_most) <= _distance(now, target, at_most):
            tiles[i], tiles[j] = tiles[j], tiles[i]
            now = after
        else:
            counts[out_kind] += 1
            counts[in_kind] -= 1
    return now
