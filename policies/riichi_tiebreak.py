"""A jit-compiled discard chooser for mode-aware riichi policies: among the discards that keep shanten lowest,
the least costly by a per-kind cost the policy supplies, then the baseline's acceptance and shape order."""

import numba as nb
import numpy as np

from policies.riichi_common import discard_acceptance, efficient_discard, hand_of, isolation, n_melds_of, unseen
from sims.shanten import NOT_APPLICABLE, RIICHI_SHAPES, discard_shanten
from sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def least_cost_discard(obs, tables, forbid_a, forbid_b, cost):
    """Among discards keeping shanten lowest: lowest cost[kind], then most unseen tiles accepted, then the most
    isolated / outward tile; when the cost is equal for all of them, the baseline's efficient_discard.
    Returns (kind, shanten after)."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    n_melds = n_melds_of(obs)
    after = np.empty(34, np.int64)
    discard_shanten(hand, n_melds, RIICHI_SHAPES, suit_t, honor_t, after)
    best = NOT_APPLICABLE
    for k in range(34):
        if hand[k] > 0 and k != forbid_a and k != forbid_b and after[k] < best:
            best = after[k]
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
