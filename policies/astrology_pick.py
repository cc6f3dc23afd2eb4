"""Candidate choice for `astrology` (RULES.md A), mode-unaware of opponents: the candidate giving the lowest
shanten after the best discard, then (near tenpai, among candidates that lower shanten) the most unseen tiles
accepted after that discard, then a red five / dora, then the tile that connects best with the hand. A seat
in riichi takes a winning candidate if there is one, else the first (its hand cannot change). All functions are
jit-compiled.

The pool is read from obs[ROBS.astrology + …] (layout in sims.riichi.astrology_pool).
"""

import numba as nb
import numpy as np

from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_common import (
    discard_acceptance, hand_of, is_dora, isolation, n_melds_of, own_shanten, unseen,
)
from tsumolab.sims.riichi.astrology_pool import A_KIND, A_N, A_RED
from tsumolab.sims.shanten import NOT_APPLICABLE, RIICHI_SHAPES, discard_shanten, shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def pool_size(obs):
    return obs[ROBS.astrology + A_N]


@nb.njit(cache=True)
def candidate(obs, i):
    return obs[ROBS.astrology + A_KIND + i]


@nb.njit(cache=True)
def candidate_shanten(obs, tables, out):
    """out[i] = shanten of the hand with candidate i added (= after the best discard; -1 = complete)."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    n_melds = n_melds_of(obs)
    best = NOT_APPLICABLE
    for i in range(pool_size(obs)):
        k = candidate(obs, i)
        same = -1
        for j in range(i):
            if candidate(obs, j) == k:
                same = j
        if same >= 0:
            out[i] = out[same]
        else:
            hand[k] += 1
            out[i] = shanten(hand, n_melds, RIICHI_SHAPES, suit_t, honor_t)
            hand[k] -= 1
        best = min(best, out[i])
    return best


@nb.njit(cache=True)
def visible_unseen(obs):
    """Unseen copies per kind, the candidates in the pool counted as seen."""
    left = unseen(obs)
    for i in range(pool_size(obs)):
        k = candidate(obs, i)
        if left[k] > 0:
            left[k] -= 1
    return left


@nb.njit(cache=True)
def acceptance_after(obs, tables, k, left):
    """With kind k added: the most unseen tiles that lower shanten after one of the best discards."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    hand[k] += 1
    n_melds = n_melds_of(obs)
    after = np.empty(34, np.int64)
    best = discard_shanten(hand, n_melds, RIICHI_SHAPES, suit_t, honor_t, after)
    drawn = np.empty(34, np.int64)
    most = 0
    for d in range(34):
        if hand[d] == 0 or after[d] != best:
            continue
        most = max(most, discard_acceptance(hand, d, n_melds, best, left, suit_t, honor_t, drawn))
    return most


@nb.njit(cache=True)
def shape_key(obs, i):
    """Tie-break far from tenpai: red five / dora, then connection with the hand, then central tiles."""
    k = candidate(obs, i)
    key = 0
    if obs[ROBS.astrology + A_RED + i] == 1:
        key += 64
    if is_dora(obs, k):
        key += 64
    key += isolation(hand_of(obs), k) * 4
    if k < 27:
        key += 4 - abs(k % 9 - 4)
    return key


@nb.njit(cache=True)
def needs_acceptance(obs, tables, sh, best):
    """Acceptance decides only between different candidates that all lower shanten, near tenpai (≤ 2);
    when no candidate improves the hand, the cheap shape key decides (speed)."""
    if best < 0 or best > 2:
        return False
    tied = 0
    first = -1
    distinct = False
    for i in range(pool_size(obs)):
        if sh[i] == best:
            tied += 1
            if first < 0:
                first = candidate(obs, i)
            elif candidate(obs, i) != first:
                distinct = True
    return tied > 1 and distinct and best < own_shanten(obs, tables)


@nb.njit(cache=True)
def efficient_pick(obs, tables):
    n = pool_size(obs)
    if n <= 1:
        return 0
    sh = np.empty(3, np.int64)
    best = candidate_shanten(obs, tables, sh)
    if obs[ROBS.riichi + obs[ROBS.seat]] > 0:
        for i in range(n):
            if sh[i] < 0:
                return i
        return 0
    near = needs_acceptance(obs, tables, sh, best)
    choice, choice_key = -1, -(1 << 40)
    left = visible_unseen(obs) if near else np.zeros(34, np.int64)
    for i in range(n):
        if sh[i] != best:
            continue
        key = shape_key(obs, i)
        if near:
            key += acceptance_after(obs, tables, candidate(obs, i), left) * 256
        if key > choice_key:
            choice, choice_key = i, key
    return choice
