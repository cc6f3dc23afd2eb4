"""A user policy for tsumolab: `tsumo-only` never takes a ron (nor robs a kan) and wins only by tsumo.

    tsumolab run --policy-path examples/my_policy.py --seats tsumo-only,baseline,baseline,baseline -n 1000
"""

from tsumolab.policies.api import PASS, PON, can_pon, hook, own_seat, tile, void_of
from tsumolab.policies.common import call_keeps_hand
from tsumolab.policies.registry import Policy


@hook
def react(obs, params, tables):
    # Another seat discarded tile(obs). Read obs through the accessors of policies.api; answer PASS, RON, PON
    # or KAN_CALL.
    kind = tile(obs)
    if can_pon(obs) and kind // 9 != void_of(obs, own_seat(obs)) and call_keeps_hand(obs, tables, kind, 2):
        return PON
    return PASS  # also when can_win(obs) = 1: the ron is passed


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
