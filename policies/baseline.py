"""`baseline`: efficient play that takes every win.

Exchange and void are chosen for hand value, void tiles go out first, discards keep shanten lowest and
then accept the most unseen tiles, and pon/kan are made when they do not worsen the hand.
"""

import numba as nb

from tsumolab.policies.api import BOBS, KAN, KAN_CALL, PASS, PON, RON, TSUMO, hook
from tsumolab.policies.common import (
    call_keeps_hand, efficient_discard, fewest_suit_exchange, kan_keeps_hand, own_hand, own_void, split_tables,
    suit_count, void_discard,
)
from tsumolab.policies import riichi_baseline
from tsumolab.policies.registry import Policy
from tsumolab.sims.shanten import BLOODSHED_SHAPES, shanten


@nb.njit(cache=True)
def value_void(obs, tables):
    """The suit whose loss leaves the best shanten, fewest tiles on ties."""
    suit_t, honor_t = split_tables(tables)
    best, best_key = 0, 1 << 30
    for v in range(3):
        hand = own_hand(obs).copy()
        n = suit_count(hand, v)
        hand[v * 9:v * 9 + 9] = 0
        key = shanten(hand, 0, BLOODSHED_SHAPES, suit_t, honor_t) * 64 + n
        if key < best_key:
            best, best_key = v, key
    return best


@nb.njit(cache=True)
def turn_before_discard(obs, tables, kan_mode, void_first):
    """Own turn up to the choice of a discard: TSUMO when possible; KAN + kind by `kan_mode` (0 never, 1 when
    the hand keeps, 2 always); a void tile if `void_first`; -1 when a discard is still to choose."""
    if obs[BOBS.can_win]:
        return TSUMO
    if kan_mode > 0:
        void = own_void(obs)
        for k in range(27):
            option = obs[BOBS.kan_options + k]
            if option > 0 and k // 9 != void and (kan_mode == 2 or kan_keeps_hand(obs, tables, k, option)):
                return KAN + k
    if void_first:
        return void_discard(obs)
    return -1


@nb.njit(cache=True)
def play_turn(obs, tables, kan_mode, void_first):
    """Own turn: turn_before_discard, else the most efficient discard."""
    action = turn_before_discard(obs, tables, kan_mode, void_first)
    if action >= 0:
        return action
    kind, _ = efficient_discard(obs, tables, True)
    return kind


@nb.njit(cache=True)
def is_plain_discard(obs, action):
    """Whether play_turn's `action` is a discard by efficiency, which a variant may replace: not a win or a kan,
    not a void-suit tile."""
    return action < KAN and action // 9 != own_void(obs)


@nb.njit(cache=True)
def react_to_discard(obs, tables, kan_mode, pon_mode):
    """Another seat's discard: ron when possible; open kan by `kan_mode` (0 never, 1 when the hand keeps,
    2 always); pon by `pon_mode` (0 never, 1 when the hand keeps, 2 whenever allowed). Never claims a
    void-suit tile."""
    if obs[BOBS.can_win]:
        return RON
    tile = obs[BOBS.tile]
    if tile // 9 == own_void(obs):
        return PASS
    if obs[BOBS.can_kan] and (kan_mode == 2 or (kan_mode == 1 and call_keeps_hand(obs, tables, tile, 3))):
        return KAN_CALL
    if obs[BOBS.can_pon] and (pon_mode == 2 or (pon_mode == 1 and call_keeps_hand(obs, tables, tile, 2))):
        return PON
    return PASS


@hook
def exchange(obs, params, tables):
    return fewest_suit_exchange(obs, tables, True)


@hook
def void(obs, params, tables):
    return value_void(obs, tables)


@hook
def turn(obs, params, tables):
    return play_turn(obs, tables, 1, True)


@hook
def react(obs, params, tables):
    return react_to_discard(obs, tables, 1, 1)


@hook
def rob(obs, params, tables):
    return RON if obs[BOBS.can_win] else PASS


POLICY = Policy(
    name="baseline",
    description="Efficient play: value-based exchange and void, void tiles first, shanten then "
                "acceptance, pon/kan when the hand keeps, takes every win.",
    hooks={"exchange": exchange, "void": void, "turn": turn, "react": react, "rob": rob},
    riichi_hooks=riichi_baseline.HOOKS,
    modes=("bloodshed", "riichi", "shura"),
)
