"""`eye-pusher` for `dragon-eye` 龙之目玉 (RULES.md DE): baseline riichi play that reads the eye
(obs[ROBS.dragon_eye …], laid out by sims.riichi.dragon_eye_holder).

- While holding the eye (its wins pay ×2): never folds, and calls toward a fast win: any chi / pon that lowers
  shanten with a yaku in reach, even facing a riichi and even to open a closed hand.
- Facing the eye's holder in riichi (its win would cost ×2): folds already at 1 shanten (baseline: 2+), and
  makes no calls.
Otherwise baseline. Parameters switch each part off (0) to measure it alone: push, calls, fold_early.
"""

import numba as nb

from tsumolab.policies.api import hook
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.riichi_api import PASS, PON, RIICHI, ROBS, RON
from tsumolab.policies.riichi_baseline import riichi_react, riichi_turn
from tsumolab.policies.riichi_common import (
    best_discard_shanten, chi_choice, fold_discard, forbidden_kinds, open_hand_has_yaku_path, own_shanten,
    shanten_after_call, threats,
)
from tsumolab.sims.riichi.dragon_eye_holder import EYE_HOLDER


@nb.njit(cache=True)
def holder_of(obs):
    return obs[ROBS.dragon_eye + EYE_HOLDER]


@nb.njit(cache=True)
def holder_in_riichi(obs):
    h = holder_of(obs)
    return h >= 0 and h != obs[ROBS.seat] and (threats(obs) >> h) & 1 == 1


@hook
def turn(obs, params, tables):
    me = obs[ROBS.seat]
    if holder_of(obs) == me and params[0] != 0:
        return riichi_turn(obs, tables, False, True)  # holding the eye: push
    action = riichi_turn(obs, tables, True, True)
    is_discard = action < 34 or RIICHI <= action < RIICHI + 34
    if is_discard and params[2] != 0 and obs[ROBS.riichi + me] == 0 and holder_in_riichi(obs) and \
            best_discard_shanten(obs, tables) >= 1:
        forbid_a, forbid_b = forbidden_kinds(obs)
        return fold_discard(obs, forbid_a, forbid_b)
    return action


@hook
def react(obs, params, tables):
    if obs[ROBS.can_win]:
        return RON
    me = obs[ROBS.seat]
    if holder_of(obs) != me or params[1] == 0:
        if holder_in_riichi(obs) and params[2] != 0:
            return PASS
        return riichi_react(obs, tables, True)
    tile = obs[ROBS.tile]
    if not open_hand_has_yaku_path(obs, tile):
        return PASS
    now = own_shanten(obs, tables)
    if obs[ROBS.can_pon] and shanten_after_call(obs, tables, tile, tile) < now:
        return PON
    return chi_choice(obs, tables, 8)


POLICIES = [
    Policy(
        name="eye-pusher",
        description="Baseline riichi play that pushes and calls while holding the dragon eye and folds early "
                    "against the holder's riichi (dragon-eye).",
        hooks={},
        riichi_hooks={"turn": turn, "react": react},
        modes=("dragon-eye",),
        params=(
            Param("push", int, 1, "1 = never fold while holding the eye"),
            Param("calls", int, 1, "1 = call toward a fast win while holding the eye"),
            Param("fold_early", int, 1, "1 = fold at 1 shanten (and call nothing) against the holder's riichi"),
        ),
    ),
]
