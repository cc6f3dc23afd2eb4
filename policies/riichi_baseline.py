"""`baseline` in the riichi modes: efficient discards (shanten, then acceptance), riichi whenever tenpai and
allowed, yakuhai pons and calls that keep a yaku, simple defense (fold with genbutsu, suji, honors when an
opponent is in riichi and the hand is 2+ shanten), takes every win, efficiency exchange (S-2).

`riichi_turn` / `riichi_react` take switches so that claim variants reuse them.
"""

import numba as nb

from tsumolab.policies.api import hook
from tsumolab.policies.riichi_mode_default import mode_default
from tsumolab.policies.riichi_api import KAN, NINE_TERMINALS, PASS, PON, RIICHI, ROBS, RON, TSUMO
from tsumolab.policies.riichi_common import (
    best_discard_shanten, call_improves, chi_choice, efficiency_exchange, efficient_discard, fold_discard,
    forbidden_kinds, hand_of, is_open, is_yakuhai, n_melds_of, open_hand_has_yaku_path, own_shanten,
    shanten_after_call, threats,
)
from tsumolab.sims.shanten import RIICHI_SHAPES, shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS


@nb.njit(cache=True)
def riichi_turn(obs, tables, defend, riichi_after_win):
    """Own turn. `defend`: fold against riichi at 2+ shanten; `riichi_after_win`: declare riichi even after
    somebody has won this hand (shura)."""
    action = riichi_turn_before_discard(obs, tables)
    if action >= 0:
        return action
    forbid_a, forbid_b = forbidden_kinds(obs)
    if defend and threats(obs) != 0 and best_discard_shanten(obs, tables) >= 2:
        return fold_discard(obs, forbid_a, forbid_b)
    kind, after = efficient_discard(obs, tables, forbid_a, forbid_b)
    if after == 0 and obs[ROBS.can_riichi] and (riichi_after_win or obs[ROBS.n_winners] == 0):
        return RIICHI + kind
    return kind


@nb.njit(cache=True)
def riichi_turn_before_discard(obs, tables):
    """Own turn up to the choice of a discard: TSUMO when possible, nine terminals with fewer than 11 kinds of
    terminals and honors, the drawn tile in riichi, a closed kan that keeps the shanten; -1 when a discard is
    still to choose."""
    if obs[ROBS.can_win]:
        return TSUMO
    if obs[ROBS.can_nine]:
        orphans = 0
        for k in range(34):
            if obs[ROBS.hand + k] > 0 and (k >= 27 or k % 9 == 0 or k % 9 == 8):
                orphans += 1
        if orphans < 11:
            return NINE_TERMINALS
    seat = obs[ROBS.seat]
    if obs[ROBS.riichi + seat] > 0:
        return obs[ROBS.tile]
    if not obs[ROBS.after_call]:
        for k in range(34):
            option = obs[ROBS.kan_options + k]
            if option == 1:
                suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
                hand = hand_of(obs).copy()
                before = best_discard_shanten(obs, tables)
                hand[k] -= 4
                if shanten(hand, n_melds_of(obs) + 1, RIICHI_SHAPES, suit_t, honor_t) <= before:
                    return KAN + k
    return -1


@nb.njit(cache=True)
def riichi_react(obs, tables, calls):
    """Another seat's discard: ron when possible; with `calls`, pon yakuhai and make calls that lower shanten
    and keep a yaku in reach (not while facing a riichi)."""
    return react_opening_at(obs, tables, calls, 0)


@nb.njit(cache=True)
def react_opening_at(obs, tables, calls, closed_max_after):
    """`riichi_react`, where a closed hand opens for a yaku-keeping call (other than a yakuhai pon) when the call
    leaves it `closed_max_after` or fewer shanten from tenpai (baseline: 0, only to reach tenpai)."""
    if obs[ROBS.can_win]:
        return RON
    if not calls or threats(obs) != 0:
        return PASS
    tile = obs[ROBS.tile]
    max_after = 3 if is_open(obs) else closed_max_after
    if obs[ROBS.can_pon]:
        if is_yakuhai(obs, tile) and call_improves(obs, tables, tile, tile, tile):
            return PON
        if open_hand_has_yaku_path(obs, tile):
            now = own_shanten(obs, tables)
            after = shanten_after_call(obs, tables, tile, tile)
            if after < now and after <= max_after:
                return PON
    if open_hand_has_yaku_path(obs, tile):
        choice = chi_choice(obs, tables, max_after)
        if choice != 0:
            return choice
    return PASS


@hook
def exchange(obs, params, tables):
    return efficiency_exchange(obs, tables)


@hook
def turn(obs, params, tables):
    return riichi_turn(obs, tables, True, True)


@hook
def react(obs, params, tables):
    return riichi_react(obs, tables, True)


@hook
def rob(obs, params, tables):
    return RON if obs[ROBS.can_win] else PASS


HOOKS = {"exchange": exchange, "turn": turn, "react": react, "rob": rob, "mode": mode_default}
