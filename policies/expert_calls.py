"""The calls of `expert` in the riichi family (policies.expert_riichi): which discard to pon or chi.

- A win is always taken; a kan is never called.
- A pon of a yakuhai pair (not of a concealed triplet) is made unless it leaves the hand further from ready.
- Any other pon or chi must lower the shanten — an open hand's to any, a closed hand's to `call_shanten` or
  fewer — and keep a yaku the hand can finish (`keeps_yaku`): a yakuhai triplet; tanyao, with the call's tiles
  simples, every meld simples, at most TANYAO_OUTSIDE terminals and honors left to give up, and those dead
  weight (the hand is as near ready without them); a flush, with the call in its suit or a honor, every meld
  in it or honors, at most FLUSH_OUTSIDE tiles of other suits left, and those costing at most FLUSH_SLACK
  shanten. A call for speed, not one that leaves a yakuless hand or throws away its shape for a cheap yaku.
- Late (FORMAL_WALL wall tiles or fewer) any call that makes the hand ready is made, yaku or not: a ready hand
  is paid at the exhaustive draw (R-6).
- Facing a riichi only a call that makes the hand ready is made.
Every function is jit-compiled.
"""

from __future__ import annotations

import numba as nb

from tsumolab.policies.danger import riichi_threatens
from tsumolab.policies.hand_judgment import TANYAO, off_plan, own_meld
from tsumolab.policies.riichi_api import CHI_HIGH, CHI_LOW, CHI_MID, PASS, PON, ROBS, RON
from tsumolab.policies.riichi_common import (
    hand_of, is_open, is_simple, is_yakuhai, n_melds_of, own_shanten, shanten_after_call,
)
from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS

TANYAO_OUTSIDE, FLUSH_OUTSIDE, FLUSH_SLACK, FORMAL_WALL = 2, 4, 2, 16


@nb.njit(cache=True)
def shanten_keeping(obs, tables, hand, plan):
    """Shanten of the concealed `hand` (after a call, so with one meld more) counting only the tiles the plan
    keeps (hand_judgment.off_plan): what the hand needs once the others are gone."""
    kept = hand.copy()
    for k in range(34):
        if off_plan(plan, k):
            kept[k] = 0
    return shanten(kept, n_melds_of(obs) + 1, RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:])


@nb.njit(cache=True)
def keeps_plan(obs, tables, hand, plan, limit, after, slack):
    """After the call the melds fit the plan, at most `limit` concealed tiles work against it, and giving them
    all up leaves the hand at most `slack` shanten further than `after`."""
    against = 0
    for k in range(34):
        if off_plan(plan, k):
            if own_meld(obs, k) > 0:
                return False
            against += hand[k]
    return against <= limit and shanten_keeping(obs, tables, hand, plan) <= after + slack


@nb.njit(cache=True)
def keeps_yaku(obs, tables, tile, a, b, after):
    """Calling `tile` with own kinds a, b, leaving `after` shanten, keeps a yaku the hand can finish (module
    docstring)."""
    hand = hand_of(obs).copy()
    hand[a] -= 1
    hand[b] -= 1
    for k in range(27, 34):
        if is_yakuhai(obs, k) and (own_meld(obs, k) >= 3 or hand[k] >= 3):
            return True
    if a == tile and b == tile and is_yakuhai(obs, tile):
        return True
    if is_simple(tile) and is_simple(a) and is_simple(b) and keeps_plan(obs, tables, hand, TANYAO, TANYAO_OUTSIDE,
                                                                          after, 0):
        return True
    for s in range(3):
        if (tile >= 27 or tile // 9 == s) and keeps_plan(obs, tables, hand, s, FLUSH_OUTSIDE, after, FLUSH_SLACK):
            return True
    return False


@nb.njit(cache=True)
def worth_calling(obs, tables, tile, a, b, now, max_after):
    """The shanten after this call when it is worth making (module docstring), else -1."""
    after = shanten_after_call(obs, tables, a, b)
    if after == 0 and now > 0 and obs[ROBS.wall_left] <= FORMAL_WALL:
        return after
    if after < now and after <= max_after and keeps_yaku(obs, tables, tile, a, b, after):
        return after
    return -1


@nb.njit(cache=True)
def best_chi(obs, tables, tile, now, max_after):
    """The chi answer leaving the fewest shanten among those worth_calling, or PASS; and that shanten."""
    bits = obs[ROBS.can_chi]
    options = ((1, CHI_LOW, tile + 1, tile + 2), (2, CHI_MID, tile - 1, tile + 1), (4, CHI_HIGH, tile - 2, tile - 1))
    choice, fewest = PASS, 99
    for bit, answer, a, b in options:
        if bits & bit:
            after = worth_calling(obs, tables, tile, a, b, now, max_after)
            if 0 <= after < fewest:
                choice, fewest = answer, after
    return choice, fewest


@nb.njit(cache=True)
def call_answer(obs, tables, call_shanten):
    """The answer to another seat's discard (module docstring)."""
    if obs[ROBS.can_win]:
        return RON
    tile = obs[ROBS.tile]
    now = own_shanten(obs, tables)
    max_after = 0 if riichi_threatens(obs) else 8 if is_open(obs) else call_shanten
    pon_after = 99
    if obs[ROBS.can_pon]:
        if is_yakuhai(obs, tile) and obs[ROBS.hand + tile] == 2 and max_after > 0 \
                and shanten_after_call(obs, tables, tile, tile) <= now:
            return PON
        after = worth_calling(obs, tables, tile, tile, tile, now, max_after)
        if after >= 0:
            pon_after = after
    chi, chi_after = best_chi(obs, tables, tile, now, max_after)
    if chi != PASS and chi_after <= pon_after:
        return chi
    return PON if pon_after < 99 else PASS
