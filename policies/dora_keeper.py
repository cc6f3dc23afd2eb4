"""`dora-keeper`: value-seeking discards for dora-rich modes (RULES.md DF `dora-fever`); control: `baseline`.

On its own turn it plays like `baseline` (wins, kans, riichi, folding against riichi at 2+ shanten), but among
the discards that keep shanten lowest it first keeps value: it gives up the tile worth the fewest dora
(every indicator pointing at it counts, and the last copy of a held red five counts one more), and only then
looks at acceptance and shape like `baseline`.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Policy
from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_common import hand_of
from tsumolab.policies.riichi_tiebreak import least_cost_discard, least_cost_turn
from tsumolab.sims.riichi.scoring import dora_of


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
def dora_cost(obs):
    """Per held kind, the dora its discard gives up (discard_value); 0 for kinds not held."""
    hand = hand_of(obs)
    cost = np.zeros(34, np.int64)
    for k in range(34):
        if hand[k] > 0:
            cost[k] = discard_value(obs, hand, k)
    return cost


@nb.njit(cache=True)
def value_discard(obs, tables, forbid_a, forbid_b):
    """Among discards keeping shanten lowest: least dora lost, then the baseline's acceptance and shape order.
    Returns (kind, shanten after)."""
    return least_cost_discard(obs, tables, forbid_a, forbid_b, dora_cost(obs))


@hook
def turn(obs, params, tables):
    return least_cost_turn(obs, tables, dora_cost(obs))


POLICIES = [
    Policy(
        name="dora-keeper",
        description="Baseline riichi play that keeps dora and red fives whenever shanten ties (dora-fever).",
        hooks={},
        riichi_hooks={"turn": turn},
        modes=("dora-fever", "riichi"),
    ),
]
