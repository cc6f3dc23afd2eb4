"""Riichi-family hooks of `expert` (policies.expert): baseline's riichi play with value-aware discards, defense and
riichi judgment. Every riichi-core mode plays them as plain riichi.

- Push or fold against a riichi (an opponent in riichi who has not won): a hand `riichi_fold` or more from
  tenpai after its best discard folds, giving up its least dangerous tile (`danger`: genbutsu, then honors by
  copies visible, suji, outer tiles), except a 1-shanten hand worth PUSH_VALUE of dora, red fives and yakuhai
  triplets; a pushing hand gives up the safest of the discards that keep its shanten and 3/4 of its acceptance.
- Without a threat the same window of discards keeps dora, the last red five of a suit and yakuhai pairs; far
  from tenpai (3+ shanten) baseline's shape order decides.
- Riichi judgment on a tenpai discard: stay dama when the closed hand has a yaku without riichi (tanyao or a
  yakuhai triplet) and already counts `dama_value` or more of yaku, dora and red fives (riichi adds little to a
  big hand and shows the wait), and when the wait has at most two unseen winning tiles with `late_wall` or fewer
  tiles left in the wall; otherwise riichi whenever allowed, also after another seat's win (shura, claim S2).
- Calls as baseline, but a closed hand may open for a yaku-keeping call that leaves it `call_shanten` from
  tenpai; exchange (shura), kans, wins and the modes' own decisions as baseline.
"""

import numba as nb
import numpy as np

from tsumolab.policies.api import hook
from tsumolab.policies.riichi_api import RIICHI, ROBS
from tsumolab.policies.riichi_baseline import react_opening_at, riichi_turn_before_discard
from tsumolab.policies.riichi_common import (
    dama_has_yaku, discard_acceptance, efficient_discard, forbidden_kinds, hand_of, is_dora, is_simple, is_yakuhai,
    live_waits_after, n_melds_of, threats, unseen,
)
from tsumolab.sims.shanten import NOT_APPLICABLE, RIICHI_SHAPES, discard_shanten
from tsumolab.sims.shanten_tables import SUIT_ROWS

# parameter slots of the riichi hooks (policies.expert declares all of them)
P_CALL_SHANTEN, P_RIICHI_FOLD, P_DAMA_VALUE, P_LATE_WALL = 4, 5, 6, 7
PUSH_VALUE = 2  # dora, red fives and yakuhai triplets that keep a 1-shanten hand pushing against a riichi


@nb.njit(cache=True)
def hand_value(obs):
    """Dora (own concealed and melded tiles, per copy), red fives and yakuhai triplets of the seat, plus 1 for
    an all-simples hand: a quick count of the han the hand holds besides riichi."""
    seat = obs[ROBS.seat]
    value = 0
    simple = True
    for k in range(34):
        copies = obs[ROBS.hand + k] + obs[ROBS.meld_tiles + 34 * seat + k]
        if copies == 0:
            continue
        if is_dora(obs, k):
            value += copies
        if copies >= 3 and is_yakuhai(obs, k):
            value += 1
        if not is_simple(k):
            simple = False
    for s in range(3):
        value += obs[ROBS.red + s]
    if simple:
        value += 1
    return value


@nb.njit(cache=True)
def pushes(obs, params, shanten):
    """Keep attacking against a riichi with this shanten after the best discard?"""
    if shanten < params[P_RIICHI_FOLD]:
        return True
    return shanten == 1 and hand_value(obs) >= PUSH_VALUE


@nb.njit(cache=True)
def stays_dama(obs, params, tables, kind):
    """Skip the riichi that discards `kind` (see the module docstring)."""
    waits = np.zeros(34, np.int64)
    live = live_waits_after(obs, tables, kind, waits)
    if live <= 2 and obs[ROBS.wall_left] <= params[P_LATE_WALL]:
        return True
    hand = hand_of(obs).copy()
    hand[kind] -= 1
    return dama_has_yaku(obs, hand, waits) and hand_value(obs) >= params[P_DAMA_VALUE]


@nb.njit(cache=True)
def danger(obs, k, mask):
    """How dangerous discarding kind k is against the riichi seats in `mask`, summed over them: 0 genbutsu;
    honors 1 (three copies visible or held) to 3; suji 2 (terminal) to 4 (middle); other suited tiles 6
    (terminal), 8 (2, 8) or 10 (3 … 7)."""
    total = 0
    for p in range(4):
        if not (mask >> p) & 1 or obs[ROBS.safe + 34 * p + k]:
            continue
        if k >= 27:
            total += max(1, 4 - obs[ROBS.seen + k] - obs[ROBS.hand + k])  # 3 visible: only a single wait
            continue
        r = k % 9
        lo_safe = r < 3 or obs[ROBS.safe + 34 * p + k - 3] > 0
        hi_safe = r > 5 or obs[ROBS.safe + 34 * p + k + 3] > 0
        edge = min(r, 8 - r)  # 0 terminal, 1 for 2/8, 2+ inside
        if lo_safe and hi_safe:
            total += 2 + min(edge, 2)
        else:
            total += 6 + 2 * min(edge, 2)
    return total


@nb.njit(cache=True)
def tile_value(obs, k):
    """What discarding one copy of kind k gives up: 1 per dora, 1 for the last red five of its suit, 1 for a
    yakuhai pair or triplet."""
    value = 1 if is_dora(obs, k) else 0
    if k < 27 and k % 9 == 4 and obs[ROBS.red + k // 9] and obs[ROBS.hand + k] == 1:
        value += 1
    if k >= 27 and obs[ROBS.hand + k] >= 2 and is_yakuhai(obs, k):
        value += 1
    return value


@nb.njit(cache=True)
def window_discard(obs, tables, forbid_a, forbid_b, after, best, cost):
    """Among the discards that keep the shanten at `best` (`after`: shanten per discard) and accept at least 3/4
    of the most unseen tiles, the one of lowest cost[kind], then the most accepting."""
    suit_t, honor_t = tables[:SUIT_ROWS], tables[SUIT_ROWS:]
    hand = hand_of(obs).copy()
    n_melds = n_melds_of(obs)
    left = unseen(obs)
    drawn = np.empty(34, np.int64)
    accept = np.full(34, -1, np.int64)
    most = 0
    for k in range(34):
        if hand[k] > 0 and k != forbid_a and k != forbid_b and after[k] == best:
            accept[k] = discard_acceptance(hand, k, n_melds, best, left, suit_t, honor_t, drawn)
            most = max(most, accept[k])
    choice, choice_key = -1, -(1 << 40)
    for k in range(34):
        if accept[k] < 0 or 4 * accept[k] < 3 * most:
            continue
        key = -cost[k] * 1024 + accept[k]
        if key > choice_key:
            choice, choice_key = k, key
    return choice


@nb.njit(cache=True)
def safest_discard(obs, forbid_a, forbid_b, mask):
    """The held kind of least danger against the riichi seats in `mask`; ties: most copies, then the outermost."""
    choice, choice_key = -1, 1 << 40
    for k in range(34):
        c = obs[ROBS.hand + k]
        if c == 0 or k == forbid_a or k == forbid_b:
            continue
        key = danger(obs, k, mask) * 64 - c * 8 - (abs(k % 9 - 4) if k < 27 else 4)
        if key < choice_key:
            choice, choice_key = k, key
    return choice


@hook
def turn(obs, params, tables):
    action = riichi_turn_before_discard(obs, tables)
    if action >= 0:
        return action
    forbid_a, forbid_b = forbidden_kinds(obs)
    after = np.empty(34, np.int64)
    discard_shanten(hand_of(obs), n_melds_of(obs), RIICHI_SHAPES, tables[:SUIT_ROWS], tables[SUIT_ROWS:], after)
    best = NOT_APPLICABLE
    for k in range(34):
        if obs[ROBS.hand + k] > 0 and k != forbid_a and k != forbid_b:
            best = min(best, after[k])
    mask = threats(obs)
    if mask != 0 and not pushes(obs, params, best):
        return safest_discard(obs, forbid_a, forbid_b, mask)
    if best >= 3:  # far from tenpai: baseline's shape order
        kind, _ = efficient_discard(obs, tables, forbid_a, forbid_b)
        return kind
    cost = np.zeros(34, np.int64)
    for k in range(34):
        if obs[ROBS.hand + k] > 0:
            cost[k] = danger(obs, k, mask) if mask != 0 else tile_value(obs, k)
    kind = window_discard(obs, tables, forbid_a, forbid_b, after, best, cost)
    if best == 0 and obs[ROBS.can_riichi] and not stays_dama(obs, params, tables, kind):
        return RIICHI + kind
    return kind


@hook
def react(obs, params, tables):
    return react_opening_at(obs, tables, True, params[P_CALL_SHANTEN])


HOOKS = {"turn": turn, "react": react}  # exchange, robbing a kan and the modes' own decisions: baseline's
