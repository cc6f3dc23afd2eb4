"""`flush-seeker` (claim B8): go for 清一色 when one suit dominates.

The target suit is the non-void suit holding at least `min_tiles` of the seat's tiles (concealed tiles
plus 3 per meld) with no meld in another suit. With a target, after tsumo, kans and void tiles (as
baseline), the seat discards tiles of the remaining suit first, the least connected one (then the
outermost), and claims no pon or kan outside the target suit. Without a target it plays baseline.
"""

import numba as nb

from tsumolab.policies.api import BOBS, PASS, RON, hook
from tsumolab.policies.baseline import is_plain_discard, play_turn, react_to_discard
from tsumolab.policies.common import keep_score, edge_score, own_hand, own_melds, own_void, suit_count
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.threats import meld_suit_mask


@nb.njit(cache=True)
def target_suit(obs, min_tiles):
    """The suit to collect, or -1."""
    void = own_void(obs)
    melds = meld_suit_mask(obs, obs[BOBS.seat])
    meld_kinds = own_melds(obs)
    best, best_n = -1, min_tiles - 1
    for s in range(3):
        if s == void or (melds & ~(1 << s)) != 0:
            continue
        n = suit_count(own_hand(obs), s)
        for k in range(s * 9, s * 9 + 9):
            if meld_kinds[k] > 0:
                n += 3
        if n > best_n:
            best, best_n = s, n
    return best


@nb.njit(cache=True)
def off_suit_discard(obs, target):
    """The held non-void tile outside `target` that least belongs to a shape (outermost on ties), or -1."""
    hand = own_hand(obs)
    void = own_void(obs)
    best, best_key = -1, 1 << 30
    for k in range(27):
        if hand[k] == 0 or k // 9 == target or k // 9 == void:
            continue
        key = keep_score(hand, k) * 16 - edge_score(k)
        if key < best_key:
            best, best_key = k, key
    return best


@hook
def turn(obs, params, tables):
    action = play_turn(obs, tables, 1, True)
    target = target_suit(obs, params[0]) if is_plain_discard(obs, action) else -1
    if target < 0:
        return action
    off = off_suit_discard(obs, target)
    return off if off >= 0 else action


@hook
def react(obs, params, tables):
    if obs[BOBS.can_win]:
        return RON
    target = target_suit(obs, params[0])
    if target >= 0 and obs[BOBS.tile] // 9 != target:
        return PASS
    return react_to_discard(obs, tables, 1, 1)


POLICY = Policy(
    name="flush-seeker",
    description="Baseline, but when one non-void suit holds min_tiles tiles it discards the other suit "
                "first and calls only in that suit (B8).",
    params=(Param("min_tiles", int, 8, "tiles of one non-void suit (3 per meld) that make it the flush target"),),
    modes=("bloodshed",),
    claim="B8",
    hooks={"turn": turn, "react": react},
)
