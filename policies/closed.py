"""`closed` (control of claim B7): stay closed unless a pon keeps shanten and the hand is not aiming at
seven pairs. Aiming at seven pairs means no meld yet and at least `min_pairs` pairs in hand (four of a
kind counts as two, B-10); then no pon or open kan is made. Otherwise it calls like baseline (pon or
open kan only when the hand keeps its shanten)."""

import numba as nb

from tsumolab.policies.api import BOBS, PASS, RON, hook
from tsumolab.policies.baseline import react_to_discard
from tsumolab.policies.common import n_own_melds, own_hand
from tsumolab.policies.registry import Param, Policy


@nb.njit(cache=True)
def aims_at_seven_pairs(obs, min_pairs):
    if n_own_melds(obs) > 0:
        return False
    hand = own_hand(obs)
    pairs = 0
    for k in range(27):
        pairs += hand[k] // 2
    return pairs >= min_pairs


@hook
def react(obs, params, tables):
    if obs[BOBS.can_win]:
        return RON
    if aims_at_seven_pairs(obs, params[0]):
        return PASS
    return react_to_discard(obs, tables, 1, 1)


POLICY = Policy(
    name="closed",
    description="No pon or open kan while aiming at seven pairs (min_pairs pairs, no meld); otherwise "
                "calls only when the hand keeps shanten (B7 control).",
    params=(Param("min_pairs", int, 4, "pairs held (with no meld) that count as aiming at seven pairs"),),
    modes=("bloodshed",),
    claim="B7",
    hooks={"react": react},
)
