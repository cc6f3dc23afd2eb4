"""A user policy for tsumolab: `tsumo-only` never takes a ron (nor robs a kan) and wins only by tsumo.

    tsumolab run --policy-path examples/my_policy.py --seats tsumo-only,baseline,baseline,baseline -n 1000
"""

from policies.api import BOBS, PASS, PON, hook
from policies.common import call_keeps_hand, own_void
from policies.registry import Policy


@hook
def react(obs, params, tables):
    # obs: this seat's observation (offsets O_* in policies.api); answer PASS, RON, PON or KAN_CALL.
    tile = obs[BOBS.tile]
    if obs[BOBS.can_pon] and tile // 9 != own_void(obs) and call_keeps_hand(obs, tables, tile, 2):
        return PON
    return PASS  # also when obs[BOBS.can_win] = 1: the ron is passed


@hook
def rob(obs, params, tables):
    return PASS


# Hooks left out (exchange, void, turn) come from baseline, which declares every tsumo.
POLICY = Policy(
    name="tsumo-only",
    description="Passes every ron and robbed kan (wins by tsumo only); pons when the hand keeps.",
    modes=("bloodshed",),
    hooks={"react": react, "rob": rob},
)
