"""`fate-keeper` for `fate` (RULES.md F): baseline riichi play that, when the baseline discard would give up
one of its own open deal tiles (obs[ROBS.fate_open], each one +1 on the win multiplier), discards another tile
with the same shanten instead (the one accepting most unseen tiles), unless that costs over a quarter of the
baseline discard's acceptance. Defensive folds (baseline's) are kept. In
other riichi modes nothing is open: plays baseline.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Policy
from tsumolab.policies.riichi_api import RIICHI, ROBS
from tsumolab.policies.riichi_baseline import riichi_turn
from tsumolab.policies.riichi_common import (
    best_discard_shanten, discard_acceptance, forbidden_kinds, hand_of, lowest_discard_shanten, n_melds_of, threats,
    unseen,
)
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def loses_open_tile(obs, kind):
    """Discarding `kind` gives up one of the seat's open deal tiles: the open red five when it is the copy that
    goes (a discard by kind gives up a plain copy while one is held), else an open plain copy when fewer plain
    copies than open ones are left."""
    seat = obs[ROBS.seat]
    open_n = obs[ROBS.fate_open + 34 * seat + kind]
    held_after = obs[kind] - 1 + obs[ROBS.meld_tiles + 34 * seat + kind]
    if kind != 4 and kind != 13 and kind != 22:
        return held_after < open_n
    red_open = obs[ROBS.fate_red + 3 * seat + kind // 9]
    red_in_hand = obs[ROBS.red + kind // 9]
    if red_in_hand and obs[kind] == 1:
        return red_open == 1
    return held_after - max(red_in_hand, red_open) < open_n - red_open


@nb.njit(cache=True)
def keeper_discard(obs, tables, kind):
    """`kind`, or a discard with the same shanten after it that keeps every open tile (-1 = none)."""
    if not loses_open_tile(obs, kind):
        return kind
    hand = hand_of(obs).copy()
    forbid_a, forbid_b = forbidden_kinds(obs)
    after = np.empty(34, np.int64)
    lowest_discard_shanten(obs, tables, hand, forbid_a, forbid_b, after)
    left = unseen(obs)
    drawn = np.empty(34, np.int64)
    choice, choice_key = -1, -1
    base_accept = 0
    for k in range(34):
        if hand[k] == 0 or k == forbid_a or k == forbid_b or after[k] != after[kind]:
            continue
        accept = discard_acceptance(hand, k, n_melds_of(obs), after[kind], left, tables[:SUIT_ROWS], tables[SUIT_ROWS:],
                                  drawn)
        if k == kind:
            base_accept = accept
        elif accept > choice_key and not loses_open_tile(obs, k):
            choice, choice_key = k, accept
    if 4 * choice_key < 3 * base_accept:
        return -1  # keeping the open tile would cost over a quarter of the acceptance
    return choice


@hook
def fate_keeper_turn(obs, params, tables):
    answer = riichi_turn(obs, tables, True, False)
    if obs[ROBS.riichi + obs[ROBS.seat]] > 0 or (threats(obs) != 0 and best_discard_shanten(obs, tables) >= 2):
        return answer  # in riichi the drawn tile goes; baseline folds: safety first
    if 0 <= answer < 34:
        alt = keeper_discard(obs, tables, answer)
        return alt if alt >= 0 else answer
    if RIICHI <= answer < RIICHI + 34:
        alt = keeper_discard(obs, tables, answer - RIICHI)
        return RIICHI + alt if alt >= 0 else answer
    return answer


POLICIES = [
    Policy(
        name="fate-keeper",
        description="Baseline riichi play that keeps its open deal tiles (fate multiplier) when shanten ties (F).",
        hooks={},
        riichi_hooks={"turn": fate_keeper_turn},
        modes=("fate",),
    ),
]
