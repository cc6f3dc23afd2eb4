"""`dora-keeper`: value-seeking discards for dora-rich modes (RULES.md DF `dora-fever`); control: `baseline`.

On its own turn it plays like `baseline` (wins, kans, riichi, folding against riichi at 2+ shanten), but among
the discards that keep shanten lowest it first keeps value: it gives up the tile worth the fewest dora
(every indicator pointing at it counts, and the last copy of a held red five counts one more), and only then
looks at acceptance and shape like `baseline`.
"""

import numba as nb
import numpy as np

from policies.api import hook
from policies.registry import Policy
from policies.riichi_api import RIICHI, ROBS
from policies.riichi_baseline import riichi_turn
from policies.riichi_common import best_discard_shanten, hand_of, threats
from policies.riichi_tiebreak import least_cost_discard


@nb.njit(cache=True)
def dora_of(indicator):
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 26) % 4
    return 31 + (indicator - 30) % 3


@nb.njit(cache=True)
def discard_value(obs, hand, k):
    """Dora given up by discarding one tile of kind k: indicators pointing at k, plus a red five that leaves."""
    lost = 0
    for i in range(obs[ROBS.n_dora]):
        if dora_of(obs[ROBS.dora + i]) == k:
            lost += 1
    if k < 27 and k % 9 == 4 and hand[k] == 1 and obs[ROBS.red + k // 9] > 0:
        lost += 1
    return lost


@nb.njit(cache=True)
def value_discard(obs, tables, forbid_a, forbid_b):
    """Among discards keeping shanten lowest: least dora lost, then the baseline's acceptance and shape order.
    Returns (kind, shanten after)."""
    hand = hand_of(obs)
    cost = np.zeros(34, np.int64)
    for k in range(34):
        if hand[k] > 0:
            cost[k] = discard_value(obs, hand, k)
    return least_cost_discard(obs, tables, forbid_a, forbid_b, cost)


@hook
def turn(obs, params, tables):
    action = riichi_turn(obs, tables, True, True)
    is_discard = action < 34 or RIICHI <= action < RIICHI + 34
    if not is_discard or obs[ROBS.riichi + obs[ROBS.seat]] > 0:
        return action
    if threats(obs) != 0 and best_discard_shanten(obs, tables) >= 2:
        return action  # baseline's fold stands
    forbid_a = obs[ROBS.forbid_a] if obs[ROBS.after_call] else -1
    forbid_b = obs[ROBS.forbid_b] if obs[ROBS.after_call] else -1
    kind, _after = value_discard(obs, tables, forbid_a, forbid_b)
    return RIICHI + kind if action >= RIICHI else kind


POLICIES = [
    Policy(
        name="dora-keeper",
        description="Baseline riichi play that keeps dora and red fives whenever shanten ties (dora-fever).",
        hooks={},
        riichi_hooks={"turn": turn},
        modes=("dora-fever", "riichi"),
    ),
]
