"""A jit-compiled discard chooser for mode-aware riichi policies: among the discards that keep shanten lowest,
the least costly by a per-kind cost the policy supplies, then the baseline's acceptance and shape order; and
the own turn of a policy that plays baseline with that discard."""

import numba as nb
import numpy as np

from tsumolab.policies.riichi_api import RIICHI
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_common import (
    best_discard_shanten, discard_acceptance, efficient_discard, forbidden_kinds, hand_of, is_free_discard,
    isolation, lowest_discard_shanten, n_melds_of, threats, unseen,
)
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def least_cost_discard(obs, tables, forbid_a, forbid_b, cost):
    """Among discards keeping shanten lowest: lowest cost[kind], then most unseen tiles accepted, then the most
    isolated / outward tile; when the cost is equal for all of them, the baseline's efficient_discard.
    Returns (kind, shanten after)."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    n_melds = n_melds_of(obs)
    after = np.empty(34, np.int64)
    best = lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, after)
    least, most = 1 << 40, -(1 << 40)
    for k in range(34):
        if hand[k] > 0 and k != forbid_a and k != forbid_b and after[k] == best:
            least = min(least, cost[k])
            most = max(most, cost[k])
    if least == most:  # the cost does not discriminate: exactly the baseline's choice
        return efficient_discard(obs, tables, forbid_a, forbid_b)
    left = unseen(obs)
    drawn = np.empty(34, np.int64)
    choice, choice_key = -1, -(1 << 40)
    for k in range(34):
        if hand[k] == 0 or k == forbid_a or k == forbid_b or after[k] != best or cost[k] != least:
            continue
        accept = discard_acceptance(hand, k, n_melds, best, left, suit_t, honor_t, drawn)
        edge = (4 - abs(k % 9 - 4)) if k < 27 else 0
        key = accept * 256 - isolation(hand, k) * 8 - edge
        if key > choice_key:
            choice, choice_key = k, key
    return choice, best


@nb.njit(cache=True)
def least_cost_turn(obs, tables, cost):
    """Own turn as baseline (wins, kans, riichi, its fold against riichi at 2+ shanten), but the discard, riichi
    or not, is least_cost_discard's by the per-kind `cost`."""
    action = riichi_turn(obs, tables, True, True)
    if not is_free_discard(obs, action) or (threats(obs) != 0 and best_discard_shanten(obs, tables) >= 2):
        return action
    forbid_a, forbid_b = forbidden_kinds(obs)
    kind, _after = least_cost_discard(obs, tables, forbid_a, forbid_b, cost)
    return RIICHI + kind if action >= RIICHI else kind
