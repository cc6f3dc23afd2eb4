"""`deal-reader`: information-aware defense for `open-deal` (RULES.md OD); control: `baseline`.

On its own turn it plays like `baseline` (wins, kans, riichi, folding against riichi at 2+ shanten), but among
the discards that keep shanten lowest it avoids tiles that complete a shape of an opponent's shown starting
hand (obs ROBS.deal_shown) of an opponent in riichi: a pair (a triplet wait), or two tiles a sequence needs
(ryanmen, kanchan, penchan). Tiles already safe against that opponent (ROBS.safe) cost nothing; with nobody in
riichi it discards exactly like baseline.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Policy
from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_tiebreak import least_cost_turn


@nb.njit(cache=True)
def completes_shape(deal, k):
    """2 if kind k matches a pair of the shown deal, 1 if it completes a two-tile sequence shape, else 0."""
    if deal[k] >= 2:
        return 2
    if k >= 27:
        return 0
    r = k % 9
    lo = deal[k - 1] > 0 if r >= 1 else False
    lo2 = deal[k - 2] > 0 if r >= 2 else False
    hi = deal[k + 1] > 0 if r <= 7 else False
    hi2 = deal[k + 2] > 0 if r <= 6 else False
    if (lo and hi) or (lo and lo2) or (hi and hi2):
        return 1
    return 0


@nb.njit(cache=True)
def deal_danger(obs):
    """Per-kind cost of discarding it: the shapes it completes in the shown starting hands of opponents in riichi."""
    cost = np.zeros(34, np.int64)
    me = obs[ROBS.seat]
    for opp in range(4):
        if opp == me or obs[ROBS.won + opp] or obs[ROBS.riichi + opp] == 0:
            continue
        deal = obs[ROBS.deal_shown + 34 * opp:ROBS.deal_shown + 34 * opp + 34]
        for k in range(34):
            if obs[ROBS.safe + 34 * opp + k] == 0:
                cost[k] += completes_shape(deal, k)
    return cost


@hook
def turn(obs, params, tables):
    return least_cost_turn(obs, tables, deal_danger(obs))


POLICIES = [
    Policy(
        name="deal-reader",
        description="Baseline riichi play that avoids discards completing a riichi opponent's shown starting "
                    "shapes when shanten ties (open-deal).",
        hooks={},
        riichi_hooks={"turn": turn},
        modes=("open-deal",),
    ),
]
