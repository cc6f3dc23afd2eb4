"""`stall-for-draw` (claim B9): with a weak hand late in the hand, avoid dealing in and wait for the
exhaustive draw, where a disconnected seat holding void tiles pays 查花猪 (B-22).

"Weak" approximates "under 4 fan with a low tsumo chance" by distance: the hand is `weak_shanten` or
more from tenpai once the wall holds fewer than `wall_below` tiles. A weak hand still throws its void
tiles first (so it is no flower pig itself), then discards policies.threats.safest_discard against every
opponent still in the hand, makes no pon or kan call, and takes every win. Otherwise it plays baseline.
"""

import numba as nb

from tsumolab.policies.api import BOBS, PASS, RON, hook
from tsumolab.policies.baseline import is_plain_discard, play_turn, react_to_discard
from tsumolab.policies.common import best_discard_shanten, hand_shanten
from tsumolab.policies.registry import Param, Policy
from tsumolab.policies.threats import all_opponents, safest_discard


@nb.njit(cache=True)
def stalling(obs, params, shanten):
    return obs[BOBS.wall_left] < params[1] and shanten >= params[0]


@hook
def turn(obs, params, tables):
    action = play_turn(obs, tables, 1, True)
    if not is_plain_discard(obs, action):
        return action
    if not stalling(obs, params, best_discard_shanten(obs, tables)):
        return action
    return safest_discard(obs, all_opponents(obs))


@hook
def react(obs, params, tables):
    if obs[BOBS.can_win]:
        return RON
    if stalling(obs, params, hand_shanten(obs, tables)):
        return PASS
    return react_to_discard(obs, tables, 1, 1)


POLICY = Policy(
    name="stall-for-draw",
    description="Baseline, but a weak hand (weak_shanten+ from tenpai) with fewer than wall_below wall "
                "tiles left plays safe tiles and makes no calls, waiting for the draw (B9).",
    params=(
        Param("weak_shanten", int, 2, "shanten at or above which the hand counts as weak"),
        Param("wall_below", int, 30, "start stalling when the wall holds fewer tiles than this"),
    ),
    modes=("bloodshed",),
    claim="B9",
    hooks={"turn": turn, "react": react},
)
