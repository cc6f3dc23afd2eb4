"""Reading opponents from public information: visible threats and how dangerous a discard is.

Shared by the defensive policies (`fold`, `stall-for-draw`) and the escape rule of `pass-cheap-ron`.
Everything here reads only the observation (policies.api), so it sees rivers, melds and void
declarations, never another seat's concealed tiles. Every function is jit-compiled.
"""

from __future__ import annotations

import numba as nb

from tsumolab.policies.api import BOBS
from tsumolab.policies.common import keep_score, edge_score

FLUSH_MELDS = 2   # melds, all of one suit, that make a flush look
FLUSH_RIVER = 5   # non-void discards, all of one suit, that make a flush look (the third suit is kept)


@nb.njit(cache=True)
def is_opponent(obs, p):
    """Seat p is another seat still playing this hand."""
    return p != obs[BOBS.seat] and obs[BOBS.won + p] == 0


@nb.njit(cache=True)
def meld_suit_mask(obs, p):
    """Bit s set when seat p has a meld in suit s."""
    mask = 0
    for k in range(27):
        if obs[BOBS.melds + 34 * p + k] > 0:
            mask |= 1 << (k // 9)
    return mask


@nb.njit(cache=True)
def collected_suit(obs, p):
    """The suit seat p visibly collects for 清一色, or -1.

    A flush look is either FLUSH_MELDS or more melds all of one suit, or FLUSH_RIVER or more discards
    outside p's void suit that all belong to one suit (so p keeps the remaining suit) while p's melds,
    if any, are all in that kept suit.
    """
    melds = meld_suit_mask(obs, p)
    if obs[BOBS.n_melds + p] >= FLUSH_MELDS:
        for s in range(3):
            if melds == 1 << s:
                return s
    void = obs[BOBS.void + p]
    if void < 0:
        return -1
    river_mask = 0
    n_river = 0
    for k in range(27):
        c = obs[BOBS.river + 34 * p + k]
        if c > 0 and k // 9 != void:
            river_mask |= 1 << (k // 9)
            n_river += c
    if n_river < FLUSH_RIVER:
        return -1
    for kept in range(3):
        if kept == void or river_mask & (1 << kept):
            continue
        if (melds & ~(1 << kept)) == 0:
            return kept
    return -1


@nb.njit(cache=True)
def any_flush_threat(obs):
    """Some opponent still in the hand shows a flush look (collected_suit)."""
    for p in range(4):
        if is_opponent(obs, p) and collected_suit(obs, p) >= 0:
            return True
    return False


@nb.njit(cache=True)
def meld_threats(obs, min_melds):
    """Bit p set for each opponent still in the hand with at least `min_melds` melds."""
    mask = 0
    for p in range(4):
        if is_opponent(obs, p) and obs[BOBS.n_melds + p] >= min_melds:
            mask |= 1 << p
    return mask


@nb.njit(cache=True)
def all_opponents(obs):
    """Bit p set for each opponent still in the hand."""
    mask = 0
    for p in range(4):
        if is_opponent(obs, p):
            mask |= 1 << p
    return mask


@nb.njit(cache=True)
def unseen_copies(obs, kind):
    """Copies of `kind` outside our hand and the public view (held by others or in the wall)."""
    return max(0, 4 - obs[BOBS.hand + kind] - obs[BOBS.seen + kind])


@nb.njit(cache=True)
def open_sequences(obs, kind):
    """Sequences through `kind` whose two other tiles are not all visible to us (possible sequence waits)."""
    r = kind % 9
    n = 0
    for start in range(max(0, r - 2), min(6, r) + 1):
        possible = True
        for j in range(start, start + 3):
            if j != r and unseen_copies(obs, kind - r + j) == 0:
                possible = False
        if possible:
            n += 1
    return n


@nb.njit(cache=True)
def tile_danger(obs, kind, p):
    """Danger of discarding `kind` against seat p, from public information (there is no furiten, B-8).

    0 for p's void suit (p cannot win holding it, B-7). Otherwise the unseen copies of `kind` (pair and
    single waits need them) plus the possible sequence waits through it (open_sequences: terminals have
    fewer), 1 less when p itself discarded the kind, doubled when p visibly collects that suit
    (collected_suit).
    """
    suit = kind // 9
    if suit == obs[BOBS.void + p]:
        return 0
    danger = 1 + unseen_copies(obs, kind) + open_sequences(obs, kind)
    if obs[BOBS.river + 34 * p + kind] > 0:
        danger -= 1
    if collected_suit(obs, p) == suit:
        danger *= 2
    return danger


@nb.njit(cache=True)
def safest_discard(obs, threat_mask):
    """The held kind with the least summed danger against the seats in `threat_mask`; ties go to the tile
    that least belongs to a shape, then the outermost."""
    hand = obs[BOBS.hand:BOBS.hand + 34]
    best, best_key = -1, 1 << 30
    for k in range(27):
        if hand[k] == 0:
            continue
        danger = 0
        for p in range(4):
            if threat_mask & (1 << p):
                danger += tile_danger(obs, k, p)
        key = danger * 1024 + keep_score(hand, k) * 16 - edge_score(k)
        if key < best_key:
            best, best_key = k, key
    return best
