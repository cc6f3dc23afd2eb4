"""`fold` (control of claim B6): stop attacking against a visible threat and discard the safest tile.

The seat folds when its hand is worse than `attack_shanten` (default 0: a tenpai hand keeps attacking)
and either an opponent still in the hand has at least `threat_melds` melds (those opponents are the
threat), or the wall holds fewer than `late_wall` tiles and the hand is `late_shanten` or more from
tenpai (every opponent still in the hand is the threat). Folding keeps tsumo, kans and void tiles first
as baseline, then discards policies.threats.safest_discard (the threat's void suit is safe; otherwise
fewer unseen copies and tiles the threat discarded itself are safer; there is no furiten, B-8), makes no
pon or open kan, and still takes every win.
"""

import numba as nb

from tsumolab.policies.api import BOBS, PASS, RON, hook
from tsumolab.policies.baseline import is_plain_discard, play_turn, react_to_discard
from tsumolab.policies.common import best_discard_shanten, hand_shanten
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.threats import all_opponents, meld_threats, safest_discard


@nb.njit(cache=True)
def threats_to_fold_against(obs, params, shanten):
    """Bit mask of the seats to fold against (0 = keep attacking); `shanten` is the own hand's."""
    if shanten <= params[3]:
        return 0
    mask = meld_threats(obs, params[0])
    if mask == 0 and obs[BOBS.wall_left] < params[1] and shanten >= params[2]:
        mask = all_opponents(obs)
    return mask


@hook
def turn(obs, params, tables):
    action = play_turn(obs, tables, 1, True)
    if not is_plain_discard(obs, action):
        return action
    mask = threats_to_fold_against(obs, params, best_discard_shanten(obs, tables))
    if mask == 0:
        return action
    return safest_discard(obs, mask)


@hook
def react(obs, params, tables):
    if obs[BOBS.can_win]:
        return RON
    if threats_to_fold_against(obs, params, hand_shanten(obs, tables)) != 0:
        return PASS
    return react_to_discard(obs, tables, 1, 1)


POLICY = Policy(
    name="fold",
    description="Baseline, but against a visible threat (an opponent with threat_melds melds, or a late "
                "wall with a slow hand) discards the safest tile and stops calling (B6 control).",
    params=(
        Param("threat_melds", int, 2, "an opponent with this many melds is a threat"),
        Param("late_wall", int, 20, "below this many wall tiles a slow hand folds against everyone"),
        Param("late_shanten", int, 2, "shanten at or above which the hand counts as slow"),
        Param("attack_shanten", int, 0, "never fold with this shanten or better (0 = tenpai attacks)"),
    ),
    modes=("bloodshed",),
    claim="B6",
    hooks={"turn": turn, "react": react},
)
